"""Correctness: SimpleQA-style grading of the answer against the gold target."""

from __future__ import annotations

import asyncio
import collections
from typing import Protocol

from reward_engine import prompts
from reward_engine.judge.client import JudgeClient
from reward_engine.labels import Label
from reward_engine.offline import grader as offline_grader
from reward_engine.stages.grade_guard import SpanCheck, SpanVerdict, check_span, settle
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

    With the engine's own template the judge names the answer span it compared with the gold, and
    ``grade_guard.settle`` decides from the span: no answer, several candidates, and a CORRECT kept only
    when the span is confirmed (or the judge grades the span alone CORRECT again); a refused grade takes
    the offline grader's label. ``guard_counts`` says how often each happened.
    """

    compared_alone = False  # True when the judge compared the span with the gold without the rest of the answer

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
        """The judge's grade after the span check (``grade_guard.settle``)."""
        if not self.template.answer_span or label is Label.UNPARSEABLE:
            return StageOutput(label, cached)
        verdict = await asyncio.to_thread(settle, label, span, answer, gold)  # offline reading: off the loop
        if verdict.check is SpanCheck.ASK and self.compared_alone:
            verdict = SpanVerdict(SpanCheck.CONFIRMED, "the judge compared the span alone", verdict.span)
        if verdict.check is not SpanCheck.KEPT:
            self.guard_counts[verdict.check.value] += 1
        if verdict.check in (SpanCheck.KEPT, SpanCheck.CONFIRMED):
            return StageOutput(label, cached)
        if verdict.check is SpanCheck.NO_ANSWER:
            return StageOutput(Label.NOT_ATTEMPTED, cached)
        if verdict.check is SpanCheck.SEVERAL:
            return StageOutput(Label.INCORRECT, cached)
        if verdict.check is SpanCheck.ASK:
            # The span alone: whatever else the answer says cannot reach this grading.
            again, again_span, again_cached = await self.ask(question, gold, verdict.span)
            if again is Label.CORRECT and check_span(again_span, verdict.span, gold).check is not SpanCheck.REFUSED:
                return StageOutput(Label.CORRECT, cached and again_cached)
            self.guard_counts["overturned"] += 1
            return StageOutput(again if again is not Label.CORRECT else Label.INCORRECT, cached and again_cached)
        return StageOutput(await asyncio.to_thread(offline_grader.grade, answer, gold), cached)


class ReadThenCompareGrader(LLMGrader):
    """The grade in two judge calls (``grader_calls: two``), for small judges that read badly.

    A 1.5B judge asked to read an answer and compare it with the gold at once lets the gold lead its
    reading: it copies the gold as the "span" of a description or of a wrong guess. Here the first call reads
    the answer without the gold (``prompts.READ``), and the second compares only the span it copied with the
    gold (``prompts.COMPARE``): nothing else the answer says reaches the comparison. A span the offline rules
    already match to the gold, and an empty one, need no second call. ``grade_guard.settle`` then decides as
    for the one-call grader. bench/results/real_judge.md measures both on the hand-labelled judge set.
    """

    compared_alone = True

    def __init__(self, judge: JudgeClient) -> None:
        super().__init__(judge, prompts.GRADER)

    async def ask(self, question: str, gold: str, answer: str) -> tuple[Label, str | None, bool]:
        """The judge's comparison of the span it read (NOT_ATTEMPTED when it read none), the span, cached."""
        structured = self.judge.structured
        fields = prompts.grader_fields(question, gold, answer)
        read = JudgeRequest(
            "grade",
            prompts.READ.render(**fields),
            prompts.READ_VERSION,
            GRADER_SPAN_MAX_TOKENS,
            prompts.READ_SCHEMA if structured else None,
        )
        reply = await read.send(self.judge, lambda t: prompts.parse_answer_span(t) is not None)
        span = prompts.parse_answer_span(reply.text)
        if span is None:
            return Label.UNPARSEABLE, None, reply.cached
        if not span.strip():
            return Label.NOT_ATTEMPTED, "", reply.cached
        if await asyncio.to_thread(offline_grader.grade, span, gold) is Label.CORRECT:
            return Label.CORRECT, span, reply.cached
        compare = JudgeRequest(
            "grade",
            prompts.COMPARE.render(**prompts.grader_fields(question, gold, span)),
            prompts.COMPARE_VERSION,
            GRADER_JSON_MAX_TOKENS,
            prompts.COMPARE_SCHEMA if structured else None,
        )
        again = await compare.send(self.judge, lambda t: prompts.parse_grade(t) is not Label.UNPARSEABLE)
        return prompts.parse_grade(again.text), span, reply.cached and again.cached
