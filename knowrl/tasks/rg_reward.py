"""reasoning-gym rewards for GRPO: the task's own ``score_answer`` plus a format reward.

    rewards = ReasoningGymRewards(ReasoningGymRewardConfig())
    trainer = GRPOTrainer(..., reward_funcs=rewards.functions())   # columns: rg_task, rg_entry

The answer is the single ``<answer>`` block after ``</think>`` (see
:func:`reward_engine.completion.parse`): answer tags inside the reasoning or several answer
blocks give no answer, which every task scores 0. Scorers run in the verifier pool with a
timeout; one that overruns or raises scores 0 and is counted, never crashes the step.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from knowrl.tasks.base import Sink, TaskRewards
from knowrl.tasks.verify_pool import VerifierPool, VerifyTimeout
from reward_engine.completion import completion_text, parse
from reward_engine.trl_rewards import column


class ReasoningGymRewardConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format_reward: float = Field(0.2, description="added by rg_format for <think>…</think><answer>…</answer>")
    timeout_s: float = Field(5.0, gt=0, description="per score_answer call, in a worker process")
    step_timeout_s: float = Field(30.0, gt=0, description="the whole batch answers within this")
    workers: int = Field(2, ge=1)


def score_entry(task: str, answer: str | None, entry_json: str) -> float:
    """reasoning-gym's own scorer for ``task`` (runs in a worker process)."""
    import reasoning_gym

    return float(reasoning_gym.get_score_answer_fn(task)(answer, json.loads(entry_json)))


def warm_tasks(tasks: tuple[str, ...] = ()) -> None:
    """Worker initializer: import reasoning-gym and each task's scorer before the first timed call."""
    import reasoning_gym

    for task in tasks:
        reasoning_gym.get_score_answer_fn(task)


class ReasoningGymRewards(TaskRewards):
    def __init__(
        self,
        config: ReasoningGymRewardConfig | None = None,
        sink: Sink | None = None,
        pool: VerifierPool | None = None,
        scorer: Any = score_entry,
        tasks: tuple[str, ...] = (),
    ) -> None:
        """``tasks``: the task names whose scorers the workers import before the first call."""
        self.config = config or ReasoningGymRewardConfig()
        warm = functools.partial(warm_tasks, tuple(tasks))
        super().__init__(self.config.workers, sink, pool or VerifierPool(self.config.workers, warm=warm))
        self.scorer = scorer

    async def score_one(self, task: Any, entry: Any, completion: Any) -> tuple[float | None, str, str | None]:
        """(score in [0, 1], status, the extracted answer); None when the row has no task/entry."""
        if not isinstance(task, str) or not isinstance(entry, str):
            return None, "no_entry", None
        answer = parse(completion).answer
        try:
            value = await self.pool.run(self.scorer, task, answer, entry, timeout_s=self.config.timeout_s)
        except VerifyTimeout:
            return 0.0, "timeout", answer
        except Exception:  # noqa: BLE001 - a scorer bug is a zero, not a crashed step
            return 0.0, "scorer_error", answer
        return float(value), ("correct" if value >= 1.0 else "no_answer" if answer is None else "wrong"), answer

    async def score_batch(
        self, tasks: list[Any], entries: list[Any], completions: list[Any]
    ) -> list[tuple[float | None, str, str | None]]:
        """Every completion, concurrently, within ``step_timeout_s``."""
        return await self.within_budget(
            [self.score_one(t, e, c) for t, e, c in zip(tasks, entries, completions)],
            self.config.step_timeout_s,
            lambda i: (0.0, "timeout", parse(completions[i]).answer),
        )

    async def score_rows(self, rows: list[dict[str, Any]], completions: list[Any]) -> list[tuple]:
        """Completions of dataset rows (evaluation): as the training reward scores them."""
        return await self.score_batch([r.get("rg_task") for r in rows], [r.get("rg_entry") for r in rows], completions)

    def functions(self) -> list[Any]:
        """``[rg_format, rg_score]`` for ``GRPOTrainer(reward_funcs=...)``."""
        return [RGFormatReward(self), RGScoreReward(self)]


class RGFormatReward:
    """``format_reward`` (0.2) for ``<think>…</think><answer>…</answer>`` and nothing else, else 0.

    Args:
        prompts: TRL's prompts (unused).
        completions: strings or ``[{"role": "assistant", "content": ...}]``.
        **kwargs: unused.

    Returns:
        One float per completion.

    Example:
        >>> import asyncio
        >>> fmt, _ = ReasoningGymRewards().functions()
        >>> asyncio.run(fmt(prompts=["", ""], completions=["<think>4 + 4</think><answer>8</answer>", "8"]))
        [0.2, 0.0]
    """

    def __init__(self, rewards: ReasoningGymRewards) -> None:
        self.rewards = rewards
        self.__name__ = "rg_format"

    async def __call__(self, prompts: list, completions: list, **kwargs: Any) -> list[float]:
        return [self.rewards.config.format_reward if parse(c).well_formed else 0.0 for c in completions]


class RGScoreReward:
    """The reasoning-gym task's own ``score_answer`` on the single ``<answer>`` after ``</think>``, in [0, 1].

    Args:
        prompts: TRL's prompts (unused).
        completions: strings or ``[{"role": "assistant", "content": ...}]``.
        **kwargs: the dataset columns ``rg_task`` and ``rg_entry`` (the generator's entry as JSON),
            plus TRL's ``trainer_state`` and ``log_metric``.

    Returns:
        One float per completion (0 for a timeout or a scorer error); None for a row without
        ``rg_task``/``rg_entry``.

    Example:
        >>> import asyncio, json
        >>> rewards = ReasoningGymRewards()
        >>> entry = json.dumps({"question": "2+2?", "answer": "4", "metadata": {}})
        >>> asyncio.run(rewards.functions()[1](prompts=["", ""], rg_task=["basic_arithmetic"] * 2,
        ...     rg_entry=[entry] * 2, completions=["<think>2+2</think><answer>4</answer>", "<answer>5</answer>"]))
        [1.0, 0.0]
        >>> rewards.close()
    """

    def __init__(self, rewards: ReasoningGymRewards) -> None:
        self.rewards = rewards
        self.__name__ = "rg_score"

    async def __call__(self, prompts: list, completions: list, **kwargs: Any) -> list[float | None]:
        n = len(completions)
        tasks, entries = column(kwargs, "rg_task", n), column(kwargs, "rg_entry", n)
        scored = await self.rewards.score_batch(tasks, entries, completions)
        metrics: dict[str, float] = {}
        for name in sorted({t for t in tasks if isinstance(t, str)}):
            values = [r for t, (r, _, _) in zip(tasks, scored) if t == name and r is not None]
            if values:
                metrics[f"rg/{name}"] = sum(values) / len(values)
        self.rewards.emit(
            kwargs,
            [
                {"task": t, "question": q, "completion": completion_text(c), "answer": a, "reward": r, "status": s}
                for t, q, c, (r, s, a) in zip(tasks, column(kwargs, "question", n), completions, scored)
            ],
            metrics,
        )
        return [r for r, _, _ in scored]
