"""Hostile pass 58 (run at be2f140, issue #74), finding J1: ``knowrl.train --set grpo.adam_beta1=1.5`` (and
``adam_beta2=2``, ``adam_epsilon=-1``, ``sft.adam_beta1=1.5``) exited 2 only after the model loaded, with torch's
"Invalid beta parameter at index 0" naming no key. The optimizer's values are now range-checked when the config
loads, one line naming the key. Findings J6 and J8: a word TRL or transformers does not know (``sft.lr_scheduler_type``,
``sft.optim``, ``grpo.loss_type``, ``grpo.importance_sampling_level``) failed after the model loaded (``loss_type``:
after step 1 generated); they are now checked at config load against the libraries' own choices. Failed on
e5f1e43."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl.config import CHOICES, load_train_config

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


@pytest.mark.parametrize(
    ("setting", "allowed"),
    [
        ("sft.lr_scheduler_type=bogus", "linear, cosine, "),
        ("grpo.lr_scheduler_type=bogus", "linear, cosine, "),
        ("sft.optim=bogus", "adamw_torch, adamw_torch_fused, "),
        ("grpo.optim=Adamw_torch", "adamw_torch, adamw_torch_fused, "),  # transformers' names are exact
        ("grpo.save_strategy=sometimes", "no, steps, epoch, best"),
        ("grpo.loss_type=bogus", "grpo, dr_grpo, dapo, bnpo, cispo, sapo, luspo, vespo"),
        ("grpo.loss_type=1", "grpo, dr_grpo, dapo, "),
        ("grpo.importance_sampling_level=bogus", "token, sequence"),
        ("grpo.scale_rewards=std", "group, batch, none, true, false"),
        ("grpo.multi_objective_aggregation=mean", "sum_then_normalize, normalize_then_sum"),
        ("sft.loss_type=dapo", "nll, dft, chunked_nll"),
    ],
)
def test_a_word_the_libraries_do_not_know_is_refused_naming_the_key_and_its_choices(setting: str, allowed: str) -> None:
    key, value = setting.split("=")
    with pytest.raises(ValueError, match=f"{re.escape(key)} must be one of {allowed}.*; got '?{value}'?$"):
        load_train_config(SMOKE, [setting])


def test_the_words_they_know_still_load() -> None:
    words = ["grpo.loss_type=dr_grpo", "grpo.importance_sampling_level=sequence", "grpo.scale_rewards=false"]
    words += ["grpo.optim=adamw_torch", "sft.lr_scheduler_type=cosine", "grpo.save_strategy=no", "sft.loss_type=dft"]
    config = load_train_config(SMOKE, [*words, "grpo.multi_objective_aggregation=normalize_then_sum"])
    assert config.grpo["loss_type"] == "dr_grpo" and config.grpo["save_strategy"] == "no"


def test_the_copied_choices_are_the_ones_trl_compares_against() -> None:
    """TRL declares these as plain ``str``; its trainers and configs compare them with ``==``/``in``. Held to the
    installed TRL (1.16 on CPU, 1.15 with the GPU extra: the same words in both); a key the installed TRL's config
    does not declare is never checked (``check_trl_values`` reads only declared fields), so it is left out."""
    import dataclasses

    from trl import GRPOConfig, SFTConfig

    declared = {s: {f.name for f in dataclasses.fields(c)} for s, c in (("grpo", GRPOConfig), ("sft", SFTConfig))}
    trainer = Path(importlib.util.find_spec("trl").submodule_search_locations[0]) / "trainer"
    for (section, key), choices in CHOICES.items():
        if key not in declared[section]:
            continue
        text = "".join((trainer / f"{section}_{part}.py").read_text() for part in ("config", "trainer"))
        found: set[str] = set()
        for compared in re.finditer(rf"\.{key} (?:==|!=|in|not in) (\[[^\]]*\]|\([^)]*\)|\"\w+\")", text):
            found |= set(re.findall(r'"(\w+)"', compared.group(1)))
        assert found == {c for c in choices if isinstance(c, str)}, (section, key)


def _run(module: str, setting: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, "--config", str(SMOKE), "--set", setting, "--set", f"output_dir={out}"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize(
    ("module", "setting", "says"),
    [
        ("knowrl.train", "grpo.adam_beta1=1.5", "grpo.adam_beta1 must be at least 0 and below 1"),
        ("knowrl.train", "grpo.loss_type=bogus", "grpo.loss_type must be one of grpo, "),
        ("knowrl.sft", "sft.lr_scheduler_type=bogus", "sft.lr_scheduler_type must be one of linear, "),
    ],
)
def test_the_job_exits_2_naming_the_key_before_the_model_loads(
    tmp_path: Path, module: str, setting: str, says: str
) -> None:
    out = tmp_path / "run"
    done = _run(module, setting, out)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and says in done.stderr
    assert "Loading weights" not in done.stderr and not out.exists()
