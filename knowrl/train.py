"""Knowledgeable RL with GRPO: ``python -m knowrl.train --config configs/X.yaml``.

    python -m knowrl.train --config configs/smoke.yaml [--set grpo.max_steps=5] [--resume | --overwrite] [-v|-q]
    accelerate launch -m knowrl.train --config configs/X.yaml     # several GPUs (DDP / DeepSpeed)

A plain config runs one GRPO stage (``knowrl.grpo``): the model loads first (Unsloth, when
used, must be imported before TRL); the task's reward functions score every step; a
per-completion reward breakdown is appended to ``<output_dir>/rewards.jsonl`` (a fresh run
moves an old log aside; ``--resume`` continues from the last checkpoint and drops the rows
of steps it re-runs); the final LoRA adapter goes to ``<output_dir>/final``. A config with
a ``pipeline`` section runs KnowRL's two stages (``knowrl.pipeline``) or the verifiable
tasks' before/after evaluation (``knowrl.task_eval``) and prints their table.

An ``output_dir`` that holds an earlier run (its checkpoints, ``final``, ``summary.json``) is refused unless
``--resume`` continues it or ``--overwrite`` starts clean (removing those first): trained into as it was, the
old run's checkpoints rotated away under ``save_total_limit``, or a later ``--resume`` continued the old run. What
the run writes there is its own by the ledger it keeps (``knowrl.run_mark``): a user's file or folder of such a name
is refused whatever the flags, and ``--overwrite`` removes only the run's own.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from knowrl.adapters import check_start_adapter
from knowrl.cli import config_parser, run_job
from knowrl.config import TrainConfig, load_train_config
from knowrl.grpo import check_start, train
from knowrl.kb import check_kb
from knowrl.models import check_model_path
from knowrl.output_dir import claimed, route
from knowrl.run_outputs import check_keys, check_outputs


def run(
    config: TrainConfig, resume: bool, command: str = "python -m knowrl.train", overwrite: bool = False
) -> dict[str, Any] | None:
    """The two-stage pipeline when the config asks for it (prints its table), else one GRPO run."""
    world = int(os.environ.get("WORLD_SIZE", "1") or 1)  # the launcher's process count
    check_keys(config)  # pipeline keys this config's route does not read, or cannot run without
    check_start(config, world)  # TRL's batch rules for this launch, before any stage loads a model
    if config.reward is not None:  # against judge.limits.rank_weights
        config.reward.check_world_size(world)
    check_outputs(config, world)  # the reward log and pipeline.report: never an input or a user's file
    check_model_path(config.model.name_or_path)  # before any stage spends time
    check_start_adapter(config.model, config.seed)  # before --overwrite removes anything
    check_kb(config)  # a KB that kb.build_from would replace but is not its build: refused before anything too
    with claimed(config, resume, overwrite):  # held to the run's end: no second run into this folder
        return _stages(config, resume, command)


def _stages(config: TrainConfig, resume: bool, command: str) -> dict[str, Any] | None:
    """The run's stages, in a claimed ``output_dir``: the judges checked, then its route."""
    if config.reward is not None:  # a judge not up trained on unscored rewards, exit 0 (hostile pass 54)
        import asyncio

        from reward_engine.job import check_judges

        asyncio.run(check_judges(config.reward))
    kind = route(config)
    if kind == "task_eval":
        from knowrl.task_eval import run_task_pipeline

        result = run_task_pipeline(config, resume=resume)
        print("\n" + result["table"])
        return None
    if kind == "grpo":
        return train(config, resume=resume)
    from knowrl.pipeline import run_pipeline

    result = run_pipeline(config, command)
    if "table" in result:
        print("\n" + result["table"])
    print(f"\nreward log: {result['grpo']['reward_log']}\nreward curve: {result['reward_curve']}")
    return None


def main(argv: list[str] | None = None) -> int:
    parser = config_parser("python -m knowrl.train", __doc__)
    parser.add_argument("--resume", action="store_true", help="continue from the last checkpoint in output_dir")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="start clean in an output_dir that holds an earlier run (removes its checkpoints, final, summary.json)",
    )
    args = parser.parse_args(argv)
    command = "python -m knowrl.train " + " ".join(sys.argv[1:] if argv is None else argv)
    return run_job(
        args,
        lambda: run(load_train_config(args.config, args.set), args.resume, command, overwrite=args.overwrite),
        "the checkpoints saved so far are kept; add --resume to continue from the last one",
    )


if __name__ == "__main__":
    sys.exit(main())
