"""GRPO's batch rules belong to the GRPO launch's start: checked there, with its world size, before anything loads,
and not by the other jobs that read the same config (``knowrl.sft``, ``knowrl.task_eval``). Each test failed on
cb7647b, where ``load_train_config`` applied the rule at whatever process count the reading job had."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowrl.config import ConfigError, load_train_config


def _config(tmp_path: Path, grpo: dict, **extra) -> Path:
    rows = tmp_path / "rl.jsonl"
    rows.write_text(json.dumps({"question": "Capital of France?", "answers": ["Paris"], "title": "Paris"}) + "\n")
    path = tmp_path / "run.yaml"
    body = {"model": {"name_or_path": "tiny"}, "data": {"train": str(rows)}, "grpo": grpo, **extra}
    path.write_text(json.dumps({**body, "output_dir": str(tmp_path / "run")}))
    return path


@pytest.fixture
def nothing_loads(monkeypatch):
    """The policy load fails the test: every refusal here must come before it."""
    import knowrl.grpo

    def load_policy(*args, **kwargs):
        raise AssertionError("the policy loaded before the start check refused the config")

    monkeypatch.setattr(knowrl.grpo, "load_policy", load_policy)


def test_a_config_for_two_processes_loads_in_one_and_the_grpo_start_checks_it(tmp_path, monkeypatch) -> None:
    """2 prompts' completions x 2 processes hold groups of 4; one process does not. knowrl.sft and task_eval read
    the config in one process (cb7647b refused it there); GRPO's start checks it with its launch's world size."""
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    config = load_train_config(_config(tmp_path, {"per_device_train_batch_size": 2, "num_generations": 4}))
    from knowrl.grpo import check_start

    with pytest.raises(ConfigError) as refused:
        check_start(config, 1)
    message = str(refused.value)
    assert "\n" not in message and "grpo.num_generations 4" in message
    assert "grpo.per_device_train_batch_size 2" in message and "1 process" in message
    check_start(config, 2)


def test_train_refuses_a_batch_that_splits_a_group_before_the_policy_loads(tmp_path, monkeypatch, nothing_loads):
    from knowrl.grpo import train

    monkeypatch.setenv("WORLD_SIZE", "1")
    config = load_train_config(_config(tmp_path, {"per_device_train_batch_size": 2, "num_generations": 4}))
    with pytest.raises(ConfigError, match="grpo.num_generations 4 must divide"):
        train(config)


def test_train_refuses_an_evaluation_it_has_no_dataset_for_before_the_policy_loads(tmp_path, nothing_loads) -> None:
    """grpo.eval_strategy: steps reached TRL and transformers, which refused it (no eval_dataset) after the model
    loaded; TRL's eval batch rule (per_device_eval_batch_size x processes, whole groups) never applies here."""
    from knowrl.grpo import train

    grpo = {"per_device_train_batch_size": 4, "num_generations": 4, "eval_strategy": "steps", "eval_steps": 1}
    config = load_train_config(_config(tmp_path, grpo))
    with pytest.raises(ConfigError, match="grpo.eval_strategy 'steps'.*set grpo.eval_strategy: no"):
        train(config)
    from knowrl.grpo import check_start

    check_start(load_train_config(_config(tmp_path, {**grpo, "eval_strategy": False})), 1)  # YAML's `no`


def test_dynamic_sampling_in_several_processes_is_refused_before_the_policy_loads(
    tmp_path, monkeypatch, nothing_loads
) -> None:
    from knowrl.grpo import train

    monkeypatch.setenv("WORLD_SIZE", "2")
    monkeypatch.setenv("RANK", "0")
    grpo = {"per_device_train_batch_size": 2, "num_generations": 4}
    config = load_train_config(_config(tmp_path, grpo, dynamic_sampling={"max_rounds": 2}))
    with pytest.raises(ConfigError, match="dynamic_sampling runs in one process only"):
        train(config)
