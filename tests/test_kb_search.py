"""Searching a KB: modes, hostile query strings, title filter and fallback, stale indexes."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys

import pytest

from retrieval.build import build
from retrieval.build import main as build_main
from retrieval.chunking import Chunker
from retrieval.dense import IndexMismatchError, index_paths
from retrieval.fts import to_match_query
from retrieval.kb import KnowledgeBase, split_titles
from retrieval.schema import SEPARATOR, connect
from retrieval.sources import Document
from retrieval.store import ingest, sync_passages
from tests.helpers import CORPUS


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
@pytest.mark.parametrize(
    "query,title",
    [
        ("What is the capital of Japan?", "Tokyo"),
        ("Who created the Python language?", "Python (programming language)"),
        ("Which planet has the Great Red Spot?", "Jupiter"),
        ("Nobel Prize in Chemistry 1911 radioactivity", "Marie Curie"),
    ],
)
def test_each_mode_finds_the_gold_document(kb, mode, query, title):
    result = kb.search(query, k=3, mode=mode)
    assert result.scope == "global"
    assert result.hits[0].passage.title == title
    assert all(mode_name in ("bm25", "dense") for mode_name in result.hits[0].ranks)


def test_hybrid_reports_each_retrievers_rank(kb):
    hits = kb.search("highest mountain Himalayas", k=3).hits
    assert hits[0].passage.title == "Mount Everest"
    assert hits[0].ranks == {"bm25": 1, "dense": 1}
    assert hits[0].score == pytest.approx(1.0)  # top of both lists: 0.5 x 1 + 0.5 x 1
    assert all(0.0 <= h.score < 1.0 for h in hits[1:])


def test_rrf_fusion_scores_by_rank(kb_path, embedder):
    with KnowledgeBase(kb_path, embedder=embedder, fusion_rule="rrf") as kb:
        hit = kb.search("coral reef off Queensland", k=1).hits[0]
    assert hit.passage.title == "Great Barrier Reef" and hit.score == pytest.approx(2 / 61)


# Each hostile string, and whether BM25 restricted to Tokyo's passages should rank one: True when
# a word of it (operators and punctuation stripped) occurs in Tokyo's text. Hybrid search always
# ranks one for a non-blank query (the dense side has no vocabulary to miss).
HOSTILE = {
    '"': False,
    '""""': False,
    "capital AND OR NOT NEAR": True,
    "NEAR(capital japan, 2)": True,
    "capital*": True,
    "*": False,
    "title:Tokyo": True,
    "-capital": True,
    "^capital": True,
    "(capital": True,
    "capital)": True,
    "{title text}: japan": True,
    "Ťōkyō — 東京 capital ✓": True,
    "\u202ecapital\u202c": True,
    "capital\x00japan": True,
    "' OR 1=1; DROP TABLE passages; --": False,
    "a" * 5000: False,
    "AND": False,
    "NOT": False,
    "+ - * / ^ : ( ) \" '": False,
}
BLANK = ["", "   ", "\t\n"]


@pytest.mark.parametrize("query", BLANK)
@pytest.mark.parametrize("mode", ["bm25", "hybrid"])
def test_blank_queries_return_no_hits(kb, query, mode):
    result = kb.search(query, k=3, mode=mode)
    assert (result.hits, result.scope) == ([], "global")
    with_title = kb.search(query, titles=["Tokyo"], k=3, mode=mode)
    assert (with_title.hits, with_title.scope, with_title.titles_found) == ([], "titles", ["Tokyo"])


@pytest.mark.parametrize("query", sorted(HOSTILE))
@pytest.mark.parametrize("mode", ["bm25", "hybrid"])
def test_hostile_query_strings_are_plain_queries(kb, query, mode):
    result = kb.search(query, k=3, mode=mode)
    if mode == "hybrid":
        assert len(result.hits) == 3
    elif to_match_query(query) is None:  # nothing left to match once operators are stripped
        assert result.hits == []
    with_title = kb.search(query, titles=["Tokyo"], k=3, mode=mode)
    assert with_title.scope == "titles"
    if mode == "hybrid" or HOSTILE[query]:
        assert with_title.hits, f"{query[:40]!r} in {mode} found nothing in Tokyo"
        assert all(h.passage.title == "Tokyo" for h in with_title.hits)
    else:
        assert with_title.hits == []


def test_fts_operators_lose_their_meaning(kb):
    # As an FTS5 expression "capital NOT japan" would exclude Tokyo; as words it ranks it.
    assert kb.search("capital NOT japan", k=3, mode="bm25").hits[0].passage.title == "Tokyo"
    assert to_match_query('say "hi"') == '"say" OR "hi"'
    assert to_match_query("*:^()") is None


def test_title_filter_ranks_only_that_documents_passages(kb):
    result = kb.search("capital city", titles=["Paris"], k=5)
    assert result.scope == "titles" and result.titles_found == ["Paris"]
    assert {h.passage.title for h in result.hits} == {"Paris"}


