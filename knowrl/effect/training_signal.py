"""Was the GRPO training signal alive? Read from a run's reward log and its dynamic-sampling counts.

GRPO learns only from groups whose completions got different rewards. Per run: the share of steps whose
trained batch held a group with reward spread, the share of groups with spread in the first draw (before
dynamic sampling refilled the flat ones), CORRECT and INCORRECT completions per step, claims per
completion, and the fact term's share of the reward's variance inside groups (how much of what GRPO sees
comes from the fact score). The log holds every scored completion in order, a step's groups one after
another (``group`` completions each), resampled draws included.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any, Sequence

from knowrl_io.jsonl import read_objects


def _groups(rows: Sequence[dict[str, Any]], group: int) -> list[list[dict[str, Any]]]:
    return [list(rows[i : i + group]) for i in range(0, len(rows) - group + 1, group)]


def _spread(group: Sequence[dict[str, Any]]) -> bool:
    totals = [r["total"] for r in group if r.get("total") is not None]
    return len(totals) > 1 and statistics.pstdev(totals) > 1e-9


def training_signal(
    log: Path, fact_weight: float, group: int, dynamic: Sequence[dict[str, int]] | None = None
) -> dict[str, Any]:
    """The signal of one run (``dynamic``: the trainer's per-step dynamic-sampling counts, when it ran)."""
    from knowrl.effect.heldout import claims_in

    steps: dict[int, list[dict[str, Any]]] = {}
    for row in read_objects(log):
        if isinstance(row.get("step"), int):
            steps.setdefault(row["step"], []).append(row)
    rows = [r for s in sorted(steps) for r in steps[s]]
    if not rows:
        return {"completions": 0}
    per_step = {s: _groups(steps[s], group) for s in sorted(steps)}
    var_total = var_fact = 0.0
    for groups in per_step.values():
        for g in groups:
            var_total += statistics.pvariance([r.get("total") or 0.0 for r in g])
            var_fact += statistics.pvariance([fact_weight * (r.get("factuality") or 0.0) for r in g])
    if dynamic:
        with_spread = sum(d["groups"] > d["flat_after"] for d in dynamic) / len(dynamic)
        first = 1 - sum(d["flat_first"] for d in dynamic) / max(1, sum(d["groups"] for d in dynamic))
        after = 1 - sum(d["flat_after"] for d in dynamic) / max(1, sum(d["groups"] for d in dynamic))
    else:
        with_spread = sum(any(_spread(g) for g in gs) for gs in per_step.values()) / len(per_step)
        drawn = [g for gs in per_step.values() for g in gs]
        first = after = sum(_spread(g) for g in drawn) / max(1, len(drawn))
    incorrect = [r for r in rows if r.get("label") == "INCORRECT"]
    return {
        "completions": len(rows),
        "steps": len(steps),
        "steps_with_spread": with_spread,
        "groups_with_spread_first_draw": first,
        "groups_with_spread_trained": after,
        "correct_per_step": sum(r.get("label") == "CORRECT" for r in rows) / len(steps),
        "incorrect_per_step": len(incorrect) / len(steps),
        "labels": {
            lab: sum(r.get("label") == lab for r in rows) / len(rows)
            for lab in ("CORRECT", "INCORRECT", "NOT_ATTEMPTED")
        },
        "no_answer": sum(r.get("label") is None for r in rows) / len(rows),
        "claims_per_completion": statistics.fmean(claims_in(r["completion"]) for r in rows),
        "claims_per_incorrect": statistics.fmean(claims_in(r["completion"]) for r in incorrect) if incorrect else None,
        "fact_score_incorrect": statistics.fmean(r.get("factuality") or 0.0 for r in incorrect) if incorrect else None,
        "fact_variance_share": var_fact / var_total if var_total > 0 else None,
    }
