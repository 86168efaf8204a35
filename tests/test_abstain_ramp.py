"""Explore first: an abstention ramped in from a wrong answer's payoff to the preset's, by TRL's step."""

from __future__ import annotations

import asyncio
import types

import pytest

from knowrl.config import load_train_config
from reward_engine.config import parse_reward_config
from reward_engine.semantics import answer_bar, ramped_abstain, semantics
from reward_engine.trl_rewards import KnowRLRewards

RIGHT = "<think>Paris is the capital of France.</think><answer>Paris</answer>"
IDK = "<think>I am not sure.</think><answer>I don't know</answer>"
WRONG = "<think>Lyon is big.</think><answer>Lyon</answer>"


@pytest.mark.parametrize(
    ("preset", "step", "expected"),
    [
        ("truthrl", 0, -1.0),
        ("truthrl", 15, -0.5),
        ("truthrl", 29, -1 / 30),
        ("truthrl", 30, 0.0),
        ("knowrl", 0, -1.0),
        ("knowrl", 10, 1 / 3 * 2 - 1),
        ("knowrl", 99, 1.0),
        ("knowrl", -1, 1.0),
    ],
)
def test_the_abstain_payoff_rises_from_wrong_to_the_presets(preset, step, expected):
    assert ramped_abstain(semantics(preset), step, 30) == pytest.approx(expected)


def test_without_a_ramp_the_payoff_is_the_presets_at_every_step():
    assert {ramped_abstain(semantics("truthrl"), s, None) for s in (0, 5, 500)} == {0.0}


def test_the_answer_bar_rises_with_the_ramp():
    # Halfway through, TruthRL's abstain pays -0.5: answering pays where 2p - 1 > -0.5, p > 1/4 (half the bar).
    sem = semantics("truthrl")
    halfway = semantics("truthrl", not_attempted=ramped_abstain(sem, 15, 30))
    assert answer_bar(halfway) == pytest.approx(answer_bar(sem) / 2)


def _call(rewards: KnowRLRewards, step: int | None) -> list[float | None]:
    _, correctness = rewards.functions()
    kwargs = dict(
        prompts=["Capital of France?"] * 3,
        completions=[RIGHT, IDK, WRONG],
        answers=[["Paris"]] * 3,
    )
    if step is not None:
        kwargs["trainer_state"] = types.SimpleNamespace(global_step=step)
    return asyncio.run(correctness(**kwargs))


def test_trl_pays_the_ramped_abstention_and_leaves_answers_alone():
    config = parse_reward_config({"preset": "truthrl", "abstain_ramp_steps": 20, "factuality": {"enabled": False}})
    rewards = KnowRLRewards(config)
    assert _call(rewards, 0) == [1.0, -1.0, -1.0]
    assert _call(rewards, 10) == [1.0, -0.5, -1.0]
    assert _call(rewards, 20) == [1.0, 0.0, -1.0]
    assert _call(rewards, None) == [1.0, 0.0, -1.0]  # outside a trainer (a score job): the preset's values


def test_the_ramp_leaves_the_fingerprint_and_the_engines_rows_as_they_were():
    plain = parse_reward_config({"preset": "truthrl", "factuality": {"enabled": False}})
    ramped = parse_reward_config({"preset": "truthrl", "abstain_ramp_steps": 20, "factuality": {"enabled": False}})
    assert plain.fingerprint() == ramped.fingerprint()  # scored rows (and caches) hold unramped values
    rewards = KnowRLRewards(ramped)
    _, correctness = rewards.functions()
    kwargs = dict(answers=[["Paris"]] * 3, trainer_state=types.SimpleNamespace(global_step=0))

    async def both():
        paid = await correctness(prompts=["Capital of France?"] * 3, completions=[RIGHT, IDK, WRONG], **kwargs)
        _, rows = await rewards.score_batch(["Capital of France?"] * 3, [RIGHT, IDK, WRONG], kwargs)
        return paid, [r.correctness for r in rows]

    assert asyncio.run(both()) == ([1.0, -1.0, -1.0], [1.0, 0.0, -1.0])


def test_the_ramp_is_set_from_the_training_config(tmp_path):
    cfg = load_train_config("configs/selective.yaml", ["reward.abstain_ramp_steps=30", f"output_dir={tmp_path}"])
    assert cfg.reward.abstain_ramp_steps == 30
    with pytest.raises(Exception, match="abstain_ramp_steps"):
        load_train_config("configs/selective.yaml", ["reward.abstain_ramp_steps=0"])


def test_the_reward_log_holds_what_grpo_was_paid():
    seen: list = []
    config = parse_reward_config({"preset": "truthrl", "abstain_ramp_steps": 20, "factuality": {"enabled": False}})
    rewards = KnowRLRewards(config, sink=lambda step, samples, results: seen.append((step, results)))
    assert _call(rewards, 5) == [1.0, -0.75, -1.0]
    step, results = seen[-1]
    assert step == 5 and [r.correctness for r in results] == [1.0, -0.75, -1.0]
    assert [r.total for r in results] == [1.0, -0.75, -1.0]  # truthrl has no format term: total = correctness
