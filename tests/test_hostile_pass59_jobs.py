"""Issue #74's jobs left after pass 58 (the stop note's "Jobs" bullet), each test failing on bc3ecef:

- data loss: ``bench/effect.py --workers 2`` removed ``claims/`` from any ``--work`` (its long-lived folders carried
  no mark); ``bench/sft_levers.py``, ``bench/ceiling.py`` and ``bench/effect_judge.py`` wrote into any ``--work``
  (every bench ``--work`` is now a folder its script marked, a foreign one refused in one line before anything);
- a folder a run made before marks (the default /tmp/knowrl-reliability) was refused with no way round but
  guessing: the line now says what to do (``rm -r`` it, or the command that marks it), and doing it works;
- ``bench/real_judge.py --report-only`` unpickled any folder's report.pickle (a foreign pickle runs its code): it
  reads only its own folder's report.json;
- stale: kb.build_from's stamp and every marker keyed by size and mtime kept a same-size rewrite whose mtime was put
  back (``cp -p``, ``touch -r``): the inode and ctime are in the key;
- ``CHOICES`` is a copy of TRL's words: a TRL field's own declared choices win over it;
- ``model-probes/`` markers were never pruned: writing one drops the dead ones and keeps at most ``MAX_MARKERS``.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.helpers import one_error_line, run_job, tree_hashes

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")


def _users_folder(tmp_path: Path) -> Path:
    """Someone's folder that happens to hold the names the scripts use (``claims/``, ``boundary/``, ``seed0/``)."""
    mine = tmp_path / "mywork"
    for sub in ("claims", "boundary", "seed0"):
        (mine / sub).mkdir(parents=True)
        (mine / sub / "keep.txt").write_text(f"my {sub}\n")
    (mine / "notes.txt").write_text("my notes\n")
    return mine


@pytest.mark.parametrize(
    "script, more",
    [
        # --config of no file: a worker bc3ecef started failed at once, after claims/ was cleared
        ("bench/effect.py", ["--quick", "--workers", "2", "--no-keep", "--config", "configs/no-such.yaml"]),
        ("bench/effect.py", ["--quick", "--no-keep", "--config", "configs/no-such.yaml"]),
        ("bench/sft_levers.py", ["--levers", "demo"]),
        ("bench/ceiling.py", ["--models", "tiny", "--heldout", "2"]),
    ],
)
def test_a_bench_script_refuses_a_work_folder_of_someone_s_files(tmp_path: Path, script: str, more: list[str]) -> None:
    mine = _users_folder(tmp_path)
    before = tree_hashes(mine)
    out = tmp_path / "out" / "page.md"
    done = run_job(script, "--work", str(mine), "--out", str(out), *more, timeout=180)
    one_error_line(done, "--work")
    assert tree_hashes(mine) == before
    assert not out.exists()


def test_effect_judge_writes_only_into_an_effect_study_s_folder(tmp_path: Path) -> None:
    """It wrote judge.log and judge_agreement.json into any --work (after starting the judge: refused first now)."""
    from knowrl_io.work_folder import claim_work

    mine = _users_folder(tmp_path)
    before = tree_hashes(mine)
    line = one_error_line(
        run_job("bench/effect_judge.py", "--work", str(mine), "--answers", "1", timeout=180), "--work"
    )
    assert "bench/effect.py" in line and tree_hashes(mine) == before
    study = tmp_path / "study"
    claim_work(argparse.Namespace(work=study), str(ROOT / "bench" / "sft_levers.py"))  # another script's folder
    one_error_line(run_job("bench/effect_judge.py", "--work", str(study), "--answers", "1", timeout=180), "--work")


