"""One judge budget for every process and node: requests/min, tokens/min and requests in flight in Redis.

Each trainer rank used to keep a static 1/world_size share of the judge's limits: under uneven load the
budget idled on some ranks while others queued, and two jobs on one API key each believed they owned all
of it. With ``judge.limits.url`` every process spending that key counts against one budget kept in Redis.

Admission is one round trip: a server-side script (``_ADMIT``, run by EVALSHA) takes a slot among
``max_in_flight`` and reserves the request's place in the requests window and the tokens window together.
When a window is full it does not refuse: it answers *when* the request may go (the earliest time at which
the window holds room for it, as GCRA-style limiters answer) and books that time, so the request sleeps
once and is never asked about again. When every slot is taken it refuses, and the process's first waiting
request blocks on a list (BLPOP) that each release pushes to: a freed slot wakes one waiter, in the order
they blocked, across all processes (a backlogged rank is served in turn, not by who asks fastest), and
nobody polls. A process of ``weight`` w keeps w requests blocked there at once, so backlogged processes share
the wakes, and the slots, in proportion to their weights (equal by default); an idle one's share goes to the
others. Release is one round trip too (``_RELEASE``); a request released before its booked time
(cancelled) gives its places in the windows back.

Why a script of our own and not the ``limits`` library's strategies (used before): each of them is one
limit per call (a window hit, then another for tokens, then a slot under WATCH/MULTI: ~8 commands per
request), refuses instead of booking (so waiters asked again, every process, ~20-90 commands per admitted
request at 1-4 processes: bench/results/scale.md), and cannot take a slot and the windows at once.

- windows: a sorted set of booked times per window (requests: one entry each; tokens: each entry carries its
  cost), exact over the moving window, with the same 1 % margin as the local limits (at least 0.1 s: the server
  counts a request a little after we do); times are Redis's own (``TIME``), so the nodes' clocks need not agree.
  A request that wakes more than half that margin past its booked time (a descheduled process) books its places
  again from when it woke, keeping its slot (``rebooked``): sent that late it would land among the requests the
  next window booked on time.
- slots: a sorted set of leases, each expiring ``lease_s`` after its booked time, so a process that died
  cannot hold a slot for ever (an admission that finds it expired wakes a waiter, as a release does; else a
  waiter's own timeout, ``_WAKE_S``, finds it).

When Redis cannot be reached, a process falls back to a conservative local share of the limits
(``fallback_share``, which the trainer sets to 1/world_size: the old static split), logs a WARNING once
per outage, counts it in ``fallbacks``, and tries Redis again ``RETRY_AFTER_S`` later. The share's windows start
holding what the shared budget admitted for this process in the current window (``_Sent``): a share counting from
zero let every rank send its whole share again on top of what Redis had already admitted, and the judge answered
196 requests 429 in bench/scale.py's outage row. Ranks loaded alike (a trainer's) then stay within the budget;
one idle before the outage may still spend its unused share in that first window. When Redis is back, each
process first books what its local share admitted in the current window into Redis's windows (``_BOOK``): a
killed Redis restarts empty and would otherwise admit a whole window again on top of them. For one window after
that (its *probation*) a request needs both its local share and Redis to admit it: the other processes notice
Redis is back only at their next retry (``RETRY_AFTER_S`` apart) and spend their local shares until then, so the
first one back, asking Redis alone, took what they were still spending (86 requests answered 429 in
bench/scale.py's outage row with both fixes above and without this one).

Every process sharing a budget must configure it alike (limits, window, max_in_flight): the keys are named by
the budget's name only.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import math
import time
import uuid
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import redis
import redis.asyncio as aioredis

from reward_engine.judge.limits import MARGIN, TokenWindow
from reward_engine.shared_cache import QUIET_CONNECTION, RETRY_AFTER_S, expand_env, redact

if TYPE_CHECKING:
    from reward_engine.judge.config import JudgeConfig

log = logging.getLogger(__name__)

_ERRORS = (redis.RedisError, OSError)
_SLACK_S = 0.1  # the least the windows exceed the server's (see SharedBudget.__init__)
# The longest a waiter blocks before asking again. Every release pushes a wake-up, and so does an admission that
# finds leases of dead processes expired; when every process is waiting nobody asks, and this timeout is what
# finds them (a lease lasts lease_s, 600 s by default: a minute more is little). Each timeout costs a BLPOP and
# an ask per waiting process: at 1 s bench/scale.py measured 10.4 round trips per admitted request at 16
# processes, at 10 s 5.0 at 16 and 8.1 at 64. A blocked waiter notices a silent network partition only after
# this (+1 s); a Redis that is killed or restarted drops the connection at once.
_WAKE_S = 60.0
# A request that wakes this much past its booked time (a busy machine, a process descheduled) books its places in
# the windows again from now before it goes: sent that late it would arrive inside the next window, among requests
# booked on time there (one 429 in bench/scale.py's 64-process row on 2 cores). "This much" is half the windows'
# slack over the server's (SharedBudget._late_s): the other half covers the send itself. At most _REBOOKS times.
_REBOOKS = 3

# KEYS: slots, requests window, tokens window, wake list. ARGV: lease, lease_s, max_in_flight, requests per window
# (0: none), window seconds, tokens per window (0: none), this request's tokens, rebook (1: this lease holds its
# slot and woke too late for its booked time: its places in the windows are booked again from now).
# Returns {1, delay, free slots left} (admitted: go after delay seconds) or {0, 0, 0} (every slot taken).
# Leases of dead processes that expired wake as many waiters, as a release would.
_ADMIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local lease, lease_s, max_in_flight = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local req_limit, window, tok_limit, cost = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local expired = redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
for i = 1, math.min(expired, max_in_flight) do redis.call('LPUSH', KEYS[4], '1') end
if expired > 0 then
  redis.call('LTRIM', KEYS[4], 0, max_in_flight - 1)
  redis.call('EXPIRE', KEYS[4], 600)
end
local rebook = ARGV[8] == '1' and redis.call('ZSCORE', KEYS[1], lease)
if rebook then
  redis.call('ZREM', KEYS[1], lease)
  redis.call('ZREM', KEYS[2], lease)
  redis.call('ZREM', KEYS[3], lease .. ':' .. cost)
end
local held = redis.call('ZCARD', KEYS[1])
if held >= max_in_flight and not rebook then return {0, '0', 0} end
local at = now
if req_limit > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
  local n = redis.call('ZCARD', KEYS[2])
  if n >= req_limit then
    local e = redis.call('ZRANGE', KEYS[2], n - req_limit, n - req_limit, 'WITHSCORES')
    at = math.max(at, tonumber(e[2]) + window)
  end
end
if tok_limit > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
  local booked = redis.call('ZREVRANGE', KEYS[3], 0, -1, 'WITHSCORES')
  local used = cost
  for i = 1, #booked, 2 do
    local c = tonumber(string.match(booked[i], ':(%d+)$'))
    if used + c > tok_limit then
      at = math.max(at, tonumber(booked[i + 1]) + window)
      break
    end
    used = used + c
  end
end
redis.call('ZADD', KEYS[1], at + lease_s, lease)
redis.call('PEXPIRE', KEYS[1], math.ceil((at - now + lease_s) * 1000) + 1000)
local keep = math.ceil((at - now + window) * 1000) + 1000
if req_limit > 0 then
  redis.call('ZADD', KEYS[2], at, lease)
  redis.call('PEXPIRE', KEYS[2], keep)
end
if tok_limit > 0 then
  redis.call('ZADD', KEYS[3], at, lease .. ':' .. cost)
  redis.call('PEXPIRE', KEYS[3], keep)
end
return {1, tostring(at - now), math.max(0, max_in_flight - held - 1)}
"""

