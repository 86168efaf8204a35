"""Decomposition: the reasoning as atomic, self-contained, verifiable claims (FActScore's first step)."""

from __future__ import annotations

import asyncio
from typing import Protocol

from reward_engine import prompts
from reward_engine.offline import facts as offline_facts
from reward_engine.stages.llm_stage import JudgeRequest, LLMStage, StageOutput


class Decomposer(Protocol):
    async def decompose(self, reasoning: str) -> StageOutput[list[str]]: ...


class OfflineDecomposer:
    async def decompose(self, reasoning: str) -> StageOutput:
        return StageOutput(await asyncio.to_thread(offline_facts.decompose, reasoning))


class LLMDecomposer(LLMStage):
    """One judge call per completion (not per sentence), bullet output."""

    kind = "decomposition"
    default_template = prompts.DECOMPOSE

    def request(self, reasoning: str) -> JudgeRequest:
        return JudgeRequest(
            "decompose",
            prompts.decompose_messages(reasoning, self.template),
            self.template.version,
            self.max_tokens,
            prompts.CLAIMS_SCHEMA,
        )

    async def decompose(self, reasoning: str) -> StageOutput:
        """No call for an empty reasoning: it holds no claim, and a small judge asked anyway invents some
        (the 1.5B found 4 "supported" claims in ``<think></think>``: bench/results/real_judge.md)."""
        if not reasoning.strip():
            return StageOutput([], cached=True)
        return await self.ask(self.request(reasoning), prompts.parse_claims)
