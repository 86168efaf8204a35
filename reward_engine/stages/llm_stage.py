"""What a stage hands back, the judge call it makes, and the base of the stages that ask the judge."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Generic, TypeVar

from reward_engine.judge.client import JudgeReply
from reward_engine.judge.errors import JudgeError
from reward_engine.judge.protocol import Judge
from reward_engine.prompts.templates import Template

GRADER_MAX_TOKENS = 4  # one letter; part of the cache key
GRADER_JSON_MAX_TOKENS = 16  # {"grade": "B"} through a schema
GRADER_SPAN_MAX_TOKENS = 96  # {"grade": "A", "answer_span": "..."} (the span is capped at 200 characters)
FACTS_MAX_TOKENS = 2048  # a decomposition reply (~100 claims; KnowRL: 8192) or one verification call's
FUSED_MAX_TOKENS = 1024  # claims with labels and cited ids in one reply


T = TypeVar("T")


@dataclass
class StageOutput(Generic[T]):
    """A stage's value plus whether it came from the cache (for status and metrics)."""

    value: T
    cached: bool = False


@dataclass(frozen=True)
class JudgeRequest:
    """One judge call exactly as a stage sends it."""

    kind: str  # "grade" | "decompose" | "verify" | "fused"
    messages: list[dict[str, Any]]
    template_version: str
    max_tokens: int
    schema: dict[str, Any] | None = None  # asked for as response_format when the judge is structured

    async def send(self, judge: Judge, validate: Callable[[str], bool], priority: int = 1) -> JudgeReply:
        """This request through the judge client; a reply ``validate`` refuses is asked again."""
        return await judge.complete(
            self.messages,
            self.template_version,
            validate=validate,
            max_tokens=self.max_tokens,
            priority=priority,
            schema=self.schema,
            kind=self.kind,
            whole=self.kind in ("decompose", "verify", "fused"),  # lists: a reply cut short drops items
        )


class LLMStage:
    """A judge stage whose reply must parse: one judge client, one template, one reply-size limit."""

    kind: ClassVar[str]  # names the stage in errors ("decomposition reply unreadable")
    default_template: ClassVar[Template]
    default_max_tokens: ClassVar[int] = FACTS_MAX_TOKENS

    def __init__(self, judge: Judge, max_tokens: int | None = None, template: Template | None = None) -> None:
        self.judge = judge
        self.max_tokens = max_tokens or self.default_max_tokens
        self.template = template or self.default_template

    async def ask(self, req: JudgeRequest, parse: Callable[[str], Any]) -> StageOutput:
        """The parsed reply to ``req``. The client retries a reply ``parse`` refuses (None); one that never
        parses raises ``JudgeError`` -- never guessed."""
        reply = await req.send(self.judge, lambda t: parse(t) is not None, priority=0)
        value = parse(reply.text)
        if value is None:
            raise JudgeError(f"{self.kind} reply unreadable")
        return StageOutput(value, reply.cached)
