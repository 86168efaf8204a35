"""What a stage hands back, and the judge call it would make (for planning and warming)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from reward_engine.judge.client import JudgeClient, JudgeError
from reward_engine.stages.prompts import Template

GRADER_MAX_TOKENS = 4  # one letter; part of the cache key
GRADER_JSON_MAX_TOKENS = 16  # {"grade": "B"} through a schema
FACTS_MAX_TOKENS = 512  # decomposition and verification replies
FUSED_MAX_TOKENS = 1024  # claims with labels and cited ids in one reply


@dataclass
class StageOutput:
    """A stage's value plus whether it came from the cache (for status and metrics)."""

    value: object
    cached: bool = False


@dataclass(frozen=True)
class JudgeRequest:
    """One judge call exactly as a stage sends it: the engine and ``warm`` build it the same way."""

    kind: str  # "grade" | "decompose" | "verify" | "fused"
    messages: list[dict[str, Any]]
    template_version: str
    max_tokens: int
    schema: dict[str, Any] | None = None  # asked for as response_format when the judge is structured

    def send_args(self) -> dict[str, Any]:
        """Keyword arguments of ``JudgeClient.complete``/``cached`` for this request."""
        return {"max_tokens": self.max_tokens, "schema": self.schema}

    def call_args(self) -> dict[str, Any]:
        """``send_args`` plus the kind ``JudgeClient.complete`` tallies parse outcomes under."""
        return {**self.send_args(), "kind": self.kind}


class LLMStage:
    """A judge stage whose reply must parse: one judge client, one template, one reply-size limit."""

    kind: ClassVar[str]  # names the stage in errors ("decomposition reply unreadable")
    default_template: ClassVar[Template]
    default_max_tokens: ClassVar[int] = FACTS_MAX_TOKENS

    def __init__(self, judge: JudgeClient, max_tokens: int | None = None, template: Template | None = None) -> None:
        self.judge = judge
        self.max_tokens = max_tokens or self.default_max_tokens
        self.template = template or self.default_template

    async def ask(self, req: JudgeRequest, parse: Callable[[str], Any]) -> StageOutput:
        """The parsed reply to ``req``. The client retries a reply ``parse`` refuses (None); one that never
        parses raises ``JudgeError`` -- never guessed."""
        reply = await self.judge.complete(req.messages, req.template_version,
                                          validate=lambda t: parse(t) is not None, priority=0, **req.call_args())
        value = parse(reply.text)
        if value is None:
            raise JudgeError(f"{self.kind} reply unreadable")
        return StageOutput(value, reply.cached)
