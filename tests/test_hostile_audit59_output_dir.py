"""Hostile audit 59 (issue #74 item 2), holes H3, H4, H5 and H9: who owns a training run's ``output_dir``. Closed
here (each test failed on bc3ecef):

- H3: a run into a folder of the user's files replaced their ``README.md`` with TRL's model card (``output_dir=..``
  the project's own README);
- H4: the pipeline's and task_eval's ``report.md``, ``pipeline.json``, ``data/`` ... replaced same-named files;
- H5: ``--overwrite`` removed any ``final/``, ``checkpoint-N/`` and ``summary.json`` as "an earlier run";
- H9: a rerun after an interrupted pipeline wrote over its ``sft/``, ``sft-merged/`` and ``data/`` unrefused.

One rule: ``output_dir`` is new, empty, or a folder a knowrl run claimed (its ``knowrl-run.json``), or one an
older run made that holds only what such a run leaves; anything else is refused before the model loads.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl.config import ConfigError, load_train_config
from knowrl.output_dir import MARK, TRL_CARD, claim_output_dir, run_inputs

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
DATA = ROOT / "configs" / "data"


def _config(tmp_path: Path, out: Path, **more: object):
    config = {
        "model": {"name_or_path": "tiny", "backend": "transformers", "dtype": "float32"},
        "lora": {"r": 4, "alpha": 8, "dropout": 0.0, "target_modules": ["q_proj", "v_proj"]},
        "data": {"train": str(DATA / "smoke_rl.jsonl")},
        "reward": {"preset": "knowrl", "grader": "offline", "factuality": {"enabled": False}},
        "grpo": {"max_steps": 1, "per_device_train_batch_size": 4, "num_generations": 4, "max_completion_length": 8},
        "output_dir": str(out),
        "seed": 0,
        **more,
    }
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    return path


def _tree(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


def _train(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "knowrl.train", *args],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _refused(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and "Loading weights" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if "error" in line]
    assert len(lines) == 1 and all(word in lines[0] for word in words), done.stderr


def _claim(tmp_path: Path, out: Path, resume: bool = False, overwrite: bool = False, **more: object) -> None:
    config = load_train_config(_config(tmp_path, out, **more), [])
    claim_output_dir(config, resume, overwrite)


@pytest.mark.parametrize("flag", [[], ["--overwrite"]])
def test_a_users_readme_is_refused_before_the_model_loads(tmp_path: Path, flag: list[str]) -> None:
    """H3: old: TRL's model card replaced README.md at the first checkpoint, flag or not."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "README.md").write_text("# my project\n")
    done = _train("--config", str(_config(tmp_path, mine)), *flag)
    _refused(done, f"output_dir {mine}", MARK, "README.md")
    assert _tree(mine) == {"README.md": hashlib.sha256(b"# my project\n").hexdigest()}


def test_the_projects_own_folder_is_refused(tmp_path: Path) -> None:
    """H3: ``output_dir: ..`` (configs/..) took the repository root, README.md and all."""
    with pytest.raises(ConfigError, match=f"output_dir {ROOT} holds files that no knowrl run made"):
        _claim(tmp_path, ROOT, overwrite=True)
    assert not (ROOT / MARK).exists()


def test_pipeline_reports_never_replace_a_users_files(tmp_path: Path) -> None:
    """H4: old: a pipeline route (evaluate_before_after) wrote report.md and data/ over the user's."""
    mine = tmp_path / "mine"
    (mine / "data").mkdir(parents=True)
    (mine / "report.md").write_text("notes\n")
    (mine / "data" / "train.jsonl").write_text("{}\n")
    before = _tree(mine)
    more = {"pipeline": {"evaluate_before_after": True}, "data": {"train": str(DATA / "smoke_rl.jsonl")}}
    for overwrite in (False, True):
        with pytest.raises(ConfigError, match="no knowrl run made"):
            _claim(tmp_path, mine, overwrite=overwrite, **more)
    assert _tree(mine) == before and not (mine / MARK).exists()


@pytest.mark.parametrize(
    "name, content",
    [("final/ch1.md", "draft\n"), ("summary.json", '{"total": 3}'), ("checkpoint-2/notes.txt", "mine\n")],
)
def test_overwrite_never_removes_a_users_final_checkpoint_or_summary(tmp_path: Path, name: str, content: str) -> None:
    """H5: old: ``--overwrite`` said "removed final" and ch1.md was gone."""
    mine = tmp_path / "mine"
    (mine / name).parent.mkdir(parents=True, exist_ok=True)
    (mine / name).write_text(content)
    done = _train("--config", str(_config(tmp_path, mine)), "--overwrite")
    _refused(done, f"output_dir {mine}", "no knowrl run made")
    assert (mine / name).read_text() == content and not (mine / MARK).exists()


