"""Is a policy's abstention selective, and does it do what its reward asks? Three numbers per evaluated stage.

- **AUROC, pooled**: how well a question's abstention ranks the questions the base policy did not know above
  the ones it knew (0.5: at random), over all answerable held-out questions;
- **AUROC within family**: the same, comparing only a known and an unknown question *of one family* (pairs
  counted across families are left out), so abstaining on whole families ("every atomic number") earns
  nothing here;
- **family prior**: the pooled AUROC of a rule that abstains by family alone (each family scored by its share
  of unknown training questions), the bar a policy must clear to show more than family priors;
- **no-training reference**: the base policy asked k fresh times, abstaining unless most answers agree (3 of 4):
  its disagreement ranks questions with no training at all (``consistency_scores``);
- **optimum agreement**: the share of questions where the greedy action (answer or abstain) equals the reward
  forecast's optimum (``knowrl.effect.forecast``): does the trainer do what its reward asks?

"Known" and "unknown" are the margin design's sides from the base policy's probe (``knowrl.effect.margin``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Mapping, Sequence

import numpy as np

from knowrl.effect.selectivity import abstention, auroc


def within_family_auroc(scores: Sequence[float], unknown: Sequence[bool], family: Sequence[str]) -> float | None:
    """P(an unknown question scores above a known one of the same family), ties half; None without a family
    holding both.

    >>> within_family_auroc([1, 0, 1, 1], [True, False, True, False], ["a", "a", "b", "b"])
    0.75
    """
    pairs = wins = 0.0
    by: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(family):
        by[f].append(i)
    s, u = np.asarray(scores, dtype=float), np.asarray(unknown, dtype=bool)
    for idx in by.values():
        ix = np.asarray(idx)
        pos, neg = s[ix][u[ix]], s[ix][~u[ix]]
        if len(pos) and len(neg):
            pairs += len(pos) * len(neg)
            wins += (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / pairs) if pairs else None


def family_prior_scores(family: Sequence[str], train_rows: Sequence[Mapping[str, Any]]) -> list[float]:
    """Per question, its family's share of unknown (not base-known) answerable training questions."""
    seen: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in train_rows:
        if row.get("answerable", True):
            got = seen[row.get("template") or "?"]
            got[0] += 1
            got[1] += not row.get("base_known", False)
    return [seen[f][1] / seen[f][0] if seen.get(f) and seen[f][0] else 0.5 for f in family]


def selectivity(
    counts: np.ndarray,
    rows: Sequence[Mapping[str, Any]],
    train_rows: Sequence[Mapping[str, Any]],
) -> dict[str, float | None]:
    """AUROC pooled, within family and the family prior's, over the answerable ``rows`` (their ``base_known``
    flags) from per-question outcome ``counts`` (greedy, samples, or both added)."""
    real = np.array([bool(r["answerable"]) for r in rows])
    rate = abstention(np.asarray(counts))[real]
    unknown = [not r.get("base_known", False) for r in rows if r["answerable"]]
    family = [r.get("template") or "?" for r in rows if r["answerable"]]
    return {
        "pooled": auroc(rate, unknown),
        "within_family": within_family_auroc(rate, unknown, family),
        "family_prior": auroc(family_prior_scores(family, train_rows), unknown),
    }


def consistency_scores(answers: Sequence[Sequence[str]]) -> list[float]:
    """Per question, 1 - the share of its sampled answers that agree with the most common one (after the strict
    grader's normalising): 0 when all agree. A policy abstaining unless >= 3 of 4 agree abstains where this
    exceeds 1/4.

    >>> consistency_scores([["Paris", "paris.", "Paris", "Lyon"], ["a", "b", "c", "d"], []])
    [0.25, 0.75, 1.0]
    """
    from collections import Counter

    from knowrl.effect.eval_grader import strict_normalize

    out = []
    for said in answers:
        top = Counter(strict_normalize(a) for a in said).most_common(1)
        out.append(1 - top[0][1] / len(said) if top else 1.0)
    return out


def reference_selectivity(
    answers: Sequence[Sequence[str]], rows: Sequence[Mapping[str, Any]], need: float = 0.75
) -> dict[str, float | None]:
    """AUROC, pooled and within family, of the no-training rule "abstain unless ``need`` of the fresh samples
    agree" (its abstention 0/1), and of the disagreement score itself (graded)."""
    scores = consistency_scores(answers)
    real = [i for i, r in enumerate(rows) if r["answerable"]]
    unknown = [not rows[i].get("base_known", False) for i in real]
    family = [rows[i].get("template") or "?" for i in real]
    rule = [float(scores[i] > 1 - need + 1e-9) for i in real]
    graded = [scores[i] for i in real]
    return {
        "pooled": auroc(rule, unknown),
        "within_family": within_family_auroc(rule, unknown, family),
        "graded_pooled": auroc(graded, unknown),
        "graded_within_family": within_family_auroc(graded, unknown, family),
    }


def greedy_answers(counts: np.ndarray) -> list[bool]:
    """Per question, whether its (single, greedy) answer was an attempt: CORRECT or INCORRECT."""
    from knowrl.stats import OUTCOMES

    c = np.asarray(counts)
    return [bool(x) for x in (c[:, OUTCOMES.index("CORRECT")] + c[:, OUTCOMES.index("INCORRECT")]) > 0]


def optimum_agreement(answered: Sequence[bool], optimum: Sequence[bool]) -> float | None:
    """Share of questions where the policy's action (answered or not) is the reward's optimum.

    >>> optimum_agreement([True, False, False], [True, True, False])
    0.6666666666666666
    """
    if len(answered) != len(optimum):
        raise ValueError(f"actions of the same questions needed: {len(answered)} vs {len(optimum)}")
    return sum(a == b for a, b in zip(answered, optimum)) / len(answered) if answered else None


def optimum_of(
    rows: Sequence[Mapping[str, Any]],
    probe: Mapping[str, Any] | None,
    k: int,
    sem: Any,
    ps: Mapping[str, float] | None = None,
) -> list[bool]:
    """The reward's optimal action per row (answer: True) from the base policy's probe (``forecast``'s p(right);
    made-up or unprobed rows: abstain), or from ``ps`` (``forecast.policy_p_right``: the trained policy's own)."""
    from knowrl.effect.forecast import optimum_actions, p_right_of_rows
    from reward_engine.semantics import payoffs

    if ps is None:
        ps = p_right_of_rows(rows, probe or {}, k)
    p = [ps.get(r["qid"], 0.0) if r.get("answerable", True) else 0.0 for r in rows]
    return optimum_actions(p, payoffs(sem))
