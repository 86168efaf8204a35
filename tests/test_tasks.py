"""Verifiable-task training: maths rows, reasoning-gym data and rewards, task configs, and
the regularisation options reaching TRL."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
import yaml

from knowrl.config import ConfigError, load_train_config
from knowrl.tasks.math_data import gsm_symbolic_rows, load_math_rows
from knowrl.tasks.rg_data import eval_rows, train_rows
from knowrl.tasks.rg_reward import ReasoningGymRewardConfig, ReasoningGymRewards

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "configs"


def write(tmp_path: Path, text: str, name: str = "cfg.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_math_rows_accept_three_formats_and_name_bad_fields(tmp_path, caplog):
    data = tmp_path / "math.jsonl"
    data.write_text(
        "\n".join(
            [
                json.dumps({"question": "1+1?", "ground_truth": "2"}),
                json.dumps({"question": "Clips?", "answer": "48/2 = 24\n#### 1,072"}),  # GSM8K
                json.dumps({"problem": "Half?", "solution": "It is $\\boxed{\\frac{1}{2}}$."}),  # MATH
                json.dumps({"question": "n?", "ground_truth": 7}),
                "{broken",
                json.dumps({"question": "", "ground_truth": "1"}),
                json.dumps({"question": "q", "answer": "#### "}),
                json.dumps({"question": "q", "solution": "no box"}),
                json.dumps({"question": "q", "ground_truth": None}),
                json.dumps(["not", "an", "object"]),
            ]
        )
        + "\n"
    )
    rows, report = load_math_rows(data)
    assert [r["ground_truth"] for r in rows] == ["2", "1072", "\\frac{1}{2}", "7"]
    assert rows[2]["question"] == "Half?"
    assert len(report.bad) == 6
    err = caplog.text
    for line, field in [
        (5, "invalid JSON"),
        (6, "'question'"),
        (7, "'answer'"),
        (8, "'solution'"),
        (9, "'ground_truth'"),
        (10, "expected an object"),
    ]:
        assert f"math.jsonl:{line}: " in err and field in err


def test_gsm_symbolic_rows_are_offline_and_deterministic():
    a, b = gsm_symbolic_rows(5, seed=3), gsm_symbolic_rows(5, seed=3)
    assert a == b and len(a) == 5
    assert all(r["ground_truth"].lstrip("-").replace(".", "").isdigit() for r in a)
    assert gsm_symbolic_rows(5, seed=4) != a


def test_rg_mix_is_seeded_weighted_and_eval_is_disjoint():
    weights = {"syllogism": 3.0, "maze": 1.0}
    rows = train_rows(weights, 200, seed=1)
    assert rows == train_rows(weights, 200, seed=1)
    counts = {t: sum(r["rg_task"] == t for r in rows) for t in weights}
    assert counts["syllogism"] > 2 * counts["maze"] > 0
    held_out = eval_rows(["syllogism", "base_conversion"], 10, seed=1)
    assert [r["rg_task"] for r in held_out] == ["syllogism"] * 10 + ["base_conversion"] * 10
    assert not {r["question"] for r in held_out} & {r["question"] for r in rows}


def _configured_tasks() -> list[str]:
    names: set[str] = set()
    for name in ("reasoning_gym.yaml", "reasoning_gym_cpu.yaml", "syllogism_toy.yaml"):
        section = yaml.safe_load((CONFIGS / name).read_text())["reasoning_gym"]
        names |= set(section["train_tasks"]) | set(section.get("eval_tasks") or [])
    return sorted(names)


def _rg_score(rewards: ReasoningGymRewards, rows: list[dict], completions: list[str]) -> tuple[list, list]:
    async def go():
        fmt, score = rewards.functions()
        kwargs = {
            "rg_task": [r["rg_task"] for r in rows],
            "rg_entry": [r["rg_entry"] for r in rows],
            "question": [r["question"] for r in rows],
        }
        return (
            await fmt(prompts=[""] * len(rows), completions=completions, **kwargs),
            await score(prompts=[""] * len(rows), completions=completions, **kwargs),
        )

    return asyncio.run(go())


@pytest.mark.parametrize("task", _configured_tasks())
def test_rg_reward_on_every_configured_task(task):
    """A correct answer scores 1, a wrong one below 1; the format reward is separate."""
    rows = eval_rows([task], 3, seed=0)
    right = [f"<think>working</think><answer>{json.loads(r['rg_entry'])['answer']}</answer>" for r in rows]
    wrong = ["<think>working</think><answer>certainly not this 0 zz</answer>" for _ in rows]
    rewards = ReasoningGymRewards(ReasoningGymRewardConfig(workers=1))
    try:
        fmt, good = _rg_score(rewards, rows, right)
        _, bad = _rg_score(rewards, rows, wrong)
    finally:
        rewards.close()
    assert good == [1.0] * 3 and fmt == [0.2] * 3
    assert all(v < 1.0 for v in bad)


def test_rg_answer_hidden_in_think_or_repeated_scores_zero():
    rows = eval_rows(["syllogism"], 1, seed=0)
    gold = json.loads(rows[0]["rg_entry"])["answer"]
    cheats = [
        f"<think><answer>{gold}</answer></think><answer>?</answer>",
        f"<think>x</think><answer>{gold}</answer><answer>{'No' if gold == 'Yes' else 'Yes'}</answer>",
        f"{gold}",
    ]
    rewards = ReasoningGymRewards(ReasoningGymRewardConfig(workers=1))
    try:
        fmt, score = _rg_score(rewards, rows * 3, cheats)
    finally:
        rewards.close()
    assert score == [0.0, 0.0, 0.0] and fmt == [0.0, 0.0, 0.0]


def test_rg_scorer_timeout_scores_zero_without_stalling():
    """Holds while two other processes keep both cores busy (as the trainer does): the 1 s timeout
    measures the check alone, because the workers were started and warmed before the step."""
    from tests.helpers import busy_cores, hanging_scorer

    rows = eval_rows(["syllogism"], 2, seed=0)
    gold = json.loads(rows[1]["rg_entry"])["answer"]
    rewards = ReasoningGymRewards(ReasoningGymRewardConfig(timeout_s=1.0), scorer=hanging_scorer, tasks=("syllogism",))
    try:
        rewards.start()
        with busy_cores(2):
            started = time.perf_counter()
            _, score = _rg_score(
                rewards, rows, ["<think>x</think><answer>hang</answer>", f"<think>x</think><answer>{gold}</answer>"]
            )
            elapsed = time.perf_counter() - started
        assert score == [0.0, 1.0] and rewards.pool.timeouts == 1
        assert elapsed < 20
    finally:
        rewards.close()


TASK_BASE = "model: {name_or_path: tiny}\n"


@pytest.mark.parametrize(
    "text,message",
    [
        ("task: reasoning_gym\n", "needs a 'reasoning_gym' section"),
        (
            "task: reasoning_gym\nreasoning_gym: {train_tasks: {mazes: 1}}\n",
            "unknown reasoning-gym task 'mazes'; did you mean 'maze'",
        ),
        ("task: reasoning_gym\nreasoning_gym: {train_tasks: {maze: 0}}\n", "positive weight"),
        ("task: math\n", "task 'math' needs data.train"),
        ("task: math\nmath: {source: gsm_symbolic, reward: {wrng: 1}}\n", "unknown key 'math.reward.wrng'"),
        ("task: maths\n", "task"),
        ("math: {source: gsm_symbolic}\ndata: {train: x.jsonl}\n", "section 'math' is only read with task: math"),
        ("task: math\nmath: {source: gsm_symbolic}\nreward: {factuality: {enabled: false}}\n", "'math.reward' section"),
        ("task: math\nmath: {source: gsm_symbolic}\ngrpo: {sync_ref_model: true, beta: 0.0}\n", "needs grpo.beta > 0"),
        (
            "task: math\nmath: {source: gsm_symbolic}\ngrpo: {sync_ref_model: true, beta: 0.1}\n",
            "not supported by TRL with a LoRA",
        ),
    ],
)
def test_task_config_errors(tmp_path, text, message):
    with pytest.raises(ConfigError) as err:
        load_train_config(write(tmp_path, TASK_BASE + text))
    assert message in str(err.value)


@pytest.mark.parametrize(
    "name",
    ["math_grpo.yaml", "math_grpo_cpu.yaml", "reasoning_gym.yaml", "reasoning_gym_cpu.yaml", "syllogism_toy.yaml"],
)
def test_shipped_task_configs_validate(name):
    config = load_train_config(CONFIGS / name)
    assert config.task in ("math", "reasoning_gym")


def test_math_guide_settings():
    config = load_train_config(CONFIGS / "math_grpo.yaml")
    assert (config.lora.r, config.lora.alpha, config.lora.dropout) == (16, 32, 0.05)
    g = config.grpo
    assert (
        g["num_generations"],
        g["beta"],
        g["learning_rate"],
        g["per_device_train_batch_size"],
        g["gradient_accumulation_steps"],
        g["temperature"],
        g["top_p"],
        g["max_completion_length"],
    ) == (2, 0.05, 5e-6, 4, 4, 0.7, 0.9, 2048)
    assert config.math.reward.correct == 1.0 and config.math.reward.wrong == -1.0
    assert config.math.reward.no_answer == -0.5
    rg = load_train_config(CONFIGS / "reasoning_gym.yaml").reasoning_gym
    assert set(rg.train_tasks) == {"number_filtering", "string_insertion", "family_relationships", "maze"}
    assert set(rg.evaluation_tasks) - set(rg.train_tasks) == {"base_conversion"}


def test_placeholder_model_path_is_one_clear_line():
    """configs/math_grpo.yaml ships with the model path to fill in: forgetting it is exit 2, not a traceback."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "knowrl.train", "--config", str(CONFIGS / "math_grpo.yaml")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2 and "model.name_or_path: /path/to/your/model does not exist" in proc.stderr
    assert "Traceback" not in proc.stderr
