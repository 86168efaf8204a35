"""Verification: is each claim supported by its evidence passages?"""

from __future__ import annotations

import asyncio
from typing import Protocol, Sequence

from reward_engine.judge.client import JudgeClient, JudgeError
from reward_engine.stages import offline_facts, prompts
from reward_engine.stages.output import FACTS_MAX_TOKENS, JudgeRequest, StageOutput
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


class LLMVerifier:
    """All claims of one completion in one judge call, strict JSON labels back."""

    def __init__(self, judge: JudgeClient, max_tokens: int = FACTS_MAX_TOKENS,
                 template: prompts.Template = prompts.VERIFY) -> None:
        self.judge = judge
        self.max_tokens = max_tokens
        self.template = template

    def request(self, claims: Sequence[str], evidence: Sequence[Sequence[EvidencePassage]]) -> JudgeRequest:
        return JudgeRequest("verify", prompts.verify_messages(claims, evidence, self.template), self.template.version,
                            self.max_tokens, prompts.VERDICTS_SCHEMA)

    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[EvidencePassage]]) -> StageOutput:
        if not claims:
            return StageOutput([])
        n = len(claims)
        req = self.request(claims, evidence)
        reply = await self.judge.complete(
            req.messages, req.template_version,
            validate=lambda t: prompts.parse_verdicts(t, n) is not None, priority=0, **req.send_args(),
        )
        verdicts = prompts.parse_verdicts(reply.text, n)
        if verdicts is None:
            raise JudgeError("verification reply unreadable")
        return StageOutput(verdicts, reply.cached)
