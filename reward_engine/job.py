"""A scoring job as one object: how input rows become samples, which scorer runs them (this process's engine
or a pool of Ray actors), the passes over rows that failed, and what the scorer counted.

``reward_engine.score`` (a file in, a file out, resumable) and ``reward_engine.warm`` (caches filled) both run
rows through a ``ScoreJob``, so a row means the same thing to both and a new scorer is added in one place.

Both check what a job needs before its first row (``check_knowledge``, ``check_judges``): the knowledge base or
source of the right kind, with the index the configured retrieval mode needs, and the judges that an ``llm``
stage calls accepting a connection. A failed check is one line naming the config key or file (``JobCheckError``),
never a per-row error with exit 0. ``job_fingerprint`` keys a job's rows to the reward config and to the content
of the knowledge it reads (a KB rebuilt with other text is another job), not to the KB's path.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from knowrl_io.jsonl import Row
from retrieval.source import KnowledgeSource
from reward_engine import knowledge as knowledge_paths
from reward_engine.config import RewardEngineConfig
from reward_engine.engine import RewardEngine, RewardResult, Sample
from reward_engine.metrics import percentile

REQUIRED = {"question": (str,), "completion": (str, list), "answers": (str, list)}
OPTIONAL = {"title": (str, list), "id": (str, int, float)}  # an id is carried, not read: 1.0 as some exports write
RETRY = {"timeout", "error", "breaker_open"}  # a job has no step budget: these are tried again


class JobCheckError(ValueError):
    """Something a job needs is missing or unusable: one line naming the config key or file and the fix."""


class KeyRefusedError(JobCheckError):
    """A judge answers, but refuses the job's API key: waiting for it will not help."""


@dataclass
class Knowledge:
    """What ``check_knowledge`` found: the content version of the knowledge the job reads (None: none read, or a
    source that has no version) and a ``factuality.source`` it opened (hand it to the job, or close it)."""

    version: str | None = None
    source: KnowledgeSource | None = None


def reads_knowledge(config: RewardEngineConfig) -> bool:
    """Whether a job with ``config`` reads a knowledge base or source (factuality, or the kb aliases)."""
    return config.factuality.enabled or config.grader_aliases == "kb"


def knowledge_version(source: Any, options: dict[str, Any] | None = None) -> str | None:
    """An open source's content version: a KB's ``content_version``, else the source's own ``version``; with a
    ``factuality.source``'s ``options``, the keys (``knowrl_io.file_key``) of the files they name too: a source
    whose version stays the same whatever it reads, or that has none, read another corpus file as the same job
    (hostile pass 60). None: nothing says what the source holds."""
    found = getattr(source, "content_version", None)
    if found is None:
        found = getattr(source, "version", None)
    files = knowledge_paths.source_files_key(options or {})
    if files is not None:
        return f"files:{files}" if found is None else f"{found}+files:{files}"
    return None if found is None else str(found)


def check_knowledge(config: RewardEngineConfig, retrieves: bool = True) -> Knowledge:
    """The knowledge ``config`` reads, checked before the first row: a ``kb_path`` that is a knowledge base (not
    a text file or an unrelated SQLite file) with the dense index ``factuality.retrieval_mode`` needs (not an
    interrupted or --no-dense build), or a ``factuality.source`` that opens (its files there) and serves the mode.
    ``retrieves`` False: titles are only looked up (warm's coverage), so no mode is asked. Raises ``JobCheckError``.
    """
    fc = config.factuality
    if not reads_knowledge(config):
        return Knowledge()
    mode = fc.retrieval_mode if fc.enabled and retrieves else None
    if fc.source:
        from retrieval.source import load_source

        try:
            source = load_source(fc.source, fc.source_options)
            modes, version = tuple(source.modes), knowledge_version(source, fc.source_options)
        except Exception as exc:  # noqa: BLE001 - whatever a user's factory raises (a missing file): one line
            message = str(exc).splitlines()[0] if str(exc) else ""
            raise JobCheckError(
                f"factuality.source {fc.source!r} cannot be opened with its source_options: "
                f"{type(exc).__name__}{': ' + message if message else ''}"
            ) from None
        if mode is not None and mode not in modes:
            source.close()
            raise JobCheckError(
                f"factuality.retrieval_mode {mode!r}: factuality.source {fc.source!r} serves only {list(modes)}; "
                "set factuality.retrieval_mode to one of them"
            )
        return Knowledge(version, source)
    from retrieval.kb import check_kb

    path = knowledge_paths.kb_path(fc.kb_path)
    if path is None:
        raise JobCheckError("factuality needs factuality.kb_path or factuality.source")
    try:
        return Knowledge(check_kb(path, mode))
    except (ValueError, OSError) as exc:
        fix = " (python -m retrieval.build --preset demo)" if fc.kb_path == "demo" and not path.exists() else ""
        raise JobCheckError(f"factuality.kb_path: {exc}{fix}") from None


