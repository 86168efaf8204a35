"""Audit 59 (issue #74, rule 2): the holes where a KB build replaced what was not its own.

H1: ``knowrl.train`` with ``kb.build_from`` deleted every document of a KB not stamped as built from that file (a
FActScore DB, a KB built from another input) and filled it with the file's. Now ``ensure_kb`` rebuilds only a KB
built from this input (its stamp or the build's own record; a build of it that did not finish included) and refuses
any other before the policy loads, naming ``reward.factuality.kb_path`` and ``kb.build_from``.
H2: ``retrieval.build --input extra.jsonl --db fs.db`` (or ``--preset demo``) replaced a KB built from another input,
or FActScore's documents-only DB, exit 0. Now a build records its input and replaces another's KB only with
``--overwrite``.
H12: ``kb.sqlite`` and ``kb.db`` in one folder shared ``kb.faiss``: a build of one replaced (``--no-dense``: removed)
the other's index. The manifest now names its KB file and a build refuses the clash. The fixed ``KB.faiss.tmp`` and
``KB.faiss.json.tmp`` names were written through a link planted there; now temporary files are created exclusively.
H13: ``--from-db X --db somedir --overwrite`` gave a traceback, and a FIFO (or, as root, ``/dev/null``) was unlinked.
Now a directory or special file as ``--db`` is refused in one line, before anything.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl.config import ConfigError, load_train_config
from knowrl.kb import ensure_kb
from retrieval.build import build, is_built
from retrieval.sources import Document
from tests.helpers import CORPUS, digest, documents, jsonl

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
MINE = [{"title": "Mine", "text": "My own notes, built into my own knowledge base."}]


def run_build(*args: str | Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "retrieval.build", "--no-progress", *map(str, args)]
    return subprocess.run(argv, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300, check=False)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The refusal's single stderr line (exit 2, no traceback)."""
    line = done.stderr.strip()
    assert done.returncode == 2 and "\n" not in line and line.startswith("error: "), done.stderr[-3000:]
    return line


def factscore_db(path: Path, n: int = 5) -> Path:
    """FActScore's documents-only DB."""
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE documents (title PRIMARY KEY, text)")
        conn.executemany("INSERT INTO documents VALUES (?, ?)", [(f"Doc {i}", f"Text number {i}.") for i in range(n)])
    return path


def train_config(tmp_path: Path, kb: Path, build_from: Path, mode: str = "bm25"):
    """A training config whose reward KB is ``kb``, built from ``build_from`` (what ``knowrl.train`` loads)."""
    config = tmp_path / f"run-{build_from.stem}.yaml"
    train = jsonl(tmp_path / "train.jsonl", [{"prompt": "Where is the Eiffel Tower?", "answer": "Paris"}])
    config.write_text(
        json.dumps(
            {
                "model": {"name_or_path": "tiny"},
                "data": {"train": str(train)},
                "kb": {"build_from": str(build_from)},
                "reward": {"factuality": {"kb_path": str(kb), "retrieval_mode": mode}},
            }
        )
    )
    return load_train_config(config)


