"""Iterate a blocking iterator (a file, a pipe) from asyncio without tying the event loop's shutdown to it.

``asyncio.to_thread`` runs on the loop's default executor, and ``asyncio.run`` joins that executor on the way
out: a read blocked on an idle pipe then held Ctrl-C until the writer closed the pipe. A daemon thread of its
own is never joined, so an interrupt ends the job at once; a small queue keeps reading at most ``ahead`` items
in front of the consumer (memory stays flat).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import AsyncIterator, Iterator, TypeVar

T = TypeVar("T")
_END = object()


class _Failed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


async def in_daemon_thread(items: Iterator[T], ahead: int = 1, name: str = "reader") -> AsyncIterator[T]:
    """Yield ``items`` as a daemon thread reads them; the reader's exception is raised here."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[object] = asyncio.Queue(maxsize=max(1, ahead))
    left = threading.Event()

    def put(value: object) -> bool:
        future = asyncio.run_coroutine_threadsafe(queue.put(value), loop) if not left.is_set() else None
        while future is not None:
            try:
                future.result(timeout=0.5)
                return True
            except concurrent.futures.TimeoutError:  # the queue is full: wait on, unless the consumer left
                if left.is_set() or loop.is_closed():
                    future.cancel()
                    return False
            except (RuntimeError, concurrent.futures.CancelledError):  # the loop closed under the put
                return False
        return False

    def read() -> None:
        try:
            for item in items:
                if not put(item):
                    return
        except BaseException as exc:  # handed to the consumer, raised there
            put(_Failed(exc))
            return
        put(_END)

    threading.Thread(target=read, name=name, daemon=True).start()
    try:
        while True:
            value = await queue.get()
            if value is _END:
                return
            if isinstance(value, _Failed):
                raise value.error
            yield value  # type: ignore[misc]
    finally:
        left.set()  # the reader stops at its next item instead of waiting on a full queue for ever
