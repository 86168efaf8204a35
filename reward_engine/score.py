"""Score a JSONL of model outputs: ``python -m reward_engine.score``.

    python -m reward_engine.score --input OUT.jsonl --output SCORED.jsonl --config configs/reward_offline.yaml

Input rows: ``{"id", "question", "completion", "answers", "title"}`` (``answers`` a string
or list, ``title`` optional). One output row per input row, ``id`` and ``line`` kept, with
``reward`` and every component. A bad line becomes a ``bad_input`` row naming the line and
field; the rest is scored. Re-running with the same output resumes: rows already scored
are kept, rows that timed out or failed are scored again, and the file ends with exactly
one row per input line, in input order.
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
from typing import Any

from tqdm.auto import tqdm

from knowrl_io.jsonl import Appender, Row, load_done, read_rows, rewrite
from knowrl_io.logs import add_verbosity, setup_logging
from reward_engine.config import RewardEngineConfig, load_reward_config_or_report
from reward_engine.engine import RewardEngine, RewardResult, Sample

log = logging.getLogger(__name__)

REQUIRED = {"question": (str,), "completion": (str, list), "answers": (str, list)}
OPTIONAL = {"title": (str, list), "id": (str, int)}
FINAL = {"ok", "cached", "bad_input"}  # statuses that are not recomputed on resume


def _output_row(row: Row, result: RewardResult | None, source: Path) -> dict[str, Any]:
    data = row.data or {}
    out: dict[str, Any] = {"id": data.get("id"), "line": row.line}
    if result is None:
        out.update(reward=None, status="bad_input", error=row.error)
        return out
    out["reward"] = result.total
    out.update(result.to_dict())
    if result.status == "bad_input" and result.error:  # found by the engine: name the row too
        out["error"] = f"{source}:{row.line}: {result.error}"
    return out


async def score_file(
    input_path: Path, output_path: Path, config: RewardEngineConfig, batch_size: int = 64, progress: bool = True,
    kb: Any = None,
) -> dict[str, Any]:
    """Score ``input_path`` into ``output_path``; returns the run summary."""
    started = time.perf_counter()
    done = load_done(output_path, FINAL)
    rewrite(output_path, [done[k] for k in sorted(done)])  # drop torn lines and rows to redo
    rows = list(read_rows(input_path, REQUIRED, OPTIONAL))
    todo = [r for r in rows if r.line not in done]
    for row in todo:
        if row.data is None:
            log.warning("bad input: %s", row.error)
    counters = Counter()
    writer = Appender(output_path)
    try:
        async with RewardEngine(config, kb=kb) as engine:
            with tqdm(total=len(todo), desc="scoring", unit="row", disable=not progress) as bar:
                for start in range(0, len(todo), batch_size):
                    chunk = todo[start : start + batch_size]
                    good = [r for r in chunk if r.data is not None]
                    results = await engine.score([
                        Sample(r.data["question"], r.data["completion"], r.data["answers"], r.data.get("title"))
                        for r in good
                    ])
                    by_line = {r.line: res for r, res in zip(good, results)}
                    writer.write([_output_row(r, by_line.get(r.line), input_path) for r in chunk])
                    m = engine.last_metrics
                    counters.update(judge_requests=m.judge_requests, cache_hits=m.cache_hits, retries=m.retries)
                    bar.update(len(chunk))
    finally:
        writer.close()
    final = load_done(output_path, FINAL | {"timeout", "error", "breaker_open"})
    ordered = [final[k] for k in sorted(final)]
    rewrite(output_path, ordered)
    return summarize(ordered, len(rows), len(rows) - len(todo), counters, time.perf_counter() - started)


def summarize(rows: list[dict[str, Any]], total: int, resumed: int, counters: Counter, wall: float) -> dict[str, Any]:
    def mean(key: str) -> float | None:
        values = [r[key] for r in rows if isinstance(r.get(key), (int, float))]
        return round(sum(values) / len(values), 4) if values else None

    return {
        "rows": total,
        "already_scored": resumed,
        "statuses": dict(Counter(r.get("status") for r in rows)),
        "labels": dict(Counter(r.get("label") for r in rows if r.get("label"))),
        "mean": {k: mean(k) for k in ("reward", "format", "correctness", "factuality")},
        "judge_requests": counters["judge_requests"],
        "cache_hits": counters["cache_hits"],
        "retries": counters["retries"],
        "wall_s": round(wall, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reward_engine.score", description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", type=Path, required=True)
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--config", type=Path, required=True, help="reward config YAML (or a training config)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--no-progress", action="store_true")
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    if not args.input.exists():
        parser.error(f"input file not found: {args.input}")
    config = load_reward_config_or_report(args.config)
    if config is None:
        return 2
    summary = asyncio.run(score_file(args.input, args.output, config, args.batch_size, not args.no_progress))
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
