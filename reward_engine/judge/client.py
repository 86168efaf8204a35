"""The one place judge calls go through: the policy around the wire.

    async with JudgeClient(JudgeConfig(endpoints=[Endpoint(base_url=..., model=...)])) as judge:
        reply = await judge.complete(messages, template_version="grader-v3", validate=ok)

Policy only: the cache, in-flight de-duplication, retries (tenacity), endpoint rotation, a
warmer retry after a refused reply, limits and the circuit breaker. The request and reply on
the wire are ``wire``'s; every error is in ``errors``. Loop-bound objects (session, slots,
throttler) are made on the running loop, again on another.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt, wait_random_exponential

from reward_engine.judge.breaker import CircuitBreaker
from reward_engine.judge.cache import cache_key, judge_cache
from reward_engine.judge.config import Endpoint, JudgeConfig
from reward_engine.judge.errors import (
    AttemptTimeoutError,
    BreakerOpenError,
    InvalidReplyError,
    JudgeError,
    JudgeTimeoutError,
    RateLimitedError,
    RetryableError,
    SchemaRefusedError,
)
from reward_engine.judge.limits import PrioritySlots, TokenWindow, estimate_tokens, request_throttler
from reward_engine.judge.metrics import JudgeMetrics
from reward_engine.judge.wire import Transport, Wire, WireReply

log = logging.getLogger(__name__)


@dataclass
class JudgeReply:
    text: str
    cached: bool
    attempts: int
    latency_s: float


@dataclass(frozen=True)
class _Call:
    """One judge call as asked for: the prompt, its template version, the reply budget and form."""

    messages: list[dict[str, Any]]
    template_version: str
    max_tokens: int
    schema: dict[str, Any] | None
    validate: Callable[[str], bool] | None
    priority: int
    kind: str = "other"  # names the call in the parse tallies (JudgeMetrics.parsed)
    whole: bool = False  # a reply cut at max_tokens is refused (lists of claims or verdicts)
    keys: dict[str, str] = field(default_factory=dict)  # cache key by model: worked out once, read twice


@dataclass
class _Tries:
    """How one call's attempts went: how many, how many replies were refused, who answered last."""

    endpoint: Endpoint
    count: int = 0
    refused: int = 0


class _Shared:
    """One in-flight call awaited by several callers. It is cancelled only when every caller has left:
    a dropped speculative call must still stop work nobody waits for, and must not cancel a grader's."""

    def __init__(self, task: asyncio.Future) -> None:
        self.task = task
        self.waiters = 0

    async def wait(self) -> JudgeReply:
        self.waiters += 1
        try:
            return await asyncio.shield(self.task)
        finally:
            self.waiters -= 1
            if self.waiters == 0 and not self.task.done():
                self.task.cancel()


