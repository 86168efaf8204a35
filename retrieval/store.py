"""Writing documents and keeping the passage table (and its FTS5 index) in step with them."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Iterable

from tqdm.auto import tqdm

from retrieval.chunking import Chunker
from retrieval.schema import SEPARATOR, text_sha1
from retrieval.sources import Document


@dataclass
class IngestReport:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    duplicates: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # a replace: documents the input no longer holds
    kept_missing: list[str] = field(default_factory=list)  # ... kept, because the input had bad rows


def ingest(
    conn: sqlite3.Connection,
    documents: Iterable[Document],
    chunker: Chunker,
    progress: bool = True,
    replace: bool = False,
    commit: bool = True,
    bad_rows: list | None = None,
) -> IngestReport:
    """Upsert documents in FActScore's format: chunked passages joined by SEPARATOR.

    Text that already holds SEPARATOR is taken as pre-chunked. A title seen twice in
    one input keeps its first text and is reported. ``replace``: ``documents`` are the whole KB (a build from
    an input), so a document the KB holds and the input no longer has is removed (``sync_passages`` then drops
    its passages and counts it in its ``documents_removed``); without it, documents are only added or updated.
    ``bad_rows``: the rows the reader could not read (filled while ``documents`` is read): a replace keeps the
    documents they may be, since a bad row may be a document the input still holds (hostile pass 7: a torn row
    deleted its document): those of their titles, or all when a bad row's title cannot be read; what it keeps is
    reported in ``kept_missing``. ``commit=False`` leaves the transaction
    open for the caller (a build commits documents and passages together: a build killed between the two leaves
    the KB as it was, never new documents over old passages).
    """
    report = IngestReport()
    seen: set[str] = set()
    kept: set[str] = set()
    for doc in tqdm(documents, desc="documents", unit="doc", disable=not progress):
        if doc.title in seen:
            report.duplicates.append(doc.title)
            continue
        seen.add(doc.title)
        passages = (
            [p.strip() for p in doc.text.split(SEPARATOR) if p.strip()]
            if SEPARATOR in doc.text
            else chunker.chunk(doc.text)
        )
        if not passages:
            continue
        kept.add(doc.title)
        joined = SEPARATOR.join(passages)
        row = conn.execute("SELECT text FROM documents WHERE title = ?", (doc.title,)).fetchone()
        if row is not None and row[0] == joined:
            report.unchanged += 1
            continue
        conn.execute(
            "INSERT INTO documents(title, text) VALUES (?, ?) ON CONFLICT(title) DO UPDATE SET text = excluded.text",
            (doc.title, joined),
        )
        if row is None:
            report.added += 1
        else:
            report.updated += 1
    if replace:
        gone = [title for (title,) in conn.execute("SELECT title FROM documents") if title not in kept]
        # a bad row may be a document the input still holds: keep what it may be (its title, when it can be read;
        # everything, when one cannot), remove the rest (hostile pass 46: one torn row kept every old document)
        maybe = [getattr(b, "title", None) for b in bad_rows or []]
        keep = set(gone) if None in maybe else set(maybe)
        report.kept_missing = [title for title in gone if title in keep]
        report.removed = [title for title in gone if title not in keep]
        conn.executemany("DELETE FROM documents WHERE title = ?", [(title,) for title in report.removed])
    if commit:
        conn.commit()
    return report


@dataclass
class SyncReport:
    documents_changed: int = 0
    documents_removed: int = 0
    passages_added: int = 0
    passages_removed: int = 0
    unreadable: list[str] = field(default_factory=list)  # documents whose title or text is no text (NULL)
    repeated: dict[str, int] = field(default_factory=dict)  # titles a key-less table holds more than once: rows


def _as_text(value: object) -> str | None:
    """A ``documents`` cell as text: a number as written, a BLOB decoded as UTF-8; None for NULL."""
    if isinstance(value, str) or value is None:
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


def sync_passages(conn: sqlite3.Connection, progress: bool = True) -> SyncReport:
    """Re-derive the passages of every document whose text changed since the last sync.

    Works the same for our own builds and for a FActScore DB that has only ``documents``;
    passages are deleted and re-inserted (never updated), which keeps ids unique forever.
    """
    report = SyncReport()
    repeated = _repeated_titles(conn)
    known = dict(conn.execute("SELECT title, sha1 FROM passage_sources"))
    total = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    rows = conn.execute("SELECT title, text FROM documents")
    present: set[str] = set()
    batch: list[tuple[str, str]] = []
    for title, text in tqdm(rows, total=total, desc="passages", unit="doc", disable=not progress):
        title, text = _as_text(title), _as_text(text)  # an untyped table may hold 1984 or a BLOB (hostile pass 9)
        if title is None or text is None:
            if title is not None:
                present.add(title)  # its passages stay as they were
            report.unreadable.append(repr(title))
            continue
        present.add(title)
        if title in repeated:
            continue  # read whole below
        digest = text_sha1(text)
        if known.get(title) == digest:
            continue
        batch.append((title, text))
        if len(batch) >= 1000:
            _replace_passages(conn, batch, report)
            batch.clear()
    _replace_passages(conn, batch, report)
    for title, (raw, count) in repeated.items():
        # every row's text is kept, in table order, as one document's passages (hostile pass 10: the last row
        # replaced the others, silently)
        rows = conn.execute("SELECT text FROM documents WHERE title = ? ORDER BY rowid", (raw,))
        text = SEPARATOR.join(t for t in (_as_text(t) for (t,) in rows) if t)
        report.repeated[title] = count
        if text and known.get(title) != text_sha1(text):
            _replace_passages(conn, [(title, text)], report)
    for title in set(known) - present:
        report.passages_removed += conn.execute("DELETE FROM passages WHERE title = ?", (title,)).rowcount
        conn.execute("DELETE FROM passage_sources WHERE title = ?", (title,))
        report.documents_removed += 1
    conn.commit()
    return report


def _repeated_titles(conn: sqlite3.Connection) -> dict[str, tuple[object, int]]:
    """Titles held by more than one row (as text: the cell as stored, the count); only read where nothing keeps
    titles unique (our schema and FActScore's do: a table a script made may not)."""
    for _, name, unique, *_ in conn.execute("PRAGMA index_list(documents)"):
        columns = [row[2] for row in conn.execute(f"PRAGMA index_info({_quoted(name)})")]
        if unique and columns == ["title"]:
            return {}
    query = "SELECT title, count(*) FROM documents WHERE title IS NOT NULL GROUP BY title HAVING count(*) > 1"
    return {_as_text(raw): (raw, n) for raw, n in conn.execute(query)}


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _replace_passages(conn: sqlite3.Connection, batch: list[tuple[str, str]], report: SyncReport) -> None:
    # A separate cursor: the caller is still iterating over the documents query.
    cur = conn.cursor()
    for title, text in batch:
        report.passages_removed += cur.execute("DELETE FROM passages WHERE title = ?", (title,)).rowcount
        passages = [p.strip() for p in text.split(SEPARATOR) if p.strip()]
        cur.executemany("INSERT INTO passages(title, text) VALUES (?, ?)", [(title, p) for p in passages])
        cur.execute(
            "INSERT INTO passage_sources(title, sha1) VALUES (?, ?) "
            "ON CONFLICT(title) DO UPDATE SET sha1 = excluded.sha1",
            (title, text_sha1(text)),
        )
        report.passages_added += len(passages)
        report.documents_changed += 1