def refused(config, kb: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        ensure_kb(config)
    message = str(caught.value)
    assert "\n" not in message and "reward.factuality.kb_path" in message and "kb.build_from" in message, message
    assert f"--db {kb} --overwrite" in message, message  # what to do
    return message


# H1 ---------------------------------------------------------------------------------------------------------------


def test_training_refuses_a_kb_built_from_another_file_and_rebuilds_only_its_own(tmp_path):
    """`retrieval.build --input mine.jsonl --db mine.db`, then a run with `kb.build_from: smoke docs` and that KB:
    mine.db held only the smoke documents. Now refused, untouched, no lock file beside it; a KB stamped from this
    file (as runs before the build recorded its input stamped it) is still rebuilt when the file changes."""
    mine = jsonl(tmp_path / "mine.jsonl", MINE)
    smoke = jsonl(tmp_path / "smoke.jsonl", [{"title": t, "text": x} for t, x in CORPUS])
    kb = tmp_path / "mine.db"
    assert run_build("--input", mine, "--db", kb, "--no-dense").returncode == 0
    (tmp_path / "mine.db.lock").unlink()  # the build's own lock (pass 60): the refusal must not write one
    before = digest(kb)
    message = refused(train_config(tmp_path, kb, smoke), kb)
    assert str(mine) in message and str(smoke) in message
    from knowrl.kb import check_kb  # knowrl.train's check, before --overwrite removes anything

    with pytest.raises(ConfigError, match="reward.factuality.kb_path"):
        check_kb(train_config(tmp_path, kb, smoke))
    assert digest(kb) == before and documents(kb) == {"Mine": MINE[0]["text"]}
    assert not (tmp_path / "mine.db.lock").exists()

    own = tmp_path / "own.db"  # the run's own KB, stamped as before builds recorded their input
    config = train_config(tmp_path, own, smoke)
    ensure_kb(config)
    with sqlite3.connect(own) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'built_from'")
    jsonl(smoke, [{"title": t, "text": x} for t, x in CORPUS[1:]])
    ensure_kb(config)
    assert documents(own) == dict(CORPUS[1:]), "its own input changed: rebuilt as exactly the file"


def test_training_refuses_a_factscore_db_and_the_demo_kb(tmp_path):
    """KnowRL's `knowledge_base.db` (documents only) with `kb.build_from: extra.jsonl` lost its documents."""
    extra = jsonl(tmp_path / "extra.jsonl", MINE)
    fs = factscore_db(tmp_path / "knowledge_base.db")
    before = digest(fs)
    assert "does not say what it was built from" in refused(train_config(tmp_path, fs, extra), fs)
    assert digest(fs) == before and len(documents(fs)) == 5

    demo = tmp_path / "demo.db"
    build(demo, [Document(t, x) for t, x in CORPUS], dense_index=False, progress=False, preset="demo")
    before = digest(demo)
    assert "demo preset" in refused(train_config(tmp_path, demo, extra), demo)
    assert digest(demo) == before


def test_an_interrupted_build_is_finished_by_its_input_and_refused_by_another(tmp_path, monkeypatch):
    """A run killed after the documents were committed, before the build finished: the next run of the same
    `kb.build_from` finishes it; a run of another file is refused (it replaced it before)."""
    import retrieval.build as build_module

    smoke = jsonl(tmp_path / "smoke.jsonl", [{"title": t, "text": x} for t, x in CORPUS])
    other = jsonl(tmp_path / "other.jsonl", MINE)
    kb = tmp_path / "kb.db"
    real = build_module.sync_passages

    def killed(*args, **kwargs):
        real(*args, **kwargs)  # commits the documents and passages
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "sync_passages", killed)
    with pytest.raises(KeyboardInterrupt):
        ensure_kb(train_config(tmp_path, kb, smoke))
    monkeypatch.setattr(build_module, "sync_passages", real)
    assert documents(kb) == dict(CORPUS) and not is_built(kb, dense_index=False)

    before = digest(kb)
    assert str(smoke) in refused(train_config(tmp_path, kb, other), kb)
    assert digest(kb) == before
    ensure_kb(train_config(tmp_path, kb, smoke))
    assert is_built(kb, dense_index=False) and documents(kb) == dict(CORPUS)


# H2 ---------------------------------------------------------------------------------------------------------------


def test_build_replaces_a_factscore_db_only_with_overwrite(tmp_path):
    """`--input extra.jsonl --db fs.db`: exit 0, fs.db's 5 documents gone. A `--from-db` KB records no input either."""
    extra = jsonl(tmp_path / "extra.jsonl", MINE)
    fs = factscore_db(tmp_path / "fs.db")
    before = digest(fs)
    line = one_line(run_build("--input", extra, "--db", fs, "--no-dense"))
    assert "--overwrite" in line and "does not say what it was built from" in line
    assert digest(fs) == before

    copy = tmp_path / "copy.db"
    assert run_build("--from-db", fs, "--db", copy, "--no-dense").returncode == 0
    assert "--overwrite" in one_line(run_build("--input", extra, "--db", copy, "--no-dense"))
    assert len(documents(copy)) == 5

    assert run_build("--input", extra, "--db", fs, "--no-dense", "--overwrite").returncode == 0
    assert documents(fs) == {"Mine": MINE[0]["text"]}


