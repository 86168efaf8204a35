"""The fifth hostile pass's reward holes (issue #74), each reproduced on the old code and closed here.

* The offline grader called a wrong answer CORRECT when it held the gold as the owner of something else
  ("Jupiter's moon Europa"), as part of another person's name ("Just van Rossum", "Franz Xaver Wolfgang Mozart"),
  beside a second answer offered as equally good ("Paris and Lyon are both possible"), or as a year without its
  era ("44" for 44 BC is AD 44).
* Binary RAR's offline answer check paid 1.0 when any word of a name was in the evidence: "Lyon Paris" (also with
  odd spaces), "Leopold Mozart", "Pierre Curie", "van", "Guido van", and for hedged or restated answers ("Paris
  if not Lyon", "Possibly Paris, possibly Lyon.", "You ask whether it is Paris. It is Lyon.").
* knowrl-robust counted a think block that only restates the question ("France has a capital.") as supported
  claims. ``knowrl`` keeps FActScore's claims as released (its judge supports an echo too).
"""

from __future__ import annotations

import pytest

from reward_engine.engine import RewardEngine, Sample
from reward_engine.labels import Label
from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from reward_engine.semantics import payoffs, semantics
from reward_engine.stages.claims import select_claims
from tests.test_reward_holes_round3 import FRANCE, answered, config_for

JUPITER = ("Which planet is the largest in the Solar System?", "Jupiter", "Jupiter")
PYTHON = ("Who first released Python?", "Guido van Rossum", "Python (programming language)")
FLUTE = ("Which composer wrote The Magic Flute?", "Wolfgang Amadeus Mozart", "Mozart")
CURIE = ("Who won the Nobel Prize in Chemistry in 1911?", "Marie Curie", "Marie Curie")
CAESAR = ("When was Julius Caesar assassinated?", "44 BC", None)
# the smoke KB's passages (configs/data/smoke_kb.jsonl)
PASSAGES = {
    FRANCE[0]: "Paris is the capital and largest city of France. The city lies on the river Seine.",
    PYTHON[0]: "Python is a general-purpose programming language. Guido van Rossum first released it in 1991.",
    FLUTE[0]: "Wolfgang Amadeus Mozart was a composer of the Classical period born in Salzburg in 1756. He wrote "
    "more than 600 works, including The Magic Flute.",
    CURIE[0]: "Marie Curie was a physicist and chemist who studied radioactivity. She won the Nobel Prize in Physics "
    "in 1903 and the Nobel Prize in Chemistry in 1911.",
    JUPITER[0]: "Jupiter is the fifth planet from the Sun and the largest in the Solar System.",
}


@pytest.mark.parametrize(
    "answer, case, label",
    [
        ("Jupiter's moon Europa", JUPITER, Label.INCORRECT),  # the gold owns the answer
        ("Jupiter's neighbour Saturn", JUPITER, Label.INCORRECT),
        ("Jupiter's largest moon", JUPITER, Label.INCORRECT),
        ("Jupiter's", JUPITER, Label.CORRECT),
        ("Jupiter's mass makes it the largest", JUPITER, Label.CORRECT),  # no other thing named
        ("Just van Rossum", PYTHON, Label.INCORRECT),  # another person of the family
        ("Just Guido van Rossum", PYTHON, Label.CORRECT),  # "just" before a given name is a filler
        ("van Rossum", PYTHON, Label.CORRECT),
        ("Franz Xaver Wolfgang Mozart", FLUTE, Label.INCORRECT),
        ("Leopold Mozart", FLUTE, Label.INCORRECT),
        ("Wolfgang Mozart", FLUTE, Label.CORRECT),
        ("W. A. Mozart", FLUTE, Label.CORRECT),  # was INCORRECT: initials of the gold's names
        ("The composer Mozart", FLUTE, Label.CORRECT),
        ("Mozart's", FLUTE, Label.CORRECT),
        ("Paris and Lyon are both possible", FRANCE, Label.INCORRECT),
        ("Both are possible: Paris and Lyon", FRANCE, Label.INCORRECT),
        ("Paris and its suburbs", FRANCE, Label.CORRECT),
        ("44", CAESAR, Label.INCORRECT),  # AD 44
        ("In 44", CAESAR, Label.INCORRECT),
        ("44 BC", CAESAR, Label.CORRECT),
        ("44 BCE", CAESAR, Label.CORRECT),
        ("In 44 B.C.", CAESAR, Label.CORRECT),
    ],
)
def test_the_grader_reads_owners_other_family_members_hedged_pairs_and_eras(answer, case, label) -> None:
    question, gold, _ = case
    assert grade(answer, gold, question) is label


def test_a_year_bc_without_its_era_is_right_when_the_question_asks_for_one() -> None:
    assert grade("44", "44 BC", "In which year BC was Julius Caesar assassinated?") is Label.CORRECT


