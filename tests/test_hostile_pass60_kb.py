"""Hostile pass 60, the KB build's findings; each test failed at the commit before its fix.

- J11 data loss: ``kb.build_from`` naming the KB file itself, or a file that is no JSON/JSONL (notes.md), built an
  empty KB, exit 0; ``retrieval.build --input X --db X`` read its own KB as input. Now one line naming
  ``kb.build_from`` (``--input``), before anything is written.
- J5 stale: ``kb.build_from: demo`` on a KB built from a file trained on the file's KB. Now refused as a switch
  from one file to another is (the KB records what it was built from).
- J6 data loss: a bad row in ``kb.build_from`` was dropped without a word, and on a rebuild a torn row deleted
  its document. Now the run refuses before the build, naming file:line and field.
- ``knowrl.kb.build_kb`` asked for ``--overwrite`` (a flag training lacks) and its errors named ``--db``.
- Two builds of one KB (``retrieval.build`` beside a run's ``ensure_kb``) took no common lock.
- ``retrieval.build --input`` wrote no ``kb.build_from`` stamp, so the next training run built the KB again.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import pytest

from knowrl import train
from knowrl.config import ConfigError, load_train_config
from knowrl.kb import build_kb, check_kb, ensure_kb
from retrieval.build import main as build_main
from tests.helpers import CORPUS, digest, documents, jsonl, lock_held_elsewhere

ROWS = [{"title": t, "text": x} for t, x in CORPUS]


def config_file(tmp_path: Path, kb: Path, build_from: Path | str) -> Path:
    """A training config whose reward KB is ``kb``, built from ``build_from`` (BM25: no embedding)."""
    train_rows = jsonl(tmp_path / "train.jsonl", [{"prompt": "Where is the Eiffel Tower?", "answer": "Paris"}])
    path = tmp_path / "run.yaml"
    path.write_text(
        json.dumps(
            {
                "model": {"name_or_path": "tiny"},
                "data": {"train": str(train_rows)},
                "kb": {"build_from": str(build_from)},
                "reward": {"grader": "offline", "factuality": {"kb_path": str(kb), "retrieval_mode": "bm25"}},
                "output_dir": str(tmp_path / "run"),
            }
        )
    )
    return path


def config(tmp_path: Path, kb: Path, build_from: Path | str):
    return load_train_config(config_file(tmp_path, kb, build_from))


def refused(tmp_path: Path, kb: Path, build_from: Path | str, *words: str) -> str:
    """``check_kb`` (knowrl.train, before --overwrite) and ``ensure_kb`` (before the policy) refuse in one line."""
    for check in (check_kb, ensure_kb):
        with pytest.raises(ConfigError) as caught:
            check(config(tmp_path, kb, build_from))
        message = str(caught.value)
        assert "\n" not in message and "kb.build_from" in message, message
        for word in words:
            assert word in message, message
    return message


# J11 --------------------------------------------------------------------------------------------------------------


def test_j11_build_from_the_kb_itself_is_refused_and_the_kb_kept(tmp_path):
    kb = tmp_path / "kb.db"
    ensure_kb(config(tmp_path, kb, jsonl(tmp_path / "docs.jsonl", ROWS)))
    before = digest(kb)
    message = refused(tmp_path, kb, kb, str(kb), "reward.factuality.kb_path")
    assert "--overwrite" not in message, "refused, but told to run the build that empties it"
    assert digest(kb) == before and documents(kb) == dict(CORPUS)


def test_j11_a_markdown_build_from_is_refused_before_anything_is_written(tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nThe Eiffel Tower is in Paris.\n", encoding="utf-8")
    kb = tmp_path / "kb.db"
    refused(tmp_path, kb, notes, f"{notes}:1:")
    assert not kb.exists()


def test_j11_the_train_job_refuses_before_its_output_dir_and_model(tmp_path, monkeypatch, capsys):
    """``python -m knowrl.train``: exit 2, one line, before ``--overwrite`` would clear output_dir or a model loads."""

    def never(*_args, **_kwargs):
        raise AssertionError("the job went past its KB check")

    monkeypatch.setattr(train, "check_model_path", lambda *_a, **_k: None)
    monkeypatch.setattr(train, "claimed", never)
    kb = tmp_path / "kb.db"
    ensure_kb(config(tmp_path, kb, jsonl(tmp_path / "docs.jsonl", ROWS)))
    before = digest(kb)
    capsys.readouterr()
    code = train.main(["--config", str(config_file(tmp_path, kb, kb))])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and "kb.build_from" in err, err
    assert digest(kb) == before


def test_j11_build_input_that_is_its_own_db_is_refused(tmp_path, capsys):
    kb = tmp_path / "kb.db"
    assert build_main(["--input", str(jsonl(tmp_path / "docs.jsonl", ROWS)), "--db", str(kb), "--no-dense"]) == 0
    before = digest(kb)
    capsys.readouterr()
    assert build_main(["--input", str(kb), "--db", str(kb), "--no-dense", "--no-progress", "--overwrite"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--input" in err and "--db" in err, err
    assert digest(kb) == before


# J5 ---------------------------------------------------------------------------------------------------------------


def test_j5_demo_after_a_file_build_is_refused_like_another_file(tmp_path):
    kb = tmp_path / "kb.db"
    docs = jsonl(tmp_path / "docs.jsonl", ROWS)
    ensure_kb(config(tmp_path, kb, docs))
    before = digest(kb)
    refused(tmp_path, kb, jsonl(tmp_path / "other.jsonl", ROWS[:2]), str(docs))  # what HEAD does for file -> file
    refused(tmp_path, kb, "demo", str(docs), "reward.factuality.kb_path")
    assert digest(kb) == before


# J6 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ('{"title": "Paris", "text": "torn', ":1:"),
        (json.dumps({"text": "Paris is the capital of France."}), "'title'"),
        (json.dumps({"title": "Paris", "text": 1889}), "'text'"),
    ],
)
def test_j6_a_bad_row_refuses_the_run_and_keeps_the_kb(tmp_path, line, where):
    kb = tmp_path / "kb.db"
    docs = jsonl(tmp_path / "docs.jsonl", ROWS)
    ensure_kb(config(tmp_path, kb, docs))
    before = digest(kb)
    lines = docs.read_text(encoding="utf-8").splitlines()
    docs.write_text("\n".join([line, *lines[1:]]) + "\n", encoding="utf-8")
    refused(tmp_path, kb, docs, f"{docs}:1", where)
    assert digest(kb) == before and documents(kb) == dict(CORPUS)

    fresh = tmp_path / "fresh.db"  # a first build: no KB missing a document either
    refused(tmp_path, fresh, docs, f"{docs}:1")
    assert not fresh.exists()


# build_kb ---------------------------------------------------------------------------------------------------------


def test_build_kb_replaces_what_ensure_kb_accepted_and_names_the_config_keys(tmp_path):
    """``build_kb`` is called once ``ensure_kb`` accepted replacing the KB: ``build()`` asked for ``--overwrite``."""
    kb = tmp_path / "kb.db"
    assert build_main(["--input", str(jsonl(tmp_path / "a.jsonl", ROWS)), "--db", str(kb), "--no-dense"]) == 0
    build_kb(kb, str(jsonl(tmp_path / "b.jsonl", ROWS[:2])), dense_index=False)
    assert documents(kb) == dict(CORPUS[:2])

    stray = tmp_path / "other.db"  # someone's file where other.db's dense index goes
    (tmp_path / "other.faiss").write_text("not an index\n")
    with pytest.raises(ConfigError) as caught:
        ensure_kb(config(tmp_path, stray, tmp_path / "a.jsonl"))
    message = str(caught.value)
    assert "reward.factuality.kb_path" in message and "--db" not in message, message


# lock -------------------------------------------------------------------------------------------------------------


def test_a_build_waits_for_the_lock_a_training_run_holds(tmp_path):
    """``ensure_kb`` holds ``KB.lock`` across its check and build; ``retrieval.build`` took none and interleaved."""
    kb = tmp_path / "kb.db"
    docs = jsonl(tmp_path / "docs.jsonl", ROWS)
    done: list[int] = []
    with lock_held_elsewhere(Path(str(kb) + ".lock")):
        argv = ["--input", str(docs), "--db", str(kb), "--no-dense", "--no-progress"]
        builder = threading.Thread(target=lambda: done.append(build_main(argv)))
        builder.start()
        builder.join(5)
        assert builder.is_alive() and not done, "the build did not wait for the lock"
    builder.join(120)
    assert done == [0] and documents(kb) == dict(CORPUS)


# stamp ------------------------------------------------------------------------------------------------------------


def test_a_cli_build_stamps_its_input_so_training_does_not_build_again(tmp_path, caplog):
    kb = tmp_path / "kb.db"
    docs = jsonl(tmp_path / "docs.jsonl", ROWS)
    assert build_main(["--input", str(docs), "--db", str(kb), "--no-dense", "--no-progress"]) == 0
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="knowrl.kb"):
        ensure_kb(config(tmp_path, kb, docs))
    assert not [r for r in caplog.records if "building" in r.getMessage()], caplog.text
