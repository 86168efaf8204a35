"""Hostile pass 46 (seed 46046, run at 8b53036, issue #74): 30 cases written before they were run; 23 held (jobs: a
full tmpfs and a read-only output resumed cleanly, warm and score at once on one cache, a gold edited in a JSON
array, Ctrl-C then an edited row, the config as --output, inspect with a missing --kb). Closed here (each assertion
failed on 8b53036):

- a rebuild from an input with one torn row kept every old document (stale evidence): now only the document the
  bad row may be (its title read even from a torn row), or all when no title can be read;
- `supported` held "Hassan II was the grandson of Mohammed V" against "... was the son of Mohammed V".

Left (in the issue's note): G6 "Hundreds of thousands." CORRECT for "Thousands" (unsure), F2 "until 1983" not
contradicted by "until April 1938" (a year against a month and year), R1 one fact restated against duplicate
sentences of its page (restatements are read per evidence sentence), G2 "In '17." and G14 "The 2011-12 season."
INCORRECT (under-pay).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from reward_engine.offline import facts

ROOT = Path(__file__).resolve().parents[1]


def _build(source: Path, db: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "retrieval.build", "--input", str(source), "--db", str(db), "--no-dense"]
    # --overwrite: old.jsonl's KB is rebuilt from new.jsonl, another input (audit 59, H2)
    return subprocess.run(
        [*command, "--no-progress", "--overwrite"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_a_torn_row_keeps_only_the_document_it_may_be(tmp_path: Path) -> None:
    old, new, db = tmp_path / "old.jsonl", tmp_path / "new.jsonl", tmp_path / "kb.db"
    docs = [("Old One", "One old text."), ("Old Two", "Two old text."), ("New 2", "The old text of New 2.")]
    old.write_text("".join(json.dumps({"title": t, "text": x}) + "\n" for t, x in docs))
    rows = [json.dumps({"title": f"New {i}", "text": f"New text {i}."}) for i in range(5)]
    rows[2] = '{"title": "New 2", "text": "cut sh'  # torn: invalid JSON, its title still readable
    new.write_text("\n".join(rows) + "\n")
    assert _build(old, db).returncode == 0
    done = _build(new, db)
    assert done.returncode == 0 and "new.jsonl:3" in done.stderr, done.stderr
    titles = sorted(t for (t,) in sqlite3.connect(db).execute("SELECT title FROM documents"))
    assert titles == ["New 0", "New 1", "New 2", "New 3", "New 4"]  # Old One and Old Two gone; New 2 kept
    rows[2] = '{"text": "no title at all'  # a bad row with no title to read: every old document stays
    new.write_text("\n".join(rows) + "\n")
    assert _build(old, db).returncode == 0 and _build(new, db).returncode == 0
    titles = sorted(t for (t,) in sqlite3.connect(db).execute("SELECT title FROM documents"))
    assert titles == ["New 0", "New 1", "New 2", "New 3", "New 4", "Old One", "Old Two"]


def test_another_kinship_is_not_supported() -> None:
    son = ["Hassan II of Morocco was the son of Mohammed V of Morocco and succeeded him as King in 1961."]
    assert not facts.supported("Hassan II was the grandson of Mohammed V of Morocco.", son)
    assert facts.supported("Hassan II was the son of Mohammed V of Morocco.", son)
    assert facts.supported("Hassan II succeeded Mohammed V as King in 1961.", son)
