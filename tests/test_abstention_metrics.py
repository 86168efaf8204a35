"""Selectivity within family, the family prior and agreement with the reward's optimum (issue #73)."""

from __future__ import annotations

import numpy as np
import pytest

from knowrl.effect.abstention_metrics import (
    family_prior_scores,
    greedy_answers,
    optimum_agreement,
    optimum_of,
    reference_selectivity,
    selectivity,
    within_family_auroc,
)
from knowrl.stats import counts_per_question
from reward_engine.semantics import semantics


def rows(spec: list[tuple[str, bool]]) -> list[dict]:
    return [{"qid": f"{f}:{i}", "template": f, "answerable": True, "base_known": k} for i, (f, k) in enumerate(spec)]


def test_abstaining_by_family_scores_high_pooled_and_half_within_family() -> None:
    """Family a is mostly unknown, b mostly known: abstaining on all of a and none of b ranks well pooled, but
    tells nothing within a family."""
    held = rows([("a", False)] * 8 + [("a", True)] * 2 + [("b", False)] * 2 + [("b", True)] * 8)
    outcomes = [["ABSTAINED"]] * 10 + [["CORRECT"]] * 10
    got = selectivity(counts_per_question(outcomes), held, held)
    assert got["pooled"] == pytest.approx(0.8) and got["within_family"] == pytest.approx(0.5)
    assert got["family_prior"] == pytest.approx(0.8)  # the rule that abstains by family does as well


def test_a_selective_policy_beats_the_family_prior_within_family() -> None:
    held = rows([("a", False)] * 8 + [("a", True)] * 2 + [("b", False)] * 2 + [("b", True)] * 8)
    outcomes = [["ABSTAINED"]] * 8 + [["CORRECT"]] * 2 + [["ABSTAINED"]] * 2 + [["CORRECT"]] * 8
    got = selectivity(counts_per_question(outcomes), held, held)
    assert got["pooled"] == got["within_family"] == pytest.approx(1.0)
    assert within_family_auroc([1, 1], [True, True], ["a", "a"]) is None  # no known question to compare


def test_made_up_rows_stay_out_of_the_auroc() -> None:
    held = rows([("a", False), ("a", True)]) + [{"qid": "m", "template": "capital", "answerable": False}]
    got = selectivity(counts_per_question([["ABSTAINED"], ["CORRECT"], ["CORRECT"]]), held, held)
    assert got["pooled"] == 1.0


def test_family_prior_reads_the_training_rows() -> None:
    train = rows([("a", False)] * 3 + [("a", True)] + [("b", True)])
    assert family_prior_scores(["a", "b", "c"], train) == [0.75, 0.0, 0.5]


def test_optimum_agreement_against_the_forecast() -> None:
    probe = {f"f:{i}": {"correct": c} for i, c in enumerate([8, 8, 0, 0, 5])}
    held = [{"qid": q, "template": "f", "answerable": True} for q in probe]
    held.append({"qid": "fake", "template": "capital", "answerable": False})
    best = optimum_of(held, probe, 8, semantics("truthrl"))
    assert best == [True, True, False, False, True, False]
    answered = greedy_answers(
        counts_per_question([["CORRECT"], ["INCORRECT"], ["ABSTAINED"], ["CORRECT"], ["MALFORMED"], ["ABSTAINED"]])
    )
    assert answered == [True, True, False, True, False, False]
    assert optimum_agreement(answered, best) == pytest.approx(4 / 6)
    with pytest.raises(ValueError):
        optimum_agreement([True], best)
    assert np.isclose(optimum_agreement(best, best), 1.0)


def test_the_no_training_reference_abstains_unless_three_of_four_agree() -> None:
    held = rows([("a", True), ("a", False), ("b", True), ("b", False)])
    answers = [["x", "x", "x", "y"], ["x", "y", "z", "x"], ["q", "q", "q", "q"], ["q", "r", "s", "t"]]
    got = reference_selectivity(answers, held)
    assert got["pooled"] == got["within_family"] == 1.0
    flipped = reference_selectivity(answers[::-1], held)  # disagreement on the known ones: worse than chance
    assert flipped["pooled"] == 0.0
