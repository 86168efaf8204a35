"""Binary RAR as released (chentong0/rl-binary-rar; preset ``binary-rar``): the response after ``</think>``
(here its answer block) with the question, one verdict against the top-k passages retrieved for the two;
1 unless contradicted. No grader, no gold; a completion with nothing to verify (cut off, no or an empty
answer) scores 0, as their truncated rollouts do. The verdict is the verifier's (``stages.verify.answer_verdict``:
its own ``answer_verdict`` when it has one, as the offline verifier does, else ``verdicts`` on the statement)."""

from __future__ import annotations

from typing import Any

from reward_engine.labels import Verdict
from reward_engine.rules.base import Reward, RewardRule, Stages
from reward_engine.semantics import binary_rar


class BinaryRarRule(RewardRule):
    """1 / 0 by one verdict on the response (a verifier that gives none leaves it unscored)."""

    name = "binary_rar"

    def check(self, config: Any) -> None:
        if not config.factuality.enabled or config.factuality.mode != "staged":
            raise ValueError(
                "Binary RAR needs three-way verdicts from the verifier stage: set factuality.enabled true and "
                "factuality.mode 'staged' (verifier 'nli' or 'llm'; 'offline' catches a wrong name, a list holding "
                "one, a negated answer and a value off the evidence's, nothing subtler)"
            )

    async def score(self, stages: Stages) -> Reward:
        if not stages.parsed.has_answer:
            return Reward(binary_rar(1))  # scored as a contradiction: 0
        verdict, claim = await stages.verdict(stages.answer)
        return Reward(binary_rar(int(verdict is Verdict.CONTRADICTED)), claims=[claim])
