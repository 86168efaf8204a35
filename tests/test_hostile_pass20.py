"""Hostile pass 20 (issue #74): 66 new cases written before they were run; 9 on jobs found no data loss and no
stale result; 6 grading holes, closed here beside their controls.

Wrong paid as right: "1889 is wrong." (a number put down after it is given: only names were read so), "12
midnight" and "12 at night" for 12:00 pm, "Paris (not really)", claims of one event supported by a passage of
another with the same name, place and year ("Mozart died in Salzburg in 1756" against "born in Salzburg in 1756").
Right paid as wrong: "Jupiter is not smaller than Saturn." and "No, Saturn is not larger than Jupiter." to "Which
is larger?" (the "not" read as denying the gold). An abstention paid as a wrong answer: "Who knows?".

Left (debatable, in the issue's note): under truthrl a guess after "I don't know" pays 0 right or wrong (TruthRL's
own rule; the ``strict`` variant pays it -1).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

EIFFEL = "In which year was the Eiffel Tower completed?"
FRANCE = "What is the capital of France?"
SHOP = "At what time does the shop open?"
LARGER = "Which is larger, Jupiter or Saturn?"


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("1889 is wrong.", "1889", EIFFEL, Label.INCORRECT),
        ("1889 is a mistake.", "1889", EIFFEL, Label.INCORRECT),
        ("1889 is not right.", "1889", EIFFEL, Label.INCORRECT),
        ("1889 is right.", "1889", EIFFEL, Label.CORRECT),
        ("1889, not 1887.", "1889", EIFFEL, Label.CORRECT),
        ("12 midnight", "12:00 pm", SHOP, Label.INCORRECT),
        ("12 at night", "12:00 pm", SHOP, Label.INCORRECT),
        ("12 noon", "12:00 pm", SHOP, Label.CORRECT),
        ("3 at night", "3:00 pm", SHOP, Label.INCORRECT),
        ("3 in the afternoon", "3:00 pm", SHOP, Label.CORRECT),
        ("9 at night", "9:00 pm", SHOP, Label.CORRECT),
        ("Paris (not really)", "Paris", FRANCE, Label.INCORRECT),
        ("Paris, not really.", "Paris", FRANCE, Label.INCORRECT),
        ("Paris, not Lyon.", "Paris", FRANCE, Label.CORRECT),
        ("Paris, not really sure though", "Paris", FRANCE, Label.CORRECT),
        ("Jupiter is not smaller than Saturn.", "Jupiter", LARGER, Label.CORRECT),
        ("Jupiter isn't smaller than Saturn.", "Jupiter", LARGER, Label.CORRECT),
        ("No, Saturn is not larger than Jupiter.", "Jupiter", LARGER, Label.CORRECT),
        ("Jupiter isn't larger than Saturn.", "Jupiter", LARGER, Label.INCORRECT),
        ("Jupiter is not much larger than Saturn.", "Jupiter", LARGER, Label.CORRECT),
        ("Paris, not?", "Paris", FRANCE, Label.CORRECT),  # the review of pass 20: a tag question
        ("Paris (error-free)", "Paris", FRANCE, Label.CORRECT),
        ("1889 - mistake-proof.", "1889", EIFFEL, Label.CORRECT),
        ("People say Jupiter is a gas giant. Jupiter is not smaller than Saturn.", "Jupiter", LARGER, Label.CORRECT),
        ("Who knows? Not me.", "Paris", FRANCE, Label.NOT_ATTEMPTED),
        ("Who knows?", "Paris", FRANCE, Label.NOT_ATTEMPTED),
        ("Who knows, maybe Paris.", "Paris", FRANCE, Label.CORRECT),
        ("Who knows, maybe Lyon.", "Paris", FRANCE, Label.INCORRECT),
    ],
)
def test_pass20_answers(answer: str, gold: str, question: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


MOZART = ["Wolfgang Amadeus Mozart was a composer born in Salzburg in 1756. He wrote more than 600 works."]
PYTHON = ["Python is a programming language. Guido van Rossum first released Python in 1991."]


@pytest.mark.parametrize(
    ("claim", "passages", "supported"),
    [
        ("Mozart was born in Salzburg in 1756 and died there in 1756.", MOZART, False),
        ("Mozart died in Salzburg in 1756.", MOZART, False),
        ("Mozart was buried in Salzburg in 1756.", MOZART, False),
        ("Guido van Rossum died in 1991.", PYTHON, False),
        ("Mozart was born in Salzburg in 1756.", MOZART, True),
        ("Python was released in 1991.", PYTHON, True),
        ("Mozart was born in 1756.", MOZART, True),
        # the review of pass 20: roles are no events, a passage that tells of no event blocks nothing, a killing is
        # a death
        ("Steve Jobs, the co-founder of Apple, died in 2011.", ["Steve Jobs, who started Apple, died in 2011."], True),
        ("Mozart's wife Constanze died in Salzburg in 1842.", ["Constanze Mozart died in Salzburg in 1842."], True),
        ("Pulp Fiction was released in 1994.", ["Pulp Fiction came out in 1994 to wide acclaim."], True),
        (
            "The Dead Sea Scrolls were discovered in 1947.",
            ["The Dead Sea Scrolls were found near Qumran in 1947."],
            True,
        ),
        ("Lincoln died in Washington in 1865.", ["Lincoln was assassinated in Washington in 1865."], True),
    ],
)
def test_pass20_a_claim_of_another_event_is_not_supported(claim: str, passages: list[str], supported: bool) -> None:
    assert facts.supported(claim, passages) is supported
