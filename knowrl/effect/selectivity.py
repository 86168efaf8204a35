"""Is abstention selective? Abstaining more where the model does not know, and not where it does.

"Known" is fixed once per seed from the policy after SFT (before GRPO, so GRPO's own answers do not define
what it knew): right in at least half of its sampled answers, by the strict evaluation grader. Then, for any
stage, abstention on known vs unknown answerable questions, and how well a question's abstention rate ranks
unknown above known questions (AUROC, 0.5 = abstention at random). Questions about made-up things are
reported apart: nothing about them can be known.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from knowrl.stats import OUTCOMES

CORRECT, ABSTAINED = OUTCOMES.index("CORRECT"), OUTCOMES.index("ABSTAINED")


def known(counts: np.ndarray, answerable: Sequence[bool]) -> np.ndarray:
    """Per question: answerable and right in at least half of its answers (``counts``: ``[questions, 4]``).

    >>> known(np.array([[2, 2, 0, 0], [1, 3, 0, 0], [2, 0, 2, 0]]), [True, True, False]).tolist()
    [True, False, False]
    """
    n = counts.sum(axis=1)
    return (counts[:, CORRECT] >= np.ceil(n / 2)) & (n > 0) & np.asarray(answerable, dtype=bool)


def abstention(counts: np.ndarray) -> np.ndarray:
    """Per question: the share of its answers that abstain."""
    return counts[:, ABSTAINED] / np.maximum(counts.sum(axis=1), 1)


def auroc(scores: Sequence[float], positive: Sequence[bool]) -> float | None:
    """P(a positive scores above a negative), ties counted half (Mann-Whitney); None without both classes.

    >>> auroc([0.9, 0.8, 0.1], [True, True, False]), auroc([0.5, 0.5], [True, False])
    (1.0, 0.5)
    """
    s, p = np.asarray(scores, dtype=float), np.asarray(positive, dtype=bool)
    pos, neg = s[p], s[~p]
    if not len(pos) or not len(neg):
        return None
    greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(greater / (len(pos) * len(neg)))


def report(counts: np.ndarray, is_known: np.ndarray, answerable: Sequence[bool]) -> dict[str, Any]:
    """Abstention on known / unknown / made-up questions and the AUROC of abstention for "unknown"."""
    real = np.asarray(answerable, dtype=bool)
    rate = abstention(counts)
    unknown = real & ~is_known

    def mean(mask: np.ndarray) -> float | None:
        return float(rate[mask].mean()) if mask.any() else None

    return {
        "n_known": int(is_known.sum()),
        "n_unknown": int(unknown.sum()),
        "n_made_up": int((~real).sum()),
        "abstain_known": mean(is_known),
        "abstain_unknown": mean(unknown),
        "abstain_made_up": mean(~real),
        "auroc_unknown": auroc(rate[real], unknown[real]),
    }


def paired_gap(
    before: np.ndarray,
    after: np.ndarray,
    is_known: np.ndarray,
    answerable: Sequence[bool],
    n_boot: int = 2000,
    seed: int = 0,
) -> dict[str, float] | None:
    """Change, after minus before, in (abstention on unknown - abstention on known), with a 95 % interval
    from resampling questions (the same ones for both stages). None without both known and unknown ones."""
    real = np.asarray(answerable, dtype=bool)
    idx = np.flatnonzero(real)
    k_mask, b, a = is_known[idx], abstention(before[idx]), abstention(after[idx])
    if k_mask.all() or not k_mask.any():
        return None

    def gap(pick: np.ndarray) -> float:
        km = k_mask[pick]
        if km.all() or not km.any():
            return math.nan
        return float((a[pick][~km].mean() - a[pick][km].mean()) - (b[pick][~km].mean() - b[pick][km].mean()))

    rng = np.random.default_rng(seed)
    boot = np.array([gap(rng.integers(0, len(idx), len(idx))) for _ in range(n_boot)])
    boot = boot[~np.isnan(boot)]
    return {
        "delta": gap(np.arange(len(idx))),
        "low": float(np.percentile(boot, 2.5)),
        "high": float(np.percentile(boot, 97.5)),
    }
