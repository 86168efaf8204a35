"""A disk cache of immutable answers: diskcache (SQLite, process-safe, survives kill -9).

The judge's replies (``judge.cache``) and retrieved evidence (``stages.evidence_cache``) are
kept this way, each under keys of its own. Values are stored as JSON, never pickled: a cache directory
shared between users or nodes must not be a way to run code (diskcache's default unpickles what it
reads). Entries written otherwise (older pickled or raw values) read as misses, asked again and
overwritten.
"""

from __future__ import annotations

import collections
import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

import diskcache
from diskcache.core import MODE_PICKLE, UNKNOWN

from reward_engine.background import OrderedWriter


class CacheError(ValueError):
    """A cache directory that cannot be opened; the message names it and what to do."""


class JsonDisk(diskcache.Disk):
    """diskcache's storage with values as JSON text: nothing read back is ever unpickled."""

    def store(self, value: Any, read: bool, key: Any = UNKNOWN) -> Any:
        return super().store(value if read else json.dumps(value, ensure_ascii=False), read, key=key)

    def fetch(self, mode: int, filename: str | None, value: Any, read: bool) -> Any:
        if mode == MODE_PICKLE:
            return None  # not written by this class: a miss, never unpickled
        data = super().fetch(mode, filename, value, read)
        if not isinstance(data, str):
            return None
        try:
            return json.loads(data)
        except ValueError:  # a raw text value of an older cache: a miss
            return None


CACHE_DB = "cache.db"  # diskcache's database in its directory (diskcache.core.DBNAME)
OWN_TABLES = {"Settings", "Cache"}  # the only tables diskcache makes


def foreign_cache_db(directory: Path) -> str | None:
    """Why ``directory``'s ``cache.db`` is not diskcache's own (None: it is, or there is none yet): diskcache opens
    any SQLite file of that name, adds its tables and switches it to WAL (audit 59 H7: a user's ``cache.db`` of
    contacts, or a KB named ``cache.db`` beside ``cache_dir``, was changed by the first score run). Read without
    writing: ``immutable`` unless a write-ahead log is there (a live database, read through it)."""
    db = directory / CACHE_DB
    try:
        info = db.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read its {CACHE_DB} ({exc.strerror})"
    if not os.path.isfile(db):
        return f"its {CACHE_DB} is not a regular file"
    if info.st_size == 0:
        return None  # an empty file is an empty database: nothing in it to lose
    live = os.path.exists(str(db) + "-wal")
    uri = Path(os.path.abspath(db)).as_uri() + ("?mode=ro" if live else "?immutable=1")
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            found = conn.execute(
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'"
            ).fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return f"its {CACHE_DB} is not an SQLite database diskcache wrote ({exc})"
    others = sorted(name for (name,) in found if name not in OWN_TABLES)
    if others:
        shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        return f"its {CACHE_DB} is someone else's SQLite database (tables {shown}), not a diskcache"
    return None


class DiskCache:
    """One diskcache directory (several processes may share it) behind a small in-memory LRU.

    Values are immutable answers to deterministic calls, so the memory copy can never be
    stale; it only saves the SQLite round trip on a warm training step. Writes go to disk on
    one background thread: an SQLite commit costs milliseconds, and on the event loop the
    writes of one step's replies added up to a tenth of a second of its critical path. ``flush``
    (and ``close``, and interpreter exit) wait for them.
    """

    def __init__(self, directory: str | Path, size_limit_gb: float = 4.0, memory_items: int = 10_000) -> None:
        self.directory = Path(directory).expanduser()
        refused = foreign_cache_db(self.directory)
        if refused:
            raise CacheError(f"cache directory {self.directory} cannot be used: {refused}; point cache_dir elsewhere")
        try:
            self._cache = diskcache.Cache(str(self.directory), size_limit=int(size_limit_gb * 2**30), disk=JsonDisk)
        except (OSError, sqlite3.Error) as exc:  # a file where the folder should be, a damaged cache.db
            raise CacheError(
                f"cache directory {self.directory} cannot be used ({exc}); point cache_dir elsewhere or delete it"
            ) from None
        self._memory: collections.OrderedDict[str, Any] = collections.OrderedDict()
        self._memory_items = memory_items
        self._lock = threading.Lock()
        self._writer = OrderedWriter("cache-writer")
        self._pending: list[tuple[str, Any]] = []  # sets not yet on disk, written together by ``_drain``
        self._draining = False

    def _remember(self, key: str, value: Any) -> None:
        with self._lock:  # retrieval writes from executor threads
            self._memory[key] = value
            self._memory.move_to_end(key)
            while len(self._memory) > self._memory_items:
                self._memory.popitem(last=False)

    def get(self, key: str) -> Any | None:
        with self._lock:
            if key in self._memory:
                self._memory.move_to_end(key)
                return self._memory[key]
        value = self._cache.get(key)
        if value is not None:
            self._remember(key, value)
        return value

    async def aget(self, key: str) -> Any | None:
        """``get`` for a caller on the event loop: memory or local SQLite, fast enough to stay on it (the
        shared ``RedisCache`` leaves the loop for its network read)."""
        return self.get(key)

    def set(self, key: str, value: Any) -> None:
        """Remembered now, on disk shortly (in order, on the writer thread)."""
        self._remember(key, value)
        with self._lock:
            self._pending.append((key, value))
            if self._draining:
                return  # the running drain takes it
            self._draining = True
        self._writer.submit(self._drain)

    def _drain(self) -> None:
        """Every pending set, in order, one transaction per batch: a step's replies arrive together, and one
        commit each cost the writer thread 3x the CPU (and the event loop its GIL) of one commit for all."""
        while True:
            with self._lock:
                batch, self._pending = self._pending, []
                if not batch:
                    self._draining = False
                    return
            try:
                with self._cache.transact():
                    for key, value in batch:
                        self._cache.set(key, value)
            except BaseException:
                with self._lock:
                    self._draining = False
                raise

    def flush(self) -> None:
        """Wait until every ``set`` so far is on disk (the writer runs them in order)."""
        self._writer.flush()

    def __contains__(self, key: str) -> bool:
        self.flush()
        return key in self._cache

    def __len__(self) -> int:
        self.flush()
        return len(self._cache)

    def close(self) -> None:
        self._writer.shutdown()
        self._cache.close()
