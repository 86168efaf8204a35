"""Decomposition: the reasoning as atomic, self-contained, verifiable claims (FActScore's first step)."""

from __future__ import annotations

import asyncio
from typing import Protocol

from reward_engine.judge.client import JudgeClient, JudgeError
from reward_engine.stages import offline_facts, prompts
from reward_engine.stages.output import FACTS_MAX_TOKENS, JudgeRequest, StageOutput


class Decomposer(Protocol):
    async def decompose(self, reasoning: str) -> StageOutput: ...


class OfflineDecomposer:
    async def decompose(self, reasoning: str) -> StageOutput:
        return StageOutput(await asyncio.to_thread(offline_facts.decompose, reasoning))


class LLMDecomposer:
    """One judge call per completion (not per sentence), bullet output."""

    def __init__(self, judge: JudgeClient, max_tokens: int = FACTS_MAX_TOKENS,
                 template: prompts.Template = prompts.DECOMPOSE) -> None:
        self.judge = judge
        self.max_tokens = max_tokens
        self.template = template

    def request(self, reasoning: str) -> JudgeRequest:
        return JudgeRequest("decompose", prompts.decompose_messages(reasoning, self.template), self.template.version,
                            self.max_tokens, prompts.CLAIMS_SCHEMA)

    async def decompose(self, reasoning: str) -> StageOutput:
        req = self.request(reasoning)
        reply = await self.judge.complete(
            req.messages, req.template_version,
            validate=lambda t: prompts.parse_claims(t) is not None, priority=0, **req.send_args(),
        )
        claims = prompts.parse_claims(reply.text)
        if claims is None:  # validate() already retried; never guess
            raise JudgeError("decomposition reply unreadable")
        return StageOutput(claims, reply.cached)