def test_a_subfolder_is_cleared_only_inside_the_script_s_own_folder(tmp_path: Path, capsys) -> None:
    from knowrl_io.work_folder import claim_work, renew_inside

    script = str(ROOT / "bench" / "effect.py")
    mine = _users_folder(tmp_path)
    with pytest.raises(SystemExit) as refused:
        renew_inside(mine, "claims", script)
    assert refused.value.code == 2 and (mine / "claims" / "keep.txt").is_file()
    assert capsys.readouterr().err.count("error:") == 1
    work = tmp_path / "study"
    claim_work(argparse.Namespace(work=work), script)
    (work / "claims").mkdir()
    (work / "claims" / "seed0-knowrl").touch()  # an interrupted run's claim: its piece is redone
    (work / "seed0").mkdir()
    (work / "seed0" / "cold_start.json").write_text("{}")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("x")
    assert renew_inside(work, "claims", script) == work / "claims"
    assert list((work / "claims").iterdir()) == [] and (work / "seed0" / "cold_start.json").is_file()
    (work / "claims").rmdir()
    (work / "claims").symlink_to(elsewhere)  # a link is removed, never followed
    renew_inside(work, "claims", script)
    assert (elsewhere / "keep.txt").is_file() and not (work / "claims").is_symlink()


def _say(folder: Path, script: str, clear: bool, capsys) -> str:
    from knowrl_io.work_folder import claim_work

    with pytest.raises(SystemExit) as refused:
        claim_work(argparse.Namespace(work=folder), str(ROOT / "bench" / script), clear=clear)
    assert refused.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --work ")
    return lines[0]


def test_a_folder_made_before_marks_is_refused_with_what_to_do_and_doing_it_works(tmp_path: Path, capsys) -> None:
    """A long-lived study folder from before marks keeps its pieces: the line gives the command that marks it."""
    from knowrl_io.work_folder import WORK_MARK, claim_work

    study = tmp_path / "effect study"  # a space: the command must quote the path
    (study / "seed0").mkdir(parents=True)
    (study / "seed0" / "cold_start.json").write_text('{"seed": 0}')
    (study / "base.eval.json").write_text("{}")
    before = tree_hashes(study)
    line = _say(study, "effect.py", False, capsys)
    command = line.split(": ", 2)[-1].split("echo ", 1)[1].split("; else", 1)[0]
    subprocess.run(["bash", "-c", "echo " + command], check=True)
    assert claim_work(argparse.Namespace(work=study), str(ROOT / "bench" / "effect.py")) == study
    assert {k: v for k, v in tree_hashes(study).items() if k != WORK_MARK} == before  # its pieces kept
    with pytest.raises(SystemExit):  # the mark names effect.py: another script still refuses the folder
        claim_work(argparse.Namespace(work=study), str(ROOT / "bench" / "reliability.py"), clear=True)


def test_reliability_s_old_default_folder_is_refused_naming_the_rm_that_clears_it(tmp_path: Path) -> None:
    old = tmp_path / "knowrl-reliability"  # as a run before marks left it
    (old / "soak").mkdir(parents=True)
    (old / "soak" / "cache.db").write_text("an earlier run's judge cache")
    done = run_job(
        "bench/reliability.py", "--work", str(old), "--out", str(tmp_path / "r.md"), "--steps", "1", timeout=180
    )
    line = one_error_line(done, "--work")
    assert f"rm -r {old}" in line and (old / "soak" / "cache.db").is_file()
    quoted = line.split("(rm -r ", 1)[1].split(";", 1)[0]
    subprocess.run(["bash", "-c", f"rm -r {quoted}"], check=True)  # as the line says
    assert not old.exists()


