"""The boxed-answer maths reward: extraction, a table of equivalences (both directions),
traps that must be wrong, and a verifier timeout that does not stall the step."""

from __future__ import annotations

import asyncio
import time

import pytest

from knowrl.tasks.boxed import gsm8k_answer, last_boxed, symbolic_equal
from knowrl.tasks.math_reward import MathRewardConfig, MathRewards
from knowrl.tasks.verify_pool import VerifierPool

# (model's boxed answer, gold, equivalent?) — checked in both directions.
EQUIVALENCE = [
    ("1000", "1000", True),
    ("1,000", "1000", True),
    ("1{,}000", "1000", True),
    ("1 000 000", "1000000", True),
    ("12,345.5", "12345.5", True),
    ("0.5", "\\frac{1}{2}", True),
    ("1/2", "0.5", True),
    ("\\dfrac{1}{2}", "1/2", True),
    ("\\tfrac{3}{4}", "0.75", True),
    ("\\frac12", "0.5", True),
    ("-\\frac{1}{2}", "-0.5", True),
    ("+7", "7", True),
    ("7.0", "7", True),
    ("007", "7", True),
    ("50\\%", "50", True),
    ("50\\%", "0.5", True),
    ("50%", "50", True),
    ("12 \\text{ cm}", "12", True),
    ("12\\text{ apples}", "12", True),
    ("12 apples", "12", True),
    ("\\$18", "18", True),
    ("90^\\circ", "90", True),
    ("x = 3", "3", True),
    ("\\text{Yes}", "Yes", True),
    ("(x+1)^2", "x^2+2x+1", True),
    ("\\frac{\\sqrt{2}}{2}", "\\sqrt{2}/2", True),
    ("2\\sqrt{2}", "\\sqrt{8}", True),
    ("\\{1, 2\\}", "\\{2, 1\\}", True),
    ("\\pi/2", "\\frac{\\pi}{2}", True),
    ("3x+2", "2+3x", True),
    # traps: must be wrong
    ("12", "21", False),
    ("-3", "3", False),
    ("0.333", "\\frac{1}{3}", False),
    ("1000", "100", False),
    ("1,001", "1000", False),
    ("5%", "50", False),
    ("3.14159", "\\pi", False),
    ("(1, 2)", "(2, 1)", False),
    ("x^2", "2x", False),
    ("12 apples", "13", False),
    ("", "0", False),
    ("\\frac{1}{0}", "1", False),
    ("2/3", "0.67", False),
    ("4 or 5", "4", False),  # a hedge is not a unit
    ("4 and 5", "5", False),
    ("7 cm^2", "7", True),
]


@pytest.mark.parametrize("predicted,gold,equal", EQUIVALENCE)
def test_equivalence_table_both_directions(predicted: str, gold: str, equal: bool) -> None:
    assert symbolic_equal(predicted, gold) is equal
    if predicted:
        assert symbolic_equal(gold, predicted) is equal


def test_table_is_large_enough_and_balanced() -> None:
    assert len(EQUIVALENCE) >= 40
    assert sum(not e for _, _, e in EQUIVALENCE) >= 10


@pytest.mark.parametrize(
    "text,boxed",
    [
        ("so \\boxed{42}.", "42"),
        ("\\boxed{3} no wait \\boxed{5}", "5"),  # last box wins
        ("\\boxed{\\frac{1}{2}}", "\\frac{1}{2}"),  # nested braces kept
        ("\\boxed{{a}+{b}}", "{a}+{b}"),
        ("\\boxed {7}", "7"),
        ("\\fbox{8}", "8"),
        ("\\boxed{3} and then \\boxed{12", None),  # the last box is unbalanced: no answer, no fallback
        ("the answer is 42", None),
        ("", None),
    ],
)
def test_last_boxed(text: str, boxed: str | None) -> None:
    assert last_boxed(text) == boxed


def test_gsm8k_answer() -> None:
    assert gsm8k_answer("Natalia sold 48/2 = 24 clips.\n#### 1,072") == "1072"
    assert gsm8k_answer("no marker 72") is None
    assert gsm8k_answer("####   ") is None


def _score(rewards: MathRewards, completions: list[str], golds: list[str]) -> list:
    async def go() -> list:
        return await rewards.functions()[0](
            prompts=[""] * len(completions), completions=completions, ground_truth=golds
        )

    return asyncio.run(go())


