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
old run's checkpoints rotated away under ``save_total_limit``, or a later ``--resume`` continued the old run.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any, Literal

from knowrl.cli import config_parser, run_job
from knowrl.config import ConfigError, TrainConfig, load_train_config
from knowrl.grpo import train
from knowrl.models import check_model_path

log = logging.getLogger(__name__)
CHECKPOINT = re.compile(r"checkpoint-\d+")  # transformers' checkpoint folders (``get_last_checkpoint``'s pattern)
PRODUCTS = ("final", "summary.json")  # what a finished GRPO run leaves beside them


def route(config: TrainConfig) -> Literal["task_eval", "grpo", "pipeline"]:
    """Which job ``run`` does: the verifiable tasks' before/after evaluation, one GRPO run, or KnowRL's pipeline
    (which runs every stage again: ``--resume`` does not continue it)."""
    p = config.pipeline
    if config.task != "knowrl" and p.evaluate_before_after:
        return "task_eval"
    return "pipeline" if p.demo_data or p.cold_start_sft or p.evaluate_before_after else "grpo"


def earlier_run(out: Path) -> tuple[list[Path], list[Path]]:
    """(checkpoint folders, other products) an earlier GRPO run left in ``out``, oldest checkpoint first."""
    if not out.is_dir():
        return [], []
    checkpoints = [p for p in out.iterdir() if CHECKPOINT.fullmatch(p.name) and p.is_dir()]
    checkpoints.sort(key=lambda p: int(p.name.rsplit("-", 1)[1]))
    return checkpoints, [out / name for name in PRODUCTS if (out / name).exists() or (out / name).is_symlink()]


def claim_output_dir(config: TrainConfig, resume: bool, overwrite: bool) -> None:
    """An ``output_dir`` holding an earlier run is continued (``resume``, where there are checkpoints to continue)
    or cleared (``overwrite``: its checkpoints, ``final`` and ``summary.json`` removed, by the first process
    only), else refused with a ``ConfigError`` naming both flags. Empty or new: nothing to do."""
    if resume and overwrite:
        raise ConfigError("--resume continues the run in output_dir and --overwrite removes it: give one of them")
    out = Path(config.output_dir)
    checkpoints, products = earlier_run(out)
    if not checkpoints and not products:
        return
    if overwrite:
        if int(os.environ.get("RANK", "0")) == 0:
            for path in checkpoints + products:
                try:
                    if path.is_dir() and not path.is_symlink():
                        shutil.rmtree(path)
                    else:
                        path.unlink()
                except OSError as exc:
                    raise ConfigError(f"--overwrite: cannot remove {path}: {exc.strerror}") from None
            log.warning("--overwrite: removed %s from %s", _names(checkpoints + products), out)
        return
    kind = route(config)
    if resume and checkpoints and kind != "pipeline":
        return
    found = _names(checkpoints + products)
    if not checkpoints:
        why = "nothing to --resume (no checkpoint); " if resume else ""
        offer = f"{why}pass --overwrite to replace it"
    elif kind == "pipeline":
        offer = "pass --overwrite to start clean (a pipeline runs every stage again: --resume does not continue it)"
    else:
        offer = "pass --resume to continue it, or --overwrite to start clean (removes them first)"
    raise ConfigError(f"output_dir {out} holds an earlier run ({found}): {offer}; or choose another output_dir")


def _names(paths: list[Path]) -> str:
    names = [p.name for p in paths]
    return ", ".join(names[:4] + ([f"{len(names) - 4} more"] if len(names) > 4 else []))


def run(
    config: TrainConfig, resume: bool, command: str = "python -m knowrl.train", overwrite: bool = False
) -> dict[str, Any] | None:
    """The two-stage pipeline when the config asks for it (prints its table), else one GRPO run."""
    if config.reward is not None:  # the launcher's process count against judge.limits.rank_weights
        config.reward.check_world_size(int(os.environ.get("WORLD_SIZE", "1")))
    check_model_path(config.model.name_or_path)  # before any stage spends time
    claim_output_dir(config, resume, overwrite)
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
