"""A judge transport without a network: replies come from a function of the request.

For tests of the client's policy (cache, retries, breaker, limits) without a server, and for replaying a
judge's recorded answers. The function sees the endpoint, the messages and the schema; what it returns is the
reply text, and an exception from ``judge.errors`` it raises is what the wire would have raised (a 429, a
timeout), so retries and the breaker see exactly what they see over HTTP.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from reward_engine.judge.config import Endpoint
from reward_engine.judge.wire import WireReply

Reply = Callable[[Endpoint, list[dict[str, Any]], dict[str, Any] | None], str]


class InMemoryTransport:
    """``reply(endpoint, messages, schema) -> text``; every request is kept in ``sent`` (in order)."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.sent: list[dict[str, Any]] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    def bound_to_running_loop(self) -> bool:
        return self._loop is asyncio.get_running_loop()

    async def open(self) -> None:
        self._loop = asyncio.get_running_loop()

    async def close(self) -> None:
        self._loop = None

    async def post(
        self,
        endpoint: Endpoint,
        messages: list[dict[str, Any]],
        max_tokens: int,
        temperature: float,
        schema: dict[str, Any] | None,
    ) -> WireReply:
        self.sent.append({"model": endpoint.model, "messages": messages, "schema": schema, "temperature": temperature})
        return WireReply(self.reply(endpoint, messages, schema), "stop")
