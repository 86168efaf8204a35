"""Hostile pass 39 (issue #74): 40 cases written before they were run, on 90 of KnowRL's released RL questions and
golds, run against 05a609c and again at c249cd9: no data loss, no stale result, no wrong answer or refusal paid
right; 6 right answers or refusals paid too little, closed here (12 of the cases below were graded otherwise on
9dd02aa; the wrong answers beside them pin the other side).

- A sequel's full title, "Night at the Museum: Secret of the Tomb (2014)", was cut at its colon into three items, a
  list: a title the question names, then a colon and a capitalised subtitle, is one title.
- "From November 1783 to August 1784" for the gold 1783-1784 read as two dates (a list); and a year range followed by
  a comma ("1783-1784, while Congress met ...") was no range: the range's end refused any comma after it.
- "Nov. 14, 2014": the month's abbreviation ended a sentence.
- "The Skull, Sosa's assassin, shoots him ..." read as a list of three: a possessive description beside the gold
  describes it.
- "Ariel Winter voices Sofia; I don't remember who voices Amber." is a refusal with an aside about another part
  (NOT_ATTEMPTED), in either order; "voices" was no verb of a statement, and the stem of "voices" was "voic" against
  the question's "voice".
- Binary RAR: "Answer: Sam Rockwell\\nExplanation: he voices Vic, Frank's neighbour." read "Explanation" and "Frank's
  neighbour" as names the evidence lacks; and, once "voices" met "voice", "Bill Burr voices Vic." (a wrong answer it
  paid 1 on 9dd02aa, found while mending) is contradicted.
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

C, WRONG, N = Label.CORRECT, Label.INCORRECT, Label.NOT_ATTEMPTED

LANCELOT = "Who plays Sir Lancelot in Night at the Museum?"
ANNAPOLIS = "When was Annapolis the capital of the United States?"
DUMB = "When did Dumb and Dumber To come out?"
SCARFACE = "Who killed Tony at the end of Scarface?"
AMBER = "Who does the voice of Amber in Sofia the First?"


@pytest.mark.parametrize(
    ("question", "gold", "answer", "label"),
    [
        (
            LANCELOT,
            "Dan Stevens",
            "Dan Stevens plays Sir Lancelot in Night at the Museum: Secret of the Tomb (2014).",
            C,
        ),
        (LANCELOT, "Dan Stevens", "Dan Stevens, in Night at the Museum: Secret of the Tomb.", C),
        (LANCELOT, "Dan Stevens", "Ben Stiller plays Sir Lancelot in Night at the Museum: Secret of the Tomb.", WRONG),
        (LANCELOT, "Dan Stevens", "Night at the Museum: Ben Stiller.", WRONG),
        (ANNAPOLIS, "1783\u20131784", "From November 1783 to August 1784, while Congress met at the State House.", C),
        (ANNAPOLIS, "1783\u20131784", "1783\u20131784, while Congress met there.", C),
        (ANNAPOLIS, "1783\u20131784", "From 1783 to 1784, at the Maryland State House.", C),
        (ANNAPOLIS, "1783\u20131784", "From November 1784 to August 1785.", WRONG),
        (ANNAPOLIS, "1783\u20131784", "November 1783 or August 1784.", WRONG),
        (DUMB, "November 14, 2014", "It opened in US theaters on Nov. 14, 2014.", C),
        (DUMB, "November 14, 2014", "Nov. 15, 2014.", WRONG),
        (SCARFACE, "the Skull", "The Skull, Sosa's assassin, shoots him in the back with a shotgun.", C),
        (SCARFACE, "the Skull", "Sosa's assassin, the Skull.", C),
        (SCARFACE, "the Skull", "Alberto, Sosa's assassin, kills him.", WRONG),
        (SCARFACE, "the Skull", "The Skull, Sosa's assassin, and Alberto.", WRONG),
        (AMBER, "Darcy Rose Byrnes", "Ariel Winter voices Sofia; I don't remember who voices Amber.", N),
        (AMBER, "Darcy Rose Byrnes", "I don't remember who voices Amber. Ariel Winter voices Sofia.", N),
        (AMBER, "Darcy Rose Byrnes", "Ariel Winter voices Amber; I don't remember who voices Sofia.", WRONG),
        (AMBER, "Darcy Rose Byrnes", "Darcy Rose Byrnes voices Amber; I don't remember who voices Sofia.", C),
        (AMBER, "Darcy Rose Byrnes", "Ariel Winter voices Amber, I think, but I don't remember who voices her.", WRONG),
    ],
)
def test_pass_39_s_answers_are_graded_as_simpleqa_would(question: str, gold: str, answer: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


def test_binary_rar_reads_an_explanation_s_description_as_no_answer() -> None:
    question = "Who does the voice of Vic on F Is for Family?"
    kb = ["Sam Rockwell voices Vic in F Is for Family. Bill Burr voices Frank Murphy in F Is for Family."]
    assert not facts.answer_contradicted(
        question, "Answer: Sam Rockwell\nExplanation: he voices Vic, Frank's neighbour.", kb
    )
    assert facts.answer_contradicted(question, "Answer: Bill Burr\nExplanation: he voices Vic, Frank's neighbour.", kb)
    assert facts.answer_contradicted(question, "Bill Burr voices Vic.", kb)
    assert facts.answer_contradicted(question, "Answer: Sam Rockwell\nExplanation: Bill Burr voices Vic.", kb)
    assert not facts.answer_contradicted(question, "Sam Rockwell voices Vic.", kb)


def test_the_state_a_city_gold_is_named_after_is_not_the_city() -> None:
    """Left in stop 86's note: "Kansas" for "Kansas City, Missouri" was paid right (an alias cut from the gold's words),
    while "In Kansas." was not. A state or country is another place unless the city is also called by it."""
    museum = "Where is the Negro Leagues Baseball Museum?"
    assert grade("Kansas", "Kansas City, Missouri", museum) is WRONG
    assert grade("Oklahoma", "Oklahoma City", "Where was he born?") is WRONG
    assert grade("Kansas City", "Kansas City, Missouri", museum) is C
    assert grade("New York", "New York City", "Where was he born?") is C  # the city is called so too


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("It was completed in 1889, two years after construction began in 1887.", C),
        ("1889. Construction had started in 1887.", C),
        ("Completed in 1889; it opened to the public in 1890.", C),
        ("It was completed in 1887, two years after construction began in 1889.", WRONG),
        ("Construction began in 1887 and finished in 1889.", WRONG),  # no clause says "completed": left as a list
        ("It was completed in 1889 or 1890.", WRONG),
        ("in 1889, started 1887", WRONG),  # no statement of another event (hole round 8)
    ],
)
def test_a_second_year_for_another_event_is_detail(answer: str, label: Label) -> None:
    """Left in stop 86's note ("joined the VFL in 1987 -- renamed in 1990"): two years were a list, INCORRECT, where
    one clause dates the asked event and the other clearly another."""
    assert grade(answer, "1889", "When was the Eiffel Tower completed?") is label
    vfl = "When did the Brisbane Bears join the VFL?"
    assert grade("They joined the VFL in 1987; the league was renamed the AFL in 1990.", "1987", vfl) is C
    miss = "What year was Kenya Moore crowned Miss USA?"
    assert grade("In 1993 she was crowned Miss Michigan; Miss USA came in 1994.", "1993", miss) is WRONG


@pytest.mark.parametrize(
    "answer",
    [
        "It was completed in 1889; some say it was 1890.",
        "It was completed in 1889. Others think it was finished in 1890.",
        "Completed in 1889. Actually it was 1890.",
        "It was completed in 1889; it was probably 1890 actually.",
    ],
)
def test_a_second_year_weighed_or_said_again_is_a_second_answer(answer: str) -> None:
    """What the first writing of the rule above paid right (found probing it, before it landed)."""
    assert grade(answer, "1889", "When was the Eiffel Tower completed?") is WRONG
