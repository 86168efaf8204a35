"""One judge budget for every process and node: requests/min, tokens/min and requests in flight in Redis.

Each trainer rank used to keep a static 1/world_size share of the judge's limits: under uneven load the
budget idled on some ranks while others queued, and two jobs on one API key each believed they owned all
of it. With ``judge.limits.url`` every process spending that key counts against one budget kept in Redis:

- requests per window: ``limits``' moving window (exact: the window holds each hit's time), with the same
  1 % margin as the local limits (the server counts a request a little after we do); tokens per window:
  its sliding-window counter (two counters, not one list entry per token: a token count is an estimate
  anyway, and a moving window of millions of tokens would push that many entries);
- requests in flight: a sorted set of leases, each expiring after ``lease_s`` so a process that died
  cannot hold a slot for ever (taken under WATCH/MULTI: no two processes take the last slot).

A request takes its slot first and its hits in the windows last, right before it is sent (the server counts
it when it arrives: a hit taken before a long wait for a slot would leave our window early). Waiting costs
Redis little: a request that finds a slot or a window full queues behind the others of its process waiting
for the same thing, and only the first of them asks Redis again, at intervals growing from ``_POLL_S`` to
``_POLL_MAX_S`` (for a window: when it makes room), or at once when a request of this process gives its slot
back. Before, every waiting request asked on its own every 5-10 ms: a few hundred waiters meant tens of
thousands of Redis commands a second.

When Redis cannot be reached, a process falls back to a conservative local share of the limits
(``fallback_share``, which the trainer sets to 1/world_size: the old static split), logs a WARNING once
per outage, counts it in ``fallbacks``, and tries Redis again ``RETRY_AFTER_S`` later.

Every process sharing a budget must configure it alike (limits, window, max_in_flight): the windows are
keyed by their size, so a process with other limits counts in another window. Window entries and leases
carry each process's wall clock: the nodes' clocks must agree (NTP) to well under the window.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import random
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable, TypeVar

import redis
import redis.asyncio as aioredis
from limits import RateLimitItemPerSecond
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter
from limits.errors import StorageError

from reward_engine.judge.limits import MARGIN, TokenWindow, request_throttler
from reward_engine.shared_cache import RETRY_AFTER_S, expand_env, redact

if TYPE_CHECKING:
    from reward_engine.judge.config import JudgeConfig

log = logging.getLogger(__name__)

_ERRORS = (redis.RedisError, StorageError, OSError)
_POLL_S = 0.005  # the shortest wait before asking again for a full window or a full set of slots
_POLL_MAX_S = 0.05  # the longest for slots: one freed by another process is seen at most this late
T = TypeVar("T")


class _Queue:
    """One process's requests waiting for the same thing (a slot, or room in one window), on one loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.lock = asyncio.Lock()  # held by the one waiter that asks Redis; the others queue on it
        self.freed = asyncio.Event()  # a slot was given back in this process
        self.trying = 0  # first tries in flight: while one is, a newcomer queues instead of asking too


@dataclass(frozen=True)
class Budget:
    """The judge's limits across all processes (None: not limited)."""

    requests_per_minute: float | None
    tokens_per_minute: float | None
    max_in_flight: int
    window_s: float = 60.0


class LocalShare:
    """The fallback while Redis is away: ``share`` of the budget, in this process alone."""

    def __init__(self, budget: Budget, share: float) -> None:
        rpm = budget.requests_per_minute * share if budget.requests_per_minute else None
        tpm = budget.tokens_per_minute * share if budget.tokens_per_minute else None
        self._requests = request_throttler(rpm, budget.window_s)
        self._tokens = TokenWindow(tpm, budget.window_s) if tpm else None
        self._slots = asyncio.Semaphore(max(1, math.floor(budget.max_in_flight * share)))

    async def acquire(self, tokens: int) -> None:
        if self._requests is not None:
            await self._requests.acquire()
        if self._tokens is not None:
            await self._tokens.acquire(tokens)
        await self._slots.acquire()

    def release(self) -> None:
        self._slots.release()


