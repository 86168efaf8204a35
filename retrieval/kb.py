"""The knowledge base: title-filtered and global BM25, dense and hybrid passage search.

Opened read-only; safe to share between threads (one SQLite connection per thread,
FAISS searches are read-only). A FActScore/KnowRL DB with only its ``documents`` table
opens as-is: title-filtered search then ranks that document's passages with the dense
encoder on the fly (what FActScore and KnowRL do); global search needs
``python -m retrieval.build --from-db``.

``check_kb`` is what a job asks before its first row (a KB of the right kind, with the index its retrieval
mode needs) and ``content_version`` what keys the job's rows to the KB's content, not to its path.
"""

from __future__ import annotations

import collections
import hashlib
import json
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Sequence

import numpy as np

from knowrl_io.atomic_write import write_atomically
from knowrl_io.file_key import file_key
from retrieval import dense, fts, fusion, probe_memo
from retrieval.embedder import Embedder
from retrieval.models import DEFAULT_EMBEDDING_MODEL, files_stamp
from retrieval.schema import SEPARATOR, connect, get_meta, has_table, passages_fingerprint
from retrieval.text import bindable

DENSE_MODES: tuple[str, ...] = ("hybrid", "dense")  # what an indexed KB serves only with its FAISS index

MODES: tuple[str, ...] = ("hybrid", "bm25", "dense")
FUSIONS: tuple[str, ...] = ("rrf", "convex")


@dataclass(frozen=True)
class Passage:
    id: int
    title: str
    text: str


@dataclass
class Hit:
    passage: Passage
    score: float
    ranks: dict[str, int | None]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.passage.id,
            "title": self.passage.title,
            "text": self.passage.text,
            "score": self.score,
            "ranks": self.ranks,
        }


@dataclass
class SearchResult:
    hits: list[Hit]
    mode: str
    scope: Literal["titles", "global", "none"]
    titles_found: list[str] = field(default_factory=list)
    titles_missing: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "scope": self.scope,
            "titles_found": self.titles_found,
            "titles_missing": self.titles_missing,
            "hits": [h.to_dict() for h in self.hits],
        }


def split_titles(titles: str | Iterable[str] | None) -> list[str]:
    """KnowRL joins a row's titles with ';'; accept that or a list, drop blanks and repeats.

    >>> split_titles("Marie Curie; Pierre Curie;;Marie Curie"), split_titles(["Paris", None, " "])
    (['Marie Curie', 'Pierre Curie'], ['Paris'])
    """
    if titles is None:
        return []
    items = titles.split(";") if isinstance(titles, str) else [t for t in titles if isinstance(t, str)]
    return list(dict.fromkeys(t.strip() for t in items if t and t.strip()))


def _stat_key(path: Path) -> tuple:
    """What changes when a SQLite file (or its write-ahead log) is written: the memo key of its version."""
    key: list[Any] = [str(path.resolve())]
    for part in (path, Path(f"{path}-wal")):
        try:
            info = part.stat()
        except OSError:
            key.append(None)
            continue
        key.append((info.st_dev, file_key(info)))
    return tuple(key)


_VERSIONS: dict[tuple, str] = {}  # this process's content versions, by the file's stat key
_VERSIONS_LOCK = threading.Lock()


def _rows_digest(conn: sqlite3.Connection, tag: bytes, query: str) -> str:
    """A sha256 of the rows ``query`` yields, streamed (every value length-prefixed): memory follows one row."""
    digest = hashlib.sha256(tag + b"\0")
    for row in conn.execute(query):
        for value in row:
            data = value if isinstance(value, bytes) else str(value).encode("utf-8", "surrogatepass")
            digest.update(len(data).to_bytes(8, "little"))
            digest.update(data)
    return digest.hexdigest()[:16]


def _documents_digest(conn: sqlite3.Connection) -> str:
    """A sha256 of every document (title and text, in table order): a FActScore/KnowRL DB stores no version."""
    return _rows_digest(conn, b"documents-v1", "SELECT title, text FROM documents ORDER BY rowid")


def _passages_digest(conn: sqlite3.Connection) -> str:
    """A sha256 of every passage (id, title, text, in id order): what a built KB serves. The fingerprint of ids
    alone missed an edit in place (an ``UPDATE`` outside ``retrieval.build`` keeps every id): rows scored against
    text that no longer existed were kept on a rerun."""
    return _rows_digest(conn, b"passages-v1", "SELECT id, title, text FROM passages ORDER BY id")


