"""Two real GRPO steps with each verifiable-task config's CPU variant, the task pipeline's
before/after table, and the regularisation options reaching TRL's trainer."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "configs"


def run_train(config: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "knowrl.train", "--config", str(CONFIGS / config), *args],
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.parametrize(
    "config,reward_keys",
    [
        ("math_grpo_cpu.yaml", {"ground_truth", "predicted", "reward", "status"}),
        ("reasoning_gym_cpu.yaml", {"task", "answer", "reward", "status"}),
        ("syllogism_toy.yaml", {"task", "answer", "reward", "status"}),
    ],
)
def test_two_grpo_steps_with_each_cpu_variant(tmp_path, config, reward_keys):
    out = tmp_path / "run"
    proc = run_train(config, f"--set=output_dir={out}", "--set=grpo.max_completion_length=24")
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["global_step"] == 2 and summary["train_rows"] > 0
    rows = [json.loads(line) for line in (out / "rewards.jsonl").read_text().splitlines()]
    assert len(rows) == 2 * (4 if config == "syllogism_toy.yaml" else 2)  # steps x completions per batch
    assert all(reward_keys <= set(r) for r in rows)
    assert all(r["reward"] is not None for r in rows)
    history = json.loads((out / "checkpoint-2" / "trainer_state.json").read_text())["log_history"]
    names = {k for entry in history for k in entry}
    expected = (
        ["rewards/math_boxed/mean"]
        if config.startswith("math")
        else ["rewards/rg_format/mean", "rewards/rg_score/mean"]
    )
    assert all(name in names for name in expected), sorted(names)


def test_task_pipeline_prints_per_task_before_after(tmp_path):
    out = tmp_path / "run"
    proc = run_train(
        "reasoning_gym_cpu.yaml",
        f"--set=output_dir={out}",
        "--set=grpo.max_steps=1",
        "--set=pipeline.evaluate_before_after=true",
        "--set=pipeline.eval_max_new_tokens=8",
        "--set=grpo.max_completion_length=8",
        "--set=reasoning_gym.eval_size_per_task=1",
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| task | n | accuracy before | accuracy after | format before | format after |" in proc.stdout
    assert "| base_conversion (not trained on) | 1 |" in proc.stdout
    result = json.loads((out / "task_eval.json").read_text())
    assert (
        set(result["before"])
        == set(result["after"])
        == {"number_filtering", "string_insertion", "family_relationships", "maze", "base_conversion"}
    )
    assert all(0.0 <= m["format_compliance"] <= 1.0 for m in result["after"].values())


def test_regularisation_keys_reach_trl(tmp_path):
    """KL to a periodically synced reference (TR-DPO style), off-policy masking and the loss type
    arrive in TRL's trainer, and the reference really moves toward the policy at each sync."""
    import torch
    from trl import GRPOTrainer

    from knowrl import task_registry as tasks
    from knowrl.config import load_train_config
    from knowrl.grpo import grpo_args
    from knowrl.models import load_policy

    config = load_train_config(
        CONFIGS / "syllogism_toy.yaml",
        [
            "model.name_or_path=tiny",
            "model.backend=transformers",
            "lora.enabled=false",
            f"output_dir={tmp_path}",
            "grpo.beta=0.1",
            "grpo.sync_ref_model=true",
            "grpo.ref_model_sync_steps=1",
            "grpo.ref_model_mixup_alpha=0.5",
            "grpo.off_policy_mask_threshold=0.5",
            "grpo.loss_type=dr_grpo",
            "grpo.max_steps=1",
            "grpo.learning_rate=0.05",
            "grpo.max_completion_length=8",
            "grpo.save_strategy=no",
            "reasoning_gym.train_size=8",
        ],
    )
    policy = load_policy(config.model, config.lora, config.seed)
    setup = tasks.setup(config, policy.tokenizer)
    args = grpo_args(config)
    assert (
        args.beta,
        args.sync_ref_model,
        args.ref_model_sync_steps,
        args.ref_model_mixup_alpha,
        args.off_policy_mask_threshold,
        args.loss_type,
    ) == (0.1, True, 1, 0.5, 0.5, "dr_grpo")
    noise = random.Random(0)

    def spread(completions, **kwargs):  # rewards that differ, so the policy (and then its reference) moves
        return [noise.random() for _ in completions]

    trainer = GRPOTrainer(
        model=policy.model,
        reward_funcs=[*setup.rewards.functions(), spread],
        args=args,
        train_dataset=setup.dataset,
        processing_class=policy.tokenizer,
    )
    try:
        assert trainer.ref_model is not None and trainer.off_policy_mask_threshold == 0.5
        assert any(type(cb).__name__ == "SyncRefModelCallback" for cb in trainer.callback_handler.callbacks)
        before = {k: v.detach().clone() for k, v in trainer.ref_model.named_parameters()}
        trainer.train()
        moved = sum(not torch.equal(before[k], v) for k, v in trainer.ref_model.named_parameters())
        assert moved > 0  # the reference was mixed with the updated policy
    finally:
        setup.rewards.close()


def test_task_eval_cli_reports_per_task(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "knowrl.task_eval",
            "--config",
            str(CONFIGS / "reasoning_gym_cpu.yaml"),
            "--set=model.name_or_path=tiny",
            "--set=reasoning_gym.eval_size_per_task=2",
            "--set=pipeline.eval_max_new_tokens=4",
            "--out",
            str(tmp_path / "eval"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    metrics = json.loads(proc.stdout)
    assert set(metrics) == {"number_filtering", "string_insertion", "family_relationships", "maze", "base_conversion"}
    assert all(m["n"] == 2 and 0.0 <= m["accuracy"] <= 1.0 for m in metrics.values())
    assert "| base_conversion | 2 |" in (tmp_path / "eval" / "report.md").read_text()
    bad = subprocess.run(
        [sys.executable, "-m", "knowrl.task_eval", "--config", str(CONFIGS / "smoke.yaml")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2 and "knowrl.evaluate" in bad.stderr
