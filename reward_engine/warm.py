"""Fill the caches a training run will hit: ``python -m reward_engine.warm``.

    python -m reward_engine.warm --data TRAIN.json --config configs/reward_judge.yaml \\
        [--completions PREV.jsonl]

- Always: opens the KB (building the ONNX query encoder on first use) and reports how many
  rows' titles are in it, so a missing KB or a title mismatch shows up before training.
- With ``--completions`` (rows as for ``reward_engine.score``, e.g. an earlier run's or a
  sampling pass's outputs): scores them, which fills the judge cache (grades,
  decompositions, verifications) and the evidence cache; reports per-stage hit rates
  before and after. Idempotent: a second run finds everything cached and calls nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from retrieval.kb import split_titles
from reward_engine import offline_grader, prompts, stages
from reward_engine.completion import parse
from reward_engine.config import RewardEngineConfig, load_reward_config_or_report
from reward_engine.engine import RewardEngine, Sample, _gold_text
from reward_engine.jsonl import read_rows
from reward_engine.score import OPTIONAL, REQUIRED

DATA_REQUIRED = {"question": (str,), "answers": (str, list)}
DATA_OPTIONAL = {"title": (str, list)}


def title_coverage(engine: RewardEngine, data_path: Path) -> dict[str, Any]:
    """How many data rows have all / some / none of their titles in the KB."""
    kb = engine.open_kb()
    counts = {"rows": 0, "bad_rows": 0, "all_titles": 0, "some_titles": 0, "no_titles_in_kb": 0, "no_title_field": 0}
    for row in read_rows(data_path, DATA_REQUIRED, DATA_OPTIONAL):
        if row.data is None:
            counts["bad_rows"] += 1
            print(f"bad row: {row.error}", file=sys.stderr)
            continue
        counts["rows"] += 1
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


def hit_rates(engine: RewardEngine, samples: list[Sample]) -> dict[str, Any]:
    """Per stage: cached / needed, without calling anything. Offline stages need no cache."""
    judge, config = engine.judge, engine.config
    grades = [0, 0]
    decompositions = [0, 0]
    verifications = [0, 0]
    for sample in samples:
        parsed = parse(sample.completion)
        if not parsed.has_answer or not _gold_text(sample.answers).strip():
            continue
        label = None
        if config.grader == "llm" and judge is not None:
            grades[1] += 1
            reply = judge.cached(prompts.grader_messages(sample.question, _gold_text(sample.answers),
                                                         parsed.answer or ""), prompts.GRADER_VERSION,
                                 stages.GRADER_MAX_TOKENS)
            grades[0] += reply is not None
            label = prompts.parse_grade(reply) if reply is not None else None
        elif config.grader == "offline":
            label = offline_grader.grade(parsed.answer or "", sample.answers)
        if label is not prompts.Label.INCORRECT or config.decomposer != "llm" or judge is None:
            continue
        decompositions[1] += 1
        reply = judge.cached(prompts.decompose_messages(parsed.think), prompts.DECOMPOSE_VERSION,
                             stages.FACTS_MAX_TOKENS)
        decompositions[0] += reply is not None
        claims = prompts.parse_claims(reply) if reply is not None else None
        if claims and config.verifier == "llm" and engine._retriever is not None:
            titles = sample.title if isinstance(sample.title, str) else ";".join(split_titles(sample.title))
            claims, _ = engine.select_claims(claims, sample.question, titles)
            evidence = engine._retriever.cached(claims, titles)
            verifications[1] += 1
            if evidence is not None:
                verifications[0] += judge.cached(prompts.verify_messages(claims, evidence),
                                                 prompts.VERIFY_VERSION, stages.FACTS_MAX_TOKENS) is not None

    def rate(pair: list[int]) -> float | None:
        return round(pair[0] / pair[1], 4) if pair[1] else None

    return {"grader": rate(grades), "decomposition": rate(decompositions), "verification": rate(verifications),
            "needed": {"grader": grades[1], "decomposition": decompositions[1], "verification": verifications[1]}}


async def warm(config: RewardEngineConfig, data: Path | None, completions: Path | None, kb: Any = None) -> dict:
    report: dict[str, Any] = {}
    async with RewardEngine(config, kb=kb) as engine:
        if data is not None:
            report["titles"] = await asyncio.get_running_loop().run_in_executor(None, title_coverage, engine, data)
        if completions is not None:
            rows = [r for r in read_rows(completions, REQUIRED, OPTIONAL) if r.data is not None]
            samples = [Sample(r.data["question"], r.data["completion"], r.data["answers"], r.data.get("title"))
                       for r in rows]
            if config.factuality.enabled:
                await engine._retriever_ready()
            report["before"] = hit_rates(engine, samples)
            for start in range(0, len(samples), 64):
                await engine.score(samples[start : start + 64])
            report["after"] = hit_rates(engine, samples)
            report["judge_requests"] = engine.judge.metrics.requests if engine.judge else 0
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reward_engine.warm", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="training data (KnowRL JSON array or JSONL)")
    parser.add_argument("--completions", type=Path, help="earlier completions, rows as for reward_engine.score")
    parser.add_argument("--config", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.data is None and args.completions is None:
        parser.error("give --data, --completions or both")
    for path in (args.data, args.completions):
        if path is not None and not path.exists():
            parser.error(f"file not found: {path}")
    config = load_reward_config_or_report(args.config)
    if config is None:
        return 2
    print(json.dumps(asyncio.run(warm(config, args.data, args.completions)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