def _memo_file(key: tuple) -> Path:
    from knowrl_io.paths import cache_dir

    name = hashlib.sha256(json.dumps(key, default=str).encode()).hexdigest()[:32]
    return cache_dir() / "kb-versions" / name


def _remembered_digest(
    conn: sqlite3.Connection, key: tuple, compute: Callable[[sqlite3.Connection], str] = _documents_digest
) -> str:
    """``compute(conn)``, read from the user cache while the file is unchanged (a large DB is read once per state:
    its stat key, ``_stat_key``)."""
    memo = _memo_file(key)
    try:
        found = memo.read_text(encoding="ascii").strip()
        if len(found) == 16:
            return found
    except (OSError, UnicodeDecodeError):
        pass
    found = compute(conn)
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(memo, found.encode("ascii"), follow_link=False)
    except OSError:  # a read-only cache: computed again next time
        pass
    return found


def content_version(db_path: str | Path, conn: sqlite3.Connection | None = None) -> str:
    """The version of what a KB serves, changed by any change of its text (a rebuild with other text, a document
    added or removed, another embedding model), not by its path: what keys a scoring job's rows.

    A built KB: its passages' fingerprint (ids; a KB deleted and built again has a new ``kb_id``), a sha256 of
    their text (an edit in place keeps every id) and its embedding model, by name and by the digest of its probe
    vector where the index recorded one (weights changed in place re-embed the passages: another version). A
    FActScore/KnowRL DB with only ``documents`` (opened as-is, never written): a sha256 of its documents. Each digest
    is computed once per state of the file (size, mtime, inode and ctime of it and its write-ahead log) and kept in the
    user cache.
    """
    path = Path(db_path)
    key = _stat_key(path)
    with _VERSIONS_LOCK:
        if key in _VERSIONS:
            return _VERSIONS[key]
    own = conn is None
    conn = connect(path, readonly=True) if conn is None else conn
    try:
        if has_table(conn, "passages") and has_table(conn, "passages_fts"):
            meta = get_meta(conn)
            basis = {
                "passages": passages_fingerprint(conn)["checksum"],
                "text": _remembered_digest(conn, ("passages", *key), _passages_digest),
                "embedding_model": meta.get("embedding_model") if _has_index(path) else None,
            }
            if _has_index(path) and "embedding_probe" in meta:  # what the model computes (pass 55); absent: as before
                basis["embedding_probe"] = meta["embedding_probe"]
            version = "kb:" + hashlib.sha256(json.dumps(basis, sort_keys=True).encode()).hexdigest()[:16]
        else:
            version = "documents:" + _remembered_digest(conn, key)  # the memo's name as before: no re-read
    finally:
        if own:
            conn.close()
    with _VERSIONS_LOCK:
        _VERSIONS[key] = version
    return version


def _has_index(db_path: Path) -> bool:
    return any(p.exists() for p in dense.index_paths(db_path))


