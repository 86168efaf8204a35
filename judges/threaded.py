"""Run an aiohttp judge double on its own event loop in a daemon thread (synchronous callers, subprocesses)."""

from __future__ import annotations

import asyncio
import threading
from contextlib import contextmanager
from typing import Any, Iterator, TypeVar

S = TypeVar("S")


@contextmanager
def in_thread(server: S, name: str, host: str = "127.0.0.1") -> Iterator[S]:
    """``server`` (anything with async ``start(host)`` and ``stop()``) serving until the block ends."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    srv: Any = server

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(srv.start(host))
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    if not ready.wait(30):
        raise RuntimeError(f"{name} did not start")
    try:
        yield server
    finally:
        asyncio.run_coroutine_threadsafe(srv.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        if not thread.is_alive():
            loop.close()  # else "unclosed event loop" under -X dev
