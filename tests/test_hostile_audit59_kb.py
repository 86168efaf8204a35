"""Audit 59 (issue #74, rule 2): the holes where a KB build replaced what was not its own.

H12: ``kb.sqlite`` and ``kb.db`` in one folder shared ``kb.faiss``: a build of one replaced (``--no-dense``: removed)
the other's index. The manifest now names its KB file and a build refuses the clash. The fixed ``KB.faiss.tmp`` and
``KB.faiss.json.tmp`` names were written through a link planted there; now temporary files are created exclusively.
H13: ``--from-db X --db somedir --overwrite`` gave a traceback, and a FIFO (or, as root, ``/dev/null``) was unlinked.
Now a directory or special file as ``--db`` is refused in one line, before anything.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from retrieval.build import build, is_built
from retrieval.sources import Document
from tests.helpers import CORPUS

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


def jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
