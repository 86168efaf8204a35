"""The reward engine: scores a batch of completions concurrently, within a deadline.

    async with RewardEngine(config) as engine:
        results = await engine.score([Sample(question, completion, answers, title), ...])

Orchestration only: deduplication, the stage order (factuality only after the grader says
INCORRECT — the only case where it changes the reward), concurrency, the step budget and
status bookkeeping. The stages and the arithmetic live in ``stages`` and ``scoring``.
``score`` never raises: what did not finish is None with a status saying why.
"""

from __future__ import annotations

import asyncio
import collections
import re
import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from reward_engine import offline_grader, stages
from reward_engine.cache import JudgeCache
from reward_engine.completion import Parsed, clean_text, parse
from reward_engine.config import RewardEngineConfig
from reward_engine.judge_client import BreakerOpenError, JudgeClient, JudgeError, JudgeTimeoutError
from reward_engine.labels import Label, Status
from reward_engine.relevance import Topic
from reward_engine.scoring import combine, fact_score


@dataclass
class Sample:
    """One completion to score, with its dataset row's fields."""

    question: str
    completion: Any
    answers: Any = None
    title: Any = None


@dataclass
class ClaimResult:
    text: str
    supported: bool | None  # None: not verified (off-topic, or beyond max_claims)
    evidence_ids: list[int] = field(default_factory=list)
    on_topic: bool = True  # off-topic claims are left out of the fact score


@dataclass
class RewardResult:
    """Every component of one completion's reward; None where it could not be computed."""

    total: float | None = None  # format + correctness
    format: float | None = None
    correctness: float | None = None  # KnowRL's combined reward (fact score folded in)
    factuality: float | None = None  # the fact score, computed only for INCORRECT answers
    label: str | None = None
    claims: list[ClaimResult] = field(default_factory=list)
    status: str = Status.OK.value
    latency_s: float = 0.0
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


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


def _clean(sample: Sample) -> Sample:
    """The sample with NULs and lone surrogates out of every text field (see ``clean_text``)."""
    def fix(value: Any) -> Any:
        if isinstance(value, str):
            return clean_text(value)
        if isinstance(value, list):
            return [fix(v) for v in value]
        return value

    return Sample(fix(sample.question), sample.completion, fix(sample.answers), fix(sample.title))


def _gold_text(answers: Any) -> str:
    if isinstance(answers, (list, tuple)):
        return "; ".join(str(a) for a in answers if a is not None)
    return "" if answers is None else str(answers)


