"""Rule-based verifiers in worker processes, each call with a hard timeout.

``math-verify`` times itself out with ``signal.alarm`` (main thread only) and a sympy
simplification can still hang; a reasoning-gym scorer is arbitrary Python. Running them
in a ``pebble`` process pool keeps the event loop free, and a call that overruns its
timeout has its worker killed and replaced, so one pathological answer never stalls a
GRPO step. Workers start with ``spawn`` (a training process has threads; forking it is
unsafe). ``start()`` spawns and warms them before the first step: a call's timeout then
measures the check alone, never a worker's start-up and imports (pebble times a task from
when a worker picks it up, after the worker's initializer), which a busy training machine
can stretch past a timeout and turn a right answer into a wrong reward.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Callable


class VerifyTimeout(Exception):
    """The verifier did not answer within its timeout (its worker was replaced)."""


def _warm() -> None:
    """Import the heavy verifiers once per worker, before the first timed call."""
    import math_verify  # noqa: F401


def _ready(hold_s: float) -> bool:
    """A no-op that keeps its worker busy briefly, so each of ``start()``'s calls lands on another worker."""
    import time

    time.sleep(hold_s)
    return True


class VerifierPool:
    """``await pool.run(fn, *args, timeout_s=5)``; ``fn`` must be importable (a module-level function)."""

    def __init__(self, workers: int = 2, warm: Callable[[], None] | None = _warm) -> None:
        self.workers = workers
        self._warm = warm
        self._pool: Any = None
        self.timeouts = 0

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_pool": None}  # worker processes stay with the process that started them

    def _ensure(self) -> Any:
        if self._pool is None:
            from pebble import ProcessPool

            self._pool = ProcessPool(
                max_workers=self.workers, initializer=self._warm, context=multiprocessing.get_context("spawn")
            )
        return self._pool

    def start(self, hold_s: float = 0.2) -> None:
        """Spawn every worker and run its warm-up now (blocking, seconds), outside any timed call."""
        pool = self._ensure()
        for future in [pool.schedule(_ready, args=(hold_s,)) for _ in range(self.workers)]:
            future.result()

    async def run(self, fn: Callable[..., Any], *args: Any, timeout_s: float = 5.0) -> Any:
        """The function's result; :class:`VerifyTimeout` after ``timeout_s`` of its own run time."""
        future = self._ensure().schedule(fn, args=args, timeout=timeout_s)
        try:
            return await asyncio.wrap_future(future)
        except FutureTimeout:
            self.timeouts += 1
            raise VerifyTimeout(f"{getattr(fn, '__name__', fn)} took longer than {timeout_s} s") from None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.stop()
            self._pool.join(timeout=10)
            self._pool = None
