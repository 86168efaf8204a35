"""Hostile pass 55 (seed 55055, run at ba91e2c, issue #74): 30 cases written before they were run; 15 held. The
grader and fact-check cases closed here (each assertion failed on ba91e2c); the job cases are in
tests/test_hostile_pass55_jobs.py and tests/test_hostile_pass55_cli.py.

- wrong paid right: "In New Mexico." for Mexico (a longer place ending in the gold: ``grader._longer_place``); "She
  chooses Raoul over the Phantom." for the Phantom (``grader._PASSED_OVER``); "The fourth Saturday of September."
  for its fourth Sunday (``values.other_calendar_word``); ``supported`` of "died of typhoid" by "died of typhus"
  (``swaps.word_swapped``) and of "chooses Raoul over the Phantom" by the other way round (``swaps.order_turned``,
  which ``contradicted`` reads too);
- right paid wrong: "Hylda Baker and Arthur Mullard" to "Who sang it with Arthur Mullard?" (the question's own name
  is no second guess); "Lord Melbourne." and "William Lamb." for William Lamb, 2nd Viscount Melbourne
  (``titles``), and ``supported`` of "named after Lord Melbourne" by "named after ... 2nd Viscount Melbourne".

Also closed: pass 54's under-pays "Anonymously." for anonymous and an all-digit date in ``supported``, and two months
offered beside the gold's ordinal.

Left (in the issue's note): ``answer_contradicted`` of "Raoul." against "chooses the Phantom over Raoul" is False
(a bare wrong name the passage holds).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import grade

WED = "Where did Heidi Klum and Seal get married?"
LOVE = "Who does Christine choose in Love Never Dies?"
OYSTER = "When is the Oyster Run in Anacortes, Washington?"
SANG = "Who sang You're the One That I Want with Arthur Mullard?"
MELBOURNE = "Where does the name Melbourne come from?"
PEER = "William Lamb, 2nd Viscount Melbourne"


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        # G1: another place whose name ends in the gold's
        ("In New Mexico.", "Mexico", WED, "INCORRECT"),
        ("On a yacht off New Mexico.", "Mexico", WED, "INCORRECT"),
        ("In Papua New Guinea.", "Guinea", WED, "INCORRECT"),
        ("In the Gulf of Mexico.", "Mexico", WED, "INCORRECT"),
        ("In Mexico.", "Mexico", WED, "CORRECT"),
        ("In New Mexico.", "New Mexico", WED, "CORRECT"),
        # G6: the gold as the one passed over
        ("She chooses Raoul over the Phantom.", "the Phantom", LOVE, "INCORRECT"),
        ("Raoul over the Phantom.", "the Phantom", LOVE, "INCORRECT"),
        ("She prefers Raoul to the Phantom.", "the Phantom", LOVE, "INCORRECT"),
        ("She chooses the Phantom over Raoul.", "the Phantom", LOVE, "CORRECT"),
        ("The Phantom.", "the Phantom", "Who does Christine choose Raoul over?", "CORRECT"),
        ("It flew over the Atlantic.", "Atlantic", "Which ocean did the plane cross?", "CORRECT"),
        # G8: another weekday or month beside the gold's ordinal
        ("The fourth Saturday of September.", "Fourth Sunday of September", OYSTER, "INCORRECT"),
        ("The fourth Sunday of October.", "Fourth Sunday of September", OYSTER, "INCORRECT"),
        ("The fourth Sunday in September.", "Fourth Sunday of September", OYSTER, "CORRECT"),
        # G12: the question's own name beside the gold
        ("Hylda Baker and Arthur Mullard, in 1978.", "Hylda Baker", SANG, "CORRECT"),
        ("Arthur Mullard and Hylda Baker.", "Hylda Baker", SANG, "CORRECT"),
        ("Hylda Baker and Olivia Newton-John.", "Hylda Baker", SANG, "INCORRECT"),
        (
            "Mayweather and Guerrero",
            "Floyd Mayweather",
            "Who won the fight between Mayweather and Guerrero?",
            "INCORRECT",
        ),
        # G13: a peer by name or title; another holder of the title is another person
        ("Lord Melbourne, the British prime minister.", PEER, MELBOURNE, "CORRECT"),
        ("William Lamb.", PEER, MELBOURNE, "CORRECT"),
        ("It is named after William Lamb.", PEER, MELBOURNE, "CORRECT"),
        ("Viscount Melbourne.", PEER, MELBOURNE, "CORRECT"),
        ("The second Viscount Melbourne.", PEER, MELBOURNE, "CORRECT"),
        ("The 1st Viscount Melbourne.", PEER, MELBOURNE, "INCORRECT"),
        ("Lord Palmerston.", PEER, MELBOURNE, "INCORRECT"),
    ],
)
def test_pass55_wordings(answer: str, gold: str, question: str, label: str) -> None:
    assert grade(answer, gold, question).name == label


def test_one_thing_named_in_another_s_place_is_not_supported() -> None:
    """F1: one swapped word after a preposition passed word coverage; a verb put another way still does."""
    typhus = ["Anne Frank died of typhus at Bergen-Belsen in 1945."]
    for disease in ("typhoid", "cholera", "measles"):
        assert not facts.supported(f"Anne Frank died of {disease} at Bergen-Belsen in 1945.", typhus), disease
    assert facts.supported("Anne Frank died of typhus at Bergen-Belsen in 1945.", typhus)
    assert facts.supported("The Qing dynasty ended in 1912.", ["The Qing dynasty fell in 1912 when Puyi abdicated."])


def test_two_names_turned_round_a_relation_are_contradicted() -> None:
    """F4: the same words the other way round were supported and not contradicted."""
    phantom = ["In Love Never Dies, Christine chooses the Phantom over Raoul."]
    claim = "In Love Never Dies, Christine chooses Raoul over the Phantom."
    assert facts.contradicted(claim, phantom) and not facts.supported(claim, phantom)
    assert facts.supported("In Love Never Dies, Christine chooses the Phantom over Raoul.", phantom)
    assert not facts.supported("Christine prefers Raoul to the Phantom.", ["Christine prefers the Phantom to Raoul."])
    celtics = ["The Celtics beat the Lakers in 1985."]
    assert facts.contradicted("The Lakers beat the Celtics in 1985.", celtics)
    assert not facts.contradicted("The Celtics beat the Lakers in 1985.", celtics)


def test_a_peer_s_title_with_lord_is_the_same_peer() -> None:
    """F3: "Lord" was a name the passage lacked."""
    passage = ["Melbourne was named after William Lamb, 2nd Viscount Melbourne, the British prime minister."]
    assert facts.supported("Melbourne was named after Lord Melbourne, the British prime minister.", passage)
    assert not facts.supported("Melbourne was named after Lord Palmerston, the British prime minister.", passage)


def test_pass54_under_pays_left_then() -> None:
    """Pass 54's G12 and F4 (left by that pass): the gold's adverb, and an all-digit date that can be one date only;
    two months offered beside an ordinal (found while closing G8)."""
    question = "Who wrote the letter to the king in the Gunpowder Plot?"
    assert grade("Anonymously.", "anonymous", question).name == "CORRECT"
    assert grade("It was sent anonymously.", "anonymous", question).name == "CORRECT"
    assert grade("Guy Fawkes.", "anonymous", question).name == "INCORRECT"
    aired = ["Law & Order first aired on NBC on September 13, 1990."]
    assert facts.supported("Law & Order first aired on 13/09/1990.", aired)
    assert facts.supported("Law & Order first aired on 1990-09-13.", aired)
    assert facts.contradicted("Law & Order first aired on 14/09/1990.", aired)
    assert grade("The fourth Sunday of September or October.", "Fourth Sunday of September", OYSTER).name == "INCORRECT"
