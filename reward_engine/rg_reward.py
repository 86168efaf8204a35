"""reasoning-gym rewards for GRPO: the task's own ``score_answer`` plus a format reward.

    rewards = ReasoningGymRewards(ReasoningGymRewardConfig())
    trainer = GRPOTrainer(..., reward_funcs=rewards.functions())   # columns: rg_task, rg_entry

The answer is the single ``<answer>`` block after ``</think>`` (see
:func:`reward_engine.completion.parse`): answer tags inside the reasoning or several answer
blocks give no answer, which every task scores 0. Scorers run in the verifier pool with a
timeout; one that overruns or raises scores 0 and is counted, never crashes the step.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from reward_engine.completion import completion_text, parse
from reward_engine.task_base import Sink, TaskRewards, column
from reward_engine.verify_pool import VerifierPool, VerifyTimeout


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


def _warm() -> None:
    import reasoning_gym  # noqa: F401


class ReasoningGymRewards(TaskRewards):
    def __init__(self, config: ReasoningGymRewardConfig | None = None, sink: Sink | None = None,
                 pool: VerifierPool | None = None, scorer: Any = score_entry) -> None:
        self.config = config or ReasoningGymRewardConfig()
        super().__init__(self.config.workers, sink, pool or VerifierPool(self.config.workers, warm=_warm))
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

    async def score_batch(self, tasks: list[Any], entries: list[Any],
                          completions: list[Any]) -> list[tuple[float | None, str, str | None]]:
        """Every completion, concurrently, within ``step_timeout_s``."""
        return await self.within_budget([self.score_one(t, e, c) for t, e, c in zip(tasks, entries, completions)],
                                        self.config.step_timeout_s,
                                        lambda i: (0.0, "timeout", parse(completions[i]).answer))

    async def score_rows(self, rows: list[dict[str, Any]], completions: list[Any]) -> list[tuple]:
        """Completions of dataset rows (evaluation): as the training reward scores them."""
        return await self.score_batch([r.get("rg_task") for r in rows], [r.get("rg_entry") for r in rows],
                                      completions)

    def functions(self) -> list[Any]:
        async def rg_format(prompts: list, completions: list, **kwargs: Any) -> list[float]:
            """format_reward for <think>…</think><answer>…</answer>, else 0."""
            return [self.config.format_reward if parse(c).well_formed else 0.0 for c in completions]

        async def rg_score(prompts: list, completions: list, **kwargs: Any) -> list[float | None]:
            """The task's own score_answer, in [0, 1]."""
            n = len(completions)
            tasks, entries = column(kwargs, "rg_task", n), column(kwargs, "rg_entry", n)
            scored = await self.score_batch(tasks, entries, completions)
            metrics: dict[str, float] = {}
            for name in sorted({t for t in tasks if isinstance(t, str)}):
                values = [r for t, (r, _, _) in zip(tasks, scored) if t == name and r is not None]
                if values:
                    metrics[f"rg/{name}"] = sum(values) / len(values)
            self.emit(kwargs, [{"task": t, "question": q, "completion": completion_text(c), "answer": a,
                                "reward": r, "status": s}
                               for t, q, c, (r, s, a) in zip(tasks, column(kwargs, "question", n), completions,
                                                              scored)], metrics)
            return [r for r, _, _ in scored]

        return [rg_format, rg_score]
