"""A disk cache of immutable answers: diskcache (SQLite, process-safe, survives kill -9).

The judge's replies (``judge.cache``) and retrieved evidence (``stages.evidence_cache``) are
kept this way, each under keys of its own.
"""

from __future__ import annotations

import collections
import threading
from pathlib import Path
from typing import Any

import diskcache

from reward_engine.background import OrderedWriter


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
        self._cache = diskcache.Cache(str(self.directory), size_limit=int(size_limit_gb * 2**30))
        self._memory: collections.OrderedDict[str, Any] = collections.OrderedDict()
        self._memory_items = memory_items
        self._lock = threading.Lock()
        self._writer = OrderedWriter("cache-writer")

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
        self._writer.submit(self._cache.set, key, value)

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
