"""Building a KB: real SQLite, real FAISS, real MiniLM embeddings."""

from __future__ import annotations

import json
import sqlite3

import faiss
import numpy as np
import pytest

from retrieval.build import build
from retrieval.build import main as build_main
from retrieval.dense import Manifest, index_paths
from retrieval.kb import KnowledgeBase
from retrieval.schema import SEPARATOR
from retrieval.sources import Document, read_documents
from tests.helpers import CORPUS


def _docs():
    return [Document(t, x) for t, x in CORPUS]


def _counts(db):
    with sqlite3.connect(db) as conn:
        return (
            conn.execute("SELECT count(*) FROM documents").fetchone()[0],
            conn.execute("SELECT count(*) FROM passages").fetchone()[0],
            conn.execute("SELECT count(*) FROM passages_fts").fetchone()[0],
        )


def test_build_twice_adds_nothing_the_second_time(tmp_path, embedder):
    db = tmp_path / "kb.db"
    first = build(db, _docs(), progress=False, embedder=embedder)
    assert first.documents["added"] == len(CORPUS)
    docs, passages, fts_rows = _counts(db)
    assert docs == len(CORPUS) and passages == fts_rows >= len(CORPUS)

    second = build(db, _docs(), progress=False, embedder=embedder)
    unchanged = {
        "added": 0,
        "updated": 0,
        "unchanged": len(CORPUS),
        "duplicates": [],
        "removed": [],
        "kept_missing": [],
    }
    assert second.documents == unchanged
    assert second.dense["added"] == 0 and not second.dense["rebuilt"]
    assert _counts(db) == (docs, passages, fts_rows)
    index = faiss.read_index(str(index_paths(db)[0]))
    assert index.ntotal == passages


def test_changed_document_replaces_its_passages_and_vectors(tmp_path, embedder):
    db = tmp_path / "kb.db"
    build(db, _docs(), progress=False, embedder=embedder)
    with KnowledgeBase(db, embedder=embedder) as kb:
        old_ids, _, _ = kb.title_passage_ids(["Tokyo"])
    new_text = "Tokyo hosted the Summer Olympic Games in 1964 and again in 2021."
    report = build(db, [Document("Tokyo", new_text)], progress=False, embedder=embedder)
    assert report.documents["updated"] == 1
    assert report.dense["removed"] == len(old_ids) and report.dense["added"] == 1
    with KnowledgeBase(db, embedder=embedder) as kb:
        new_ids, _, _ = kb.title_passage_ids(["Tokyo"])
        assert not set(new_ids) & set(old_ids)
        top = kb.search("Which city hosted the Olympics in 1964?", k=1, mode="dense").hits[0]
        assert top.passage.title == "Tokyo" and "1964" in top.passage.text
        # The old vectors are really gone from FAISS, not just hidden.
        _, ids = kb._index.search(embedder.encode(["Tokyo is the capital of Japan"]), 20)
        assert not set(ids[0].tolist()) & set(old_ids)


def test_bad_rows_are_reported_by_line_and_the_rest_is_built(tmp_path, embedder, caplog):
    rows = [json.dumps({"title": t, "text": x}) for t, x in CORPUS[:3]]
    lines = [
        rows[0],
        '{"title": "Broken", "text": ',  # line 2: invalid JSON
        json.dumps({"title": "No text"}),  # line 3: missing field
        json.dumps({"title": "", "text": "empty title"}),  # line 4
        json.dumps({"title": "Typed", "text": ["not", "a", "string"]}),  # line 5
        rows[1],
        json.dumps(["not an object"]),  # line 7
        rows[2],
    ]
    src = tmp_path / "docs.jsonl"
    src.write_text("\n".join(lines) + "\n")
    bad = {row.line: row for _, row in read_documents(src) if not isinstance(row, Document)}
    assert sorted(bad) == [2, 3, 4, 5, 7]
    assert bad[3].field == "text" and bad[4].field == "title" and bad[5].field == "text"
    assert "invalid JSON" in bad[2].reason and str(src) in str(bad[2])

    assert build_main(["--input", str(src), "--db", str(tmp_path / "kb.db"), "--no-progress"]) == 0
    err = caplog.text
    for line in (2, 3, 4, 5, 7):
        assert f"docs.jsonl:{line}:" in err
    assert _counts(tmp_path / "kb.db")[0] == 3


