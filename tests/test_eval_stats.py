"""Held-out evaluation as a SimpleQA reader measures it: rates per question, a paired bootstrap over
questions, and an evaluation grader independent of the training reward's."""

from __future__ import annotations

import numpy as np
import pytest

from knowrl.effect.eval_grader import agreement, strict_label
from knowrl.stats import bootstrap, counts_per_question, outcome, paired_bootstrap, rates

C, I, A, M = "CORRECT", "INCORRECT", "ABSTAINED", "MALFORMED"  # noqa: E741


def test_rates_count_malformed_apart_from_abstentions():
    counts = counts_per_question([[C, C, I, M], [A, A, I, I]])
    r = rates(counts)
    assert (r["correct"], r["incorrect"], r["not_attempted"], r["malformed"]) == (0.25, 0.375, 0.25, 0.125)
    assert r["correct_given_attempted"] == pytest.approx(2 / 5)
    assert r["f_score"] == pytest.approx(2 * 0.25 * 0.4 / (0.25 + 0.4))
    assert outcome(None, False) == M and outcome("NOT_ATTEMPTED", True) == A


def test_the_bootstrap_resamples_questions_not_answers():
    """Four answers per question, all alike within a question: the question is the unit, so the interval
    is as wide as 20 questions allow, not as narrow as 80 independent answers would make it."""
    counts = counts_per_question([[C] * 4 if q % 2 else [I] * 4 for q in range(20)])
    low, high = bootstrap(counts, seed=1)["correct"]
    assert low < 0.35 and high > 0.65  # ~ +-0.22 around 0.5: the 20-question width
    per_answer_half_width = 1.96 * np.sqrt(0.25 / 80)  # what treating 80 answers as independent gives
    assert (high - low) / 2 > 1.5 * per_answer_half_width


def test_the_paired_bootstrap_sees_a_change_the_unpaired_intervals_hide():
    """Forty questions of mixed difficulty; after training, 8 of them move from INCORRECT to CORRECT and
    nothing else changes. The separate intervals overlap; the paired difference excludes zero."""
    rng = np.random.default_rng(0)
    before_rows = [[C] * 4 if rng.random() < 0.5 else [I] * 4 for _ in range(40)]
    flipped = [q for q, row in enumerate(before_rows) if row[0] == I][:8]
    after_rows = [[C] * 4 if q in flipped else row for q, row in enumerate(before_rows)]
    before, after = counts_per_question(before_rows), counts_per_question(after_rows)
    paired = paired_bootstrap(before, after, seed=2)
    assert paired["correct"]["delta"] == pytest.approx(8 / 40)
    assert paired["correct"]["low"] > 0 and paired["incorrect"]["high"] < 0
    assert bootstrap(before, seed=2)["correct"][1] > bootstrap(after, seed=2)["correct"][0]  # they overlap
    same = paired_bootstrap(before, before, seed=2)
    assert same["f_score"] == {"delta": 0.0, "low": 0.0, "high": 0.0}
    with pytest.raises(ValueError, match="same questions"):
        paired_bootstrap(before, after[:-1])


@pytest.mark.parametrize(
    "answer, aliases, answerable, label",
    [
        ("Nairobi", ["Nairobi"], True, "CORRECT"),
        ("the Hague", ["The Hague"], True, "CORRECT"),
        ("Sao Tome", ["São Tomé"], True, "CORRECT"),
        ("Mali", ["Republic of Mali"], True, "INCORRECT"),  # the training grader drops the head word here
        ("Kenya", ["Mount Kenya"], True, "INCORRECT"),
        ("Paris, I think", ["Paris"], True, "INCORRECT"),  # no hedge reading: strict on purpose
        ("1957", ["1957"], True, "CORRECT"),
        ("In 1957.", ["1957"], True, "CORRECT"),
        ("1957 or 1958", ["1957"], True, "INCORRECT"),
        ("I don't know", ["Nairobi"], True, "NOT_ATTEMPTED"),
        ("Vrelton City", [], False, "INCORRECT"),
        ("There is no such country.", [], False, "NOT_ATTEMPTED"),
    ],
)
def test_the_strict_grader(answer, aliases, answerable, label):
    assert strict_label(answer, aliases, answerable) == label


def test_agreement_and_kappa():
    first = [C, C, I, I, "NOT_ATTEMPTED"]
    second = [C, I, I, I, "NOT_ATTEMPTED"]
    report = agreement(first, second)
    assert report["agree"] == pytest.approx(0.8)
    expected = (2 * 1 + 2 * 3 + 1 * 1) / 25
    assert report["kappa"] == pytest.approx((0.8 - expected) / (1 - expected))
    assert report["confusion"]["CORRECT->INCORRECT"] == 1
