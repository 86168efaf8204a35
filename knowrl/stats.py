"""SimpleQA's numbers per question, and intervals that respect how the answers were drawn.

k sampled answers to one question are not k independent draws: a Wilson interval over all answers is too
narrow (up to sqrt(k) times). Here the unit is the question: a bootstrap resamples questions, each with
all its answers, and two stages evaluated on the same questions (after SFT, after GRPO) are compared by
resampling the same questions for both (a paired bootstrap), so question difficulty cancels out.

An answer's outcome is one of ``OUTCOMES``: a malformed completion (no parseable answer) is counted apart
from a real abstention, so "not attempted" means the model said it does not know.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

OUTCOMES = ("CORRECT", "INCORRECT", "ABSTAINED", "MALFORMED")
STATS = ("f_score", "correct_given_attempted", "correct", "incorrect", "not_attempted", "malformed")


def outcome(label: str | None, well_formed: bool) -> str:
    """One answer's outcome: MALFORMED without a parseable answer, else its grade (NOT_ATTEMPTED: ABSTAINED).

    >>> outcome("CORRECT", True), outcome("NOT_ATTEMPTED", True), outcome("INCORRECT", False)
    ('CORRECT', 'ABSTAINED', 'MALFORMED')
    """
    if not well_formed:
        return "MALFORMED"
    return label if label in ("CORRECT", "INCORRECT") else "ABSTAINED"


def counts_per_question(outcomes: Sequence[Sequence[str]]) -> np.ndarray:
    """``[questions, 4]`` counts of each outcome (``OUTCOMES`` order) among each question's answers."""
    index = {name: i for i, name in enumerate(OUTCOMES)}
    counts = np.zeros((len(outcomes), len(OUTCOMES)), dtype=np.int64)
    for q, answers in enumerate(outcomes):
        for answer in answers:
            counts[q, index[answer]] += 1
    return counts


def _rates(totals: np.ndarray) -> dict[str, np.ndarray]:
    """The rates from summed counts (last axis: ``OUTCOMES``), vectorised over any leading axes."""
    totals = totals.astype(float)
    n = np.maximum(totals.sum(axis=-1), 1.0)
    correct, incorrect, abstained, malformed = (totals[..., i] / n for i in range(4))
    attempted = correct + incorrect
    given = np.divide(correct, attempted, out=np.zeros_like(correct), where=attempted > 0)
    f_score = np.divide(2 * correct * given, correct + given, out=np.zeros_like(correct), where=correct + given > 0)
    return {
        "f_score": f_score,
        "correct_given_attempted": given,
        "correct": correct,
        "incorrect": incorrect,
        "not_attempted": abstained,
        "malformed": malformed,
    }


def rates(counts: np.ndarray) -> dict[str, float]:
    """SimpleQA's rates over all answers: correct, incorrect, not attempted (abstentions only), malformed,
    correct given attempted, and F (harmonic mean of correct and correct given attempted).

    >>> r = rates(counts_per_question([["CORRECT", "INCORRECT"], ["ABSTAINED", "CORRECT"]]))
    >>> r["correct"], r["correct_given_attempted"], round(r["f_score"], 4)
    (0.5, 0.6666666666666666, 0.5714)
    """
    return {k: float(v) for k, v in _rates(counts.sum(axis=0)).items()}


def _resamples(n_questions: int, n_boot: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, n_questions, size=(n_boot, n_questions))


def bootstrap(
    counts: np.ndarray, n_boot: int = 2000, seed: int = 0, level: float = 0.95
) -> dict[str, tuple[float, float]]:
    """Percentile intervals of every rate, questions resampled with all their answers."""
    picks = _resamples(len(counts), n_boot, seed)
    boot = _rates(counts[picks].sum(axis=1))
    tail = (1 - level) / 2 * 100
    return {k: (float(np.percentile(v, tail)), float(np.percentile(v, 100 - tail))) for k, v in boot.items()}


def paired_bootstrap(
    before: np.ndarray, after: np.ndarray, n_boot: int = 2000, seed: int = 0, level: float = 0.95
) -> dict[str, dict[str, float]]:
    """after - before for every rate, with a percentile interval from resampling the same questions for both
    stages. ``before`` and ``after`` hold the same questions in the same order."""
    if before.shape[0] != after.shape[0]:
        raise ValueError(f"paired stages need the same questions: {before.shape[0]} vs {after.shape[0]}")
    picks = _resamples(len(before), n_boot, seed)
    b, a = _rates(before[picks].sum(axis=1)), _rates(after[picks].sum(axis=1))
    point_b, point_a = _rates(before.sum(axis=0)), _rates(after.sum(axis=0))
    tail = (1 - level) / 2 * 100
    out = {}
    for k in STATS:
        diff = a[k] - b[k]
        out[k] = {
            "delta": float(point_a[k] - point_b[k]),
            "low": float(np.percentile(diff, tail)),
            "high": float(np.percentile(diff, 100 - tail)),
        }
    return out
