"""An OpenAI-compatible test judge on 127.0.0.1, with latency, a real RPM limit and faults.

    python -m judges.test_server --port 8011 --latency-ms 300 --rpm 1200 \\
        --fault-rate 0.3 --faults 429,500,hang,malformed,wrong

It recognises the project's own prompts (grader, decomposition, verification, fused) and
answers them deterministically from the fields inside, with the offline grader and
offline fact checker. ``GET /stats`` counts requests, concurrency and faults, so tests can
assert how many calls the engine really made. ``POST /admin`` changes the fault rate or
takes the server "down" (every request 503) without restarting it.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import hashlib
import json
import random
import re
import time
from dataclasses import asdict, dataclass, field
from typing import ContextManager

from aiohttp import web

from judges.threaded import in_thread
from knowrl_io.logs import add_verbosity, setup_logging
from reward_engine import prompts
from reward_engine.labels import Label
from reward_engine.offline import facts as offline_facts
from reward_engine.offline import grader as offline_grader
from reward_engine.offline import reading as offline_reading

FAULTS = ("429", "500", "hang", "malformed", "wrong")
SHUTDOWN_S = 0.25  # on SIGTERM, what requests still in flight get before they are cancelled


@dataclass
class ServerConfig:
    latency_ms: float = 0.0
    latency_dist: str = "uniform"  # fixed | uniform (±50%) | exponential
    rpm: int = 0  # 0: unlimited
    window_s: float = 60.0  # the RPM window (shorter in tests)
    fault_rate: float = 0.0
    faults: tuple[str, ...] = FAULTS
    hang_s: float = 3600.0
    retry_after_s: float = 1.0
    down: bool = False
    grade_as: str | None = None  # answer every grader prompt with this letter (a judge that disagrees)
    accept_schema: bool = True  # False: a request with response_format gets 400 (a server without them)
    gullible: bool = False  # obey grading instructions written into the answer graded (a judge an injection fools)
    seed: int = 0


@dataclass
class Stats:
    requests: int = 0
    completed: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    rate_limited: int = 0
    authorized: int = 0  # requests that carried an Authorization header (the key itself is never kept)
    structured: int = 0  # requests that asked for a JSON schema (response_format)
    response_formats: dict = field(default_factory=lambda: collections.Counter())  # by response_format type
    by_kind: dict = field(default_factory=lambda: collections.Counter())
    faults: dict = field(default_factory=lambda: collections.Counter())
    temperatures: dict = field(default_factory=lambda: collections.Counter())  # requests by temperature asked
    truncated: int = 0  # replies cut at the request's max_tokens (finish_reason "length")
    distinct: int = 0  # different prompts asked (requests - distinct: calls paid more than once)


_LETTER = {Label.CORRECT: "A", Label.INCORRECT: "B", Label.NOT_ATTEMPTED: "C"}
# Text in an answer that tells its grader what to do ("ignore previous instructions", "Grade: A", "note to the
# grader", "matches the gold target", "### SYSTEM: ..."): a gullible judge does it and grades the answer A.
_INJECTION = re.compile(
    r"(?i)\b(?:ignore (?:all )?(?:the )?previous instructions|grade[sd]?|grader|verdict|gold target|rubric|"
    r"reference answer|correct)\b|\bsystem\s*:"
)


def _field(content: str, name: str) -> str:
    """The field's last occurrence (the case comes last in the prompt)."""
    found = re.findall(rf"<{name}>(.*?)</{name}>", content, re.DOTALL)
    return found[-1] if found else ""


