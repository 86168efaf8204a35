"""Hostile pass 57 (run at cb7647b, issue #74), finding J5: ``knowrl.train --set grpo.repetition_penalty=0`` (and
``top_k=-5``, ``min_p=1.5``) exited 2 only after the model loaded and step 1 began, naming transformers' ``penalty``
rather than the key. Every sampling value the grpo section hands TRL/vLLM is now range-checked when the config
loads, one line naming the grpo key. Failed on 071011f."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl.config import load_train_config

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
SMOKE = ROOT / "configs" / "smoke.yaml"


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("repetition_penalty", "0", "above 0"),
        ("repetition_penalty", "-1", "above 0"),
        ("top_k", "-5", "at least 0"),
        ("min_p", "1.5", "at least 0 and at most 1"),
        ("min_p", "-0.1", "at least 0 and at most 1"),
        ("vllm_gpu_memory_utilization", "1.2", "above 0 and at most 1"),
        ("vllm_gpu_memory_utilization", "0", "above 0 and at most 1"),
        ("vllm_max_model_length", "0", "at least 1"),
        ("vllm_tensor_parallel_size", "0", "at least 1"),
    ],
)
def test_a_sampling_value_out_of_range_is_refused_naming_its_grpo_key(key: str, value: str, says: str) -> None:
    with pytest.raises(ValueError, match=f"grpo.{key} must be {says}, got {value}"):
        load_train_config(SMOKE, [f"grpo.{key}={value}"])


def test_the_values_trl_takes_still_load() -> None:
    edges = ["grpo.top_k=0", "grpo.min_p=0", "grpo.repetition_penalty=0.5", "grpo.vllm_gpu_memory_utilization=1"]
    assert load_train_config(SMOKE, edges).grpo["top_k"] == 0
    assert load_train_config(SMOKE, ["grpo.top_k=-1"]).grpo["top_k"] == 0  # vLLM's "off", as transformers spells it
    usual = ["grpo.top_k=50", "grpo.min_p=0.05", "grpo.repetition_penalty=1.1", "grpo.min_p=1"]
    assert load_train_config(SMOKE, usual).grpo["repetition_penalty"] == 1.1


def test_train_exits_2_naming_the_key_before_the_model_loads(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, "-m", "knowrl.train", "--config", str(SMOKE)]
        + ["--set", "grpo.repetition_penalty=0", "--set", f"output_dir={out}"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "grpo.repetition_penalty must be above 0" in done.stderr
    assert "Loading weights" not in done.stderr and not out.exists()
