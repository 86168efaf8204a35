"""The sixth hostile pass's reward holes (issue #74), each reproduced on the old code and closed here.

* The offline grader called a wrong answer CORRECT when it named someone by a relation to the gold ("The father
  of Mozart", "A moon of Jupiter", "Mozart's librettist"), another person with a double-barrelled name
  ("Joliot-Curie"), another place of the gold's name ("Paris, Texas"), a self-correction to another answer
  ("Paris, I mean Lyon"), options set side by side ("a. Paris b. Lyon", "Paris vs. Lyon", "Lyon → Paris"), the
  gold's number with its sign or direction turned ("-1889", "8,849 m below sea level"), or in another unit of
  another dimension ("8,849 m²", "8,849 m/s", "8,849 nautical miles").
* Binary RAR's offline answer check paid 1.0 for most of the same, and the offline verifier supported claims
  whose rank or qualifier the evidence contradicts ("Paris is the second largest city of France").
* Under-paid right answers: "Mme Curie", "Maria Skłodowska-Curie" (grader); "Mme Curie", "Curie, Marie",
  "eighteen eighty-nine", "8.849e3 m" (Binary RAR).
"""

from __future__ import annotations

import pytest

from reward_engine.engine import RewardEngine, Sample
from reward_engine.labels import Label
from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from reward_engine.semantics import payoffs
from tests.test_reward_holes_round3 import EVEREST, FRANCE, answered, config_for
from tests.test_reward_holes_round5 import CURIE, FLUTE, JUPITER, PASSAGES

EIFFEL = ("In which year was the Eiffel Tower completed?", "1889", "Paris")
EVEREST_TEXT = "Mount Everest is the highest mountain above sea level. Its summit is 8,849 metres high."
EVIDENCE = {
    **PASSAGES,
    EIFFEL[0]: "Paris is the capital and largest city of France. The Eiffel Tower was completed in 1889.",
    EVEREST[0]: EVEREST_TEXT,
}


@pytest.mark.parametrize(
    "answer, case",
    [
        ("The father of Mozart", FLUTE),  # a relation of the gold names someone else
        ("A pupil of Mozart", FLUTE),
        ("A rival of Mozart", FLUTE),
        ("The son of Mozart", FLUTE),
        ("Mozart's librettist", FLUTE),
        ("A moon of Jupiter", JUPITER),
        ("The largest moon of Jupiter", JUPITER),
        ("the moons of Jupiter", JUPITER),
        ("Joliot-Curie", CURIE),  # her daughter's family
        ("Irène Joliot-Curie", CURIE),
        ("Paris, Texas", FRANCE),  # another Paris
        ("Paris, Ontario", FRANCE),
        ("Paris (Kentucky)", FRANCE),
        ("Paris, Tennessee, USA", FRANCE),
        ("Paris, I mean Lyon", FRANCE),  # taken back for another
        ("Paris, or rather Lyon", FRANCE),
        ("a. Paris b. Lyon", FRANCE),  # options side by side
        ("Paris vs. Lyon", FRANCE),
        ("Paris versus Lyon", FRANCE),
        ("Lyon → Paris", FRANCE),
        ("Lyon -> Paris", FRANCE),
        ("-1889", EIFFEL),  # the sign turned
        ("−1889", EIFFEL),
        ("-8,849 m", EVEREST),
        ("minus 8,849 metres", EVEREST),
        ("8,849 m below sea level", EVEREST),
        ("8,849 m²", EVEREST),  # another dimension
        ("8,849 m³", EVEREST),
        ("8,849 m/s", EVEREST),
        ("8,849 nautical miles", EVEREST),
    ],
)
def test_the_grader_calls_relations_namesakes_corrections_options_signs_and_units_wrong(answer, case) -> None:
    question, gold, _ = case
    assert grade(answer, gold, question) is Label.INCORRECT


@pytest.mark.parametrize(
    "answer, case",
    [
        ("Mozart", FLUTE),
        ("Mozart's", FLUTE),
        ("The composer Mozart", FLUTE),
        ("Jupiter, the largest planet", JUPITER),
        ("Mme Curie", CURIE),  # was INCORRECT: an honorific, not a given name
        ("Madame Curie", CURIE),
        ("Maria Skłodowska-Curie", CURIE),  # was INCORRECT: her own double name, her own given name
        ("Marie Skłodowska Curie", CURIE),
        ("Paris, France", FRANCE),
        ("Paris (France)", FRANCE),
        ("Paris, Île-de-France", FRANCE),
        ("Lyon, I mean Paris", FRANCE),  # the correction is the answer
        ("Paris, the capital", FRANCE),
        ("1889", EIFFEL),
        ("1889-03-31", EIFFEL),
        ("8,849 m", EVEREST),
        ("8,849 metres above sea level", EVEREST),
        ("8.849 km", EVEREST),
        ("29,032 ft", EVEREST),
    ],
)
def test_the_grader_still_pays_the_right_answer_in_its_usual_forms(answer, case) -> None:
    question, gold, _ = case
    assert grade(answer, gold, question) is Label.CORRECT