# KEYS: slots, wake list, requests window, tokens window. ARGV: lease, max_in_flight, sent (1/0), tokens.
_RELEASE = """
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
if ARGV[3] == '0' then
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('ZREM', KEYS[4], ARGV[1] .. ':' .. ARGV[4])
end
if removed == 1 then
  redis.call('LPUSH', KEYS[2], '1')
  redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[2]) - 1)
  redis.call('EXPIRE', KEYS[2], 600)
end
return removed
"""


# KEYS: requests window, tokens window. ARGV: keep ms, requests window used (1/0), tokens window used (1/0), then
# per request (member, seconds ago, tokens). What a process's local share admitted while Redis was away, booked
# into the windows when Redis is back (a restarted Redis starts empty: it would admit a whole window again on top).
_BOOK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local keep = tonumber(ARGV[1])
for i = 4, #ARGV, 3 do
  local at = now - tonumber(ARGV[i + 1])
  if ARGV[2] == '1' then redis.call('ZADD', KEYS[1], at, ARGV[i]) end
  if ARGV[3] == '1' then redis.call('ZADD', KEYS[2], at, ARGV[i] .. ':' .. ARGV[i + 2]) end
end
for k = 1, 2 do
  if ARGV[k + 1] == '1' and redis.call('PTTL', KEYS[k]) < keep then redis.call('PEXPIRE', KEYS[k], keep) end