class JudgeClient:
    """Owns the wire, limits, breaker and cache for one event loop."""

    def __init__(self, config: JudgeConfig, transport: Transport | None = None) -> None:
        """``transport``: what requests go through (default: HTTP to the config's endpoints)."""
        self.config = config
        self.metrics = JudgeMetrics()
        self.breaker = CircuitBreaker(config.breaker_failures, config.breaker_cooldown_s)
        self.cache = judge_cache(config)
        self.wire: Transport = transport or Wire(
            config.max_in_flight, config.timeout_s, config.seed, config.schema_format, config.max_reply_bytes
        )
        self._endpoints = itertools.cycle(config.endpoints)
        self._slots: PrioritySlots | None = None
        self._throttler: Any = None
        self._tokens: TokenWindow | None = None
        self._budget: Any = None  # judge.shared_limits.SharedBudget when judge.limits is set
        self._inflight: dict[str, _Shared] = {}  # deterministic calls in flight, by cache key
        self._no_schema: set[str] = set()  # endpoints that refused response_format (structured_output: auto)

    async def __aenter__(self) -> "JudgeClient":
        await self._ensure_loop_objects()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Calls still in flight (their callers cancelled, the cancellation not yet delivered) end first, so a
        shared-budget slot one of them holds is given back before the budget's connection closes."""
        left = [shared.task for shared in self._inflight.values() if not shared.task.done()]
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)
        await self.wire.close()
        if self._budget is not None:
            await self._budget.close()
        await self.flush()

    async def flush(self) -> None:
        """Wait until the answers handed to the cache's writer thread so far are on disk (or in Redis)."""
        if self.cache is not None:
            await asyncio.to_thread(self.cache.flush)

    async def _ensure_loop_objects(self) -> None:
        if self.wire.bound_to_running_loop():
            return
        await self.wire.open()
        self._inflight = {}  # futures of another loop cannot be awaited on this one
        self._slots = PrioritySlots(self.config.max_in_flight)
        self._throttler = request_throttler(self.config.requests_per_minute, self.config.rate_window_s)
        self._tokens = (
            TokenWindow(self.config.tokens_per_minute, self.config.rate_window_s)
            if self.config.tokens_per_minute
            else None
        )
        if self.config.limits is not None:  # one budget across processes replaces the local limits
            from reward_engine.judge.shared_limits import shared_budget  # the distributed extra

            self._throttler, self._tokens = None, None
            self._budget = shared_budget(self.config)

    # -- what a call is, and what the cache holds for it -------------------------------------
    def key_for(
        self,
        messages: list[dict[str, Any]],
        template_version: str,
        max_tokens: int | None = None,
        model: str | None = None,
        schema: dict[str, Any] | None = None,
    ) -> str:
        """The cache key of this call answered by ``model`` (default: the first endpoint's); a call asking
        for a JSON schema is another call than the same prompt in text."""
        cfg = self.config
        version = template_version + ("+json" if self._asks_schema(schema) else "")
        return cache_key(
            model or cfg.endpoints[0].model, messages, cfg.temperature, max_tokens or cfg.max_tokens, cfg.seed, version
        )

    @property
    def structured(self) -> bool:
        """Whether calls that have a JSON schema ask for it (``structured_output`` is not off)."""
        return self.config.structured_output != "off"

    def _asks_schema(self, schema: dict[str, Any] | None) -> bool:
        return schema is not None and self.structured

    async def cached(
        self,
        messages: list[dict[str, Any]],
        template_version: str,
        max_tokens: int | None = None,
        schema: dict[str, Any] | None = None,
    ) -> str | None:
        """The cached answer for this call, without calling (None when absent or uncacheable).

        With endpoints serving different models, an answer counts only when every model's is
        cached: which endpoint the next call goes to is not known in advance.
        """
        if self.cache is None or self.config.temperature != 0:
            return None
        models = dict.fromkeys(e.model for e in self.config.endpoints)
        keys = [self.key_for(messages, template_version, max_tokens, m, schema) for m in models]
        answers = [await self.cache.aget(key) for key in keys]
        return None if any(a is None for a in answers) else answers[0]

    # -- one call: cache, de-duplication, retries ---------------------------------------------
    async def complete(
        self,
        messages: list[dict[str, Any]],
        template_version: str,
        validate: Callable[[str], bool] | None = None,
        max_tokens: int | None = None,
        priority: int = 1,
        schema: dict[str, Any] | None = None,
        kind: str = "other",
        whole: bool = False,
    ) -> JudgeReply:
        """One chat completion's text. Raises JudgeError subclasses, never anything else.

        Lower ``priority`` numbers get a free connection slot first. ``schema``: a JSON schema the
        reply must follow, sent as ``response_format`` when ``structured_output`` allows it. ``kind``
        names the call in ``metrics.parsed`` (how often replies parse first time, after a retry, never).
        ``whole``: a reply the server cut at ``max_tokens`` is refused like an unreadable one (a list cut
        short would parse, with items missing).
        """
        await self._ensure_loop_objects()
        started = time.perf_counter()
        self.metrics.calls += 1
        call = _Call(
            messages,
            template_version,
            max_tokens or self.config.max_tokens,
            schema if self._asks_schema(schema) else None,
            validate,
            priority,
            kind,
            whole,
        )
        endpoint = next(self._endpoints)  # a retry moves on to the next one
        if self.config.temperature != 0:
            return await self._call(endpoint, call, started)
        key = self._key(call, endpoint.model)  # per model: endpoints may serve different ones
        hit = await self.cache.aget(key) if self.cache is not None else None
        self.metrics.cache_fallbacks = getattr(self.cache, "fallbacks", 0)
        if hit is not None:
            self.metrics.cache_hits += 1
            return JudgeReply(hit, True, 0, time.perf_counter() - started)
        return await self._shared(key, endpoint, call, started).wait()

    def _shared(self, key: str, endpoint: Endpoint, call: _Call, started: float) -> _Shared:
        """A deterministic call identical to one in flight awaits it instead of paying again (GRPO's
        generations of one prompt often give the same answer, or the same reasoning)."""
        shared = self._inflight.get(key)
        if shared is not None and shared.waiters > 0:  # one whose callers all left is being cancelled
            self.metrics.deduplicated += 1
            return shared
        shared = _Shared(asyncio.ensure_future(self._call(endpoint, call, started)))
        self._inflight[key] = shared
        shared.task.add_done_callback(lambda _t: self._forget(key, shared))
        return shared

    def _forget(self, key: str, shared: _Shared) -> None:
        if self._inflight.get(key) is shared:
            del self._inflight[key]

    def _key(self, call: _Call, model: str) -> str:
        key = call.keys.get(model)
        if key is None:
            key = call.keys[model] = self.key_for(
                call.messages, call.template_version, call.max_tokens, model, call.schema
            )
        return key

    async def _call(self, endpoint: Endpoint, call: _Call, started: float) -> JudgeReply:
        """The request with retries; a deterministic answer is stored in the cache."""
        tries = _Tries(endpoint)
        try:
            text = await self._attempts(call, tries)
        except Exception as exc:  # noqa: BLE001 - the engine must never see a raw exception
            raise self._final_error(exc, call, tries) from None
        latency = time.perf_counter() - started
        self.metrics.latencies.setdefault(call.kind, []).append(latency)
        if call.validate is not None:
            self.metrics.count_parse(call.kind, "retry" if tries.refused else "first")
        if self.cache is not None and self.config.temperature == 0:
            self.cache.set(self._key(call, tries.endpoint.model), text)
        return JudgeReply(text, False, tries.count, latency)

    async def _attempts(self, call: _Call, tries: _Tries) -> str:
        """The first attempt bare, the rest under tenacity. Nearly every call succeeds at once, and building
        tenacity's machinery for each was ~5 % of a cold step's CPU; a first failure is handed to tenacity as
        its own first attempt, so waits, counts and logs are what they were."""
        try:
            return await self._attempt(call, tries)
        except RetryableError as exc:
            first: RetryableError | None = exc

        async def attempt() -> str:
            nonlocal first
            if first is not None:
                failed, first = first, None
                raise failed
            return await self._attempt(call, tries)

        retrying = AsyncRetrying(
            retry=retry_if_exception_type(RetryableError),
            stop=stop_after_attempt(self.config.max_attempts),
            wait=self._wait,
            before_sleep=self._count_retry,
            reraise=True,
        )
        return await retrying(attempt)

    async def _attempt(self, call: _Call, tries: _Tries) -> str:
        """One attempt: the first goes to the chosen endpoint, a retry to the next; a reply the caller
        refuses is asked again, warmer (at temperature 0 the same prompt gets the same reply)."""
        tries.count += 1
        if tries.count > 1:
            tries.endpoint = next(self._endpoints)
        text, finish = await self._request(tries.endpoint, call, self._temperature(tries.refused))
        if call.whole and finish == "length":
            # A list cut short would parse with items missing: refused like an unreadable reply (asked again,
            # warmer, where a shorter reply may fit), never accepted short.
            self.metrics.invalid += 1
            tries.refused += 1
            raise InvalidReplyError(f"{call.kind} reply cut at max_tokens ({call.max_tokens})")
        if call.validate is not None and not call.validate(text):
            self.metrics.invalid += 1
            tries.refused += 1
            raise InvalidReplyError("judge reply not in the requested form")
        return text

    def _temperature(self, refused: int) -> float:
        if not refused:
            return self.config.temperature
        return max(self.config.temperature, self.config.invalid_retry_temperature)

    def _final_error(self, exc: Exception, call: _Call, tries: _Tries) -> JudgeError:
        """What a caller sees when the attempts ran out (or one could not be retried)."""
        if isinstance(exc, BreakerOpenError):
            return exc  # refused before sending: not a failure of the judge
        self.metrics.failures += 1
        if isinstance(exc, InvalidReplyError):
            self.metrics.count_parse(call.kind, "never")
            return JudgeError(str(exc))
        if isinstance(exc, AttemptTimeoutError):
            log.warning("judge call timed out after %d attempt(s) of %.1fs", tries.count, self.config.timeout_s)
            return JudgeTimeoutError(f"judge timed out after {self.config.timeout_s}s x {tries.count}")
        if isinstance(exc, JudgeError):
            return exc
        return JudgeError(f"{type(exc).__name__}: {exc}")

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        retry_after = getattr(exc, "retry_after", None)
        if retry_after is not None:
            return min(retry_after, self.config.max_retry_after_s)
        return wait_random_exponential(multiplier=self.config.backoff_initial_s, max=self.config.backoff_max_s)(state)

    def _count_retry(self, state: RetryCallState) -> None:
        self.metrics.retries += 1
        exc = state.outcome.exception() if state.outcome else None
        cause = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        wait = state.next_action.sleep if state.next_action else 0.0
        log.warning(
            "judge retry %d/%d after %s (waiting %.2fs)",
            state.attempt_number,
            self.config.max_attempts - 1,
            cause,
            wait,
        )

    # -- one request: the breaker, the limits, the wire ---------------------------------------
    def _reject_if_open(self, call: _Call, take_probe: bool) -> None:
        if (not self.breaker.allow(call)) if take_probe else self.breaker.state == "open":
            self.metrics.breaker_rejections += 1
            raise BreakerOpenError("judge circuit breaker is open")

    async def _request(self, endpoint: Endpoint, call: _Call, temperature: float) -> WireReply:
        """One request, and the breaker's verdict on it."""
        self._reject_if_open(call, take_probe=False)  # fail fast while open, without waiting for a slot
        try:
            reply = await self._send(endpoint, call, temperature)
        except BreakerOpenError:
            raise  # rejected before sending: no verdict, and the probe (if any) is another call's
        except RateLimitedError:
            self.metrics.rate_limited += 1
            self.breaker.release(call)  # paced, not failing
            raise
        except RetryableError as exc:
            self.metrics.timeouts += isinstance(exc, AttemptTimeoutError)
            self.breaker.failure()
            raise
        except BaseException:
            # Cancelled (step budget, dropped speculation) or refused with a 4xx: no verdict on the
            # judge's health, but a half-open probe must not stay taken, or no call would go out again.
            self.breaker.release(call)
            raise
        self.breaker.success()
        return reply

    async def _send(self, endpoint: Endpoint, call: _Call, temperature: float) -> WireReply:
        """One request within the concurrency slots and the rate limits."""
        assert self._slots is not None
        await self._slots.acquire(call.priority)
        lease: Any = None  # the shared budget's Lease (None: its local fallback admitted the request)
        leased = sent = False  # a shared budget's places in its windows go back when the request never went
        try:
            if self._throttler is not None:
                await self._throttler.acquire()
            if self._tokens is not None:
                await self._tokens.acquire(estimate_tokens(call.messages, call.max_tokens))
            if self._budget is not None:
                lease = await self._budget.acquire(estimate_tokens(call.messages, call.max_tokens))
                leased = True
                self.metrics.limit_fallbacks = self._budget.fallbacks
                self.metrics.limit_rebooked = self._budget.rebooked
                # another process may have paid for this call while this one waited for the shared budget
                hit = await self._cached_meanwhile(endpoint, call, temperature)
                if hit is not None:
                    return WireReply(hit, "stop")
            # The half-open probe is taken only now, at the moment of sending: a probe waiting for a
            # rate-limit window (up to a minute) kept the breaker half-open and failed every other call.
            self._reject_if_open(call, take_probe=True)
            self.metrics.requests += 1
            sent = True
            schema = call.schema if endpoint.base_url not in self._no_schema else None
            try:
                return await self.wire.post(endpoint, call.messages, call.max_tokens, temperature, schema)
            except SchemaRefusedError:
                return await self._without_schema(endpoint, call, temperature)
        finally:
            try:
                if leased:
                    assert self._budget is not None
                    await asyncio.shield(self._budget.release(lease, sent))
            finally:
                self._slots.release()

    async def _cached_meanwhile(self, endpoint: Endpoint, call: _Call, temperature: float) -> str | None:
        """The cached answer to a deterministic call, looked up again after a wait for the shared budget."""
        if self.cache is None or temperature != 0 or self.config.temperature != 0:
            return None
        hit = await self.cache.aget(self._key(call, endpoint.model))
        if hit is not None:
            self.metrics.cache_hits += 1
        return hit

    async def _without_schema(self, endpoint: Endpoint, call: _Call, temperature: float) -> WireReply:
        """``structured_output: auto``: an endpoint that answers 400 to ``response_format`` is asked in text
        from now on; with ``on`` the 400 is final."""
        if self.config.structured_output != "auto":
            raise JudgeError("HTTP 400 from judge (not retried)")
        self._no_schema.add(endpoint.base_url)
        log.warning("judge %s refused response_format; asking for text replies from now on", endpoint.base_url)
        self.metrics.requests += 1
        return await self.wire.post(endpoint, call.messages, call.max_tokens, temperature, None)
