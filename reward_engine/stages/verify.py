"""Verification: is each claim supported by its evidence passages?"""

from __future__ import annotations

import asyncio
from typing import Protocol, Sequence

from reward_engine.stages import offline_facts, prompts
from reward_engine.stages.output import JudgeRequest, LLMStage, StageOutput
from reward_engine.stages.prompts import EvidencePassage


class Verifier(Protocol):
    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[EvidencePassage]]) -> StageOutput: ...


class OfflineVerifier:
    """Word-and-number coverage of the claim by one evidence passage (see offline_facts)."""

    def __init__(self, threshold: float = 0.75) -> None:
        self.threshold = threshold

    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[EvidencePassage]]) -> StageOutput:
        texts = [[p.text for p in passages] for passages in evidence]
        return StageOutput(await asyncio.to_thread(
            lambda: [offline_facts.supported(c, t, self.threshold) for c, t in zip(claims, texts)]))


class LLMVerifier(LLMStage):
    """All claims of one completion in one judge call, strict JSON labels back."""

    kind = "verification"
    default_template = prompts.VERIFY

    def request(self, claims: Sequence[str], evidence: Sequence[Sequence[EvidencePassage]]) -> JudgeRequest:
        return JudgeRequest("verify", prompts.verify_messages(claims, evidence, self.template), self.template.version,
                            self.max_tokens, prompts.VERDICTS_SCHEMA)

    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[EvidencePassage]]) -> StageOutput:
        if not claims:
            return StageOutput([])
        return await self.ask(self.request(claims, evidence), lambda t: prompts.parse_verdicts(t, len(claims)))
