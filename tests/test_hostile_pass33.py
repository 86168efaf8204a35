"""Hostile pass 33 (issue #74): 40 cases written before they were run, on 80 of KnowRL's released RL questions and
golds (3 whole completions under four presets in the cold-start shape, 3 jobs: several gold aliases and duplicated
rows, a rerun after a config change, a KB built from a pretty-printed JSON array), run after pass 32's mends: no data
loss, no stale result, no crash; 11 findings. Closed here, each beside a control: a wrong claim's fact score ("Angela
Bassett played Whitney Houston" supported by a passage where she directed), and right answers or refusals paid
wrong: "(confidence: 9/10)", a cold-start answer's prose read as a run of names, a hedged "I believe Snowbell is
voiced by Nathan Lane" read as an aside, a refusal naming the question's person by a fuller name, "None" for 0,
"Super Bowl XXXIV" read as a count, a span of years in brackets beside a count.

Left (in the issue's note): another version's count in an explanation ("the British original had two series"), a
speed with its conversion ("29.78 km/s (roughly 107,000 km/h)"), shares of a population beside a plural question's
first answer, a team's nickname with its city later in the sentence ("The Pilots -- they played in Seattle"), a
clarifying question read as an answer (debatable).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label
from tests.helpers import grade_table

RIO = "Who does the voice of Blue in Rio?"
HAMLET = "Who does Hamlet kill first in the play?"
STUART = "Who does the voice of the cat in Stuart Little?"
KORRA = "Who is Lin's father in Legend of Korra?"
TITANS = "How many times have the Tennessee Titans won the Super Bowl?"
QAF = "How many seasons are there in Queer as Folk?"

test_pass33_grades = grade_table(
    [
        ("Jesse Eisenberg (confidence: 9/10)", RIO, "Jesse Eisenberg", Label.CORRECT),
        ("Rodrigo Santoro (confidence: 9/10)", RIO, "Jesse Eisenberg", Label.INCORRECT),
        (
            "Hamlet first kills **Polonius**, stabbing him through the arras in the belief that he is Claudius.",
            HAMLET,
            "Polonius",
            Label.CORRECT,
        ),
        ("Lyon Marseille Nice Toulouse Paris", "What is the capital of France?", "Paris", Label.INCORRECT),
        ("I'm not 100% sure, but I believe Snowbell is voiced by Nathan Lane.", STUART, "Nathan Lane", Label.CORRECT),
        ("I'm not 100% sure, but I believe Snowbell is voiced by Hugh Laurie.", STUART, "Nathan Lane", Label.INCORRECT),
        (
            "I'd only be guessing \u2014 I don't remember Lin Beifong's father ever being named.",
            KORRA,
            "Kanto",
            Label.NOT_ATTEMPTED,
        ),
        ("I don't know. Lin Beifong's father is Tenzin.", KORRA, "Kanto", Label.INCORRECT),
        ("None \u2014 they reached Super Bowl XXXIV but lost to the St. Louis Rams.", TITANS, "0", Label.CORRECT),
        ("Once, in Super Bowl XXXIV.", TITANS, "0", Label.INCORRECT),
        ("5 seasons (2000\u20132005)", QAF, "5", Label.CORRECT),
        ("6 seasons (2000\u20132005)", QAF, "5", Label.INCORRECT),
    ]
)


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Angela Bassett played Whitney Houston in the Lifetime film.", False),  # she directed it
        ("Yaya DaCosta played Whitney Houston in the Lifetime film.", True),
        ("Angela Bassett directed the Lifetime film Whitney.", True),
    ],
)
def test_an_act_given_to_another_name_of_the_passage_is_not_supported(claim: str, supported: bool) -> None:
    passage = "Yaya DaCosta played Whitney Houston in the 2015 Lifetime film Whitney, directed by Angela Bassett."
    assert facts.supported(claim, [passage]) is supported
