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
