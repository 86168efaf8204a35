"""Per-batch metrics the engine reports (TRL's ``log_metric``, the score job, benchmarks)."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from reward_engine.labels import Status
from reward_engine.samples import RewardResult


@dataclass
class BatchMetrics:
    completions: int = 0
    unique: int = 0
    coverage: float = 0.0
    latency_p50_s: float = 0.0
    latency_p95_s: float = 0.0
    judge_requests: int = 0
    judge_calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    timeouts: int = 0
    breaker_open: int = 0
    speculated: int = 0
    speculation_wasted: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    labels: dict[str, int] = field(default_factory=dict)
    wall_s: float = 0.0


def percentile(values: Sequence[float], q: int) -> float:
    """The q-th percentile (inclusive method); 0 for no values.

    >>> percentile([1.0, 2.0, 3.0, 4.0, 100.0], 50), percentile([5.0], 95)
    (3.0, 5.0)
    """
    if not values:
        return 0.0
    if len(values) == 1:
        return float(values[0])
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def batch_metrics(
    results: Sequence[RewardResult],
    unique: int,
    judge_delta: dict[str, int],
    breaker_open: bool,
    counters: dict[str, int],
    wall_s: float,
) -> BatchMetrics:
    """Metrics of one scored batch; ``judge_delta`` is the judge client's counters' change over it."""
    latencies = [r.latency_s for r in results]
    statuses = dict(Counter(r.status for r in results))
    labels = dict(Counter(r.label for r in results if r.label))
    return BatchMetrics(
        completions=len(results),
        unique=unique,
        coverage=sum(r.total is not None for r in results) / max(1, len(results)),
        latency_p50_s=statistics.median(latencies) if latencies else 0.0,
        latency_p95_s=percentile(latencies, 95),
        judge_requests=judge_delta.get("requests", 0),
        judge_calls=judge_delta.get("calls", 0),
        cache_hits=judge_delta.get("cache_hits", 0),
        retries=judge_delta.get("retries", 0),
        timeouts=statuses.get(Status.TIMEOUT.value, 0),
        breaker_open=int(breaker_open),
        speculated=counters.get("speculated", 0),
        speculation_wasted=counters.get("speculation_wasted", 0),
        statuses=statuses,
        labels=labels,
        wall_s=wall_s,
    )
