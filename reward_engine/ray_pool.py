"""Scoring and warming on a pool of Ray actors, each holding one reward engine (``--ray [ADDRESS]``).

The job's driver keeps everything that makes a job safe to kill and resume: it reads the input, owns the
output, writes finished batches and puts the file in input order (``reward_engine.score``). Only the
scoring of a batch goes to an actor. An actor that dies mid-batch is restarted by Ray and the batch is
sent again (to another actor when there is one): the driver writes a batch once, when its results come
back, so its rows are neither lost nor written twice (the summary's counters lose what a killed actor
had counted). Each actor's engine has its own judge client, so the judge's limits and cache should be
shared through Redis (``judge.limits.url``, ``judge.cache.url``); without them each actor keeps the
whole per-minute budget to itself.

Ray is imported when a pool starts, never at import time (it is the ``distributed`` extra).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from typing import Any, Sequence

from reward_engine.config import RewardEngineConfig
from reward_engine.engine import RewardEngine, RewardResult, Sample

log = logging.getLogger(__name__)

MAX_RESENDS = 5  # a batch whose actor died is sent again this many times at most
RESTART_WAIT_S = 300.0  # how long a batch waits for actors Ray is restarting


class EngineActor:
    """One reward engine in a Ray actor process (wrapped by ``ray.remote`` when the pool starts)."""

    def __init__(self, config: RewardEngineConfig) -> None:
        self.config = config
        self.engine: RewardEngine | None = None
        self._opening: asyncio.Lock | None = None

    async def _engine(self) -> RewardEngine:
        """The actor's one engine (the first batches reach a fresh actor together: one opens it)."""
        if self._opening is None:
            self._opening = asyncio.Lock()
        async with self._opening:
            if self.engine is None:
                engine = RewardEngine(self.config)
                await engine.__aenter__()
                self.engine = engine
        return self.engine

    async def score(self, samples: list[Sample]) -> list[RewardResult]:
        return await (await self._engine()).score(samples)

    async def ensure_retriever(self) -> None:
        await (await self._engine()).ensure_retriever()

    async def flush(self) -> None:
        if self.engine is not None:
            await self.engine.flush()

    def stats(self) -> dict[str, Any]:
        """This actor's engine's counters (``RewardEngine.stats``), empty before its first batch."""
        return self.engine.stats() if self.engine is not None else {}

    async def close(self) -> None:
        if self.engine is not None:
            await self.engine.__aexit__(None, None, None)
            self.engine = None


class RayPool:
    """``actors`` engines on a Ray cluster (``address``: "auto", "ray://host:10001", or None for a local one)."""

    def __init__(self, config: RewardEngineConfig, actors: int = 2, address: str | None = None) -> None:
        if actors < 1:
            raise ValueError("a Ray pool needs at least one actor")
        self.config = config
        self.size = actors
        self.address = address
        self.resent = 0  # batches sent again after their actor died
        self._actors: list[Any] = []
        self._busy: Counter[int] = Counter()
        self._started_ray = False

    async def __aenter__(self) -> "RayPool":
        import ray

        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address:
                kwargs["address"] = self.address
            else:
                kwargs["num_cpus"] = max(self.size, 1)
            await asyncio.to_thread(ray.init, **kwargs)
            self._started_ray = True
        # an actor that dies is started again by Ray, with a fresh engine (the caches keep what it learned)
        remote = ray.remote(max_restarts=-1, max_concurrency=64, num_cpus=1)(EngineActor)
        self._actors = [remote.remote(self.config) for _ in range(self.size)]
        return self

    async def __aexit__(self, *exc: object) -> None:
        import ray

        for actor in self._actors:
            try:  # the engine's pending cache writes reach the disk
                await asyncio.wait_for(asyncio.wrap_future(actor.close.remote().future()), timeout=60)
            except Exception:  # noqa: BLE001 - a dead or stuck actor has nothing more to close
                pass
            ray.kill(actor)
        self._actors = []
        if self._started_ray:
            await asyncio.to_thread(ray.shutdown)

    def _pick(self, avoid: int | None = None) -> int:
        """The actor with the fewest batches in flight, other than ``avoid`` (one that just died) if possible."""
        choices = [i for i in range(len(self._actors)) if i != avoid] or list(range(len(self._actors)))
        return min(choices, key=lambda i: self._busy[i])

    async def _call(self, method: str, *args: Any) -> Any:
        from ray.exceptions import ActorUnavailableError, RayActorError  # ActorDiedError is a kind of the latter

        failed: int | None = None
        deaths, attempt = 0, 0
        deadline = time.monotonic() + RESTART_WAIT_S
        while True:
            index = self._pick(failed)
            self._busy[index] += 1
            try:
                return await getattr(self._actors[index], method).remote(*args)
            except RayActorError as exc:
                # An actor Ray is still restarting is waited for (on a busy machine a restart outlasts the
                # resend backoff); a death counts against MAX_RESENDS.
                restarting = isinstance(exc, ActorUnavailableError)
                deaths += not restarting
                if deaths > MAX_RESENDS or time.monotonic() > deadline:
                    raise
                self.resent += 1
                failed = index
                log.warning("scoring actor %d died (%s): sending its batch again", index, type(exc).__name__)
                await asyncio.sleep(min(0.5 * 2**attempt, 5.0))
                attempt += 1
            finally:
                self._busy[index] -= 1

    async def pause(self, backoff_s: float = 1.0) -> None:
        """Before another pass over a batch's failed rows (each actor's breaker is its own: a fixed backoff)."""
        await asyncio.sleep(backoff_s)

    async def score(self, samples: Sequence[Sample]) -> list[RewardResult]:
        return await self._call("score", list(samples))

    async def ensure_retriever(self) -> None:
        await asyncio.gather(*(actor.ensure_retriever.remote() for actor in self._actors))

    async def flush(self) -> None:
        """Every actor's cache writes so far landed (the actors write on their own threads)."""
        await asyncio.gather(*(actor.flush.remote() for actor in self._actors))

    async def stats(self) -> dict[str, Any]:
        """Every actor's counters summed, latencies pooled."""
        merged: dict[str, Any] = {
            "judge": Counter(),
            "latencies": {},
            "parsed": {},
            "totals": Counter(),
            "guard": Counter(),
        }
        # an actor still restarting after a kill answers with an error: its counters are lost, not the job
        for one in await asyncio.gather(*(actor.stats.remote() for actor in self._actors), return_exceptions=True):
            if not one or isinstance(one, BaseException):
                continue
            merged["judge"].update(one["judge"])
            merged["totals"].update(one["totals"])
            merged["guard"].update(one["guard"])
            for kind, values in one["latencies"].items():
                merged["latencies"].setdefault(kind, []).extend(values)
            for kind, counts in one["parsed"].items():
                merged["parsed"].setdefault(kind, Counter()).update(counts)
        return merged
