"""What the rule-verified task rewards (maths, reasoning-gym) share: a worker pool, a
reward-log sink, and TRL's per-step logging hooks."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, TypeVar

from knowrl.tasks.verify_pool import VerifierPool

log = logging.getLogger(__name__)

T = TypeVar("T")
Sink = Callable[[int, list[dict[str, Any]]], None]


class TaskRewards:
    """Owns the verifier pool and the reward-log sink of one training run."""

    def __init__(self, workers: int = 2, sink: Sink | None = None, pool: VerifierPool | None = None) -> None:
        self.pool = pool or VerifierPool(workers)
        self.sink = sink

    async def within_budget(self, checks: list[Awaitable[T]], budget_s: float, late: Callable[[int], T]) -> list[T]:
        """All checks concurrently; those unfinished after ``budget_s`` are cancelled (pebble stops a running
        worker) and answered by ``late(index)``, so a batch never waits past its budget."""
        jobs = [asyncio.ensure_future(c) for c in checks]
        if not jobs:
            return []
        await asyncio.wait(jobs, timeout=budget_s)
        out = []
        for i, job in enumerate(jobs):
            if job.done():
                out.append(job.result())
            else:
                job.cancel()
                out.append(late(i))
        return out

    def emit(self, kwargs: dict[str, Any], rows: list[dict[str, Any]], metrics: dict[str, float]) -> None:
        """Send rows to the sink and metrics to TRL; a failing sink (full disk) never stops training."""
        log_metric = kwargs.get("log_metric")
        if callable(log_metric):
            for name, value in metrics.items():
                log_metric(name, float(value))
        if self.sink is not None:
            step = int(getattr(kwargs.get("trainer_state"), "global_step", -1))
            try:
                self.sink(step, rows)
            except Exception as exc:  # noqa: BLE001
                log.error("reward log not written: %s", exc)

    def start(self) -> None:
        """Start and warm the verifier workers (before the first step; see ``VerifierPool.start``)."""
        self.pool.start()

    async def aclose(self) -> None:
        self.pool.close()

    def close(self) -> None:
        self.pool.close()
