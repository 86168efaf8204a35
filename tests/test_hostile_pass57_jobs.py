"""Hostile pass 57 (seed 57057, run at cb7647b, issue #74): job findings J1, J2, J3, J6 and J8. Closed here (each
test failed on 071011f):

- data loss: ``bench/reliability.py --work`` a folder of the user's files removed them and trained into it, and
  ``bench/real_judge.py --work`` emptied it for a run that could not start (a bench script's ``--work`` is its own:
  a new or empty folder it marks, or one it marked earlier; anything else is refused before anything is removed).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")


def _run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(
            [sys.executable, *args], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:  # still running: it took the folder
        return subprocess.CompletedProcess(args, 124, "", "")


def _one_line(done: subprocess.CompletedProcess, flag: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if "error" in line]
    assert len(lines) == 1 and flag in lines[0], done.stderr


def _tree(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


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
    before = _tree(mine)
    out = tmp_path / "out" / "page.md"
    done = _run(script, "--work", str(mine), "--out", str(out), *more, timeout=60)
    _one_line(done, "--work")
    assert _tree(mine) == before
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
