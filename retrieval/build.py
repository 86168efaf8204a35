"""Build or update a knowledge base: ``python -m retrieval.build``.

    python -m retrieval.build --input docs.jsonl --db KB.db      # JSON array or JSONL of {title, text}
    python -m retrieval.build --from-db knowledge_base.db         # FActScore/KnowRL DB, indexed in place
    python -m retrieval.build --preset demo                       # offline Wikipedia + Factbook KB
    python -m retrieval.build --preset demo --no-dense            # BM25 only: seconds, no embedding

Re-running is idempotent: unchanged documents are skipped, only new passages are embedded. An existing ``--db``
must be a knowledge base (or an empty file): another program's SQLite database is refused, untouched. A KB built
from another input (or one that does not say what it was built from: a FActScore DB) is replaced by ``--input`` or
``--preset`` only with ``--overwrite``.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import logging
import os
import sqlite3
import stat
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from knowrl_io.args import Parser, interrupted
from knowrl_io.job_output import same_file
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.once import Once
from knowrl_io.paths import demo_kb_path, input_problem
from retrieval import build_stamp, dense, probe_memo
from retrieval.chunking import Chunker
from retrieval.dense import IndexMismatchError
from retrieval.embedder import Embedder
from retrieval.models import DEFAULT_EMBEDDING_MODEL
from retrieval.schema import (
    BUILT_FROM_KEY,
    INPUT_STAMP_KEYS,
    connect,
    create_schema,
    document_columns,
    foreign_tables,
    get_meta,
    passages_fingerprint,
    set_meta,
)
from retrieval.sources import BadRow, Document, demo_documents, read_documents
from retrieval.store import ingest, sync_passages

if TYPE_CHECKING:
    from filelock import FileLock

log = logging.getLogger(__name__)


@dataclass
class BuildReport:
    db: str
    documents: dict
    passages: dict
    dense: dict
    bad_rows: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass(frozen=True)
class Flags:
    """What a build's messages call the KB file and the input file: the CLI's flags, or a caller's own names
    (a training run's config keys: its user has no ``--db`` to change)."""

    db: str = "--db"
    input: str = "--input"


def good_documents(
    rows: Iterable[tuple[int, Document | BadRow]], bad: list[BadRow], source: str = "", repeats: list[str] | None = None
) -> Iterator[Document]:
    """The input's documents, bad rows set aside; a title that repeats an earlier one once normalised (NFC, spaces:
    "Café" and "Cafe\u0301" are one title in the KB) is told with both lines, not merged unseen (hostile pass 6)."""
    first: dict[str, int] = {}
    for line, row in rows:
        if isinstance(row, BadRow):
            bad.append(row)
            log.warning("skipped %s", row)
            continue
        if row.title in first:
            told = f"{source}:{line}: title {row.title!r} repeats line {first[row.title]}'s; the first text is kept"
            log.warning("%s", told)
            if repeats is not None:
                repeats.append(told)
        first.setdefault(row.title, line)
        yield row


def index_files_problem(db_path: Path, db_flag: str = "--db") -> str | None:
    """Why a build must not touch the dense index files beside ``db_path`` (``KB.faiss``, ``KB.faiss.json``), or
    None: a build replaces or removes only an index it recognises as a build's, by its manifest (``dense.Manifest``,
    written last). A ``KB.faiss`` without one, or a ``KB.faiss.json`` that is no manifest, is someone's file: a
    ``--no-dense`` build deleted a user's ``papers.faiss`` beside a new KB and a dense build replaced it (hostile
    pass 59). A manifest's ``kb_id`` is not asked to match: a KB deleted and built again at its path has a new one,
    and the index its earlier build left is still this KB path's to remove (pass 48)."""
    index, manifest_path = dense.index_paths(db_path)
    if os.path.lexists(manifest_path):
        try:
            dense.Manifest.read(manifest_path)
        except IndexMismatchError:
            return (
                f"{manifest_path}: not a dense index manifest a build wrote, where {db_path.name}'s goes; move it "
                f"away or choose another {db_flag}"
            )
        owner = dense.index_owner(db_path)
        if owner is not None:  # kb.sqlite and kb.db share kb.faiss: a build of one replaced the other's (pass 59)
            return (
                f"{index}: the dense index of {owner.name}, a knowledge base beside {db_path.name} whose name differs "
                f"only after its last dot; {db_path.name}'s index would go to the same files: choose a {db_flag} "
                "with another name"
            )
        return None  # a build's manifest: the index beside it, if any, is that build's
    if os.path.lexists(index):
        return (
            f"{index}: lies where {db_path.name}'s dense index goes, without the manifest a build writes "
            f"({manifest_path.name}): someone's file; move it away (an interrupted build's: remove it) or choose "
            f"another {db_flag}"
        )
    return None


def _drop_stale_index(db_path: Path, conn: sqlite3.Connection) -> bool:
    """Remove a dense index (and its manifest) that no longer describes the KB's passages: a --no-dense rebuild
    with other text left the old index beside it, and hybrid scoring then blamed an interrupted build (hostile
    pass 48). An index that still matches is kept (a --no-dense rebuild of the same text), and so is anything
    without a build's manifest (``index_files_problem`` refused it before the build: someone's file, pass 59)."""
    index, manifest_path = dense.index_paths(db_path)
    try:
        manifest = dense.Manifest.read(manifest_path)
    except IndexMismatchError:
        return False  # none, or not a build's
    fp = passages_fingerprint(conn)
    if all(fp[k] == getattr(manifest, k) for k in ("count", "max_id", "checksum")):
        return False
    for path in (index, manifest_path):
        path.unlink(missing_ok=True)
    return True


def is_built(db_path: Path, dense_index: bool = True) -> bool:
    """Whether a build of ``db_path`` finished: the index manifest is written last; a BM25-only build
    records its chunker after the passages and FTS5 are in."""
    if dense.index_paths(db_path)[1].exists() and dense.index_owner(db_path) is None:
        return True
    if dense_index or not db_path.exists():
        return False
    conn = connect(db_path, readonly=True)
    try:
        return "chunker" in get_meta(conn)
    finally:
        conn.close()


def check_db(db_path: Path, index_only: bool = False) -> None:
    """``db_path`` may be built into: a new or empty file, or a knowledge base (one this module built, or
    FActScore's ``documents`` table alone). Another program's SQLite file is refused before anything is written
    into it (its tables stayed, ours were added beside them). ``index_only`` (``--from-db``, a re-sync): the file
    is one the user asks to index, which needs its ``documents(title, text)`` table. Raises ``ValueError``."""
    if not db_path.is_file() or db_path.stat().st_size == 0:
        return  # new; a directory or a special file is ``connect``'s to refuse
    conn = connect(db_path, readonly=True)  # a file that is not SQLite: one line from ``connect``
    try:
        foreign, columns = foreign_tables(conn), document_columns(conn)
    except sqlite3.DatabaseError as exc:
        raise ValueError(f"{db_path} is not a knowledge base (SQLite: {exc})") from None
    finally:
        conn.close()
    if index_only:
        if not {"title", "text"} <= columns:
            raise ValueError(f"{db_path} has no documents(title, text) table: not a knowledge base to index")
        return
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise ValueError(
            f"{db_path} is a SQLite database with tables that are not a knowledge base's ({shown}); a knowledge "
            "base is built only into a new file or an earlier one; choose another file"
        )


def build_source(input_path: Path | None = None, preset: str | None = None) -> dict | None:
    """What a build of documents is of, as a KB's meta records it (``schema.BUILT_FROM_KEY``): a preset by its name,
    an input file by its absolute path; None for documents a caller gives without saying (an API build)."""
    if preset is not None:
        return {"preset": preset}
    if input_path is not None:
        return {"input": os.path.abspath(input_path)}
    return None


def _same_input(recorded: object, given: str) -> bool:
    """Whether a recorded input path names the input file ``given`` (an absolute path): the same path, or another
    name of the same file. A pipe or stdin is never the same input: what it held cannot be told again."""
    if not isinstance(recorded, str) or not os.path.isfile(given):
        return False
    if os.path.abspath(recorded) == given:
        return True
    try:
        return os.path.samefile(recorded, given)
    except OSError:
        return False


def other_input(db_path: Path, source: dict | None) -> str | None:
    """What the KB at ``db_path`` holds when a build of ``source`` (``build_source``) must not replace it without
    being asked (``--overwrite``): a KB built from another input, the demo KB, or one that does not say what it was
    built from (FActScore's or KnowRL's ``knowledge_base.db``, a ``--from-db`` KB). None when the build may: no
    file, an empty one, no document in it, or a KB built from ``source``. That is what its ``built_from`` records
    (written with the documents, so a build interrupted while embedding counts), a ``kb.build_from`` stamp naming
    the same file (or the hash alone, as stamps were before they named it), or a demo KB's ``preset``. Replacing
    any other KB deleted its documents, exit 0 (hostile pass 59)."""
    if not db_path.is_file() or db_path.stat().st_size == 0:
        return None
    try:
        conn = connect(db_path, readonly=True)
    except ValueError:
        return None  # not SQLite: check_db says so
    try:
        meta = get_meta(conn)
        held = {"title", "text"} <= document_columns(conn) and bool(
            conn.execute("SELECT 1 FROM documents LIMIT 1").fetchone()
        )
    except sqlite3.DatabaseError:
        return None  # check_db says what it is
    finally:
        conn.close()
    if not held:
        return None  # nothing to lose: a new KB, or a first build killed before its documents were committed
    built_from, stamp, preset = meta.get(BUILT_FROM_KEY), meta.get(INPUT_STAMP_KEYS[0]), meta.get("preset")
    built_from = built_from if isinstance(built_from, dict) else {}
    stamped = stamp.get("path") if isinstance(stamp, dict) else None
    wanted = source or {}
    if "preset" in wanted and (
        wanted["preset"] in (built_from.get("preset"), preset)
        or (wanted["preset"] == "demo" and db_path.resolve() == demo_kb_path().resolve())  # the cache's own demo KB
    ):
        return None
    if "input" in wanted and (
        _same_input(built_from.get("input"), wanted["input"])
        or _same_input(stamped, wanted["input"])
        or (not stamp and isinstance(meta.get(INPUT_STAMP_KEYS[1]), str) and os.path.isfile(wanted["input"]))
    ):
        return None
    if "input" in built_from and built_from["input"] == wanted.get("input"):  # a pipe: what it held then is unknown
        return f"a knowledge base built from {built_from['input']}, which is no file whose content can be told again"
    if "input" in built_from:
        return f"a knowledge base built from {built_from['input']}"
    if isinstance(stamped, str):
        return f"a knowledge base built from {stamped} (kb.build_from)"
    if "preset" in built_from or preset is not None:
        return f"the {built_from.get('preset') or preset} preset's knowledge base"
    if isinstance(meta.get(INPUT_STAMP_KEYS[1]), str):
        return "a knowledge base built from a kb.build_from file"
    return (
        "a knowledge base that does not say what it was built from (a FActScore or KnowRL database, a KB built "
        "with --from-db or by an earlier version)"
    )


def build(
    db_path: str | Path,
    documents: Iterable[Document] | None = None,
    model: str = DEFAULT_EMBEDDING_MODEL,
    max_tokens: int = 256,
    flat_max: int = dense.FLAT_MAX,
    progress: bool = True,
    bad_rows: list[BadRow] | None = None,
    embedder: Embedder | None = None,
    dense_index: bool = True,
    replace: bool = False,
    preset: str | None = None,
    input_path: Path | None = None,
    overwrite: bool = False,
    flags: Flags | None = None,
    input_stamp: build_stamp.Stamp | None = None,
) -> BuildReport:
    """Ingest ``documents`` (if any), derive passages + FTS5, then sync the FAISS index.

    ``dense_index=False`` stops after FTS5: a BM25-only KB in seconds instead of minutes of embedding
    (enough where titles or names pin the evidence, e.g. the demo; a later full build adds the index).
    ``replace=True`` makes the KB's documents exactly ``documents`` (the CLI's --input/--preset: a document removed
    from the input leaves the rebuilt KB); False adds to and updates what the KB holds.
    ``preset`` ("demo") is recorded in the KB's meta when ``documents`` are that preset's; a build of other
    documents removes it (``bench/retrieval_quality.py`` builds only into a KB its meta names a demo).
    ``input_path``: the file ``documents`` were read from. A replace records it (or ``preset``) as what the KB was
    built from, and replaces a KB built from anything else (``other_input``) only with ``overwrite``.
    ``flags``: what the messages call the KB file and the input (the CLI's by default; a training run's keys).
    ``input_stamp``: ``input_path``'s stamp, taken before it was read, recorded with the documents: a training run
    whose ``kb.build_from`` is that file finds the KB built from it.
    """
    started = time.perf_counter()
    db_path = Path(db_path)
    flags = flags or Flags()
    source = build_source(input_path, preset) if documents is not None and replace else None
    what = f"{flags.input} {input_path}" if input_path else f"--preset {preset}" if preset else "this build"
    ask = documents is not None and replace and not overwrite  # whether replacing another's KB is refused

    def check() -> None:
        _check_target(db_path, documents is None, source, flags, what, replaces_any=not ask)

    check()  # before the lock file: nothing is written beside a file refused
    embedder = embedder or Embedder(model)
    if dense_index:  # the model loads before the KB is touched: a bad --model wrote the new text, then failed (pass 52)
        try:
            _ = embedder.dim
        except OSError as exc:
            raise OSError(f"embedding model {model!r} cannot be loaded ({exc}); {db_path} is unchanged") from None
    with kb_lock(db_path):
        check()  # again: another build of this KB may have finished meanwhile
        conn = connect(db_path)
        try:
            create_schema(conn)
            meta = get_meta(conn)
            if meta.get("embedding_model") not in (None, embedder.name):
                log.warning(
                    "embedding model changes from %r to %r: re-embedding every passage",
                    meta["embedding_model"],
                    embedder.name,
                )
            chunker = Chunker(max_tokens=max_tokens)
            if documents is not None:  # another input: neither the preset nor a caller's input file any more
                stale = ("preset", BUILT_FROM_KEY, *INPUT_STAMP_KEYS)
                conn.executemany("DELETE FROM meta WHERE key = ?", [(k,) for k in stale])
                if preset is not None:
                    set_meta(conn, "preset", preset)
                if source is not None:  # committed with the documents: a build killed while embedding is still told
                    set_meta(conn, BUILT_FROM_KEY, source)  # as this input's, and the next run of it finishes it
                if input_stamp is not None:  # a run finds it unfinished by is_built, not by a missing stamp
                    set_meta(conn, build_stamp.KEY, asdict(input_stamp))
            ingested = (
                ingest(conn, documents, chunker, progress, replace, False, bad_rows) if documents is not None else None
            )
            synced = sync_passages(conn, progress)
            set_meta(conn, "chunker", {"tokenizer": chunker.name, "max_tokens": max_tokens})
            conn.commit()
            if not dense_index:
                if _drop_stale_index(db_path, conn):
                    log.warning(
                        "%s: its dense index described the KB's old text and was removed; build without --no-dense to "
                        "index the new text",
                        db_path,
                    )
                return BuildReport(
                    db=str(db_path),
                    documents=asdict(ingested) if ingested else {},
                    passages=asdict(synced),
                    dense={},
                    bad_rows=[str(b) for b in (bad_rows or [])],
                    seconds=round(time.perf_counter() - started, 2),
                )
            set_meta(conn, "embedding_model", embedder.name)
            set_meta(conn, "embedding_dim", embedder.dim)
            set_meta(conn, "normalize", embedder.normalize)
            conn.commit()
            dense_report = dense.sync(db_path, conn, embedder, flat_max=flat_max, progress=progress)
            # the files it loaded from compute the recorded probe: a job's check need not load them (probe_memo)
            probe = dense.Manifest.read(dense.index_paths(db_path)[1]).model_probe
            probe_memo.vouch(embedder.loaded_stamp, probe, embedder.requested)
            if dense_report.rebuilt:
                set_meta(
                    conn,
                    "first_build",
                    {
                        "seconds": round(time.perf_counter() - started, 1),
                        "passages": dense_report.added,
                        "index_type": dense_report.index_type,
                    },
                )
                conn.commit()
        finally:
            conn.close()
        return BuildReport(
            db=str(db_path),
            documents=asdict(ingested) if ingested else {},
            passages=asdict(synced),
            dense=asdict(dense_report),
            bad_rows=[str(b) for b in (bad_rows or [])],
            seconds=round(time.perf_counter() - started, 2),
        )


def kb_lock(db_path: Path) -> FileLock:
    """The lock held by one build of ``db_path`` at a time (``KB.lock`` beside it; ``knowrl.kb.ensure_kb`` holds it
    across its check and build): a CLI build beside a training run's interleaved their writes (hostile pass 60).
    One instance per path (``is_singleton``), so a holder that builds takes it again without waiting on itself;
    the path is the file's real one, so two spellings of one KB ("kb.db", "sub/../kb.db", a link) share one lock."""
    from filelock import FileLock

    db_path = db_path.resolve()
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot create the folder of {db_path}: {exc.strerror}") from None
    return FileLock(str(db_path) + ".lock", is_singleton=True)


def _check_target(
    db_path: Path, index_only: bool, source: dict | None, flags: Flags, what: str, replaces_any: bool = False
) -> None:
    """A ``ValueError`` unless a build may write ``db_path`` (``check_db``), the dense index files beside it
    (``index_files_problem``) and replace the documents of what it holds with a build of ``source``
    (``other_input``; with ``replaces_any``, whatever it holds: --overwrite, or a build that adds)."""
    check_db(db_path, index_only=index_only)
    problem = index_files_problem(db_path, flags.db)
    if problem:
        raise ValueError(problem)
    held = None if replaces_any else other_input(db_path, source)
    if held:
        raise ValueError(
            f"{db_path} holds {held}; {what} would replace its documents: pass --overwrite to replace them, or "
            f"choose another {flags.db}"
        )


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (``--max-tokens -5`` chunked one word per
    passage, exit 0); the message names the flag (argparse adds it)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def file_problem(path: Path, flag: str) -> str | None:
    """Why ``path`` cannot be a KB file (``--db``, ``--from-db``): a directory, or a special file (a FIFO, a device,
    a socket) that a build would block on or, replaced with --overwrite, unlink (``--db /dev/null``: hostile pass 59).
    A link to a regular file is that file; a missing path is a new file."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{flag} {path}: {exc.strerror}"
    if stat.S_ISDIR(mode):
        return f"{flag} {path} is a directory; give a knowledge base file"
    if not stat.S_ISREG(mode):
        return f"{flag} {path} is a special file (a FIFO, device or socket), not a knowledge base file"
    return None


def _copy_db(source: Path, target: Path) -> None:
    """A copy of the SQLite database ``source`` as a reader sees it, write-ahead log included (a file copy leaves
    out what is still in ``-wal``: hostile pass 9 built 5 of 10 documents)."""
    target.unlink(missing_ok=True)
    with contextlib.closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as src:
        with contextlib.closing(sqlite3.connect(target)) as dst:
            src.backup(dst)


def _no_documents(source: Path) -> str | None:
    """Why ``--from-db source`` has nothing to index: no ``documents(title, text)`` table (an empty file, another
    SQLite database), or it cannot be read as SQLite; None when it has one."""
    try:
        with contextlib.closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            columns = {row[1] for row in conn.execute("PRAGMA table_info(documents)")}
    except sqlite3.DatabaseError as exc:
        return f"--from-db {source}: not an SQLite database ({exc})"
    if not {"title", "text"} <= columns:
        return f"--from-db {source} has no documents(title, text) table: not a knowledge base to index"
    return None


def _replaceable(db: Path) -> str | None:
    """Why ``--from-db X --db Y --overwrite`` must not copy over ``Y``: it is not a knowledge base (a text file,
    another program's SQLite database); None for a KB, an empty file or none."""
    try:
        check_db(db)
    except ValueError as exc:
        return f"{exc} (--overwrite replaces only a knowledge base)"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m retrieval.build", description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--input",
        type=Path,
        action=Once,
        help="JSON array or JSONL of {title, text}; the KB becomes exactly these documents (others are removed, "
        "but for those a bad row may be: see docs/build-a-knowledge-base.md); each bad row is reported as "
        "FILE:LINE: reason (field) and skipped, exit 0 (no good row: exit 2)",
    )
    source.add_argument("--from-db", type=Path, action=Once, help="a DB with FActScore's documents table")
    source.add_argument("--preset", choices=["demo"], help="the embedded offline KB")
    parser.add_argument("--db", type=Path, action=Once, help="KB file to create or update")
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL, help="sentence-transformers model (name or path)")
    parser.add_argument("--max-tokens", type=_at_least(1), default=256, help="passage length when chunking")
    parser.add_argument(
        "--flat-max", type=_at_least(0), default=dense.FLAT_MAX, help="exact index up to this many passages (0: none)"
    )
    parser.add_argument(
        "--no-dense",
        action="store_true",
        help="documents, passages and BM25 only (no embedding; search with mode bm25)",
    )
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="with --input or --preset: replace the documents of a KB built from another input, or of one that does "
        "not say (a FActScore DB); with --from-db: copy over an existing --db (a knowledge base)",
    )
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    for flag, path in (("--db", args.db), ("--from-db", args.from_db)):
        problem = file_problem(path, flag) if path is not None else None
        if problem:  # before anything: a traceback, or /dev/null unlinked by --overwrite
            print(f"error: {problem}", file=sys.stderr)
            return 2

    bad: list[BadRow] = []
    stamp: build_stamp.Stamp | None = None
    repeats: list[str] = []  # rows whose title repeats an earlier row's (told, not merged unseen)
    documents: Iterable[Document] | None
    if args.input is not None:
        if args.db is None:
            parser.error("--input needs --db")
        problem = input_problem(args.input, "--input")
        if not problem and same_file(args.input, args.db):  # read as JSONL, a KB emptied itself (hostile pass 60)
            problem = f"--input {args.input} is --db {args.db} itself: give the JSON/JSONL of {{title, text}}"
        if problem:  # a pipe is read (once); a directory says so, not "not found"
            print(f"error: {problem}", file=sys.stderr)
            return 2
        # a file's stamp, before it is read (a pipe has none): a training run of it finds the KB built
        stamp = build_stamp.take(Path(os.path.abspath(args.input))) if args.input.is_file() else None
        documents = good_documents(read_documents(args.input), bad, str(args.input), repeats)
        first = next(iter(documents), None)  # an input without one document would build an empty KB, exit 0
        if first is None:
            why = f"all {len(bad)} row(s) bad, the first: {bad[0]}" if bad else "an empty file or an empty JSON array"
            print(f"error: {args.input}: no documents to build ({why})", file=sys.stderr)
            return 2
        documents = itertools.chain([first], documents)
        db = args.db
    elif args.from_db is not None:
        if not args.from_db.exists():
            parser.error(f"database not found: {args.from_db}")
        db = args.db or args.from_db
        if db.resolve() != args.from_db.resolve():
            if db.exists() and os.path.samefile(db, args.from_db):  # a hard link: the same file under two names
                db = args.from_db
            elif db.exists() and not args.overwrite:
                parser.error(f"--db {db} exists; --from-db copies {args.from_db} over it only with --overwrite")
            elif problem := (
                _replaceable(db) or index_files_problem(db) or _no_documents(args.from_db)
            ):  # nothing written when the build refuses (a copy of a source with no documents: hostile pass 68)
                print(f"error: {problem}", file=sys.stderr)
                return 2
            else:
                with kb_lock(db):  # not under a build of it
                    _copy_db(args.from_db, db)
        documents = None
    else:
        db = args.db or demo_kb_path()
        documents = demo_documents()
    try:
        report = build(
            db,
            documents,
            args.model,
            args.max_tokens,
            args.flat_max,
            not args.no_progress,
            bad,
            dense_index=not args.no_dense,
            replace=documents is not None,  # --input, --preset: the KB is the input's content, not a merge
            preset=args.preset,
            input_path=args.input,
            overwrite=args.overwrite,
            input_stamp=stamp,
        )
    except (ValueError, IndexMismatchError, sqlite3.DatabaseError, OSError) as exc:  # not a KB, a bad path: one line
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C while embedding was a traceback, exit 1 (hostile pass 52)
        finish = "the build" if args.no_dense else "the build and its dense index"
        return interrupted(f"what {db} had committed is kept; run the same command again to finish {finish}")
    print(json.dumps(asdict(report), indent=2))
    if bad:
        log.warning("%d bad row(s) skipped; everything else was built", len(bad))
    removed, kept = report.documents.get("removed", []), report.documents.get("kept_missing", [])
    if removed:
        shown = ", ".join(repr(t) for t in removed[:5]) + (f" and {len(removed) - 5} more" if len(removed) > 5 else "")
        log.warning("%d document(s) the input no longer holds were removed from the KB: %s", len(removed), shown)
    if kept:
        log.warning(
            "%d document(s) the input no longer holds were kept: %d row(s) were bad and may be among them; "
            "fix them and build again to remove the rest",
            len(kept),
            len(bad),
        )
    if repeats:
        log.warning("%d row(s) repeat an earlier title and were not kept (lines above)", len(repeats))
    repeated = report.passages.get("repeated", {})
    if repeated:
        shown = ", ".join(f"{t!r} ({n} rows)" for t, n in list(repeated.items())[:5])
        log.warning("%d title(s) appear in more than one documents row; every row's text is indexed under its title: "
                    "%s", len(repeated), shown)  # fmt: skip
    unreadable = report.passages.get("unreadable", [])
    if unreadable:
        log.warning("%d document(s) have a NULL title or text and were not indexed: %s", len(unreadable),
                    ", ".join(unreadable[:5]))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
