"""Hostile pass 29 (issue #74): 40 realistic cases written before they were run (5 whole completions under four
presets, 3 jobs): no data loss, no stale result, no crash. Closed here, each beside its control: right answers paid
wrong ("Kilimanjaro, in Tanzania (5,895 m)." for "Mount Kilimanjaro", "366 days, one more than the usual 365.", an
explanation giving two days of a month beside the year asked, the question's own number said again: "published in
1949, although the story is set in 1984."), and Binary RAR paying a wrong city whose year agreed with the evidence.

Left (in the issue's note): "1984" in a question against "Nineteen Eighty-Four" in the evidence (a title in words);
a claim "Nineteen Eighty-Four was published in 1984." read with the title as its year (a wrong answer's fact score,
below an abstention's pay).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

AFRICA = "What is the highest mountain in Africa?"
EARTH = "What is the highest mountain on Earth?"
FRANCE = "What is the capital of France?"
LEAP = "How many days are there in a leap year?"
TITANIC = "In what year did the Titanic sink?"
ORWELL = "In what year was the novel 1984 published?"


@pytest.mark.parametrize(
    ("answer", "question", "gold", "label"),
    [
        ("Kilimanjaro, in Tanzania (5,895 m).", AFRICA, "Mount Kilimanjaro", Label.CORRECT),
        ("Mount Kenya, in Kenya (5,199 m).", AFRICA, "Mount Kilimanjaro", Label.INCORRECT),
        ("Everest, K2, Kangchenjunga", EARTH, "Mount Everest", Label.INCORRECT),  # still a list of guesses
        ("Paris, Lyon, 2 million", FRANCE, "Paris", Label.INCORRECT),
        ("366 days, one more than the usual 365.", LEAP, "366", Label.CORRECT),
        ("365 days, one less than the usual 366.", LEAP, "366", Label.INCORRECT),
        (
            "Answer: 1912\nExplanation: The Titanic struck an iceberg on April 14 and sank early on April 15.",
            TITANIC,
            "1912",
            Label.CORRECT,
        ),
        ("1911. It sank on April 15.", TITANIC, "1912", Label.INCORRECT),
        ("It was published in 1949, although the story is set in 1984.", ORWELL, "1949", Label.CORRECT),
        ("It was published in 1984.", ORWELL, "1949", Label.INCORRECT),
    ],
)
def test_pass29_grades(answer: str, question: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


def test_binary_rar_keeps_a_wrong_name_whose_year_agrees() -> None:
    mozart = ["Wolfgang Amadeus Mozart was born in Salzburg in 1756."]
    question = "In which city was Mozart born?"
    wrong = "Vienna\nExplanation: Mozart was born in Vienna in 1756 and wrote The Magic Flute there."
    assert facts.answer_contradicted(question, wrong, mozart)
    assert not facts.answer_contradicted(question, "Salzburg, in 1756.", mozart)
