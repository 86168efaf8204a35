"""The training jobs build their reward KB once, and only as much of it as the reward's retrieval needs."""

from __future__ import annotations

import json

from knowrl.config import load_train_config
from knowrl.kb import ensure_kb
from retrieval.build import is_built
from retrieval.dense import index_paths
from retrieval.kb import KnowledgeBase
from tests.helpers import CORPUS


def _config(tmp_path, mode: str):
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps({"title": t, "text": x}) + "\n" for t, x in CORPUS))
    config = tmp_path / "run.yaml"
    config.write_text(
        json.dumps(
            {
                "model": {"name_or_path": "tiny"},
                "data": {"train": str(docs)},
                "kb": {"build_from": str(docs)},
                "reward": {"factuality": {"kb_path": str(tmp_path / "kb.db"), "retrieval_mode": mode}},
            }
        )
    )
    return load_train_config(config)


def test_bm25_reward_builds_no_dense_index_and_a_hybrid_run_adds_it(tmp_path, embedder):
    db = tmp_path / "kb.db"
    ensure_kb(_config(tmp_path, "bm25"))
    assert is_built(db, dense_index=False) and not index_paths(db)[0].exists()
    with KnowledgeBase(db, embedder=embedder) as kb:
        assert kb.modes == ("bm25",) and kb.search("Eiffel Tower", k=1, mode="bm25").hits[0].passage.title == "Paris"
    ensure_kb(_config(tmp_path, "hybrid"))
    assert is_built(db, dense_index=True)
    with KnowledgeBase(db, embedder=embedder) as kb:
        assert kb.search("Eiffel Tower", k=1).hits[0].passage.title == "Paris"


def test_a_changed_build_from_file_rebuilds_the_kb_as_exactly_its_documents(tmp_path, caplog):
    """Hostile pass 54 (J5): the KB built from docs.jsonl v1 stayed when the file changed, and the run trained
    against v1's text. Now it is rebuilt as v2 (a removed document gone), and left alone while the file stays."""
    import logging
    import sqlite3

    config = _config(tmp_path, "bm25")
    db, docs = tmp_path / "kb.db", tmp_path / "docs.jsonl"
    ensure_kb(config)
    (first_title, _), (second_title, _) = CORPUS[0], CORPUS[1]
    v2 = [(first_title, "A changed text: the tower is in Lyon."), *CORPUS[2:]]
    docs.write_text("".join(json.dumps({"title": t, "text": x}) + "\n" for t, x in v2))
    ensure_kb(config)

    def documents():
        with sqlite3.connect(db) as conn:
            return dict(conn.execute("SELECT title, text FROM documents"))

    held = documents()
    assert held == dict(v2) and second_title not in held
    caplog.clear()  # the builds above may have logged already (another test can leave the root logger at INFO)
    with caplog.at_level(logging.INFO, logger="knowrl.kb"):
        ensure_kb(config)
    assert not [r for r in caplog.records if "building" in r.getMessage()], "an unchanged input is not rebuilt"
    assert documents() == dict(v2)


def _settle(path, seconds: float = 10.0) -> None:
    """The file's mtime ``seconds`` in the past: a stamp taken just after a write is not trusted (racy mtime)."""
    import os
    import time

    past = time.time_ns() - int(seconds * 1e9)
    os.utime(path, ns=(past, past))


def _hashes(monkeypatch) -> list[int]:
    """One entry per SHA-256 started from now on (how a job start reads the build_from file whole)."""
    import hashlib

    started: list[int] = []
    real = hashlib.sha256

    def counted(*args, **kwargs):
        started.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(hashlib, "sha256", counted)
    return started


def _rebuilds(caplog, config) -> int:
    import logging

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="knowrl.kb"):
        ensure_kb(config)
    return len([r for r in caplog.records if "building" in r.getMessage()])


def test_an_unchanged_build_from_file_is_keyed_by_its_stat_not_read_again(tmp_path, monkeypatch, caplog):
    """Every job start on every rank hashed the whole kb.build_from file (cb7647b): now its size and mtime are
    compared first; a touched file is hashed once, found the same, and its stat refreshed (no rebuild)."""
    import os

    config = _config(tmp_path, "bm25")
    docs = tmp_path / "docs.jsonl"
    _settle(docs)
    ensure_kb(config)
    read = _hashes(monkeypatch)
    assert _rebuilds(caplog, config) == 0 and read == [], "an unchanged file is neither rebuilt nor read"
    os.utime(docs)  # touched: same text, a new mtime
    _settle(docs, 5)
    assert _rebuilds(caplog, config) == 0 and read == [1], "hashed once, the same: no rebuild"
    assert _rebuilds(caplog, config) == 0 and read == [1], "the refreshed stat vouches for it"


def test_a_kb_stamped_before_stats_is_hashed_once_not_rebuilt(tmp_path, monkeypatch, caplog):
    """A KB built before the stamp held size and mtime (the hash alone, ``build_from_sha256``) is not embedded
    again for lacking them: its file is hashed once, and the stamp recorded."""
    import hashlib
    import sqlite3

    config = _config(tmp_path, "bm25")
    db, docs = tmp_path / "kb.db", tmp_path / "docs.jsonl"
    _settle(docs)
    ensure_kb(config)
    digest = hashlib.sha256(docs.read_bytes()).hexdigest()
    with sqlite3.connect(db) as conn:  # as cb7647b left it
        conn.execute("DELETE FROM meta WHERE key = 'build_from'")
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('build_from_sha256', ?)", (json.dumps(digest),))
    read = _hashes(monkeypatch)
    assert _rebuilds(caplog, config) == 0 and read == [1]
    assert _rebuilds(caplog, config) == 0 and read == [1], "stamped: not read again"


def test_a_hand_rebuild_from_another_file_is_noticed_by_the_next_job(tmp_path):
    """``python -m retrieval.build --input OTHER --db KB`` left kb.build_from's stamp in the KB (cb7647b), so the
    next job trained against OTHER's text; later the job rebuilt it from kb.build_from, deleting OTHER's documents
    (audit 59, H1). Now the hand build needs --overwrite, and the next job refuses the KB, naming the keys."""
    import sqlite3

    import pytest

    from knowrl.config import ConfigError
    from retrieval.build import main as build_main

    config = _config(tmp_path, "bm25")
    db, docs = tmp_path / "kb.db", tmp_path / "docs.jsonl"
    _settle(docs)
    ensure_kb(config)
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"title": "Elsewhere", "text": "Another text entirely."}) + "\n")
    hand = ["--input", str(other), "--db", str(db), "--no-dense", "--no-progress"]
    assert build_main(hand) == 2, "the job's KB is not replaced without --overwrite"
    assert build_main([*hand, "--overwrite"]) == 0
    with pytest.raises(ConfigError, match="reward.factuality.kb_path .* holds a knowledge base built from .*other"):
        ensure_kb(config)
    with sqlite3.connect(db) as conn:
        assert dict(conn.execute("SELECT title, text FROM documents")) == {"Elsewhere": "Another text entirely."}
