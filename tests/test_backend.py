"""The same config trains the same way on either backend: Unsloth's changed trainer defaults are
undone, and Unsloth is imported before TRL / transformers / peft when the run will use it."""

import dataclasses
import importlib.util
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trl

from knowrl.config import ConfigError, load_train_config
from knowrl.grpo import grpo_args
from knowrl.sft import sft_args
from knowrl.trl_args import TRAINING_ARGS

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"


# What Unsloth does to TRL's config classes at import (unsloth 2026.10.9, the gpu extra's pin:
# unsloth/models/rl.py, _patch_trl_rl_trainers_impl). It generates ``@dataclass class UnslothGRPOConfig(GRPOConfig)``
# with an ``__init__`` of its own whose signature is TRL's with these defaults written in (a regex over the
# signature, so only where TRL's ``__init__`` has the argument), and sets it as trl.GRPOConfig (and
# trl.trainer.grpo_config.GRPOConfig). The dataclass fields keep TRL's defaults: only the call's defaults change.
UNSLOTH_DEFAULTS: dict[str, Any] = {
    "output_dir": None,
    "logging_nan_inf_filter": False,
    "per_device_train_batch_size": 4,
    "gradient_accumulation_steps": 2,
    "weight_decay": 0.001,
    "seed": 3407,
    "optim": "adamw_8bit",
    "learning_rate": 5e-05,
    "per_device_eval_batch_size": 4,
    "eval_accumulation_steps": 2,
    "torch_empty_cache_steps": 250,
    "logging_steps": 1,
    "max_seq_length": None,
    "num_generations": 8,
    "vllm_mode": "colocate",
    "generation_kwargs": {},
    "bf16": False,
    "fp16": False,
    "report_to": "none",
    "include_tokens_per_second": False,
    "include_num_input_tokens_seen": False,
    "auto_find_batch_size": False,
    "dataloader_pin_memory": True,
    "padding_free": None,
    "warmup_steps": 0.1,  # transformers >= 5 (before: warmup_ratio 0.1)
}
# GRPO only. Unsloth also writes None for loss_type, beta and mask_truncated_completions, which its __init__ body
# turns back into TRL's own defaults (dapo, 0.0, False) when left None: those are left out of the stand-in.
UNSLOTH_GRPO_DEFAULTS: dict[str, Any] = {
    "auto_find_batch_size": False,
    "vllm_importance_sampling_correction": False,
    "router_aux_loss_coef": 0.0,
}
UNSLOTH_SENTINELS = {"GRPOConfig": {"loss_type", "beta", "mask_truncated_completions"}}
UNSLOTH_SFT_DEFAULTS: dict[str, Any] = {"loss_type": "nll"}
UNSLOTH_TABLES = {
    "GRPOConfig": {**UNSLOTH_DEFAULTS, **UNSLOTH_GRPO_DEFAULTS},
    "SFTConfig": {**UNSLOTH_DEFAULTS, **UNSLOTH_SFT_DEFAULTS},
}


def changed_defaults(config_class: type, base: type, leave_out: frozenset[str] = frozenset()) -> dict[str, str]:
    """The ``__init__`` defaults of ``config_class`` that differ from ``base``'s (TRL's), as reprs."""
    ours = inspect.signature(config_class.__init__).parameters
    trls = inspect.signature(base.__init__).parameters
    return {
        name: repr(p.default)
        for name, p in ours.items()
        if name in trls
        and name not in leave_out
        and p.default is not inspect.Parameter.empty
        and repr(p.default) != repr(trls[name].default)
    }


def unsloth_config(base: type) -> type:
    """``base`` (TRL's GRPOConfig / SFTConfig) patched as Unsloth patches it: a dataclass subclass, outside
    ``trl``, whose ``__init__`` has Unsloth's defaults while its fields keep TRL's."""
    signature = inspect.signature(base.__init__)
    table = {k: v for k, v in UNSLOTH_TABLES[base.__name__].items() if k in signature.parameters}

    def __init__(self, **kwargs):
        base.__init__(self, **{**table, **kwargs})

    __init__.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p.replace(default=table[p.name]) if p.name in table else p for p in signature.parameters.values()]
    )
    name = f"Unsloth{base.__name__}"
    namespace = {"__init__": __init__, "__module__": f"unsloth_compiled_cache.{name}", "__qualname__": name}
    return dataclasses.dataclass(type(name, (base,), namespace))