def test_json_array_with_a_broken_element_keeps_the_others(tmp_path):
    src = tmp_path / "docs.json"
    src.write_text(
        "[\n"
        '  {"title": "A", "text": "Alpha text."},\n'
        '  {"title": "B", "text": "unterminated},\n'
        '  {"title": "C", "text": "Gamma text."},\n'
        '  {"title": "D"}\n'
        "]\n"
    )
    rows = list(read_documents(src))
    good = [r.title for _, r in rows if isinstance(r, Document)]
    bad = [(r.line, r.field, r.where) for _, r in rows if not isinstance(r, Document)]
    assert good == ["A", "C"]
    assert bad == [(2, None, "element 2 (line 3)"), (4, "text", "element 4 (line 5)")]


@pytest.mark.parametrize(
    "text,why",
    [
        ("[]\n", "an empty file or an empty JSON array"),
        ("", "an empty file"),
        ('[1]\n{"title": 3}\n', "all 2 row(s) bad"),
    ],
)
def test_an_input_without_one_document_is_one_line_and_no_kb(tmp_path, capsys, text, why):
    """It used to build an empty KB and exit 0: a user's wrong file looked like a success."""
    src = tmp_path / "docs.jsonl"
    src.write_text(text)
    assert build_main(["--input", str(src), "--db", str(tmp_path / "kb.db"), "--no-dense", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"{src}: no documents to build" in err and why in err
    assert not (tmp_path / "kb.db").exists()


def test_non_utf8_input_is_flagged_not_fatal(tmp_path):
    src = tmp_path / "docs.jsonl"
    src.write_bytes(b'{"title": "A", "text": "fine"}\n{"title": "B", "text": "caf\xe9"}\n')
    src.write_bytes(
        b'{"title": "A", "text": "fine"}\n{"title": "B", "text": "caf\xe9"}\n{"title": "C", "text": "ok"}\n'
    )
    rows = list(read_documents(src))
    assert [(r.line, "UTF-8" in r.reason) for _, r in rows if not isinstance(r, Document)] == [(2, True)]
    assert [r.title for _, r in rows if isinstance(r, Document)] == ["A", "C"]


def test_ivf_index_past_the_flat_threshold(tmp_path, embedder):
    db = tmp_path / "kb.db"
    docs = _docs() + [Document(f"Filler {i}", f"Filler document number {i} about topic {i % 7}.") for i in range(60)]
    report = build(db, docs, progress=False, embedder=embedder, flat_max=20)
    assert report.dense["index_type"].startswith("IVF")
    manifest = Manifest.read(index_paths(db)[1])
    assert manifest.index_type.startswith("IVF") and manifest.count == _counts(db)[1]
    with KnowledgeBase(db, embedder=embedder) as kb:
        kb._index.nprobe = 64
        hit = kb.search("largest coral reef", k=1, mode="dense").hits[0]
        assert hit.passage.title == "Great Barrier Reef"
        titled = kb.search("reef", titles=["Great Barrier Reef"], k=3, mode="dense")
        assert {h.passage.title for h in titled.hits} == {"Great Barrier Reef"}
    again = build(
        db, docs + [Document("Extra", "An extra page about volcanoes.")], progress=False, embedder=embedder, flat_max=20
    )
    assert again.dense["added"] == 1 and not again.dense["rebuilt"]


def test_documents_table_is_factscore_format(tmp_path, embedder):
    db = tmp_path / "kb.db"
    long_text = " ".join(f"Sentence number {i} talks about the history of the harbour town." for i in range(80))
    build(db, [Document("Harbour", long_text)], progress=False, embedder=embedder, max_tokens=64)
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT text FROM documents WHERE title = 'Harbour'").fetchone()
        passages = [r[0] for r in conn.execute("SELECT text FROM passages WHERE title = 'Harbour' ORDER BY id")]
    assert text.split(SEPARATOR) == passages and len(passages) > 5
    assert " ".join(passages) == long_text  # nothing lost or reordered by chunking


@pytest.mark.parametrize("model", ["sentence-transformers/all-MiniLM-L6-v2"])
def test_manifest_records_what_the_vectors_mean(tmp_path, embedder, model):
    db = tmp_path / "kb.db"
    build(db, _docs(), progress=False, embedder=embedder)
    manifest = Manifest.read(index_paths(db)[1])
    assert manifest.model == model and manifest.dim == 384 and manifest.normalize
    index = faiss.read_index(str(index_paths(db)[0]))
    vec = index.reconstruct(1)
    assert np.isclose(np.linalg.norm(vec), 1.0, atol=1e-4)