def test_missing_title_falls_back_to_global_search(kb):
    result = kb.search("capital of Japan", titles="No Such Page;Another Missing", k=2)
    assert result.scope == "global"
    assert result.titles_missing == ["No Such Page", "Another Missing"]
    assert result.hits[0].passage.title == "Tokyo"


def test_some_titles_present_searches_those(kb):
    result = kb.search("largest", titles=["Missing", "Jupiter", "Amazon River"], k=5)
    assert result.scope == "titles"
    assert result.titles_found == ["Jupiter", "Amazon River"] and result.titles_missing == ["Missing"]
    assert {h.passage.title for h in result.hits} <= {"Jupiter", "Amazon River"}


def test_title_match_tolerates_case_and_underscores(kb):
    result = kb.search("summit height", titles=["mount_everest"], k=1)
    assert result.scope == "titles" and result.hits[0].passage.title == "Mount Everest"


def test_split_titles_knowrl_format():
    assert split_titles("A; B;;A ; ") == ["A", "B"]
    assert split_titles(["A", None, " ", "B"]) == ["A", "B"]
    assert split_titles(None) == []


def _factscore_db(path):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE documents (title PRIMARY KEY, text)")
    for title, text in CORPUS:
        sentences = text.split(". ")
        conn.execute("INSERT INTO documents VALUES (?, ?)", (title, SEPARATOR.join(sentences)))
    conn.commit()
    conn.close()
    return path


def test_factscore_db_opens_as_is_and_is_never_modified(tmp_path, embedder):
    db = _factscore_db(tmp_path / "knowledge_base.db")
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    with KnowledgeBase(db, embedder=embedder) as kb:
        assert not kb.indexed
        result = kb.search("When was Mozart born?", titles="Mozart", k=2)
        assert result.scope == "titles" and result.hits[0].passage.title == "Mozart"
        assert "1756" in result.hits[0].passage.text
        assert kb.search("anything", titles="Absent Page", k=2).hits == []
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_factscore_db_title_cache_is_bounded(tmp_path, embedder):
    """A documents-only DB embeds a title's passages on first use; a long run must not keep them all."""
    db = _factscore_db(tmp_path / "knowledge_base.db")
    with KnowledgeBase(db, embedder=embedder, raw_cache_titles=3) as kb:
        for title, _ in CORPUS:
            assert kb.search("what", titles=title, k=1).hits[0].passage.title == title
        assert list(kb._raw_cache) == [t for t, _ in CORPUS[-3:]]
        kb.search("what", titles=CORPUS[-3][0], k=1)  # a hit moves to the back
        assert list(kb._raw_cache)[-1] == CORPUS[-3][0]


def test_factscore_db_indexed_with_from_db_keeps_its_passages(tmp_path, embedder):
    db = _factscore_db(tmp_path / "knowledge_base.db")
    out = tmp_path / "indexed.db"
    assert build_main(["--from-db", str(db), "--db", str(out), "--no-progress"]) == 0
    with sqlite3.connect(out) as conn:
        passages = conn.execute("SELECT count(*) FROM passages").fetchone()[0]
    assert passages == sum(len(text.split(". ")) for _, text in CORPUS)
    with KnowledgeBase(out, embedder=embedder) as kb:
        assert kb.indexed
        hit = kb.search("Mozart Salzburg", k=1).hits[0]
        assert hit.passage.title == "Mozart" and hit.passage.text.startswith("Wolfgang Amadeus Mozart")


def test_stale_index_is_refused_naming_what_differs(tmp_path, embedder):
    db = tmp_path / "kb.db"
    build(db, [Document(t, x) for t, x in CORPUS], progress=False, embedder=embedder)
    conn = connect(db)
    ingest(conn, [Document("New Page", "Text added without rebuilding the index.")], Chunker(), progress=False)
    sync_passages(conn, progress=False)
    conn.close()
    with pytest.raises(IndexMismatchError) as err:
        KnowledgeBase(db, embedder=embedder)
    message = str(err.value)
    assert "passages count" in message and f"python -m retrieval.build --from-db {db}" in message
    build(db, None, progress=False, embedder=embedder)  # the fix the message names
    KnowledgeBase(db, embedder=embedder).close()


def test_index_from_another_model_is_refused(tmp_path, embedder):
    db = tmp_path / "kb.db"
    build(db, [Document(t, x) for t, x in CORPUS], progress=False, embedder=embedder)
    manifest_path = index_paths(db)[1]
    data = json.loads(manifest_path.read_text())
    data["model"] = "someone/other-model"
    manifest_path.write_text(json.dumps(data))
    with pytest.raises(IndexMismatchError, match="embedding model.*someone/other-model"):
        KnowledgeBase(db, embedder=embedder)


