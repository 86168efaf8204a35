"""Hostile pass 60's grader and fact-check findings (issue #74), each a variant of the pass's case (the pass's own
calls stay out of the tests): a succession read backwards where the question asks who came first, a family name
that goes on into another person's name, a direction joined to another by a hyphen, the town of a "X of Y" name put
forward as the person, no count where the evidence gives one, and "never" where the evidence says when. Every
assertion but the guards failed on ddd6803."""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from tests.helpers import grade_tables

FIRST = "Who voiced the character first, Bob Holt or Mel Blanc?"

WRONG_PAID = [
    ("Bob Holt took over the part from Mel Blanc.", "Bob Holt", FIRST),
    ("Mel Blanc was replaced by Bob Holt.", "Bob Holt", FIRST),
    ("Bob Holt succeeded Mel Blanc in the role.", "Bob Holt", FIRST),
    ("King George V.", "William Lyon Mackenzie King", "Who was Prime Minister of Canada in 1930?"),
    ("North-east.", "north", "Which way does a compass needle point?"),
    ("North-west.", "north", "In which direction does the Nile flow?"),
]

RIGHT_PAID = [
    ("Mel Blanc took over the part from Bob Holt.", "Bob Holt", FIRST),
    ("Bob Holt, later replaced by Mel Blanc.", "Bob Holt", FIRST),
    ("Martin Luther King.", "Martin Luther King", "Who gave the 'I Have a Dream' speech?"),
    ("King, in 1963.", "Martin Luther King", "Who gave the 'I Have a Dream' speech?"),
    ("Mackenzie King, the Liberal leader.", "William Lyon Mackenzie King", "Who was Prime Minister of Canada in 1930?"),
    ("North.", "north", "Which way does a compass needle point?"),
    ("A Paris-based designer.", "Paris", "In which city is the fashion house based?"),
]


test_a_wrong_answer_is_incorrect, test_a_right_answer_is_correct = grade_tables(WRONG_PAID, RIGHT_PAID)


ROLE = ["Bob Holt voiced the character from 1968; Mel Blanc took over the part from Bob Holt in 1975."]


def test_a_succession_turned_round_is_not_supported() -> None:
    assert not facts.supported("Bob Holt took over the part from Mel Blanc.", ROLE)
    assert not facts.supported("Bob Holt was replaced by Mel Blanc.", ["Mel Blanc was replaced by Bob Holt."])
    assert facts.supported("Mel Blanc took over the part from Bob Holt.", ROLE)


SAINT = ["The Book of Hours was illuminated in the abbey by Hildegard of Bingen around 1150."]
SAINT_ASKED = "Who illuminated the Book of Hours in the abbey?"


def test_the_place_of_a_name_of_y_is_contradicted_where_the_person_is_asked() -> None:
    assert facts.answer_contradicted(SAINT_ASKED, "Bingen.", SAINT)
    assert not facts.answer_contradicted(SAINT_ASKED, "Hildegard of Bingen.", SAINT)
    assert not facts.answer_contradicted(SAINT_ASKED, "Hildegard.", SAINT)


WINS = ["Gustavo Kuerten is a Brazilian tennis player. He won the French Open three times and Wimbledon once."]
WINS_ASKED = "How many times did Gustavo Kuerten win Wimbledon?"


@pytest.mark.parametrize("answer", ["None.", "Zero.", "Not once.", "Never."])
def test_no_count_is_contradicted_where_the_evidence_counts_one(answer: str) -> None:
    assert facts.answer_contradicted(WINS_ASKED, answer, WINS)


def test_the_evidence_s_count_is_not_contradicted() -> None:
    assert not facts.answer_contradicted(WINS_ASKED, "Once.", WINS)
    assert not facts.answer_contradicted(WINS_ASKED, "Just once.", WINS)


TITLE = ["The Boston Celtics won their first NBA championship in 1957, beating the St. Louis Hawks."]
TITLE_ASKED = "When did the Boston Celtics win their first NBA championship?"


@pytest.mark.parametrize("answer", ["They never have.", "Never.", "They have never won one."])
def test_never_is_contradicted_where_the_evidence_says_when(answer: str) -> None:
    assert facts.answer_contradicted(TITLE_ASKED, answer, TITLE)


def test_the_year_is_not_contradicted_and_a_reflexive_is_no_other_name() -> None:
    assert not facts.answer_contradicted(TITLE_ASKED, "In 1957.", TITLE)
    written = ["Jolene is a song written and recorded by Dolly Parton in 1973."]
    assert not facts.answer_contradicted("Who wrote Dolly Parton's Jolene?", "Dolly Parton wrote it herself.", written)
