"""Hostile audit 60: what a training run writes in ``output_dir`` is its own, by a mark (``knowrl.run_mark``).

- H3: TRL wrote its model card (README.md) over a user's README.md in output_dir.
- H4: the pipeline's report and stage outputs were written over same-named files of the user's.
- H5: ``--overwrite`` removed any ``final/`` in output_dir, one the run never wrote included.
- H9: an interrupted pipeline's stage folders were trained over by a rerun, a user's ``sft/`` alike.
- J1: a user's ``rewards.jsonl`` was moved aside as "an earlier run's" reward log.
- the pipeline's merge into ``sft-merged`` checked none of its inputs.
Each refusal is one line naming the path, before anything is written; an earlier knowrl run's files keep working.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import one_error_line, run_job

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"
SFT = ROOT / "configs" / "data" / "smoke_sft.json"
PIPELINE = ["--set=pipeline.cold_start_sft=true", f"--set=data.sft={SFT}"]


@pytest.fixture
def stages(monkeypatch):
    """``knowrl.train``'s CLI with the GRPO run and the pipeline replaced by stubs that record their calls."""
    import knowrl.pipeline
    import knowrl.train

    calls: list[str] = []
    monkeypatch.setattr(knowrl.train, "train", lambda config, resume=False, callbacks=None: calls.append("grpo"))
    monkeypatch.setattr(knowrl.pipeline, "run_pipeline", _pipeline(calls))
    return calls


def _pipeline(calls: list[str]):
    def stub(config, command: str = "") -> dict:  # noqa: ANN001 - run_pipeline's signature
        calls.append("pipeline")
        return {"grpo": {"reward_log": "-"}, "reward_curve": None}

    return stub


def _train(capsys, out: Path, *args: str) -> tuple[int, str]:
    from knowrl.train import main

    code = main(
        ["--config", str(SMOKE), f"--set=output_dir={out}", f"--set=reward.factuality.kb_path={out}.kb.db", *args]
    )
    return code, capsys.readouterr().err


def _one_line(code: int, err: str, *names: str) -> str:
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert all(name in err for name in names), err
    return err


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"/" for p in sorted(folder.rglob("*"))}


def test_h3_a_users_readme_in_output_dir_is_refused_before_anything(tmp_path, capsys, stages) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "README.md").write_text("# My experiment notes\n")
    for extra in ([], ["--overwrite"], ["--resume"]):
        _one_line(*_train(capsys, out, *extra), f"{out / 'README.md'}", "no run's ledger names")
    assert stages == [] and _tree(out) == {"README.md": b"# My experiment notes\n"}


def test_h3_the_runs_own_model_card_is_its_own_and_a_rerun_replaces_it(tmp_path) -> None:
    """A real one-step run: TRL writes README.md, the ledger names it, and ``--overwrite`` runs again."""
    from knowrl.run_mark import MARK, is_ours, marked

    out = tmp_path / "run"
    sets = [f"--set=output_dir={out}", f"--set=reward.factuality.kb_path={tmp_path / 'kb.db'}"]
    sets.append("--set=grpo.max_steps=1")
    first = run_job("-m", "knowrl.train", "--config", str(SMOKE), *sets, timeout=300)
    assert first.returncode == 0, first.stderr[-3000:]
    assert (out / MARK).is_file() and {"README.md", "final", "checkpoint-[0-9]*", "rewards.jsonl"} <= set(marked(out))
    assert (out / "README.md").is_file() and is_ours(out, "README.md") and is_ours(out, "checkpoint-1")
    again = run_job("-m", "knowrl.train", "--config", str(SMOKE), *sets, "--overwrite", timeout=300)
    assert again.returncode == 0, again.stderr[-3000:]
    assert len(list(out.glob("rewards.*.jsonl"))) == 1  # the first run's log moved aside, as before


@pytest.mark.parametrize("name", ["report.md", "pipeline.json", "heldout_before.json", "reward_curve.png"])
def test_h4_a_users_file_named_like_a_pipeline_output_is_refused(tmp_path, capsys, stages, name) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / name).write_text("mine\n")
    for extra in ([], ["--overwrite"]):
        _one_line(*_train(capsys, out, *PIPELINE, *extra), f"{out / name}", "--overwrite")
    assert stages == [] and _tree(out) == {name: b"mine\n"}


