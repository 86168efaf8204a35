"""The knowledge-base SQLite schema.

``documents(title, text)`` is FActScore's table, untouched: passages joined by
``SEPARATOR``, so FActScore's and KnowRL's ``knowledge_base.db`` open as-is. Everything
we add lives in tables of our own beside it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import uuid
from pathlib import Path
from typing import Any

SEPARATOR = "####SPECIAL####SEPARATOR####"
SCHEMA_VERSION = 1
# meta keys where a caller records the file a build read (``retrieval.build_stamp``: ``kb.build_from``'s hash and stat;
# the older key, the hash alone). Any build of other documents removes both: the KB no longer holds that file's text.
INPUT_STAMP_KEYS = ("build_from", "build_from_sha256")
# meta key: what a build of documents was of, ``{"input": absolute path}`` or ``{"preset": name}``, written in the
# transaction that writes the documents (``retrieval.build``): a later build replaces only a KB of its own input
# (one interrupted while embedding included) unless asked to (hostile pass 59: another input's KB was replaced).
BUILT_FROM_KEY = "built_from"

DOCUMENTS_DDL = "CREATE TABLE IF NOT EXISTS documents (title PRIMARY KEY, text)"

# AUTOINCREMENT: a deleted passage id is never reused, so the dense index can be
# synced by id alone (ids above the manifest's max_id are new).
PASSAGES_DDL = """
CREATE TABLE IF NOT EXISTS passages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS passages_title ON passages(title);
CREATE INDEX IF NOT EXISTS passages_title_nocase ON passages(title COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS passage_sources (title TEXT PRIMARY KEY, sha1 TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS passages_deleted (id INTEGER PRIMARY KEY);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
    title, text, content='passages', content_rowid='id', tokenize='porter unicode61'
);
CREATE TRIGGER IF NOT EXISTS passages_ai AFTER INSERT ON passages BEGIN
    INSERT INTO passages_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
END;
CREATE TRIGGER IF NOT EXISTS passages_ad AFTER DELETE ON passages BEGIN
    INSERT INTO passages_fts(passages_fts, rowid, title, text)
        VALUES ('delete', old.id, old.title, old.text);
    INSERT OR IGNORE INTO passages_deleted(id) VALUES (old.id);
END;
"""


def connect(path: Path, readonly: bool = False) -> sqlite3.Connection:
    """Open the KB; read-only opens never create or modify the file."""
    if Path(path).is_dir():
        raise ValueError(f"{path} is a directory, not a knowledge base file")
    if readonly:
        if not path.exists():
            raise FileNotFoundError(f"knowledge base not found: {path}")
        # as_uri() escapes '#', '?' and '%': "kb#1.db" must not open (and create) "kb"
        conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    else:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValueError(f"cannot create the folder of {path}: {exc.strerror}") from None
        conn = sqlite3.connect(str(path), check_same_thread=False)
    try:
        conn.execute("PRAGMA schema_version").fetchone()  # a text file fails here, not deep in a query
        if not readonly:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise ValueError(f"{path} is not a knowledge base (SQLite: {exc})") from None
    return conn


def create_schema(conn: sqlite3.Connection) -> None:
    """The KB's tables, made where missing; a BM25 index lost from passages that exist is filled again from them
    (``--from-db`` on a KB whose passages_fts was dropped made an empty one: hostile pass 52)."""
    lost_fts = has_table(conn, "passages") and not has_table(conn, "passages_fts")
    conn.execute(DOCUMENTS_DDL)
    conn.executescript(PASSAGES_DDL)
    if lost_fts:
        conn.execute("INSERT INTO passages_fts(passages_fts) VALUES ('rebuild')")
    set_meta(conn, "schema_version", SCHEMA_VERSION)
    if conn.execute("SELECT 1 FROM meta WHERE key = 'kb_id'").fetchone() is None:
        # This file's identity: a KB deleted and built again with other text reuses passage ids, and its
        # fingerprint must still differ (evidence caches and the dense index are keyed by it).
        set_meta(conn, "kb_id", uuid.uuid4().hex)


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?", (name,)).fetchone()
    return row is not None


KB_TABLES = frozenset({"documents", "passages", "passage_sources", "passages_deleted", "meta", "passages_fts"})


def foreign_tables(conn: sqlite3.Connection) -> list[str]:
    """Tables and views that are not a knowledge base's (FTS5's shadow tables and SQLite's own count as its; a
    ``documents`` table without FActScore's ``title`` and ``text`` columns does not)."""
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")]
    foreign = [n for n in names if n not in KB_TABLES and not n.startswith(("passages_fts_", "sqlite_"))]
    if "documents" in names and not {"title", "text"} <= document_columns(conn):
        foreign.append("documents")
    return sorted(foreign)


def document_columns(conn: sqlite3.Connection) -> set[str]:
    """The columns of the ``documents`` table (none when there is no such table)."""
    return {row[1] for row in conn.execute("PRAGMA table_info(documents)")}


def get_meta(conn: sqlite3.Connection) -> dict[str, Any]:
    if not has_table(conn, "meta"):
        return {}
    return {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM meta")}


def set_meta(conn: sqlite3.Connection, key: str, value: Any) -> None:
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, json.dumps(value, sort_keys=True)),
    )


def passages_fingerprint(conn: sqlite3.Connection) -> dict[str, Any]:
    """Count, max id, the KB file's identity and a checksum of them and the passage id set.

    ``retrieval.build`` only ever inserts or deletes passages (never updates them) and ids are never
    reused within one KB, so any change it makes changes this fingerprint; a KB deleted and built again
    gets a new ``kb_id`` (KBs built before it had one keep their old checksum). Cheap (no text read):
    it keys the dense index. An edit in place (an ``UPDATE`` of the text) keeps it; what keys a scoring
    job's rows, ``retrieval.kb.content_version``, digests the text too.
    """
    count, max_id, id_sum = conn.execute(
        "SELECT count(*), coalesce(max(id), 0), coalesce(sum(id), 0) FROM passages"
    ).fetchone()
    kb_id = str(get_meta(conn).get("kb_id", ""))
    basis = f"{count}:{max_id}:{id_sum}" + (f":{kb_id}" if kb_id else "")
    checksum = hashlib.sha256(basis.encode()).hexdigest()[:16]
    return {"count": int(count), "max_id": int(max_id), "checksum": checksum, "kb_id": kb_id}


def text_sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
