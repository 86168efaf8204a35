"""The grader's label alone (presets ``truthrl``, ``truthrl-strict``, ``threshold``): +1 right, 0 abstaining,
a wrong answer, no answer or an unreadable grade as the preset's wrong; no fact term, and the presets' format
term is 0."""

from __future__ import annotations

from typing import Any

from reward_engine.offline.gold import gold_problem
from reward_engine.rules.base import Reward, RewardRule, Stages
from reward_engine.rules.grading import label_answer
from reward_engine.semantics import label_reward


class TernaryRule(RewardRule):
    """TruthRL's ternary reward, and Kalai et al.'s confidence target as its generalisation (``threshold_t``)."""

    name = "ternary"

    def check(self, config: Any) -> None:
        if self.sem.fact_weight != 0:
            raise ValueError(
                "rule 'ternary' pays the grader's label alone: drop semantics.fact_weight (or use rule 'graded' for "
                "a fact term)"
            )

    async def score(self, stages: Stages) -> Reward:
        if not stages.parsed.has_answer:
            return Reward(self.sem.no_answer)
        problem = gold_problem(stages.sample.answers)
        if problem:
            return Reward.refused(problem)
        label = await label_answer(stages, self.sem)
        return Reward(label_reward(label, self.sem))
