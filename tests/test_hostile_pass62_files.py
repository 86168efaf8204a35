"""Hostile pass 62's data loss (issue #74), as a variant of its case (the pass's own calls stay out of the tests): a
user's note that happens to carry the work mark's file name and quotes the script's command was taken for the mark,
and a bench run emptied the folder. The mark is its own first line now. Failed on 8c3b43c."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from knowrl_io.work_folder import WORK_MARK, claim_work, marked
from tests.helpers import tree_hashes

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "note",
    [
        "How I ran it:\npython bench/effect.py --work mywork --seeds 0\n",
        "python -m bench.effect --seeds 0 1 --work .\n",
        "notes: Written by `bench/effect.py` is what its pages say\n",
    ],
)
def test_a_note_quoting_the_command_is_no_mark(tmp_path: Path, note: str, capsys) -> None:
    mine = tmp_path / "mywork"
    mine.mkdir()
    (mine / WORK_MARK).write_text(note)
    (mine / "results.csv").write_text("seed,accuracy\n0,0.41\n")
    before = tree_hashes(mine)
    assert not marked(mine, str(ROOT / "bench" / "effect.py"))
    with pytest.raises(SystemExit) as refused:
        claim_work(argparse.Namespace(work=mine), str(ROOT / "bench" / "effect.py"), clear=True)
    assert refused.value.code == 2 and "--work" in capsys.readouterr().err
    assert tree_hashes(mine) == before


def test_the_script_s_own_mark_and_the_one_line_a_user_writes_still_count(tmp_path: Path) -> None:
    made = claim_work(argparse.Namespace(work=tmp_path / "new"), str(ROOT / "bench" / "effect.py"))
    assert marked(made, str(ROOT / "bench" / "effect.py"))
    old = tmp_path / "old"
    old.mkdir()
    (old / WORK_MARK).write_text("Written by `bench/effect.py`\n")  # the line the refusal tells a user to write
    assert marked(old, str(ROOT / "bench" / "effect.py"))
    assert not marked(old, str(ROOT / "bench" / "reliability.py"))
