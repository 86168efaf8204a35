"""The same config trains the same way on either backend: Unsloth's changed trainer defaults are
undone, and Unsloth is imported before TRL / transformers / peft when the run will use it."""

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import trl

from knowrl.config import ConfigError, load_train_config
from knowrl.grpo import grpo_args
from knowrl.sft import sft_args

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"


@dataclasses.dataclass
class UnslothLikeGRPOConfig(trl.GRPOConfig):
    """What Unsloth does to TRL's config at import: a subclass with other defaults."""

    gradient_accumulation_steps: int = 2
    learning_rate: float = 5e-5
    weight_decay: float = 0.001
    optim: str = "adamw_8bit"


@dataclasses.dataclass
class UnslothLikeSFTConfig(trl.SFTConfig):
    gradient_accumulation_steps: int = 2
    optim: str = "adamw_8bit"


def test_unsloth_defaults_do_not_change_a_grpo_run(monkeypatch, tmp_path):
    monkeypatch.setattr(trl, "GRPOConfig", UnslothLikeGRPOConfig)
    config = load_train_config(SMOKE, [f"output_dir={tmp_path}"])
    args = grpo_args(config)
    assert type(args) is UnslothLikeGRPOConfig  # the backend's class is still the one used
    assert args.gradient_accumulation_steps == 1 and args.weight_decay == 0.0
    assert args.optim == "adamw_torch_fused"  # TRL's default, not adamw_8bit
    assert args.learning_rate == 1e-4  # what configs/smoke.yaml sets wins over both defaults
    set_by_user = grpo_args(load_train_config(SMOKE, [f"output_dir={tmp_path}", "grpo.gradient_accumulation_steps=3"]))
    assert set_by_user.gradient_accumulation_steps == 3


def test_unsloth_defaults_do_not_change_an_sft_run(monkeypatch, tmp_path):
    monkeypatch.setattr(trl, "SFTConfig", UnslothLikeSFTConfig)
    args = sft_args(load_train_config(SMOKE, [f"output_dir={tmp_path}"]))
    assert type(args) is UnslothLikeSFTConfig
    assert args.gradient_accumulation_steps == 1 and args.optim == "adamw_torch_fused"


def test_use_vllm_without_vllm_is_a_config_error(tmp_path, monkeypatch):
    import knowrl.grpo

    real = knowrl.grpo.is_available
    monkeypatch.setattr(knowrl.grpo, "is_available", lambda module: module != "vllm" and real(module))
    config = load_train_config(SMOKE, [f"output_dir={tmp_path}", "grpo.use_vllm=true"])
    with pytest.raises(ConfigError, match="grpo.use_vllm"):
        grpo_args(config)


def test_unsloth_is_imported_before_trl_when_the_run_uses_it(tmp_path):
    fake = tmp_path / "site"
    fake.mkdir()
    # A stand-in 'unsloth' that records what was already imported when it was.
    (fake / "unsloth.py").write_text(
        "import json, os, sys\n"
        "json.dump(sorted(m for m in ('trl', 'transformers', 'peft') if m in sys.modules), "
        "open(os.environ['SEEN'], 'w'))\n"
    )
    seen = tmp_path / "seen.json"
    code = f"from knowrl.config import load_train_config; load_train_config({str(SMOKE)!r}, ['model.backend=unsloth'])"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(fake), str(ROOT), os.environ.get("PYTHONPATH")])),
        "SEEN": str(seen),
    }
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(seen.read_text()) == []  # imported first

    seen.unlink()
    code = code.replace("model.backend=unsloth", "model.backend=transformers")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert not seen.exists()  # never imported for a transformers run
