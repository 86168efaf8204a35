"""Fused factuality: the claims extracted and labelled against evidence in one judge call.

``factuality.mode: fused``. The staged path (KnowRL's) needs two judge round trips after the
grade -- decompose, then verify each claim against the evidence retrieved for it. Here the
evidence is retrieved up front from the row's titles, with the question and each sentence of
the reasoning as queries, and one strict-JSON reply carries the claims with their labels.
With speculation beside the grader a step then costs one round trip.
"""

from __future__ import annotations

from typing import Sequence

from retrieval.kb import Passage
from reward_engine import prompts
from reward_engine.stages.llm_stage import FUSED_MAX_TOKENS, JudgeRequest, LLMStage, StageOutput


def evidence_query(question: str, answer: str, reasoning: str, max_chars: int = 2000) -> str:
    """The one search a fused check's evidence comes from when the row's titles are long or missing.

    >>> evidence_query("Capital of France?", "Lyon", "Paris is in France.")
    'Capital of France? Lyon Paris is in France.'
    """
    return " ".join(t.strip() for t in (question, answer, reasoning) if t and t.strip())[:max_chars]


class LLMFusedChecker(LLMStage):
    """One judge call per INCORRECT completion: claims + SUPPORTED/NOT_SUPPORTED + cited passage ids."""

    kind = "fused factuality"
    default_template = prompts.FUSED
    default_max_tokens = FUSED_MAX_TOKENS

    def request(self, question: str, reasoning: str, evidence: Sequence[Passage]) -> JudgeRequest:
        return JudgeRequest(
            "fused",
            prompts.fused_messages(question, reasoning, evidence, self.template),
            self.template.version,
            self.max_tokens,
            prompts.FUSED_SCHEMA,
        )

    async def check(
        self, question: str, reasoning: str, evidence: Sequence[Passage]
    ) -> StageOutput[list[prompts.FusedClaim]]:
        """The claims found in ``reasoning``, each labelled against ``evidence``."""
        ids = [p.id for p in evidence]
        return await self.ask(self.request(question, reasoning, evidence), lambda t: prompts.parse_fused(t, ids))
