"""The factuality pipeline: one completion's reasoning to its fact score, in one call.

decompose -> select (``claims``: which claims count) -> retrieve (``retrieve``) -> verify (``verify``) -> ground
(``grounding``) -> fact score (``semantics.fact_score``); or, with ``factuality.mode: fused``, evidence first and
claims with their verdicts in one judge call (``fused``). A sample enters once and leaves with its score, its
claims and whether every answer came from a cache; the engine only decides whether to ask (the reward rule's
call) and when (speculation beside the grader).

Binary RAR's check (``verdict``) is the same pipeline's other entry: one statement, the question with the
response, retrieved for and verified once.
"""

from __future__ import annotations

from typing import Awaitable, Callable, NamedTuple, Protocol, Sequence

from retrieval.kb import Passage
from reward_engine.completion import Parsed
from reward_engine.labels import Verdict
from reward_engine.samples import ClaimResult, Sample
from reward_engine.semantics import Semantics, fact_score
from reward_engine.stages.claims import restatements, select_claims
from reward_engine.stages.decompose import Decomposer
from reward_engine.stages.fused import LLMFusedChecker, evidence_query
from reward_engine.stages.grounding import keep_supported
from reward_engine.stages.relevance import Topic
from reward_engine.stages.retrieve import EvidenceRetriever
from reward_engine.stages.verify import Verifier, answer_verdict, rar_statement


class FactCheck(NamedTuple):
    """A completion's fact score, its claims (off-topic ones included, unverified) and whether every judge
    answer behind them came from a cache."""

    score: float
    claims: list[ClaimResult]
    cached: bool


class FactualitySettings(Protocol):
    """The ``factuality`` section of the reward config, as far as the pipeline reads it."""

    enabled: bool
    max_reasoning_chars: int
    retrieval_query: str
    fused_evidence_k: int


NOTHING = FactCheck(0.0, [], True)  # factuality off, or no reasoning: nothing asked, nothing to score


