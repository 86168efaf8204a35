"""What each preset pays for the completions a policy can learn to write: right, abstain, wrong, a one-word
wrong answer, cut off mid-reasoning, an empty answer. Issue #43: ``binary-rar`` paid 1.0 for a one-word wrong
answer and for a cut-off completion, ``truthrl`` added a format term to its ternary reward.

Offline grader and verifier, the real smoke KB (SQLite + FTS5 + FAISS), through the engine end to end.
"""

from __future__ import annotations

import math

import pytest

from reward_engine.config import parse_reward_config
from reward_engine.engine import RewardEngine, Sample

QUESTION, GOLD, TITLE = "What is the capital of France?", "Paris", "Paris"
COMPLETIONS = {
    "right": "<think>Paris is the capital and largest city of France.</think><answer>Paris</answer>",
    "abstain": "<think>Hmm.</think><answer>I don't know</answer>",
    "unsure": "<think>Hmm.</think><answer>I'm not sure.</answer>",
    "wrong": "<think>Hmm.</think><answer>The capital of France is Lyon.</answer>",
    "short-wrong": "<think>Hmm.</think><answer>Lyon</answer>",
    "cut-off": "<think>Let me recall the capital of France. It is the city on the river",
    "empty": "<think>Hmm.</think><answer></answer>",
}
# preset -> expected total reward (format + correctness) per completion
PAYS = {
    # KnowRL: format +1/-1; +2 right, +1 "I don't know" (the grader's NOT_ATTEMPTED), -1 wrong + fact score (no
    # claims here: 0), -1 + fact score with no usable answer (format -1 too).
    "knowrl": {
        "right": 3.0,
        "abstain": 2.0,
        "unsure": 2.0,
        "wrong": 0.0,
        "short-wrong": 0.0,
        "cut-off": -2.0 + math.exp(1 - 10 / 1),  # its one supported claim: 1/1 x exp(1 - gamma/1)
        "empty": -2.0,
    },
    # TruthRL: one ternary reward; only "I don't know" abstains.
    "truthrl": {
        "right": 1.0,
        "abstain": 0.0,
        "unsure": -1.0,
        "wrong": -1.0,
        "short-wrong": -1.0,
        "cut-off": -1.0,
        "empty": -1.0,
    },
    # Binary RAR: 1 unless the response with its question is contradicted; nothing to verify scores 0.
    "binary-rar": {
        "right": 1.0,
        "abstain": 1.0,
        "unsure": 1.0,
        "wrong": 0.0,
        "short-wrong": 0.0,
        "cut-off": 0.0,
        "empty": 0.0,
    },
}


@pytest.mark.parametrize("preset", sorted(PAYS))
async def test_each_preset_pays_what_its_paper_pays(kb, preset: str) -> None:
    config = parse_reward_config({"preset": preset, "factuality": {"kb_path": "unused-kb-object-given"}})
    rows = [Sample(QUESTION, text, GOLD, TITLE) for text in COMPLETIONS.values()]
    async with RewardEngine(config, kb=kb) as engine:
        results = await engine.score(rows)
    got = {name: r.total for name, r in zip(COMPLETIONS, results)}
    assert {r.status for r in results} == {"ok"}
    assert got == pytest.approx(PAYS[preset])


async def test_binary_rar_checks_the_response_not_the_reasoning(kb) -> None:
    """As released, only what follows </think> is verified: a wrong year in the reasoning costs nothing, the
    same wrong year in the answer costs the reward."""
    config = parse_reward_config({"preset": "binary-rar", "factuality": {"kb_path": "unused-kb-object-given"}})
    question = "When was the Eiffel Tower completed?"
    rows = [
        Sample(question, "<think>It was completed in 1901.</think><answer>1889</answer>", "1889", TITLE),
        Sample(question, "<think>Hmm.</think><answer>It was completed in 1901.</answer>", "1889", TITLE),
    ]
    async with RewardEngine(config, kb=kb) as engine:
        reasoning_wrong, answer_wrong = await engine.score(rows)
    assert (reasoning_wrong.total, answer_wrong.total) == (1.0, 0.0)
    assert len(answer_wrong.claims) == 1 and answer_wrong.claims[0].text.startswith(question)


@pytest.mark.parametrize("t", [0.5, 0.75])
async def test_threshold_pays_minus_t_over_one_minus_t_for_every_kind_of_wrong(kb, t: float) -> None:
    """Issue #73: right +1, abstain 0 (the grader's NOT_ATTEMPTED, so "I'm not sure" abstains too, unlike
    TruthRL's phrase rule), and wrong, cut off or empty each -t/(1-t): -1 at t 1/2, -3 at t 3/4."""
    config = parse_reward_config(
        {"preset": "threshold", "threshold_t": t, "factuality": {"kb_path": "unused-kb-object-given"}}
    )
    rows = [Sample(QUESTION, text, GOLD, TITLE) for text in COMPLETIONS.values()]
    async with RewardEngine(config, kb=kb) as engine:
        results = await engine.score(rows)
    wrong = -t / (1 - t)
    want = {"right": 1.0, "abstain": 0.0, "unsure": 0.0, "wrong": wrong, "short-wrong": wrong}
    want |= {"cut-off": wrong, "empty": wrong}
    assert {name: r.total for name, r in zip(COMPLETIONS, results)} == pytest.approx(want)
