"""Hostile pass 58, jobs: a script that replaced the user's own results README, a cache checked only after the
model loaded, a foreign SQLite file read as an empty knowledge base, and an evaluation that never checked its judge."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INDEX = ROOT / "bench" / "results_index.py"


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


def test_results_index_refuses_a_readme_it_did_not_write_and_replaces_its_own(tmp_path):
    """J2: ``--root`` with the user's own bench/results/README.md replaced it with the index, exit 0."""
    results = tmp_path / "proj" / "bench" / "results"
    results.mkdir(parents=True)
    mine = "# My own notes on these results\n\nkeep me\n"
    (results / "README.md").write_text(mine)
    (results / "mine.md").write_text("# mine\n")
    got = run(str(INDEX), "--root", str(tmp_path / "proj"))
    assert got.returncode == 2, got.stdout + got.stderr
    assert got.stderr.count("\n") == 1 and "README.md" in got.stderr and "Traceback" not in got.stderr
    assert (results / "README.md").read_text() == mine

    before = sorted(p.name for p in results.iterdir())
    got = run(str(INDEX), "--root", str(tmp_path / "proj"), "--check")  # read-only, whatever it finds
    assert (results / "README.md").read_text() == mine and sorted(p.name for p in results.iterdir()) == before

    (results / "README.md").unlink()  # its own page: written, then replaced by a rerun
    assert run(str(INDEX), "--root", str(tmp_path / "proj")).returncode == 0
    assert "Written by `bench/results_index.py`" in (results / "README.md").read_text()
    assert run(str(INDEX), "--root", str(tmp_path / "proj")).returncode == 0


def test_results_index_says_one_line_for_a_root_without_results(tmp_path):
    got = run(str(INDEX), "--root", str(tmp_path))
    assert got.returncode == 2 and "Traceback" not in got.stderr
    assert got.stderr.count("\n") == 1 and "--root" in got.stderr and "bench/results" in got.stderr


def test_this_repositorys_results_readme_is_the_index_s_own():
    sys.path.insert(0, str(ROOT))
    from knowrl_io.job_output import written_by

    readme = ROOT / "bench" / "results" / "README.md"
    assert "Written by `bench/results_index.py`" in readme.read_text(encoding="utf-8").splitlines()[2]
    assert written_by(readme, "bench/results_index.py")


def test_probe_candidates_checks_its_cache_before_the_model_loads(tmp_path, monkeypatch, capsys):
    """J5: ``--cache`` a user's file ended in a FileExistsError traceback after the model loaded and probed."""
    from knowrl.effect import probe_candidates

    def never(*_args, **_kwargs):
        raise AssertionError("probed before --cache was checked")

    monkeypatch.setattr(probe_candidates, "probe", never)
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n")
    for cache in (notes, notes / "sub"):
        code = probe_candidates.main(
            ["--model", "tiny", "--k", "1", "--cache", str(cache), "--out", str(tmp_path / "p.json")]
        )
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and "--cache" in err and str(notes) in err
    assert notes.read_text() == "mine\n" and not (tmp_path / "p.json").exists()


def test_search_refuses_another_programs_sqlite_file(tmp_path, capsys):
    """J4: a foreign SQLite file with a ``documents(id, body)`` table read as an empty knowledge base, exit 0."""
    import sqlite3

    import pytest

    from retrieval import search
    from retrieval.kb import KnowledgeBase

    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE documents (id INTEGER PRIMARY KEY, body TEXT)")
        conn.execute("CREATE TABLE notes (x)")
        conn.execute("INSERT INTO documents (body) VALUES ('Paris is the capital of France.')")
    conn.close()
    before = other.read_bytes()
    code = search.main(["--db", str(other), "--query", "Paris", "--mode", "bm25"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(other) in err and "not a knowledge base" in err
    with pytest.raises(ValueError, match="not a knowledge base"):
        KnowledgeBase(other)
    assert other.read_bytes() == before


def test_evaluate_checks_its_llm_judge_before_the_model_loads(tmp_path, monkeypatch, capsys):
    """J3: a judge config whose only endpoint was down loaded the model, wrote a report and exited 0; score and
    train refuse it up front (``check_judges``)."""
    import json
    import socket

    from knowrl import evaluate

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = tmp_path / "judge.json"
    judge = {"endpoints": [{"base_url": f"http://127.0.0.1:{port}/v1", "model": "judge", "api_key_env": None}]}
    config.write_text(
        json.dumps(
            {
                "preset": "knowrl",
                "grader": "llm",
                "factuality": {"enabled": False},
                "judge": {**judge, "max_attempts": 1, "cache_dir": None},
            }
        )
    )

    def never(*_args, **_kwargs):
        raise AssertionError("the model loaded before the judge was checked")

    monkeypatch.setattr(evaluate, "_evaluate", never)
    data = ROOT / "configs" / "data" / "smoke_rl.jsonl"
    argv = ["--model", "tiny", "--data", str(data), "--config", str(config), "--out", str(tmp_path / "ev")]
    assert evaluate.main([*argv, "--max-samples", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "judge: no endpoint accepts a connection" in err and f":{port}" in err
    assert not (tmp_path / "ev" / "report.json").exists()
