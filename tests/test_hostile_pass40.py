"""Hostile pass 40 (issue #74): 40 cases written before they were run, on 90 of KnowRL's released RL questions and
golds (seed 40040), run against 2fb4a78: no data loss and no stale result (three jobs: `retrieval.build --from-db`
onto the same file by another name, `score --input /dev/stdin` fed from its own `--output`, an output edited by hand
between runs); 4 findings.

Closed here (each assertion failed on 2fb4a78):
- a wrong answer paid right: "Alec Gilroy? No -- she married Jack Duckworth." for the gold Alec Gilroy: the gold
  asked and denied, then a statement, read as the gold beside a remark;
- Binary RAR paid a right count 0: "Three rounds." against "There are 3 rounds in the WNBA Draft." (a capitalised
  number word, and a lone one before the counted noun, were no number).

Closed in a later session: "He voices the Mighty Eagle, the legendary protector of Bird Island." was INCORRECT for
the gold Mighty Eagle (the description after the gold counted as words of a shotgun list).

Left (in the issue's note): `supported` holds "Han Solo is the co-pilot of the Millennium Falcon." against "Chewbacca
is the co-pilot of the Millennium Falcon, flying with Han Solo." (word overlap does not read who holds a role; a rule
for one holder of "the R of B" was tried and taken back: review 42 found 26 true claims it refused, names said
another way and roles several hold).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

BET = "Who did Bet Lynch marry in Coronation Street?"


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Alec Gilroy? No \u2014 she married Jack Duckworth.", Label.INCORRECT),
        ("Alec Gilroy? No, she married Jack Duckworth.", Label.INCORRECT),
        ("Alec Gilroy? No.", Label.NOT_ATTEMPTED),
        ("Jack Duckworth? No, Alec Gilroy.", Label.CORRECT),
        ("Alec Gilroy? No doubt about it.", Label.CORRECT),
    ],
)
def test_a_gold_asked_and_denied_is_no_answer(answer: str, label: Label) -> None:
    assert grade(answer, "Alec Gilroy", BET) is label


def test_binary_rar_reads_a_count_in_words() -> None:
    question = "How many rounds are in the WNBA Draft?"
    kb = ["There are 3 rounds in the WNBA Draft."]
    for right in ("Three rounds.", "Three.", "There are three rounds."):
        assert not facts.answer_contradicted(question, right, kb), right
    for wrong in ("Four rounds.", "Two or three rounds."):
        assert facts.answer_contradicted(question, wrong, kb), wrong


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Paris? No other city comes close.", Label.CORRECT),
        ("Paris? Not really sure.", Label.CORRECT),
        ("Paris? Not so fast: the capital is Lyon.", Label.INCORRECT),
    ],
)
def test_a_no_that_is_no_denial_keeps_the_guess(answer: str, label: Label) -> None:
    """Review 41: "No other city", "No way it's anything else" and "Not really sure" were read as denials."""
    assert grade(answer, "Paris", "What is the capital of France?") is label


def test_counts_in_words_only_as_a_whole_answer_against_digits() -> None:
    """Review 41: each count word turned to digits broke "Two hundred and six" and "One Direction"; evidence that says
    the count in words left the response's digits nothing to meet."""
    moons = "How many moons does Mars have?"
    assert facts.answer_contradicted(moons, "Three moons.", ["Mars has two small moons, Phobos and Deimos."])
    bones = "How many bones are in the adult human body?"
    assert not facts.answer_contradicted(bones, "Two hundred and six bones.", ["The adult human body has 206 bones."])


def test_what_review_41_found() -> None:
    """Review 41 (216 cases written first) of the mends above and of pass 39's reviews' mends."""
    amber = "Who does the voice of Amber in Sofia the First?"
    aside = "I might be wrong, but I don't know who voices Amber; Ariel Winter voices Sofia."
    assert grade(aside, "Darcy Rose Byrnes", amber) is Label.NOT_ATTEMPTED  # a hedge of the refusal is no guess
    lancelot = "Who plays Sir Lancelot in Night at the Museum?"
    hedged = "I'm not sure, but I think Dan Stevens plays him in Night at the Museum: Secret of the Tomb."
    assert grade(hedged, "Dan Stevens", lancelot) is Label.CORRECT
    assert grade("The 20th century.", "1939\u20131945", "When did World War II take place?") is Label.NOT_ATTEMPTED
    albums = "How many studio albums did One Direction release?"
    assert not facts.answer_contradicted(albums, "Five studio albums.", ["One Direction released 5 studio albums."])
    sofia = ["Ariel Winter is the voice of Sofia. Darcy Rose Byrnes voices Amber, Sofia's sister."]
    assert not facts.answer_contradicted("Who voices Sofia in Sofia the First?", "Ariel Winter.", sofia)


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("He voices the Mighty Eagle, the legendary protector of Bird Island.", Label.CORRECT),
        ("He voiced the Mighty Eagle, the legendary protector of Bird Island.", Label.CORRECT),
        ("He plays the Mighty Eagle, the legendary protector of Bird Island.", Label.CORRECT),
        ("Red Chuck Bomb Mighty Eagle, the legendary protector of Bird Island.", Label.INCORRECT),
        ("He plays the Mighty Eagle, the leader, and Red.", Label.INCORRECT),
    ],
)
def test_a_description_after_the_gold_is_no_list(answer: str, label: Label) -> None:
    assert grade(answer, "Mighty Eagle", "Who does Peter Dinklage play in Angry Birds?") is label


def test_a_list_before_the_description_is_still_a_list() -> None:
    answer = "Lyon Marseille Nice Paris, the capital city of France and its largest."
    assert grade(answer, "Paris", "What is the capital of France?") is Label.INCORRECT