def _legacy_run(out: Path) -> None:
    """What a GRPO run of an older knowrl left: no mark, only its products."""
    for folder in ("checkpoint-1", "checkpoint-2"):
        (out / folder).mkdir(parents=True)
        (out / folder / "trainer_state.json").write_text("{}")
        (out / folder / "adapter_config.json").write_text(json.dumps({"r": 4, "lora_alpha": 8}))
    (out / "final").mkdir()
    (out / "final" / "adapter_config.json").write_text("{}")
    summary = {"global_step": 2, "adapter": str(out / "final"), "training_loss": 0.0}
    (out / "summary.json").write_text(json.dumps(summary))
    (out / "README.md").write_text(f"# model\n{TRL_CARD}\n")
    (out / "rewards.jsonl").write_text("{}\n")
    (out / "rewards.20250101-120000.jsonl").write_text("{}\n")


def test_an_older_runs_folder_is_still_resumed_or_cleared(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _legacy_run(out)
    before = _tree(out)
    with pytest.raises(ConfigError, match="holds an earlier run .*--resume.*--overwrite"):
        _claim(tmp_path, out)
    assert _tree(out) == before
    _claim(tmp_path, out, overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == [MARK]
    assert json.loads((out / MARK).read_text())["job"] == "knowrl.train"
    (out / "notes.txt").write_text("mine\n")  # one foreign file: no longer an older run's folder
    _legacy_run(tmp_path / "other")
    (tmp_path / "other" / "notes.txt").write_text("mine\n")
    with pytest.raises(ConfigError, match="no knowrl run made"):
        _claim(tmp_path, tmp_path / "other", overwrite=True)
    assert (tmp_path / "other" / "final").is_dir()


def test_an_interrupted_pipeline_is_refused_and_overwrite_clears_it_all(tmp_path: Path) -> None:
    """H9: old: sft/, sft-merged/, data/ and heldout_before.json of a run killed before its first checkpoint were
    not "an earlier run": a rerun wrote over them unasked, and ``--overwrite`` left them."""
    out = tmp_path / "run"
    _claim(tmp_path, out)  # new: made and marked
    assert (out / MARK).is_file()
    for folder in ("sft/final", "sft-merged", "data"):
        (out / folder).mkdir(parents=True)
        (out / folder / "x").write_text("1")
    (out / "heldout_before.json").write_text("{}")
    with pytest.raises(ConfigError, match="holds an earlier run .*--overwrite"):
        _claim(tmp_path, out)
    data = out / "data" / "train.jsonl"  # an input of the run inside what --overwrite removes: refused
    data.write_bytes((DATA / "smoke_rl.jsonl").read_bytes())
    with pytest.raises(ConfigError, match="data.train .* output_dir"):
        _claim(tmp_path, out, overwrite=True, data={"train": str(data)})
    assert data.is_file()
    _claim(tmp_path, out, overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == [MARK]


def test_run_inputs_count_a_custom_sources_files(tmp_path: Path) -> None:
    """audit 59's note on H8: a ``factuality.source_options`` file was no input, so ``--overwrite`` could take it."""
    docs = tmp_path / "docs.jsonl"
    docs.write_text("{}\n")
    config = load_train_config(_config(tmp_path, tmp_path / "run"), [])
    config.reward.factuality.source_options = {"path": str(docs)}
    assert ("reward.factuality.source_options", str(docs)) in run_inputs(config)


def test_a_claimed_folder_is_marked_and_a_second_run_continues(tmp_path: Path) -> None:
    """The one run that trains: a new folder is marked; a second run is refused, --resume continues it, and
    --overwrite clears all the run wrote (TRL's README.md too) but the mark."""
    out = tmp_path / "run"
    config = _config(tmp_path, out)
    done = _train("--config", str(config), "--set", "grpo.save_steps=1", timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads((out / MARK).read_text())["written_by"] == "knowrl"
    assert (out / "checkpoint-1").is_dir() and (out / "summary.json").is_file()
    _refused(_train("--config", str(config)), f"output_dir {out}", "--resume")
    done = _train("--config", str(config), "--resume", timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    claim_output_dir(load_train_config(config, []), resume=False, overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == [MARK]
