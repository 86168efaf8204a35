"""Hostile pass 57 (seed 57057, run at cb7647b, issue #74): job findings J1, J2, J3, J6 and J8. Closed here (each
test failed on 071011f):

- data loss: ``bench/reliability.py --work`` a folder of the user's files removed them and trained into it, and
  ``bench/real_judge.py --work`` emptied it for a run that could not start (a bench script's ``--work`` is its own:
  a new or empty folder it marks, or one it marked earlier; anything else is refused before anything is removed);
- data loss: ``knowrl.train --overwrite`` with ``model.adapter`` the same output_dir's ``final`` removed final/ and
  checkpoint-1, then failed to find the adapter after the model loaded; ``knowrl.sft --overwrite`` the same (an
  input of the run inside what ``--overwrite`` removes is refused, naming the key and output_dir, before anything
  is removed);
- data loss: ``knowrl.effect.probe_candidates --regrade probe.json --out regraded.json`` rewrote probe.json in
  place, exit 0, and ``--out`` was ignored (``--regrade`` writes ``--out``, owned as the probe's ``--out`` is; in
  place only with ``--overwrite``); ``--regrade`` of a JSON that is not a probe ended in a traceback (one line);
- late check: ``knowrl.effect.training_signal --block 0`` ended in range()'s ValueError, ``--block -3`` and a log
  with no step rows printed an empty table, exit 0 (one line naming ``--block`` or the file, exit 2);
- late check: ``knowrl.sft`` given RL rows, and ``knowrl.train`` given SFT conversations, exited 2 only after the
  policy loaded (the data is read and checked first).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import one_error_line, run_job, tree_hashes

ROOT = Path(__file__).resolve().parents[1]


def _users_folder(tmp_path: Path) -> Path:
    mine = tmp_path / "mywork"
    (mine / "data").mkdir(parents=True)
    (mine / "notes.txt").write_text("my notes\n")
    (mine / "data" / "train.jsonl").write_bytes((ROOT / "configs" / "data" / "smoke_rl.jsonl").read_bytes())
    (mine / "tiny-transformers").mkdir()  # the name of bench/gpu.py's first case folder
    (mine / "tiny-transformers" / "keep.txt").write_text("mine\n")
    return mine


@pytest.mark.parametrize(
    "script, more",
    [
        ("bench/reliability.py", ["--steps", "1", "--rows", "10", "--soak-rows", "0", "--memory-mb", "--no-hostile"]),
        ("bench/real_judge.py", ["--cases", "1"]),
        ("bench/gpu.py", ["--backends", "transformers", "--steps", "1"]),
    ],
)
def test_a_bench_script_refuses_a_work_folder_of_someone_s_files(tmp_path: Path, script: str, more: list[str]) -> None:
    mine = _users_folder(tmp_path)
    before = tree_hashes(mine)
    out = tmp_path / "out" / "page.md"
    done = run_job(script, "--work", str(mine), "--out", str(out), *more, timeout=300)
    one_error_line(done, "--work")
    assert tree_hashes(mine) == before
    assert not out.exists()


def test_a_work_folder_is_marked_and_only_a_marked_one_is_cleared(tmp_path: Path) -> None:
    import argparse

    from knowrl_io.work_folder import WORK_MARK, claim_work

    work = tmp_path / "w"
    script = str(ROOT / "bench" / "reliability.py")
    assert claim_work(argparse.Namespace(work=work), script, clear=True) == work  # new: made and marked
    assert "bench/reliability.py" in (work / WORK_MARK).read_text()
    (work / "soak").mkdir()
    (work / "soak" / "cache.db").write_text("an earlier run's judge cache")
    claim_work(argparse.Namespace(work=work), script, clear=True)  # its own: emptied, the mark kept
    assert sorted(p.name for p in work.iterdir()) == [WORK_MARK]
    (work / "rows.jsonl").write_text("{}\n")
    with pytest.raises(SystemExit) as refused:  # another script's folder is not this one's
        claim_work(argparse.Namespace(work=work), str(ROOT / "bench" / "real_judge.py"), clear=True)
    assert refused.value.code == 2
    with pytest.raises(SystemExit):  # an input of the run inside it: the clearing would remove it
        claim_work(argparse.Namespace(work=work, rows=str(work / "rows.jsonl")), script, clear=True)
    assert (work / "rows.jsonl").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(SystemExit):
        claim_work(argparse.Namespace(work=tmp_path / "file"), script)
    empty = tmp_path / "empty"
    empty.mkdir()
    claim_work(argparse.Namespace(work=empty), script)  # an empty folder is taken
    assert (empty / WORK_MARK).is_file()


def _earlier_run(tmp_path: Path) -> Path:
    """An output_dir as a finished GRPO run leaves it: checkpoint-1, final (the adapter), summary.json."""
    run = tmp_path / "run"
    for folder in ("final", "checkpoint-1"):
        (run / folder).mkdir(parents=True)
        (run / folder / "adapter_config.json").write_text(json.dumps({"r": 4, "lora_alpha": 8}))
        (run / folder / "adapter_model.safetensors").write_bytes(os.urandom(64))
    (run / "summary.json").write_text("{}")
    return run


def _train_config(tmp_path: Path, adapter: Path | None, data: str = "smoke_rl.jsonl", **more: object) -> Path:
    config = {
        "model": {
            "name_or_path": "tiny",
            "backend": "transformers",
            "dtype": "float32",
            "adapter": adapter and str(adapter),
        },
        "lora": {"r": 4, "alpha": 8, "dropout": 0.0, "target_modules": ["q_proj", "v_proj"]},
        "data": {"train": str(ROOT / "configs" / "data" / data)},
        "reward": {"preset": "knowrl", "grader": "offline", "factuality": {"enabled": False}},
        "grpo": {"max_steps": 1, "per_device_train_batch_size": 4, "num_generations": 4, "max_completion_length": 8},
        "output_dir": str(tmp_path / "run"),
        "seed": 0,
        **more,
    }
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    return path


@pytest.mark.parametrize(
    "job, adapter",
    [("knowrl.train", "final"), ("knowrl.train", "checkpoint-1"), ("knowrl.sft", "final")],
)
def test_overwrite_refuses_to_remove_the_adapter_the_run_starts_from(tmp_path: Path, job: str, adapter: str) -> None:
    run = _earlier_run(tmp_path)
    before = tree_hashes(run)
    if job == "knowrl.sft":
        config = _train_config(tmp_path, run / adapter, "smoke_sft.json", reward=None, sft={"max_steps": 1})
    else:
        config = _train_config(tmp_path, run / adapter)
    done = run_job("-m", job, "--config", str(config), "--overwrite", timeout=300)
    one_error_line(done, "model.adapter")
    assert "output_dir" in done.stderr and "Loading weights" not in done.stderr
    assert tree_hashes(run) == before


def test_overwrite_refuses_any_input_inside_what_it_removes(tmp_path: Path) -> None:
    from knowrl.config import ConfigError, load_train_config
    from knowrl.output_dir import claim_output_dir

    run = _earlier_run(tmp_path)
    data = run / "checkpoint-1" / "rows.jsonl"
    data.write_bytes((ROOT / "configs" / "data" / "smoke_rl.jsonl").read_bytes())
    link = tmp_path / "rows-link.jsonl"
    link.symlink_to(data)  # through a link: the file itself is removed all the same
    config = load_train_config(_train_config(tmp_path, run / "final", "x.jsonl"), [f"data.train={link}"])
    config.model.adapter = None
    with pytest.raises(ConfigError, match="data.train .* output_dir .*checkpoint-1"):
        claim_output_dir(config, resume=False, overwrite=True)
    assert data.exists()
    config.data.train = str(run / "rows-beside.jsonl")  # beside the run, not in what --overwrite removes
    Path(config.data.train).write_text("")
    claim_output_dir(config, resume=False, overwrite=True)
    assert sorted(p.name for p in run.iterdir()) == ["rows-beside.jsonl"]


def _small_probe(tmp_path: Path) -> Path:
    """The kept probe cut to six questions, their right counts as an older grader might have left them."""
    from knowrl.effect.boundary import write_probe_file

    kept = json.loads((ROOT / "configs" / "data" / "boundary-smollm2-k8.json").read_text())
    got = {qid: {**kept["probe"][qid], "correct": 5} for qid in sorted(kept["probe"])[:6]}
    path = tmp_path / "probe.json"
    write_probe_file(path, {k: v for k, v in kept.items() if k != "probe"}, got)
    return path


def test_regrade_writes_its_out_and_never_its_input(tmp_path: Path) -> None:
    probe = _small_probe(tmp_path)
    before = probe.read_bytes()
    out = tmp_path / "regraded.json"
    done = run_job("-m", "knowrl.effect.probe_candidates", "--regrade", str(probe), "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    assert probe.read_bytes() == before
    regraded = json.loads(out.read_text())
    assert regraded["probe"].keys() == json.loads(before)["probe"].keys()
    assert [r["correct"] for r in regraded["probe"].values()] != [5] * 6  # today's grader's counts
    assert f"--out {out}" in regraded["regraded_by"]
    again = run_job("-m", "knowrl.effect.probe_candidates", "--regrade", str(probe), "--out", str(out))
    one_error_line(again, "--out")  # an existing --out only with --overwrite, as the probe's own --out
    assert probe.read_bytes() == before


@pytest.mark.parametrize(
    "flags, named",
    [
        ([], "--out"),  # in place only when asked for
        (["--out", "{probe}", "--overwrite"], "--out"),  # the input as its own output
        (["--out", "{tmp}/x.json"], "smoke_sft.json"),  # not a probe: one line naming it, no traceback
        (["--out", "{tmp}/x.json"], "reward.json"),  # a JSON object with no probe in it
    ],
)
def test_regrade_refuses_in_one_line(tmp_path: Path, flags: list[str], named: str) -> None:
    probe = _small_probe(tmp_path)
    (tmp_path / "reward.json").write_text(json.dumps({"preset": "knowrl", "grader": "offline"}))
    source = {"--out": probe, "reward.json": tmp_path / "reward.json"}.get(named, ROOT / "configs" / "data" / named)
    before = source.read_bytes()
    flags = [f.format(probe=probe, tmp=tmp_path) for f in flags]
    done = run_job("-m", "knowrl.effect.probe_candidates", "--regrade", str(source), *flags)
    one_error_line(done, named)
    assert source.read_bytes() == before
    assert not (tmp_path / "x.json").exists()


def _reward_log(tmp_path: Path, with_steps: bool = True) -> Path:
    """16 rows of a GRPO reward log (steps 0-3, 4 each), or a score job's rows (no step)."""
    path = tmp_path / "rewards.jsonl"
    rows = [
        {"label": "CORRECT" if i % 2 else "INCORRECT", "total": float(i % 2), "completion": "<answer>x</answer>"}
        | ({"step": i // 4} if with_steps else {"line": i})
        for i in range(16)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize("block", ["0", "-3"])
def test_training_signal_refuses_a_block_below_one(tmp_path: Path, block: str) -> None:
    done = run_job("-m", "knowrl.effect.training_signal", str(_reward_log(tmp_path)), "--block", block)
    one_error_line(done, "--block")
    assert done.stdout == ""


def test_training_signal_refuses_a_log_with_no_steps(tmp_path: Path) -> None:
    log = _reward_log(tmp_path, with_steps=False)
    done = run_job("-m", "knowrl.effect.training_signal", str(log))
    one_error_line(done, str(log))
    assert done.stdout == ""
    folder = run_job("-m", "knowrl.effect.training_signal", str(tmp_path))  # a folder: one line, not a traceback
    one_error_line(folder, str(tmp_path))
    fine = run_job("-m", "knowrl.effect.training_signal", str(_reward_log(tmp_path)), "--block", "2")
    assert fine.returncode == 0 and "| 0-1 | 8 |" in fine.stdout and "| 2-3 | 8 |" in fine.stdout


@pytest.mark.parametrize(
    "job, data, what",
    [
        ("knowrl.sft", "smoke_rl.jsonl", "no usable conversations"),
        ("knowrl.train", "smoke_sft.json", "no usable training rows"),
    ],
)
def test_data_of_the_other_stage_is_refused_before_the_policy_loads(
    tmp_path: Path, job: str, data: str, what: str
) -> None:
    more: dict[str, object] = (
        {"reward": None, "sft": {"max_steps": 1, "max_length": 128}} if job == "knowrl.sft" else {}
    )
    config = _train_config(tmp_path, None, data, **more)
    done = run_job("-m", job, "--config", str(config), timeout=300)
    one_error_line(done, data)
    assert what in done.stderr
    assert "Loading weights" not in done.stderr  # the model never loaded
    assert not (tmp_path / "run").exists() or not any((tmp_path / "run").iterdir())
