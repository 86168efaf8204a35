"""The boxed-answer maths reward for GRPO: +1 right, −1 wrong, −0.5 no ``\\boxed{}`` (defaults).

    rewards = MathRewards(MathRewardConfig())
    trainer = GRPOTrainer(..., reward_funcs=rewards.functions())   # dataset column: ground_truth

The last ``\\boxed{…}`` of the completion is the answer (a policy that writes several
boxes is judged on its last). Plain numbers are decided in-process; symbolic answers go to
``math-verify`` in a worker process with a timeout, so a pathological expression costs at
most ``timeout_s`` and scores ``on_timeout`` (wrong, by default: a policy must not learn
that unverifiable answers are safe).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from knowrl.tasks.base import Sink, TaskRewards
from knowrl.tasks.boxed import last_boxed, quick_equal, symbolic_equal
from knowrl.tasks.verify_pool import VerifierPool, VerifyTimeout
from reward_engine.completion import completion_text
from reward_engine.trl_rewards import column


class MathRewardConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    correct: float = 1.0
    wrong: float = -1.0
    no_answer: float = Field(-0.5, description="no \\boxed{} (or an unbalanced one)")
    timeout_s: float = Field(5.0, gt=0, description="per symbolic check, in a worker process")
    on_timeout: Literal["wrong", "none"] = Field("wrong", description="'none': unscorable (zero advantage)")
    workers: int = Field(2, ge=1, description="verifier worker processes")
    max_answer_chars: int = Field(1000, ge=10, description="a longer boxed answer is wrong without a check")
    step_timeout_s: float = Field(
        30.0, gt=0, description="the whole batch answers within this; late checks score as on_timeout"
    )


class MathRewards(TaskRewards):
    def __init__(
        self,
        config: MathRewardConfig | None = None,
        sink: Sink | None = None,
        pool: VerifierPool | None = None,
        check: Any = symbolic_equal,
    ) -> None:
        """``check(predicted, gold, timeout_s) -> bool`` runs in the pool (module-level, importable) for the
        answers the in-process :func:`quick_equal` cannot decide."""
        self.config = config or MathRewardConfig()
        super().__init__(self.config.workers, sink, pool)
        self.check = check

    async def score_one(self, completion: Any, gold: Any) -> tuple[float | None, str, str | None]:
        """(reward, status, the boxed answer)."""
        c = self.config
        if not isinstance(gold, str) or not gold.strip():
            return None, "no_gold", None
        predicted = last_boxed(completion_text(completion))
        if predicted is None:
            return c.no_answer, "no_box", None
        if len(predicted) > c.max_answer_chars:  # no gold answer is this long; never worth a verifier call
            return c.wrong, "wrong", predicted[:200]
        quick = quick_equal(predicted, gold)
        if quick is None:
            try:
                quick = bool(
                    await self.pool.run(self.check, predicted, gold, int(c.timeout_s), timeout_s=c.timeout_s + 1)
                )
            except VerifyTimeout:
                return (c.wrong if c.on_timeout == "wrong" else None), "timeout", predicted
            except Exception:  # noqa: BLE001 - a verifier crash is a wrong answer, not a crashed step
                return c.wrong, "verifier_error", predicted
        return (c.correct, "correct", predicted) if quick else (c.wrong, "wrong", predicted)

    async def score_batch(self, completions: list[Any], golds: list[Any]) -> list[tuple[float | None, str, str | None]]:
        """Every completion, concurrently, within ``step_timeout_s`` (queued checks count too)."""
        late = self.config.wrong if self.config.on_timeout == "wrong" else None
        return await self.within_budget(
            [self.score_one(c, g) for c, g in zip(completions, golds)],
            self.config.step_timeout_s,
            lambda i: (late, "timeout", last_boxed(completion_text(completions[i]))),
        )

    async def score_rows(self, rows: list[dict[str, Any]], completions: list[Any]) -> list[tuple]:
        """Completions of dataset rows (evaluation): as the training reward scores them."""
        return await self.score_batch(completions, [r.get("ground_truth") for r in rows])

    def functions(self) -> list[Any]:
        """``[math_boxed]`` for ``GRPOTrainer(reward_funcs=...)``."""
        return [MathBoxedReward(self)]


class MathBoxedReward:
    r"""+1 / −1 / −0.5 (defaults) from the completion's last ``\boxed{}`` against the ``ground_truth`` column.

    Args:
        prompts: TRL's prompts (unused).
        completions: strings or ``[{"role": "assistant", "content": ...}]``.
        **kwargs: the dataset column ``ground_truth`` (and ``question`` for the reward log), plus
            TRL's ``trainer_state`` and ``log_metric``.

    Returns:
        One float per completion: ``correct``, ``wrong`` or ``no_answer``; a check that overruns
        scores ``on_timeout`` (wrong, or None); a row without ``ground_truth`` gets None.

    Example:
        >>> import asyncio
        >>> rewards = MathRewards()
        >>> asyncio.run(rewards.functions()[0](prompts=["", "", ""], ground_truth=["1/2", "7", "7"],
        ...             completions=[r"so \boxed{0.5}", r"\boxed{8}", "seven"]))
        [1.0, -1.0, -0.5]
        >>> rewards.close()
    """

    def __init__(self, rewards: MathRewards) -> None:
        self.rewards = rewards
        self.__name__ = "math_boxed"

    async def __call__(self, prompts: list, completions: list, **kwargs: Any) -> list[float | None]:
        golds = column(kwargs, "ground_truth", len(completions))
        scored = await self.rewards.score_batch(completions, golds)
        n = max(1, len(scored))
        statuses = [s for _, s, _ in scored]
        metrics = {f"math/frac_{k}": statuses.count(k) / n for k in ("correct", "no_box", "timeout")}
        questions = column(kwargs, "question", len(completions))
        self.rewards.emit(
            kwargs,
            [
                {
                    "question": q,
                    "ground_truth": g,
                    "completion": completion_text(c),
                    "predicted": p,
                    "reward": r,
                    "status": s,
                }
                for q, g, c, (r, s, p) in zip(questions, golds, completions, scored)
            ],
            metrics,
        )
        return [r for r, _, _ in scored]
