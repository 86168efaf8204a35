"""Correctness: SimpleQA-style grading of the answer against the gold target."""

from __future__ import annotations

import asyncio
import collections
import re
from typing import Protocol

from reward_engine import prompts
from reward_engine.judge.protocol import Judge
from reward_engine.labels import Label
from reward_engine.offline import answer_forms, reading
from reward_engine.offline import grader as offline_grader
from reward_engine.stages.grade_guard import (
    SpanCheck,
    SpanVerdict,
    asked_term,
    check_span,
    settle,
    with_approximation,
)
from reward_engine.stages.lead_names import LeadNames
from reward_engine.stages.llm_stage import (
    GRADER_JSON_MAX_TOKENS,
    GRADER_MAX_TOKENS,
    GRADER_SPAN_MAX_TOKENS,
    JudgeRequest,
    StageOutput,
)
from reward_engine.stages.offload import off_loop


def reply_form(template: prompts.Template, structured: bool) -> tuple[dict, int]:
    """(the reply's JSON schema, its token room) for a grader template: a span-quoting grader writes JSON
    with the span, the others one letter (or ``{"grade": ...}`` through a schema)."""
    if template.answer_span:
        return prompts.GRADE_SPAN_SCHEMA, GRADER_SPAN_MAX_TOKENS
    return prompts.GRADE_SCHEMA, GRADER_JSON_MAX_TOKENS if structured else GRADER_MAX_TOKENS


_SETTLE_MEMO = 8_192  # verdicts kept per grader
_SETTLE_MAX_CHARS = 2_000  # longer answers are read again (a memo of megabyte completions would hold them)


class Grader(Protocol):
    async def grade(self, question: str, gold: str, answer: str) -> StageOutput[Label]: ...


# The offline stages are CPU work; a long input is read on a worker thread so the step budget's timer on the
# event loop still fires however long it takes (the late result is discarded): see ``offload``.
class OfflineGrader:
    async def grade(self, question: str, gold: str, answer: str) -> StageOutput:
        return StageOutput(await off_loop(offline_grader.grade, answer, gold, question, chars=len(answer)))


class LLMGrader:
    """SimpleQA-style grading by the judge; only the question (never the chat prompt) is sent.

    With the engine's own template the judge names the answer span it compared with the gold, and
    ``grade_guard.settle`` decides from the span: no answer, several candidates, and a CORRECT kept only
    when the span is confirmed (or the judge grades the span alone CORRECT again); a refused grade takes
    the offline grader's label. ``guard_counts`` says how often each happened. With ``names`` (the
    ``grader_aliases: kb`` setting), an answer the judge calls wrong that commits to one name the gold's own page
    gives as its other name ("Peking" for Beijing) is CORRECT: the knowledge base's word over a small judge's memory.
    """

    compared_alone = False  # True when the judge compared the span with the gold without the rest of the answer

    def __init__(
        self, judge: Judge, template: prompts.Template = prompts.GRADER, names: LeadNames | None = None
    ) -> None:
        self.judge = judge
        self.template = template
        self.names = names
        self.guard_counts: collections.Counter[str] = collections.Counter()
        # settle() is a pure function of its strings: a warm step asks it the same questions again
        self._settled: collections.OrderedDict[tuple, SpanVerdict] = collections.OrderedDict()

    def request(self, question: str, gold: str, answer: str) -> JudgeRequest:
        structured = self.judge.structured
        schema, max_tokens = reply_form(self.template, structured)
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

    async def _settle(self, label: Label, span: str | None, answer: str, gold: str, question: str) -> SpanVerdict:
        """``settle`` remembered per grader (answers up to ``_SETTLE_MAX_CHARS``); a long one is read off the loop."""
        key = (label, span, answer, gold, question)
        keep = len(answer) <= _SETTLE_MAX_CHARS
        if keep and key in self._settled:
            self._settled.move_to_end(key)
            return self._settled[key]
        chars = len(answer) + len(span or "")
        verdict = await off_loop(settle, label, span, answer, gold, question, self.compared_alone, chars=chars)
        if keep:
            self._settled[key] = verdict
            if len(self._settled) > _SETTLE_MEMO:
                self._settled.popitem(last=False)
        return verdict

    async def is_alias(self, answer: str, gold: str) -> bool:
        """Whether the answer commits to one name only, and the gold's page in the knowledge base gives it as the
        gold's other name (False without ``names``); the lookup reads SQLite, so it runs on a worker thread."""
        if self.names is None or not answer.strip():
            return False
        return await asyncio.to_thread(self.names.is_alias, answer, gold)

    async def grade(self, question: str, gold: str, answer: str) -> StageOutput:
        label, span, cached = await self.ask(question, gold, answer)
        return await self.guard(question, gold, answer, label, span, cached)

    async def guard(
        self, question: str, gold: str, answer: str, label: Label, span: str | None, cached: bool = False
    ) -> StageOutput:
        """The judge's grade after the span check (``grade_guard.settle``)."""
        if not self.template.answer_span or label is Label.UNPARSEABLE:
            return StageOutput(label, cached)
        verdict = await self._settle(label, span, answer, gold, question)
        if verdict.check is SpanCheck.ASK and self.compared_alone:
            verdict = SpanVerdict(SpanCheck.CONFIRMED, "the judge compared the span alone", verdict.span)
        elif verdict.check is SpanCheck.ASK and await self.is_alias(answer, gold):
            self.guard_counts["alias"] += 1  # no second call: the gold's page names the answer
            return StageOutput(Label.CORRECT, cached)
        elif (
            verdict.check is SpanCheck.KEPT
            and label is Label.INCORRECT
            and verdict.span
            and not self.compared_alone  # the two-call grader asked before its comparison
            and await self.is_alias(answer, gold)
        ):
            self.guard_counts["alias"] += 1
            return StageOutput(Label.CORRECT, cached)
        if verdict.check is not SpanCheck.KEPT:
            self.guard_counts[verdict.check.value] += 1
        if verdict.check is SpanCheck.MATCHED:
            return StageOutput(Label.CORRECT, cached)
        if verdict.check in (SpanCheck.KEPT, SpanCheck.CONFIRMED):
            return StageOutput(label, cached)
        if verdict.check is SpanCheck.NO_ANSWER:
            return StageOutput(Label.NOT_ATTEMPTED, cached)
        if verdict.check is SpanCheck.SEVERAL:
            return StageOutput(Label.INCORRECT, cached)
        if verdict.check is SpanCheck.ASK:
            # The span alone: whatever else the answer says cannot reach this grading.
            again, again_span, again_cached = await self.ask(question, gold, verdict.span)
            rechecked = check_span(again_span, verdict.span, gold, question)
            if again is Label.CORRECT and rechecked.check is not SpanCheck.REFUSED:
                return StageOutput(Label.CORRECT, cached and again_cached)
            self.guard_counts["overturned"] += 1
            return StageOutput(again if again is not Label.CORRECT else Label.INCORRECT, cached and again_cached)
        return StageOutput(await off_loop(offline_grader.grade, answer, gold, question, chars=len(answer)), cached)


