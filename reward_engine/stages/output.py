"""What a stage hands back, and the judge call it would make (for planning and warming)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
