"""The reward engine as an HTTP reward server in the shape OpenRLHF's ``--remote_rm_url`` calls.

    python -m reward_engine.serve --config configs/reward_offline.yaml --port 5000
    # OpenRLHF: --remote_rm_url http://127.0.0.1:5000/get_reward

OpenRLHF posts ``{"query": [...], "prompts": [...], "labels": [...]}`` (each query is its prompt followed by
the policy's response, decoded with special tokens) and reads ``rewards`` (and ``scores``, ``extra_logs``)
back, one per query. Here the response is the query after its prompt, trailing special tokens removed; a
label is the gold answer, a JSON list of aliases, or a JSON object ``{"answers", "question", "title"}`` (the
question otherwise is the prompt's text; the title a string or a list of titles, read as ``score`` reads a row's;
an item with no question or no gold is refused with a 400 naming it and logged, never paid the unscored reward; an
item whose title has another type is refused alone: paid ``--unscored-reward``, 1.0 in ``extra_logs.bad_input``,
logged once, the others scored). One engine serves every request, so the caches, the judge budget and
the step budget hold across them; a completion the engine could not score within its budget gets
``--unscored-reward`` (OpenRLHF needs a number) and counts in ``extra_logs.unscored``.

The knowledge source is opened and checked once before the server listens (``job.check_knowledge``, as the score
job does): a missing file, a source that cannot be opened or does not serve ``factuality.retrieval_mode`` is one
line naming the config key and exit 2, never an error on every request. ``extra_logs`` holds numbers only (OpenRLHF
makes tensors of them): ``format``, ``correctness`` (the fact score already inside it), ``fact_score`` with
``fact_scored`` (1.0 where a fact score was computed; where none was, ``fact_score`` is a placeholder 0.0),
``unscored`` and ``bad_input`` (1.0 for an item refused alone).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

from aiohttp import web

from knowrl_io.args import Parser
from knowrl_io.http_serve import serve_forever
from knowrl_io.jsonl import fields_problem
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.once import Once
from retrieval.source import KnowledgeSource
from reward_engine.config import RewardEngineConfig, load_reward_config_or_report, warn_training_only
from reward_engine.disk_cache import CacheError
from reward_engine.engine import RewardEngine, RewardResult, Sample
from reward_engine.job import OPTIONAL, JobCheckError, KeyRefusedError, check_judges, check_knowledge
from reward_engine.knowledge import report_unusable_factuality
from reward_engine.labels import Status
from reward_engine.offline.gold import gold_problem

log = logging.getLogger(__name__)
TRAILING_SPECIAL = re.compile(r"(?:\s*(?:<\|[^|<>]{1,40}\|>|</s>|<eos>|<pad>))+\s*$")


class BadRequest(ValueError):
    """The request cannot be read (not JSON, not the lists, an item without a question or a gold): a 400."""


class BadItem(Exception):
    """One item's label has a field of the wrong type (a number or an object for a title): that item is refused,
    paid ``--unscored-reward`` and counted in ``extra_logs.bad_input``; the others are scored. A 400 for the whole
    request made OpenRLHF retry it and stop (issue #74)."""


def response_of(query: str, prompt: str) -> str:
    """The policy's response inside OpenRLHF's query (prompt + response), trailing special tokens dropped.

    >>> prompt = "<|im_start|>user Q<|im_end|>"
    >>> response_of(prompt + "<think>x</think><answer>A</answer><|im_end|>", prompt)
    '<think>x</think><answer>A</answer>'
    """
    if prompt and query.startswith(prompt):
        query = query[len(prompt) :]
    elif prompt and prompt in query:
        query = query.split(prompt, 1)[1]
    return TRAILING_SPECIAL.sub("", query)


def sample_of(query: Any, prompt: Any, label: Any, n: int) -> Sample:
    """One OpenRLHF item as an engine sample; a malformed item is a ``BadRequest`` naming its index, one whose
    label's title has the wrong type a ``BadItem`` (its other fields checked first)."""
    if not isinstance(query, str) or not isinstance(prompt, str):
        raise BadRequest(f"item {n}: 'query' and 'prompts' must be strings")
    question, answers, title, title_problem = prompt, label, None, None
    if isinstance(label, str) and label.lstrip()[:1] in ("{", "["):
        try:
            answers = json.loads(label)
        except ValueError:
            answers = label  # a gold answer that happens to start with a bracket
    if isinstance(answers, dict):
        # the title as score reads a row's (a list of titles too: hostile pass 55 read one as no title)
        title_problem = fields_problem(answers, {}, {"title": OPTIONAL["title"]})
        question, title = answers.get("question") or prompt, None if title_problem else answers.get("title")
        answers = answers.get("answers")
    if not isinstance(answers, (str, list)) or not isinstance(question, str):
        raise BadRequest(f"item {n}: a label must be a gold answer, a JSON list of them or {{'answers': ...}}")
    sample = Sample(question, response_of(query, prompt), answers, title)
    # Refused here, not scored: the engine would leave the item unscored and OpenRLHF would pay it
    # --unscored-reward, so a right answer and garbage would earn the same (issue #74).
    cleaned = sample.cleaned()
    if not cleaned.question.strip():
        raise BadRequest(f"item {n}: no question: 'prompts' is empty and the label has no 'question'")
    problem = gold_problem(cleaned.answers)
    if problem:
        raise BadRequest(f"item {n}: 'labels': {problem}")
    if title_problem:
        raise BadItem(f"item {n}: 'labels': {title_problem}")
    return sample


def read_items(queries: list[Any], prompts: list[Any], labels: list[Any]) -> list[Sample | str]:
    """Each item's sample, or why it is refused (``BadItem``); a ``BadRequest`` for the whole request."""
    items: list[Sample | str] = []
    for n, (query, prompt, label) in enumerate(zip(queries, prompts, labels)):
        try:
            items.append(sample_of(query, prompt, label, n))
        except BadItem as exc:
            items.append(str(exc))
    return items


def with_refused(items: list[Sample | str], scored: list[RewardResult]) -> list[RewardResult]:
    """The engine's results in item order, a ``bad_input`` result (no reward, its reason) for each refused item."""
    results = iter(scored)
    return [
        next(results) if isinstance(item, Sample) else RewardResult(status=Status.BAD_INPUT.value, error=item)
        for item in items
    ]


def reply_of(results: list[RewardResult], unscored: float) -> dict[str, Any]:
    """OpenRLHF's reply: ``rewards`` for the advantage, ``scores`` for its dynamic filtering, ``extra_logs``."""
    rewards = [unscored if r.total is None else r.total for r in results]
    return {
        "rewards": rewards,
        "scores": rewards,
        "extra_logs": {
            "format": [r.format if r.format is not None else 0.0 for r in results],
            "correctness": [r.correctness if r.correctness is not None else 0.0 for r in results],
            "fact_score": [r.fact_score if r.fact_score is not None else 0.0 for r in results],
            "fact_scored": [float(r.fact_score is not None) for r in results],
            "unscored": [float(r.total is None) for r in results],
            "bad_input": [float(r.status == Status.BAD_INPUT.value) for r in results],
        },
    }


def make_app(config: RewardEngineConfig, unscored: float = 0.0, kb: KnowledgeSource | None = None) -> web.Application:
    """The aiohttp application; its engine opens on startup and closes on cleanup."""
    app = web.Application(client_max_size=64 * 2**20)
    engine_key = web.AppKey("engine", RewardEngine)
    told: set[str] = set()  # refusals already logged, without their item's index: a bad dataset row comes back often

    async def engine_context(app: web.Application):  # type: ignore[no-untyped-def]
        async with RewardEngine(config, kb=kb) as engine:
            app[engine_key] = engine
            yield

    async def get_reward(request: web.Request) -> web.Response:
        try:
            body = await request.json()
            queries, prompts, labels = (body.get(k) for k in ("query", "prompts", "labels"))
            if not all(isinstance(v, list) for v in (queries, prompts, labels)):
                raise BadRequest("the body must hold the lists 'query', 'prompts' and 'labels'")
            if not len(queries) == len(prompts) == len(labels):
                sizes = f"{len(queries)}, {len(prompts)}, {len(labels)}"
                raise BadRequest(f"'query', 'prompts', 'labels' differ in length ({sizes})")
            items = read_items(queries, prompts, labels)
        except (ValueError, AttributeError) as exc:  # not JSON, not an object, an item without question or gold
            log.warning("reward request refused (400): %s", exc)
            return web.json_response({"error": str(exc)}, status=400)
        for refused in (i for i in items if isinstance(i, str)):
            problem = refused.split(": ", 1)[-1]
            if problem not in told:
                told.add(problem)
                log.warning(
                    "reward %s: that item is paid --unscored-reward (extra_logs.bad_input), the rest are scored; "
                    "this problem is not logged again",
                    refused,
                )
        samples = [i for i in items if isinstance(i, Sample)]
        scored = await app[engine_key].score(samples) if samples else []
        return web.json_response(reply_of(with_refused(items, scored), unscored))

    app.cleanup_ctx.append(engine_context)
    app.router.add_post("/get_reward", get_reward)
    app.router.add_post("/", get_reward)
    return app


async def _judges_up(config: RewardEngineConfig, wait_s: float) -> None:
    """``check_judges`` until it passes or ``wait_s`` is spent (then its error): a server started beside its judge,
    as a compose file or a job script does, waits for it rather than refusing at once."""
    deadline = asyncio.get_running_loop().time() + wait_s
    while True:
        try:
            return await check_judges(config, timeout_s=min(5.0, max(wait_s, 0.5)))
        except KeyRefusedError:
            raise  # a judge that answers but refuses the key will not take it by waiting
        except JobCheckError:
            if asyncio.get_running_loop().time() >= deadline:
                raise
            await asyncio.sleep(1.0)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m reward_engine.serve", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--config", type=Path, action=Once, required=True, help="reward config YAML (or a training one)"
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000, help="0: any free port (printed)")
    parser.add_argument("--unscored-reward", type=float, default=0.0, help="for a completion left unscored")
    parser.add_argument(
        "--judge-wait",
        type=float,
        default=30.0,
        help="seconds to wait for the judges to accept connections before refusing to start (default 30: a judge "
        "started beside the server may come up a little later)",
    )
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port {args.port} is not a port (0-65535)")
    if not 0 <= args.judge_wait < float("inf"):
        parser.error(f"--judge-wait must be a finite number of seconds, at least 0, got {args.judge_wait}")
    if not -float("inf") < args.unscored_reward < float("inf"):  # NaN too: a reward OpenRLHF would train on
        parser.error(f"--unscored-reward must be a finite number, got {args.unscored_reward}")
    config = load_reward_config_or_report(args.config)
    if config is None or report_unusable_factuality(config):
        return 2
    warn_training_only(config, "reward_engine.serve")
    try:  # the judges and the knowledge source, once, before the first request (a source is opened here)
        asyncio.run(_judges_up(config, args.judge_wait))  # one not up: every request 0.0, unscored (hostile pass 53)
        found = check_knowledge(config)
    except (JobCheckError, CacheError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        app = make_app(config, args.unscored_reward, kb=found.source)
        asyncio.run(serve_forever(app, args.host, args.port, "knowrl reward server listening on {url}/get_reward"))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:  # the port is taken
        print(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    finally:
        if found.source is not None:
            found.source.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
