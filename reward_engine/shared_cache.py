"""Judge replies and evidence shared by every process and node through Redis (``judge.cache.url``).

The disk cache (``disk_cache``) is per node, and SQLite on a network file system is not safe, so node B
paid again for what node A asked. Here the same keys live in one Redis (or Valkey) that every trainer
rank, scoring job and warming job names. The node's disk cache stays beside it: reads try it first (a
warm step never leaves the machine), every answer is written to both, and while Redis is unreachable the
disk cache alone serves: logged at WARNING once per outage, counted in ``fallbacks``, and answers stored
meanwhile are copied to Redis when it returns. Nothing is lost, nothing fails.

Values are JSON (strings and lists of passages), never pickles: a shared store must not be able to run
code in the processes that read it. The URL may carry a password: it is never logged (``redact``).
Size: bound it in Redis (``maxmemory`` with ``allkeys-lru``); ``ttl_s`` expires entries after a time.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import re
import threading
import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from reward_engine.background import LazyPool, OrderedWriter
from reward_engine.disk_cache import DiskCache

log = logging.getLogger(__name__)

RETRY_AFTER_S = 5.0  # after a failure, Redis is tried again this long later (each call would wait otherwise)
MAX_PENDING = 100_000  # answers written during an outage and copied to Redis when it returns, at most
READERS = 4  # Redis reads in flight at once per cache (each is a network wait, not CPU work)


def expand_env(url: str) -> str:
    """A URL given as ``${VAR}`` read from the environment (a password stays out of config files)."""
    if url.startswith("${") and url.endswith("}"):
        name = url[2:-1]
        if name not in os.environ:
            raise ValueError(f"the Redis URL comes from ${{{name}}}, which is not set")
        return os.environ[name]
    return url


def redact(url: str) -> str:
    """The URL without its password, for logs: redis://:secret@host:6379/0 -> redis://:***@host:6379/0 (and
    ``?password=`` in the query, which redis-py honours too)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        netloc = f"{parts.username or ''}:***@{netloc.rsplit('@', 1)[1]}"
    query = re.sub(r"(?i)(^|&)(password=)[^&]*", r"\1\2***", parts.query)
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


# Every connection redis-py 8 opens sends HELLO 3 and CLIENT SETINFO x 3 before its first command; with one
# BLPOP connection per waiting request that was 2-3 of the ~7 Redis commands per admitted request at 64
# processes (bench/results/scale.md). RESP2 and no library tags: a connection costs nothing until used. A URL
# with a password still authenticates (AUTH, as RESP2 does).
QUIET_CONNECTION: dict[str, Any] = {"protocol": 2, "lib_name": None, "lib_version": None}


def redis_client(url: str, timeout_s: float = 1.0) -> Any:
    """A redis-py client that fails fast: one immediate retry (a connection left stale by a Redis restart is
    replaced), not redis-py's default of several with backoff (an outage probe would hold the caller for
    seconds); short timeouts."""
    import redis  # the distributed extra: imported only when shared state is configured
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(
        url,
        socket_timeout=timeout_s,
        socket_connect_timeout=timeout_s,
        retry=Retry(NoBackoff(), 1),
        **QUIET_CONNECTION,
    )


