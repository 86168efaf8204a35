"""Hostile pass 40 (issue #74): 40 cases written before they were run, on 90 of KnowRL's released RL questions and
golds (seed 40040), run against 2fb4a78: no data loss and no stale result (three jobs: `retrieval.build --from-db`
onto the same file by another name, `score --input /dev/stdin` fed from its own `--output`, an output edited by hand
between runs); 4 findings.

Closed here (each assertion failed on 2fb4a78):
- a wrong answer paid right: "Alec Gilroy? No -- she married Jack Duckworth." for the gold Alec Gilroy: the gold
  asked and denied, then a statement, read as the gold beside a remark;
- Binary RAR paid a right count 0: "Three rounds." against "There are 3 rounds in the WNBA Draft." (a capitalised
  number word, and a lone one before the counted noun, were no number).

Left (in the issue's note): "He voices the Mighty Eagle, the legendary protector of Bird Island." is INCORRECT for
the gold Mighty Eagle (a present-tense "voices" is no verb of a statement, so the sentence reads as a run of bare
names; making it one paid "Tom Hanks voiced Buzz Lightyear." for Woody); `supported` holds "Han Solo is the co-pilot
of the Millennium Falcon." against "Chewbacca is the co-pilot of the Millennium Falcon, flying with Han Solo." (word
overlap does not read who did what).
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
