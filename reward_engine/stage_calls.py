"""The stages one completion's reward rule asks for, run by the engine (``rules.base.Stages``).

Each ask goes to its stage once: the grader, the factuality pipeline (or the fact check the engine already
started beside the grader), Binary RAR's verdict. What the engine needs afterwards is kept here: whether every
answer came from a cache (status ``cached``) and whether the fact score was asked (a speculation wasted or not).
"""

from __future__ import annotations

import asyncio

from reward_engine.completion import Parsed
from reward_engine.labels import Label, Verdict
from reward_engine.samples import ClaimResult, Sample
from reward_engine.stages.factuality import FactCheck, FactualityPipeline
from reward_engine.stages.grade import Grader


class StageCalls:
    """One completion's stages, as its rule sees them."""

    def __init__(
        self,
        sample: Sample,
        parsed: Parsed,
        grader: Grader,
        facts: FactualityPipeline,
        speculative: asyncio.Future | None,
        *,
        grades_aliases: bool,
        max_answer_chars: int,
    ) -> None:
        """``grades_aliases``: the grader reads the gold's alias list (the offline rules), not one joined string
        (an LLM judge's prompt)."""
        self.sample = sample
        self.parsed = parsed
        self.answer = parsed.answer_cut(max_answer_chars)
        self.facts_enabled = facts.settings.enabled
        self._grader = grader
        self._facts = facts
        self._speculative = speculative
        self._aliases = grades_aliases
        self.label: Label | None = None
        self.cached = True  # every answer so far came from a cache
        self.asked_facts = False

    async def grade(self, answer: str) -> Label:
        gold = self.sample.answers if self._aliases else self.sample.gold
        graded = await self._grader.grade(self.sample.question, gold, answer)
        assert isinstance(graded.value, Label)
        self.label = graded.value
        self.cached = self.cached and graded.cached
        return graded.value

    async def facts(self) -> FactCheck:
        self.asked_facts = True
        found = await (self._speculative or self._facts.score(self.sample, self.parsed))
        self.cached = self.cached and found.cached
        return found

    async def verdict(self, response: str) -> tuple[Verdict, ClaimResult]:
        verdict, claim, cached = await self._facts.verdict(self.sample, response)
        self.cached = self.cached and cached
        return verdict, claim