UnslothGRPOConfig = unsloth_config(trl.GRPOConfig)
UnslothSFTConfig = unsloth_config(trl.SFTConfig)
RUNS = {
    "grpo": (grpo_args, "GRPOConfig", trl.GRPOConfig, UnslothGRPOConfig),
    "sft": (sft_args, "SFTConfig", trl.SFTConfig, UnslothSFTConfig),
}


def args_on_both_backends(monkeypatch, run: str, tmp_path, overrides=()) -> tuple[Any, Any]:
    """The run's trainer args on the unsloth backend (trl's class patched, as at ``import unsloth``) and on TRL's."""
    make_args, name, trl_class, unsloth_class = RUNS[run]
    config = load_train_config(SMOKE, [f"output_dir={tmp_path}", *overrides])
    monkeypatch.setattr(trl, name, trl_class)
    trl_args = make_args(config)
    monkeypatch.setattr(trl, name, unsloth_class)
    return make_args(config), trl_args


def differences(args: Any, reference: Any) -> dict[str, tuple[Any, Any]]:
    return {
        f.name: (getattr(args, f.name), getattr(reference, f.name))
        for f in dataclasses.fields(reference)
        if getattr(args, f.name) != getattr(reference, f.name)
    }


def test_the_stand_in_changes_what_unsloth_changes():
    """Its fields are TRL's; its __init__ defaults are not (so a check reading only the fields sees nothing)."""
    for unsloth_class, base in ((UnslothGRPOConfig, trl.GRPOConfig), (UnslothSFTConfig, trl.SFTConfig)):
        assert {f.name: f.default for f in dataclasses.fields(unsloth_class)} == {
            f.name: f.default for f in dataclasses.fields(base)
        }
        changed = changed_defaults(unsloth_class, base)
        assert {"gradient_accumulation_steps", "learning_rate", "weight_decay", "optim", "warmup_steps"} <= set(changed)
        bare = unsloth_class(output_dir="x", use_cpu=True, optim="adamw_torch")
        assert (bare.gradient_accumulation_steps, bare.warmup_steps) == (2, 0.1)


def test_unsloth_defaults_do_not_change_a_grpo_run(monkeypatch, tmp_path):
    args, trl_args = args_on_both_backends(monkeypatch, "grpo", tmp_path)
    assert type(args) is UnslothGRPOConfig  # the backend's class is still the one used
    assert args.gradient_accumulation_steps == 1 and args.weight_decay == 0.0
    assert args.optim == "adamw_torch_fused"  # TRL's default, not adamw_8bit
    assert args.learning_rate == 1e-4  # what configs/smoke.yaml sets wins over both defaults
    assert not set(differences(args, trl_args)) & {*TRAINING_ARGS, "seed", "logging_steps", "report_to"}
    set_by_user, _ = args_on_both_backends(monkeypatch, "grpo", tmp_path, ["grpo.gradient_accumulation_steps=3"])
    assert set_by_user.gradient_accumulation_steps == 3


def test_unsloth_defaults_do_not_change_an_sft_run(monkeypatch, tmp_path):
    args, trl_args = args_on_both_backends(monkeypatch, "sft", tmp_path)
    assert type(args) is UnslothSFTConfig
    assert args.gradient_accumulation_steps == 1 and args.optim == "adamw_torch_fused"
    assert not set(differences(args, trl_args)) & {*TRAINING_ARGS, "seed", "logging_steps", "report_to"}


