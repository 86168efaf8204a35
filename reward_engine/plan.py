"""Plan a batch's judge requests without sending any: what ``warm`` reports and fills.

The requests are built by the engine's own stages from the engine's own (truncated)
inputs, so a planned request's cache key is the key the engine will look up. A stage
whose input depends on an earlier judge answer (decomposition needs an INCORRECT grade,
verification needs claims and evidence, a fused check needs its evidence) is planned only
when that answer is cached: the plan is what is known before calling.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from reward_engine.completion import parse
from reward_engine.labels import Label
from reward_engine.stages import offline_grader, prompts
from reward_engine.stages.decompose import LLMDecomposer
from reward_engine.stages.grade import LLMGrader
from reward_engine.stages.output import JudgeRequest
from reward_engine.stages.verify import LLMVerifier

if TYPE_CHECKING:
    from reward_engine.engine import RewardEngine
    from reward_engine.samples import Sample

KINDS = ("grade", "decompose", "verify", "fused")
REPORTED = {"grade": "grader", "decompose": "decomposition", "verify": "verification", "fused": "fused"}


@dataclass(frozen=True)
class PlannedRequest:
    request: JudgeRequest
    key: str  # the judge cache key (never holds a secret)
    cached: bool


@dataclass
class RequestPlan:
    requests: list[PlannedRequest] = field(default_factory=list)
    kinds: tuple[str, ...] = ("grade", "decompose", "verify")  # the judge stages the engine uses

    def needed(self, kind: str) -> int:
        return sum(p.request.kind == kind for p in self.requests)

    def hit_rate(self, kind: str) -> float | None:
        """Cached share of the requests of one kind (None when none is needed)."""
        n = self.needed(kind)
        return round(sum(p.cached for p in self.requests if p.request.kind == kind) / n, 4) if n else None

    def summary(self) -> dict[str, Any]:
        """Hit rate and requests needed per judge stage the engine uses."""
        return {**{REPORTED[k]: self.hit_rate(k) for k in self.kinds},
                "needed": {REPORTED[k]: self.needed(k) for k in self.kinds}}


def _planned(engine: "RewardEngine", request: JudgeRequest) -> tuple[PlannedRequest, str | None]:
    judge = engine.judge
    assert judge is not None
    reply = judge.cached(request.messages, request.template_version, **request.send_args())
    key = judge.key_for(request.messages, request.template_version, request.max_tokens, schema=request.schema)
    return PlannedRequest(request, key, reply is not None), reply


def plan_requests(engine: "RewardEngine", samples: Sequence["Sample"]) -> RequestPlan:
    """One entry per distinct judge request scoring ``samples`` (cleaned) would send, in scoring order:
    identical samples are scored once, and identical requests are sent once."""
    plan = RequestPlan(kinds=("grade", "fused") if engine.fuser is not None else ("grade", "decompose", "verify"))
    seen: set[str] = set()

    def add(request: JudgeRequest) -> str | None:
        planned, reply = _planned(engine, request)
        if planned.key not in seen:  # the judge client sends identical calls once (cache or in flight)
            seen.add(planned.key)
            plan.requests.append(planned)
        return reply

    if engine.judge is None:
        return plan
    for sample in {s.key(): s for s in samples}.values():  # the engine scores identical samples once
        parsed = parse(sample.completion)
        if not isinstance(sample.question, str) or not parsed.has_answer or not sample.gold.strip():
            continue
        label: Label | None = None
        if isinstance(engine.grader, LLMGrader):
            reply = add(engine.grader.request(sample.question, sample.gold, engine.grader_answer(parsed)))
            label = prompts.parse_grade(reply) if reply is not None else None
        else:
            label = offline_grader.grade(engine.grader_answer(parsed), sample.answers)
        if label is not Label.INCORRECT or not engine.config.factuality.enabled:
            continue
        if engine.fuser is not None:
            reasoning = engine.reasoning_input(parsed)
            evidence = (engine.retriever.cached_pool(engine.evidence_query(sample, parsed), sample.title_text,
                                                     engine.config.factuality.fused_evidence_k)
                        if engine.retriever is not None and reasoning.strip() else None)
            if evidence is not None:
                add(engine.fuser.request(sample.question, reasoning, evidence))
            continue
        if not isinstance(engine.decomposer, LLMDecomposer):
            continue
        reply = add(engine.decomposer.request(engine.reasoning_input(parsed)))
        claims = prompts.parse_claims(reply) if reply is not None else None
        if not claims or not isinstance(engine.verifier, LLMVerifier) or engine.retriever is None:
            continue
        kept, _ = engine.select_claims(claims, sample)
        evidence = engine.retriever.cached(kept, sample.title_text) if kept else None
        if evidence is not None:
            add(engine.verifier.request(kept, evidence))
    return plan
