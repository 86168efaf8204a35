"""Background threads for the caches, started on first use: a cache that is only read from memory starts none.

Both caches send disk and network writes to one ordered writer thread, so the event loop never waits on an
SQLite commit or a Redis round trip, and ``flush`` can wait for exactly the writes made so far.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable


class LazyPool:
    """A thread pool started on first ``get``; ``shutdown`` waits for its work (a later ``get`` starts anew)."""

    def __init__(self, workers: int, name: str) -> None:
        self.workers = workers
        self.name = name
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def get(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix=self.name)
            return self._pool

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)


class OrderedWriter:
    """Calls run one at a time, in the order submitted, on one background thread."""

    def __init__(self, name: str) -> None:
        self._pool = LazyPool(1, name)
        self._lock = threading.Lock()
        self._last: Future | None = None

    def submit(self, fn: Callable[..., Any], *args: Any) -> None:
        with self._lock:  # the call queued last is the one ``flush`` waits for
            self._last = self._pool.get().submit(fn, *args)

    def flush(self) -> None:
        """Wait until every call submitted so far has run (one thread runs them in order); its error is raised."""
        last = self._last
        if last is not None:
            last.result()

    def shutdown(self) -> None:
        self.flush()
        self._pool.shutdown()
