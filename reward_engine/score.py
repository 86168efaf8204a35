"""Score a JSONL of model outputs: ``python -m reward_engine.score``.

    python -m reward_engine.score --input OUT.jsonl --output SCORED.jsonl --config configs/reward_offline.yaml

Input rows: ``{"id", "question", "completion", "answers", "title"}`` (``answers`` a string
or list, ``title`` optional). One output row per input row, ``id`` and ``line`` kept, with
``reward`` and every component. A bad line becomes a ``bad_input`` row naming the line and
field; the rest is scored. Re-running with the same output resumes: rows already scored
are kept, rows that timed out or failed are scored again, and the file ends with exactly
one row per input line, in input order. Memory stays flat however many rows there are.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Iterator

from tqdm.auto import tqdm

from knowrl_io.job_output import OutputError, own_output
from knowrl_io.jsonl import Appender, Row, Span, finite, index_rows, read_objects, read_rows, rewrite_indexed
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.records import InputError
from knowrl_io.threaded import in_daemon_thread
from retrieval.source import KnowledgeSource
from reward_engine import knowledge
from reward_engine.config import RewardEngineConfig, load_reward_config_or_report
from reward_engine.disk_cache import CacheError
from reward_engine.engine import RewardResult
from reward_engine.job import OPTIONAL, REQUIRED, RETRY, ScoreJob

log = logging.getLogger(__name__)

FINAL = {"ok", "cached", "bad_input"}  # statuses that are not recomputed on resume


def _output_row(row: Row, result: RewardResult | None, source: Path) -> dict[str, Any]:
    data = row.data or {}
    out: dict[str, Any] = {"id": data.get("id", row.id), "line": row.line, "input_digest": row.digest}
    if result is None:
        out.update(reward=None, status="bad_input", error=row.error)
        return out
    out["reward"] = result.total
    out.update(result.to_dict())
    if result.status == "bad_input" and result.error:  # found by the engine: name the row too
        out["error"] = f"{source}:{row.line}: {result.error}"
    return out


class _Lines:
    """The input lines seen in this run, one bit each (a billion-line input costs 125 MB, not gigabytes)."""

    def __init__(self) -> None:
        self._bits = bytearray()

    def add(self, line: int) -> None:
        short = (line >> 3) + 1 - len(self._bits)
        if short > 0:
            self._bits.extend(bytes(max(short, len(self._bits))))  # doubling: amortised O(1)
        self._bits[line >> 3] |= 1 << (line & 7)

    def __contains__(self, line: int) -> bool:
        return line >> 3 < len(self._bits) and bool(self._bits[line >> 3] & (1 << (line & 7)))


def _completion_problem(completion: Any) -> str | None:
    """A conversational completion must hold a message (``{"role", "content"}``), not be any list."""
    if isinstance(completion, str):
        return None
    if not any(isinstance(m, dict) and isinstance(m.get("content"), str) for m in completion):
        return "field 'completion' must be a string or a list of {'role', 'content'} messages"
    return None


def _line_count(path: Path) -> int | None:
    """Lines of a regular file, for the progress bar (a pipe is never read twice: no count)."""
    if str(path) == "-" or not path.is_file():
        return None
    with path.open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))


async def score_file(
    input_path: Path,
    output_path: Path,
    config: RewardEngineConfig,
    batch_size: int = 64,
    progress: bool = True,
    kb: KnowledgeSource | None = None,
    concurrency: int = 8,
    passes: int = 3,
    overwrite: bool = False,
    ray_address: str | None = None,
    ray_actors: int = 2,
) -> dict[str, Any]:
    """Score ``input_path`` (``-``: standard input) into ``output_path``; returns the run summary.

    The output is owned (``knowrl_io.job_output``): never the input, never another job's file, never
    two runs at once. Streams: input rows are read as they are scored, up to ``concurrency`` batches
    are in flight (one slow or hung row holds back only its own batch), finished batches are appended
    as they come, and the file is put in input order at the end by byte offsets. Resume is keyed by
    content: a row is kept only when the input row at its line has the digest it was scored from. A
    batch's rows that time out or fail (judge errors, breaker open) are scored again, up to ``passes``
    times in all, after the breaker's cool-down.
    """
    started = time.perf_counter()
    job = ScoreJob(config, kb, batch_size, concurrency, passes, ray_address, ray_actors)
    with own_output(output_path, input_path, "reward_engine.score", config.fingerprint(), overwrite):
        done = index_rows(output_path, FINAL)
        rewrite_indexed(output_path, done)  # drop torn lines and rows to redo
        return await _score_rows(job, input_path, output_path, done, progress, started)


async def _score_rows(
    job: ScoreJob, input_path: Path, output_path: Path, done: dict[int, Span], progress: bool, started: float
) -> dict[str, Any]:
    """The rows of ``input_path`` not in ``done`` (the resume state: kept rows by line, with the digest of the
    input row each was scored from) scored by ``job`` and appended to ``output_path``, then put in order."""
    total = _line_count(input_path) if progress else None
    writer = Appender(output_path)
    seen = _Lines()
    counts = Counter()

    def todo() -> Iterator[Row]:
        for row in read_rows(input_path, REQUIRED, OPTIONAL):
            seen.add(row.line)
            counts["rows"] += 1
            if row.line in done and done[row.line].digest == row.digest:
                counts["kept"] += 1
                continue
            problem = _completion_problem(row.data["completion"]) if row.data is not None else None
            if problem:
                row = Row(row.line, None, f"{input_path}:{row.line}: {problem}", row.digest, row.id)
            if row.data is None:
                log.warning("bad input: %s", row.error)
            yield row

    try:
        scorer = job.scorer()
        async with scorer:
            with tqdm(total=total, desc="scoring", unit="row", disable=not progress) as bar:

                async def run(chunk: list[Row]) -> None:
                    by_line = await job.score_rows(scorer, chunk)
                    writer.write([_output_row(r, by_line.get(r.line), input_path) for r in chunk])
                    bar.update(len(chunk))

                pending: set[asyncio.Task] = set()
                finished: set[asyncio.Task] = set()
                try:
                    # Read off the loop: a pipe that is slow to give the next line must not stop the batches
                    # already read from being scored and written, nor hold an interrupt until it closes.
                    async for chunk in in_daemon_thread(_batches(todo(), job.batch_size), name="input-reader"):
                        if len(pending) >= job.concurrency:
                            finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                            for task in finished:
                                task.result()
                        pending.add(asyncio.create_task(run(chunk)))
                    for task in asyncio.as_completed(pending):
                        await task
                except BaseException:  # one batch failed (a full disk): the others stop, the first error is told
                    for task in pending:
                        task.cancel()
                    await asyncio.gather(*pending, *finished, return_exceptions=True)  # each error retrieved
                    raise
            stats = await job.stats(scorer)
    finally:
        writer.close()
    # the last row per line wins (a changed input row was scored again); lines this input no longer has go
    rewrite_indexed(output_path, index_rows(output_path, FINAL | RETRY), lines=seen.__contains__)
    counters = Counter(judge_requests=stats.judge_requests, cache_hits=stats.cache_hits, retries=stats.retries)
    counters.update(stats.totals)
    summary = summarize(
        read_objects(output_path), counts["rows"], counts["kept"], counters, time.perf_counter() - started
    )
    summary["judge_replies"] = stats.replies  # per kind of call: parsed first time / after a retry / never
    summary["judge_latency"] = stats.latency  # per kind of call answered by the judge (cache hits excluded)
    # what the span check changed: no_answer / several / refused, and CORRECTs confirmed / ask / overturned
    summary["grade_guard"] = stats.guard
    summary["shared_state_fallbacks"] = stats.shared  # served locally while the shared Redis was away
    if job.ray_address is not None:
        summary["ray"] = {"actors": job.ray_actors, "batches_resent": stats.resent}
    return summary


def _batches(rows: Iterable[Row], size: int) -> Iterator[list[Row]]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def summarize(
    rows: Iterable[dict[str, Any]], total: int, resumed: int, counters: Counter, wall: float
) -> dict[str, Any]:
    """Counts and means over the output rows, read once as a stream."""
    statuses: Counter = Counter()
    labels: Counter = Counter()
    sums: Counter = Counter()
    counts: Counter = Counter()
    keys = ("reward", "format", "correctness", "factuality")
    for row in rows:
        statuses[row.get("status")] += 1
        if row.get("label"):
            labels[row["label"]] += 1
        for key in keys:
            if isinstance(row.get(key), (int, float)):
                sums[key] += row[key]
                counts[key] += 1
    return {
        "rows": total,
        "already_scored": resumed,
        "statuses": dict(statuses),
        "labels": dict(labels),
        "mean": {k: round(sums[k] / counts[k], 4) if counts[k] else None for k in keys},
        "judge_requests": counters["judge_requests"],
        "cache_hits": counters["cache_hits"],
        "retries": counters["retries"],
        "speculated": counters["speculated"],
        "speculation_wasted": counters["speculation_wasted"],
        "wall_s": round(wall, 2),
    }


# Exit codes (docs/score-model-outputs.md): 0 done; 2 a usage, config or output error (one line on stderr, nothing
# written); 3 no row could be scored (every row failed or was bad input); 130 interrupted (rows kept).
EXIT_USAGE, EXIT_NOTHING_SCORED, EXIT_INTERRUPTED = 2, 3, 130


def add_ray_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="score on a pool of Ray actors: a cluster's address (auto, ray://host:10001), or none for a local Ray",
    )
    parser.add_argument("--ray-actors", type=int, default=2, help="with --ray: engines (actors) in the pool")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reward_engine.score", description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", type=Path, required=True, help="JSONL or JSON array; '-' reads standard input")
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--config", type=Path, required=True, help="reward config YAML (or a training config)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--concurrency", type=int, default=8, help="batches in flight at once")
    parser.add_argument("--passes", type=int, default=3, help="tries per row that times out or fails")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an output this job did not write, or one scored with other settings",
    )
    parser.add_argument("--no-progress", action="store_true")
    add_ray_arguments(parser)
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    if str(args.input) != "-" and not args.input.is_file():
        parser.error(f"input file not found: {args.input}")
    if min(args.batch_size, args.concurrency, args.passes, args.ray_actors) < 1:
        parser.error("--batch-size, --concurrency, --passes and --ray-actors must be at least 1")
    config = load_reward_config_or_report(args.config)
    if config is None or knowledge.report_unusable_factuality(config):
        return EXIT_USAGE
    try:
        summary = asyncio.run(
            score_file(
                args.input,
                args.output,
                config,
                args.batch_size,
                not args.no_progress,
                concurrency=args.concurrency,
                passes=args.passes,
                overwrite=args.overwrite,
                ray_address=args.ray,
                ray_actors=args.ray_actors,
            )
        )
    except (OutputError, InputError, CacheError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(
            f"interrupted: the rows written so far are in {args.output}; run the same command again to resume",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    print(json.dumps(finite(summary), indent=2, allow_nan=False))
    scored = sum(n for status, n in summary["statuses"].items() if status in ("ok", "cached"))
    if summary["rows"] and not scored:
        print("error: no row could be scored (see the statuses above and the rows' 'error')", file=sys.stderr)
        return EXIT_NOTHING_SCORED
    return 0


if __name__ == "__main__":
    sys.exit(main())
