"""Hostile pass 65's findings (issue #74), as variants of its cases (the pass's own calls stay out of the tests): a
second launch with ``--overwrite`` emptied a running run's ``output_dir`` and trained into it; ``output_dir: ~/...``
and ``${UNSET}/...`` made folders named "~" and "${UNSET}"; a pipeline with a typo in ``data.eval`` trained every
stage, then a traceback; ``--resume`` over a checkpoint cut short mid-save was a raw "[Errno 2]"; a claim giving a
deed to someone the passage names in another role was supported. Every assertion but the guards failed on 3ccea89."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from knowrl.config import ConfigError, load_train_config
from reward_engine.offline import facts
from tests.helpers import JOB_ENV, REPO, one_error_line, run_job, tree_hashes

SMOKE = REPO / "configs" / "smoke.yaml"


def _config(tmp_path: Path, **changes: object) -> Path:
    """configs/smoke.yaml with ``changes`` (dotted keys), its data paths made absolute, written in ``tmp_path``."""
    data = yaml.safe_load(SMOKE.read_text())
    for key in ("train", "eval", "sft"):
        if data.get("data", {}).get(key):
            data["data"][key] = str((SMOKE.parent / data["data"][key]).resolve())
    if data.get("kb", {}).get("build_from"):
        data["kb"]["build_from"] = str((SMOKE.parent / data["kb"]["build_from"]).resolve())
    for dotted, value in changes.items():
        *parents, last = dotted.split(".")
        node = data
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


# -- a run's folder is its own while it runs ---------------------------------------------------------------------------
def test_a_second_launch_into_a_running_run_s_folder_is_refused_and_removes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = run_job("-m", "knowrl.train", "--config", str(SMOKE), "--set", f"output_dir={out}", timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    before = tree_hashes(out)
    hold = (
        "import sys, time; from pathlib import Path; from knowrl.run_lock import hold_output_dir; "
        "held = hold_output_dir(Path(sys.argv[1])); print('held', flush=True); time.sleep(120)"
    )  # the first run, still writing its folder
    holder = subprocess.Popen(
        [sys.executable, "-c", hold, str(out)], cwd=REPO, env=JOB_ENV, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        again = run_job("-m", "knowrl.train", "--config", str(SMOKE), "--set", f"output_dir={out}", "--overwrite")
    finally:
        holder.kill()
        holder.wait()
    assert "in use" in one_error_line(again, "output_dir")
    assert tree_hashes(out) == before
    spelt = f"output_dir={out.parent}/sub/../run"  # guard: the holder gone, its lock went with it
    (out.parent / "sub").mkdir()
    later = run_job("-m", "knowrl.train", "--config", str(SMOKE), "--set", spelt, "--overwrite", timeout=300)
    assert later.returncode == 0, later.stderr[-2000:]


def test_the_lock_is_keyed_on_the_real_folder_and_a_refused_claim_frees_it(tmp_path: Path) -> None:
    from knowrl.run_lock import hold_output_dir

    (tmp_path / "run").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "run")
    hold = (
        "import sys, time; from pathlib import Path; from knowrl.run_lock import hold_output_dir; "
        "held = hold_output_dir(Path(sys.argv[1])); print('held', flush=True); time.sleep(120)"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", hold, str(tmp_path / "run")], cwd=REPO, env=JOB_ENV, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for spelt in (tmp_path / "link", tmp_path / "sub" / ".." / "run"):  # another spelling, the same folder
            with pytest.raises(ConfigError, match="in use"):
                hold_output_dir(spelt)
    finally:
        holder.kill()
        holder.wait()
    config = load_train_config(_config(tmp_path, output_dir=str(tmp_path / "run"), seed=-0))
    (tmp_path / "run" / "summary.json").write_text("{}")  # someone's file: the claim is refused ...
    from knowrl.output_dir import claim_output_dir

    with pytest.raises(ConfigError):
        claim_output_dir(config, resume=False, overwrite=False)
    checker = subprocess.run(  # ... and the folder is free again at once, for another process
        [sys.executable, "-c", hold.replace("time.sleep(120)", "pass"), str(tmp_path / "run")],
        cwd=REPO,
        env=JOB_ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checker.returncode == 0 and checker.stdout.strip() == "held", checker.stderr[-2000:]


# -- output_dir as a shell reads it --------------------------------------------------------------------------------
def test_output_dir_expands_home_and_set_variables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("KNOWRL_TEST_SCRATCH", str(tmp_path / "scratch"))
    config = load_train_config(_config(tmp_path, output_dir="~/runs/a"))
    assert config.output_dir == str(tmp_path / "home" / "runs" / "a")
    config = load_train_config(_config(tmp_path, output_dir="${KNOWRL_TEST_SCRATCH}/b"))
    assert config.output_dir == str(tmp_path / "scratch" / "b")


def test_an_unset_variable_in_a_path_is_refused_naming_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KNOWRL_TEST_UNSET", raising=False)
    with pytest.raises(ConfigError, match=r"output_dir: \$\{KNOWRL_TEST_UNSET\}/runs: \$KNOWRL_TEST_UNSET is not set"):
        load_train_config(_config(tmp_path, output_dir="${KNOWRL_TEST_UNSET}/runs"))
    with pytest.raises(ConfigError, match=r"data.eval: .*\$KNOWRL_TEST_UNSET is not set"):
        load_train_config(_config(tmp_path, **{"data.eval": "$KNOWRL_TEST_UNSET/heldout.jsonl"}))
    with pytest.raises(ConfigError, match=r"\$KNOWRL_TEST_UNSET is not set"):
        load_train_config(_config(tmp_path, **{"reward.factuality.kb_path": "$KNOWRL_TEST_UNSET/kb.db"}))
    assert not list(tmp_path.glob("$*")) and not (Path.cwd() / "${KNOWRL_TEST_UNSET}").exists()


# -- a pipeline's data is there before any stage ---------------------------------------------------------------------
def test_a_pipeline_with_a_missing_data_file_is_refused_before_any_stage(tmp_path: Path) -> None:
    out = tmp_path / "run"
    config = _config(
        tmp_path,
        **{
            "pipeline.evaluate_before_after": True,
            "data.eval": str(tmp_path / "held_out.jsonl"),
            "output_dir": str(out),
        },
    )
    line = one_error_line(run_job("-m", "knowrl.train", "--config", str(config)), "data.eval")
    assert "held_out.jsonl" in line and not out.exists()


# -- --resume over a checkpoint cut short ----------------------------------------------------------------------------
def test_resume_over_a_checkpoint_cut_short_names_it_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    sets = ["--set", f"output_dir={out}", "--set", "grpo.max_steps=2", "--set", "grpo.save_steps=1"]
    done = run_job("-m", "knowrl.train", "--config", str(SMOKE), *sets, timeout=300)
    assert done.returncode == 0 and (out / "checkpoint-2").is_dir(), done.stderr[-2000:]
    (out / "checkpoint-2" / "trainer_state.json").unlink()  # the run stopped while saving it
    line = one_error_line(run_job("-m", "knowrl.train", "--config", str(SMOKE), *sets, "--resume"), "--resume")
    assert "checkpoint-2" in line and "checkpoint-1" in line and "Errno" not in line


# -- a deed given to someone the passage names in another role --------------------------------------------------------
PENICILLIN = (
    "Penicillin was discovered by Alexander Fleming in 1928 and developed into a drug by Howard Florey and Ernst Chain."
)


def test_a_deed_given_to_a_name_of_another_role_is_not_supported() -> None:
    assert not facts.supported(
        "Howard Florey discovered penicillin, later developed by Alexander Fleming.", [PENICILLIN]
    )
    assert not facts.supported("Ernst Chain discovered penicillin.", [PENICILLIN])
    assert facts.supported("Alexander Fleming discovered penicillin in 1928.", [PENICILLIN])  # guard
    assert facts.supported("Penicillin was developed into a drug by Florey and Chain.", [PENICILLIN])  # guard
