"""Correctness: SimpleQA-style grading of the answer against the gold target."""

from __future__ import annotations

import asyncio
from typing import Protocol

from reward_engine import prompts
from reward_engine.judge.client import JudgeClient
from reward_engine.labels import Label
from reward_engine.offline import grader as offline_grader
from reward_engine.stages.llm_stage import GRADER_JSON_MAX_TOKENS, GRADER_MAX_TOKENS, JudgeRequest, StageOutput


class Grader(Protocol):
    async def grade(self, question: str, gold: str, answer: str) -> StageOutput: ...


# The offline stages are CPU work; they run on a worker thread so the step budget's timer on the
# event loop still fires however long one input takes (the late result is discarded).
class OfflineGrader:
    async def grade(self, question: str, gold: str, answer: str) -> StageOutput:
        return StageOutput(await asyncio.to_thread(offline_grader.grade, answer, gold))


class LLMGrader:
    """SimpleQA-style grading by the judge; only the question (never the chat prompt) is sent."""

    def __init__(self, judge: JudgeClient, template: prompts.Template = prompts.GRADER) -> None:
        self.judge = judge
        self.template = template

    def request(self, question: str, gold: str, answer: str) -> JudgeRequest:
        structured = self.judge.structured
        return JudgeRequest(
            "grade",
            prompts.grader_messages(question, gold, answer, self.template),
            self.template.version,
            GRADER_JSON_MAX_TOKENS if structured else GRADER_MAX_TOKENS,
            prompts.GRADE_SCHEMA if structured else None,
        )

    async def grade(self, question: str, gold: str, answer: str) -> StageOutput:
        req = self.request(question, gold, answer)
        reply = await req.send(self.judge, lambda t: prompts.parse_grade(t) is not Label.UNPARSEABLE)
        return StageOutput(prompts.parse_grade(reply.text), reply.cached)