def test_h4_the_pipelines_own_report_is_replaced_by_a_rerun_with_overwrite(tmp_path, capsys, stages) -> None:
    from knowrl.run_mark import claim

    out = tmp_path / "run"
    claim(out, ["report.md", "pipeline.json"])
    (out / "report.md").write_text("an earlier report without its heading\n")
    (out / "pipeline.json").write_text("{}")
    _one_line(*_train(capsys, out, *PIPELINE), "report.md", "--overwrite")
    assert _train(capsys, out, *PIPELINE, "--overwrite")[0] == 0 and stages == ["pipeline"]
    assert not (out / "report.md").exists() and not (out / "pipeline.json").exists()


def test_h5_overwrite_never_removes_a_final_the_run_did_not_write(tmp_path, capsys, stages) -> None:
    out = tmp_path / "run"
    (out / "final").mkdir(parents=True)
    (out / "final" / "adapter_config.json").write_text('{"r": 8}')  # a user's own adapter, kept here
    before = _tree(out)
    _one_line(*_train(capsys, out, "--overwrite"), f"{out / 'final'}", "no run's ledger names")
    assert stages == [] and _tree(out) == before


def test_h5_overwrite_removes_a_final_of_the_runs_own(tmp_path, capsys, stages) -> None:
    from knowrl.run_mark import claim, marked

    out = tmp_path / "run"
    claim(out, ["final", "checkpoint-[0-9]*"])
    (out / "final").mkdir()
    (out / "final" / "adapter_config.json").write_text("{}")
    (out / "notes.txt").write_text("mine")  # never a name the run writes: left alone
    assert _train(capsys, out, "--overwrite")[0] == 0 and stages == ["grpo"]
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["notes.txt"]
    assert "final" not in marked(out)  # the ledger no longer names what --overwrite removed


def test_h9_an_interrupted_pipelines_stage_folders_are_refused_or_cleared(tmp_path, capsys, stages) -> None:
    """SFT and its merge done, GRPO interrupted before a checkpoint: a rerun trained over them silently."""
    from knowrl.run_mark import claim

    out = tmp_path / "run"
    claim(out, ["sft", "sft-merged", "heldout_*.json"])
    for folder in ("sft/final", "sft-merged"):
        (out / folder).mkdir(parents=True)
    (out / "heldout_before.json").write_text("{}")
    _one_line(*_train(capsys, out, *PIPELINE), f"output_dir {out}", "sft", "--overwrite")
    _one_line(*_train(capsys, out, *PIPELINE, "--resume"), "--resume does not continue it")
    assert stages == []
    assert _train(capsys, out, *PIPELINE, "--overwrite")[0] == 0 and stages == ["pipeline"]
    assert not any((out / name).exists() for name in ("sft", "sft-merged", "heldout_before.json"))


def test_h9_a_users_folder_named_like_a_stage_is_never_the_pipelines(tmp_path, capsys, stages) -> None:
    out = tmp_path / "run"
    (out / "sft").mkdir(parents=True)
    (out / "sft" / "notes.md").write_text("my own SFT experiments")
    before = _tree(out)
    for extra in ([], ["--overwrite"], ["--resume"]):
        _one_line(*_train(capsys, out, *PIPELINE, *extra), f"{out / 'sft'}", "no run's ledger names")
    assert stages == [] and _tree(out) == before


def test_j1_a_users_rewards_jsonl_is_refused_naming_the_file(tmp_path, capsys, stages) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "rewards.jsonl").write_text('{"note": "my own reward sweep"}\n')
    before = _tree(out)
    for extra in ([], ["--overwrite"]):
        _one_line(*_train(capsys, out, *extra), "logging.reward_log", f"{out / 'rewards.jsonl'}")
    assert stages == [] and _tree(out) == before


