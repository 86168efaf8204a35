"""How far the study's strict grader can be trusted: its labels against the local 1.5B judge's on 200 answers.

    python bench/effect_judge.py --work /work/effect-selective [--answers 200]

Draws ``--answers`` well-formed, attempted or abstaining held-out answers from a margin study's kept evaluations
(every arm and seed, greedy, a seeded draw), grades them with the reward engine's LLM grader against
Qwen2.5-Coder-1.5B on llama.cpp's server (``judges.local``, 127.0.0.1; the shipped local-judge settings:
two calls, KB aliases), and writes agreement and Cohen's kappa of the strict exact match and of the
containment match with the judge to ``WORK/judge_agreement.json``, which ``bench/effect.py`` prints in
effect.md. The judge is no ground truth (bench/results/real_judge.md: 72-89 % on hand-labelled sets); where the
two graders part is what a reader should look at.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knowrl.effect.eval_grader import agreement  # noqa: E402
from knowrl.effect.forecast import read_rows  # noqa: E402
from knowrl_io.work_folder import WORK_MARK, marked  # noqa: E402


def draw(work: Path, n: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` answers (row, completion, strict, contain) from every kept greedy evaluation of the study, malformed
    ones left out (no grader sees them)."""
    pool = []
    for seed_dir in sorted(work.glob("seed*")):
        cold = json.loads((seed_dir / "cold_start.json").read_text())
        rows = {r["qid"]: r for r in read_rows(Path(cold["data"]["heldout"]))}
        for path in sorted([seed_dir / "after_sft.eval.json", *seed_dir.glob("*/after_grpo.eval.json")]):
            for d in json.loads(path.read_text())["greedy"]["details"]:
                if d["strict"] != "MALFORMED" and d["qid"] in rows:
                    pool.append({"row": rows[d["qid"]], "source": str(path.relative_to(work)), **d})
    random.Random(seed).shuffle(pool)
    return pool[:n]


def judge_labels(picked: list[dict[str, Any]], url: str) -> list[str | None]:
    from knowrl.evaluate import grade_completions
    from reward_engine.config import load_yaml, parse_reward_config

    path = ROOT / "configs" / "reward_local_judge.yaml"
    data = load_yaml(path)
    data["judge"]["endpoints"][0]["base_url"] = url
    config = parse_reward_config(data, str(path), path.parent)
    _, details = asyncio.run(grade_completions([p["row"] for p in picked], [p["completion"] for p in picked], config))
    return [d["label"] for d in details]


def outcome(label: str | None) -> str:
    return {"CORRECT": "CORRECT", "INCORRECT": "INCORRECT"}.get(label or "", "ABSTAINED")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, required=True, help="a bench/effect.py study's --work (it writes there)")
    parser.add_argument("--answers", type=int, default=200)
    args = parser.parse_args(argv)
    if not marked(args.work, "bench/effect.py"):  # it writes judge.log and judge_agreement.json there
        print(
            f"error: --work {args.work} has no {WORK_MARK} of bench/effect.py: give the --work of an effect study "
            "(bench/effect.py --work DIR marks its folder, or says how to mark one made before marks)",
            file=sys.stderr,
        )
        return 2
    from judges.local import running

    picked = draw(args.work, args.answers)
    started = time.perf_counter()
    with running(log_path=args.work / "judge.log") as url:
        judged = judge_labels(picked, url)
    ungraded = sum(j is None for j in judged)
    judge = [outcome(j) for j in judged]
    result = {
        "command": "python bench/effect_judge.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "answers": len(picked),
        "ungraded_by_judge": ungraded,
        "judge_s": round(time.perf_counter() - started, 1),
        "strict_vs_judge": agreement([p["strict"] for p in picked], judge),
        "contain_vs_judge": agreement([p["contain"] for p in picked], judge),
        "disagreements": [
            {
                "question": p["row"]["question"],
                "answer": p["answer"],
                "gold": p["row"]["aliases"][:3],
                "strict": p["strict"],
                "contain": p["contain"],
                "judge": j,
            }
            for p, j in zip(picked, judge)
            if j != p["contain"] or j != p["strict"]
        ][:40],
    }
    (args.work / "judge_agreement.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "disagreements"}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