def test_below_sea_level_is_right_where_the_question_asks_for_a_depth() -> None:
    question = "How deep is the Challenger Deep below sea level?"
    assert grade("10,935 m below sea level", "10,935 m", question) is Label.CORRECT
    assert grade("-10,935 m", "-10,935 m", question) is Label.CORRECT


@pytest.mark.parametrize(
    "answer, case, contradicted",
    [
        ("The father of Mozart", FLUTE, True),
        ("A rival of Mozart", FLUTE, True),
        ("Mozart's librettist", FLUTE, True),
        ("A moon of Jupiter", JUPITER, True),
        ("The largest moon of Jupiter", JUPITER, True),
        ("Paris, Texas", FRANCE, True),
        ("Paris, Ontario", FRANCE, True),
        ("Paris (Kentucky)", FRANCE, True),
        ("Paris, Tennessee, USA", FRANCE, True),
        ("Paris, I mean Lyon", FRANCE, True),
        ("-1889", EIFFEL, True),
        ("-8,849 m", EVEREST, True),
        ("\u22128,849 m", EVEREST, True),
        ("minus 8,849 metres", EVEREST, True),
        ("8,849 m below sea level", EVEREST, True),
        ("8,849 m²", EVEREST, True),
        ("8,849 m³", EVEREST, True),
        ("8,849 m/s", EVEREST, True),
        ("Mme Curie", CURIE, False),  # under-paid before
        ("Curie, Marie", CURIE, False),
        ("Marie Curie", CURIE, False),
        ("Mozart", FLUTE, False),
        ("Paris, France", FRANCE, False),
        ("1889", EIFFEL, False),
        ("eighteen eighty-nine", EIFFEL, False),
        ("8,849 m", EVEREST, False),
        ("8.849e3 m", EVEREST, False),
        ("29,032 ft", EVEREST, False),
    ],
)
def test_binary_rar_reads_the_same_holes(answer: str, case, contradicted: bool) -> None:
    question = case[0]
    assert facts.answer_contradicted(question, answer, [EVIDENCE[question]]) is contradicted


@pytest.mark.parametrize(
    "claim",
    [
        "Paris is the second largest city of France.",
        "Tokyo is the former capital of Japan.",
        "Mount Everest is the second highest mountain above sea level.",
        "Jupiter is the sixth planet from the Sun.",
        "Marie Curie won the Nobel Prize in Physics in 1911.",
    ],
)
def test_the_offline_verifier_does_not_support_a_turned_rank_or_qualifier(claim: str) -> None:
    passages = [
        "Paris is the capital and largest city of France.",
        "Tokyo is the capital of Japan.",
        "Mount Everest is the highest mountain above sea level.",
        "Jupiter is the fifth planet from the Sun and the largest in the Solar System.",
        "She won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911. Marie Curie was a "
        "physicist and chemist.",
    ]
    assert not facts.supported(claim, passages)


@pytest.mark.parametrize(
    "claim",
    [
        "Paris is the largest city of France.",
        "Tokyo is the capital of Japan.",
        "Mount Everest is the highest mountain above sea level.",
        "Jupiter is the fifth planet from the Sun.",
        "Marie Curie won the Nobel Prize in Chemistry in 1911.",
    ],
)
def test_the_offline_verifier_still_supports_what_the_evidence_states(claim: str) -> None:
    passages = [
        "Paris is the capital and largest city of France.",
        "Tokyo is the capital of Japan.",
        "Mount Everest is the highest mountain above sea level.",
        "Jupiter is the fifth planet from the Sun and the largest in the Solar System.",
        "Marie Curie won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.",
    ]
    assert facts.supported(claim, passages)


GRADED_ROWS = [
    ((FLUTE, answered("The father of Mozart")), "wrong"),
    ((FRANCE, answered("Paris, Texas")), "wrong"),
    ((FRANCE, answered("Paris, I mean Lyon")), "wrong"),
    ((EVEREST, answered("8,849 m²")), "wrong"),
    ((EVEREST, answered("-8,849 m")), "wrong"),
    ((CURIE, answered("Mme Curie")), "right"),
    ((FRANCE, answered("Paris, France")), "right"),
]


@pytest.mark.parametrize("preset", ["knowrl", "truthrl", "binary-rar"])
async def test_the_sixth_pass_pays_each_answer_as_it_is_through_the_engine(kb, preset: str) -> None:
    config = config_for(preset, factuality={"retrieval_mode": "bm25"})
    rows = [Sample(q, completion, gold, title or "") for ((q, gold, title), completion), _ in GRADED_ROWS]
    async with RewardEngine(config, kb=kb) as engine:
        results = await engine.score(rows)
    assert {r.status for r in results} == {"ok"}
    want = [payoffs(config.reward_semantics)[kind] for _, kind in GRADED_ROWS]
    assert [r.total for r in results] == pytest.approx(want)
