"""Judges scored against the hand-labelled judge set (bench/data/judge_set.jsonl).

    python bench/judge_set.py [--models qwen2.5-coder-1.5b,qwen2.5-coder-0.5b,smollm2] [--slots 2] [--grader-calls two]

Each model is served by ``judges.local`` (llama.cpp's C++ server, 2 threads) and asked through the
engine's own judge client, prompts and schemas: every grade case with the grader (``--grader-calls``), every
verify case with the verifier (verify-v4), ``--slots`` requests in flight. Reported per model: the
judge's raw grade, the engine's grade after the span check (``stages.grade_guard``), claim labels;
accuracy with 95 % Wilson intervals, confusion matrices, seconds per call. The offline grader and
verifier are scored on the same cases. ``bench/real_judge.py`` runs this as its first part.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from knowrl.evaluate import wilson  # noqa: E402
from knowrl_io import provenance  # noqa: E402
from knowrl_io.job_output import check_results
from retrieval.kb import Passage  # noqa: E402
from reward_engine import knowledge, prompts  # noqa: E402
from reward_engine.config import load_reward_config  # noqa: E402
from reward_engine.judge.client import JudgeClient  # noqa: E402
from reward_engine.judge.config import Endpoint, JudgeConfig  # noqa: E402
from reward_engine.offline import facts as offline_facts  # noqa: E402
from reward_engine.offline import grader as offline_grader  # noqa: E402
from reward_engine.stages.grade import LLMGrader, ReadThenCompareGrader  # noqa: E402
from reward_engine.stages.lead_names import LeadNames  # noqa: E402
from reward_engine.stages.llm_stage import FACTS_MAX_TOKENS, JudgeRequest  # noqa: E402

JUDGE_SET = ROOT / "bench" / "data" / "judge_set.jsonl"
VERDICTS = (prompts.SUPPORTED, prompts.CONTRADICTED, prompts.NOT_SUPPORTED)


def config_names(config: Path) -> LeadNames | None:
    """The gold's other names as a reward config's grader reads them (``grader_aliases: kb``: from its
    knowledge base), else None. The source is opened here, before any case: a measurement whose KB is missing
    would otherwise run on with a warning and no aliases, and report another grader's accuracy (judge set 23's
    first record)."""
    cfg = load_reward_config(config)
    if cfg.grader_aliases != "kb":
        return None
    try:
        source = knowledge.open_source(cfg.factuality)
    except Exception as exc:  # noqa: BLE001 - any reason the source cannot open ends the measurement
        raise SystemExit(
            f"error: {config}: grader_aliases: kb cannot open its knowledge source ({exc}); build it, or "
            "measure with a config whose grader_aliases is off"
        ) from None
    return LeadNames(lambda: source)


def load_cases(path: Path = JUDGE_SET) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def accuracy(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    k, n = sum(a == b for a, b in pairs), len(pairs)
    low, high = wilson(k, n)
    return {"correct": k, "n": n, "accuracy": k / n if n else 0.0, "low": low, "high": high}


def offline_verdict(claim: str, evidence: list[dict[str, str]]) -> str:
    texts = [e["text"] for e in evidence]
    if offline_facts.supported(claim, texts):
        return prompts.SUPPORTED
    if offline_facts.contradicted(claim, texts):
        return prompts.CONTRADICTED
    return prompts.NOT_SUPPORTED


def offline_results(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for case in cases:
        if case["kind"] == "grade":
            got = offline_grader.grade(case["answer"], case["gold"], case["question"]).value
            out.append({"id": case["id"], "raw": got, "engine": got})
        else:
            out.append({"id": case["id"], "engine": offline_verdict(case["claim"], case["evidence"])})
    return out


async def judge_results(
    url: str,
    model: str,
    cases: list[dict[str, Any]],
    slots: int,
    grader_calls: str = "two",
    names: LeadNames | None = None,
) -> list[dict[str, Any]]:
    """Every case through the engine's judge client (no cache), ``slots`` at a time; the grader as
    ``grader_calls`` configures it (one: read and compare at once; two: read, then compare the span), with the
    gold's other names from ``names`` (``grader_aliases: kb``) when given."""
    config = JudgeConfig(
        endpoints=[Endpoint(base_url=url, model=model, api_key_env=None)],
        max_in_flight=slots,
        timeout_s=600,
        max_attempts=2,
        structured_output="on",
        schema_format="json_schema",
        temperature=0.0,
    )
    gate = asyncio.Semaphore(slots)
    async with JudgeClient(config) as judge:
        grader = ReadThenCompareGrader(judge, names) if grader_calls == "two" else LLMGrader(judge, names=names)

        async def one(case: dict[str, Any]) -> dict[str, Any]:
            async with gate:
                started = time.perf_counter()
                try:
                    if case["kind"] == "grade":
                        q, gold, answer = case["question"], case["gold"], case["answer"]
                        raw, span, _ = await grader.ask(q, gold, answer)
                        guarded = (await grader.guard(q, gold, answer, raw, span)).value
                        row = {"raw": raw.value, "span": span, "engine": guarded.value}
                    else:
                        passages = [Passage(i + 1, e["title"], e["text"]) for i, e in enumerate(case["evidence"])]
                        req = JudgeRequest(
                            "verify",
                            prompts.verify_messages([case["claim"]], [passages]),
                            prompts.VERIFY_VERSION,
                            FACTS_MAX_TOKENS,
                            prompts.verdicts_schema(1),
                        )
                        reply = await req.send(judge, lambda t: prompts.parse_labels(t, 1) is not None)
                        row = {"engine": (prompts.parse_labels(reply.text, 1) or ["UNPARSEABLE"])[0]}
                except Exception as exc:  # a judge failure is a wrong answer here, counted and shown
                    row = {"raw": "ERROR", "engine": "ERROR", "error": f"{type(exc).__name__}: {exc}"[:200]}
                return {"id": case["id"], "seconds": time.perf_counter() - started, **row}

        return list(await asyncio.gather(*(one(c) for c in cases)))