end
return 1
"""

# What the scripts call inside Redis: Redis's command counters count these too, but they are no round trip
# (bench/scale.py and the tests count round trips, and report the scripts' inner calls apart).
SCRIPT_COMMANDS = frozenset(
    {
        "time",
        "zremrangebyscore",
        "zcard",
        "zrange",
        "zrevrange",
        "zscore",
        "zadd",
        "pexpire",
        "zrem",
        "lpush",
        "ltrim",
        "expire",
        "pttl",
    }
)


def round_trips(commandstats: dict[str, Any]) -> int:
    """Commands clients sent, from ``INFO commandstats`` (EVALSHA counts once, not its inner calls)."""
    return sum(int(v["calls"]) for k, v in commandstats.items() if k.removeprefix("cmdstat_") not in SCRIPT_COMMANDS)


@dataclass(frozen=True)
class Budget:
    """The judge's limits across all processes (None: not limited)."""

    requests_per_minute: float | None
    tokens_per_minute: float | None
    max_in_flight: int
    window_s: float = 60.0


@dataclass(frozen=True)
class Lease:
    """An admitted request's slot and its booked places in the windows (``tokens``: its cost there;
    ``local``: admitted during a probation, so it holds a slot of the local share too)."""

    id: str
    tokens: int
    local: bool = False


class _Sent:
    """This process's admissions by the shared budget over the last window: (monotonic booked time, tokens)."""

    def __init__(self, window_s: float) -> None:
        self.window_s = window_s
        self.entries: collections.deque[tuple[float, int]] = collections.deque()

    def add(self, at: float, tokens: int) -> None:
        self.entries.append((at, tokens))
        now = time.monotonic()
        while self.entries and now - self.entries[0][0] > self.window_s:
            self.entries.popleft()

    def recent(self) -> list[tuple[float, int]]:
        now = time.monotonic()
        return [(at, tokens) for at, tokens in self.entries if now - at <= self.window_s]

    def take(self) -> list[tuple[float, int]]:
        """The entries within the window, once: each admission is counted at most once."""
        taken = self.recent()
        self.entries.clear()
        return taken


class LocalShare:
    """The fallback while Redis is away: ``share`` of the budget, in this process alone; each outage first
    ``count``s what the shared budget admitted for this process in the current window."""

    def __init__(self, budget: Budget, share: float) -> None:
        rpm = budget.requests_per_minute * share if budget.requests_per_minute else None
        tpm = budget.tokens_per_minute * share if budget.tokens_per_minute else None
        self._requests = TokenWindow(rpm, budget.window_s) if rpm else None  # one unit per request
        self._tokens = TokenWindow(tpm, budget.window_s) if tpm else None
        self._slots = asyncio.Semaphore(max(1, math.floor(budget.max_in_flight * share)))
        self.admitted = _Sent(budget.window_s * MARGIN)  # what this share let go: booked into Redis when back

    def count(self, sent: list[tuple[float, int]]) -> None:
        """What the shared budget admitted for this process in the current window, as if this share had."""
        for at, tokens in sent:
            if self._requests is not None:
                self._requests.count(at, 1)
            if self._tokens is not None:
                self._tokens.count(at, tokens)

    async def acquire(self, tokens: int, book: bool = True) -> None:
        """``book`` False: Redis books this request too (a probation), so a later outage need not."""
        if self._requests is not None:
            await self._requests.acquire(1)
        if self._tokens is not None:
            await self._tokens.acquire(tokens)
        await self._slots.acquire()
        if book:
            self.admitted.add(time.monotonic(), tokens)

    def release(self) -> None:
        self._slots.release()


class _Waiters:
    """This process's requests waiting for a slot, on one loop: only the first ``weight`` block on the wake list
    (each on a connection of its own) and ask Redis when woken; the rest queue on ``turns``. ``free`` is the
    admission script's last count of free slots: a request asks at once only while nobody here waits and it
    said some are free."""

    def __init__(self, loop: asyncio.AbstractEventLoop, weight: int) -> None:
        self.loop = loop
        self.turns = asyncio.Semaphore(weight)
        self.waiting = 0  # requests queued on turns or holding one
        self.free = 1  # until the script has said: one asks, the others wait for its answer
        self.trying = 0  # asks in flight outside the lock: a burst asks for at most the free slots