def check_kb(db_path: str | Path, mode: str | None = None) -> str:
    """That ``db_path`` is a knowledge base a job can search in ``mode`` (None: title lookups only); returns its
    ``content_version``. Raises ``ValueError`` with one line naming the file and the fix: not there, not SQLite,
    an unrelated database, a build that did not finish, no (or a stale) dense index for a dense or hybrid mode, or
    one whose embedding model now computes other vectors than it recorded (the model is loaded for that check)."""
    path = Path(db_path)
    if not path.exists():
        raise ValueError(f"knowledge base {path} not found")
    conn = connect(path, readonly=True)  # a text file or a folder: ValueError, one line
    try:
        try:
            indexed = has_table(conn, "passages") and has_table(conn, "passages_fts")
            if has_table(conn, "passages") and not indexed:  # bm25 fell back to dense, exit 0 (hostile pass 52)
                raise ValueError(
                    f"{path}: its passages have no BM25 index (the passages_fts table is missing): rebuild it with "
                    f"python -m retrieval.build --from-db {path}"
                )
            if not indexed:
                _check_documents(conn, path)
                return content_version(path, conn)
            meta = get_meta(conn)
            index_path, manifest_path = dense.index_paths(path)
            if index_path.exists() or manifest_path.exists():
                manifest = _check_index(conn, path, index_path, manifest_path)
                model = meta.get("embedding_model")
                if mode in DENSE_MODES and isinstance(model, str) and model.startswith(("/", "./", "~")):
                    if not Path(model).expanduser().exists():  # every row failed at its query, exit 3 (pass 54)
                        raise ValueError(
                            f"{path}: its dense index was embedded with {model}, which is not there any more; "
                            f"put the model back, or rebuild the index: python -m retrieval.build --from-db {path} "
                            "--model MODEL"
                        )
                if mode in DENSE_MODES:
                    check_model(manifest, model or DEFAULT_EMBEDDING_MODEL, path)
            elif mode in DENSE_MODES:
                why = (
                    "its build was interrupted before the dense index was written"
                    if "embedding_model" in meta
                    else "it was built with --no-dense"
                    if "chunker" in meta
                    else "its build did not finish"
                )
                raise ValueError(
                    f"{path} has no dense index ({why}), so no {mode!r} retrieval: build it with "
                    f"python -m retrieval.build --from-db {path}, or set factuality.retrieval_mode: bm25"
                )
            elif "chunker" not in meta:
                raise ValueError(
                    f"{path}: its build did not finish (no passages recorded); run it again: "
                    f"python -m retrieval.build --from-db {path}"
                )
            return content_version(path, conn)
        except sqlite3.DatabaseError as exc:  # a damaged file that opens: one line, not a traceback
            raise ValueError(f"{path} is not a readable knowledge base (SQLite: {exc})") from None
    finally:
        conn.close()


def _check_documents(conn: sqlite3.Connection, path: Path, rows: bool = True) -> None:
    """A KB without passages must be a FActScore/KnowRL DB: a ``documents(title, text)`` table with rows (``rows``
    False: the table only, as ``KnowledgeBase`` opens it: another program's documents table read as an empty KB)."""
    if not has_table(conn, "documents"):
        raise ValueError(
            f"{path} is not a knowledge base: no documents or passages table "
            f"(build one: python -m retrieval.build --input DOCS.jsonl --db KB.db)"
        )
    columns = {row[1] for row in conn.execute("PRAGMA table_info(documents)")}
    if not {"title", "text"} <= columns:
        raise ValueError(
            f"{path} is not a knowledge base: its documents table has columns {sorted(columns)}, "
            "not FActScore's (title, text)"
        )
    if rows and conn.execute("SELECT 1 FROM documents LIMIT 1").fetchone() is None:
        raise ValueError(f"{path} holds no documents: build it with python -m retrieval.build --input DOCS.jsonl")


def check_model(manifest: dense.Manifest, model: str, path: Path, embedder: Embedder | None = None) -> None:
    """The model a search would load computes the vectors the index recorded (``dense.check_model``: loading it and
    one embedding call; weights changed in place gave new query vectors against old passage vectors, pass 55).
    Loaded only when its folder's files are not ones seen computing that probe (``probe_memo``), by one process at
    a time. ``embedder``: the one a search will use (else one is loaded here). Raises ``ValueError``, one line."""
    if manifest.model_probe is None:
        return  # an index from before probes: nothing to compare
    stamp = files_stamp(embedder.requested if embedder is not None else model)
    if probe_memo.vouched(stamp, manifest.model_probe):
        return
    with probe_memo.one_at_a_time(stamp, manifest.model_probe):
        if probe_memo.vouched(stamp, manifest.model_probe):
            return  # another rank loaded it meanwhile
        embedder = embedder or Embedder(model)
        try:
            dense.check_model(manifest, embedder, path)
        except dense.IndexMismatchError as exc:
            raise ValueError(str(exc)) from None
        probe_memo.vouch(embedder.loaded_stamp, manifest.model_probe, embedder.requested)