class ReadThenCompareGrader(LLMGrader):
    """The grade in two judge calls (``grader_calls: two``), for small judges that read badly.

    A 1.5B judge asked to read an answer and compare it with the gold at once lets the gold lead its
    reading: it copies the gold as the "span" of a description or of a wrong guess. Here the first call reads
    the answer without the gold (``prompts.READ``: does it name an answer, only describe one, or decline, and
    in which words), and the second sees only those words and the gold: a name is compared with the gold
    (``prompts.COMPARE``), a description is checked for whether the gold fits it (``prompts.FITS``: SimpleQA's
    "too vague" is NOT_ATTEMPTED, a description the gold does not fit is INCORRECT). Nothing else the answer
    says reaches the second call. No second call when the rules already decide: a declined answer, a span the
    offline rules match to the gold, a date or number right or too coarse at the gold's precision.
    ``grade_guard.settle`` then decides as for the one-call grader. bench/results/real_judge.md measures both
    graders on the hand-labelled judge set.
    """

    compared_alone = True

    def __init__(self, judge: Judge, names: LeadNames | None = None) -> None:
        super().__init__(judge, prompts.GRADER, names)

    async def ask(self, question: str, gold: str, answer: str) -> tuple[Label, str | None, bool]:
        """The judge's grade of the span it read (NOT_ATTEMPTED when it read none), the span, cached."""
        structured = self.judge.structured
        read = JudgeRequest(
            "grade",
            prompts.READ.render(**prompts.grader_fields(question, gold, answer)),
            prompts.READ_VERSION,
            GRADER_SPAN_MAX_TOKENS,
            prompts.READ_SCHEMA if structured else None,
        )
        reply = await read.send(self.judge, lambda t: prompts.parse_reading(t) is not None)
        parsed = prompts.parse_reading(reply.text)
        if parsed is None:
            return Label.UNPARSEABLE, None, reply.cached
        kind, span = parsed
        if kind == "declines" or not span.strip():
            return Label.NOT_ATTEMPTED, "", reply.cached
        description = _indefinite(answer, question) if kind == "names" else None
        if description:  # a 1.5B reads "A city in Spain." as naming "A city in Spain" (or "Spain")
            kind, span = "describes", description
        span = with_approximation(span, answer)  # "[around] four thousand": the judge may drop the "around"
        by_rule = await off_loop(_by_rule, span, gold, question, chars=len(span))
        if by_rule is not None:
            return by_rule, span, reply.cached
        if description is None and await self.is_alias(answer, gold):
            return Label.CORRECT, span, reply.cached  # "Peking": the gold's page says so, no second call
        describes = kind == "describes" and (
            description is not None or await off_loop(_only_describes, span, answer, chars=len(span) + len(answer))
        )
        template, parse = (prompts.FITS, prompts.parse_fits) if describes else (prompts.COMPARE, prompts.parse_grade)
        second = JudgeRequest(
            "grade",
            template.render(**prompts.grader_fields(question, gold, _mid_sentence(span) if describes else span)),
            template.version,
            GRADER_JSON_MAX_TOKENS,
            (prompts.FITS_SCHEMA if describes else prompts.COMPARE_SCHEMA) if structured else None,
        )
        again = await second.send(self.judge, lambda t: parse(t) is not Label.UNPARSEABLE)
        return parse(again.text), span, reply.cached and again.cached


