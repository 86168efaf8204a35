"""The four stages of the reward, each with an LLM (judge) and an offline implementation.

grade -> decompose -> retrieve -> verify, FActScore-shaped. Every stage is an object with
one async method, so the engine composes them without knowing which kind it has.
Judge-backed stages send one call per completion (decompose, verify) or per answer
(grade); offline stages run in an executor when they touch the KB or a model.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from typing import Protocol, Sequence

from reward_engine import offline_facts, offline_grader, prompts
from reward_engine.judge_client import JudgeClient, JudgeError
from reward_engine.labels import Label
from reward_engine.prompts import EvidencePassage


@dataclass
class StageOutput:
    """A stage's value plus whether it came from the cache (for status and metrics)."""

    value: object
    cached: bool = False


class Grader(Protocol):
    async def grade(self, question: str, gold: str, answer: str) -> StageOutput: ...


class Decomposer(Protocol):
    async def decompose(self, reasoning: str) -> StageOutput: ...


class Verifier(Protocol):
    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[EvidencePassage]]) -> StageOutput: ...


# -- grading ------------------------------------------------------------------------------
class OfflineGrader:
    async def grade(self, question: str, gold: str, answer: str) -> StageOutput:
        return StageOutput(offline_grader.grade(answer, gold))


class LLMGrader:
    """SimpleQA-style grading by the judge; only the question (never the chat prompt) is sent."""

    def __init__(self, judge: JudgeClient) -> None:
        self.judge = judge

    async def grade(self, question: str, gold: str, answer: str) -> StageOutput:
        reply = await self.judge.complete(
            prompts.grader_messages(question, gold, answer), prompts.GRADER_VERSION,
            validate=lambda t: prompts.parse_grade(t) is not Label.UNPARSEABLE, max_tokens=4,
        )
        return StageOutput(prompts.parse_grade(reply.text), reply.cached)


# -- decomposition ------------------------------------------------------------------------
class OfflineDecomposer:
    async def decompose(self, reasoning: str) -> StageOutput:
        return StageOutput(offline_facts.decompose(reasoning))


class LLMDecomposer:
    def __init__(self, judge: JudgeClient, max_tokens: int = 512) -> None:
        self.judge = judge
        self.max_tokens = max_tokens

    async def decompose(self, reasoning: str) -> StageOutput:
        reply = await self.judge.complete(
            prompts.decompose_messages(reasoning), prompts.DECOMPOSE_VERSION,
            validate=lambda t: prompts.parse_claims(t) is not None, max_tokens=self.max_tokens,
        )
        claims = prompts.parse_claims(reply.text)
        if claims is None:  # validate() already retried; never guess
            raise JudgeError("decomposition reply unreadable")
        return StageOutput(claims, reply.cached)


# -- verification -------------------------------------------------------------------------
class OfflineVerifier:
    """Word-and-number coverage of the claim by one evidence passage (see offline_facts)."""

    def __init__(self, threshold: float = 0.75) -> None:
        self.threshold = threshold

    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[EvidencePassage]]) -> StageOutput:
        return StageOutput([
            offline_facts.supported(claim, [p.text for p in passages], self.threshold)
            for claim, passages in zip(claims, evidence)
        ])


class LLMVerifier:
    """All claims of one completion in one judge call, strict JSON labels back."""

    def __init__(self, judge: JudgeClient, max_tokens: int = 512) -> None:
        self.judge = judge
        self.max_tokens = max_tokens

    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[EvidencePassage]]) -> StageOutput:
        if not claims:
            return StageOutput([])
        n = len(claims)
        reply = await self.judge.complete(
            prompts.verify_messages(claims, evidence), prompts.VERIFY_VERSION,
            validate=lambda t: prompts.parse_verdicts(t, n) is not None, max_tokens=self.max_tokens,
        )
        verdicts = prompts.parse_verdicts(reply.text, n)
        if verdicts is None:
            raise JudgeError("verification reply unreadable")
        return StageOutput(verdicts, reply.cached)


# -- retrieval ----------------------------------------------------------------------------
class EvidenceRetriever:
    """Evidence per claim from the KB: the row's titles first, global hybrid search otherwise.

    Searches run in the default executor (embedding and FAISS are CPU work); results are
    memoised per (claim, titles) for the life of the engine.
    """

    def __init__(self, kb: object, k: int = 5, mode: str = "hybrid", memo_size: int = 100_000) -> None:
        self.kb = kb
        self.k = k
        self.mode = mode
        self._memo: dict[tuple[str, str], list[EvidencePassage]] = {}
        self._memo_size = memo_size
        self._lock = threading.Lock()

    def _search(self, claims: Sequence[str], titles: str) -> list[list[EvidencePassage]]:
        out = []
        for claim in claims:
            key = (claim, titles)
            hit = self._memo.get(key)
            if hit is None:
                result = self.kb.search(claim, titles=titles, k=self.k, mode=self.mode)  # type: ignore[attr-defined]
                hit = [EvidencePassage(h.passage.id, h.passage.title, h.passage.text) for h in result.hits]
                with self._lock:
                    if len(self._memo) >= self._memo_size:
                        self._memo.pop(next(iter(self._memo)))
                    self._memo[key] = hit
            out.append(hit)
        return out

    async def retrieve(self, claims: Sequence[str], titles: str) -> list[list[EvidencePassage]]:
        if not claims:
            return []
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self._search, list(claims), titles or "")
