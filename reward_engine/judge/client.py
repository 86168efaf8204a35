"""The one place judge calls go through: limits, retries, timeouts, a breaker and a cache.

    async with JudgeClient(JudgeConfig(endpoints=[Endpoint(base_url=..., model=...)])) as judge:
        reply = await judge.complete(messages, template_version="grader-v2", validate=ok)

OpenAI-compatible ``POST {base_url}/chat/completions`` over aiohttp. Loop-bound objects
(session, semaphore, throttler) are created on the running loop at ``__aenter__``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Literal

import aiohttp
from pydantic import BaseModel, ConfigDict, Field
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt, wait_random_exponential

from reward_engine.judge.breaker import CircuitBreaker
from reward_engine.judge.cache import JudgeCache, cache_key
from reward_engine.judge.limits import PrioritySlots, TokenWindow, estimate_tokens, request_throttler

log = logging.getLogger(__name__)


class Endpoint(BaseModel):
    """One OpenAI-compatible server. The key is read from the environment variable named here."""

    model_config = ConfigDict(extra="forbid")

    base_url: str = Field(..., description="e.g. http://127.0.0.1:8000/v1")
    model: str = Field(..., description="model name sent in each request")
    api_key_env: str | None = Field("KNOWRL_JUDGE_API_KEY", description="env var holding the API key")


class JudgeConfig(BaseModel):
    """Limits, retries and caching of judge calls (README: "Reward engine" and "Judge")."""

    model_config = ConfigDict(extra="forbid")

    endpoints: list[Endpoint] = Field(..., min_length=1, description="tried round-robin; a retry moves on; "
                                      "answers are cached per model, so endpoints may serve different models")
    max_in_flight: int = Field(64, ge=1, description="concurrent requests at most")
    requests_per_minute: float | None = Field(None, description="client-side RPM limit (per process)")
    tokens_per_minute: float | None = Field(None, description="client-side TPM limit, estimated")
    rate_window_s: float = Field(60.0, gt=0, description="window the per-minute limits are counted over")
    timeout_s: float = Field(30.0, gt=0, description="per request")
    max_attempts: int = Field(4, ge=1, description="tries per call, first included")
    backoff_initial_s: float = Field(0.25, ge=0)
    backoff_max_s: float = Field(8.0, ge=0)
    max_retry_after_s: float = Field(30.0, description="longest Retry-After honoured")
    breaker_failures: int = Field(8, ge=1, description="consecutive failed attempts that open the breaker")
    breaker_cooldown_s: float = Field(30.0, ge=0)
    temperature: float = 0.0
    invalid_retry_temperature: float = Field(
        0.7, ge=0, description="a reply not in the requested form is asked again at this temperature (or the "
        "configured one, if higher): at temperature 0 the same prompt gets the same reply, a paid call for nothing")
    max_tokens: int = 512
    seed: int | None = None
    cache_dir: str | None = Field(None, description="diskcache directory; None disables caching")
    structured_output: Literal["auto", "on", "off"] = Field(
        "auto", description="ask for grades, claims and verdicts through a JSON schema (response_format): "
        "on = always; auto = unless the endpoint answers 400, then text; off = text prompts only")
    schema_format: Literal["json_schema", "json_object"] = Field(
        "json_schema", description="how the schema is sent: json_schema (OpenAI, vLLM, llama.cpp's llama-server) "
        "or json_object with a 'schema' key (llama-cpp-python's server, which answers json_schema with a 500)")


class JudgeError(Exception):
    """A judge call that produced no usable answer."""


class BreakerOpenError(JudgeError):
    pass


class JudgeTimeoutError(JudgeError):
    pass


class RetryableError(JudgeError):
    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimitedError(RetryableError):
    """HTTP 429: the server pacing us, not failing, so it does not trip the breaker."""


class InvalidReplyError(RetryableError):
    """The judge answered, but not in the form asked for."""


@dataclass
class JudgeReply:
    text: str
    cached: bool
    attempts: int
    latency_s: float


@dataclass
class JudgeMetrics:
    calls: int = 0
    requests: int = 0
    cache_hits: int = 0
    retries: int = 0
    timeouts: int = 0
    rate_limited: int = 0
    failures: int = 0
    invalid: int = 0
    breaker_rejections: int = 0
    deduplicated: int = 0  # calls that awaited an identical call in flight instead of sending their own
    # per kind of call ("grade", "fused", ...): answered calls' latencies, and how validated replies went --
    # "first" (the first reply parsed), "retry" (one parsed after a refused one), "never" (retries ran out)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    parsed: dict[str, Counter] = field(default_factory=dict)

    def snapshot(self) -> dict[str, Any]:
        """The counters (not the per-kind tallies), for deltas over a batch."""
        return {k: v for k, v in self.__dict__.items() if k not in ("latencies", "parsed")}

    def count_parse(self, kind: str, outcome: str) -> None:
        self.parsed.setdefault(kind, Counter())[outcome] += 1


class _Shared:
    """One in-flight call awaited by several callers. It is cancelled only when every caller has left:
    a dropped speculative call must still stop work nobody waits for, and must not cancel a grader's."""

    def __init__(self, task: asyncio.Future) -> None:
        self.task = task
        self.waiters = 0

    async def wait(self) -> "JudgeReply":
        self.waiters += 1
        try:
            return await asyncio.shield(self.task)
        finally:
            self.waiters -= 1
            if self.waiters == 0 and not self.task.done():
                self.task.cancel()


