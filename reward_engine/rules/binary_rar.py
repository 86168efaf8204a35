"""Binary RAR as released (chentong0/rl-binary-rar; preset ``binary-rar``): the response after ``</think>``
(its answer block and any text after the block) with the question, one verdict against the top-k passages
retrieved for the two; 1 unless contradicted. No grader, no gold; a completion with nothing to verify (cut off,
no or an empty answer) scores 0, as their truncated rollouts do. The verdict is the verifier's
(``stages.verify.answer_verdict``: its own ``answer_verdict`` when it has one, as the offline verifier does, else
``verdicts`` on the statement)."""

from __future__ import annotations

from typing import Any

from reward_engine.labels import Verdict
from reward_engine.offline.text_form import is_statement
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
        verdict, claim = await stages.verdict(_response(stages.answer, stages.parsed.after))
        return Reward(binary_rar(int(verdict is Verdict.CONTRADICTED)), claims=[claim])


def _response(answer: str, after: str) -> str:
    """The response after ``</think>``, as released: a statement after the answer block is verified with it, as
    its own sentence (hostile pass 12: "</answer> The Eiffel Tower was completed in 1901." cost nothing); a
    question or a pleasantry after it ("Anything else?", "Hope this helps.") states nothing to verify."""
    if not after or not is_statement(after):
        return answer
    return f"{answer.rstrip().rstrip('.')}. {after}"
