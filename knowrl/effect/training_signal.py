"""Was the GRPO training signal alive? Read from a run's reward log and its dynamic-sampling counts.

GRPO learns only from groups whose completions got different rewards. Per run: the share of steps whose
trained batch held a group with reward spread, the share of groups with spread in the first draw (before
dynamic sampling refilled the flat ones), CORRECT and INCORRECT completions per step, claims per
completion, and the fact term's share of the reward's variance inside groups (how much of what GRPO sees
comes from the fact score: a row's ``fact_score``, ``factuality`` in logs written before the rename). The log
holds every scored completion in order, a step's groups one after another (``group`` completions each),
resampled draws included.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any, Sequence

from knowrl_io.args import Parser
from knowrl_io.jsonl import read_objects
from reward_engine.samples import fact_score_of

LABELS = ("CORRECT", "INCORRECT", "NOT_ATTEMPTED")


def _groups(rows: Sequence[dict[str, Any]], group: int) -> list[list[dict[str, Any]]]:
    return [list(rows[i : i + group]) for i in range(0, len(rows) - group + 1, group)]


def _spread(group: Sequence[dict[str, Any]]) -> bool:
    totals = [r["total"] for r in group if r.get("total") is not None]
    return len(totals) > 1 and statistics.pstdev(totals) > 1e-9


def _trapped(group: Sequence[dict[str, Any]]) -> bool:
    """Every completion of the group abstains: no reward spread, and no way back (KARL's abstention trap)."""
    return bool(group) and all(r.get("label") == "NOT_ATTEMPTED" for r in group)


def _shares(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Share of each grade, and of completions without one (no answer to grade)."""
    shares = {lab: sum(r.get("label") == lab for r in rows) / len(rows) for lab in LABELS}
    return {**shares, "no_answer": sum(r.get("label") is None for r in rows) / len(rows)}


def _steps(log: Path) -> dict[int, list[dict[str, Any]]]:
    steps: dict[int, list[dict[str, Any]]] = {}
    for row in read_objects(log):
        if isinstance(row.get("step"), int):
            steps.setdefault(row["step"], []).append(row)
    return steps


def training_signal(
    log: Path, fact_weight: float, group: int, dynamic: Sequence[dict[str, int]] | None = None
) -> dict[str, Any]:
    """The signal of one run (``dynamic``: the trainer's per-step dynamic-sampling counts, when it ran)."""
    from knowrl.effect.heldout import claims_in

    steps = _steps(log)
    rows = [r for s in sorted(steps) for r in steps[s]]
    if not rows:
        return {"completions": 0}
    per_step = {s: _groups(steps[s], group) for s in sorted(steps)}
    var_total = var_fact = 0.0
    for groups in per_step.values():
        for g in groups:
            var_total += statistics.pvariance([r.get("total") or 0.0 for r in g])
            var_fact += statistics.pvariance([fact_weight * (fact_score_of(r) or 0.0) for r in g])
    if dynamic:
        with_spread = sum(d["groups"] > d["flat_after"] for d in dynamic) / len(dynamic)
        first = 1 - sum(d["flat_first"] for d in dynamic) / max(1, sum(d["groups"] for d in dynamic))
        after = 1 - sum(d["flat_after"] for d in dynamic) / max(1, sum(d["groups"] for d in dynamic))
    else:
        with_spread = sum(any(_spread(g) for g in gs) for gs in per_step.values()) / len(per_step)
        drawn = [g for gs in per_step.values() for g in gs]
        first = after = sum(_spread(g) for g in drawn) / max(1, len(drawn))
    incorrect = [r for r in rows if r.get("label") == "INCORRECT"]
    shares = _shares(rows)
    trap = [sum(map(_trapped, gs)) / len(gs) if gs else 0.0 for gs in per_step.values()]
    return {
        "completions": len(rows),
        "steps": len(steps),
        "steps_with_spread": with_spread,
        "groups_with_spread_first_draw": first,
        "groups_with_spread_trained": after,
        "correct_per_step": sum(r.get("label") == "CORRECT" for r in rows) / len(steps),
        "incorrect_per_step": len(incorrect) / len(steps),
        "labels": {lab: shares[lab] for lab in LABELS},
        "no_answer": shares["no_answer"],
        "claims_per_completion": statistics.fmean(claims_in(r["completion"]) for r in rows),
        "claims_per_incorrect": statistics.fmean(claims_in(r["completion"]) for r in incorrect) if incorrect else None,
        "fact_score_incorrect": statistics.fmean(fact_score_of(r) or 0.0 for r in incorrect) if incorrect else None,
        "fact_variance_share": var_fact / var_total if var_total > 0 else None,
        # per step, the share of drawn groups (refills included) whose completions all say "I don't know"
        "trap_share": statistics.fmean(trap),
        "trap_share_per_step": [round(t, 3) for t in trap],
    }


def label_trajectory(log: Path, block: int = 8) -> list[dict[str, Any]]:
    """Label shares of the sampled completions per block of ``block`` steps: shows when a policy collapses onto
    one answer (e.g. "I don't know" everywhere), which the run's averages hide."""
    if block < 1:  # 0 ended in range()'s ValueError, a negative block gave an empty table (hostile pass 57)
        raise ValueError(f"block must be at least 1 step, got {block}")
    steps = _steps(log)
    out = []
    for first in range(0, max(steps, default=-1) + 1, block):
        rows = [r for s in range(first, first + block) for r in steps.get(s, [])]
        if not rows:
            continue
        out.append(
            {
                "steps": (first, min(first + block, max(steps) + 1) - 1),
                "completions": len(rows),
                **_shares(rows),
                "mean_reward": statistics.fmean(r.get("total") or 0.0 for r in rows),
            }
        )
    return out


def trajectory_table(rows: Sequence[dict[str, Any]]) -> str:
    """``label_trajectory`` as a markdown table."""
    lines = [
        "| steps | completions | CORRECT | INCORRECT | I don't know | no answer | mean reward |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        a, b = r["steps"]
        shares = " | ".join(f"{r[k]:.2f}" for k in (*LABELS, "no_answer"))
        lines.append(f"| {a}-{b} | {r['completions']} | {shares} | {r['mean_reward']:+.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the label trajectory of a run's reward log; a bad ``--block`` or a file with no GRPO step rows is one
    line and exit 2, never a traceback or an empty table (hostile pass 57)."""
    parser = Parser(prog="python -m knowrl.effect.training_signal", description="label shares per block of GRPO steps")
    parser.add_argument("log", type=Path, help="a run's rewards.jsonl")
    parser.add_argument("--block", type=int, default=8, help="steps per row, at least 1 (default 8)")
    args = parser.parse_args(argv)
    if args.block < 1:
        parser.error(f"--block must be at least 1 (steps per row), got {args.block}")
    if not args.log.exists():
        parser.error(f"reward log not found: {args.log}")
    try:
        rows = label_trajectory(args.log, args.block)
    except OSError as exc:
        print(f"error: cannot read the reward log {args.log}: {exc.strerror}", file=sys.stderr)
        return 2
    if not rows:  # a score job's output, or any JSONL: no row carries a GRPO step
        print(
            f"error: {args.log} holds no GRPO step rows (rows with an integer 'step'): not a run's reward log",
            file=sys.stderr,
        )
        return 2
    print(trajectory_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
