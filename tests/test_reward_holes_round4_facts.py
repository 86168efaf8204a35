"""The fourth hostile pass's holes in the offline verifier (``reward_engine.offline.facts``), through the engine on
the real smoke KB (offline decomposer and verifier) and on the functions themselves.

* H9: a false claim one word or one unit off its evidence was "supported": "Paris is the capital and smallest city
  of France." (the KB: largest), "Mount Everest is the lowest mountain ..." (highest), "... the least populous
  ..." (most), "Its summit is 8,849 feet high." (metres). Content words need only 0.75 coverage, so an opposite
  passed, and a number matched without its unit: under knowrl such claims lifted a wrong answer's fact score.
* H2 (binary-rar): "Paris | Lyon" paid 1.0 to "What is the capital of France?": "|" did not separate a list.
* H6 (binary-rar): "No idea, Lyon." paid 1.0: the "No" of "No idea" negated the guess after it.
* H3b (binary-rar): "Paris? No, Lyon." paid 1.0: "No, Lyon" negated Lyon instead of taking Paris back.
"""

from __future__ import annotations

import pytest

from reward_engine.engine import RewardEngine, Sample
from reward_engine.offline import facts
from tests.test_reward_holes_round3 import EVEREST, FRANCE, answered, config_for

JAPAN = ("What is the capital of Japan?", "Tokyo", "Tokyo")
# the smoke KB's passages (configs/data/smoke_kb.jsonl)
PARIS = (
    "Paris is the capital and largest city of France. The city lies on the river Seine. The Eiffel Tower was "
    "completed in 1889 for the World's Fair."
)
EVEREST_KB = (
    "Mount Everest is the highest mountain above sea level. It stands in the Himalayas on the border between "
    "Nepal and China. Its summit is 8,849 metres high."
)
TOKYO = "Tokyo is the capital of Japan. The Greater Tokyo Area is the most populous metropolitan area in the world."


# -- H9: one word or one unit off the evidence is not supported -----------------------------------------------------


@pytest.mark.parametrize(
    "claim, passage",
    [
        ("Paris is the capital and smallest city of France.", PARIS),
        ("The smallest city of France is Paris.", PARIS),
        ("Mount Everest is the lowest mountain above sea level.", EVEREST_KB),
        ("The Greater Tokyo Area is the least populous metropolitan area in the world.", TOKYO),
        ("Paris lies south of Lyon.", "Paris lies north of Lyon."),
        (
            "The Eiffel Tower was completed after the World's Fair.",
            "The Eiffel Tower was completed before the World's Fair.",
        ),
        ("Its summit is 8,849 feet high.", EVEREST_KB),
        ("Its summit is 8,849 km high.", EVEREST_KB),
        ("The lake is 20 km long.", "The lake is 20 miles long."),
        ("The bell weighs 100 kg.", "The bell weighs 100 lb."),
    ],
)
def test_a_claim_one_opposite_or_one_unit_off_its_evidence_is_not_supported(claim: str, passage: str) -> None:
    assert not facts.supported(claim, [passage])


@pytest.mark.parametrize(
    "claim, passage",
    [
        ("Paris is the capital and largest city of France.", PARIS),
        ("The largest city of France is Paris.", PARIS),
        ("Mount Everest is the highest mountain above sea level.", EVEREST_KB),
        ("The Greater Tokyo Area is the most populous metropolitan area in the world.", TOKYO),
        ("Lyon lies south of Paris.", "Paris lies north of Lyon."),  # the same fact from the other end
        ("The Loire river is longer than the Seine river.", "The Seine river is shorter than the Loire river."),
        ("Its summit is 8,849 metres high.", EVEREST_KB),
        ("Its summit is 8,849 m high.", EVEREST_KB),
        ("Its summit is 8,849 high.", EVEREST_KB),  # a number without a unit: read as before
        ("The summit is 8,849 metres high.", "The summit is 8,849 m (29,032 ft) high."),
        ("The lake is 20 miles long.", "The lake is 20 miles long."),
    ],
)
def test_true_restatements_stay_supported(claim: str, passage: str) -> None:
    assert facts.supported(claim, [passage])


