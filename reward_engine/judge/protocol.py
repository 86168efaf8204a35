"""What a stage asks of a judge: ``JudgeClient`` answers over the wire, ``plan.CacheOnlyJudge`` from its cache
alone, and a test or a user's own object may stand in for either."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from reward_engine.judge.client import JudgeReply
from reward_engine.judge.config import JudgeConfig


class Judge(Protocol):
    config: JudgeConfig

    @property
    def structured(self) -> bool:
        """Whether replies may be asked for in a JSON schema (``response_format``)."""

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
    ) -> JudgeReply: ...
