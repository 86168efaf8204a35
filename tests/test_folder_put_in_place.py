"""A model folder saved aside and put in place whole (``knowrl_io.atomic_write.folder_put_in_place``): the tiny
model and a GGUF conversion saved into ``OUT.tmp-PID``, a name anyone could plant a link at (the landing review of
pass 63). The planted-link assertion failed on 600c82b's ``knowrl.tiny``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from knowrl_io.atomic_write import folder_put_in_place


def test_the_folder_is_put_in_place_whole_and_nothing_is_left_beside_it(tmp_path: Path) -> None:
    out = tmp_path / "models" / "tiny"
    with folder_put_in_place(out) as tmp:
        assert tmp.parent == out.parent and not out.exists()
        (tmp / "config.json").write_text("{}")
    assert (out / "config.json").read_text() == "{}" and os.listdir(out.parent) == ["tiny"]


def test_a_folder_another_process_put_there_first_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "tiny"
    with folder_put_in_place(out) as tmp:
        (tmp / "weights").write_text("mine")
        out.mkdir()
        (out / "weights").write_text("theirs")
    assert (out / "weights").read_text() == "theirs" and os.listdir(tmp_path) == ["tiny"]


def test_a_failed_save_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "tiny"
    with pytest.raises(RuntimeError), folder_put_in_place(out) as tmp:
        (tmp / "half").write_text("x")
        raise RuntimeError("disk full")
    assert os.listdir(tmp_path) == []


def test_the_tiny_model_is_not_saved_through_a_link_planted_at_the_old_temp_name(tmp_path: Path) -> None:
    from knowrl.tiny import build_tiny_model

    victim = tmp_path / "victim"
    victim.mkdir()
    out = tmp_path / "tiny"
    (tmp_path / f"tiny.tmp-{os.getpid()}").symlink_to(victim)
    build_tiny_model(out)
    assert os.listdir(victim) == [] and (out / "config.json").is_file()
