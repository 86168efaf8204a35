"""A scripted OpenAI-compatible judge: every reply is fixed in advance, whoever wrote the prompt.

Two reward implementations graded by one judge must get the same reply for the same completion
even though their prompts differ (another template, the question or the whole chat prompt, paragraphs
laid out differently). This server knows nothing of either side's wording: a ``Script`` lists

- grades: (gold, predicted answer) -> reply. A prompt holding both strings in separate places
  (whitespace normalised: a right answer equal to its gold must appear twice) gets that reply; when
  several entries fit, the longest answer wins, then the longest gold;
- claims: reasoning -> reply. A prompt holding the reasoning (all whitespace and ``<think>`` /
  ``<answer>`` tags ignored) gets that reply; the longest reasoning wins. An entry with empty
  reasoning answers a prompt nothing else fits.

A prompt holding some entry's reasoning is a decomposition prompt, even when it also holds a
(gold, answer) pair (reasoning quotes facts; a grading prompt never quotes the reasoning). A prompt
matching nothing gets ``UNMATCHED`` and is counted, so a harness can refuse a run that needed it.

    python -m judges.scripted --script script.json --port 8012
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import ContextManager

from aiohttp import web

from judges.threaded import in_thread
from reward_engine.prompts.templates import GRADER_VERSION, SAME_AS_GOLD

UNMATCHED = "UNMATCHED"
_TAGS = re.compile(r"</?(?:think|answer)>")


def squash(text: str) -> str:
    """Runs of whitespace as one space, ends trimmed: how grading prompts and answers are compared."""
    return " ".join(text.split())


def bare(text: str) -> str:
    """No whitespace and no ``<think>``/``<answer>`` tags: how reasoning is compared (sides lay it out apart)."""
    return re.sub(r"\s+", "", _TAGS.sub("", text))


@dataclass(frozen=True)
class Grade:
    gold: str
    answer: str
    reply: str


@dataclass(frozen=True)
class Claims:
    reasoning: str
    reply: str


@dataclass
class Script:
    grades: list[Grade] = field(default_factory=list)
    claims: list[Claims] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> "Script":
        data = json.loads(text)
        return cls([Grade(**g) for g in data.get("grades", [])], [Claims(**c) for c in data.get("claims", [])])


class ScriptedJudge:
    """The matching rules, without a server (tests and harnesses call ``reply`` directly)."""

    def __init__(self, script: Script) -> None:
        # the last entry for a key wins; ``conflicts`` finds a script that needs that rule
        self._grades = {
            (squash(g.gold), squash(g.answer)): (g.reply, g.answer) for g in script.grades if squash(g.answer)
        }
        self._claims = {bare(c.reasoning): c.reply for c in script.claims}
        self._fallback = self._claims.pop("", None)
        self._by_length = sorted(self._claims, key=len, reverse=True)

    def decomposition(self, prompt: str) -> str | None:
        flat = bare(prompt)
        for key in self._by_length:
            if key in flat:
                return self._claims[key]
        return None

    def grade(self, prompt: str) -> str | None:
        """The scripted reply; to the engine's grader (which asks for the answer's span and its comparison
        with the gold) a scripted letter comes back as that JSON, the whole scripted answer as the span
        (none for C), so the letter still decides."""
        flat = squash(prompt)
        fits = [(len(a), len(g), *entry) for (g, a), entry in self._grades.items() if _apart(flat, g, a)]
        if not fits:
            return None
        reply, answer = max(fits)[2:]
        if f"[{GRADER_VERSION}]" in prompt and reply.strip() in ("A", "B", "C"):
            same = dict(zip("ABC", SAME_AS_GOLD))[reply.strip()]
            return json.dumps({"answer_span": answer if reply.strip() != "C" else "", "same_as_gold": same})
        return reply

    def reply(self, prompt: str) -> tuple[str, str]:
        """(kind, reply): kind is ``decompose``, ``grade`` or ``unmatched``."""
        found = self.decomposition(prompt)
        if found is not None:
            return "decompose", found
        found = self.grade(prompt)
        if found is not None:
            return "grade", found
        if self._fallback is not None:
            return "decompose", self._fallback
        return "unmatched", UNMATCHED


def _apart(text: str, gold: str, answer: str) -> bool:
    """``answer`` occurs in ``text`` and ``gold`` still does with that occurrence taken out (some occurrence)."""
    start = text.find(answer)
    while start >= 0:
        if gold in text[:start] + "\0" + text[start + len(answer) :]:
            return True
        start = text.find(answer, start + 1)
    return False


def conflicts(script: Script) -> list[str]:
    """Entries that normalise to the same key with different replies (the script is ambiguous)."""
    out = []
    for what, keyed in (
        ("grade", [((squash(g.gold), squash(g.answer)), g.reply) for g in script.grades]),
        ("claims", [(bare(c.reasoning), c.reply) for c in script.claims]),
    ):
        seen: dict = {}
        for key, reply in keyed:
            if seen.setdefault(key, reply) != reply:
                out.append(f"{what} {key!r}: {seen[key]!r} vs {reply!r}")
    return out


@dataclass
class Stats:
    requests: int = 0
    by_kind: collections.Counter = field(default_factory=collections.Counter)
    unmatched: list[str] = field(default_factory=list)  # the first 300 characters of each unmatched prompt


class ScriptedServer:
    """``POST /v1/chat/completions`` answered from a script; ``GET /stats`` counts by kind."""

    def __init__(self, script: Script) -> None:
        self.judge = ScriptedJudge(script)
        self.stats = Stats()
        self._runner: web.AppRunner | None = None
        self.url = ""

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/stats", self._stats)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.url = f"http://{host}:{site._server.sockets[0].getsockname()[1]}/v1"  # type: ignore[union-attr]
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _stats(self, request: web.Request) -> web.Response:
        return web.json_response(
            {"requests": self.stats.requests, "by_kind": dict(self.stats.by_kind), "unmatched": self.stats.unmatched}
        )

    async def _chat(self, request: web.Request) -> web.Response:
        self.stats.requests += 1
        try:
            body = await request.json()
            messages = body.get("messages", [])
            content = "\n".join(m.get("content", "") for m in messages if isinstance(m.get("content"), str))
        except (json.JSONDecodeError, AttributeError, TypeError):
            return web.json_response({"error": {"message": "invalid request body"}}, status=400)
        kind, reply = self.judge.reply(content)
        self.stats.by_kind[kind] += 1
        if kind == "unmatched":
            self.stats.unmatched.append(content[:300])
        return web.json_response(
            {
                "id": f"chatcmpl-{self.stats.requests}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": str(body.get("model", "scripted")),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": len(content) // 4, "completion_tokens": len(reply) // 4},
            }
        )


def serve_in_thread(script: Script, host: str = "127.0.0.1") -> ContextManager[ScriptedServer]:
    """A scripted judge on its own loop in a daemon thread (for synchronous callers and subprocesses)."""
    return in_thread(ScriptedServer(script), "scripted-judge", host)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m judges.scripted", description=__doc__.split("\n\n")[0])
    parser.add_argument("--script", required=True, help="a Script as JSON: {grades: [...], claims: [...]}")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8012)
    args = parser.parse_args(argv)
    script = Script.from_json(Path(args.script).read_text(encoding="utf-8"))
    bad = conflicts(script)
    if bad:
        parser.error("ambiguous script: " + "; ".join(bad[:5]))
    web.run_app(
        ScriptedServer(script).app(),
        host=args.host,
        port=args.port,
        access_log=None,
        print=lambda *_: print(f"scripted judge on http://{args.host}:{args.port}/v1", flush=True),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
