"""A scoring job as one object: how input rows become samples, which scorer runs them (this process's engine
or a pool of Ray actors), the passes over rows that failed, and what the scorer counted.

``reward_engine.score`` (a file in, a file out, resumable) and ``reward_engine.warm`` (caches filled) both run
rows through a ``ScoreJob``, so a row means the same thing to both and a new scorer is added in one place.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from knowrl_io.jsonl import Row
from retrieval.source import KnowledgeSource
from reward_engine.config import RewardEngineConfig
from reward_engine.engine import RewardEngine, RewardResult, Sample
from reward_engine.metrics import percentile

REQUIRED = {"question": (str,), "completion": (str, list), "answers": (str, list)}
OPTIONAL = {"title": (str, list), "id": (str, int)}
RETRY = {"timeout", "error", "breaker_open"}  # a job has no step budget: these are tried again


class Scorer(Protocol):
    """What a job scores with: ``LocalScorer`` here, ``reward_engine.ray_pool.RayPool`` on Ray actors."""

    async def __aenter__(self) -> Any: ...
    async def __aexit__(self, *exc: Any) -> None: ...
    async def score(self, samples: list[Sample]) -> list[RewardResult]: ...
    async def pause(self, backoff_s: float = 1.0) -> None: ...
    async def flush(self) -> None: ...
    async def stats(self) -> dict[str, Any]: ...


class LocalScorer:
    """The job's engine in this process (``engine``: one already open, e.g. warm's, which it then leaves open)."""

    def __init__(
        self, config: RewardEngineConfig, kb: KnowledgeSource | None = None, engine: RewardEngine | None = None
    ) -> None:
        self.engine = engine or RewardEngine(config, kb=kb)
        self._owned = engine is None

    async def __aenter__(self) -> "LocalScorer":
        if self._owned:
            await self.engine.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self._owned:
            await self.engine.__aexit__(*exc)

    async def score(self, samples: list[Sample]) -> list[RewardResult]:
        return await self.engine.score(samples)

    async def pause(self, backoff_s: float = 1.0) -> None:
        """Before another pass over a batch's failed rows: out the breaker's cool-down, or a short backoff."""
        await asyncio.sleep(max(backoff_s, self.engine.breaker_cooldown_left()))

    async def flush(self) -> None:
        await self.engine.flush()

    async def stats(self) -> dict[str, Any]:
        return self.engine.stats()


@dataclass
class JobStats:
    """What the scorer counted over a job, as the score job's summary reports it."""

    judge_requests: int = 0
    cache_hits: int = 0
    retries: int = 0
    totals: dict[str, int] = field(default_factory=dict)  # the engine's own counters (speculated, ...)
    replies: dict[str, Any] = field(default_factory=dict)  # per kind of call: parsed first time / retried / never
    latency: dict[str, dict[str, float]] = field(default_factory=dict)  # per kind of call answered by the judge
    guard: dict[str, int] = field(default_factory=dict)  # what the span check changed
    shared: dict[str, int] = field(default_factory=dict)  # served locally while the shared Redis was away
    resent: int = 0  # batches sent again to another Ray actor

    @classmethod
    def of(cls, stats: dict[str, Any], resent: int = 0) -> "JobStats":
        snap = stats["judge"]
        return cls(
            judge_requests=snap.get("requests", 0),
            cache_hits=snap.get("cache_hits", 0),
            retries=snap.get("retries", 0),
            totals=dict(stats["totals"]),
            replies=stats["parsed"],
            latency={
                kind: {"calls": len(v), "p50_s": round(percentile(v, 50), 3), "p95_s": round(percentile(v, 95), 3)}
                for kind, v in stats["latencies"].items()
            },
            guard=dict(stats["guard"]),
            shared={k: snap.get(k, 0) for k in ("limit_fallbacks", "cache_fallbacks")},
            resent=resent,
        )


@dataclass
class ScoreJob:
    """How a job scores: its reward config and KB, batch size and batches in flight, passes over failed rows, and
    where (``ray_address`` None: this process; ``""``: a local Ray; else a cluster's address)."""

    config: RewardEngineConfig
    kb: KnowledgeSource | None = None
    batch_size: int = 64
    concurrency: int = 8
    passes: int = 3
    ray_address: str | None = None
    ray_actors: int = 2

    def scorer(self, engine: RewardEngine | None = None) -> Scorer:
        """The scorer this job runs on (``engine``: reuse an open engine in this process)."""
        if self.ray_address is not None:
            from reward_engine.ray_pool import RayPool

            return RayPool(self.config, self.ray_actors, self.ray_address or None)  # each actor opens its own KB
        return LocalScorer(self.config, self.kb, engine)

    @staticmethod
    def sample(row: Row) -> Sample:
        """The engine's sample of a good input row (``row.data`` checked against REQUIRED / OPTIONAL)."""
        data = row.data or {}
        return Sample(data["question"], data["completion"], data["answers"], data.get("title"))

    async def score_rows(self, scorer: Scorer, rows: list[Row]) -> dict[int, RewardResult]:
        """Each good row's result by line: scored, then the rows that timed out or failed again after the
        scorer's pause, up to ``passes`` tries in all."""
        by_line: dict[int, RewardResult] = {}
        todo = [r for r in rows if r.data is not None]
        for attempt in range(self.passes):
            if not todo:
                break
            if attempt:
                await scorer.pause()
            results = await scorer.score([self.sample(r) for r in todo])
            by_line.update((r.line, res) for r, res in zip(todo, results))
            todo = [r for r, res in zip(todo, results) if res.status in RETRY]
        return by_line

    @staticmethod
    async def stats(scorer: Scorer) -> JobStats:
        return JobStats.of(await scorer.stats(), getattr(scorer, "resent", 0))
