"""What hostile pass 63 and its landing review left open (issue #74), as variants of their cases: a season against
the month the evidence dates an event to, a claim that sets aside what the passage gives it ("... but not in
Africa"), a year told by the one before it, a heading ("Northward") for a direction, the family name before the whole
name, and a firm's hyphened name where a firm is asked. The right answers, the season against its month and the
set-aside claim failed on 600c82b; the wrong answers and the southern seasons are guards for the new readings."""

from __future__ import annotations

from reward_engine.offline import facts
from tests.helpers import grade_tables

TITANIC = "RMS Titanic sank in the North Atlantic Ocean on 15 April 1912, four days into her maiden voyage."
OPERA = "The Sydney Opera House in Australia was formally opened on 20 October 1973 by Queen Elizabeth II."
NILE = "The Nile, flowing through Egypt and Sudan, is the longest river in Africa."

WRONG_PAID = [
    ("The year after 1865.", "1865", "In what year did the American Civil War end?"),
    ("The year before 1912.", "1912", "In what year did the Titanic sink?"),
    ("Southward.", "north", "In which direction does the Nile flow?"),
    ("North-eastward.", "north", "In which direction does the Nile flow?"),
    ("Dickens — Wilkie Collins, in 1861.", "Charles Dickens", "Who wrote Great Expectations?"),
    ("Austria-Hungary.", "Austria", "Which country did Mozart come from?"),
]
RIGHT_PAID = [
    ("The year following 1864.", "1865", "In what year did the American Civil War end?"),
    ("A year before 1913, I believe.", "1912", "In what year did the Titanic sink?"),
    ("Northwards, into the Mediterranean.", "north", "In which direction does the Nile flow?"),
    ("Westward.", "west", "In which direction does the Sun appear to set?"),
    ("Dickens — Charles Dickens, in 1861.", "Charles Dickens", "Who wrote Great Expectations?"),
    ("Harley-Davidson.", "Harley", "Which motorcycle company makes the Sportster?"),
]


test_a_wrong_answer_is_not_paid, test_a_right_answer_is_paid = grade_tables(WRONG_PAID, RIGHT_PAID)


def test_a_season_holding_none_of_the_evidence_s_months_is_contradicted() -> None:
    asked = "When did the Titanic sink?"
    assert facts.answer_contradicted(asked, "In the autumn of 1912.", [TITANIC])
    assert facts.answer_contradicted(asked, "In the winter of 1912.", [TITANIC])
    assert not facts.answer_contradicted(asked, "In the spring of 1912.", [TITANIC])  # guard
    assert not facts.supported("The Titanic sank in the autumn of 1912.", [TITANIC])
    assert facts.supported("The Titanic sank in the spring of 1912.", [TITANIC])  # guard


def test_a_season_south_of_the_equator_may_be_either_hemisphere_s() -> None:
    asked = "When did the Sydney Opera House open?"
    assert not facts.answer_contradicted(asked, "In the spring of 1973.", [OPERA])  # October: a southern spring
    assert not facts.answer_contradicted(asked, "In the autumn of 1973.", [OPERA])
    assert facts.answer_contradicted(asked, "In the summer of 1973.", [OPERA])  # neither hemisphere's


def test_a_name_set_aside_that_the_passage_gives_the_rest_to_is_not_supported() -> None:
    assert not facts.supported("The Nile is the longest river in Egypt but not in Africa.", [NILE])
    assert facts.supported("The Nile is the longest river in Africa, but not in Asia.", [NILE])  # guard
    assert facts.supported("The Nile is the longest river in Africa.", [NILE])  # guard
