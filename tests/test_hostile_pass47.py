"""Hostile pass 47 (seed 47047, run at da08d55, issue #74) and what was found beside it. Each assertion failed on
da08d55.

Found beside the pass:
- pass 46's G6: "Hundreds of thousands." was CORRECT for the gold "Thousands" (the gold's word inside another
  order of magnitude);
- "Season 9; the eighth season." was CORRECT for "Season 9": a second season said as "the ..." read as a description;
- a gold given with an alias (``["three", "trio"]``) paid "Octopuses have one heart; squids have three.", INCORRECT
  for "three" alone: a wrong candidate competed with one alias and not the other, and the grader took the milder.
"""

from __future__ import annotations

import pytest

from reward_engine.offline.grader import Label, grade

NEPAL = "How many houses were destroyed in Nepal earthquake?"
SEASON = "In which season does he die?"
SQUID = "How many hearts does a squid have?"


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("Hundreds of thousands.", "Thousands", Label.INCORRECT),
        ("Tens of thousands.", "Thousands", Label.INCORRECT),
        ("Thousands of houses.", "Thousands", Label.CORRECT),
        ("Hundreds of thousands.", "Hundreds of thousands", Label.CORRECT),
    ],
)
def test_another_order_of_magnitude(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, NEPAL) is label


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Season 9; the eighth season.", Label.INCORRECT),
        ("Season 9 or the 8th season.", Label.INCORRECT),
        ("Season 9. Maybe season eight.", Label.INCORRECT),
        ("Season 9; engaged in Season 6", Label.CORRECT),  # a detail of another season (review 44)
        ("Season 9, in episode 5.", Label.CORRECT),
    ],
)
def test_a_second_season_is_a_second_answer(answer: str, label: Label) -> None:
    assert grade(answer, "Season 9", SEASON) is label
    assert grade(answer, "the ninth season", SEASON) is label


def test_an_alias_the_answer_does_not_use_changes_nothing() -> None:
    answer = "Octopuses have one heart; squids have three."
    alone = grade(answer, "three", SQUID)
    assert alone is Label.INCORRECT
    assert grade(answer, ["three", "trio"], SQUID) is alone
    assert grade(answer, ["trio", "three"], SQUID) is alone
    assert grade("Three.", ["three", "trio"], SQUID) is Label.CORRECT
