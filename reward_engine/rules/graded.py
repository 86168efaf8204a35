"""KnowRL's reward (presets ``knowrl``, ``knowrl-robust``, ``knowrl-june2025``): the grader's label, plus the
fact score where the preset adds it (a wrong answer; no or an empty answer; under June 2025 a refusal too)."""

from __future__ import annotations

from reward_engine.labels import Label
from reward_engine.offline.gold import gold_problem
from reward_engine.rules.base import Reward, RewardRule, Stages
from reward_engine.rules.grading import label_answer
from reward_engine.semantics import combine, no_answer_reward, uses_fact


class GradedRule(RewardRule):
    """+2 / +1 / −1 (+ fact score) under the released constants; the format term beside it."""

    name = "graded"

    def wants_facts(self, label: Label | None) -> bool:
        return uses_fact(label, self.sem)

    async def score(self, stages: Stages) -> Reward:
        if not stages.parsed.has_answer:
            return await self._no_answer(stages)
        problem = gold_problem(stages.sample.answers)
        if problem:
            return Reward.refused(problem)
        label = await label_answer(stages, self.sem)
        if not self.wants_facts(label):
            return Reward(combine(label, None, self.sem))
        if not stages.facts_enabled:  # factuality off: the fact term is 0, nothing asked (no fact score reported)
            return Reward(combine(label, 0.0, self.sem))
        fact, claims, _ = await stages.facts()
        return Reward(combine(label, fact, self.sem), fact, claims)

    async def _no_answer(self, stages: Stages) -> Reward:
        """No grader call: ``no_answer``, plus the reasoning's fact score where the preset pays it (KnowRL: a
        completion cut off mid-<think> still has its reasoning checked)."""
        if not (self.wants_facts(None) and stages.facts_enabled):
            return Reward(no_answer_reward(0.0, self.sem))
        fact, claims, _ = await stages.facts()
        return Reward(no_answer_reward(fact, self.sem), fact_score=fact, claims=claims)