def job_fingerprint(config: RewardEngineConfig, kb_version: str | None, with_kb_path: bool = False) -> str:
    """The reward config's fingerprint, with the content version of the knowledge the job reads when it reads
    one (a config without a KB keeps its fingerprint): an output's rows are resumed only under the same.
    ``with_kb_path``: the fingerprint older jobs recorded (``RewardEngineConfig.fingerprint``)."""
    settings = config.fingerprint(with_kb_path)
    if kb_version is None:
        return settings
    return hashlib.sha256(f"{settings}:knowledge:{kb_version}".encode()).hexdigest()[:16]


def used_judges(config: RewardEngineConfig) -> dict[str, Any]:
    """The judges an ``llm`` stage of ``config`` calls, by config key (``judge`` or ``judges.<stage>``)."""
    fc = config.factuality
    stages = []
    if config.grader == "llm":
        stages.append("grade")
    if fc.enabled and (config.decomposer == "llm" or fc.mode == "fused"):
        stages.append("decompose")  # fused factuality uses the decomposition judge
    if fc.enabled and fc.mode == "staged" and config.verifier == "llm":
        stages.append("verify")
    found: dict[str, Any] = {}
    for stage in stages:
        name = f"judges.{stage}" if stage in config.judges else "judge"
        judge = config.judges.get(stage, config.judge)  # type: ignore[call-overload]
        if judge is not None:
            found.setdefault(name, judge)
    return found


def _host_port(url: str) -> tuple[str, int] | None:
    try:
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        return None
    return (parts.hostname, port) if parts.hostname and port else None


async def _key_refused(endpoint: Any, timeout_s: float) -> str | None:
    """Why the endpoint refuses the job's key (HTTP 401 to an authenticated ``GET <base_url>/models``, the
    OpenAI-compatible route vLLM, llama.cpp's server and hosted APIs answer), else None: any other status or
    failure leaves the judge's reachability to its requests (a server without that route is not refused)."""
    import aiohttp

    from reward_engine.judge.wire import headers

    url = endpoint.base_url.rstrip("/") + "/models"
    try:
        timeout = aiohttp.ClientTimeout(total=timeout_s)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            async with session.get(url, headers=headers(endpoint), allow_redirects=False) as reply:
                status = reply.status
    except (aiohttp.ClientError, asyncio.TimeoutError, ValueError):
        return None
    if status != 401:
        return None  # 403 from /models can be a key without the models permission that chat still accepts
    if not endpoint.api_key_env:
        return "HTTP 401 (no api_key_env: the request carried no key)"
    if not os.environ.get(endpoint.api_key_env):
        return f"HTTP 401: {endpoint.api_key_env} is not set"
    return f"HTTP 401 to the key in {endpoint.api_key_env}"


async def _connect(host: str, port: int, timeout_s: float) -> str | None:
    """None when ``host:port`` accepts a TCP connection within ``timeout_s``, else why not."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout_s)
    except asyncio.TimeoutError:
        return f"no answer in {timeout_s:g} s"
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    writer.close()
    try:
        await writer.wait_closed()
    except OSError:
        pass
    return None


async def check_judges(config: RewardEngineConfig, timeout_s: float = 5.0) -> None:
    """Every judge an ``llm`` stage calls accepts a connection on one of its endpoints and does not refuse its
    API key there (a judge that is not up, or answers every request 401, is one line before the first row, not
    every row an error). Each judge's cache is opened first, so a broken cache folder is told as such. Only host
    and port are named, never the URL (it may carry a key), and of the key only its variable's name. Raises
    ``JobCheckError`` (``KeyRefusedError`` when every endpoint that answers refuses the key; or the cache's
    ``CacheError``)."""
    from reward_engine.disk_cache import CacheError
    from reward_engine.judge.cache import JudgeCache

    for name, judge in used_judges(config).items():
        if judge.cache_dir:
            try:
                JudgeCache(judge.cache_dir).close()
            except CacheError as exc:  # which key: a config with several judges names several folders
                raise CacheError(f"{name}.cache_dir: {exc}") from None
        problems: list[str] = []
        refused = 0
        for index, endpoint in enumerate(judge.endpoints):
            where = _host_port(endpoint.base_url)
            if where is None:
                problems.append(f"{name}.endpoints[{index}].base_url is not an http(s) URL with a host")
                continue
            why = await _connect(*where, timeout_s)
            if why is None:
                why = await _key_refused(endpoint, timeout_s)
                refused += why is not None
            if why is None:
                break
            problems.append(f"{where[0]}:{where[1]}: {why}")
        else:
            if refused and refused == len(judge.endpoints):
                raise KeyRefusedError(
                    f"{name}: every endpoint refuses the API key ({'; '.join(problems)}); set the variable each "
                    f"{name}.endpoints[].api_key_env names to a key the judge accepts"
                )
            raise JobCheckError(
                f"{name}: no endpoint accepts a connection ({'; '.join(problems)}); start the judge or fix "
                f"{name}.endpoints[].base_url"
            )


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