class RedisCache:
    """The interface of ``DiskCache`` (get, set, flush, close, len, in) over Redis, the node's disk cache beside it."""

    def __init__(
        self,
        url: str,
        local: DiskCache,
        namespace: str,
        ttl_s: float | None = None,
        timeout_s: float = 1.0,
    ) -> None:
        self.url = redact(url)
        self.local = local
        self.directory = local.directory
        self.prefix = f"knowrl:{namespace}:"
        self.ttl_s = ttl_s
        self.fallbacks = 0  # reads and writes served by the disk cache alone while Redis was away
        import redis

        self._errors: tuple[type[Exception], ...] = (redis.RedisError, OSError)
        self._client = redis_client(url, timeout_s)
        self._down_until = 0.0
        self._outage = False
        self._pending: dict[str, None] = {}  # keys stored while Redis was away (ordered, bounded)
        self._lock = threading.Lock()
        self._writer = OrderedWriter("shared-cache-writer")  # writes reach Redis in order, off the event loop
        # Reads have their own threads: on the loop's default executor a read would queue behind CPU-bound
        # work (KB searches, offline grading) that the reward stages send there on a cold step.
        self._readers = LazyPool(READERS, "shared-cache-reader")

    # -- Redis, or the fallback -------------------------------------------------------------
    def _up(self) -> bool:
        return time.monotonic() >= self._down_until

    def _failed(self, exc: Exception) -> None:
        with self._lock:
            self.fallbacks += 1
            self._down_until = time.monotonic() + RETRY_AFTER_S
            first = not self._outage
            self._outage = True
        if first:
            log.warning(
                "shared cache %s unreachable (%s): using this node's disk cache until it returns",
                self.url,
                type(exc).__name__,
            )

    def _recovered(self) -> None:
        with self._lock:
            if not self._outage:
                return
            self._outage = False
            pending, self._pending = list(self._pending), {}
        log.warning("shared cache %s is back: copying %d answers stored meanwhile", self.url, len(pending))
        self._writer.submit(self._copy, pending)  # on the writer thread: never on the caller's event loop

    def _copy(self, keys: list[str]) -> None:
        for key in keys:
            value = self.local.get(key)
            if value is not None:
                self._write(key, json.dumps(value, ensure_ascii=False))

    def get(self, key: str) -> Any | None:
        value = self.local.get(key)
        if value is not None or not self._still_up():
            return value
        return self._remote_get(key)

    async def aget(self, key: str) -> Any | None:
        """``get`` for a caller on the event loop: the network read (up to ``timeout_s`` while Redis is away)
        runs on a worker thread, so one lookup never stalls every other call and the step's deadline timer."""
        value = self.local.get(key)
        if value is not None or not self._still_up():
            return value
        return await asyncio.get_running_loop().run_in_executor(self._readers.get(), self._remote_get, key)

    def _still_up(self) -> bool:
        """Redis may be asked (a lookup while it is known to be away is a fallback, counted)."""
        if self._up():
            return True
        with self._lock:
            self.fallbacks += 1
        return False

    def _remote_get(self, key: str) -> Any | None:
        try:
            raw = self._client.get(self.prefix + key)
        except self._errors as exc:
            self._failed(exc)
            return None
        self._recovered()
        if raw is None:
            return None
        try:
            value = json.loads(raw)
        except ValueError:  # not written by this project (or damaged): a miss, asked again and overwritten
            return None
        self.local.set(key, value)
        return value

    def set(self, key: str, value: Any) -> None:
        """On this node's disk now, in Redis shortly (on a writer thread: the event loop never waits on it)."""
        self.local.set(key, value)
        self._submit(key, value)

    def _submit(self, key: str, value: Any) -> None:
        self._writer.submit(self._write, key, json.dumps(value, ensure_ascii=False))

    def _write(self, key: str, raw: str) -> None:
        if self._up():
            try:
                self._client.set(self.prefix + key, raw, px=math.ceil(self.ttl_s * 1000) if self.ttl_s else None)
            except self._errors as exc:
                self._failed(exc)
            else:
                self._recovered()
                return
        with self._lock:
            self.fallbacks += 1
            if len(self._pending) < MAX_PENDING:
                self._pending[key] = None

    # -- the DiskCache interface -------------------------------------------------------------
    def flush(self) -> None:
        """Wait until every ``set`` so far is on disk and sent to Redis (or kept for when it returns)."""
        self.local.flush()
        self._writer.flush()

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not None

    def __len__(self) -> int:
        """Entries under this namespace in Redis (this node's disk cache's count while Redis is away)."""
        self.flush()
        try:
            return sum(1 for _ in self._client.scan_iter(match=self.prefix + "*", count=1000))
        except self._errors:
            return len(self.local)

    def close(self) -> None:
        self.flush()
        self._writer.shutdown()
        self._readers.shutdown()
        self._client.close()
        self.local.close()