@pytest.mark.parametrize(
    "answer, case, contradicted",
    [
        ("Lyon Paris", FRANCE, True),
        ("Lyon\u00a0Paris", FRANCE, True),  # no-break space
        ("Lyon\u3000Paris", FRANCE, True),  # ideographic space
        ("\uff2c\uff59\uff4f\uff4e\u3000\uff30\uff41\uff52\uff49\uff53", FRANCE, True),  # full width
        ("Lyon<br>Paris", FRANCE, True),
        ("Paris if not Lyon", FRANCE, True),
        ("Possibly Paris, possibly Lyon.", FRANCE, True),
        ("You ask whether it is Paris. It is Lyon.", FRANCE, True),
        ("Paris and Lyon are both possible", FRANCE, True),
        ("Paris, France", FRANCE, False),
        ("Possibly Paris.", FRANCE, False),
        ("It is Paris.", FRANCE, False),
        ("Paris, on the Seine", FRANCE, False),
        ("Pierre Curie", CURIE, True),
        ("Marie Curie", CURIE, False),
        ("Curie", CURIE, False),
        ("Leopold Mozart", FLUTE, True),
        ("Franz Xaver Wolfgang Mozart", FLUTE, True),
        ("Wolfgang", FLUTE, True),  # a given name alone names no one
        ("Amadeus", FLUTE, True),
        ("Mozart", FLUTE, False),
        ("Wolfgang Mozart", FLUTE, False),
        ("Wolfgang Amadeus Mozart", FLUTE, False),
        ("van", PYTHON, True),
        ("Guido van", PYTHON, True),
        ("Just van Rossum", PYTHON, True),
        ("van Rossum's brother Just van Rossum", PYTHON, True),
        ("van Rossum", PYTHON, False),
        ("Guido van Rossum", PYTHON, False),
        ("Jupiter's moon Europa", JUPITER, True),
        ("Jupiter's neighbour Saturn", JUPITER, True),
        ("Jupiter", JUPITER, False),
    ],
)
def test_binary_rar_names_a_whole_name_the_evidence_holds(answer: str, case, contradicted: bool) -> None:
    question = case[0]
    assert facts.answer_contradicted(question, answer, [PASSAGES[question]]) is contradicted


GRADED_ROWS = [
    ((JUPITER, answered("Jupiter's moon Europa")), "wrong"),
    ((PYTHON, answered("Just van Rossum")), "wrong"),
    ((FLUTE, answered("Franz Xaver Wolfgang Mozart")), "wrong"),
    ((FRANCE, answered("Paris and Lyon are both possible")), "wrong"),
    ((CAESAR, answered("44")), "wrong"),
    ((CAESAR, answered("44 BC")), "right"),
    ((PYTHON, answered("Guido van Rossum")), "right"),
]


@pytest.mark.parametrize("preset", ["knowrl", "knowrl-robust", "truthrl", "binary-rar"])
async def test_the_fifth_pass_pays_each_wrong_answer_as_wrong_through_the_engine(kb, preset: str) -> None:
    config = config_for(preset, factuality={"retrieval_mode": "bm25"})
    # Binary RAR reads the KB alone, and the smoke KB holds nothing on Caesar: no evidence contradicts "44"
    cases = [(row, kind) for row, kind in GRADED_ROWS if preset != "binary-rar" or row[0] is not CAESAR]
    rows = [Sample(q, completion, gold, title or "") for ((q, gold, title), completion), _ in cases]
    async with RewardEngine(config, kb=kb) as engine:
        results = await engine.score(rows)
    assert {r.status for r in results} == {"ok"}
    want = [payoffs(config.reward_semantics)[kind] for _, kind in cases]
    assert [r.total for r in results] == pytest.approx(want)


ECHOES = "France has a capital. The capital of France is a city. The question asks for the capital of France."


def test_knowrl_robust_leaves_out_claims_that_only_restate_the_question() -> None:
    claims = [*facts.decompose(ECHOES), "Paris is the capital of France."]
    kept, left_out = select_claims(claims, FRANCE[0], "", semantics("knowrl-robust"))
    assert kept == ["Paris is the capital of France."]
    assert len(left_out) == 3
    kept, _ = select_claims(claims, FRANCE[0], "", semantics("knowrl"))
    assert len(kept) == 4  # FActScore's claims, as KnowRL released them


async def test_an_echoing_think_block_earns_a_wrong_answer_nothing_under_knowrl_robust(kb) -> None:
    config = config_for("knowrl-robust", factuality={"retrieval_mode": "bm25"})
    question, gold, title = FRANCE
    rows = [Sample(question, answered("Lyon", ECHOES), gold, title), Sample(question, answered("Lyon"), gold, title)]
    async with RewardEngine(config, kb=kb) as engine:
        echoed, bare = await engine.score(rows)
    assert echoed.fact_score == 0.0 and echoed.total == bare.total
    assert all(c.supported is None and c.on_topic is False for c in echoed.claims)