def test_build_replaces_another_inputs_kb_only_with_overwrite_and_rebuilds_its_own(tmp_path):
    """A KB built from a.jsonl: `--input b.jsonl` and `--preset demo` replaced it, exit 0. Now refused; the same
    input rebuilds it as exactly its content (a removed document goes), and --overwrite makes it b's."""
    a = jsonl(tmp_path / "a.jsonl", [{"title": t, "text": x} for t, x in CORPUS])
    b = jsonl(tmp_path / "b.jsonl", MINE)
    kb = tmp_path / "kb.db"
    assert run_build("--input", a, "--db", kb, "--no-dense").returncode == 0
    before = digest(kb)
    for source in (["--input", b], ["--preset", "demo"]):
        line = one_line(run_build(*source, "--db", kb, "--no-dense"))
        assert f"built from {a}" in line and "--overwrite" in line
        assert digest(kb) == before

    jsonl(a, [{"title": t, "text": x} for t, x in CORPUS[1:]])
    assert run_build("--input", a, "--db", kb, "--no-dense").returncode == 0
    assert documents(kb) == dict(CORPUS[1:])
    assert run_build("--input", b, "--db", kb, "--no-dense", "--overwrite").returncode == 0
    assert documents(kb) == {"Mine": MINE[0]["text"]}
    assert run_build("--input", b, "--db", kb, "--no-dense").returncode == 0, "now b's own"


# H12 --------------------------------------------------------------------------------------------------------------


def test_two_kbs_whose_names_differ_after_the_dot_do_not_share_a_dense_index(tmp_path, embedder):
    """`--db kb.sqlite`, then `--db kb.db` in one folder: kb.sqlite's index (hours of embedding for a real KB) was
    replaced, or removed by a --no-dense build. Refused, also for an index whose manifest predates naming its KB."""
    sqlite_kb = tmp_path / "kb.sqlite"
    build(sqlite_kb, [Document(t, x) for t, x in CORPUS], progress=False, embedder=embedder)
    index, manifest = tmp_path / "kb.faiss", tmp_path / "kb.faiss.json"
    b = jsonl(tmp_path / "b.jsonl", MINE)
    for legacy in (False, True):
        if legacy:  # written before the manifest named its KB file: told by the kb_id it records
            data = json.loads(manifest.read_text())
            del data["db_name"]
            manifest.write_text(json.dumps(data))
        kept = (digest(index), digest(manifest))
        for flags in ([], ["--no-dense"]):
            line = one_line(run_build("--input", b, "--db", tmp_path / "kb.db", *flags))
            assert "kb.sqlite" in line and "kb.faiss" in line
            assert (digest(index), digest(manifest)) == kept
        assert is_built(sqlite_kb) and not is_built(tmp_path / "kb.db")


def test_index_files_are_written_through_no_planted_link(tmp_path, embedder):
    """The index went to the fixed `KB.faiss.tmp` and the manifest to `KB.faiss.json.tmp`, opened for writing
    wherever a link there pointed: the link's target was overwritten. Now temporary names are made exclusively."""
    victims = {}
    for name in ("kb.faiss.tmp", "kb.faiss.json.tmp"):
        victim = tmp_path / f"victim-{len(victims)}.txt"
        victim.write_text("someone's file\n")
        (tmp_path / name).symlink_to(victim)
        victims[victim] = victim.read_bytes()
    db = tmp_path / "kb.db"
    build(db, [Document(t, x) for t, x in CORPUS], progress=False, embedder=embedder)
    assert {v: v.read_bytes() for v in victims} == victims
    assert is_built(db) and json.loads((tmp_path / "kb.faiss.json").read_text())["db_name"] == "kb.db"
    left = sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp") and not p.is_symlink())
    assert left == [], left


# H13 --------------------------------------------------------------------------------------------------------------


def test_a_directory_or_special_file_as_db_is_refused_before_anything(tmp_path):
    """`--from-db X --db somedir --overwrite`: IsADirectoryError traceback; a FIFO (as root, /dev/null) was unlinked
    and replaced by the copy. Also a file that is no KB is not replaced by --overwrite."""
    source = tmp_path / "x.db"
    build(source, [Document(t, x) for t, x in CORPUS], dense_index=False, progress=False)
    folder = tmp_path / "somedir"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n")
    assert "is a directory" in one_line(run_build("--from-db", source, "--db", folder, "--overwrite", "--no-dense"))
    assert (folder / "notes.txt").read_text() == "mine\n"

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert "special file" in one_line(run_build("--from-db", source, "--db", fifo, "--overwrite", "--no-dense"))
    assert fifo.is_fifo()
    assert "special file" in one_line(run_build("--from-db", fifo, "--db", tmp_path / "new.db", "--no-dense"))

    notes = tmp_path / "notes.db"
    notes.write_text("not a database\n")
    assert "not a knowledge base" in one_line(run_build("--from-db", source, "--db", notes, "--overwrite"))
    assert notes.read_text() == "not a database\n"