@pytest.mark.parametrize("run", ["grpo", "sft"])
def test_no_unsloth_default_reaches_a_run(monkeypatch, tmp_path, run):
    """Not only TRAINING_ARGS: warmup_steps, vllm_importance_sampling_correction (GRPO), padding_free (SFT),
    generation_kwargs, torch_empty_cache_steps, the eval batch settings... are TRL's on both backends (issue #77)."""
    args, trl_args = args_on_both_backends(monkeypatch, run, tmp_path)
    assert differences(args, trl_args) == {}
    assert args.warmup_steps == trl_args.warmup_steps != UNSLOTH_DEFAULTS["warmup_steps"]


@pytest.mark.parametrize(
    ("run", "key", "value"),
    [
        ("grpo", "warmup_steps", 5),
        ("grpo", "vllm_importance_sampling_correction", False),
        ("grpo", "gradient_accumulation_steps", 2),
        ("sft", "warmup_steps", 5),
        ("sft", "torch_empty_cache_steps", 250),
    ],
)
def test_a_value_the_config_sets_wins_on_both_backends(monkeypatch, tmp_path, run, key, value):
    """What the config's section sets is kept, including a value that happens to be Unsloth's default."""
    args, trl_args = args_on_both_backends(monkeypatch, run, tmp_path, [f"{run}.{key}={value}"])
    assert getattr(args, key) == getattr(trl_args, key) == value
    assert differences(args, trl_args) == {}


def test_trl_defaults_of_trl_class_are_only_the_training_args():
    """On TRL's own class nothing differs, so only TRAINING_ARGS are passed (their TRL values)."""
    from knowrl.trl_args import trl_defaults

    for base in (trl.GRPOConfig, trl.SFTConfig):
        names = {f.name for f in dataclasses.fields(base)}
        assert set(trl_defaults(base)) == set(TRAINING_ARGS) & names
        unsloth_class = UnslothGRPOConfig if base is trl.GRPOConfig else UnslothSFTConfig
        passed = trl_defaults(unsloth_class)
        assert set(changed_defaults(unsloth_class, base)) & names <= set(passed)
        fields = {f.name: f.default for f in dataclasses.fields(base)}
        assert all(passed[name] == fields[name] for name in passed)


UNSLOTH_SIGNATURES = """
import inspect, json, sys
import unsloth  # noqa: F401 - patches trl's config classes, as a run on the unsloth backend does
import trl
out = {}
for name in ("GRPOConfig", "SFTConfig"):
    cls = getattr(trl, name)
    base = next(c for c in cls.__mro__ if c.__module__.startswith("trl."))
    ours, trls = inspect.signature(cls.__init__).parameters, inspect.signature(base.__init__).parameters
    out[name] = {
        "class": cls.__name__,
        "changed": {
            k: repr(p.default) for k, p in ours.items()
            if k in trls and p.default is not inspect.Parameter.empty and repr(p.default) != repr(trls[k].default)
        },
    }
json.dump(out, sys.stdout)
"""


def test_the_stand_in_matches_the_installed_unsloth():
    """Where unsloth is installed (the gpu extra), its real config classes change the defaults the stand-in does:
    a newer unsloth changing others fails here, so the tests above keep checking what a run really gets."""
    if importlib.util.find_spec("unsloth") is None:
        pytest.skip("unsloth is not installed (the gpu extra brings it): the stand-in is checked against its source")
    proc = subprocess.run([sys.executable, "-c", UNSLOTH_SIGNATURES], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        pytest.skip(f"unsloth is installed but does not import here (it needs a GPU): {proc.stderr[-300:]}")
    real = json.loads(proc.stdout)
    for name, unsloth_class in (("GRPOConfig", UnslothGRPOConfig), ("SFTConfig", UnslothSFTConfig)):
        assert real[name]["class"] == unsloth_class.__name__
        leave_out = UNSLOTH_SENTINELS.get(name, set())
        base = getattr(trl, name)
        real_changed = {k: v for k, v in real[name]["changed"].items() if k not in leave_out}
        assert real_changed == changed_defaults(unsloth_class, base), name


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
