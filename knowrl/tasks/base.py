"""What the rule-verified task rewards (maths, reasoning-gym) share: a worker pool, a
reward-log sink, and the step budget and TRL reporting every reward function uses
(``reward_engine.trl_step``)."""

from __future__ import annotations

from typing import Any, Awaitable, Callable, TypeVar

from knowrl.tasks.verify_pool import VerifierPool
from reward_engine.trl_step import emit, finished, run_within

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
        jobs = await run_within(checks, budget_s)
        return [job.result() if finished(job) else late(i) for i, job in enumerate(jobs)]

    def emit(self, kwargs: dict[str, Any], rows: list[dict[str, Any]], metrics: dict[str, float]) -> None:
        """Metrics to TRL, rows to the sink (a failing sink never stops training)."""
        emit(kwargs, metrics, sink=self.sink, rows=(rows,))

    def start(self) -> None:
        """Start and warm the verifier workers (before the first step; see ``VerifierPool.start``)."""
        self.pool.start()

    async def aclose(self) -> None:
        self.pool.close()

    def close(self) -> None:
        self.pool.close()