def jsonable(obj: Any) -> Any:
    """The report with confusion counts keyed "label->got" (JSON keys are strings)."""
    if isinstance(obj, dict):
        return {("->".join(k) if isinstance(k, tuple) else k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    return obj


def summarise(cases: list[dict[str, Any]], results: list[dict[str, Any]]) -> dict[str, Any]:
    by_id = {c["id"]: c for c in cases}
    grades = [(r, by_id[r["id"]]) for r in results if by_id[r["id"]]["kind"] == "grade"]
    verifies = [(r, by_id[r["id"]]) for r in results if by_id[r["id"]]["kind"] == "verify"]
    out: dict[str, Any] = {
        "grade_raw": accuracy([(r.get("raw", r["engine"]), c["label"]) for r, c in grades]),
        "grade_engine": accuracy([(r["engine"], c["label"]) for r, c in grades]),
        "verify": accuracy([(r["engine"], c["label"]) for r, c in verifies]),
        "grade_confusion": Counter((c["label"], r["engine"]) for r, c in grades),
        "verify_confusion": Counter((c["label"], r["engine"]) for r, c in verifies),
        "by_category": {},
    }
    for cat in sorted({c["category"] for _, c in grades}):
        out["by_category"][cat] = accuracy([(r["engine"], c["label"]) for r, c in grades if c["category"] == cat])
    seconds = [r["seconds"] for r in results if "seconds" in r]
    out["seconds_per_call"] = sum(seconds) / len(seconds) if seconds else None
    out["errors"] = [r for r in results if r.get("engine") == "ERROR"]
    return out


def markdown(
    command: str, path: Path, cases: list[dict[str, Any]], report: dict[str, Any], wall_s: float, aliases: bool = False
) -> str:
    """A results page for one set: accuracy with Wilson intervals per judge, then per category."""
    import platform

    labels = Counter(c["label"] for c in cases)
    judges = [k for k in report if k not in ("offline", "command")] + ["offline"]
    lines = [
        f"# Judges on `{path.name}`: `{command}`",
        "",
        f"Written by that command at commit {provenance.commit()} ({wall_s / 60:.1f} min on {platform.machine()}, "
        f"{os.cpu_count()} cores). "
        f"{len(cases)} cases (gold {', '.join(f'{k} {v}' for k, v in sorted(labels.items()))}), each through the"
        " engine's judge client with the engine's prompts and schemas (no cache, temperature 0, `judges.local`:"
        " llama.cpp's server, Q4_K_M GGUF, 2 threads); *engine's* is the grade after `stages/grade_guard.py`"
        + (
            " and the gold's other names read from its KB page (`grader_aliases: kb`, as the config has it)."
            if aliases
            else "."
        )
        + " 95 % Wilson intervals (cases are independent items). Speed is not reported here (real_judge.md has"
        " it, measured on an idle machine).",
        "",
        "| judge | judge's grade | engine's grade |",
        "|---|---:|---:|",
    ]

    def cell(a: dict[str, Any]) -> str:
        return f"{a['correct']}/{a['n']} = **{a['accuracy']:.1%}** [{a['low']:.1%}, {a['high']:.1%}]"

    for name in judges:
        r = report[name]
        raw = "—" if name == "offline" else cell(r["grade_raw"])
        lines.append(f"| {name} | {raw} | {cell(r['grade_engine'])} |")
    lines += ["", "Engine's grade by category (right / cases):", ""]
    lines += ["| category | n | " + " | ".join(judges) + " |", "|---|---:|" + "---:|" * len(judges)]
    for cat, acc in report["offline"]["by_category"].items():
        cells = " | ".join(str(report[j]["by_category"][cat]["correct"]) for j in judges)
        lines.append(f"| {cat} | {acc['n']} | {cells} |")
    lines += ["", "Confusion, engine's grade (rows: hand label; columns: engine):", ""]
    for name in judges:
        conf = report[name]["grade_confusion"]
        got = sorted({g for _, g in conf} | set(labels))
        lines += [f"**{name}**", "", "| label | " + " | ".join(got) + " |", "|---|" + "---:|" * len(got)]
        lines += [f"| {lab} | " + " | ".join(str(conf.get((lab, g), 0)) for g in got) + " |" for lab in sorted(labels)]
        lines.append("")
    return "\n".join(lines)


def run_model(
    model: str, cases: list[dict[str, Any]], slots: int, log_dir: Path, grader_calls: str, names: LeadNames | None
) -> tuple[list[dict], float]:
    from judges.local import resolve_model, running

    _, served_as = resolve_model(model)
    with running(model=model, parallel=slots, log_path=log_dir / f"{model}-{slots}.log") as url:
        started = time.perf_counter()
        results = asyncio.run(judge_results(url, served_as, cases, slots, grader_calls, names))
        return results, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="qwen2.5-coder-1.5b,qwen2.5-coder-0.5b,smollm2")
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--grader-calls", choices=("one", "two"), default="two")
    parser.add_argument("--kinds", default="grade,verify", help="which cases: grade, verify or both")
    parser.add_argument("--set", type=Path, default=JUDGE_SET, help="the cases (default: the first set)")
    parser.add_argument(
        "--config",
        type=Path,
        default=ROOT / "configs" / "reward_local_judge.yaml",
        help="the reward config whose grader_aliases (and knowledge base) the grader uses",
    )
    parser.add_argument("--out", type=Path, default=Path("/tmp/knowrl-judge-set.json"))
    parser.add_argument("--md", type=Path, help="also write a results page (bench/results/judge_heldout.md)")
    args = parser.parse_args(argv)
    check_results(args, __file__)  # never an input or someone's file (hostile pass 52)
    started = time.perf_counter()
    cases = [c for c in load_cases(args.set) if c["kind"] in args.kinds.split(",")]
    command = "python bench/judge_set.py " + " ".join(argv if argv is not None else sys.argv[1:])
    # the command first: a rerun knows its own report by it (``check_results``)
    report: dict[str, Any] = {"command": command.strip(), "offline": summarise(cases, offline_results(cases))}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    names = config_names(args.config)
    for model in filter(None, args.models.split(",")):  # --models "": the offline grader only
        results, wall = run_model(model, cases, args.slots, args.out.parent, args.grader_calls, names)
        report[model] = {**summarise(cases, results), "wall_s": wall, "results": results}
        print(model, json.dumps({k: report[model][k] for k in ("grade_raw", "grade_engine", "verify")}), flush=True)
    args.out.write_text(json.dumps(jsonable(report), indent=1))
    if args.md:
        args.md.write_text(
            markdown(command.strip(), args.set, cases, report, time.perf_counter() - started, names is not None)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
