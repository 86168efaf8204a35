"""One place that knows, per ``task``, which data, prompt and reward functions a run uses.

``knowrl``: factual QA scored by the reward engine (format + KnowRL's combined reward).
``math``: boxed answers (``math_boxed``). ``reasoning_gym``: generated tasks
(``rg_format`` + ``rg_score``). The trainer, the evaluation and the pipeline ask here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from knowrl.config import ConfigError, TrainConfig

RowsSink = Callable[[int, list[dict[str, Any]]], None]


@dataclass
class TaskSetup:
    dataset: Any
    rewards: Any  # .functions() for TRL, async .aclose() when the run ends
    rows: int
    bad_rows: int


class Task:
    """What a task provides; rows become ``prompt`` + their own columns, which the rewards read."""

    instructions: str

    def __init__(self, config: TrainConfig) -> None:
        self.config = config

    def _eval_path(self) -> str:
        if not self.config.data.eval:
            raise ConfigError("evaluation needs data.eval")
        return self.config.data.eval

    def dataset(self, rows: list[dict[str, Any]], tokenizer: Any) -> Any:
        from knowrl.data import prompt_dataset

        return prompt_dataset(rows, tokenizer, self.instructions)

    def train_rows(self) -> tuple[list[dict[str, Any]], int]:
        raise NotImplementedError

    def eval_rows(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def rewards(self, knowrl_sink: Callable[..., None] | None, rows_sink: RowsSink | None, world_size: int) -> Any:
        raise NotImplementedError


class KnowRLTask(Task):
    @property
    def instructions(self) -> str:
        from knowrl.data import INSTRUCTIONS

        return INSTRUCTIONS

    def train_rows(self) -> tuple[list[dict[str, Any]], int]:
        from knowrl.data import load_rl_rows

        rows, report = load_rl_rows(self.config.data.train or "", self.config.data.max_samples)
        return rows, len(report.bad)

    def eval_rows(self) -> list[dict[str, Any]]:
        from knowrl.data import load_rl_rows

        return load_rl_rows(self._eval_path())[0]

    def dataset(self, rows: list[dict[str, Any]], tokenizer: Any) -> Any:
        from knowrl.data import rl_dataset

        return rl_dataset(rows, tokenizer)

    def rewards(self, knowrl_sink: Callable[..., None] | None, rows_sink: RowsSink | None, world_size: int) -> Any:
        from reward_engine.trl_rewards import KnowRLRewards

        if self.config.reward is None:
            raise ConfigError("a GRPO run needs a 'reward' section (see configs/reward_offline.yaml)")
        # each rank gets its share of the judge budget
        return KnowRLRewards(self.config.reward.model_copy(update={"world_size": world_size}), sink=knowrl_sink)


class MathTask(Task):
    @property
    def instructions(self) -> str:
        from knowrl.tasks.math_data import MATH_INSTRUCTIONS

        return MATH_INSTRUCTIONS

    def train_rows(self) -> tuple[list[dict[str, Any]], int]:
        from knowrl.tasks.math_data import gsm_symbolic_rows, load_math_rows

        math, data = self.config.math, self.config.data
        assert math is not None
        if math.source == "gsm_symbolic":
            return gsm_symbolic_rows(math.train_size, self.config.seed), 0
        rows, report = load_math_rows(data.train or "", data.max_samples)
        return rows, len(report.bad)

    def eval_rows(self) -> list[dict[str, Any]]:
        from knowrl.tasks.math_data import gsm_symbolic_rows, load_math_rows
        from knowrl.tasks.rg_data import EVAL_SEED_OFFSET

        math = self.config.math
        assert math is not None
        if math.source == "gsm_symbolic" and not self.config.data.eval:
            return gsm_symbolic_rows(math.eval_size, self.config.seed + EVAL_SEED_OFFSET)
        return load_math_rows(self._eval_path())[0]

    def rewards(self, knowrl_sink: Callable[..., None] | None, rows_sink: RowsSink | None, world_size: int) -> Any:
        from knowrl.tasks.math_reward import MathRewards

        assert self.config.math is not None
        return MathRewards(self.config.math.reward, sink=rows_sink)


class ReasoningGymTask(Task):
    @property
    def instructions(self) -> str:
        from knowrl.tasks.rg_data import RG_INSTRUCTIONS

        return RG_INSTRUCTIONS

    def train_rows(self) -> tuple[list[dict[str, Any]], int]:
        from knowrl.tasks.rg_data import train_rows

        rg = self.config.reasoning_gym
        assert rg is not None
        return train_rows(rg.train_tasks, rg.train_size, self.config.seed, rg.task_configs), 0

    def eval_rows(self) -> list[dict[str, Any]]:
        from knowrl.tasks.rg_data import eval_rows

        rg = self.config.reasoning_gym
        assert rg is not None
        return eval_rows(rg.evaluation_tasks, rg.eval_size_per_task, self.config.seed, rg.task_configs)

    def rewards(self, knowrl_sink: Callable[..., None] | None, rows_sink: RowsSink | None, world_size: int) -> Any:
        from knowrl.tasks.rg_reward import ReasoningGymRewards

        assert self.config.reasoning_gym is not None
        rg = self.config.reasoning_gym
        return ReasoningGymRewards(
            rg.reward, sink=rows_sink, tasks=tuple(dict.fromkeys([*rg.train_tasks, *rg.evaluation_tasks]))
        )


TASKS = {"knowrl": KnowRLTask, "math": MathTask, "reasoning_gym": ReasoningGymTask}


def task_for(config: TrainConfig) -> Task:
    return TASKS[config.task](config)


def eval_rows(config: TrainConfig) -> list[dict[str, Any]]:
    """Held-out rows: data.eval, or generated from a seed training never uses."""
    return task_for(config).eval_rows()


def instructions(config: TrainConfig) -> str:
    """The user-turn template of the task's prompt (``{question}`` filled in)."""
    return task_for(config).instructions


def rewards(
    config: TrainConfig,
    knowrl_sink: Callable[..., None] | None = None,
    rows_sink: RowsSink | None = None,
    world_size: int = 1,
) -> Any:
    """The task's reward object (``.functions()`` for TRL)."""
    return task_for(config).rewards(knowrl_sink, rows_sink, world_size)


def train_rows(config: TrainConfig) -> tuple[list[dict[str, Any]], int]:
    """The task's training rows and how many were bad; none usable is a ``ConfigError`` naming the data file (read
    before the policy loads: SFT rows given to GRPO failed only after it loaded, hostile pass 57)."""
    rows, bad = task_for(config).train_rows()
    if not rows:
        raise ConfigError(f"no usable training rows in {config.data.train} ({bad} bad)")
    return rows, bad


def setup(
    config: TrainConfig,
    tokenizer: Any,
    knowrl_sink: Callable[..., None] | None = None,
    rows_sink: RowsSink | None = None,
    world_size: int = 1,
    rows: tuple[list[dict[str, Any]], int] | None = None,
) -> TaskSetup:
    """The task's dataset and rewards for TRL; ``rows``: ``train_rows``' result, when the caller read them first."""
    task = task_for(config)
    rows, bad = rows or train_rows(config)
    rewards = task.rewards(knowrl_sink, rows_sink, world_size)
    if hasattr(rewards, "start"):  # verifier workers up and warm before the first step's timed checks
        rewards.start()
    dataset = task.dataset(rows, tokenizer)
    if config.data.max_prompt_length is not None:
        from knowrl.data import truncate_prompts

        dataset, _ = truncate_prompts(dataset, tokenizer, config.data.max_prompt_length)
    return TaskSetup(dataset, rewards, len(rows), bad)
