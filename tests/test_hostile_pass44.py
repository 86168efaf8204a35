"""Hostile pass 44 (seed 44044, run at c8dc691, issue #74): 30 cases written before they were run. Closed here (each
assertion failed on c8dc691):

- two `score` runs at once on one file, one naming it through a symbolic link, each took the lock beside the name it
  was given and both wrote the file: both exited 0 with 256 of 600 rows left (data loss). The file a link names is
  now locked too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from knowrl_io.job_output import OutputError, own_output


def test_a_run_through_a_link_and_a_run_naming_its_file_are_two_writers(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": 1}\n')
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    link.symlink_to(real.name)  # dangling: neither run has written yet
    with own_output(real, source, "score", "s"):
        with pytest.raises(OutputError, match="another job is writing"):
            with own_output(link, source, "score", "s"):
                pass
    with own_output(link, source, "score", "s"):  # and the other way round
        with pytest.raises(OutputError, match="another job is writing"):
            with own_output(real, source, "score", "s"):
                pass
    assert link.is_symlink()


def test_two_links_to_one_file_are_two_writers(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": 1}\n')
    (tmp_path / "a.jsonl").symlink_to("real.jsonl")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "real.jsonl")
    with own_output(tmp_path / "a.jsonl", source, "score", "s"):
        with pytest.raises(OutputError, match="real.jsonl.lock"):
            with own_output(tmp_path / "b.jsonl", source, "score", "s"):
                pass