def test_j1_an_earlier_knowrl_runs_log_is_still_moved_aside(tmp_path, capsys) -> None:
    """Written before runs kept a ledger: known by its rows, checked and moved aside as before."""
    from knowrl.config import load_train_config
    from knowrl.reward_log import start_fresh
    from knowrl.run_outputs import check_reward_log

    out = tmp_path / "run"
    out.mkdir()
    log = out / "rewards.jsonl"
    log.write_text(json.dumps({"step": 0, "question": "q", "completion": "c", "total": 1.0}) + "\n")
    check_reward_log(load_train_config(SMOKE, [f"output_dir={out}"]), 1)
    moved = start_fresh(log)
    assert moved is not None and moved.is_file() and not log.exists()


def test_the_job_refuses_a_users_rewards_jsonl_in_one_line(tmp_path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "rewards.jsonl").write_text("not json at all\n")
    sets = [f"--set=output_dir={out}", f"--set=reward.factuality.kb_path={tmp_path / 'kb.db'}"]
    done = run_job("-m", "knowrl.train", "--config", str(SMOKE), *sets)
    one_error_line(done, "logging.reward_log")
    assert (out / "rewards.jsonl").read_text() == "not json at all\n"
    assert sorted(out.iterdir()) == [out / "rewards.jsonl"]


def test_the_pipelines_merge_checks_its_inputs(tmp_path, monkeypatch) -> None:
    """A rerun after the SFT data changed retrains the adapter: the merged model of the old one is not reused."""
    import knowrl.merge

    base, adapter, out = tmp_path / "base", tmp_path / "adapter", tmp_path / "sft-merged"
    for folder, name in ((base, "config.json"), (adapter, "adapter_model.safetensors")):
        folder.mkdir()
        (folder / name).write_bytes(b"v1")
    merges: list[str] = []

    def fake_merge(base_name: str, adapter_path: str, where: Path) -> Path:
        merges.append(adapter_path)
        where.mkdir(parents=True, exist_ok=True)
        (where / f"weights-{len(merges)}.bin").write_bytes(b"w")
        (where / knowrl.merge.STAMP).write_text(json.dumps(knowrl.merge.merge_inputs(base_name, adapter_path)))
        return where

    monkeypatch.setattr(knowrl.merge, "merge", fake_merge)
    knowrl.merge.merge_current(str(base), str(adapter), out)
    knowrl.merge.merge_current(str(base), str(adapter), out)
    assert len(merges) == 1  # the same inputs: reused
    (adapter / "adapter_model.safetensors").write_bytes(b"v2")  # retrained on other SFT data
    knowrl.merge.merge_current(str(base), str(adapter), out)
    assert len(merges) == 2 and sorted(p.name for p in out.iterdir()) == [knowrl.merge.STAMP, "weights-2.bin"]


def test_only_the_first_rank_judges_what_overwrite_removes(tmp_path, monkeypatch) -> None:
    """Under several processes rank 0 removes the earlier run while the others start: a checkpoint half removed
    (its trainer state gone first) is not someone's folder to them; rank 0 has checked it before removing."""
    from knowrl.config import ConfigError, load_train_config
    from knowrl.output_dir import claim_output_dir

    out = tmp_path / "run"
    (out / "checkpoint-1").mkdir(parents=True)
    config = load_train_config(SMOKE, [f"output_dir={out}", f"reward.factuality.kb_path={tmp_path / 'kb.db'}"])
    monkeypatch.setenv("RANK", "1")
    claim_output_dir(config, resume=False, overwrite=True)
    assert (out / "checkpoint-1").is_dir()  # rank 1 removes nothing
    monkeypatch.setenv("RANK", "0")
    with pytest.raises(ConfigError, match="checkpoint-1, a folder no run's ledger names"):
        claim_output_dir(config, resume=False, overwrite=True)


def test_the_ledger_is_never_written_through_a_link(tmp_path) -> None:
    from knowrl.config import ConfigError
    from knowrl.run_mark import MARK, claim

    out, mine = tmp_path / "run", tmp_path / "mine.txt"
    out.mkdir()
    mine.write_text("keep")
    (out / MARK).symlink_to(mine)
    with pytest.raises(ConfigError, match="not a plain file"):
        claim(out, ["final"])
    assert mine.read_text() == "keep"
