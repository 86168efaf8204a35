"""Hostile pass 47 (seed 47047, run at da08d55, issue #74) and what was found beside it. Each assertion failed on
da08d55.

Pass 47: 21 of 30 held; no job case lost data, left a stale result or ended in a traceback (a KB rebuilt on a full
disk, an input still being written, a KB rebuilt under a running score, a cache on a full disk, a list title, an
output named like a lock file's stem, rows deleted from the input, a build input without texts). Closed here:

- wrong answers paid: Binary RAR paid "In late 1981." and "In December 1981." where the evidence dates it 17 January
  1981, and ``supported`` held the claim (only years were compared); the grader called "In the autumn of 1981."
  NOT_ATTEMPTED for 17 January 1981; "Not on any one person, though Frank Mundus is often cited." was CORRECT for
  Frank Mundus (the premise denied, the gold named only as what others say);
- right answers paid wrong: "Rob Knepper." for Robert Knepper (grader, ``supported`` and Binary RAR: a short given
  name read as another), "Ira and Charlie Louvin." for The Louvin Brothers, "The Columbia Broadcasting System." where
  the evidence says CBS (Binary RAR), "I don't know, though it wasn't Henry Mancini." (INCORRECT; truthrl-strict
  paid -1: the ruled-out name read as a guess; in tests/test_reward_holes_round3.py through every entry point).

Left (in the issue's note): G7 "Between the 2007 and 2008 seasons." for "Following the 2007 season" (INCORRECT) and
G13 "The United States, Guatemala and Belize." for the incomplete gold "United States of America" (a list).

Found beside the pass:
- pass 46's G6: "Hundreds of thousands." was CORRECT for the gold "Thousands" (the gold's word inside another
  order of magnitude);
- "Season 9; the eighth season." was CORRECT for "Season 9": a second season said as "the ..." read as a description;
- a gold given with an alias (``["three", "trio"]``) paid "Octopuses have one heart; squids have three.", INCORRECT
  for "three" alone: a wrong candidate competed with one alias and not the other, and the grader took the milder.
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.commitment import commits
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


MARTIAL = (
    "Martial law in the Philippines was declared by Ferdinand Marcos in September 1972. Martial law in the "
    "Philippines was lifted on 17 January 1981."
)
LIFTED = "When was martial law lifted in the Philippines?"


@pytest.mark.parametrize(
    ("answer", "contradicted"),
    [
        ("In late 1981.", True),
        ("In December 1981.", True),
        ("On 17 December 1981.", True),
        ("In the autumn of 1981.", True),
        ("In early 1981.", False),
        ("In January 1981.", False),
        ("In 1981.", False),
        ("In the winter of 1981.", False),  # January is winter in the north
    ],
)
def test_a_time_of_year_the_evidence_does_not_give(answer: str, contradicted: bool) -> None:
    assert facts.answer_contradicted(LIFTED, answer, [MARTIAL]) is contradicted


def test_a_month_the_evidence_does_not_give_is_not_supported() -> None:
    assert not facts.supported("Martial law in the Philippines was lifted in late 1981.", [MARTIAL])
    assert facts.supported("Martial law in the Philippines was lifted in January 1981.", [MARTIAL])
    recorded = ["The album was recorded in March 1981 and released in 1981."]  # the year alone too: left open
    assert not facts.answer_contradicted("When was the album released?", "In June 1981.", recorded)


def test_a_season_outside_the_gold_date() -> None:
    assert grade("In the autumn of 1981.", "17 January 1981", LIFTED) is Label.INCORRECT
    assert grade("In the winter of 1981.", "17 January 1981", LIFTED) is Label.NOT_ATTEMPTED


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Not on any one person, though Frank Mundus is often cited.", Label.INCORRECT),
        ("No one in particular; Frank Mundus is often cited.", Label.INCORRECT),
        ("Frank Mundus, though some say no one in particular.", Label.CORRECT),
    ],
)
def test_the_premise_denied(answer: str, label: Label) -> None:
    assert grade(answer, "Frank Mundus", "Who was the character Quint in Jaws based on?") is label


def test_a_doubt_is_no_premise_denied() -> None:
    doubt = "Nobody knows for sure; Frank Mundus is often cited."  # a refusal and an aside, not a denial
    assert grade(doubt, "Frank Mundus", "Who was the character Quint in Jaws based on?") is not Label.INCORRECT


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("Rob Knepper.", "Robert Knepper", Label.CORRECT),
        ("Robert Knepper.", "Rob Knepper", Label.CORRECT),
        ("Bill Clinton.", "William Clinton", Label.CORRECT),
        ("Dan Brown.", "Don Brown", Label.INCORRECT),  # a name of its own, one vowel away
        ("Jim Carrey.", "John Carrey", Label.INCORRECT),
    ],
)
def test_a_short_given_name(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, "Who played him?") is label


def test_a_short_given_name_in_the_fact_checks() -> None:
    heroes = ["Robert Knepper played Samuel Sullivan in the NBC series Heroes."]
    assert facts.supported("Rob Knepper played Samuel Sullivan in Heroes.", heroes)
    assert not facts.supported("Dan Knepper played Samuel Sullivan in Heroes.", heroes)
    asked = "Who played Samuel Sullivan in Heroes?"
    assert not facts.answer_contradicted(asked, "Rob Knepper.", heroes)
    assert facts.answer_contradicted(asked, "Dan Knepper.", heroes)


def test_family_members_for_a_family_group() -> None:
    asked = "Who wrote If I Could Only Win Your Love?"
    assert grade("Ira and Charlie Louvin.", "The Louvin Brothers", asked) is Label.CORRECT
    assert grade("Ira Louvin and Charlie Louvin.", "The Louvin Brothers", asked) is Label.CORRECT
    assert grade("Ira and Charlie Everly.", "The Louvin Brothers", asked) is Label.INCORRECT


def test_an_initialism_the_evidence_writes() -> None:
    fbi = ["FBI is an American crime drama television show on the CBS channel, created by Dick Wolf."]
    asked = "What channel is the new show FBI on?"
    assert not facts.answer_contradicted(asked, "The Columbia Broadcasting System.", fbi)
    assert facts.answer_contradicted(asked, "The National Broadcasting Company.", fbi)


def test_one_ruled_out_after_a_refusal_commits_to_nothing() -> None:
    asked = "Who wrote the theme to Sanford and Son?"
    answer = "I don't know, though it wasn't Henry Mancini."
    assert not commits(answer, asked)
    assert grade(answer, "Quincy Jones", asked) is Label.NOT_ATTEMPTED
    assert grade(answer, "Henry Mancini", asked) is Label.INCORRECT
    assert commits("I don't know. Maybe Henry Mancini.", asked)
