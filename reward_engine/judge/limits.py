"""Client-side limits: requests/min (asyncio-throttle) and tokens/min (a sliding window)."""

from __future__ import annotations

import asyncio
import collections
import heapq
import time

from asyncio_throttle import Throttler

# The server counts a request when it arrives, a little after we count it: a 1 %
# margin on the window keeps us from tripping its limit at the edge.
MARGIN = 1.01


def request_throttler(requests_per_minute: float | None, window_s: float = 60.0) -> Throttler | None:
    """At most ``requests_per_minute`` x window/60 requests started in any window."""
    if not requests_per_minute:
        return None
    per_window = max(1, int(requests_per_minute * window_s / 60.0))
    return Throttler(rate_limit=per_window, period=window_s * MARGIN, retry_interval=0.005)


class TokenWindow:
    """At most ``tokens_per_minute`` x window/60 estimated tokens sent in any window."""

    def __init__(self, tokens_per_minute: float, window_s: float = 60.0) -> None:
        self.limit = float(tokens_per_minute) * window_s / 60.0
        self.period = window_s * MARGIN
        self._log: collections.deque[tuple[float, float]] = collections.deque()
        self._used = 0.0

    def count(self, at: float, amount: float) -> None:
        """Count ``amount`` as sent at monotonic time ``at`` (it may lie ahead: a booked time) without waiting:
        what another limiter admitted into this window (``shared_limits``' fallback takes over mid-window)."""
        self._log.append((at, min(amount, self.limit)))
        self._used += min(amount, self.limit)

    async def acquire(self, tokens: float) -> None:
        tokens = min(tokens, self.limit)  # one oversized request still goes, alone
        while True:
            now = time.monotonic()
            while self._log and now - self._log[0][0] > self.period:
                self._used -= self._log.popleft()[1]
            if self._used + tokens <= self.limit:
                self._log.append((now, tokens))
                self._used += tokens
                return
            wait = self.period - (now - self._log[0][0]) if self._log else 0.01
            await asyncio.sleep(max(0.005, wait))


def estimate_tokens(messages: list[dict], max_tokens: int) -> int:
    """~4 characters per token for the prompt, plus the reply budget."""
    return sum(len(str(m.get("content", ""))) for m in messages) // 4 + max_tokens


class PrioritySlots:
    """A semaphore whose waiters are served lowest priority number first (FIFO within one).

    Decomposition and verification sit on a step's critical path (grade -> decompose ->
    verify); grader calls of other completions can wait a moment without delaying the step.
    """

    def __init__(self, slots: int) -> None:
        self._free = slots
        self._waiters: list[tuple[int, int, asyncio.Future]] = []
        self._seq = 0

    async def acquire(self, priority: int = 0) -> None:
        if self._free > 0 and not self._waiters:
            self._free -= 1
            return
        future = asyncio.get_running_loop().create_future()
        self._seq += 1
        heapq.heappush(self._waiters, (priority, self._seq, future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # the slot was handed to us as we were cancelled: pass it on
            raise

    def release(self) -> None:
        while self._waiters:
            _, _, future = heapq.heappop(self._waiters)
            if not future.done():
                future.set_result(None)
                return
        self._free += 1

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()