class RewardEngine:
    """Owns the judge client, the knowledge base and the stages for one event loop."""

    def __init__(self, config: RewardEngineConfig, kb: Any = None) -> None:
        self.config = config
        self.semantics = config.reward_semantics
        judge_cfg = config.judge_for_rank()
        self.judge = JudgeClient(judge_cfg) if judge_cfg is not None else None
        self._kb = kb
        self.grader = stages.LLMGrader(self.judge) if config.grader == "llm" else stages.OfflineGrader()
        self.decomposer = (stages.LLMDecomposer(self.judge) if config.decomposer == "llm"
                           else stages.OfflineDecomposer())
        self.verifier = (stages.LLMVerifier(self.judge) if config.verifier == "llm"
                         else stages.OfflineVerifier(config.factuality.offline_threshold))
        self._retriever: stages.EvidenceRetriever | None = None
        self._counters: collections.Counter[str] = collections.Counter()
        self.last_metrics = BatchMetrics()

    async def __aenter__(self) -> "RewardEngine":
        if self.judge is not None:
            await self.judge.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self.judge is not None:
            await self.judge.close()

    # -- knowledge base -----------------------------------------------------------------
    def open_kb(self) -> Any:
        """Open the KB now (loads the embedding model); raises a clear error if it is missing."""
        if self._kb is None and self.config.factuality.enabled:
            from retrieval.kb import KnowledgeBase
            from retrieval.paths import demo_kb_path

            path = self.config.factuality.kb_path
            if path == "demo":
                path = str(demo_kb_path())
                if not demo_kb_path().exists():
                    raise FileNotFoundError("the demo KB is not built yet: python -m retrieval.build --preset demo")
            self._kb = KnowledgeBase(path)
        return self._kb

    async def _retriever_ready(self) -> stages.EvidenceRetriever:
        if self._retriever is None:
            kb = self._kb
            if kb is None:
                kb = await asyncio.get_running_loop().run_in_executor(None, self.open_kb)
            fc = self.config.factuality
            cache = self.judge.cache if self.judge is not None and not fc.cache_dir else None
            if fc.cache_dir:
                cache = JudgeCache(fc.cache_dir)
            self._retriever = stages.EvidenceRetriever(kb, fc.evidence_k, fc.retrieval_mode, cache)
        return self._retriever

    # -- scoring ------------------------------------------------------------------------
    async def score(self, samples: Sequence[Sample], deadline_s: float | None = None) -> list[RewardResult]:
        """One result per sample, in order, within ``deadline_s`` (default: the config's step budget)."""
        started = time.perf_counter()
        budget = self.config.step_timeout_s if deadline_s is None else deadline_s
        before = self._judge_counters()
        self._counters.clear()
        try:
            results = await self._score(samples, budget)
        except Exception as exc:  # noqa: BLE001 - a reward must never crash a training step
            results = [RewardResult(status=Status.ERROR.value, error=f"{type(exc).__name__}: {exc}") for _ in samples]
        self.last_metrics = self._metrics(samples, results, before, time.perf_counter() - started)
        return results

    async def _score(self, samples: Sequence[Sample], budget: float) -> list[RewardResult]:
        samples = [_clean(s) for s in samples]
        keys = [self._key(s) for s in samples]
        unique: dict[Any, Sample] = {}
        for key, sample in zip(keys, samples):
            unique.setdefault(key, sample)
        partial = {key: RewardResult() for key in unique}
        parsed = {key: parse(sample.completion) for key, sample in unique.items()}
        # Critical-path work first: speculative factuality takes its connection slots
        # before the grader calls queue up behind them.
        speculative = {key: self._speculate(sample, parsed[key]) for key, sample in unique.items()}
        tasks = {key: asyncio.ensure_future(self._job(sample, parsed[key], speculative[key], partial[key]))
                 for key, sample in unique.items()}
        if tasks:
            done, pending = await asyncio.wait(tasks.values(), timeout=budget)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
        for key, task in tasks.items():
            result = partial[key]
            if not task.done() or task.cancelled():
                result.status = Status.TIMEOUT.value
                result.error = f"not finished within the step budget of {budget:.1f}s"
                result.correctness = result.total = None
        return [partial[key] for key in keys]

    @staticmethod
    def _key(sample: Sample) -> Any:
        completion = sample.completion if isinstance(sample.completion, str) else repr(sample.completion)
        return (repr(sample.question), completion, repr(sample.answers), repr(sample.title))

    async def _job(self, sample: Sample, parsed: Parsed, speculative: asyncio.Future | None,
                   result: RewardResult) -> None:
        started = time.perf_counter()
        try:
            await self._run(sample, parsed, speculative, result)
        except BreakerOpenError as exc:
            result.status, result.error = Status.BREAKER_OPEN.value, str(exc)
        except JudgeTimeoutError as exc:
            result.status, result.error = Status.TIMEOUT.value, str(exc)
        except JudgeError as exc:
            result.status, result.error = Status.ERROR.value, str(exc)
        except asyncio.CancelledError:
            await self._drop(speculative)
            raise
        except Exception as exc:  # noqa: BLE001 - one bad completion never sinks the batch
            result.status, result.error = Status.ERROR.value, f"{type(exc).__name__}: {exc}"
        finally:
            result.latency_s = time.perf_counter() - started
        if result.status not in (Status.OK.value, Status.CACHED.value, Status.BAD_INPUT.value):
            result.correctness = result.total = None

    async def _run(self, sample: Sample, parsed: Parsed, speculative: asyncio.Future | None,
                   result: RewardResult) -> None:
        sem = self.semantics
        result.format = sem.format_correct if parsed.well_formed else sem.format_wrong
        if not isinstance(sample.question, str) or not sample.question.strip():
            await self._drop(speculative)
            result.status, result.error = Status.BAD_INPUT.value, "question missing or not a string"
            return
        gold = _gold_text(sample.answers)
        if not parsed.has_answer:
            result.correctness = sem.no_answer
            result.total = result.format + result.correctness
            return
        if not gold.strip():
            result.status, result.error = Status.BAD_INPUT.value, "no gold answer to grade against"
            return
        try:
            graded = await self.grader.grade(
                sample.question, sample.answers if self.config.grader == "offline" else gold,
                (parsed.answer or "")[: self.config.max_answer_chars])
        except BaseException:
            await self._drop(speculative)
            raise
        label: Label = graded.value  # type: ignore[assignment]
        result.label = label.value
        all_cached = graded.cached
        fact: float | None = None
        if label is Label.INCORRECT:
            if self.config.factuality.enabled:
                fact, claims, cached = await (speculative
                                              or self._factuality(parsed.think, sample.title, sample.question))
                result.claims = claims
                all_cached = all_cached and cached
            else:
                fact = 0.0
            result.factuality = fact
        elif speculative is not None:
            self._counters["speculation_wasted"] += 1
            await self._drop(speculative)
        result.correctness = combine(label, fact, sem)
        result.total = None if result.correctness is None else result.format + result.correctness
        if all_cached and self.config.grader == "llm":
            result.status = Status.CACHED.value

    def _speculate(self, sample: Sample, parsed: Any) -> asyncio.Future | None:
        """Start factuality beside the LLM grader when the offline grader already says INCORRECT.

        Cuts a round trip off the step's critical path; when the judge disagrees, work not yet
        sent is cancelled and the miss is counted (``speculation_wasted``).
        """
        if not (self.config.speculate and self.config.grader == "llm" and self.config.factuality.enabled):
            return None
        if self.judge is not None and self.judge.breaker.state != "closed":
            # Not while the judge is failing: the half-open probe must be a grader call, which is
            # never cancelled by a rejected grader (a dropped speculative probe left no verdict,
            # and the breaker could stay open step after step).
            return None
        if not parsed.has_answer or not isinstance(sample.question, str) or not _gold_text(sample.answers).strip():
            return None
        if offline_grader.grade(parsed.answer or "", sample.answers) is not Label.INCORRECT:
            return None
        self._counters["speculated"] += 1
        return asyncio.ensure_future(self._factuality(parsed.think, sample.title, sample.question))

    @staticmethod
    async def _drop(task: asyncio.Future | None) -> None:
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _factuality(self, reasoning: str, titles: Any,
                          question: Any = None) -> tuple[float, list[ClaimResult], bool]:
        # A megabyte of reasoning must not cost a megabyte of judge tokens (or minutes of CPU).
        decomposed = await self.decomposer.decompose(reasoning[: self.config.factuality.max_reasoning_chars])
        title_text = titles if isinstance(titles, str) else ";".join(t for t in titles or [] if isinstance(t, str))
        claims, off_topic = self.select_claims(decomposed.value, question, title_text)  # type: ignore[arg-type]
        if not claims:
            return 0.0, off_topic, decomposed.cached
        retriever = await self._retriever_ready()
        evidence = await retriever.retrieve(claims, title_text)
        verified = await self.verifier.verify(claims, evidence)
        flags: list[bool] = verified.value  # type: ignore[assignment]
        results = [ClaimResult(c, ok, [p.id for p in passages]) for c, ok, passages in zip(claims, flags, evidence)]
        score = fact_score(sum(flags), len(claims), self.semantics)
        return score, results + off_topic, decomposed.cached and verified.cached

    def select_claims(self, claims: Sequence[str], question: Any,
                      title_text: str) -> tuple[list[str], list[ClaimResult]]:
        """The claims the fact score counts (distinct, on-topic, the first ``max_claims``) and the
        off-topic ones, which are reported but never verified."""
        distinct = self._distinct(claims)
        off_topic: list[ClaimResult] = []
        if self.config.factuality.relevance == "question":
            topic = Topic(question if isinstance(question, str) else "", title_text)
            covered = [topic.covers(c) for c in distinct]
            off_topic = [ClaimResult(c, None, on_topic=False) for c, ok in zip(distinct, covered) if not ok]
            distinct = [c for c, ok in zip(distinct, covered) if ok]
        return distinct[: self.config.factuality.max_claims], off_topic

    @staticmethod
    def _distinct(claims: Sequence[str]) -> list[str]:
        """Repeating one fact must not count it twice."""
        seen: dict[str, str] = {}
        for claim in claims:
            key = " ".join(re.findall(r"\w+", claim.lower()))  # case, spacing and punctuation do not count
            seen.setdefault(key, claim)
        return list(seen.values())

    # -- metrics ------------------------------------------------------------------------
    def _judge_counters(self) -> dict[str, int]:
        if self.judge is None:
            return {}
        m = self.judge.metrics
        return {"requests": m.requests, "calls": m.calls, "cache_hits": m.cache_hits, "retries": m.retries}

    def _metrics(self, samples: Sequence[Sample], results: list[RewardResult], before: dict, wall: float) -> BatchMetrics:
        after = self._judge_counters()
        latencies = sorted(r.latency_s for r in results) or [0.0]
        statuses: dict[str, int] = {}
        labels: dict[str, int] = {}
        for r in results:
            statuses[r.status] = statuses.get(r.status, 0) + 1
            if r.label:
                labels[r.label] = labels.get(r.label, 0) + 1
        return BatchMetrics(
            completions=len(samples),
            unique=len({self._key(s) for s in samples}),
            coverage=sum(r.total is not None for r in results) / max(1, len(results)),
            latency_p50_s=statistics.median(latencies),
            latency_p95_s=latencies[min(len(latencies) - 1, int(0.95 * (len(latencies) - 1) + 0.5))],
            judge_requests=after.get("requests", 0) - before.get("requests", 0),
            judge_calls=after.get("calls", 0) - before.get("calls", 0),
            cache_hits=after.get("cache_hits", 0) - before.get("cache_hits", 0),
            retries=after.get("retries", 0) - before.get("retries", 0),
            timeouts=statuses.get(Status.TIMEOUT.value, 0),
            breaker_open=int(self.judge is not None and self.judge.breaker.state == "open"),
            speculated=self._counters["speculated"],
            speculation_wasted=self._counters["speculation_wasted"],
            statuses=statuses,
            labels=labels,
            wall_s=wall,
        )
