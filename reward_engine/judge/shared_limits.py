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

When Redis cannot be reached, a process falls back to a conservative local share of the limits
(``fallback_share``, which the trainer sets to 1/world_size: the old static split), logs a WARNING once
per outage, counts it in ``fallbacks``, and tries Redis again ``RETRY_AFTER_S`` later.

Every process sharing a budget must configure it alike (limits, window, max_in_flight): the windows are
keyed by their size, so a process with other limits counts in another window. Window entries and leases
carry each process's wall clock: the nodes' clocks must agree (NTP) to well under the window.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
_POLL_S = 0.005  # the shortest wait before asking again for a full window


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
        assert self._client is not None
        try:
            await self._client.zrem(self._slots_key, lease)
        except _ERRORS as exc:  # the lease expires by itself after lease_s
            self._failed(exc)

    async def close(self) -> None:
        """Close the connections, on the loop that opened them (a reward function may run each step on a new
        loop: connections of a closed loop are dropped, not closed)."""
        client, self._client = self._client, None
        if client is not None and self._loop is asyncio.get_running_loop():
            await client.aclose()

    # -- the shared budget --------------------------------------------------------------------
    async def _acquire_shared(self, tokens: int) -> str:
        assert self._limiter is not None and self._token_limiter is not None
        if self._requests is not None:
            await self._hit(self._limiter, self._requests, "requests", 1)
        if self._tokens is not None:
            await self._hit(self._token_limiter, self._tokens, "tokens", min(tokens, self._tokens.amount))
        return await self._lease()

    async def _hit(self, limiter: Any, item: RateLimitItemPerSecond, what: str, cost: int) -> None:
        """One hit of ``cost`` in the window, waiting for the window to make room."""
        while not await limiter.hit(item, what, cost=cost):
            stats = await limiter.get_window_stats(item, what)
            wait = min(max(stats.reset_time - time.time(), _POLL_S), 1.0)
            await asyncio.sleep(wait + random.uniform(0, _POLL_S))  # processes do not all ask at once

    async def _lease(self) -> str:
        """A slot among ``max_in_flight`` across processes: a lease in a sorted set, scored by its expiry."""
        assert self._client is not None
        lease = uuid.uuid4().hex
        while True:
            now = time.time()
            await self._client.zremrangebyscore(self._slots_key, 0, now)  # leases of processes that died
            async with self._client.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(self._slots_key)
                    if await pipe.zcard(self._slots_key) < self.budget.max_in_flight:
                        pipe.multi()
                        pipe.zadd(self._slots_key, {lease: now + self.lease_s})
                        try:
                            await pipe.execute()
                        except redis.WatchError:
                            raise
                        except BaseException:  # cancelled or cut off after EXEC may have run: give it back
                            await asyncio.shield(self._drop(lease))
                            raise
                        return lease
                    await pipe.unwatch()
                except redis.WatchError:
                    pass  # another process took or freed a slot meanwhile: look again, after a moment
            await asyncio.sleep(_POLL_S + random.uniform(0, _POLL_S))

    async def _drop(self, lease: str) -> None:
        try:
            assert self._client is not None
            await self._client.zrem(self._slots_key, lease)
        except _ERRORS:
            pass  # it expires after lease_s

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