class _SchemaRefused(Exception):
    """HTTP 400 to a request with ``response_format`` (structured_output: auto falls back to text)."""


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


def _retryable(exc: BaseException) -> bool:
    return isinstance(exc, (RetryableError, asyncio.TimeoutError, aiohttp.ClientError))


def _parse_retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


class JudgeClient:
    """Owns the HTTP session, limits, breaker and cache for one event loop."""

    def __init__(self, config: JudgeConfig) -> None:
        self.config = config
        self.metrics = JudgeMetrics()
        self.breaker = CircuitBreaker(config.breaker_failures, config.breaker_cooldown_s)
        self.cache = JudgeCache(config.cache_dir) if config.cache_dir else None
        self._endpoints = itertools.cycle(config.endpoints)
        self._session: aiohttp.ClientSession | None = None
        self._slots: PrioritySlots | None = None
        self._throttler: Any = None
        self._tokens: TokenWindow | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._inflight: dict[str, _Shared] = {}  # deterministic calls in flight, by cache key
        self._no_schema: set[str] = set()  # endpoints that refused response_format (structured_output: auto)

    async def __aenter__(self) -> "JudgeClient":
        self._ensure_loop_objects()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        self._loop = None
        if self.cache is not None:
            await asyncio.to_thread(self.cache.flush)  # answers written on the cache's thread reach the disk

    def _ensure_loop_objects(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is loop and self._session is not None and not self._session.closed:
            return
        self._close_stale_session()
        self._inflight = {}  # futures of another loop cannot be awaited on this one
        self._loop = loop
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=self.config.max_in_flight),
            timeout=aiohttp.ClientTimeout(total=self.config.timeout_s),
        )
        self._slots = PrioritySlots(self.config.max_in_flight)
        self._throttler = request_throttler(self.config.requests_per_minute, self.config.rate_window_s)
        self._tokens = (TokenWindow(self.config.tokens_per_minute, self.config.rate_window_s)
                        if self.config.tokens_per_minute else None)

    def _close_stale_session(self) -> None:
        """A session of another event loop (e.g. a second ``asyncio.run``) is closed, not leaked."""
        old, old_loop = self._session, self._loop
        self._session = None
        if old is None or old.closed:
            return
        if old_loop is not None and old_loop.is_running() and not old_loop.is_closed():
            asyncio.run_coroutine_threadsafe(old.close(), old_loop)
            return
        connector = old.connector
        old.detach()
        if connector is not None:
            # Its loop is not running (``asyncio.run`` closed it): nothing can be awaited there, so the
            # connector is closed synchronously (aiohttp's ``_close`` is what its async close wraps).
            connector._close()

    def key_for(self, messages: list[dict[str, Any]], template_version: str, max_tokens: int | None = None,
                model: str | None = None, schema: dict[str, Any] | None = None) -> str:
        """The cache key of this call answered by ``model`` (default: the first endpoint's); a call asking
        for a JSON schema is another call than the same prompt in text."""
        cfg = self.config
        version = template_version + ("+json" if self._asks_schema(schema) else "")
        return cache_key(model or cfg.endpoints[0].model, messages, cfg.temperature, max_tokens or cfg.max_tokens,
                         cfg.seed, version)

    @property
    def structured(self) -> bool:
        """Whether calls that have a JSON schema ask for it (``structured_output`` is not off)."""
        return self.config.structured_output != "off"

    def _asks_schema(self, schema: dict[str, Any] | None) -> bool:
        return schema is not None and self.structured

    def cached(self, messages: list[dict[str, Any]], template_version: str, max_tokens: int | None = None,
               schema: dict[str, Any] | None = None) -> str | None:
        """The cached answer for this call, without calling (None when absent or uncacheable).

        With endpoints serving different models, an answer counts only when every model's is
        cached: which endpoint the next call goes to is not known in advance.
        """
        if self.cache is None or self.config.temperature != 0:
            return None
        models = dict.fromkeys(e.model for e in self.config.endpoints)
        answers = [self.cache.get(self.key_for(messages, template_version, max_tokens, m, schema)) for m in models]
        return None if any(a is None for a in answers) else answers[0]

    async def complete(
        self,
        messages: list[dict[str, Any]],
        template_version: str,
        validate: Callable[[str], bool] | None = None,
        max_tokens: int | None = None,
        priority: int = 1,
        schema: dict[str, Any] | None = None,
        kind: str = "other",
    ) -> JudgeReply:
        """One chat completion's text. Raises JudgeError subclasses, never anything else.

        Lower ``priority`` numbers get a free connection slot first. ``schema``: a JSON schema the
        reply must follow, sent as ``response_format`` when ``structured_output`` allows it. ``kind``
        names the call in ``metrics.parsed`` (how often replies parse first time, after a retry, never).
        """
        self._ensure_loop_objects()
        started = time.perf_counter()
        self.metrics.calls += 1
        call = _Call(messages, template_version, max_tokens or self.config.max_tokens,
                     schema if self._asks_schema(schema) else None, validate, priority, kind)
        endpoint = next(self._endpoints)  # a retry moves on to the next one
        if self.config.temperature != 0:
            return await self._call(endpoint, call, started)
        key = self._key(call, endpoint.model)  # per model: endpoints may serve different ones
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.metrics.cache_hits += 1
                return JudgeReply(hit, True, 0, time.perf_counter() - started)
        # A deterministic call identical to one in flight awaits it instead of paying again (GRPO's
        # generations of one prompt often give the same answer, or the same reasoning).
        shared = self._inflight.get(key)
        if shared is None or shared.waiters == 0:  # none, or one whose callers all left (being cancelled)
            shared = _Shared(asyncio.ensure_future(self._call(endpoint, call, started)))
            self._inflight[key] = shared
            shared.task.add_done_callback(lambda _t, k=key, s=shared: self._forget(k, s))
        else:
            self.metrics.deduplicated += 1
        return await shared.wait()

    def _forget(self, key: str, shared: "_Shared") -> None:
        if self._inflight.get(key) is shared:
            del self._inflight[key]

    def _key(self, call: "_Call", model: str) -> str:
        return self.key_for(call.messages, call.template_version, call.max_tokens, model, call.schema)

    async def _call(self, endpoint: Endpoint, call: "_Call", started: float) -> JudgeReply:
        """The request with retries; stores a deterministic answer in the cache."""
        attempts = refused = 0
        answered_by = endpoint
        try:
            async for attempt in AsyncRetrying(
                retry=retry_if_exception(_retryable),
                stop=stop_after_attempt(self.config.max_attempts),
                wait=self._wait,
                before_sleep=self._count_retry,
                reraise=True,
            ):
                with attempt:
                    attempts += 1
                    answered_by = endpoint if attempts == 1 else next(self._endpoints)
                    temperature = self.config.temperature if not refused else \
                        max(self.config.temperature, self.config.invalid_retry_temperature)
                    text = await self._request(answered_by, call, temperature)
                    if call.validate is not None and not call.validate(text):
                        self.metrics.invalid += 1
                        refused += 1
                        raise InvalidReplyError("judge reply not in the requested form")
        except BreakerOpenError:
            raise
        except InvalidReplyError as exc:
            self.metrics.failures += 1
            self.metrics.count_parse(call.kind, "never")
            raise JudgeError(str(exc)) from None
        except asyncio.TimeoutError:
            self.metrics.failures += 1
            log.warning("judge call timed out after %d attempt(s) of %.1fs", attempts, self.config.timeout_s)
            raise JudgeTimeoutError(f"judge timed out after {self.config.timeout_s}s x {attempts}") from None
        except JudgeError:
            self.metrics.failures += 1
            raise
        except Exception as exc:  # noqa: BLE001 - the engine must never see a raw exception
            self.metrics.failures += 1
            raise JudgeError(f"{type(exc).__name__}: {exc}") from None
        latency = time.perf_counter() - started
        self.metrics.latencies.setdefault(call.kind, []).append(latency)
        if call.validate is not None:
            self.metrics.count_parse(call.kind, "retry" if refused else "first")
        if self.cache is not None and self.config.temperature == 0:
            self.cache.set(self._key(call, answered_by.model), text)
        return JudgeReply(text, False, attempts, latency)

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
        log.warning("judge retry %d/%d after %s (waiting %.2fs)", state.attempt_number,
                    self.config.max_attempts - 1, cause, wait)

    def _reject_if_open(self, call: "_Call", take_probe: bool) -> None:
        if (not self.breaker.allow(call)) if take_probe else self.breaker.state == "open":
            self.metrics.breaker_rejections += 1
            raise BreakerOpenError("judge circuit breaker is open")

    async def _request(self, endpoint: Endpoint, call: "_Call", temperature: float) -> str:
        self._reject_if_open(call, take_probe=False)  # fail fast while open, without waiting for a slot
        try:
            text = await self._send(endpoint, call, temperature)
        except BreakerOpenError:
            raise  # rejected before sending: no verdict, and the probe (if any) is another call's
        except RateLimitedError:
            self.breaker.release(call)  # paced, not failing
            raise
        except (RetryableError, asyncio.TimeoutError, aiohttp.ClientError):
            self.breaker.failure()
            raise
        except BaseException:
            # Cancelled (step budget, dropped speculation) or refused with a 4xx: no verdict on the
            # judge's health, but a half-open probe must not stay taken, or no call would go out again.
            self.breaker.release(call)
            raise
        self.breaker.success()
        return text

    async def _send(self, endpoint: Endpoint, call: "_Call", temperature: float) -> str:
        """One request within the concurrency slots and the rate limits."""
        assert self._slots is not None and self._session is not None
        await self._slots.acquire(call.priority)
        try:
            if self._throttler is not None:
                await self._throttler.acquire()
            if self._tokens is not None:
                await self._tokens.acquire(estimate_tokens(call.messages, call.max_tokens))
            # The half-open probe is taken only now, at the moment of sending: a probe waiting for a
            # rate-limit window (up to a minute) kept the breaker half-open and failed every other call.
            self._reject_if_open(call, take_probe=True)
            self.metrics.requests += 1
            schema = call.schema if endpoint.base_url not in self._no_schema else None
            try:
                return await self._post(endpoint, call.messages, call.max_tokens, temperature, schema)
            except _SchemaRefused:
                # auto: this endpoint does not take response_format; ask in text from now on
                self._no_schema.add(endpoint.base_url)
                log.warning("judge %s refused response_format; asking for text replies from now on",
                            endpoint.base_url)
                self.metrics.requests += 1
                return await self._post(endpoint, call.messages, call.max_tokens, temperature, None)
        finally:
            self._slots.release()

    async def _post(self, endpoint: Endpoint, messages: list[dict[str, Any]], max_tokens: int, temperature: float,
                    schema: dict[str, Any] | None = None) -> str:
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(endpoint.api_key_env) if endpoint.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        body: dict[str, Any] = {"model": endpoint.model, "messages": messages,
                                "temperature": temperature, "max_tokens": max_tokens}
        if self.config.seed is not None:
            body["seed"] = self.config.seed
        if schema is not None and self.config.schema_format == "json_object":
            body["response_format"] = {"type": "json_object", "schema": schema}
        elif schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "reply", "schema": schema, "strict": True}}
        url = endpoint.base_url.rstrip("/") + "/chat/completions"
        try:
            async with self._session.post(url, json=body, headers=headers) as resp:  # type: ignore[union-attr]
                if resp.status == 429:
                    self.metrics.rate_limited += 1
                    raise RateLimitedError("HTTP 429", _parse_retry_after(resp.headers.get("Retry-After")))
                if resp.status >= 500:
                    raise RetryableError(f"HTTP {resp.status}", _parse_retry_after(resp.headers.get("Retry-After")))
                if resp.status == 400 and schema is not None and self.config.structured_output == "auto":
                    raise _SchemaRefused()
                if resp.status >= 400:
                    raise JudgeError(f"HTTP {resp.status} from judge (not retried)")
                raw = await resp.text()
        except asyncio.TimeoutError:
            self.metrics.timeouts += 1
            raise
        try:
            data = json.loads(raw)
            content = data["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise RetryableError("malformed JSON from judge") from None
        if not isinstance(content, str):
            raise RetryableError("judge reply has no text content")
        return content
