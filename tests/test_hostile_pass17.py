"""Hostile pass 17 (issue #74): 53 new cases written before they were run; 18 on jobs and stale results found no
data loss and no stale result, and one silent exit 0; 12 found reward holes, closed here.

Wrong paid as right: a denied value ("Not 1889.", "It was not completed in 1889") was CORRECT for 1889 and paid in
full by every preset; Binary RAR paid 1 for "From 1643 until 1751." where the evidence ends the reign in 1715 (a
period read as a range that holds 1715); "86 million" in words never contradicted "68 million". Right paid as
wrong: "in MDCCCLXXXIX", "15:30" for 3:30 pm, "USA" for United States, "Organisation" for Organization,
"20.07.1969", "Marseille... correction: Paris", "1889, not 1887", "Not 1887 but 1889"; claims with "Mt.",
"km²" or "sixty-eight million" unsupported. Jobs: ``--input a --input b`` scored b alone, exit 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

ROOT = Path(__file__).resolve().parents[1]
EIFFEL = "In which year was the Eiffel Tower completed?"


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Not 1889.", Label.INCORRECT),  # the hole: CORRECT, +3 under knowrl
        ("It was not 1889.", Label.INCORRECT),
        ("It was not completed in 1889.", Label.INCORRECT),
        ("Definitely not 1889", Label.INCORRECT),
        ("It wasn't finished until 1889.", Label.CORRECT),  # "until": a time, no denial
        ("I'm not sure, but 1889", Label.CORRECT),  # a hedge
        ("I can't be sure but 1889", Label.CORRECT),
        ("Not 1887 but 1889", Label.CORRECT),  # a value set aside for the gold
        ("It was not in 1887, but in 1889.", Label.CORRECT),
        ("Not 1889 but 1887", Label.INCORRECT),
        ("1889, not 1887", Label.CORRECT),
        ("1887, not 1889", Label.INCORRECT),
        ("not before 1889", Label.INCORRECT),  # a strict bound leaves the gold out
        ("in MDCCCLXXXIX", Label.CORRECT),
        ("It was finished in MDCCCLXXXVIII.", Label.INCORRECT),
    ],
)
def test_a_denied_value_and_a_value_set_aside(answer: str, label: Label) -> None:
    assert grade(answer, "1889", EIFFEL) is label


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("15:30", "3:30 pm", "At what time does the shop open?", Label.CORRECT),
        ("03:30 PM", "3:30 pm", "At what time does the shop open?", Label.CORRECT),
        ("3:30", "3:30 pm", "At what time does the shop open?", Label.CORRECT),  # the gold's afternoon assumed
        ("half past three in the afternoon", "3:30 pm", "At what time does the shop open?", Label.CORRECT),
        ("3:30 am", "3:30 pm", "At what time does the shop open?", Label.INCORRECT),
        ("3:45 pm", "3:30 pm", "At what time does the shop open?", Label.INCORRECT),
        ("USA", "United States", "Which country bought Alaska?", Label.CORRECT),
        ("America", "United States", "Which country bought Alaska?", Label.CORRECT),
        ("Texas", "United States", "Which country bought Alaska?", Label.INCORRECT),  # a state, not the country
        ("UK", "United States", "Which country bought Alaska?", Label.INCORRECT),
        ("the World Health Organisation", "World Health Organization", "Which agency?", Label.CORRECT),
        ("World Trade Organisation", "World Health Organization", "Which agency?", Label.INCORRECT),
        ("20.07.1969", "1969-07-20", "When did Apollo 11 land on the Moon?", Label.CORRECT),
        ("20-07-1969", "1969-07-20", "When did Apollo 11 land on the Moon?", Label.CORRECT),
        ("21.07.1969", "1969-07-20", "When did Apollo 11 land on the Moon?", Label.INCORRECT),
        ("Marseille... correction: Paris", "Paris", "What is the capital of France?", Label.CORRECT),
    ],
)
def test_times_countries_spellings_and_dates_in_other_forms(
    answer: str, gold: str, question: str, label: Label
) -> None:
    assert grade(answer, gold, question) is label


LOUIS = ["Louis XIV, known as the Sun King, was King of France from 1643 until his death in 1715."]
FRANCE = ["France has a population of about 68 million people. Its area is 643,801 square kilometres."]
EVEREST = ["Mount Everest is the highest mountain above sea level. Its summit is 8,849 metres high."]


@pytest.mark.parametrize(
    ("claim", "passages", "supported", "contradicted"),
    [
        ("Louis XIV was King of France from 1643 until 1751.", LOUIS, False, True),  # the hole
        ("Louis XIV was King of France from 1634 until 1715.", LOUIS, False, True),
        ("Louis XIV was King of France from 1643 until 1715.", LOUIS, True, False),
        ("France has a population of about sixty-eight million people.", FRANCE, True, False),
        ("France has a population of about eighty-six million people.", FRANCE, False, True),
        ("France has an area of 643,801 km\u00b2.", FRANCE, True, False),
        ("France has an area of 643,801 sq km.", FRANCE, True, False),
        ("France has an area of 643,801 square miles.", FRANCE, False, True),
        ("Mt. Everest's summit is 8,849 metres high.", EVEREST, True, False),
        ("Mt. Everest's summit is 8,489 metres high.", EVEREST, False, True),
    ],
)
def test_periods_spoken_numbers_and_abbreviations_in_claims(
    claim: str, passages: list[str], supported: bool, contradicted: bool
) -> None:
    assert facts.supported(claim, passages) is supported
    assert facts.contradicted(claim, passages) is contradicted


@pytest.mark.parametrize(
    ("response", "contradicted"),
    [
        ("From 1643 until 1751.", True),
        ("From 1643 to 1700", True),
        ("From 1643 until 1715.", False),
        ("1643-1715", False),
    ],
)
def test_binary_rar_reads_a_period_by_its_two_ends(response: str, contradicted: bool) -> None:
    question = "When did Louis XIV reign as King of France?"
    assert facts.answer_contradicted(question, response, LOUIS) is contradicted
