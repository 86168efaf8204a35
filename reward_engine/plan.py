"""A dry run's judge: answers from the cache, sends nothing, and records every call it is asked.

``RewardEngine.plan`` runs the engine's own scoring against it (and a retriever that only
reads its caches), so the plan is the engine's stage order by construction: a planned
request's cache key is the key scoring will look up. A stage whose input depends on an
answer that is not cached (decomposition needs an INCORRECT grade, verification needs claims
and evidence) is not reached: the plan is what is known before calling.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from retrieval.kb import Passage
from reward_engine.judge.client import JudgeClient, JudgeReply
from reward_engine.judge.errors import NotCachedError
from reward_engine.labels import Verdict
from reward_engine.stages.llm_stage import StageOutput

REPORTED = {"grade": "grader", "decompose": "decomposition", "verify": "verification", "fused": "fused"}


@dataclass(frozen=True)
class PlannedRequest:
    kind: str  # "grade" | "decompose" | "verify" | "fused"
    key: str  # the judge cache key (never holds a secret)
    cached: bool


@dataclass
class RequestPlan:
    requests: list[PlannedRequest] = field(default_factory=list)
    kinds: tuple[str, ...] = ("grade", "decompose", "verify")  # the judge stages the engine uses

    def absorb(self, other: "RequestPlan") -> None:
        """Add ``other``'s requests whose cache key this plan does not hold yet (a job planned in chunks
        counts a request once, as one plan of the whole input would)."""
        keys = {p.key for p in self.requests}
        self.kinds = other.kinds
        for request in other.requests:
            if request.key not in keys:
                keys.add(request.key)
                self.requests.append(request)

    def needed(self, kind: str) -> int:
        return sum(p.kind == kind for p in self.requests)

    def hit_rate(self, kind: str) -> float | None:
        """Cached share of the requests of one kind (None when none is needed)."""
        n = self.needed(kind)
        return round(sum(p.cached for p in self.requests if p.kind == kind) / n, 4) if n else None

    def summary(self) -> dict[str, Any]:
        """Hit rate and requests needed per judge stage the engine uses."""
        return {
            **{REPORTED[k]: self.hit_rate(k) for k in self.kinds},
            "needed": {REPORTED[k]: self.needed(k) for k in self.kinds},
        }


class CacheOnlyJudge:
    """The judge client's ``complete`` answered from its cache alone; each distinct call is recorded once
    in ``plan`` (the client, too, sends identical calls once), and a miss raises ``NotCachedError``."""

    def __init__(self, judge: JudgeClient, plan: RequestPlan) -> None:
        self.judge = judge
        self.plan = plan
        self.config = judge.config
        self._seen: set[str] = set()

    @property
    def structured(self) -> bool:
        return self.judge.structured

    async def complete(
        self,
        messages: list[dict[str, Any]],
        template_version: str,
        validate: Callable[[str], bool] | None = None,
        max_tokens: int | None = None,
        priority: int = 1,
        schema: dict[str, Any] | None = None,
        kind: str = "other",
        whole: bool = False,
    ) -> JudgeReply:
        reply = await self.judge.cached(messages, template_version, max_tokens, schema)
        key = self.judge.key_for(messages, template_version, max_tokens, schema=schema)
        if key not in self._seen:
            self._seen.add(key)
            self.plan.requests.append(PlannedRequest(kind, key, reply is not None))
        if reply is None:
            raise NotCachedError(f"{kind} reply not cached")
        return JudgeReply(reply, True, 0, 0.0)


class NoVerifier:
    """Stands in for a local verifier (NLI) in dry runs: no judge request to plan, no model to run."""

    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> StageOutput[list[bool]]:
        return StageOutput([False] * len(claims))

    async def verdicts(
        self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]
    ) -> StageOutput[list[Verdict]]:
        return StageOutput([Verdict.NOT_ENOUGH] * len(claims))
