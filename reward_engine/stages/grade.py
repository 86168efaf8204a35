"""Correctness: SimpleQA-style grading of the answer against the gold target."""

from __future__ import annotations

import asyncio
import collections
from typing import Protocol

from reward_engine import prompts
from reward_engine.judge.client import JudgeClient
from reward_engine.labels import Label
from reward_engine.offline import grader as offline_grader
from reward_engine.stages.grade_guard import SpanCheck, check_span
from reward_engine.stages.llm_stage import (
    GRADER_JSON_MAX_TOKENS,
    GRADER_MAX_TOKENS,
    GRADER_SPAN_MAX_TOKENS,
    JudgeRequest,
    StageOutput,
)


class Grader(Protocol):
    async def grade(self, question: str, gold: str, answer: str) -> StageOutput: ...


# The offline stages are CPU work; they run on a worker thread so the step budget's timer on the
# event loop still fires however long one input takes (the late result is discarded).
class OfflineGrader:
    async def grade(self, question: str, gold: str, answer: str) -> StageOutput:
        return StageOutput(await asyncio.to_thread(offline_grader.grade, answer, gold))


class LLMGrader:
    """SimpleQA-style grading by the judge; only the question (never the chat prompt) is sent.

    With the engine's own template the judge names the answer span it graded, and a CORRECT is kept
    only when ``grade_guard`` confirms that span (or the judge grades the span alone CORRECT again);
    a refused CORRECT takes the offline grader's label. ``guard_counts`` says how often each happened.
    """

    def __init__(self, judge: JudgeClient, template: prompts.Template = prompts.GRADER) -> None:
        self.judge = judge
        self.template = template
        self.guard_counts: collections.Counter[str] = collections.Counter()

    def request(self, question: str, gold: str, answer: str) -> JudgeRequest:
        structured = self.judge.structured
        if self.template.answer_span:
            schema, max_tokens = prompts.GRADE_SPAN_SCHEMA, GRADER_SPAN_MAX_TOKENS
        else:
            schema, max_tokens = prompts.GRADE_SCHEMA, GRADER_JSON_MAX_TOKENS if structured else GRADER_MAX_TOKENS
        return JudgeRequest(
            "grade",
            prompts.grader_messages(question, gold, answer, self.template),
            self.template.version,
            max_tokens,
            schema if structured else None,
        )

    async def ask(self, question: str, gold: str, answer: str) -> tuple[Label, str | None, bool]:
        """The judge's own grade, the answer span it names (None if none) and whether it was cached."""
        req = self.request(question, gold, answer)
        reply = await req.send(self.judge, lambda t: prompts.parse_grade(t) is not Label.UNPARSEABLE)
        return prompts.parse_grade(reply.text), prompts.parse_answer_span(reply.text), reply.cached

    async def grade(self, question: str, gold: str, answer: str) -> StageOutput:
        label, span, cached = await self.ask(question, gold, answer)
        return await self.guard(question, gold, answer, label, span, cached)

    async def guard(
        self, question: str, gold: str, answer: str, label: Label, span: str | None, cached: bool = False
    ) -> StageOutput:
        """The judge's grade after the span check (``grade_guard``); only a CORRECT is ever changed."""
        if label is not Label.CORRECT or not self.template.answer_span:
            return StageOutput(label, cached)
        verdict = check_span(span, answer, gold)
        self.guard_counts[verdict.check.value] += 1
        if verdict.check is SpanCheck.CONFIRMED:
            return StageOutput(label, cached)
        if verdict.check is SpanCheck.ASK:
            # The span alone: whatever else the answer says cannot reach this grading.
            again, again_span, again_cached = await self.ask(question, gold, verdict.span)
            if again is Label.CORRECT and check_span(again_span, verdict.span, gold).check is not SpanCheck.REFUSED:
                return StageOutput(Label.CORRECT, cached and again_cached)
            self.guard_counts["overturned"] += 1
            return StageOutput(again if again is not Label.CORRECT else Label.INCORRECT, cached and again_cached)
        return StageOutput(await asyncio.to_thread(offline_grader.grade, answer, gold), cached)
