"""Offline CPU work of a stage: on the event loop when its text is short, on a worker thread when it is long.

A thread keeps the step budget's timer firing however long one hostile input takes to read, but a hop costs
more than reading a short answer (0.3-1 ms), and on a few cores the worker holds the GIL while the loop's
own SQLite reads wait for it back: a warm fused step with every grade settled on a thread took 86 ms, 34 ms
with short answers read inline (bench/reward_throughput.py's step, this project's 2-core machine). Reading
is linear in the text (``reward_engine.offline.reading``): at ``INLINE_MAX_CHARS`` the worst answer seen
takes ~4 ms on the loop.
"""

from __future__ import annotations

import asyncio
from typing import Callable, TypeVar

T = TypeVar("T")

INLINE_MAX_CHARS = 200


async def off_loop(fn: Callable[..., T], *args: object, chars: int) -> T:
    """``fn(*args)``: inline when the text it reads is at most ``INLINE_MAX_CHARS`` long, else on a thread."""
    if chars <= INLINE_MAX_CHARS:
        return fn(*args)
    return await asyncio.to_thread(fn, *args)