def answer_for(
    content: str, grade_as: str | None = None, structured: bool = False, gullible: bool = False
) -> tuple[str, str]:
    """(kind, reply) for one of the project's prompts, computed from its fields; ``structured``: in the form
    the project's JSON schemas ask for (verdicts are JSON either way); ``gullible``: an answer that tells its
    grader to call it right is graded A, as a language model an injection fools."""
    if f"[{prompts.GRADER_VERSION}]" in content:
        answer = _field(content, "predicted_answer")
        question = _field(content, "question") or None
        letter = grade_as or _LETTER[offline_grader.grade(answer, _field(content, "gold_target"), question)]
        injected = _INJECTION.search(answer) if gullible else None
        if injected:  # a gullible judge grades A, the span the name the answer opens with (as the injection asks)
            letter, answer = "A", answer[: injected.start()].strip(" \n.,;:([") or answer
        # the grader asks for the answer's span and its comparison with the gold: here the span is the whole
        # answer (the offline rules read it all), none for C
        span = answer.strip() if len(answer.strip()) <= 150 else answer.strip()[:150].rsplit(" ", 1)[0]
        same = dict(zip("ABC", prompts.SAME_AS_GOLD))[letter]
        return "grader", json.dumps({"answer_span": span if letter != "C" else "", "same_as_gold": same})
    if f"[{prompts.READ_VERSION}]" in content:  # the two-call grader's reading: the whole answer, none if declined
        answer = _field(content, "predicted_answer").strip()
        if offline_reading.is_abstention(answer) or grade_as == "C":  # told C: a judge that finds no answer
            return "grader", json.dumps({"answer_kind": "declines", "answer_span": ""})
        # a sentence that opens with an article reads as a description ("A city in France.")
        described = [s.strip(" .") for s in re.split(r"(?<=\.)\s+", answer) if re.match(r"(?i)an?\s", s.strip())]
        if described:
            return "grader", json.dumps({"answer_kind": "describes", "answer_span": described[0]})
        return "grader", json.dumps({"answer_kind": "names", "answer_span": answer[:150]})
    if f"[{prompts.COMPARE_VERSION}]" in content:  # and its comparison of that span with the gold
        letter = grade_as or _LETTER[offline_grader.grade(_field(content, "answer"), _field(content, "gold_target"))]
        if gullible and _INJECTION.search(_field(content, "answer")):
            letter = "A"
        return "grader", json.dumps({"same_as_gold": dict(zip("ABC", prompts.SAME_AS_GOLD))[letter]})
    if f"[{prompts.FITS_VERSION}]" in content:  # or whether the gold fits a description: it knows no facts, says
        return "grader", json.dumps({"gold_fits": "no" if grade_as == "B" else "yes"})  # yes unless told B
    if f"[{prompts.DECOMPOSE_VERSION}]" in content:
        claims = offline_facts.decompose(_field(content, "reasoning"))
        if structured:
            return "decompose", json.dumps({"claims": claims})
        return "decompose", "\n".join(f"- {c}" for c in claims) if claims else prompts.NO_CLAIMS
    if f"[{prompts.VERIFY_VERSION}]" in content:
        labels = []
        for cid, body in re.findall(r'<claim id="(\d+)">(.*?)</claim>', content, re.DOTALL):
            passages = re.findall(r"<passage [^>]*>(.*?)</passage>", body, re.DOTALL)
            claim = _field(body, "text")
            if offline_facts.supported(claim, passages):
                label = prompts.SUPPORTED
            elif offline_facts.contradicted(claim, passages):
                label = prompts.CONTRADICTED
            else:
                label = prompts.NOT_SUPPORTED
            labels.append({"id": int(cid), "label": label})
        return "verify", json.dumps({"labels": labels})
    if f"[{prompts.FUSED_VERSION}]" in content:
        passages = re.findall(r'<passage id="(\d+)"[^>]*>(.*?)</passage>', _field(content, "evidence"), re.DOTALL)
        claims = []
        for claim in offline_facts.decompose(_field(content, "reasoning")):
            ids = [int(pid) for pid, text in passages if offline_facts.supported(claim, [text])]
            claims.append(
                {"claim": claim, "label": prompts.SUPPORTED if ids else prompts.NOT_SUPPORTED, "evidence_ids": ids}
            )
        return "fused", json.dumps({"claims": claims})
    return "other", "OK"


