"""Hostile pass 61's reward holes (issue #74), as variants of its cases (the pass's own calls stay out of the tests):
the gold's town put in another US state than the one the question names, and a "New ..." town named after the gold
city. Every assertion but the guards failed on e52f4bb."""

from __future__ import annotations

from tests.helpers import grade_tables

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


test_a_wrong_answer_is_incorrect, test_a_right_answer_is_correct = grade_tables(WRONG_PAID, RIGHT_PAID)