def _check_index(conn: sqlite3.Connection, path: Path, index_path: Path, manifest_path: Path) -> dense.Manifest:
    """The dense index beside an indexed KB is whole and describes its passages (what loading it would refuse)."""
    fix = f"python -m retrieval.build --from-db {path}"
    if not (index_path.exists() and manifest_path.exists()) or index_path.stat().st_size == 0:
        raise ValueError(f"{path}: its dense index is incomplete (an interrupted build): finish it with {fix}")
    with open(index_path, "rb") as handle:  # a FAISS file opens with its index type's four letters ("IxMp")
        head = handle.read(4)
    if len(head) < 4 or not head.isalnum():
        # zeroed or written over (hostile pass 49: every row failed at scoring time, exit 3, not this one line)
        raise ValueError(
            f"{path}: its dense index {index_path} is not a FAISS index (written over?): rebuild it with {fix}"
        )
    try:
        manifest = dense.Manifest.read(manifest_path)
    except dense.IndexMismatchError as exc:
        raise ValueError(str(exc)) from None
    fp = passages_fingerprint(conn)
    stale = [k for k in ("count", "max_id", "checksum") if fp[k] != getattr(manifest, k)]
    if stale:
        raise ValueError(
            f"{path}: its dense index does not match its passages ({', '.join(stale)} differ: a build that changed "
            f"the text was interrupted before the index was updated, or the index is another KB's): rebuild it with "
            f"{fix}"
        )
    return manifest