H9_ROWS = [
    # (question row, hostile completion, the same wrong answer without the claims)
    (
        FRANCE,
        answered("Lyon", "Paris is the capital and smallest city of France. The city lies on the river Thames."),
        answered("Lyon"),
    ),
    (
        EVEREST,
        answered("8,000 m", "Mount Everest is the lowest mountain above sea level. Its summit is 8,849 feet high."),
        answered("8,000 m"),
    ),
    (
        JAPAN,
        answered("Kyoto", "The Greater Tokyo Area is the least populous metropolitan area in the world."),
        answered("Kyoto"),
    ),
]


@pytest.mark.parametrize("preset", ["knowrl", "knowrl-robust"])
async def test_false_claims_one_word_off_earn_a_wrong_answer_nothing(kb, preset: str) -> None:
    rows = [Sample(q, c, g, t) for (q, g, t), c, _ in H9_ROWS] + [Sample(q, b, g, t) for (q, g, t), _, b in H9_ROWS]
    async with RewardEngine(config_for(preset), kb=kb) as engine:
        results = await engine.score(rows)
    hostile, honest = results[: len(H9_ROWS)], results[len(H9_ROWS) :]
    for (_, completion, _), got, base in zip(H9_ROWS, hostile, honest):
        assert not any(c.supported for c in got.claims), (preset, completion, got.claims)
        assert got.total == pytest.approx(base.total), (preset, completion)


# -- H2, H6, H3b: binary-rar's short-answer check --------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer, contradicted",
    [
        ("Paris | Lyon", True),  # H2: a list joined by "|"
        ("Paris|Lyon", True),
        ("Paris | Paris", False),
        ("No idea, Lyon.", True),  # H6: a refusal and then a guess is the guess
        ("No idea, Lyon?", True),
        ("No clue, Lyon.", True),
        ("No idea - Lyon", True),
        ("Not sure, Lyon.", True),
        ("No idea, Paris.", False),
        ("No idea.", False),
        ("Paris? No, Lyon.", True),  # H3b: corrected away from the gold
        ("Paris? No - Lyon.", True),
        ("Paris? No \u2014 Lyon.", True),
        ("Lyon? No, Paris.", False),  # corrected to the gold
        ("No, Paris.", False),
        ("Not Lyon, but Paris", False),
        ("Not Lyon, Marseille or Nice, but Paris", False),  # a negated list stays negated
    ],
)
def test_the_offline_answer_check_reads_bars_refusals_and_corrections(answer: str, contradicted: bool) -> None:
    assert facts.answer_contradicted(FRANCE[0], answer, [PARIS]) is contradicted


BINARY_RAR = [
    ("Paris | Lyon", 0.0),
    ("Paris|Lyon", 0.0),
    ("No idea, Lyon.", 0.0),
    ("No idea, Lyon?", 0.0),
    ("Paris? No, Lyon.", 0.0),
    ("Paris? No - Lyon.", 0.0),
    ("Lyon", 0.0),
    ("Lyon? No, Paris.", 1.0),
    ("Paris", 1.0),
]


@pytest.mark.parametrize("mode", ["hybrid", "bm25"])
async def test_binary_rar_pays_nothing_for_a_guess_behind_a_bar_a_refusal_or_a_correction(kb, mode: str) -> None:
    config = config_for("binary-rar", factuality={"retrieval_mode": mode})
    question, gold, title = FRANCE
    async with RewardEngine(config, kb=kb) as engine:
        results = await engine.score([Sample(question, answered(a), gold, title) for a, _ in BINARY_RAR])
    assert {r.status for r in results} == {"ok"}
    assert {a: r.total for (a, _), r in zip(BINARY_RAR, results)} == dict(BINARY_RAR)