def test_missing_index_is_a_clear_error(tmp_path, embedder):
    db = tmp_path / "kb.db"
    build(db, [Document(t, x) for t, x in CORPUS], progress=False, embedder=embedder)
    index_paths(db)[0].unlink()
    with pytest.raises(FileNotFoundError, match="no dense index beside"):
        KnowledgeBase(db, embedder=embedder)


def test_search_cli_json(kb_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "retrieval.search",
            "--db",
            str(kb_path),
            "--query",
            'capital "Japan" AND*',
            "--title",
            "Nowhere",
            "--k",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert data["scope"] == "global" and data["titles_missing"] == ["Nowhere"]
    assert data["hits"][0]["title"] == "Tokyo"
    assert set(data["hits"][0]) == {"id", "title", "text", "score", "ranks"}


def test_search_cli_missing_db_is_a_clear_error(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "retrieval.search", "--db", str(tmp_path / "none.db"), "--query", "x"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "knowledge base not found" in out.stderr


@pytest.mark.parametrize("n_titles", [2, 10])
def test_pool_search_equals_filtered_global_ranking(kb, n_titles):
    from retrieval import fts

    titles = [t for t, _ in CORPUS][:n_titles]
    pool, _, _ = kb.title_passage_ids(titles)
    query = "capital city largest river planet prize"
    conn = kb._conn()
    expected = [pid for pid, _ in fts.search(conn, query, 1000) if pid in set(pool)][:3]
    assert [pid for pid, _ in fts.search(conn, query, 3, pool)] == expected
    assert len(expected) == (1 if n_titles == 2 else 3)


@pytest.mark.parametrize("kind", ["indexed", "factscore"])
def test_title_passages_whole_short_documents_only(kind, kb, tmp_path, embedder):
    """Fused factuality sends a short document whole; a long one (or none) is left to search."""
    if kind == "factscore":
        kb = KnowledgeBase(_factscore_db(tmp_path / "knowledge_base.db"), embedder=embedder)
    try:
        paris = kb.title_passages("Paris; Absent Page", limit=50)
        assert paris and {p.title for p in paris} == {"Paris"}
        assert "capital" in paris[0].text and "1889" in paris[-1].text  # document order
        both = kb.title_passages(["Paris", "Mount Everest"], limit=50)
        assert {p.title for p in both} == {"Paris", "Mount Everest"} and len(both) > len(paris)
        assert kb.title_passages(["Paris", "Mount Everest"], limit=len(both) - 1) is None
        assert kb.title_passages("Absent Page", limit=50) is None and kb.title_passages("", limit=50) is None
    finally:
        if kind == "factscore":
            kb.close()


def test_bm25_only_build_serves_bm25_and_names_the_fix_for_other_modes(tmp_path, embedder):
    from retrieval.build import is_built

    db = tmp_path / "kb.db"
    report = build(db, [Document(t, x) for t, x in CORPUS[:-1]], progress=False, embedder=embedder, dense_index=False)
    assert report.dense == {} and not any(p.exists() for p in index_paths(db))
    assert is_built(db, dense_index=False) and not is_built(db, dense_index=True)
    with KnowledgeBase(db, embedder=embedder) as kb:
        assert kb.modes == ("bm25",)
        assert kb.search("highest mountain Himalayas", k=1, mode="bm25").hits[0].passage.title == "Mount Everest"
        # the command named must be one retrieval.build accepts (``--db`` alone is refused by its parser)
        with pytest.raises(ValueError, match="no dense index.*retrieval.build --from-db "):
            kb.search("highest mountain Himalayas", k=1, mode="hybrid")
        sparse_version = kb.version
    build(db, [Document(*CORPUS[-1])], progress=False, embedder=embedder, dense_index=False)
    with KnowledgeBase(db, embedder=embedder) as kb:
        assert kb.version != sparse_version  # new passages: evidence caches must not serve the old ones
    build(db, progress=False, embedder=embedder)  # the full build adds the index to the same file
    assert is_built(db, dense_index=True)
    with KnowledgeBase(db, embedder=embedder) as kb:
        assert set(kb.modes) == {"bm25", "dense", "hybrid"}
        assert kb.search("highest mountain Himalayas", k=1).hits[0].passage.title == "Mount Everest"


def test_evidence_retriever_refuses_a_mode_the_kb_cannot_serve(tmp_path, embedder):
    from reward_engine.stages.retrieve import EvidenceRetriever

    db = tmp_path / "kb.db"
    build(db, [Document(t, x) for t, x in CORPUS], progress=False, embedder=embedder, dense_index=False)
    with KnowledgeBase(db, embedder=embedder) as kb:
        served = r"retrieval_mode 'hybrid'.*serves only \['bm25'\].*retrieval.build --from-db"
        with pytest.raises(ValueError, match=served):
            EvidenceRetriever(kb, mode="hybrid")
        assert EvidenceRetriever(kb, mode="bm25").mode == "bm25"
