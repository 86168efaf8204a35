"""Hostile pass 8 (issue #74): data loss and stale results, each reproduced on the old code.

* A JSON array with one bad element lost every later element when the array was on one line (``json.dump``'s
  layout: nowhere to resume), and in an indented array resumed on an object nested inside the bad element,
  inventing a row; score, warm and retrieval.build all exited 0.
* ``score --input - < in.jsonl --output in.jsonl --overwrite`` wrote the scores over the file on standard input.
* An engine kept serving the evidence of a KB rebuilt under it; ``inspect --kb`` showed a rebuilt KB's text as the
  evidence of verdicts made against the old one, without a word.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl_io.records import iter_records
from tests.helpers import write_offline_config

ROWS = [{"id": i, "question": f"Question {i}?", "answers": "Paris", "completion": "<answer>Paris</answer>"} for i in
        range(1, 5)]  # fmt: skip


def _ids(path: Path) -> list[tuple[int, object, bool]]:
    return [(r.line, r.value.get("id") if isinstance(r.value, dict) else None, r.error is None) for r in
            iter_records(path)]  # fmt: skip


@pytest.mark.parametrize("indent", [None, 2])
@pytest.mark.parametrize(
    "spoil",
    [
        lambda t: t.replace('"Question 2?"', '"Question\t2?"'),  # a raw TAB in a string
        lambda t: t.replace('"Question 2?",', '"Question 2?"'),  # a missing comma
        lambda t: t.replace('"Question 2?"', '"Qu\\"est,]{ion\t2?"'),  # an escaped quote and brackets in the string
    ],
)
def test_a_bad_array_element_loses_nothing_else(tmp_path, indent, spoil) -> None:
    bad = dict(ROWS[1], completion=[{"role": "assistant", "content": "<answer>Paris</answer>"}])  # nested objects
    path = tmp_path / "rows.json"
    path.write_text(spoil(json.dumps([ROWS[0], bad, ROWS[2], ROWS[3]], indent=indent)))
    assert _ids(path) == [(1, 1, True), (2, None, False), (3, 3, True), (4, 4, True)]


def test_an_unclosed_string_resumes_at_the_next_object_or_says_what_it_lost(tmp_path) -> None:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(ROWS).replace('"Question 2?"', '"Question 2?'))
    assert _ids(path) == [(1, 1, True), (2, None, False), (3, 3, True), (4, 4, True)]
    path.write_text('[{"id": 1}, {"id": 2, "q": "abc}]')
    records = list(iter_records(path))
    assert [r.value for r in records][:1] == [{"id": 1}] and all(r.error for r in records[1:]), records
    assert "the rest of the array" in records[-1].error


def _run(module: str, *args, stdin=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], stdin=stdin, capture_output=True,
                          text=True, timeout=300)  # fmt: skip


def test_score_warm_and_build_keep_every_good_element_of_a_one_line_array(tmp_path) -> None:
    config = tmp_path / "c.yaml"
    write_offline_config(config)
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps(ROWS).replace('"Question 2?"', '"Question\t2?"'))
    out = tmp_path / "scored.jsonl"
    done = _run("reward_engine.score", "--input", rows, "--output", out, "--config", config, "--no-progress")
    assert done.returncode == 0, done.stderr
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r.get("id"), r["status"]) for r in scored] == [(1, "ok"), (None, "bad_input"), (3, "ok"), (4, "ok")]
    docs = tmp_path / "docs.json"
    docs.write_text(
        json.dumps([{"title": f"T{i}", "text": f"Text {i}."} for i in range(5)]).replace("Text 1.", "Te\txt")
    )
    done = _run("retrieval.build", "--input", docs, "--db", tmp_path / "kb.db", "--no-dense", "--no-progress")
    assert done.returncode == 0, done.stderr
    import sqlite3

    with sqlite3.connect(tmp_path / "kb.db") as conn:
        assert sorted(t for (t,) in conn.execute("SELECT title FROM documents")) == ["T0", "T2", "T3", "T4"]


def test_score_refuses_to_write_over_the_file_on_its_standard_input(tmp_path) -> None:
    config = tmp_path / "c.yaml"
    write_offline_config(config)
    rows = tmp_path / "in.jsonl"
    text = "".join(json.dumps(r) + "\n" for r in ROWS)
    rows.write_text(text)
    link = tmp_path / "also.jsonl"
    link.hardlink_to(rows)
    for output in (rows, link):
        with rows.open() as stdin:
            done = _run("reward_engine.score", "--input", "-", "--output", output, "--config", config, "--overwrite",
                        "--no-progress", stdin=stdin)  # fmt: skip
        assert done.returncode == 2 and "is the file on standard input" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
        assert rows.read_text() == text
    with rows.open() as stdin:  # another output is fine
        done = _run("reward_engine.score", "--input", "-", "--output", tmp_path / "o.jsonl", "--config", config,
                    "--no-progress", stdin=stdin)  # fmt: skip
    assert done.returncode == 0, done.stderr


def _kb(tmp_path: Path, year: str) -> Path:
    docs, db = tmp_path / "docs.jsonl", tmp_path / "kb.db"
    docs.write_text(json.dumps({"title": "Eiffel Tower", "text": f"The Eiffel Tower was completed in {year}."}) + "\n")
    done = _run("retrieval.build", "--input", docs, "--db", db, "--no-dense", "--no-progress")
    assert done.returncode == 0, done.stderr
    return db


async def test_an_engine_looks_evidence_up_again_after_its_kb_is_rebuilt(tmp_path, caplog) -> None:
    from reward_engine.config import parse_reward_config
    from reward_engine.engine import RewardEngine, Sample

    db = _kb(tmp_path, "1889")
    config = parse_reward_config(
        {
            "preset": "knowrl",
            "grader": "offline",
            "decomposer": "offline",
            "verifier": "offline",
            "factuality": {"kb_path": str(db), "retrieval_mode": "bm25"},
        }
    )
    sample = Sample(
        "When was the Eiffel Tower completed?",
        "<think>The Eiffel Tower was completed in 1889.</think><answer>1890</answer>",
        "1889",
        "Eiffel Tower",
    )
    async with RewardEngine(config) as engine:
        (before,) = await engine.score([sample])
        _kb(tmp_path, "1901")
        (after,) = await engine.score([sample])
    supported = [[c.supported for c in r.claims] for r in (before, after)]
    assert supported == [[True], [False]], (supported, before, after)
    assert "changed under a running engine" in caplog.text


async def test_inspect_warns_when_its_kb_is_not_the_one_the_rows_were_scored_against(tmp_path, capsys) -> None:
    from reward_engine.config import parse_reward_config
    from reward_engine.inspect import main
    from reward_engine.score import score_file

    db = _kb(tmp_path, "1889")
    src, scores = tmp_path / "in.jsonl", tmp_path / "scored.jsonl"
    row = {"question": "When was the Eiffel Tower completed?", "answers": "1889", "title": "Eiffel Tower",
           "completion": "<think>The Eiffel Tower was completed in 1889.</think><answer>1890</answer>"}  # fmt: skip
    src.write_text(json.dumps(row) + "\n")
    config = {
        "grader": "offline",
        "preset": "knowrl",
        "decomposer": "offline",
        "verifier": "offline",
        "factuality": {"kb_path": str(db), "retrieval_mode": "bm25"},
    }
    await score_file(src, scores, parse_reward_config(config), progress=False)
    assert main([str(scores), "--kb", str(db), "-o", str(tmp_path / "a.html")]) == 0
    assert "warning" not in capsys.readouterr().err
    _kb(tmp_path, "1901")
    assert main([str(scores), "--kb", str(db), "-o", str(tmp_path / "b.html")]) == 0
    err = capsys.readouterr().err
    assert "is not the knowledge base these rows were scored against" in err, err