def test_bench_scripts_document_their_work_folder_in_help() -> None:
    for script in ("reliability", "gpu", "effect", "sft_levers", "ceiling"):
        wide = dict(ENV, COLUMNS="2000")  # argparse wraps long help at hyphens ("knowrl-" / "work.txt")
        cmd = [sys.executable, f"bench/{script}.py", "--help"]
        done = subprocess.run(cmd, cwd=ROOT, env=wide, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "knowrl-work.txt" in done.stdout, script


class _Runs:
    """A pickle that, loaded, makes a folder: what any code in a foreign report.pickle could do."""

    def __init__(self, where: Path) -> None:
        self.where = where

    def __reduce__(self):
        return (os.mkdir, (str(self.where),))


def test_real_judge_report_only_never_unpickles_a_foreign_folder(tmp_path: Path) -> None:
    folder = tmp_path / "downloaded"
    folder.mkdir()
    ran = tmp_path / "ran"
    (folder / "report.pickle").write_bytes(pickle.dumps(_Runs(ran)))
    (folder / "report.json").write_text("{}")
    out = tmp_path / "page.md"
    done = run_job("bench/real_judge.py", "--report-only", "--work", str(folder), "--out", str(out), timeout=180)
    one_error_line(done, "--work")
    assert not ran.exists(), "unpickled: a foreign file's code ran"
    assert not out.exists()


def test_real_judge_report_only_reads_its_own_report_json(tmp_path: Path) -> None:
    """Its own folder: report.json (data, no code) read back as the run held it; no report is one line."""
    from knowrl_io.work_folder import claim_work

    sys.path.insert(0, str(ROOT / "bench"))
    import judge_set

    from tests.test_real_judge_report import load_bench

    bench = load_bench()
    work = tmp_path / "work"
    claim_work(argparse.Namespace(work=work), str(ROOT / "bench" / "real_judge.py"), clear=True)
    assert "holds no report.json" in bench.read_report(work)
    held = {
        "sets": {"m": {"grade_confusion": Counter({("CORRECT", "INCORRECT"): 2}), "by_category": {"x": {"n": 1}}}},
        "slots": {1: {"wall_s": 3.0}, 2: {"wall_s": 2.0}},
        "cache": {"off": {"calls": 1}},
        "generated": {"rows": 2},
        "red_order": [("a", None, "baseline"), ("b", "a", "swap")],
    }
    (work / "report.json").write_text(json.dumps(judge_set.jsonable(held)))
    got = bench.read_report(work)
    assert got["sets"]["m"]["grade_confusion"] == held["sets"]["m"]["grade_confusion"]
    assert list(got["slots"]) == [1, 2] and got["sets"]["m"]["by_category"] == {"x": {"n": 1}}
    assert [tuple(row) for row in got["red_order"]] == held["red_order"]
    (work / "report.json").write_text("[1, 2]")
    assert "is not a report" in bench.read_report(work)
    assert not hasattr(bench, "pickle"), "nothing in it unpickles"


def _rewrite_keeping_size_and_mtime(path: Path, tmp_path: Path, data: bytes | None = None) -> None:
    """``data`` (default: one bit of the file flipped) of the same size, the mtime put back with ``touch -r`` from a
    ``cp -p`` copy: what size + mtime stamps trusted."""
    ref = tmp_path / f"{path.name}.ref"
    subprocess.run(["cp", "-p", str(path), str(ref)], check=True)
    old = path.read_bytes()
    data = data if data is not None else bytes([old[0] ^ 1]) + old[1:]
    assert len(data) == len(old) and data != old
    path.write_bytes(data)
    subprocess.run(["touch", "-r", str(ref), str(path)], check=True)
    assert path.stat().st_size == ref.stat().st_size and path.stat().st_mtime_ns == ref.stat().st_mtime_ns


def test_a_same_size_build_from_rewrite_with_its_mtime_put_back_rebuilds_the_kb(tmp_path: Path, caplog) -> None:
    """kb.build_from's stamp (path, size, mtime) vouched for other text kept at the same size and mtime: the job
    trained against the old KB. The inode and ctime are in the stamp now: the file is hashed, and the KB rebuilt."""
    import sqlite3

    from tests.test_ensure_kb import _config, _rebuilds, _settle

    config = _config(tmp_path, "bm25")
    db, docs = tmp_path / "kb.db", tmp_path / "docs.jsonl"
    _settle(docs)
    _rebuilds(caplog, config)
    assert _rebuilds(caplog, config) == 0, "unchanged: trusted by its stamp"
    text = docs.read_text()
    assert '"Paris"' in text
    _rewrite_keeping_size_and_mtime(docs, tmp_path, text.replace('"Paris"', '"Parix"', 1).encode())
    assert _rebuilds(caplog, config) == 1, "a same-size rewrite with its mtime put back was trusted"
    with sqlite3.connect(db) as conn:
        titles = {t for (t,) in conn.execute("SELECT title FROM documents")}
    assert "Parix" in titles and "Paris" not in titles


def _model_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "model"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text('{"hidden_size": 4}')
    (folder / "model.safetensors").write_bytes(bytes(range(64)))
    past = time.time_ns() - 60 * 10**9  # settled: stamps ignore files written in the last 2 s
    for f in folder.iterdir():
        os.utime(f, ns=(past, past))
    return folder


def _keys() -> dict[str, object]:
    from knowrl.effect.boundary import model_key
    from retrieval.kb import _stat_key
    from retrieval.models import files_stamp
    from retrieval.onnx_encoder import _fingerprint
    from reward_engine.verl import _stamp

    return {
        "files_stamp": lambda folder: files_stamp(str(folder)),
        "onnx": _fingerprint,
        "boundary": lambda folder: model_key(str(folder)),
        "kb_memo": lambda folder: _stat_key(folder / "model.safetensors"),
        "verl": lambda folder: _stamp(str(folder / "model.safetensors")),
    }


@pytest.mark.parametrize("name", ["files_stamp", "onnx", "boundary", "kb_memo", "verl"])
def test_every_stat_key_sees_a_same_size_rewrite_with_its_mtime_put_back(tmp_path: Path, name: str) -> None:
    """The probe memo's model stamp, the ONNX export's, the boundary probe's, the KB digest memo's and verl's config
    stamp were keyed by size and mtime: ``cp -p``'s kind of rewrite kept every one of them."""
    key = _keys()[name]
    folder = _model_folder(tmp_path)
    before = key(folder)
    assert before and key(folder) == before
    _rewrite_keeping_size_and_mtime(folder / "model.safetensors", tmp_path)
    assert key(folder) != before


def test_a_trl_field_s_own_choices_win_over_the_copied_ones() -> None:
    """``CHOICES`` is a copy of TRL's words; where the installed TRL's field lists its own (SFTConfig.loss_type),
    those are the ones checked, so another TRL version's word is neither refused nor let through by the copy."""
    import dataclasses

    from knowrl.config import CHOICES, check_trl_values

    @dataclasses.dataclass
    class OtherTRL:  # an SFTConfig of another TRL version: one word more, one fewer
        loss_type: str = dataclasses.field(default="nll", metadata={"choices": ["nll", "dft", "newer"]})

    assert "newer" not in CHOICES["sft", "loss_type"]
    check_trl_values({"loss_type": "newer"}, OtherTRL, "sft")
    with pytest.raises(ValueError, match=r"sft.loss_type must be one of nll, dft, newer; got 'chunked_nll'"):
        check_trl_values({"loss_type": "chunked_nll"}, OtherTRL, "sft")


def test_model_probe_markers_are_pruned_when_one_is_written(tmp_path: Path, monkeypatch) -> None:
    """``model-probes/`` grew by one marker per (model files, probe) for ever: writing one now drops those whose
    folder is gone or whose files changed (they never match again), markers from before they named a folder, and
    the oldest past ``MAX_MARKERS``."""
    import shutil

    from retrieval import probe_memo
    from retrieval.models import files_stamp

    monkeypatch.setenv("KNOWRL_CACHE_DIR", str(tmp_path / "cache"))
    kept, gone, changed = (_model_folder(tmp_path / name) for name in ("kept", "gone", "changed"))
    stamps = {folder: files_stamp(str(folder)) for folder in (kept, gone, changed)}
    for folder, stamp in stamps.items():
        probe_memo.vouch(stamp, [0.5, 0.25], str(folder))
        assert probe_memo.vouched(stamp, [0.5, 0.25])
    markers = tmp_path / "cache" / "model-probes"
    (markers / ("0" * 32)).touch()  # as bc3ecef wrote them: empty
    (markers / ("0" * 32 + ".lock")).touch()
    shutil.rmtree(gone)
    _rewrite_keeping_size_and_mtime(changed / "model.safetensors", tmp_path)
    probe_memo.vouch(stamps[kept], [1.0, 0.0], str(kept))
    assert probe_memo.vouched(stamps[kept], [0.5, 0.25]) and probe_memo.vouched(stamps[kept], [1.0, 0.0])
    assert not probe_memo.vouched(stamps[gone], [0.5, 0.25]) and not probe_memo.vouched(stamps[changed], [0.5, 0.25])
    assert len(list(markers.iterdir())) == 2, sorted(p.name for p in markers.iterdir())

    for i in range(probe_memo.MAX_MARKERS + 3):  # as many probes of one model's files: the newest kept
        probe_memo.vouch(stamps[kept], [float(i)], str(kept))
    left = [p for p in markers.iterdir() if p.suffix != ".lock"]
    assert len(left) == probe_memo.MAX_MARKERS
    assert probe_memo.vouched(stamps[kept], [float(probe_memo.MAX_MARKERS + 2)])
