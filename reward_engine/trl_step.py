"""What every TRL reward function does around its scoring, written once.

TRL applies no timeout and no exception handling to an async reward function, so each one
runs its work within the step's budget (``run_within``), and reports through one ``emit``:
numbers to ``log_metric``, per-completion columns to ``log_extra``, rows to a sink (a reward
log) whose failure (a full disk) is logged and never stops training.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, Iterable, Mapping, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


async def run_within(work: Iterable[Awaitable[T]], budget_s: float) -> list[asyncio.Future]:
    """Everything in ``work`` concurrently; what is unfinished after ``budget_s`` is cancelled and
    allowed to unwind. The futures come back in order: ``finished(f)`` says which completed.

    >>> async def late(): await asyncio.sleep(1)
    >>> [finished(f) for f in asyncio.run(run_within([asyncio.sleep(0), late()], 0.05))]
    [True, False]
    """
    jobs = [asyncio.ensure_future(w) for w in work]
    if not jobs:
        return jobs
    _, pending = await asyncio.wait(jobs, timeout=budget_s)
    for job in pending:
        job.cancel()
    if pending:
        log.warning("%d of %d unfinished after the step budget of %.1fs", len(pending), len(jobs), budget_s)
        await asyncio.gather(*pending, return_exceptions=True)
    return jobs


def finished(job: asyncio.Future) -> bool:
    """Completed within the budget (with a result or an exception), not cancelled."""
    return job.done() and not job.cancelled()


def trainer_step(kwargs: Mapping[str, Any]) -> int:
    """TRL's global step from the ``trainer_state`` it passes (-1 outside a trainer)."""
    return int(getattr(kwargs.get("trainer_state"), "global_step", -1))


def emit(
    kwargs: Mapping[str, Any],
    metrics: Mapping[str, float],
    extras: Mapping[str, list] | None = None,
    sink: Callable[..., None] | None = None,
    rows: tuple = (),
) -> None:
    """``metrics`` to TRL's ``log_metric``, ``extras`` to ``log_extra``, ``sink(step, *rows)``; a failing
    sink (full disk) is logged and never stops training.

    >>> seen = {}
    >>> emit({"log_metric": seen.__setitem__}, {"reward/coverage": 1})
    >>> seen
    {'reward/coverage': 1.0}
    """
    log_metric = kwargs.get("log_metric")
    if callable(log_metric):
        for name, value in metrics.items():
            log_metric(name, float(value))
    log_extra = kwargs.get("log_extra")
    if callable(log_extra):
        for name, values in (extras or {}).items():
            log_extra(name, values)
    if sink is not None:
        try:
            sink(trainer_step(kwargs), *rows)
        except Exception as exc:  # noqa: BLE001 - a full disk must not kill training
            log.error("reward log not written: %s", exc)
