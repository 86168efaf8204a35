"""Hostile pass 59 (run at bc3ecef, issue #74), the training job's findings; each test failed on bc3ecef.

- J1 data loss: ``logging.reward_log`` naming the run's own data file (or ``../notes.jsonl``) moved the file aside
  and wrote the log in its place, exit 0. The log is a ``.jsonl`` name in output_dir, none of the run's inputs.
- J2/J3 data loss: ``pipeline.report`` over a user's RESULTS.md or the run's own held-out data, and the inspector
  page copied over a user's ``RESULTS-rewards.html``, exit 0. Checked with the report writers' ownership rule
  before the model loads: a page this project wrote is replaced, anything else refused naming ``pipeline.report``.
- J7/J10 silent: ``pipeline.report`` on a one-stage GRPO config wrote nothing, and ``evaluate_before_after``
  without ``data.eval`` evaluated nothing, exit 0: both refused up front.
- J8 late: ``logging.report_to: [tensorboard]`` (not installed) and ``[bogus]`` failed after the model loaded;
  now checked when the config loads, against transformers' integrations and their availability helpers.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl import sft, train
from knowrl.config import ConfigError, load_train_config

ROOT = Path(__file__).resolve().parents[1]
SMOKE_RL = ROOT / "configs" / "data" / "smoke_rl.jsonl"
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
PIPELINE = "pipeline: {evaluate_before_after: true, eval_max_new_tokens: 8, eval_samples: 0%s}"


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


def test_j2_pipeline_report_over_a_users_file_is_refused_before_the_model_loads(tmp_path):
    mine = tmp_path / "proj" / "RESULTS.md"
    mine.parent.mkdir()
    mine.write_text("# My results\nkeep me\n")
    done = _job(_config(tmp_path, PIPELINE % f", report: {mine}", held_out=True))
    assert done.returncode == 2 and "pipeline.report" in done.stderr and str(mine) in done.stderr, done.stderr[-2000:]
    assert done.stderr.count("\n") == 1 and "Loading weights" not in done.stderr
    assert mine.read_text() == "# My results\nkeep me\n" and sorted(os.listdir(mine.parent)) == ["RESULTS.md"]


def test_j2_pipeline_report_on_an_input_a_folder_or_a_device_is_refused(tmp_path, refused):
    cfg = _config(tmp_path, PIPELINE % "", held_out=True)
    for report in (tmp_path / "heldout.jsonl", cfg, tmp_path, Path(os.devnull), tmp_path / "run" / "pipeline.json"):
        err = refused(cfg, f"pipeline.report={report}")
        assert "pipeline.report" in err and str(report) in err
    assert (tmp_path / "heldout.jsonl").read_bytes() == SMOKE_RL.read_bytes()


def test_j3_a_users_file_named_like_the_pages_beside_the_report_is_refused(tmp_path, refused):
    proj = tmp_path / "proj"
    proj.mkdir()
    cfg = _config(tmp_path, PIPELINE % f", report: {proj / 'RESULTS.md'}", held_out=True)
    for name in ("RESULTS-rewards.html", "RESULTS_reward_curve.png"):
        (proj / name).write_text("<html>my own page</html>\n")
        err = refused(cfg)
        assert "pipeline.report" in err and name in err
        assert (proj / name).read_text() == "<html>my own page</html>\n"
        (proj / name).unlink()
    assert not (proj / "RESULTS.md").exists()


def _our_pages(tmp_path: Path, report: Path):
    """What a pipeline run leaves at ``report`` and beside it, written by the run's own writers (no model)."""
    from knowrl.pipeline_report import StageClock, write_report
    from knowrl.reward_log import reward_curve
    from knowrl.run_outputs import report_files
    from reward_engine.inspect import write_page

    config = load_train_config(_config(tmp_path, PIPELINE % f", report: {report}", held_out=True))
    out = Path(config.output_dir)
    out.mkdir()
    rows = [
        {"step": step, "question": "Q?", "answers": ["A"], "completion": "x", "total": 1.0, "format": 1.0}
        for step in (0, 1)
    ]
    (out / "rewards.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    curve = reward_curve(out / "rewards.jsonl", out / "reward_curve.png")
    _, page, _ = report_files(report)
    page.parent.mkdir()
    write_page(out / "rewards.jsonl", page, None)
    result = {"reward_curve": str(curve), "inspector": [str(page)], "cached_at_start": []}
    write_report(report, "python -m knowrl.train", config, StageClock(), result)
    return config


def test_j2_j3_the_projects_own_report_and_pages_are_replaced(tmp_path, caplog):
    from knowrl.pipeline import checked_report
    from knowrl.run_outputs import check_report, report_files

    report = tmp_path / "proj" / "RESULTS.md"
    config = _our_pages(tmp_path, report)
    files = report_files(report)
    assert all(path.is_file() for path in files)
    check_report(config)  # a rerun replaces what an earlier run wrote
    assert checked_report(config) == str(report)
    page, curve = files[1:]
    curve.write_bytes(curve.read_bytes().replace(b"knowrl reward curve", b"someone's title!!!!"))
    page.write_text(page.read_text().replace('name="generator"', 'name="someone"'))
    check_report(config)  # pages drawn before they carried a mark, beside a report of ours
    report.write_text("# My results\n")
    with pytest.raises(ConfigError, match="pipeline.report"):
        check_report(config)
    assert checked_report(config) is None and "report is in" in caplog.text  # at write time: left alone
    assert report.read_text() == "# My results\n"


def test_j7_pipeline_report_on_a_one_stage_grpo_config_is_refused(tmp_path, refused, caplog):
    report = tmp_path / "RESULTS.md"
    err = refused(_config(tmp_path, f"pipeline: {{report: {report}}}"))
    assert "pipeline.report" in err and "one GRPO stage" in err and not report.exists()
    with pytest.raises(AssertionError, match="reached the model"):  # other pipeline keys: named, not refused
        train.main(["--config", str(_config(tmp_path, "pipeline: {eval_samples: 2}"))])
    assert "pipeline.eval_samples: not read" in caplog.text


@pytest.mark.parametrize(
    ("lines", "key"),
    [
        (["pipeline: {evaluate_before_after: true, eval_max_new_tokens: 8}"], "data.eval"),
        (["pipeline: {cold_start_sft: true}"], "data.sft"),
    ],
)
def test_j10_a_pipeline_stage_without_its_data_is_refused(tmp_path, refused, lines, key):
    err = refused(_config(tmp_path, *lines))
    assert err.startswith(f"error: {key}: ") and not (tmp_path / "run").exists()


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


def test_the_documented_demo_command_may_replace_its_committed_report_and_pages(tmp_path):
    """docs/benchmarks.md's ``--set pipeline.report=../bench/results/demo.md``: the committed page and the two
    files beside it were written by the pipeline (the last two before they carried a mark)."""
    from knowrl.run_outputs import check_report

    demo = ["pipeline.report=../bench/results/demo.md", f"output_dir={tmp_path / 'run'}"]
    check_report(load_train_config(ROOT / "configs" / "demo.yaml", demo))