class FactualityPipeline:
    """Decomposer, verifier, fused checker and the retriever (opened by the engine on first use), under one
    preset's claim policy."""

    def __init__(
        self,
        decomposer: Decomposer,
        verifier: Verifier,
        fuser: LLMFusedChecker | None,
        retriever: Callable[[], Awaitable[EvidenceRetriever]],
        settings: FactualitySettings,
        sem: Semantics,
        max_answer_chars: int,
    ) -> None:
        self.decomposer = decomposer
        self.verifier = verifier
        self.fuser = fuser
        self.retriever = retriever
        self.settings = settings
        self.sem = sem
        self.max_answer_chars = max_answer_chars

    async def score(self, sample: Sample, parsed: Parsed) -> FactCheck:
        """The fact score of ``parsed``'s reasoning (0 with factuality off or no claims)."""
        if not self.settings.enabled:
            return NOTHING
        reasoning = parsed.reasoning_cut(self.settings.max_reasoning_chars)
        if not reasoning.strip():  # no reasoning, no claims: the judge is not asked to find some
            return NOTHING
        if self.fuser is not None:
            answer = parsed.answer_cut(self.max_answer_chars)
            return await self._fused(sample, evidence_query(sample.question, answer, reasoning), reasoning)
        decomposed = await self.decomposer.decompose(reasoning)
        claims, off = self._select(decomposed.value, sample)
        off_topic = [ClaimResult(c, None, on_topic=False) for c in off]
        if not claims:
            return FactCheck(0.0, off_topic, decomposed.cached)
        evidence = await (await self.retriever()).retrieve(claims, sample.title_text, self.topic(sample))
        verified = await self.verifier.verify(claims, evidence)
        flags = await self._grounded(verified.value, claims, sample, evidence, reasoning)
        again = self._restated(claims, flags, evidence)
        results = [
            ClaimResult(c, ok, [p.id for p in passages], restates=r)
            for c, ok, passages, r in zip(claims, flags, evidence, again)
        ]
        score = fact_score(sum(flags) - sum(again), len(claims) - sum(again), self.sem)
        return FactCheck(score, results + off_topic, decomposed.cached and verified.cached)

    async def verdict(self, sample: Sample, response: str) -> tuple[Verdict, ClaimResult, bool]:
        """Binary RAR's one check: ``response`` with its question against the passages retrieved for the two
        (the query is the question, then the response: Binary RAR searches documents fetched for the prompt, and
        a short wrong answer alone, "Lyon", finds nothing in the title's passages to be contradicted by), and for
        the question alone;
        (verdict, the statement as a claim, cached)."""
        question = (sample.question or "").strip() or None
        # and the question alone: a long answer's own words must not pull the evidence to what it names ("Lyon, on
        # the Rhone and the Saone, home of Lyonnaise cuisine" found only Lyon's passages: hostile pass 10)
        queries = [response, question] if question else [response]
        found_sets = await (await self.retriever()).retrieve(queries, sample.title_text, question)
        evidence = list({p.id: p for found in found_sets for p in found}.values())
        found = await answer_verdict(self.verifier, sample.question, response, evidence)
        verdict: Verdict = found.value
        statement = rar_statement(sample.question, response)
        return verdict, ClaimResult(statement, verdict is Verdict.SUPPORTED, [p.id for p in evidence]), found.cached

    def topic(self, sample: Sample) -> str | None:
        """The words put before each claim in its evidence query (FActScore's topic): the row's title string,
        else the question; None with ``retrieval_query: claim``."""
        if self.settings.retrieval_query != "topic+claim":
            return None
        return sample.title_text.strip() or (sample.question or "").strip() or None

    async def _fused(self, sample: Sample, query: str, reasoning: str) -> FactCheck:
        """Evidence first (no judge), then one call that extracts and labels the claims."""
        assert self.fuser is not None
        evidence = await (await self.retriever()).pool(query, sample.title_text, self.settings.fused_evidence_k)
        checked = await self.fuser.check(sample.question, reasoning, evidence)
        found = checked.value
        kept, off = self._select([c.text for c in found], sample)
        by_text = {c.text: c for c in found}
        supported = [by_text[t].supported for t in kept]
        flags = await self._grounded(supported, kept, sample, [evidence] * len(kept), reasoning)
        again = self._restated(kept, flags, [evidence] * len(kept))
        results = [
            ClaimResult(t, ok, list(by_text[t].evidence_ids), restates=r) for t, ok, r in zip(kept, flags, again)
        ]
        results += [ClaimResult(t, None, on_topic=False) for t in off]
        score = fact_score(sum(flags) - sum(again), len(kept) - sum(again), self.sem) if kept else 0.0
        return FactCheck(score, results, checked.cached)

    async def _grounded(
        self,
        flags: Sequence[bool],
        claims: Sequence[str],
        sample: Sample,
        evidence: Sequence[Sequence[Passage]],
        reasoning: str,
    ) -> list[bool]:
        """The verifier's flags, a supported claim kept only when the completion stated it and it is grounded in
        the topic's evidence (preset ``grounding: topic``; see ``grounding``): with a title, the title's passages
        the verifier saw; without one, those of the passages retrieved for the question itself that name its
        topic (one search per prompt, memoised)."""
        if self.sem.grounding != "topic" or not any(flags):
            return list(flags)
        topic = Topic(sample.question, sample.title_text)
        untitled = not sample.title_text.strip()
        if untitled:
            retriever = await self.retriever()
            found = await retriever.pool(sample.question or "", "", self.settings.fused_evidence_k)
            evidence = [found] * len(claims)
        return keep_supported(flags, claims, evidence, reasoning, topic, search_hits=untitled)

    def _restated(
        self, claims: Sequence[str], flags: Sequence[bool], evidence: Sequence[Sequence[Passage]]
    ) -> list[bool]:
        """Supported claims that only restate another, left out of the fact score under ``claim_dedupe: words``
        (see ``claims.restatements``); none under FActScore's rule."""
        if self.sem.claim_dedupe != "words" or sum(flags) < 2:
            return [False] * len(claims)
        return restatements(claims, flags, [[p.text for p in passages] for passages in evidence])

    def _select(self, claims: Sequence[str], sample: Sample) -> tuple[list[str], list[str]]:
        """(claims the fact score counts, off-topic claims): see ``claims``."""
        return select_claims(claims, sample.question, sample.title_text, self.sem)
