"""Hostile pass 56 (issue #74), job finding J6: an ``--adapter`` trained on another base. ``knowrl.evaluate
--model tiny-vllm --adapter A`` and ``knowrl.merge --base tiny-vllm --adapter A`` with A trained on ``tiny`` ended
in torch's "size mismatch for ...lora_B..." traceback after the model loaded; now one line naming ``--adapter``,
the base A records and the base given, before any weight loads (``knowrl/adapters.py``). What is compared is each
adapted layer's size against the base's, never names: a copy of the base elsewhere, or a base recorded under
Unsloth's name, still loads.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
DATA = ROOT / "configs" / "data" / "smoke_rl.jsonl"


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A LoRA adapter on the tiny model (q_proj, v_proj), as training saves one."""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    from knowrl.models import resolve_model_path

    base = AutoModelForCausalLM.from_pretrained(resolve_model_path("tiny"))
    model = get_peft_model(base, LoraConfig(r=4, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
    folder = tmp_path_factory.mktemp("run") / "final"
    model.save_pretrained(folder)
    resolve_model_path("tiny-vllm")  # built here, so the job's stderr is its own (a fresh cache builds it first)
    return folder


def _refused(done: subprocess.CompletedProcess, adapter: Path, flag: str) -> None:
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-3000:]
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith(f"error: --adapter {adapter} was trained on "), line
    recorded = json.loads((adapter / "adapter_config.json").read_text())["base_model_name_or_path"]
    assert f"trained on {recorded}, not on {flag} tiny-vllm: its model.layers.0.self_attn.q_proj maps 32 -> 32" in line


@pytest.mark.parametrize(
    ("job", "flag", "out"),
    [("knowrl.evaluate", "--model", ("--data", str(DATA), "--out")), ("knowrl.merge", "--base", ("--out",))],
)
def test_an_adapter_of_another_base_is_one_line(tmp_path: Path, adapter: Path, job, flag, out) -> None:
    argv = [sys.executable, "-m", job, flag, "tiny-vllm", "--adapter", str(adapter), *out, str(tmp_path / "out")]
    _refused(subprocess.run(argv, env=ENV, capture_output=True, text=True, timeout=300), adapter, flag)
    assert not any((tmp_path / "out").glob("*"))  # no report, no merged model


def test_task_eval_refuses_it_too(tmp_path: Path, adapter: Path, capsys) -> None:
    from knowrl.task_eval import main

    config = ["--config", str(ROOT / "configs" / "reasoning_gym_cpu.yaml"), "--set=model.name_or_path=tiny-vllm"]
    assert main([*config, "--adapter", str(adapter), "--out", str(tmp_path / "eval")]) == 2
    assert "--adapter" in capsys.readouterr().err and not (tmp_path / "eval" / "report.json").exists()


@pytest.mark.parametrize("job", ["knowrl.train", "knowrl.sft"])
def test_a_run_that_starts_from_it_refuses_it(tmp_path: Path, adapter: Path, job: str, capsys) -> None:
    """``model.adapter`` of another base: refused before the output_dir is claimed (or cleared by --overwrite)."""
    import importlib

    sets = ["model.name_or_path=tiny-vllm", f"model.adapter={adapter}", f"output_dir={tmp_path / 'run'}"]
    argv = ["--config", str(ROOT / "configs" / "smoke.yaml"), *(f"--set={s}" for s in sets)]
    assert importlib.import_module(job).main(argv) == 2
    assert f"error: model.adapter {adapter} was trained on" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_the_same_shapes_under_another_name_still_load(tmp_path: Path, adapter: Path) -> None:
    from knowrl.adapters import adapter_base_problem
    from knowrl.models import resolve_model_path

    flags = ("--adapter", "--model")
    assert adapter_base_problem(str(adapter), "tiny", 0, flags) is None
    copy = tmp_path / "my-base"  # the base copied elsewhere: another folder name
    shutil.copytree(resolve_model_path("tiny"), copy)
    assert adapter_base_problem(str(adapter), str(copy), 0, flags) is None
    renamed = tmp_path / "unsloth"  # Unsloth records its own copy's name as the base
    shutil.copytree(adapter, renamed)
    config = json.loads((renamed / "adapter_config.json").read_text())
    (renamed / "adapter_config.json").write_text(json.dumps({**config, "base_model_name_or_path": "unsloth/x-bnb"}))
    assert adapter_base_problem(str(renamed), "tiny", 0, flags) is None
    assert "was trained on unsloth/x-bnb, not on --model tiny-vllm" in adapter_base_problem(
        str(renamed), "tiny-vllm", 0, flags
    )
