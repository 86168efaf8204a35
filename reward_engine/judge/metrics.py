"""The judge client's counters, read by the engine, the jobs and the benchmarks through ``snapshot``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class JudgeMetrics:
    calls: int = 0
    requests: int = 0
    cache_hits: int = 0
    retries: int = 0
    timeouts: int = 0
    rate_limited: int = 0
    failures: int = 0
    invalid: int = 0
    breaker_rejections: int = 0
    deduplicated: int = 0  # calls that awaited an identical call in flight instead of sending their own
    limit_fallbacks: int = 0  # requests the local share admitted while the shared limits' Redis was away
    limit_rebooked: int = 0  # requests that woke past their booked time in the shared windows and booked again
    cache_fallbacks: int = 0  # cache reads and writes served by this node alone while the shared cache was away
    # per kind of call ("grade", "fused", ...): answered calls' latencies, and how validated replies went --
    # "first" (the first reply parsed), "retry" (one parsed after a refused one), "never" (retries ran out)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    parsed: dict[str, Counter] = field(default_factory=dict)

    def snapshot(self) -> dict[str, int]:
        """The counters (not the per-kind tallies): subtract two snapshots for a batch's share."""
        return {k: v for k, v in self.__dict__.items() if k not in ("latencies", "parsed")}

    def since(self, before: dict[str, int]) -> dict[str, int]:
        """The counters' change since an earlier ``snapshot``."""
        return {k: v - before.get(k, 0) for k, v in self.snapshot().items()}

    def count_parse(self, kind: str, outcome: str) -> None:
        self.parsed.setdefault(kind, Counter())[outcome] += 1