class SharedBudget:
    """``acquire`` before a request, ``release`` after it: the budget every process naming ``name`` shares."""

    def __init__(self, url: str, name: str, budget: Budget, lease_s: float, fallback_share: float) -> None:
        self.url = redact(url)
        self.budget = budget
        self.lease_s = lease_s
        self.fallbacks = 0  # requests admitted by the local share while Redis was away
        self._raw_url = url
        self._name = name
        self._fallback_share = fallback_share
        self._local: LocalShare | None = None
        self._storage: RedisStorage | None = None
        self._limiter: MovingWindowRateLimiter | None = None
        self._token_limiter: SlidingWindowCounterRateLimiter | None = None
        self._client: aioredis.Redis | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        window = max(1, math.ceil(budget.window_s * MARGIN))
        per_window = budget.window_s / 60.0
        rpm, tpm = budget.requests_per_minute, budget.tokens_per_minute
        self._requests = RateLimitItemPerSecond(max(1, int(rpm * per_window)), window) if rpm else None
        self._tokens = RateLimitItemPerSecond(max(1, int(tpm * per_window)), window) if tpm else None
        self._slots_key = f"knowrl:limits:{name}:in-flight"
        self._down_until = 0.0
        self._outage = False
        self._queues: dict[str, _Queue] = {}  # what is waited for -> this process's queue for it

    def _open(self) -> None:
        """Connections are made on the running loop (a client is bound to the loop that first uses it)."""
        if self._client is None:
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff

            fail_fast = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0, "retry": Retry(NoBackoff(), 1)}
            # limits reads "unix://" as Valkey's scheme; "redis+unix://" is Redis over a socket
            uri = "redis+" + self._raw_url if self._raw_url.startswith("unix://") else self._raw_url
            self._storage = RedisStorage(
                uri,
                implementation="redispy",
                key_prefix=f"knowrl-limits-{self._name}",
                wrap_exceptions=True,
                **fail_fast,
            )
            self._limiter = MovingWindowRateLimiter(self._storage)
            self._token_limiter = SlidingWindowCounterRateLimiter(self._storage)
            self._client = aioredis.Redis.from_url(self._raw_url, **fail_fast)
            self._loop = asyncio.get_running_loop()

    async def acquire(self, tokens: int) -> str | None:
        """Wait until the shared budget admits one request of ~``tokens``; the lease to ``release`` (None when
        the local share admitted it)."""
        if time.monotonic() >= self._down_until:
            try:
                self._open()
                lease = await self._acquire_shared(tokens)
            except _ERRORS as exc:
                self._failed(exc)
            else:
                self._recovered()
                return lease
        if self._local is None:
            self._local = LocalShare(self.budget, self._fallback_share)
        self.fallbacks += 1
        await self._local.acquire(tokens)
        return None

    async def release(self, lease: str | None) -> None:
        if lease is None:
            if self._local is not None:
                self._local.release()
            return
        await self._drop(lease, count_failure=True)

    async def close(self) -> None:
        """Close the connections, on the loop that opened them (a reward function may run each step on a new
        loop: connections of a closed loop are dropped, not closed)."""
        client, self._client = self._client, None
        if client is not None and self._loop is asyncio.get_running_loop():
            await client.aclose()

    # -- the shared budget --------------------------------------------------------------------
    async def _acquire_shared(self, tokens: int) -> str:
        """A slot, then the request's hits in the windows (see the module's docstring for why in that order)."""
        assert self._limiter is not None and self._token_limiter is not None
        lease = await self._until("slots", self._take_slot)
        taken = time.time()
        try:
            if self._requests is not None:
                await self._until(
                    "requests", functools.partial(self._hit, self._limiter, self._requests, "requests", 1)
                )
            if self._tokens is not None:
                cost = min(tokens, self._tokens.amount)
                await self._until(
                    "tokens", functools.partial(self._hit, self._token_limiter, self._tokens, "tokens", cost)
                )
            if time.time() - taken > 1.0:  # the lease counts from now: a long wait must not shorten it
                assert self._client is not None
                await self._client.zadd(self._slots_key, {lease: time.time() + self.lease_s}, xx=True)
        except BaseException:  # cancelled or Redis gone while waiting for a window: the slot goes back
            await asyncio.shield(self._drop(lease))
            raise
        return lease

    def _slot_freed(self) -> None:
        """Wake this process's first request waiting for a slot (one freed elsewhere is seen by its next ask)."""
        queue = self._queues.get("slots")
        if queue is not None and queue.loop is asyncio.get_running_loop():
            queue.freed.set()

    async def _until(self, what: str, attempt: Callable[[], Awaitable[tuple[T | None, float | None]]]) -> T:
        """``attempt`` until it succeeds: at once while no request of this process waits for ``what``, else
        behind those that do, only the first of them asking. ``attempt`` gives (result or None, how long to
        wait before asking again or None for a growing interval)."""
        queue = self._queues.get(what)
        if queue is None or queue.loop is not asyncio.get_running_loop():  # each step may run on a new loop
            queue = self._queues[what] = _Queue(asyncio.get_running_loop())
        if not queue.lock.locked() and not queue.trying:  # 100 requests arriving together ask once, not 100 times
            queue.trying += 1
            try:
                got, wait = await attempt()
            finally:
                queue.trying -= 1
            if got is not None:
                return got
        async with queue.lock:
            interval = _POLL_S
            while True:
                queue.freed.clear()  # before asking: a slot given back while the answer comes ends the wait
                got, wait = await attempt()
                if got is not None:
                    return got
                pause = wait if wait is not None else interval
                with contextlib.suppress(TimeoutError):  # processes do not all ask at once: a random extra
                    await asyncio.wait_for(queue.freed.wait(), pause + random.uniform(0, _POLL_S))
                interval = min(2 * interval, _POLL_MAX_S)

    async def _hit(self, limiter: Any, item: RateLimitItemPerSecond, what: str, cost: int) -> tuple[bool | None, float]:
        """One hit of ``cost`` in the window, or (None, the time until the window makes room)."""
        if await limiter.hit(item, what, cost=cost):
            return True, 0.0
        stats = await limiter.get_window_stats(item, what)
        return None, min(max(stats.reset_time - time.time(), _POLL_S), 1.0)

    async def _take_slot(self) -> tuple[str | None, None]:
        """A slot among ``max_in_flight`` across processes, or None when all are taken: a lease in a sorted set,
        scored by its expiry (taken under WATCH/MULTI, so no two processes take the last one)."""
        assert self._client is not None
        lease = uuid.uuid4().hex
        now = time.time()
        await self._client.zremrangebyscore(self._slots_key, 0, now)  # leases of processes that died
        async with self._client.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(self._slots_key)
                if await pipe.zcard(self._slots_key) >= self.budget.max_in_flight:
                    await pipe.unwatch()
                    return None, None
                pipe.multi()
                pipe.zadd(self._slots_key, {lease: now + self.lease_s})
                try:
                    await pipe.execute()
                except redis.WatchError:
                    raise
                except BaseException:  # cancelled or cut off after EXEC may have run: give it back
                    await asyncio.shield(self._drop(lease))
                    raise
                return lease, None
            except redis.WatchError:
                return None, _POLL_S  # another process took or freed a slot meanwhile: look again soon

    async def _drop(self, lease: str, count_failure: bool = False) -> None:
        """Give a slot back and wake this process's first waiter for one. Closed or unreachable: the lease
        expires by itself after lease_s (``count_failure``: an unreachable Redis starts the local fallback)."""
        client = self._client
        try:
            if client is not None:
                await client.zrem(self._slots_key, lease)
        except _ERRORS as exc:
            if count_failure:
                self._failed(exc)
        self._slot_freed()

    def _failed(self, exc: BaseException) -> None:
        self._down_until = time.monotonic() + RETRY_AFTER_S
        if not self._outage:
            self._outage = True
            log.warning(
                "shared judge limits %s unreachable (%s): this process keeps %.0f %% of the limits to itself "
                "until it returns",
                self.url,
                type(exc).__name__,
                100 * self._fallback_share,
            )

    def _recovered(self) -> None:
        if self._outage:
            self._outage = False
            log.warning("shared judge limits %s are back", self.url)


def shared_budget(config: "JudgeConfig") -> SharedBudget:
    """The shared budget ``config.limits`` names, over ``config``'s per-minute limits and max_in_flight."""
    assert config.limits is not None
    budget = Budget(config.requests_per_minute, config.tokens_per_minute, config.max_in_flight, config.rate_window_s)
    return SharedBudget(
        expand_env(config.limits.url), config.limits.name, budget, config.limits.lease_s, config.limits.fallback_share
    )