def _by_rule(span: str, gold: str, question: str | None = None) -> Label | None:
    """The grade the offline rules give a span without a judge: CORRECT when it matches the gold, and a date
    or number right or too coarse at the gold's precision (in the gold's unit: 42,195 metres is 42.195 km). A
    value the rules call wrong is still sent to the judge (a CORRECT on it is then refused by the guard)."""
    if offline_grader.grade(span, gold, question) is Label.CORRECT:
        return Label.CORRECT
    by_value = offline_grader.value_grade(span, gold, question)
    return by_value if by_value in (Label.CORRECT, Label.NOT_ATTEMPTED) else None


_A_ONE = (  # "a city", "some poet", "one of the islands", "one of Jupiter's moons"
    r"(?:(?:in|on|at|from|near|off) )?(?:an?|some|one of (?:the|its|his|her|their|[A-Z][\w-]*'s)|somewhere|someone"
    r"|somebody) \w"
)
# "It was written by an English novelist.", "He was a French painter.", "It's on one of the islands."
_SAID_OF_IT = re.compile(
    rf"(?i)(?:it|he|she|they|this|that)(?:'s| is| was| are| were)(?: (?:just|only|simply|basically|probably))?"
    rf"(?: \w+(?:ed|en|wn|lt|de))?(?: by)? (?={_A_ONE})"
)
# what makes a description name or state its answer after all: "a man named Orwell", "a French Romantic,
# Delacroix", "a painter (Delacroix)", "like Delacroix", "a physicist Lev Landau", "an eighth of a mile", "a dozen"
_NAMING = re.compile(
    r"\b(?:named|called|known as|titled|by the name)\b"
    r"|(?:[,:(\[\u2013\u2014]|\s-|\b(?:like|such as|namely|probably|maybe|perhaps|possibly|likely))\s*[A-Z][\w'-]"
)
_APPOSED = re.compile(  # a name run closing the phrase right after a noun ("physicist Lev Landau")
    r"\b(?!(?:an?|the|in|of|on|at|from|near|off|by|for|and|to|with|some|one|across|around|outside|beyond|under|over)"
    r"\b)[a-z]+ (?:[A-Z][\w'-]*\s*)+$"
)
_AMOUNT = re.compile(r"(?i)\b(?:%s)s?\b" % "|".join((*answer_forms.FRACTION_PARTS, *answer_forms.COUNT_WORDS)))


def _indefinite(answer: str, question: str | None = None) -> str | None:
    """The description when the whole answer is one indefinite noun phrase ("A city in Spain.", "An Italian
    painter", "Some Roman poet", "Somewhere in the Andes", "A Turkish writer who won the Nobel Prize") or one
    sentence saying only that of what was asked ("It was written by an English novelist in the 1920s.": "an
    English novelist in the 1920s"): it describes what the question asks for and names none. A second sentence,
    a verb outside a relative clause, or a name or amount inside the phrase (``_NAMING``, ``_APPOSED``,
    ``_AMOUNT``) is not one: such an answer is compared as a name, so a guess cannot hide in a description."""
    text = reading.prepare(answer).strip(" .!")
    if re.search(r"[.;!?]", text):
        return None
    said = _SAID_OF_IT.match(text)
    phrase = text[said.end() :] if said else text
    if not re.match(rf"(?i){_A_ONE}", phrase):
        return None
    head = re.split(r"(?i),? (?:who|which|that|whose|where)\b", phrase, maxsplit=1)[0]  # a relative clause describes
    if _NAMING.search(head) or _APPOSED.search(head) or _AMOUNT.search(head):
        return None
    if asked_term(head.split(",")[0], question):
        return None  # "That's a ligament, I think" for what the band is called: the word asked for
    return phrase if not offline_grader.is_statement(head) else None


def _mid_sentence(description: str) -> str:
    """The description as it reads inside a sentence ("Is it true that Barcelona is a city in Spain?")."""
    text = description.strip().rstrip(".")
    return text[:1].lower() + text[1:] if text[1:2].islower() or text[1:2] == " " else text


def _only_describes(span: str, answer: str) -> bool:
    """The answer says nothing the description does not: "Lyon. A city in France." names Lyon, so it is
    compared as a name, and cannot pass a wrong guess off as a description the gold fits."""
    description = offline_grader.normalize(span)
    candidates = reading.read(reading.prepare(answer)).candidates
    return all(offline_grader.normalize(c.text) in description for c in candidates)
