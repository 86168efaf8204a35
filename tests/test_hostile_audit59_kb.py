"""Audit 59 (issue #74, rule 2): the holes where a KB build replaced what was not its own.

H13: ``--from-db X --db somedir --overwrite`` gave a traceback, and a FIFO (or, as root, ``/dev/null``) was unlinked.
Now a directory or special file as ``--db`` is refused in one line, before anything.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from retrieval.build import build
from retrieval.sources import Document
from tests.helpers import CORPUS

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")


def run_build(*args: str | Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "retrieval.build", "--no-progress", *map(str, args)]
    return subprocess.run(argv, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300, check=False)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The refusal's single stderr line (exit 2, no traceback)."""
    line = done.stderr.strip()
    assert done.returncode == 2 and "\n" not in line and line.startswith("error: "), done.stderr[-3000:]
    return line


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
