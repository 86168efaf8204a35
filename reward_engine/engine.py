"""The reward engine: scores a batch of completions concurrently, within a deadline.

    async with RewardEngine(config) as engine:
        results = await engine.score([Sample(question, completion, answers, title), ...])

Orchestration only: deduplication, speculation, concurrency, the step budget, running the stages the
reward rule asks for and status bookkeeping. What a completion is paid is its rule's (``rules``: format,
the no-answer rule, abstention, which stages, combine, total); the stages live in ``stages`` (one module
each; the factuality pipeline in ``stages.factuality``), the knowledge-base path policy in ``knowledge``,
the numbers in ``metrics``. ``plan`` runs this same stage order against a cache-only judge.
``score`` never raises: what did not finish is None with a status saying why.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import logging
import math
import threading
import time
from typing import Any, Sequence

from retrieval.source import KnowledgeSource
from reward_engine import knowledge
from reward_engine.completion import Parsed, parse
from reward_engine.config import RewardEngineConfig, import_plugins
from reward_engine.judge.client import JudgeClient
from reward_engine.judge.errors import BreakerOpenError, JudgeError, JudgeTimeoutError, NotCachedError
from reward_engine.judge.protocol import Judge
from reward_engine.labels import Label, Status
from reward_engine.metrics import BatchMetrics, batch_metrics
from reward_engine.offline import grader as offline_grader
from reward_engine.plan import CacheOnlyJudge, NoVerifier, RequestPlan
from reward_engine.rules import registry as rules
from reward_engine.samples import ClaimResult, RewardResult, Sample
from reward_engine.stage_calls import StageCalls
from reward_engine.stages import registry
from reward_engine.stages.decompose import Decomposer
from reward_engine.stages.evidence_cache import evidence_cache
from reward_engine.stages.factuality import FactualityPipeline
from reward_engine.stages.fused import LLMFusedChecker
from reward_engine.stages.grade import Grader
from reward_engine.stages.nli import NLIVerifier
from reward_engine.stages.retrieve import EvidenceRetriever
from reward_engine.stages.verify import Verifier
from reward_engine.trl_step import finished, run_within

log = logging.getLogger(__name__)

# This score() call's counters: tasks inherit the context they were created in, so calls that
# overlap (the score job keeps several batches in flight) never count each other's work.
_CALL_COUNTERS: contextvars.ContextVar[collections.Counter[str]] = contextvars.ContextVar("reward_call_counters")

__all__ = ["ClaimResult", "RewardEngine", "RewardResult", "Sample"]


class RewardEngine:
    """Owns the judge client, the knowledge base and the stages for one event loop."""

    def __init__(
        self,
        config: RewardEngineConfig,
        kb: KnowledgeSource | None = None,
        judge: Judge | None = None,
        stage_judges: dict[str, Judge] | None = None,
    ) -> None:
        """``judge``: a client to use instead of the config's (``plan`` passes a cache-only one); ``stage_judges``:
        clients for stages with a judge of their own (default: the config's ``judges``, when ``judge`` is not
        given)."""
        self.config = config
        import_plugins(config.plugins)  # a config unpickled in another process (Ray actors) was never validated there
        sem = config.reward_semantics
        self.rule = rules.build(sem.rule, sem)  # what a completion is paid; the rest of this class runs it
        judge_cfg = config.judge_for_rank()
        self.judge = judge if judge is not None else JudgeClient(judge_cfg) if judge_cfg is not None else None
        if stage_judges is None:
            own = {} if judge is not None else config.judges
            stage_judges = {stage: JudgeClient(config.judge_for_rank(stage)) for stage in own}
        self.stage_judges = stage_judges
        if self.judge is None and stage_judges:  # every judged stage has its own: the first is the one reported
            self.judge = next(iter(stage_judges.values()))
        self._kb = kb
        self._kb_lock = threading.Lock()  # a batch's first samples all ask for the KB at once: open it once
        templates = config.templates()
        grade, decompose, verify = (stage_judges.get(s, self.judge) for s in ("grade", "decompose", "verify"))

        def stage(judge: Judge | None) -> registry.StageContext:  # what the registry promises every factory
            return registry.StageContext(config, judge, templates, self.open_kb)

        self.grader: Grader = registry.build("grader", config.grader, stage(grade))
        fuser = (
            LLMFusedChecker(decompose, template=templates.fused)
            if config.factuality.mode == "fused" and decompose is not None
            else None
        )
        self.facts = FactualityPipeline(
            registry.build("decomposer", config.decomposer, stage(decompose)),
            registry.build("verifier", config.verifier, stage(verify)),
            fuser,
            self.ensure_retriever,
            config.factuality,
            sem,
            config.max_answer_chars,
        )
        self.retriever: EvidenceRetriever | None = None  # built on first use (opens the KB)
        self.speculate = config.speculate
        self._may_open_kb = True
        self.last_metrics = BatchMetrics()
        self.totals: collections.Counter[str] = collections.Counter()  # per-call counters summed over calls

    @property
    def decomposer(self) -> Decomposer:
        return self.facts.decomposer

    @property
    def verifier(self) -> Verifier:
        return self.facts.verifier

    @property
    def fuser(self) -> LLMFusedChecker | None:
        return self.facts.fuser

    @property
    def judges(self) -> list[Any]:
        """Every judge client this engine calls, each once."""
        found = [self.judge, *self.stage_judges.values()]
        return list({id(j): j for j in found if j is not None}.values())

    def judge_counters(self) -> dict[str, int]:
        """The judge counters summed over every client (``JudgeMetrics.snapshot``'s keys)."""
        total: collections.Counter[str] = collections.Counter()
        for judge in self.judges:
            total.update(judge.metrics.snapshot())
        return dict(total)

    def breaker_cooldown_left(self) -> float:
        """Seconds until the last open breaker may let a probe through (0 when every breaker is closed)."""
        return max((j.breaker.cooldown_left() for j in self.judges), default=0.0)

    async def __aenter__(self) -> "RewardEngine":
        for judge in self.judges:
            await judge.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        for judge in self.judges:
            await judge.close()
        await self.flush()

    async def flush(self) -> None:
        """Wait until every cache write made so far (judge answers, evidence) has landed: what another process
        reading the same caches (a warm job's plan, the next run) can then see."""
        for judge in self.judges:
            await judge.flush()
        cache = self.retriever.cache if self.retriever is not None else None
        if cache is not None:
            await asyncio.to_thread(cache.flush)

    # -- knowledge base -----------------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        """The judge's counters, latencies and parse outcomes, the engine's totals and the span check's counts:
        what a job's summary reports (``reward_engine.score``, one per Ray actor in ``ray_pool``)."""
        latencies: dict[str, list[float]] = {}
        parsed: dict[str, collections.Counter[str]] = {}
        for judge in self.judges:
            for kind, values in judge.metrics.latencies.items():
                latencies.setdefault(kind, []).extend(values)
            for kind, counts in judge.metrics.parsed.items():
                parsed.setdefault(kind, collections.Counter()).update(counts)
        return {
            "judge": self.judge_counters() if self.judges else {},
            "latencies": latencies,
            "parsed": {kind: dict(c) for kind, c in parsed.items()},
            "totals": {k: self.totals[k] for k in ("speculated", "speculation_wasted")},
            "guard": dict(getattr(self.grader, "guard_counts", {})),
        }

    def open_kb(self) -> KnowledgeSource | None:
        """Open the KB now (loads the embedding model); raises a clear error if it is missing."""
        with self._kb_lock:
            if self._kb is None and (self.config.factuality.enabled or self.config.grader_aliases == "kb"):
                self._kb = knowledge.open_source(self.config.factuality)
            return self._kb

    async def ensure_retriever(self) -> EvidenceRetriever:
        """The evidence retriever, opening the KB off the event loop the first time."""
        if self.retriever is None:
            if not self._may_open_kb:
                raise NotCachedError("evidence: the knowledge base is not open")
            kb = self._kb
            if kb is None:
                kb = await asyncio.get_running_loop().run_in_executor(None, self.open_kb)
            if self.retriever is not None:  # another sample's request built it while this one waited
                return self.retriever
            fc = self.config.factuality
            cache_dir = fc.cache_dir or (self.judge.config.cache_dir if self.judge is not None else None)
            cache = evidence_cache(cache_dir, self.judge.config.cache if self.judge is not None else None)
            # a custom source's files key its evidence too: a version that stays the same whatever corpus the
            # options name shared one key across corpora (hostile pass 60)
            scope = (knowledge.source_files_key(fc.source_options) if fc.source else None) or ""
            self.retriever = EvidenceRetriever(kb, fc.evidence_k, fc.retrieval_mode, cache, scope=scope)
        return self.retriever

    # -- a dry run ----------------------------------------------------------------------
    async def plan(self, samples: Sequence[Sample]) -> RequestPlan:
        """The judge requests scoring ``samples`` would send, each with its cache key and whether it is cached.

        This engine's own scoring run against a cache-only judge and retriever: nothing is sent or
        searched, nothing is counted in this engine's metrics (``reward_engine.warm`` reports from it).
        """
        plan = RequestPlan(kinds=("grade", "fused") if self.fuser is not None else ("grade", "decompose", "verify"))
        if self.judge is None:
            return plan
        dry_of = {id(j): CacheOnlyJudge(j, plan) for j in self.judges}  # each stage's own cache answers
        dry = RewardEngine(
            self.config,
            self._kb,
            judge=dry_of[id(self.judge)],
            stage_judges={stage: dry_of[id(j)] for stage, j in self.stage_judges.items()},
        )
        dry.retriever = self.retriever.cache_only() if self.retriever is not None else None
        dry._may_open_kb = False
        if getattr(self.grader, "names", None) is not None:
            dry.grader.names = self.grader.names  # the pages this engine read; a plan opens no KB of its own
        dry.speculate = False
        if isinstance(dry.verifier, NLIVerifier):
            dry.facts.verifier = NoVerifier()  # a local model, not a judge request: nothing to plan, nothing to run
        await dry._score(samples, math.inf)
        return plan

    # -- scoring ------------------------------------------------------------------------
    async def score(self, samples: Sequence[Sample], deadline_s: float | None = None) -> list[RewardResult]:
        """One result per sample, in order, within ``deadline_s`` (default: the config's step budget).

        Calls may overlap; ``last_metrics`` is then the latest call's, and its judge counts include the
        requests of calls that overlapped it (read ``judge.metrics`` for totals).
        """
        started = time.perf_counter()
        budget = self.config.step_timeout_s if deadline_s is None else deadline_s
        before = self.judge_counters()
        counters: collections.Counter[str] = collections.Counter()
        _CALL_COUNTERS.set(counters)
        try:
            results = await self._score(samples, budget)
        except Exception as exc:  # noqa: BLE001 - a reward must never crash a training step
            log.exception("reward batch failed; every completion unscored")
            results = [RewardResult(status=Status.ERROR.value, error=f"{type(exc).__name__}: {exc}") for _ in samples]
        self.totals.update(counters)
        self.last_metrics = batch_metrics(
            results,
            len({s.key() for s in samples}),
            {k: v - before.get(k, 0) for k, v in self.judge_counters().items()},
            any(j.breaker.state == "open" for j in self.judges),
            dict(counters),
            time.perf_counter() - started,
        )
        self._warn_if_degraded(self.last_metrics)
        return results

    @staticmethod
    def _warn_if_degraded(m: BatchMetrics) -> None:
        ok = (Status.OK.value, Status.CACHED.value, Status.BAD_INPUT.value)
        if m.statuses.get(Status.BAD_INPUT.value):  # never scored, whatever it says: a caller's row is broken
            log.warning(
                "reward step: %d completions not scored: bad input (see their status and error)",
                m.statuses[Status.BAD_INPUT.value],
            )
        failed = sum(n for s, n in m.statuses.items() if s not in ok)
        if failed or m.retries:
            log.warning(
                "reward step degraded: coverage %.2f, statuses %s, %d judge retries, breaker %s",
                m.coverage,
                m.statuses,
                m.retries,
                "open" if m.breaker_open else "closed",
            )

    async def _score(self, samples: Sequence[Sample], budget: float) -> list[RewardResult]:
        if self.retriever is not None:
            await self.retriever.refresh()
        samples = [s.cleaned() for s in samples]
        keys = [s.key() for s in samples]
        unique: dict[Any, Sample] = {}
        for key, sample in zip(keys, samples):
            unique.setdefault(key, sample)
        results = {key: RewardResult() for key in unique}
        parsed = {key: parse(sample.completion) for key, sample in unique.items()}
        # Critical-path work first: speculative factuality takes its connection slots
        # before the grader calls queue up behind them.
        speculative = {key: self._speculate(sample, parsed[key]) for key, sample in unique.items()}
        jobs = await run_within(
            (self._job(s, parsed[k], speculative[k], results[k]) for k, s in unique.items()), budget
        )
        for job, result in zip(jobs, results.values()):
            if not finished(job):
                result.status = Status.TIMEOUT.value
                result.error = f"not finished within the step budget of {budget:.1f}s"
                result.correctness = result.total = None
        return [results[key] for key in keys]

    async def _job(
        self, sample: Sample, parsed: Parsed, speculative: asyncio.Future | None, result: RewardResult
    ) -> None:
        """One completion, its errors turned into a status; a speculative factuality nobody used is dropped."""
        started = time.perf_counter()
        try:
            await self._run(sample, parsed, speculative, result)
        except BreakerOpenError as exc:
            result.status, result.error = Status.BREAKER_OPEN.value, str(exc)
        except JudgeTimeoutError as exc:
            result.status, result.error = Status.TIMEOUT.value, str(exc)
        except JudgeError as exc:
            result.status, result.error = Status.ERROR.value, str(exc)
        except Exception as exc:  # noqa: BLE001 - one bad completion never sinks the batch
            result.status, result.error = Status.ERROR.value, f"{type(exc).__name__}: {exc}"
        finally:
            result.latency_s = time.perf_counter() - started
            await _drop(speculative)  # done (used) or not wanted; cancelled either way
        if result.status not in (Status.OK.value, Status.CACHED.value, Status.BAD_INPUT.value):
            result.correctness = result.total = None

    async def _run(
        self, sample: Sample, parsed: Parsed, speculative: asyncio.Future | None, result: RewardResult
    ) -> None:
        """The rule's format term, then the stages it asks for, their answers turned into its reward and a status."""
        result.format = self.rule.format(parsed)
        problem = sample.question_problem()
        if problem:
            result.status, result.error = Status.BAD_INPUT.value, problem
            return
        calls = StageCalls(
            sample,
            parsed,
            self.grader,
            self.facts,
            speculative,
            grades_aliases=self.config.grader == "offline",
            max_answer_chars=self.config.max_answer_chars,
        )
        try:
            reward = await self.rule.score(calls)
        finally:  # a grade stands even when a later stage fails
            result.label = None if calls.label is None else calls.label.value
        if reward.bad_input:
            result.status, result.error = Status.BAD_INPUT.value, reward.bad_input
            return
        reward.fill(result)
        result.total = self.rule.total(result.format, reward.correctness)
        if speculative is not None and not calls.asked_facts:
            _CALL_COUNTERS.get()["speculation_wasted"] += 1
        if calls.label is not None and calls.cached and self.config.grader == "llm":
            result.status = Status.CACHED.value

    def _speculate(self, sample: Sample, parsed: Parsed) -> asyncio.Future | None:
        """Start factuality beside the LLM grader when the offline grader already says INCORRECT.

        Cuts a round trip off the step's critical path; when the judge disagrees, work not yet
        sent is cancelled and the miss is counted (``speculation_wasted``).
        """
        if not (self.speculate and self.config.grader == "llm" and self.config.factuality.enabled):
            return None
        if not self.rule.wants_facts(Label.INCORRECT):
            return None  # a wrong answer's fact score is not part of the reward (no grader, or no fact term)
        grade_judge = self.stage_judges.get("grade", self.judge)
        if grade_judge is not None and grade_judge.config.max_in_flight < 2:
            # One request at a time (a local llama.cpp judge): nothing can overlap, and a speculative
            # call, sent ahead of the graders, only delays them (bench/results/real_judge.md).
            return None
        if grade_judge is not None and grade_judge.breaker.state != "closed":
            # Not while the judge is failing: the half-open probe must be a grader call, which is
            # never cancelled by a rejected grader (a dropped speculative probe left no verdict,
            # and the breaker could stay open step after step).
            return None
        if not parsed.has_answer or not isinstance(sample.question, str) or not sample.gold.strip():
            return None
        if offline_grader.grade(parsed.answer or "", sample.answers, sample.question) is not Label.INCORRECT:
            return None
        _CALL_COUNTERS.get()["speculated"] += 1
        return asyncio.ensure_future(self.facts.score(sample, parsed))


async def _drop(task: asyncio.Future | None) -> None:
    if task is not None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
