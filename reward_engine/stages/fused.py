"""Fused factuality: the claims extracted and labelled against evidence in one judge call.

``factuality.mode: fused``. The staged path (KnowRL's) needs two judge round trips after the
grade -- decompose, then verify each claim against the evidence retrieved for it. Here the
evidence is retrieved up front from the row's titles, with the question and each sentence of
the reasoning as queries, and one strict-JSON reply carries the claims with their labels.
With speculation beside the grader a step then costs one round trip.
"""

from __future__ import annotations

from typing import Sequence

from reward_engine.judge.client import JudgeClient, JudgeError
from reward_engine.stages import prompts
from reward_engine.stages.output import FUSED_MAX_TOKENS, JudgeRequest, StageOutput
from reward_engine.stages.prompts import EvidencePassage
from retrieval.text import split_sentences


def evidence_queries(question: str, reasoning: str, max_queries: int) -> list[str]:
    """The searches a fused check's evidence comes from: the question, then the reasoning's sentences.

    >>> evidence_queries("Capital of France?", "Paris is in France. It is large.", 2)
    ['Capital of France?', 'Paris is in France.']
    """
    queries = [question.strip()] + [s.strip() for s in split_sentences(reasoning or "")]
    return list(dict.fromkeys(q for q in queries if q))[:max_queries]


def merge_evidence(per_query: Sequence[Sequence[EvidencePassage]], k: int) -> list[EvidencePassage]:
    """Up to ``k`` distinct passages, round-robin over the queries' rankings (each query's best first).

    >>> p = [EvidencePassage(i, "t", str(i)) for i in range(4)]
    >>> [e.id for e in merge_evidence([[p[0], p[1]], [p[0], p[2], p[3]]], 3)]
    [0, 1, 2]
    """
    out: dict[int, EvidencePassage] = {}
    depth = max((len(r) for r in per_query), default=0)
    for rank in range(depth):
        for ranking in per_query:
            if rank < len(ranking) and len(out) < k:
                out.setdefault(ranking[rank].id, ranking[rank])
    return list(out.values())


class LLMFusedChecker:
    """One judge call per INCORRECT completion: claims + SUPPORTED/NOT_SUPPORTED + cited passage ids."""

    def __init__(self, judge: JudgeClient, max_tokens: int = FUSED_MAX_TOKENS,
                 template: prompts.Template = prompts.FUSED) -> None:
        self.judge = judge
        self.max_tokens = max_tokens
        self.template = template

    def request(self, question: str, reasoning: str, evidence: Sequence[EvidencePassage]) -> JudgeRequest:
        return JudgeRequest("fused", prompts.fused_messages(question, reasoning, evidence, self.template),
                            self.template.version, self.max_tokens, prompts.FUSED_SCHEMA)

    async def check(self, question: str, reasoning: str, evidence: Sequence[EvidencePassage]) -> StageOutput:
        """``StageOutput(list[FusedClaim])``; a reply that never parses raises ``JudgeError`` (never guessed)."""
        ids = [p.id for p in evidence]
        req = self.request(question, reasoning, evidence)
        reply = await self.judge.complete(
            req.messages, req.template_version,
            validate=lambda t: prompts.parse_fused(t, ids) is not None, priority=0, **req.send_args(),
        )
        claims = prompts.parse_fused(reply.text, ids)
        if claims is None:
            raise JudgeError("fused factuality reply unreadable")
        return StageOutput(claims, reply.cached)
