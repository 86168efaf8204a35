"""Who owns a training run's ``output_dir``: an earlier run there is continued (``--resume``), cleared
(``--overwrite``) or refused, for ``knowrl.train`` and ``knowrl.sft`` alike (sft trained over a finished run's
``final``: hostile pass 54). Its own module so both can import it without a cycle through the pipeline."""

from __future__ import annotations

import logging
import os
import re
import shutil
from pathlib import Path
from typing import Literal

from knowrl.config import ConfigError, TrainConfig
from knowrl.resume import check_resume

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


def claim_output_dir(config: TrainConfig, resume: bool, overwrite: bool, resumable: bool = True) -> None:
    """An ``output_dir`` holding an earlier run is continued (``resume``, where there are checkpoints to continue)
    or cleared (``overwrite``: its checkpoints, ``final`` and ``summary.json`` removed, by the first process
    only), else refused with a ``ConfigError`` naming both flags (``resumable`` False: a job with no ``--resume``,
    ``knowrl.sft``, which trained over a finished run's ``final``: hostile pass 54). Empty or new: nothing to do."""
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
        check_resume(config, checkpoints[-1])  # what the last checkpoint was trained with (hostile pass 55)
        return
    found = _names(checkpoints + products)
    if not checkpoints or not resumable:
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
