"""Hostile pass 52 (seed 52052, run at 764be2a, issue #74): 30 cases written before they were run; 20 held. Closed
here (each assertion failed on 764be2a):

- data loss: ``bench/ci_summary.py --out junit.xml`` on its own JUnit input replaced it with the summary, exit 0;
  no bench script checked its results files (every one now does, ``knowrl_io.job_output.check_results``: never an
  input, never a special file, an existing file only when it is the script's own page);
- ``retrieval.build --model /nonexistent`` over a KB wrote the new text into it, then failed (the dense index left
  stale): the model loads before the KB is touched;
- silent failure: a KB whose ``passages_fts`` table was dropped scored under bm25 with exit 0 (rows with a title fell
  back to dense ranking, the rest got no evidence): refused up front, and ``--from-db`` fills the index again;
- Ctrl-C while a build embedded was a traceback, exit 1: one line, exit 130;
- reward holes: "Sam Elliott's stunt double." CORRECT for Sam Elliott; Binary RAR paid "At Kamloops, not far from
  Lytton." where the evidence has the Thompson join the Fraser at Lytton (Kamloops is where the North and South
  Thompson meet), and ``contradicted`` held the claim.

Found by review 53 and closed: a second name held possible after the answer ("Then again, John Adams might have
been the first.", "Possibly it was George W. Bush instead.") was paid CORRECT.

Left (under-pays, in the issue's note): "Ragna, daughter of Nikolas Mase." for Ragna Nikolasdatter, "The Griffon."
for Le Griffon; unsure: "An English Bull Terrier." for Bull Terrier.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")

JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0"
skipped="0" tests="1" time="1.0"><testcase classname="t" name="test_a" time="0.1"/></testsuite></testsuites>
"""


def _summary(tmp_path: Path, out: Path) -> subprocess.CompletedProcess:
    argv = [str(tmp_path / "junit.xml"), "--install-s", "1", "--total-s", "2", "--exit-code", "0", "--out", str(out)]
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ci_summary.py"), *argv],
        cwd=tmp_path,
        env=ENV,
        capture_output=True,
        text=True,
    )


def test_a_bench_script_never_writes_over_its_input_or_someone_s_file(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    junit.write_text(JUNIT)
    done = _summary(tmp_path, junit)
    assert done.returncode == 2 and done.stderr.strip().startswith("error: --out"), done.stderr
    assert "input file" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert junit.read_text() == JUNIT
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n")
    done = _summary(tmp_path, notes)
    assert done.returncode == 2 and "remove it" in done.stderr, done.stderr
    assert notes.read_text() == "my notes\n"
    page = tmp_path / "ci.md"
    assert _summary(tmp_path, page).returncode == 0
    first = page.read_text()
    assert "bench/ci_summary.py" in first
    assert _summary(tmp_path, page).returncode == 0, "a rerun replaces the script's own page"


def _build(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "retrieval.build", "--no-progress", *argv],
        cwd=tmp_path,
        env=ENV,
        capture_output=True,
        text=True,
    )


def test_a_model_that_cannot_load_leaves_the_kb_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(json.dumps({"title": "Alpha", "text": "Alpha is a letter."}) + "\n")
    (tmp_path / "b.jsonl").write_text(json.dumps({"title": "Beta", "text": "Beta is a letter."}) + "\n")
    assert _build(tmp_path, "--input", "a.jsonl", "--db", "kb.db", "--no-dense").returncode == 0
    before = (tmp_path / "kb.db").read_bytes()
    done = _build(
        tmp_path, "--input", "b.jsonl", "--db", "kb.db", "--overwrite", "--model", str(tmp_path / "no-such-model")
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("error: embedding model"), done.stderr
    assert (tmp_path / "kb.db").read_bytes() == before


def test_a_kb_without_its_bm25_index_is_refused_and_rebuilt(tmp_path: Path) -> None:
    from retrieval.kb import check_kb

    (tmp_path / "a.jsonl").write_text(json.dumps({"title": "Alpha", "text": "Alpha is a letter."}) + "\n")
    assert _build(tmp_path, "--input", "a.jsonl", "--db", "kb.db", "--no-dense").returncode == 0
    with sqlite3.connect(tmp_path / "kb.db") as conn:
        conn.execute("DROP TABLE passages_fts")
    with pytest.raises(ValueError, match="no BM25 index"):
        check_kb(tmp_path / "kb.db", "bm25")
    assert _build(tmp_path, "--from-db", "kb.db", "--no-dense").returncode == 0
    with sqlite3.connect(tmp_path / "kb.db") as conn:
        found = conn.execute("SELECT count(*) FROM passages_fts WHERE passages_fts MATCH 'alpha'").fetchone()[0]
    assert found == 1
    check_kb(tmp_path / "kb.db", "bm25")


def test_ctrl_c_in_a_build_is_one_line_and_exit_130(tmp_path: Path, monkeypatch, capsys) -> None:
    from retrieval import build

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    (tmp_path / "a.jsonl").write_text(json.dumps({"title": "Alpha", "text": "Alpha is a letter."}) + "\n")
    monkeypatch.setattr(build, "build", stopped)
    assert build.main(["--input", str(tmp_path / "a.jsonl"), "--db", str(tmp_path / "kb.db"), "--no-progress"]) == 130
    assert capsys.readouterr().err.strip().startswith("interrupted: what")


def test_the_gold_s_stand_in_is_another_person() -> None:
    from reward_engine.offline.grader import Label, grade

    asked = "Who played the Sergeant Major in We Were Soldiers?"
    for answer in ("Sam Elliott's stunt double.", "Sam Elliott's body double.", "Sam Elliott's understudy."):
        assert grade(answer, "Sam Elliott", asked) is Label.INCORRECT, answer
    assert grade("Sam Elliott.", "Sam Elliott", asked) is Label.CORRECT


THOMPSON = [
    "The Thompson River is the largest tributary of the Fraser River. The Thompson River joins the Fraser River at "
    "Lytton, British Columbia. The North Thompson and South Thompson rivers meet at Kamloops."
]


def test_a_place_the_evidence_gives_to_something_else_is_contradicted() -> None:
    from reward_engine.offline import facts

    asked = "Where do the Thompson and Fraser Rivers meet?"
    assert facts.answer_contradicted(asked, "At Kamloops, not far from Lytton.", THOMPSON)
    assert facts.answer_contradicted(asked, "Kamloops.", THOMPSON)
    assert not facts.answer_contradicted(asked, "At Lytton, British Columbia.", THOMPSON)
    claim = "The Thompson River meets the Fraser River at Kamloops."
    assert facts.contradicted(claim, THOMPSON) and not facts.supported(claim, THOMPSON)
    right = "The Thompson River joins the Fraser River at Lytton."
    assert facts.supported(right, THOMPSON) and not facts.contradicted(right, THOMPSON)


def test_a_second_name_held_possible_after_the_answer_is_a_hedge() -> None:
    from reward_engine.offline.grader import Label, grade

    first = "Who was the first president of the United States?"  # found by review 53, CORRECT before
    assert grade(
        "George Washington. Then again, John Adams might have been the first.", "George Washington", first
    ) is (Label.INCORRECT)
    assert grade(
        "Barack Obama. Possibly it was George W. Bush instead.", "Barack Obama", "Who was the 44th US president?"
    ) is (Label.INCORRECT)
    assert grade("George Washington. Then again, he was a general first.", "George Washington", first) is Label.CORRECT
