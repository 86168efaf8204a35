"""Hostile pass 49 (seed 49049, run at 674daca, issue #74): 30 cases written before they were run; 19 held. Each
assertion here failed on 674daca. Closed:

- a silent failure: ``knowrl.evaluate`` whose judge answered every call with HTTP 500 exited 0, its report counting
  every answer as not attempted (f_score 0.0, not_attempted 1.0) and one log line of "coverage 0.00": now exit 4
  after writing the reports, past ``--max-error-share`` (default 0.1, as ``score``), with one line saying so;
- a clobbered record: ``score --output x.jsonl.job.json --overwrite`` replaced the record of the job that wrote
  ``x.jsonl`` with its rows (job A's rerun then refused its own output): an output named as another output's record
  or lock file is refused, with or without ``--overwrite``;
- ``reward_engine.inspect ... --kb kb.db -o kb.faiss --overwrite`` wrote the page over the KB's dense index: its
  index and manifest are inputs too;
- a dense index zeroed or written over passed the up-front check (size, manifest), and a hybrid score then failed
  every row (exit 3): the check reads the index's FAISS header, one line, exit 2 before the first row;
- wrong answers paid: "July the twenty-first, 2017." NOT_ATTEMPTED for July 12, 2017 (no day read in "Month the D"
  nor in a day in words past twenty); "Arianne Zucker. Thinking about it more, the role belongs to Alison Sweeney."
  CORRECT (a later sentence taking the answer back for another name); Binary RAR paid "Elizabeth Fry." where
  Churchill is on the note, "replacing Elizabeth Fry".

Review 49 (113 cases, 1204fdd against 59fa0ca) found 23 regressions, all mended: the later-sentence rule fired on
any new name ("Mark Twain. Actually, Samuel Clemens was his real name.", "Paris. In fact, the Louvre ... are there":
now only "it was X", "the answer is X", "the role belongs to X"); the replaced-name rule read on past the name
("Instead of Denver the 1976 Winter Olympics were hosted by Innsbruck") and fired on questions about a predecessor
("preceded", "predecessor", "take over from", "in 1995"); an output named "notes.lock" beside a user's own "notes"
was refused (now only another job's output); evaluate's share counted sampled answers as graded.
The £5/£10 case (G6 below) is closed too: an answer that puts the gold on another figured item ("Churchill is on the
£10 note.") is INCORRECT.

Closed three sessions later: F2, ``contradicted`` reads a claim's ordinal century against the passage's years ("the
17th century" against 1763; ``supported`` still does not pay "the 18th century" there). Left: under-pays G1 (a year in
words after a day), G5 ("Flower (a striped skunk, Mephitis mephitis)."), G11 ("Neither Delilah nor Goliath — it was
Samson."), G13 (a bare "— no," between two answers); pass 49's J5 report still counts unscored answers as not
attempted in its rates (the exit code and the ``unscored`` count say so).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judges.test_server import ServerConfig, serve_in_thread
from knowrl import evaluate
from knowrl_io.job_output import OutputError
from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

ROOT = Path(__file__).resolve().parents[1]


def test_an_evaluation_whose_judge_is_down_is_no_success(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        "".join(json.dumps({"question": f"What is {i} + {i}?", "answers": str(2 * i)}) + "\n" for i in range(3))
    )
    answers = [f"<think>\nSum.\n</think>\n<answer>\n{2 * i}\n</answer>" for i in range(3)]
    monkeypatch.setattr(evaluate, "generation_passes", lambda model, adapter, questions, *a, **k: (answers, None))
    with serve_in_thread(ServerConfig(fault_rate=1.0, faults=("500",))) as server:
        config = tmp_path / "cfg.json"
        config.write_text(
            json.dumps(
                {
                    "grader": "llm",
                    "factuality": {"enabled": False},
                    "judge": {
                        "endpoints": [{"base_url": server.url, "model": "m", "api_key_env": None}],
                        "max_attempts": 1,
                        "cache_dir": None,
                    },
                }
            )
        )
        argv = ["--model", "tiny", "--data", str(rows), "--config", str(config), "--out", str(tmp_path / "ev")]
        assert evaluate.main(argv) == 4
        report = json.loads((tmp_path / "ev" / "report.json").read_text())
        assert report["metrics"]["unscored"] == 3  # written all the same
        error = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
        assert len(error) == 1 and "3 of 3 answers could not be graded" in error[0]
        assert evaluate.main([*argv, "--overwrite", "--max-error-share", "1"]) == 0


def _score(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "cfg.json"
    config.write_text(json.dumps({"preset": "knowrl", "grader": "offline", "factuality": {"enabled": False}}))
    env = dict(os.environ, PYTHONPATH=str(ROOT), KNOWRL_CACHE_DIR=str(tmp_path / "cache"))
    argv = (*argv, "--config", str(config), "--no-progress")
    return subprocess.run(
        [sys.executable, "-m", "reward_engine.score", *argv], cwd=ROOT, env=env, capture_output=True, text=True
    )


def _rows(path: Path, answer: str) -> Path:
    row = {"question": "What is the capital of France?", "answers": "Paris", "title": "Paris"}
    path.write_text(
        "".join(json.dumps({**row, "id": i, "completion": f"<answer>{answer}</answer>"}) + "\n" for i in range(3))
    )
    return path


def test_another_jobs_record_is_no_output_even_with_overwrite(tmp_path: Path) -> None:
    rows_a, rows_b = _rows(tmp_path / "a.jsonl", "Paris"), _rows(tmp_path / "b.jsonl", "Lyon")
    out, record = tmp_path / "x.jsonl", tmp_path / "x.jsonl.job.json"
    assert _score(tmp_path, "--input", str(rows_a), "--output", str(out)).returncode == 0
    kept = record.read_bytes()
    clobber = _score(tmp_path, "--input", str(rows_b), "--output", str(record), "--overwrite")
    assert clobber.returncode == 2 and "keeps its record file" in clobber.stderr, clobber.stderr
    assert record.read_bytes() == kept
    assert _score(tmp_path, "--input", str(rows_a), "--output", str(out)).returncode == 0


def test_the_report_is_never_written_over_the_kbs_dense_index(tmp_path: Path) -> None:
    from retrieval.dense import index_paths
    from reward_engine.inspect import check_output

    rows, kb = tmp_path / "out.jsonl", tmp_path / "kb.db"
    rows.write_text("{}\n")
    kb.write_bytes(b"")
    for index_file in index_paths(kb):
        index_file.write_bytes(b"FAISS")
        with pytest.raises(OutputError, match="is the input file"):
            check_output(index_file, rows, kb_path=kb, overwrite=True)
        assert index_file.read_bytes() == b"FAISS"


def test_a_dense_index_written_over_is_refused_before_the_first_row(tmp_path: Path, embedder) -> None:
    from retrieval.build import build
    from retrieval.dense import index_paths
    from retrieval.kb import check_kb
    from retrieval.sources import Document

    db = tmp_path / "kb.db"
    build(db, [Document("Paris", "Paris is the capital of France.")], progress=False, embedder=embedder)
    assert check_kb(db, "hybrid")
    index = index_paths(db)[0]
    index.write_bytes(b"\0" * index.stat().st_size)  # zeroed in place: the size and the manifest still agree
    with pytest.raises(ValueError, match="is not a FAISS index"):
        check_kb(db, "hybrid")


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("July the twenty-first, 2017.", Label.INCORRECT),
        ("July the 21st, 2017.", Label.INCORRECT),
        ("July the twelfth, 2017.", Label.CORRECT),
    ],
)
def test_a_day_after_the_month_and_in_words(answer: str, label: Label) -> None:
    assert grade(answer, "July 12, 2017", "When was it released?") is label


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Arianne Zucker. Thinking about it more, the role belongs to Alison Sweeney.", Label.INCORRECT),
        ("Arianne Zucker. Actually, the role belongs to Alison Sweeney.", Label.INCORRECT),
        ("Arianne Zucker. Actually, she also played Sami Brady.", Label.CORRECT),
    ],
)
def test_a_later_sentence_taking_the_answer_back(answer: str, label: Label) -> None:
    assert grade(answer, "Arianne Zucker", "Who played Nicole Walker on Days of Our Lives?") is label


def test_binary_rar_the_one_replaced() -> None:
    note = ["Since 2016, Winston Churchill has been on the back of the £5 note, replacing Elizabeth Fry."]
    assert facts.answer_contradicted("Who is on the back of the £5 note?", "Elizabeth Fry.", note)
    assert not facts.answer_contradicted("Who is on the back of the £5 note?", "Winston Churchill.", note)
    assert not facts.answer_contradicted("Who was on the £5 note before Churchill?", "Elizabeth Fry.", note)


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Mark Twain. Actually, Samuel Clemens was his real name.", Label.CORRECT),
        ("Mark Twain. In fact, Samuel Langhorne Clemens wrote it under that pen name.", Label.CORRECT),
        ("Mark Twain. Actually, it was Bret Harte.", Label.INCORRECT),
    ],
)
def test_review_49_a_later_sentence_about_the_answer(answer: str, label: Label) -> None:
    assert grade(answer, "Mark Twain", "Who wrote The Adventures of Tom Sawyer?") is label


def test_review_49_the_replaced_one_asked_for() -> None:
    note = ["Since 2016, Winston Churchill has been on the back of the £5 note, replacing Elizabeth Fry."]
    assert not facts.answer_contradicted("Who preceded Churchill on the back of the £5 note?", "Elizabeth Fry.", note)
    games = ["Instead of Denver the 1976 Winter Olympics were hosted by Innsbruck, a city in Austria."]
    assert not facts.answer_contradicted("Which city hosted the 1976 Winter Olympics?", "Innsbruck.", games)


def test_the_gold_on_another_figured_item() -> None:
    asked = "Who is on the back of the £5 note?"
    assert grade("Churchill is on the £10 note.", "Winston Churchill", asked) is Label.INCORRECT
    assert grade("Churchill (the £10 note has Jane Austen).", "Winston Churchill", asked) is Label.CORRECT


def test_a_lock_name_beside_a_users_own_file_is_allowed(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("my notes\n")
    rows = _rows(tmp_path / "a.jsonl", "Paris")
    assert _score(tmp_path, "--input", str(rows), "--output", str(tmp_path / "notes.lock")).returncode == 0


def test_a_century_the_years_are_not_in_is_contradicted() -> None:
    from reward_engine.offline import facts

    told = ["Canada became a British colony in 1763, when France ceded New France to Britain in the Treaty of Paris."]
    assert facts.contradicted("Canada became a British colony in the 17th century.", told)
    assert not facts.contradicted("Canada became a British colony in the 18th century.", told)