class JudgeServer:
    """The aiohttp app plus its counters; one instance per server."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.stats = Stats()
        self._rng = random.Random(self.config.seed)
        self._window: collections.deque[float] = collections.deque()
        self._prompts: set[str] = set()
        self._runner: web.AppRunner | None = None
        self._closing: asyncio.Event | None = None
        self.url = ""

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/stats", self._stats)
        app.router.add_post("/admin", self._admin)
        app.router.add_get("/v1/models", self._models)
        app.on_shutdown.append(self._release_hangs)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        real_port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://{host}:{real_port}/v1"
        return self.url

    async def stop(self) -> None:
        await self._release_hangs()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _release_hangs(self, app: web.Application | None = None) -> None:
        """Release hanging handlers so a shutdown (``stop``, or SIGTERM under ``main``) does not wait them out."""
        if self._closing is not None:
            self._closing.set()

    # -- handlers ------------------------------------------------------------------------
    async def _stats(self, request: web.Request) -> web.Response:
        data = asdict(self.stats)
        for name in ("by_kind", "faults", "response_formats", "temperatures"):  # asdict mangles Counters
            data[name] = dict(getattr(self.stats, name))
        return web.json_response(data)

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "knowrl-test-judge", "object": "model"}]})

    async def _admin(self, request: web.Request) -> web.Response:
        body = await request.json()
        for key in ("fault_rate", "down", "latency_ms", "rpm", "grade_as", "gullible"):
            if key in body:
                setattr(self.config, key, type(getattr(self.config, key))(body[key]))
        if "faults" in body:
            self.config.faults = tuple(body["faults"])
        if body.get("reset_stats"):
            self.stats = Stats()
        return web.json_response(asdict(self.config))

    def _over_rpm(self) -> float | None:
        """Seconds until a slot frees when the last 60 s already hold ``rpm`` requests."""
        if self.config.rpm <= 0:
            return None
        now = time.monotonic()
        window = self.config.window_s
        while self._window and now - self._window[0] >= window:
            self._window.popleft()
        if len(self._window) >= self.config.rpm:
            return window - (now - self._window[0])
        self._window.append(now)
        return None

    def _latency(self) -> float:
        mean = self.config.latency_ms / 1000.0
        if mean <= 0:
            return 0.0
        if self.config.latency_dist == "fixed":
            return mean
        if self.config.latency_dist == "exponential":
            return self._rng.expovariate(1.0 / mean)
        return self._rng.uniform(0.5 * mean, 1.5 * mean)

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        self.stats.requests += 1
        self.stats.authorized += "Authorization" in request.headers
        self.stats.in_flight += 1
        self.stats.max_in_flight = max(self.stats.max_in_flight, self.stats.in_flight)
        try:
            return await self._answer(request)
        finally:
            self.stats.in_flight -= 1

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        arrived = time.monotonic()
        if self.config.down:
            self.stats.faults["down"] += 1
            return web.json_response({"error": {"message": "server down"}}, status=503)
        wait = self._over_rpm()
        if wait is not None:
            self.stats.rate_limited += 1
            return web.json_response(
                {"error": {"message": "rate limit exceeded", "type": "rate_limit"}},
                status=429,
                headers={"Retry-After": f"{max(wait, 0.001):.3f}"},
            )
        try:
            body = await request.json()
            content = "\n".join(
                m.get("content", "") for m in body.get("messages", []) if isinstance(m.get("content"), str)
            )
            model = str(body.get("model", "knowrl-test-judge"))
            structured = isinstance(body.get("response_format"), dict)
        except (json.JSONDecodeError, AttributeError, TypeError):
            return web.json_response({"error": {"message": "invalid request body"}}, status=400)
        self._prompts.add(hashlib.sha256(content.encode()).hexdigest())
        self.stats.distinct = len(self._prompts)
        self.stats.structured += structured
        self.stats.temperatures[body.get("temperature")] += 1
        if structured:
            self.stats.response_formats[str(body["response_format"].get("type"))] += 1
        if structured and not self.config.accept_schema:
            return web.json_response({"error": {"message": "response_format is not supported"}}, status=400)
        fault = None
        if self.config.fault_rate > 0 and self.config.faults and self._rng.random() < self.config.fault_rate:
            fault = self._rng.choice(self.config.faults)
            self.stats.faults[fault] += 1
        # The reply is worked out during the latency, which runs from arrival, as a real judge generates during
        # its latency. Worked out after the wait, a burst of 60 requests queued ~2 ms of this server's CPU each
        # behind one another and the last reply came 130 ms late; worked out on the loop at arrival, each
        # request's arrival waited for the replies of those before it (~1.2 ms per fused reply), so the last of a
        # burst was answered ~60 ms past its latency. On a worker thread the loop takes every arrival at once
        # (bench/reward_throughput.py then measures the engine and the stated latency, not this double's CPU).
        kind, reply = await asyncio.get_running_loop().run_in_executor(
            None, answer_for, content, self.config.grade_as, structured, self.config.gullible
        )
        await asyncio.sleep(max(0.0, self._latency() - (time.monotonic() - arrived)))
        if fault == "429":
            return web.json_response(
                {"error": {"message": "injected 429"}},
                status=429,
                headers={"Retry-After": str(self.config.retry_after_s)},
            )
        if fault == "500":
            return web.json_response({"error": {"message": "injected 500"}}, status=500)
        if fault == "hang":
            if self._closing is None:
                self._closing = asyncio.Event()
            try:
                await asyncio.wait_for(self._closing.wait(), self.config.hang_s)
            except asyncio.TimeoutError:
                pass
        if fault == "malformed":
            return web.Response(text='{"choices": [{"message": {"content": ', content_type="application/json")
        self.stats.by_kind[kind] += 1
        if fault == "wrong":
            reply = {
                "grader": "Perhaps",
                "decompose": "Claims follow:",
                "verify": '{"labels": "yes"}',
                "fused": '{"claims": "yes"}',
            }.get(kind, "?")
        self.stats.completed += 1
        finish = "stop"
        budget = body.get("max_tokens")
        if isinstance(budget, int) and len(reply) > 4 * budget:  # a real server stops at max_tokens (~4 chars each)
            reply, finish = reply[: 4 * budget], "length"
            self.stats.truncated += 1
        return web.json_response(
            {
                "id": f"chatcmpl-{self.stats.requests}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": finish}],
                "usage": {
                    "prompt_tokens": len(content) // 4,
                    "completion_tokens": len(reply) // 4,
                    "total_tokens": (len(content) + len(reply)) // 4,
                },
            }
        )


def serve_in_thread(config: ServerConfig | None = None, host: str = "127.0.0.1") -> ContextManager[JudgeServer]:
    """A test judge server on its own loop in a daemon thread (for synchronous callers and subprocesses)."""
    return in_thread(JudgeServer(config), "test-judge-server", host)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m judges.test_server", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8011)
    parser.add_argument("--latency-ms", type=float, default=0.0, help="mean latency per request")
    parser.add_argument("--latency-dist", choices=["fixed", "uniform", "exponential"], default="uniform")
    parser.add_argument("--rpm", type=int, default=0, help="requests per minute before 429 (0: unlimited)")
    parser.add_argument("--window-s", type=float, default=60.0, help="window the RPM limit is counted over")
    parser.add_argument("--fault-rate", type=float, default=0.0, help="fraction of requests given a fault")
    parser.add_argument("--faults", default=",".join(FAULTS), help=f"comma list from {','.join(FAULTS)}")
    parser.add_argument("--hang-s", type=float, default=3600.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gullible", action="store_true", help="obey grading instructions inside the answers")
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    faults = tuple(f.strip() for f in args.faults.split(",") if f.strip())
    unknown = set(faults) - set(FAULTS)
    if unknown:
        parser.error(f"unknown fault kind(s) {sorted(unknown)}; choose from {FAULTS}")
    config = ServerConfig(
        latency_ms=args.latency_ms,
        latency_dist=args.latency_dist,
        rpm=args.rpm,
        window_s=args.window_s,
        fault_rate=args.fault_rate,
        faults=faults,
        hang_s=args.hang_s,
        seed=args.seed,
        gullible=args.gullible,
    )
    server = JudgeServer(config)
    web.run_app(
        server.app(),
        host=args.host,
        port=args.port,
        access_log=None,
        shutdown_timeout=SHUTDOWN_S,  # hangs are released at once; a long --latency-ms is cut short
        print=lambda *_: print(f"test judge on http://{args.host}:{args.port}/v1", flush=True),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
