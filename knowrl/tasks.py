"""One place that knows, per ``task``, which data and which reward functions a run uses.

``knowrl``: factual QA scored by the reward engine (format + KnowRL's combined reward).
``math``: boxed answers (``math_boxed``). ``reasoning_gym``: generated tasks
(``rg_format`` + ``rg_score``). The trainer, the evaluation and the pipeline ask here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from knowrl.config import ConfigError, TrainConfig


@dataclass
class TaskSetup:
    dataset: Any
    rewards: Any  # .functions() for TRL, async .aclose() when the run ends
    rows: int
    bad_rows: int


def train_rows(config: TrainConfig) -> tuple[list[dict[str, Any]], int]:
    """(training rows, bad rows skipped) for the configured task."""
    if config.task == "reasoning_gym":
        from knowrl.rg_data import train_rows as rg_train

        rg = config.reasoning_gym
        assert rg is not None
        return rg_train(rg.train_tasks, rg.train_size, config.seed, rg.task_configs), 0
    if config.task == "math":
        from knowrl.math_data import gsm_symbolic_rows, load_math_rows

        assert config.math is not None
        if config.math.source == "gsm_symbolic":
            return gsm_symbolic_rows(config.math.train_size, config.seed), 0
        rows, report = load_math_rows(config.data.train or "", config.data.max_samples)
        return rows, len(report.bad)
    from knowrl.data import load_rl_rows

    rows, report = load_rl_rows(config.data.train or "", config.data.max_samples)
    return rows, len(report.bad)


def eval_rows(config: TrainConfig) -> list[dict[str, Any]]:
    """Held-out rows: data.eval, or generated from a seed training never uses."""
    if config.task == "reasoning_gym":
        from knowrl.rg_data import eval_rows as rg_eval

        rg = config.reasoning_gym
        assert rg is not None
        return rg_eval(rg.evaluation_tasks, rg.eval_size_per_task, config.seed, rg.task_configs)
    if config.task == "math":
        from knowrl.math_data import gsm_symbolic_rows, load_math_rows
        from knowrl.rg_data import EVAL_SEED_OFFSET

        assert config.math is not None
        if config.math.source == "gsm_symbolic" and not config.data.eval:
            return gsm_symbolic_rows(config.math.eval_size, config.seed + EVAL_SEED_OFFSET)
        if not config.data.eval:
            raise ConfigError("evaluation needs data.eval")
        return load_math_rows(config.data.eval)[0]
    from knowrl.data import load_rl_rows

    if not config.data.eval:
        raise ConfigError("evaluation needs data.eval")
    return load_rl_rows(config.data.eval)[0]


def dataset(config: TrainConfig, rows: list[dict[str, Any]], tokenizer: Any) -> Any:
    if config.task == "reasoning_gym":
        from knowrl.rg_data import rg_dataset

        return rg_dataset(rows, tokenizer)
    if config.task == "math":
        from knowrl.math_data import math_dataset

        return math_dataset(rows, tokenizer)
    from knowrl.data import rl_dataset

    return rl_dataset(rows, tokenizer)


def instructions(config: TrainConfig) -> str:
    """The user-turn template of the task's prompt (``{question}`` filled in)."""
    if config.task == "reasoning_gym":
        from knowrl.rg_data import RG_INSTRUCTIONS

        return RG_INSTRUCTIONS
    if config.task == "math":
        from knowrl.math_data import MATH_INSTRUCTIONS

        return MATH_INSTRUCTIONS
    from knowrl.data import INSTRUCTIONS

    return INSTRUCTIONS


def rewards(config: TrainConfig, knowrl_sink: Callable[..., None] | None = None,
            rows_sink: Callable[[int, list[dict[str, Any]]], None] | None = None, world_size: int = 1) -> Any:
    """The task's reward object (``.functions()`` for TRL)."""
    if config.task == "reasoning_gym":
        from reward_engine.rg_reward import ReasoningGymRewards

        assert config.reasoning_gym is not None
        return ReasoningGymRewards(config.reasoning_gym.reward, sink=rows_sink)
    if config.task == "math":
        from reward_engine.math_reward import MathRewards

        assert config.math is not None
        return MathRewards(config.math.reward, sink=rows_sink)
    from reward_engine.trl_rewards import KnowRLRewards

    if config.reward is None:
        raise ConfigError("a GRPO run needs a 'reward' section (see configs/reward_offline.yaml)")
    # each rank gets its share of the judge budget
    return KnowRLRewards(config.reward.model_copy(update={"world_size": world_size}), sink=knowrl_sink)


def setup(config: TrainConfig, tokenizer: Any, knowrl_sink: Callable[..., None] | None = None,
          rows_sink: Callable[[int, list[dict[str, Any]]], None] | None = None, world_size: int = 1) -> TaskSetup:
    rows, bad = train_rows(config)
    if not rows:
        raise ConfigError(f"no usable training rows in {config.data.train} ({bad} bad)")
    return TaskSetup(dataset(config, rows, tokenizer), rewards(config, knowrl_sink, rows_sink, world_size),
                     len(rows), bad)

