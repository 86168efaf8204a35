"""The OpenAI-compatible wire: one ``POST {base_url}/chat/completions`` and its reply, nothing else.

What goes on the wire (the body, ``response_format`` for a JSON schema, the key from the
environment) and what comes back (status codes as typed errors, ``Retry-After``, the reply's
text) live here; when to retry, where to send and what to cache is the client's policy. The
aiohttp session is bound to one event loop and made again on another.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, NamedTuple, Protocol

import aiohttp

from reward_engine.judge.config import Endpoint
from reward_engine.judge.errors import (
    AttemptTimeoutError,
    JudgeError,
    RateLimitedError,
    RetryableError,
    SchemaRefusedError,
    TransportError,
)


def retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (the seconds form; a date or junk is ignored).

    >>> retry_after("2.5"), retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), retry_after(None)
    (2.5, None, None)
    """
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


def request_body(
    endpoint: Endpoint,
    messages: list[dict[str, Any]],
    max_tokens: int,
    temperature: float,
    seed: int | None = None,
    schema: dict[str, Any] | None = None,
    schema_format: str = "json_schema",
) -> dict[str, Any]:
    """The chat-completions body; a schema goes as ``response_format`` in the server's dialect."""
    body: dict[str, Any] = {
        "model": endpoint.model,
        "messages": messages,
        "temperature": temperature,
        "max_tokens": max_tokens,
    }
    if seed is not None:
        body["seed"] = seed
    if schema is not None and schema_format == "json_object":
        body["response_format"] = {"type": "json_object", "schema": schema}
    elif schema is not None:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "reply", "schema": schema, "strict": True},
        }
    return body


def headers(endpoint: Endpoint) -> dict[str, str]:
    """JSON, plus the bearer key read from the environment now (never stored, logged or cached)."""
    out = {"Content-Type": "application/json"}
    key = os.environ.get(endpoint.api_key_env) if endpoint.api_key_env else None
    if key:
        out["Authorization"] = f"Bearer {key}"
    return out


class WireReply(NamedTuple):
    text: str
    finish_reason: str | None  # "length": cut at max_tokens


def reply_text(raw: str) -> WireReply:
    """The first choice's message content and finish reason, or a retryable error naming what was wrong."""
    try:
        choice = json.loads(raw)["choices"][0]
        content = choice["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise RetryableError("malformed JSON from judge") from None
    if not isinstance(content, str):
        raise RetryableError("judge reply has no text content")
    finish = choice.get("finish_reason") if isinstance(choice, dict) else None
    return WireReply(content, finish if isinstance(finish, str) else None)


def check_status(status: int, header_retry_after: str | None, sent_schema: bool) -> None:
    """Raise the typed error an HTTP status means; return for a 2xx/3xx."""
    if status == 429:
        raise RateLimitedError("HTTP 429", retry_after(header_retry_after))
    if status >= 500:
        raise RetryableError(f"HTTP {status}", retry_after(header_retry_after))
    if status == 400 and sent_schema:
        raise SchemaRefusedError()
    if status >= 400:
        raise JudgeError(f"HTTP {status} from judge (not retried)")


class Transport(Protocol):
    """What ``JudgeClient`` sends through: ``Wire`` (HTTP) by default; tests and replays hand it another
    (``judge.memory.InMemoryTransport``). The client keeps its policy (cache, limits, retries, breaker) above
    whichever transport it is given."""

    def bound_to_running_loop(self) -> bool: ...

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def post(
        self,
        endpoint: Endpoint,
        messages: list[dict[str, Any]],
        max_tokens: int,
        temperature: float,
        schema: dict[str, Any] | None,
    ) -> WireReply: ...


class Wire:
    """An aiohttp session for one event loop, and the request/response above."""

    def __init__(
        self, max_connections: int, timeout_s: float, seed: int | None, schema_format: str, max_reply_bytes: int
    ) -> None:
        self.max_connections = max_connections
        self.max_reply_bytes = max_reply_bytes
        self.timeout_s = timeout_s
        self.seed = seed
        self.schema_format = schema_format
        self.session: aiohttp.ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def bound_to_running_loop(self) -> bool:
        return self._loop is asyncio.get_running_loop() and self.session is not None and not self.session.closed

    async def open(self) -> None:
        """A session on the running loop; one left on another loop is closed first."""
        await self._close_stale()
        self._loop = asyncio.get_running_loop()
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=self.max_connections),
            timeout=aiohttp.ClientTimeout(total=self.timeout_s),
        )

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
        self.session, self._loop = None, None

    async def _close_stale(self) -> None:
        """A session of another event loop (e.g. a second ``asyncio.run``) is closed, not leaked."""
        old, old_loop = self.session, self._loop
        self.session = None
        if old is None or old.closed:
            return
        if old_loop is not None and old_loop.is_running() and not old_loop.is_closed():
            asyncio.run_coroutine_threadsafe(old.close(), old_loop)
        elif old_loop is None or old_loop.is_closed():
            # Its loop is gone: aiohttp then only marks the connector closed, so awaiting here is safe.
            await old.close()
        else:
            old.detach()  # stopped but not closed: nothing can run there; its sockets go with it

    async def post(
        self,
        endpoint: Endpoint,
        messages: list[dict[str, Any]],
        max_tokens: int,
        temperature: float,
        schema: dict[str, Any] | None,
    ) -> WireReply:
        """One request's reply text and finish reason.

        Raises the errors of ``judge.errors`` (and ``SchemaRefusedError``)."""
        assert self.session is not None, "Wire.open() first"
        body = request_body(endpoint, messages, max_tokens, temperature, self.seed, schema, self.schema_format)
        url = endpoint.base_url.rstrip("/") + "/chat/completions"
        try:
            async with self.session.post(url, json=body, headers=headers(endpoint)) as resp:
                check_status(resp.status, resp.headers.get("Retry-After"), schema is not None)
                raw = await self._body(resp)
        except asyncio.TimeoutError:
            raise AttemptTimeoutError(f"no reply within {self.timeout_s}s") from None
        except aiohttp.ClientError as exc:
            raise TransportError(f"{type(exc).__name__}: {exc}") from None
        return reply_text(raw)

    async def _body(self, resp: aiohttp.ClientResponse) -> str:
        """The body as text, read in chunks and refused past ``max_reply_bytes`` (a 510 KB gzip reply once
        expanded to gigabytes): the attempt fails and is retried like a malformed reply."""
        body = bytearray()
        async for chunk in resp.content.iter_chunked(1 << 16):
            body += chunk
            if len(body) > self.max_reply_bytes:
                raise RetryableError(f"judge reply over {self.max_reply_bytes} bytes")
        try:
            return body.decode(resp.charset or "utf-8", errors="replace")
        except LookupError:  # a charset Python does not know
            return body.decode("utf-8", errors="replace")
