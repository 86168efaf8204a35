"""Hostile pass 58 (run at be2f140, issue #74), finding J1: ``knowrl.train --set grpo.adam_beta1=1.5`` (and
``adam_beta2=2``, ``adam_epsilon=-1``, ``sft.adam_beta1=1.5``) exited 2 only after the model loaded, with torch's
"Invalid beta parameter at index 0" naming no key. The optimizer's values are now range-checked when the config
loads, one line naming the key. Failed on e5f1e43."""

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


@pytest.mark.parametrize("section", ["grpo", "sft"])
@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("adam_beta1", "1.5", "at least 0 and below 1"),
        ("adam_beta1", "1", "at least 0 and below 1"),  # torch: beta < 1
        ("adam_beta1", "-0.1", "at least 0 and below 1"),
        ("adam_beta2", "2", "at least 0 and below 1"),
        ("adam_epsilon", "-1", "above 0"),
        ("adam_epsilon", "0", "above 0"),
        ("weight_decay", "-0.1", "at least 0"),
        ("max_grad_norm", "-1", "at least 0"),
    ],
)
def test_an_optimizer_value_out_of_range_is_refused_naming_its_key(
    section: str, key: str, value: str, says: str
) -> None:
    with pytest.raises(ValueError, match=f"{section}.{key} must be {says}, got {value}"):
        load_train_config(SMOKE, [f"{section}.{key}={value}"])


def test_the_values_torch_takes_still_load() -> None:
    edges = ["grpo.adam_beta1=0", "grpo.adam_beta2=0.999", "grpo.adam_epsilon=1e-8", "sft.adam_beta1=0.9"]
    config = load_train_config(SMOKE, [*edges, "grpo.weight_decay=0", "sft.max_grad_norm=0"])
    assert config.grpo["adam_beta1"] == 0 and config.sft["adam_beta1"] == 0.9


def test_train_exits_2_naming_the_key_before_the_model_loads(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, "-m", "knowrl.train", "--config", str(SMOKE)]
        + ["--set", "grpo.adam_beta1=1.5", "--set", f"output_dir={out}"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "grpo.adam_beta1 must be at least 0 and below 1" in done.stderr
    assert "Loading weights" not in done.stderr and not out.exists()