class SharedBudget:
    """``acquire`` before a request, ``release`` after it: the budget every process naming ``name`` shares."""

    def __init__(
        self, url: str, name: str, budget: Budget, lease_s: float, fallback_share: float, weight: int = 1
    ) -> None:
        self.url = redact(url)
        self.budget = budget
        self.lease_s = lease_s
        self.weight = weight  # requests of this process blocked on the wake list at once: its share of the wakes
        self.fallbacks = 0  # requests admitted by the local share while Redis was away
        self.rebooked = 0  # requests that woke past their booked time and booked their places again
        self._raw_url = url
        self._fallback_share = fallback_share
        self._local: LocalShare | None = None
        self._client: aioredis.Redis | None = None
        self._blocking: aioredis.Redis | None = None  # its own connection: a BLPOP holds one while it waits
        self._admit: Any = None
        self._release: Any = None
        self._book_script: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        per_window = budget.window_s / 60.0
        rpm, tpm = budget.requests_per_minute, budget.tokens_per_minute
        self._requests_per_window = max(1, int(rpm * per_window)) if rpm else 0
        self._tokens_per_window = max(1, int(tpm * per_window)) if tpm else 0
        # the server counts a request when it arrives: a request sent late (a busy process) must not let the
        # next one in early, so the window is a little longer than the server's (1 %, at least 0.1 s)
        self._window_s = max(budget.window_s * MARGIN, budget.window_s + _SLACK_S)
        self._late_s = (self._window_s - budget.window_s) / 2
        tag = f"{{knowrl:limits:{name}}}"  # one hash slot: a Redis Cluster runs the scripts on one node
        self._slots_key = f"{tag}:in-flight"
        self._wake_key = f"{tag}:freed"
        self._keys = [self._slots_key, f"{tag}:requests", f"{tag}:tokens"]
        self._down_until = 0.0
        self._probation_until = 0.0  # until then the local share admits too (see the module docstring)
        self._outage = False
        self._waiters: _Waiters | None = None
        self._sent = _Sent(budget.window_s * MARGIN)

    def _open(self) -> None:
        """Connections are made on the running loop (a client is bound to the loop that first uses it)."""
        if self._client is None:
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff

            fail_fast = {"socket_connect_timeout": 1.0, "retry": Retry(NoBackoff(), 1), **QUIET_CONNECTION}
            self._client = aioredis.Redis.from_url(self._raw_url, socket_timeout=1.0, **fail_fast)
            self._blocking = aioredis.Redis.from_url(self._raw_url, socket_timeout=_WAKE_S + 1.0, **fail_fast)
            self._admit = self._client.register_script(_ADMIT)
            self._release = self._client.register_script(_RELEASE)
            self._book_script = self._client.register_script(_BOOK)
            self._loop = asyncio.get_running_loop()

    async def acquire(self, tokens: int) -> Lease | None:
        """Wait until the shared budget admits one request of ~``tokens``; the lease to ``release`` (None when
        the local share admitted it)."""
        if time.monotonic() >= self._down_until:
            try:
                self._open()
                if self._outage and self._local is not None:  # back: what the local share spent, first
                    await self._book(self._local.admitted)
                    self._probation_until = time.monotonic() + self._window_s
                lease = await self._acquire_on_probation(tokens)
            except _ERRORS as exc:
                self._failed(exc)
            else:
                self._recovered()
                return lease
        if self._local is None:
            self._local = LocalShare(self.budget, self._fallback_share)
        if self._sent.entries:  # an outage's first fallback: the window already holds what Redis admitted
            self._local.count(self._sent.take())
        self.fallbacks += 1
        await self._local.acquire(tokens)
        return None

    async def release(self, lease: Lease | None, sent: bool = True) -> None:
        """Give the slot back (``sent`` False: the request never went, so its places in the windows too)."""
        if lease is None or lease.local:
            if self._local is not None:
                self._local.release()
            if lease is None:
                return
        await self._give_back(lease, sent, count_failure=True)

    async def close(self) -> None:
        """Close the connections, on the loop that opened them (a reward function may run each step on a new
        loop: connections of a closed loop are dropped, not closed)."""
        clients, self._client, self._blocking = (self._client, self._blocking), None, None
        if self._loop is asyncio.get_running_loop():
            for client in clients:
                if client is not None:
                    await client.aclose()

    # -- the shared budget --------------------------------------------------------------------
    async def _acquire_on_probation(self, tokens: int) -> Lease:
        """Redis's admission; within a window of Redis coming back, the local share's first (module docstring)."""
        local = self._local if self._local is not None and time.monotonic() < self._probation_until else None
        if local is None:
            return await self._acquire_shared(tokens)
        await local.acquire(tokens, book=False)
        try:
            lease = await self._acquire_shared(tokens)
        except BaseException:
            local.release()
            raise
        return replace(lease, local=True)

    async def _acquire_shared(self, tokens: int) -> Lease:
        cost = min(tokens, self._tokens_per_window) if self._tokens_per_window else 0
        lease = Lease(uuid.uuid4().hex, cost)
        waiters = self._waiters
        if waiters is None or waiters.loop is not asyncio.get_running_loop():  # each step may run on a new loop
            waiters = self._waiters = _Waiters(asyncio.get_running_loop(), self.weight)
        delay: float | None = None
        if not waiters.waiting and waiters.free > waiters.trying:  # nobody waits, slots free: ask at once
            waiters.trying += 1
            try:
                delay = await self._ask(lease, waiters)
            finally:
                waiters.trying -= 1
        if delay is None:
            waiters.waiting += 1
            try:
                async with waiters.turns:
                    while True:
                        # A waiter asks only when woken (or after _WAKE_S): one that asked on seeing free slots
                        # took a slot whose wake-up then woke the head of the queue for nothing, sending it to
                        # the back, and a weight-2 process, at the head twice as often, lost ~10 % of its share.
                        assert self._blocking is not None
                        await self._blocking.blpop([self._wake_key], timeout=_WAKE_S)
                        delay = await self._ask(lease, waiters)
                        if delay is not None:
                            break
            finally:
                waiters.waiting -= 1
        self._sent.add(time.monotonic() + max(0.0, delay), tokens)  # what a fallback share would count
        for rebooks in range(_REBOOKS + 1):
            if delay <= 0:
                break
            booked = time.monotonic() + delay
            try:
                await asyncio.sleep(delay)  # the request's booked time in the windows
            except BaseException:  # cancelled while it waits: its slot and its places go back
                await asyncio.shield(self._give_back(lease, sent=False))
                raise
            if time.monotonic() - booked <= self._late_s or rebooks == _REBOOKS:
                break
            self.rebooked += 1
            try:
                delay = await self._ask(lease, waiters, rebook=True)
            except BaseException:  # cancelled, or Redis went: its slot goes back now, not after lease_s
                await asyncio.shield(self._give_back(lease, sent=False))
                raise
            if delay is None:  # its lease expired meanwhile (lease_s): nothing of it is booked to move; it goes
                break
        return lease

    async def _book(self, admitted: _Sent) -> None:
        """One round trip: the local share's admissions of the current window into Redis's windows (kept there
        until they age out), so the shared budget counts them; cleared only once Redis has them."""
        entries = admitted.recent()
        if entries and (self._requests_per_window or self._tokens_per_window):
            now = time.monotonic()
            args: list[Any] = [int(self._window_s * 1000) + 1000, int(bool(self._requests_per_window))]
            args.append(int(bool(self._tokens_per_window)))
            cap = self._tokens_per_window or 1
            for at, tokens in entries:
                args += [uuid.uuid4().hex, max(0.0, now - at), min(tokens, cap)]
            await self._book_script(keys=self._keys[1:], args=args)
        admitted.entries.clear()

    async def _ask(self, lease: Lease, waiters: _Waiters, rebook: bool = False) -> float | None:
        """One admission round trip: the delay until the booked time, or None when every slot is taken."""
        args = [
            lease.id,
            self.lease_s,
            self.budget.max_in_flight,
            self._requests_per_window,
            self._window_s,
            self._tokens_per_window,
            lease.tokens,
            int(rebook),
        ]
        admitted, delay, free = await self._admit(keys=[*self._keys, self._wake_key], args=args)
        waiters.free = int(free)
        return float(delay) if int(admitted) else None

    async def _give_back(self, lease: Lease, sent: bool, count_failure: bool = False) -> None:
        """One release round trip; it wakes the first process waiting for a slot. Closed or unreachable: the
        lease expires by itself after lease_s (``count_failure``: an unreachable Redis starts the fallback)."""
        if self._client is None or self._release is None:
            return
        keys = [self._slots_key, self._wake_key, *self._keys[1:]]
        try:
            await self._release(keys=keys, args=[lease.id, self.budget.max_in_flight, int(sent), lease.tokens])
        except _ERRORS as exc:
            if count_failure:
                self._failed(exc)

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
    limits = config.limits
    return SharedBudget(
        expand_env(limits.url), limits.name, budget, limits.lease_s, limits.fallback_share, limits.weight
    )
