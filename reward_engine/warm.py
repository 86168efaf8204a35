"""Fill the caches a training run will hit: ``python -m reward_engine.warm``.

    python -m reward_engine.warm --data TRAIN.json --config configs/reward_judge.yaml \\
        [--completions PREV.jsonl]

- Always: checks the KB as ``reward_engine.score`` does (a knowledge base, with the index the retrieval mode
  needs when completions are scored; the judges reachable), opens it (building the ONNX query encoder on first
  use) and reports how many rows' titles are in it, so a missing KB or a title mismatch shows up before training.
- With ``--completions`` (rows as for ``reward_engine.score``, e.g. an earlier run's or a
  sampling pass's outputs): scores them, which fills the judge cache (grades,
  decompositions, verifications) and the evidence cache; reports per-stage hit rates
  before and after. Idempotent: a second run finds everything cached and calls nothing.
- Bad rows are named (a warning each) and counted; an input that holds no usable row exits 3, as
  ``reward_engine.score`` does when no row could be scored.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any, Iterator

from knowrl_io.args import Parser, interrupted
from knowrl_io.jsonl import Row, finite, read_rows
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.once import Once
from knowrl_io.paths import input_problem, is_pipe
from knowrl_io.records import InputError
from retrieval.kb import split_titles
from retrieval.source import KnowledgeSource
from reward_engine.config import RewardEngineConfig, load_reward_config_or_report, warn_training_only
from reward_engine.disk_cache import CacheError
from reward_engine.engine import RewardEngine
from reward_engine.job import OPTIONAL, REQUIRED, JobCheckError, ScoreJob, check_judges, check_knowledge
from reward_engine.knowledge import report_unusable_factuality
from reward_engine.score import EXIT_NOTHING_SCORED, add_ray_arguments

log = logging.getLogger(__name__)
DATA_REQUIRED = {"question": (str,), "answers": (str, list)}
DATA_OPTIONAL = {"title": (str, list)}


def counted_rows(path: Path, required: Any, optional: Any, counts: dict[str, int]) -> Iterator[Row]:
    """The usable rows of ``path``; each bad one is named (as score names it) and counted in ``counts``
    (``rows``, ``bad_rows``), never silently lost."""
    for row in read_rows(path, required, optional):
        if row.data is None:
            counts["bad_rows"] += 1
            log.warning("bad row: %s", row.error)
            continue
        counts["rows"] += 1
        yield row


def title_coverage(engine: RewardEngine, data_path: Path) -> dict[str, Any]:
    """How many data rows have all / some / none of their titles in the KB."""
    kb = engine.open_kb()
    counts = {"rows": 0, "bad_rows": 0, "all_titles": 0, "some_titles": 0, "no_titles_in_kb": 0, "no_title_field": 0}
    for row in counted_rows(data_path, DATA_REQUIRED, DATA_OPTIONAL, counts):
        titles = split_titles(row.data.get("title"))
        if not titles:
            counts["no_title_field"] += 1
            continue
        if kb is None:
            continue
        _, found, missing = kb.title_passage_ids(titles)
        key = "all_titles" if not missing else "some_titles" if found else "no_titles_in_kb"
        counts[key] += 1
    return counts


async def warm(
    config: RewardEngineConfig,
    data: Path | None,
    completions: Path | None,
    kb: KnowledgeSource | None = None,
    ray_address: str | None = None,
    ray_actors: int = 2,
    chunk_rows: int = 1024,
) -> dict:
    """Titles' coverage in the KB, and the completions scored once so their judge calls and evidence are cached;
    ``ray_address`` (``""``: a local Ray) scores them on Ray actors (``reward_engine.ray_pool``)."""
    report: dict[str, Any] = {}
    async with RewardEngine(config, kb=kb) as engine:
        if data is not None:
            report["titles"] = await asyncio.get_running_loop().run_in_executor(None, title_coverage, engine, data)
        if completions is not None:
            report.update(await _warm_completions(engine, config, completions, ray_address, ray_actors, chunk_rows))
    return report


async def _warm_completions(
    engine: RewardEngine,
    config: RewardEngineConfig,
    completions: Path,
    ray_address: str | None,
    ray_actors: int,
    chunk_rows: int = 1024,
) -> dict[str, Any]:
    """Plan, score and plan again ``chunk_rows`` rows at a time: memory follows the chunk, not the file (it
    held every row and both plans: 66 / 90 / 141 MB for 1 / 20 / 60 MB of completions). A request is counted
    once, at its first chunk."""
    before, after = await engine.plan([]), await engine.plan([])  # empty, with the engine's stages
    report: dict[str, Any] = {}
    if config.factuality.enabled:
        await engine.ensure_retriever()
    job = ScoreJob(config, passes=1, ray_address=ray_address, ray_actors=ray_actors)  # warm: one try per row
    counts = {"rows": 0, "bad_rows": 0}

    async with job.scorer(engine) as scorer:
        rows = counted_rows(completions, REQUIRED, OPTIONAL, counts)
        while chunk := list(itertools.islice(rows, chunk_rows)):
            samples = [job.sample(r) for r in chunk]
            before.absorb(await engine.plan(samples))  # per stage: cached / needed, from the engine's own plan
            batches = [chunk[start : start + job.batch_size] for start in range(0, len(chunk), job.batch_size)]
            if ray_address is None:
                for batch in batches:
                    await job.score_rows(scorer, batch)
            else:
                await asyncio.gather(*(job.score_rows(scorer, batch) for batch in batches))
            await scorer.flush()  # the cache writes (made on writer threads, maybe in actors) land before the plan
            after.absorb(await engine.plan(samples))
        stats = await job.stats(scorer)
    report["completions"] = counts
    report["judge_requests"] = stats.judge_requests
    if ray_address is not None:
        report["ray"] = {"actors": ray_actors, "batches_resent": stats.resent}
    return {"before": before.summary(), **report, "after": after.summary()}


def _same_input(a: Path, b: Path) -> bool:
    """Whether two input arguments name one stream (``-`` twice, or two names of one pipe)."""
    if str(a) == "-" or str(b) == "-":
        return str(a) == str(b)
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m reward_engine.warm", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, action=Once, help="training data (KnowRL JSON array or JSONL)")
    parser.add_argument(
        "--completions", type=Path, action=Once, help="earlier completions, rows as for reward_engine.score"
    )
    parser.add_argument("--config", type=Path, action=Once, required=True)
    add_ray_arguments(parser)
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    if args.data is None and args.completions is None:
        parser.error("give --data, --completions or both")
    given = [(flag, path) for flag, path in (("--data", args.data), ("--completions", args.completions)) if path]
    problem = next((p for p in (input_problem(path, flag) for flag, path in given) if p), None)
    if problem is None and len(given) == 2 and is_pipe(args.data) and _same_input(args.data, args.completions):
        problem = f"--data and --completions are the same pipe {args.data}: it can be read once; give files"
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    config = load_reward_config_or_report(args.config)
    if config is None or report_unusable_factuality(config):
        return 2
    warn_training_only(config, "reward_engine.warm")
    try:  # as score checks them: the KB (its index when completions are scored) and the judges, before any row
        found = check_knowledge(config, retrieves=args.completions is not None)
        if args.completions is not None and not args.ray:
            asyncio.run(check_judges(config))
    except (JobCheckError, CacheError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    kb = found.source if args.ray is None else None
    if found.source is not None and kb is None:
        found.source.close()
    try:
        report = asyncio.run(
            warm(config, args.data, args.completions, kb=kb, ray_address=args.ray, ray_actors=args.ray_actors)
        )
        print(json.dumps(finite(report), indent=2, allow_nan=False))
        empty = []
        for flag, path, key in (("--data", args.data, "titles"), ("--completions", args.completions, "completions")):
            if path is not None and not report[key]["rows"]:
                bad = report[key]["bad_rows"]
                empty.append(f"{flag} {path} ({f'{bad} bad row(s), each named in a warning' if bad else 'no rows'})")
        if empty:  # an input the user gave warmed nothing: exit as score's "no row could be scored" does
            print(f"error: no usable row in {' and '.join(empty)}: nothing to warm", file=sys.stderr)
            return EXIT_NOTHING_SCORED
    except (InputError, CacheError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return interrupted("what was cached so far stays cached; run the same command again")
    return 0


if __name__ == "__main__":
    sys.exit(main())