class KnowledgeBase:
    """Search over one KB file (and the FAISS index beside it, when built)."""

    def __init__(
        self,
        db_path: str | Path,
        embedder: Embedder | None = None,
        fusion_rule: str = "convex",
        dense_weight: float = 0.5,
        candidates: int = 50,
        faiss_threads: int | None = 1,
        raw_cache_titles: int = 4096,
    ) -> None:
        self.db_path = Path(db_path)
        if fusion_rule not in FUSIONS:
            raise ValueError(f"fusion_rule must be one of {FUSIONS}, got {fusion_rule!r}")
        self.fusion_rule = fusion_rule
        self.dense_weight = dense_weight
        self.candidates = candidates
        self._local = threading.local()
        self._generation = 0
        conn = self._conn()
        self.meta = get_meta(conn)
        self.indexed = has_table(conn, "passages_fts") and has_table(conn, "passages")
        if not self.indexed:  # any documents table passed, and search said "no passages found" (hostile pass 58)
            _check_documents(conn, self.db_path, rows=False)
        model = self.meta.get("embedding_model", DEFAULT_EMBEDDING_MODEL)
        self.embedder = embedder or Embedder(model)
        self._index: Any = None
        self._executor: ThreadPoolExecutor | None = None
        # Embedded passages of documents-only DBs, by title; least recently used dropped beyond the cap.
        self._raw_cache: collections.OrderedDict[str, tuple[list[Passage], np.ndarray]] = collections.OrderedDict()
        self.raw_cache_titles = raw_cache_titles
        self.manifest: dense.Manifest | None = None
        if self.indexed and any(p.exists() for p in dense.index_paths(self.db_path)):
            self._index, self.manifest = dense.load(self.db_path, conn, model=self.embedder.name)
            if faiss_threads is not None:
                # One query at a time gains nothing from OpenMP, and idle OpenMP threads spin
                # on the core the BM25 thread needs. FAISS's setting is process-wide.
                import faiss

                faiss.omp_set_num_threads(faiss_threads)

    @property
    def version(self) -> str | None:
        """Changes whenever the passages change (the evidence caches' key): the index manifest's checksum, or
        the passage fingerprint of a BM25-only KB; None for a documents-only DB."""
        if self.manifest is not None:
            return self.manifest.checksum
        return passages_fingerprint(self._conn())["checksum"] if self.indexed else None

    @property
    def content_version(self) -> str:
        """What keys a scoring job's rows to this KB's content (``content_version``)."""
        return content_version(self.db_path)

    @property
    def modes(self) -> tuple[str, ...]:
        """Search modes this KB serves: all of them, or only 'bm25' when it was built without a dense index."""
        return MODES if self._index is not None or not self.indexed else ("bm25",)

    # -- plumbing ---------------------------------------------------------------------
    def _conn(self):
        conn = getattr(self._local, "conn", None)
        if conn is not None and getattr(self._local, "generation", 0) != self._generation:
            conn.close()  # reopen() since: this thread's connection may read a file replaced under the path
            conn = None
        if conn is None:
            conn = connect(self.db_path, readonly=True)
            self._local.conn, self._local.generation = conn, self._generation
        return conn

    def reopen(self) -> None:
        """Every thread's next query opens the file at ``db_path`` again: a KB moved over the path while a server
        ran kept being read from the old file by connections already open (hostile pass 10)."""
        self._generation += 1

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def __enter__(self) -> "KnowledgeBase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get_passages(self, ids: Sequence[int]) -> dict[int, Passage]:
        if not ids:
            return {}
        rows = self._conn().execute(
            f"SELECT id, title, text FROM passages WHERE id IN ({','.join('?' * len(ids))})",
            [int(i) for i in ids],
        )
        return {r[0]: Passage(r[0], r[1], r[2]) for r in rows}

    def title_passage_ids(self, titles: Sequence[str]) -> tuple[list[int], list[str], list[str]]:
        """Passage ids of the given titles, tolerating case and '_' for ' '."""
        conn = self._conn()
        ids: list[int] = []
        found: list[str] = []
        missing: list[str] = []
        for title in titles:
            title = bindable(title)
            rows = conn.execute("SELECT id FROM passages WHERE title = ?", (title,)).fetchall()
            if not rows:
                rows = conn.execute(
                    "SELECT id FROM passages WHERE title = ? COLLATE NOCASE", (title.replace("_", " "),)
                ).fetchall()
            (found if rows else missing).append(title)
            ids.extend(r[0] for r in rows)
        return list(dict.fromkeys(ids)), found, missing

    def has_title(self, title: str) -> bool:
        table = "passages" if self.indexed else "documents"
        found = self._conn().execute(f"SELECT 1 FROM {table} WHERE title = ? LIMIT 1", (bindable(title),)).fetchone()
        return found is not None

    def wanted_titles(self, titles: str | Iterable[str] | None) -> list[str]:
        """The titles to search within: a title string that is itself a document's title (KnowRL looks the
        whole string up, and real titles contain ';'), else its ';'-separated parts.

        >>> import sqlite3, tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "kb.db")
        >>> with sqlite3.connect(path) as c: _ = c.execute("CREATE TABLE documents(title TEXT PRIMARY KEY, text TEXT)")
        >>> with sqlite3.connect(path) as c: _ = c.execute("INSERT INTO documents VALUES ('A;B', 'x')")
        >>> kb = KnowledgeBase(path, embedder=object())
        >>> kb.wanted_titles("A;B"), kb.wanted_titles("A; C")
        (['A;B'], ['A', 'C'])
        """
        if isinstance(titles, str) and ";" in titles and self.has_title(titles.strip()):
            return [titles.strip()]
        return split_titles(titles)

    def title_passages(self, titles: str | Iterable[str] | None, limit: int) -> list[Passage] | None:
        """Every passage of ``titles`` in document order when there are 1 to ``limit`` of them, else None.

        A short document is its own best evidence: sending all of it needs no search.
        """
        wanted = self.wanted_titles(titles)
        if not wanted:
            return None
        if self.indexed:
            ids, _, _ = self.title_passage_ids(wanted)
            if not ids or len(ids) > limit:
                return None
            found = self.get_passages(ids)
            return [found[i] for i in ids if i in found]
        passages: list[Passage] = []
        for title in wanted:
            passages.extend(self._raw_passages(title) or [])
            if len(passages) > limit:
                return None
        return passages or None

    # -- search -----------------------------------------------------------------------
    def search(
        self,
        query: str,
        titles: str | Iterable[str] | None = None,
        k: int = 5,
        mode: str = "hybrid",
        query_vector: np.ndarray | None = None,
    ) -> SearchResult:
        """Top-``k`` passages for ``query``; within ``titles`` when any of them exists.

        Titles absent from the KB fall back to global search; this never raises on a
        missing title or on any query string.
        """
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if mode not in self.modes:
            raise ValueError(
                f"{self.db_path} has no dense index, so no {mode!r} search: search with mode 'bm25', "
                f"or build the index: python -m retrieval.build --from-db {self.db_path}"
            )
        wanted = self.wanted_titles(titles)
        query = query if isinstance(query, str) else ""
        if not self.indexed:
            return self._search_raw(query, wanted, k)
        pool: list[int] | None = None
        found: list[str] = []
        missing: list[str] = []
        if wanted:
            pool, found, missing = self.title_passage_ids(wanted)
            if not pool:
                pool = None
        scope = "titles" if pool is not None else "global"
        if not query.strip() or k <= 0:
            return SearchResult([], mode, scope, found, missing)
        n = max(k, self.candidates)
        lists: dict[str, list[tuple[int, float]]] = {}
        bm25 = None
        if mode == "hybrid" and query_vector is None:
            # Encoding and FTS5 both release the GIL: overlap them on the two cores.
            bm25 = self._worker().submit(self._bm25, query, n, pool)
        elif mode in ("hybrid", "bm25"):
            lists["bm25"] = self._bm25(query, n, pool)
        if mode in ("hybrid", "dense"):
            vector = query_vector if query_vector is not None else self.embedder.encode([query])[0]
            lists["dense"] = self._dense(vector, n, pool)
        if bm25 is not None:
            lists = {"bm25": bm25.result(), **lists}
        hits = self._fuse(lists, k)
        return SearchResult(hits, mode, scope, found, missing)

    def _bm25(self, query: str, n: int, pool: Sequence[int] | None) -> list[tuple[int, float]]:
        return fts.search(self._conn(), query, n, pool)

    def _worker(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-bm25")
        return self._executor

    def encode_queries(self, queries: Sequence[str]) -> np.ndarray:
        """Embed many queries at once (much cheaper per query than one by one)."""
        return self.embedder.encode(list(queries))

    def _dense(self, vector: np.ndarray, n: int, pool: Sequence[int] | None) -> list[tuple[int, float]]:
        vector = np.asarray(vector, dtype=np.float32).reshape(1, -1)
        if pool is None:
            scores, ids = self._index.search(vector, n)
            return [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if i >= 0]
        ids = np.asarray(pool, dtype=np.int64)
        vectors = self._index.reconstruct_batch(ids)
        scores = vectors @ vector[0]
        order = np.argsort(-scores)[:n]
        return [(int(ids[i]), float(scores[i])) for i in order]

    def _fuse(self, lists: dict[str, list[tuple[int, float]]], k: int) -> list[Hit]:
        if len(lists) == 1:
            fused = dict(next(iter(lists.values())))
        elif self.fusion_rule == "rrf":
            fused = fusion.rrf(lists)
        else:
            fused = fusion.convex(lists, {"dense": self.dense_weight, "bm25": 1 - self.dense_weight})
        top = sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
        passages = self.get_passages([pid for pid, _ in top])
        rank_of = {name: {pid: r for r, (pid, _) in enumerate(ranked, 1)} for name, ranked in lists.items()}
        return [
            Hit(passages[pid], score, {name: rank_of[name].get(pid) for name in lists})
            for pid, score in top
            if pid in passages
        ]

    # -- FActScore-only DBs ------------------------------------------------------------
    def _search_raw(self, query: str, titles: list[str], k: int) -> SearchResult:
        found: list[str] = []
        missing: list[str] = []
        passages: list[Passage] = []
        vectors: list[np.ndarray] = []
        for title in titles:
            entry = self._raw_title(title)
            if entry is None:
                missing.append(title)
                continue
            found.append(title)
            passages.extend(entry[0])
            vectors.append(entry[1])
        if not passages or not query.strip() or k <= 0:
            return SearchResult([], "dense", "titles" if passages else "none", found, missing)
        scores = np.vstack(vectors) @ self.embedder.encode([query])[0]
        order = np.argsort(-scores)[:k]
        hits = [Hit(passages[i], float(scores[i]), {"dense": r}) for r, i in enumerate(order, 1)]
        return SearchResult(hits, "dense", "titles", found, missing)

    def _raw_passages(self, title: str) -> list[Passage] | None:
        row = self._conn().execute("SELECT rowid, text FROM documents WHERE title = ?", (bindable(title),)).fetchone()
        if row is None or not isinstance(row[1], str):
            return None
        # Synthetic ids: no passages table here, so number passages within the document row.
        texts = [t.strip() for t in row[1].split(SEPARATOR) if t.strip()]
        return [Passage(row[0] * 100_000 + i, title, t) for i, t in enumerate(texts)]

    def _raw_title(self, title: str) -> tuple[list[Passage], np.ndarray] | None:
        if title in self._raw_cache:
            self._raw_cache.move_to_end(title)
        else:
            passages = self._raw_passages(title)
            if passages is None:
                return None
            # FActScore (and KnowRL) embed a passage of a documents-only DB as its title, a space, its text.
            vectors = self.embedder.encode([f"{title} {p.text}" for p in passages])
            self._raw_cache[title] = (passages, vectors)
            while len(self._raw_cache) > self.raw_cache_titles:
                self._raw_cache.popitem(last=False)
        return self._raw_cache[title]
