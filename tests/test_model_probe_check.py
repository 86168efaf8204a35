"""The embedding model's probe check at a job's start, cheap and everywhere a dense index is searched.

On cb7647b every job start on every rank loaded the sentence-transformers model to embed the probe sentence, and
``retrieval.search`` and ``retrieval.serve`` did not check the probe at all: a model whose weights changed in place
found the old vectors' neighbours for new query vectors, exit 0. The check now loads the model only when its
folder's files (path, sizes, mtimes) are not ones seen computing the probe, one process at a time, and search and
serve refuse such an index with the line a job gives."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_hostile_pass55_jobs import ENV, ROOT, copied_model, documents, perturb


def _past(model: Path, name: str, seconds: float) -> None:
    """``name``'s mtime ``seconds`` ago (settled: a file written in the last two seconds is never vouched for)."""
    when = time.time_ns() - int(seconds * 1e9)
    os.utime(model / name, ns=(when, when))


@pytest.fixture
def loads(monkeypatch) -> list[str]:
    """The sentence-transformers models loaded in this process from now on, by path."""
    import sentence_transformers

    loaded: list[str] = []
    real = sentence_transformers.SentenceTransformer

    def counted(path, *args, **kwargs):
        loaded.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(sentence_transformers, "SentenceTransformer", counted)
    return loaded


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    """A hybrid KB built with a copy of MiniLM (the copy keeps the installed files' mtimes): (KB, model)."""
    from retrieval.build import build

    model = copied_model(tmp_path)
    db = tmp_path / "kb.db"
    build(db, documents(), model=str(model), progress=False)
    return db, model


def test_the_check_loads_the_model_only_when_its_files_changed(built, loads, monkeypatch, tmp_path) -> None:
    from retrieval.kb import check_kb

    db, model = built
    check_kb(db, "hybrid")
    assert loads == [], "the build loaded these files and saw them compute the probe"
    _past(model, "config.json", 60)  # touched: the same model
    check_kb(db, "hybrid")
    check_kb(db, "hybrid")
    assert len(loads) == 1, "loaded once to prove the touched files, then trusted"
    monkeypatch.setenv("KNOWRL_CACHE_DIR", str(tmp_path / "another-cache"))  # nothing seen yet
    check_kb(db, "hybrid")
    assert len(loads) == 2
    perturb(model)
    _past(model, "model.safetensors", 30)  # other weights, the size kept
    with pytest.raises(ValueError, match="now computes other vectors"):
        check_kb(db, "hybrid")
    with pytest.raises(ValueError, match="now computes other vectors"):
        check_kb(db, "hybrid")  # never vouched for: loaded again, refused again
    assert len(loads) == 4


def test_ranks_starting_together_load_the_model_once(built, tmp_path) -> None:
    """Two processes check the KB at once with a cache that has seen nothing (as DDP ranks do): one loads the model,
    the other waits for its word."""
    db, _ = built
    script = (
        "import sentence_transformers as st, sys\n"
        "real = st.SentenceTransformer\n"
        "def counted(*a, **k):\n"
        "    print('loaded', flush=True)\n"
        "    return real(*a, **k)\n"
        "st.SentenceTransformer = counted\n"
        "from retrieval.kb import check_kb\n"
        "check_kb(sys.argv[1], 'hybrid')\n"
        "print('checked', flush=True)\n"
    )
    env = dict(ENV, KNOWRL_CACHE_DIR=str(tmp_path / "fresh-cache"))
    ranks = [
        subprocess.Popen([sys.executable, "-c", script, str(db)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    said = [rank.communicate(timeout=300)[0] for rank in ranks]
    assert all(rank.returncode == 0 and "checked" in out for rank, out in zip(ranks, said)), said
    assert sum(out.count("loaded") for out in said) == 1, said


def test_search_and_serve_refuse_a_model_changed_in_place(built, capsys) -> None:
    from retrieval.search import main as search

    db, model = built
    perturb(model)
    _past(model, "model.safetensors", 30)
    assert search(["--db", str(db), "--query", "Who plays Dave?", "--k", "1"]) == 2
    said = capsys.readouterr()
    lines = [line for line in said.err.splitlines() if line.startswith("error")]
    assert len(lines) == 1 and str(model) in lines[0] and str(db) in lines[0] and "now computes other" in lines[0]
    assert said.out == ""
    assert search(["--db", str(db), "--query", "Who plays Dave?", "--k", "1", "--mode", "bm25"]) == 0  # no model
    cmd = [sys.executable, "-m", "retrieval.serve", "--db", str(db), "--port", "0"]
    try:
        done = subprocess.run(cmd, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:  # cb7647b: served the changed model's neighbours
        pytest.fail("retrieval.serve listened on a dense index its model no longer computes")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("error")] == lines
