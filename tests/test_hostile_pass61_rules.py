"""Hostile pass 61's reward holes (issue #74), as variants of its cases (the pass's own calls stay out of the tests):
the gold's town put in another US state than the one the question names, and a "New ..." town named after the gold
city. Every assertion but the guards failed on e52f4bb."""

from __future__ import annotations

import pytest

from reward_engine.offline.grader import grade

ILLINOIS = "What is the capital of the US state of Illinois?"
BIG_BEN = "In which city is Big Ben?"

WRONG_PAID = [
    ("Springfield, Massachusetts.", "Springfield", ILLINOIS),
    ("Springfield, MA.", "Springfield", ILLINOIS),
    ("New London, Connecticut.", "London", BIG_BEN),
    ("New London.", "London", BIG_BEN),
]

RIGHT_PAID = [
    ("Springfield, Illinois.", "Springfield", ILLINOIS),
    ("Springfield.", "Springfield", ILLINOIS),
    ("London.", "London", BIG_BEN),
    ("London, England.", "London", BIG_BEN),
    ("New York City.", "New York City", "Where is the Empire State Building?"),
]


@pytest.mark.parametrize(("answer", "gold", "question"), WRONG_PAID)
def test_a_wrong_answer_is_incorrect(answer: str, gold: str, question: str) -> None:
    assert grade(answer, gold, question).name == "INCORRECT"


@pytest.mark.parametrize(("answer", "gold", "question"), RIGHT_PAID)
def test_a_right_answer_is_correct(answer: str, gold: str, question: str) -> None:
    assert grade(answer, gold, question).name == "CORRECT"