def test_reward_values_and_status_log() -> None:
    rows: list = []
    rewards = MathRewards(MathRewardConfig(), sink=lambda step, r: rows.extend(r))
    try:
        values = _score(
            rewards,
            ["<think>2+2</think> \\boxed{4}", "\\boxed{5}", "four", "\\boxed{x^2-1}", "\\boxed{3} \\boxed{4}"],
            ["4", "4", "4", "(x-1)(x+1)", "3"],
        )
    finally:
        rewards.close()
    assert values == [1.0, -1.0, -0.5, 1.0, -1.0]
    assert [r["status"] for r in rows] == ["correct", "wrong", "no_box", "correct", "wrong"]
    assert rows[3]["predicted"] == "x^2-1"


def test_custom_reward_values_and_missing_gold() -> None:
    rewards = MathRewards(MathRewardConfig(correct=2.0, wrong=0.0, no_answer=-2.0))
    try:
        assert _score(rewards, ["\\boxed{4}", "\\boxed{1}", "x", "\\boxed{4}"], ["4", "4", "4", ""]) == [
            2.0,
            0.0,
            -2.0,
            None,
        ]
    finally:
        rewards.close()


def test_verifier_timeout_does_not_stall_the_step() -> None:
    """A check that hangs is cut at its timeout; the other completions still score, and the pool
    replaces the killed worker so the next batch works."""
    from tests.helpers import hanging_check

    config = MathRewardConfig(timeout_s=1.0, step_timeout_s=20.0, workers=2)
    rewards = MathRewards(config, pool=VerifierPool(2, warm=None), check=hanging_check)
    try:
        started = time.perf_counter()
        values = _score(rewards, ["\\boxed{hang}", "\\boxed{4}", "\\boxed{5}"], ["4", "4", "4"])
        elapsed = time.perf_counter() - started
        assert values == [-1.0, 1.0, -1.0]
        assert rewards.pool.timeouts == 1
        assert elapsed < 15, elapsed  # worker start-up (spawn) + one 2 s timeout, not a hang
        assert _score(rewards, ["\\boxed{4}"], ["4"]) == [1.0]
        rewards.config = config.model_copy(update={"on_timeout": "none"})
        assert _score(rewards, ["\\boxed{hang}"], ["4"]) == [None]
    finally:
        rewards.close()


def test_step_budget_cuts_queued_checks() -> None:
    """With one worker and hanging checks, the batch still answers at step_timeout_s."""
    from tests.helpers import hanging_check

    config = MathRewardConfig(timeout_s=30.0, step_timeout_s=3.0, workers=1)
    rewards = MathRewards(config, pool=VerifierPool(1, warm=None), check=hanging_check)
    try:
        started = time.perf_counter()
        values = _score(rewards, ["\\boxed{hang}"] * 3, ["4"] * 3)
        assert values == [-1.0] * 3
        assert time.perf_counter() - started < 10
    finally:
        rewards.close()


@pytest.mark.timeout(60)
def test_hostile_boxed_answers_do_not_hang_the_loop() -> None:
    """Decided in-process, so they must stay linear: a unit-like tail that fails at the end used to
    backtrack exponentially; a megabyte box is wrong without a check."""
    assert symbolic_equal("12 " + "a" * 60 + "!", "12") is False
    rewards = MathRewards(MathRewardConfig())
    try:
        assert _score(rewards, ["\\boxed{" + "1+" * 500_000 + "1}", "\\boxed{" + "{" * 100_000], ["2", "2"]) == [
            -1.0,
            -0.5,
        ]
    finally:
        rewards.close()


def test_math_reward_pickles_and_scores_after_unpickling() -> None:
    import pickle

    rewards = MathRewards(MathRewardConfig())
    _score(rewards, [r"\boxed{2}"], ["2"])  # starts the worker pool, which must not travel
    clone = pickle.loads(pickle.dumps(rewards))
    try:
        assert clone.functions()[0].__name__ == "math_boxed"
        assert _score(clone, [r"\boxed{(x+1)^2}", r"\boxed{3}"], ["x^2+2x+1", "4"]) == [1.0, -1.0]
    finally:
        rewards.close()
        clone.close()
