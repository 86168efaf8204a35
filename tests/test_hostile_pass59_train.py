"""Hostile pass 59 (run at bc3ecef, issue #74), the training job's findings; each test failed on bc3ecef.

- J1 data loss: ``logging.reward_log`` naming the run's own data file (or ``../notes.jsonl``) moved the file aside
  and wrote the log in its place, exit 0. The log is a ``.jsonl`` name in output_dir, none of the run's inputs.
- J8 late: ``logging.report_to: [tensorboard]`` (not installed) and ``[bogus]`` failed after the model loaded;
  now checked when the config loads, against transformers' integrations and their availability helpers.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl import sft, train
from knowrl.config import load_train_config

ROOT = Path(__file__).resolve().parents[1]
SMOKE_RL = ROOT / "configs" / "data" / "smoke_rl.jsonl"
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")


def _config(tmp: Path, *lines: str, held_out: bool = False) -> Path:
    """The pass's TRAIN shape (tiny model, one GRPO step, offline reward) with ``lines`` added; its data copied."""
    shutil.copyfile(SMOKE_RL, tmp / "train.jsonl")
    data = f"train: {tmp / 'train.jsonl'}"
    if held_out:
        shutil.copyfile(SMOKE_RL, tmp / "heldout.jsonl")
        data += f", eval: {tmp / 'heldout.jsonl'}"
    cfg = tmp / "train.yaml"
    cfg.write_text(
        "\n".join(
            [
                "model: {name_or_path: tiny, backend: transformers, dtype: float32}",
                "lora: {r: 4, alpha: 8, dropout: 0.0, target_modules: [q_proj, v_proj]}",
                f"data: {{{data}}}",
                "reward: {preset: knowrl, grader: offline, factuality: {enabled: false}, step_timeout_s: 60}",
                "grpo: {max_steps: 1, per_device_train_batch_size: 4, num_generations: 4, max_completion_length: 8, "
                "learning_rate: 1.0e-4, beta: 0.0, save_steps: 1, save_total_limit: 2, temperature: 1.0}",
                *lines,
                f"output_dir: {tmp / 'run'}",
                "seed: 0",
                "",
            ]
        )
    )
    return cfg


@pytest.fixture
def refused(monkeypatch, capsys):
    """``knowrl.train``'s main in this process, failing the test if the job got as far as the model."""

    def never(*_args, **_kwargs):
        raise AssertionError("the job reached the model before refusing")

    monkeypatch.setattr(train, "check_model_path", never)

    def run(cfg: Path, *sets: str, module=train) -> str:
        code = module.main(["--config", str(cfg), *(f"--set={s}" for s in sets)])
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
        return err

    return run


def _job(cfg: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "knowrl.train", "--config", str(cfg)],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_j1_the_reward_log_over_the_runs_own_data_is_refused_before_the_model_loads(tmp_path):
    cfg = _config(tmp_path, f"logging: {{reward_log: {tmp_path / 'train.jsonl'}}}")
    done = _job(cfg)
    assert done.returncode == 2 and "logging.reward_log" in done.stderr, done.stderr[-2000:]
    assert done.stderr.count("\n") == 1 and "Loading weights" not in done.stderr
    assert (tmp_path / "train.jsonl").read_bytes() == SMOKE_RL.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.jsonl", "train.yaml"]


@pytest.mark.parametrize(
    "name", ["../notes.jsonl", "~/notes.jsonl", "notes.json", "final/r.jsonl", "checkpoint-2/r.jsonl"]
)
def test_j1_a_reward_log_out_of_output_dir_or_in_its_run_folders_is_refused(tmp_path, refused, name):
    (tmp_path / "notes.jsonl").write_text("mine\n")
    err = refused(_config(tmp_path), f"logging.reward_log={name}")
    assert "logging.reward_log" in err and name in err
    assert (tmp_path / "notes.jsonl").read_text() == "mine\n"


def test_j1_a_reward_log_that_resolves_to_an_input_or_out_of_output_dir_is_refused(tmp_path, refused):
    cfg = _config(tmp_path)
    run = tmp_path / "run"
    run.mkdir()
    shutil.copyfile(SMOKE_RL, run / "data.jsonl")  # an input kept in output_dir
    err = refused(cfg, "logging.reward_log=data.jsonl", f"data.train={run / 'data.jsonl'}")
    assert "logging.reward_log" in err and "data.train" in err
    (tmp_path / "notes.jsonl").write_text("mine\n")
    (run / "rewards.jsonl").symlink_to(tmp_path / "notes.jsonl")  # a resume rewrites the log through the link
    err = refused(cfg)
    assert "logging.reward_log" in err and "leads out of output_dir" in err
    (run / "rewards.jsonl").unlink()
    (run / "rewards.jsonl").mkdir()
    assert "not a plain file" in refused(cfg)
    assert (tmp_path / "notes.jsonl").read_text() == "mine\n" and (
        run / "data.jsonl"
    ).read_bytes() == SMOKE_RL.read_bytes()


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("[tensorboard]", "tensorboard is not available here"),
        ("[bogus]", "'bogus' is not one of transformers' integrations"),
        ("[none, tensorboard]", "none stands alone"),
    ],
)
@pytest.mark.parametrize("module", [train, sft], ids=["train", "sft"])
def test_j8_report_to_is_checked_when_the_config_loads(tmp_path, refused, monkeypatch, value, says, module):
    from transformers.integrations import integration_utils

    monkeypatch.setattr(integration_utils, "is_tensorboard_available", lambda: False)  # as on the pass's machine
    err = refused(_config(tmp_path), f"logging.report_to={value}", module=module)
    assert "logging.report_to" in err and says in err and not (tmp_path / "run").exists()


def test_j8_every_integration_transformers_knows_has_its_availability_helper(tmp_path):
    from transformers.integrations import integration_utils

    from knowrl.report_to import AVAILABLE

    assert set(AVAILABLE) == set(integration_utils.INTEGRATION_TO_CALLBACK)
    assert all(callable(getattr(integration_utils, helper)) for helper in AVAILABLE.values())
    cfg = _config(tmp_path)
    for value, read in (("[]", []), ("[none]", ["none"]), ("[all]", ["all"])):
        assert load_train_config(cfg, [f"logging.report_to={value}"]).logging.report_to == read
