"""Who owns a training run's ``output_dir``: an earlier run there is continued (``--resume``), cleared
(``--overwrite``) or refused, for ``knowrl.train`` and ``knowrl.sft`` alike (sft trained over a finished run's
``final``: hostile pass 54). Its own module so both can import it without a cycle through the pipeline."""

from __future__ import annotations

import logging
import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Literal

from filelock import BaseFileLock

from knowrl.config import ConfigError, TrainConfig
from knowrl.resume import check_resume
from knowrl.run_lock import hold_output_dir
from knowrl.run_mark import CHECKPOINTS, existing, foreign_problem, release
from knowrl_io.paths import remove_path

log = logging.getLogger(__name__)
CHECKPOINT = re.compile(r"checkpoint-\d+")  # transformers' checkpoint folders (``get_last_checkpoint``'s pattern)
PRODUCTS = ("final", "summary.json")  # what a finished GRPO run leaves beside them
WRITES = (CHECKPOINTS, *PRODUCTS, "README.md")  # what a GRPO or SFT run writes (README.md: TRL's model card)
# What the pipeline writes beside the GRPO run's own, in every stage: a rerun starts from none of them (audit 60).
HELDOUT = tuple(f"heldout_{stage}.json" for stage in ("base", "majority", "before", "after_sft", "after"))
# the pipeline's own names, each whole: a pattern ("heldout_*.json") took a user's heldout_questions.json for the run's
STAGES = ("data", "sft", "sft-merged", *HELDOUT, "pipeline.json", "report.md", "rewards.html")
STAGES += ("reward_curve.png",)


def route(config: TrainConfig) -> Literal["task_eval", "grpo", "pipeline"]:
    """Which job ``run`` does: the verifiable tasks' before/after evaluation, one GRPO run, or KnowRL's pipeline
    (which runs every stage again: ``--resume`` does not continue it)."""
    p = config.pipeline
    if config.task != "knowrl" and p.evaluate_before_after:
        return "task_eval"
    return "pipeline" if p.demo_data or p.cold_start_sft or p.evaluate_before_after else "grpo"


def reward_logs(config: TrainConfig) -> list[str]:
    """The reward log's name in ``output_dir`` and its ranks' (``reward_log.rank_log``), as ledger patterns."""
    name = Path(config.logging.reward_log)
    return [name.as_posix(), name.with_name(f"{name.stem}.rank*{name.suffix}").as_posix()]


def run_names(config: TrainConfig) -> list[str]:
    """Every name (or pattern) the run writes in ``output_dir``: what ``run_mark.claim`` records at its first
    write, and where a file of someone else's refuses the run."""
    return [*WRITES, *reward_logs(config), *(STAGES if route(config) == "pipeline" else ())]


def earlier_run(out: Path, config: TrainConfig | None = None) -> tuple[list[Path], list[Path]]:
    """(checkpoint folders, other products) an earlier run left in ``out``, oldest checkpoint first; a pipeline's
    ``config`` adds its stage folders and files."""
    if not out.is_dir():
        return [], []
    checkpoints = [p for p in out.iterdir() if CHECKPOINT.fullmatch(p.name) and p.is_dir()]
    checkpoints.sort(key=lambda p: int(p.name.rsplit("-", 1)[1]))
    stages = STAGES if config is not None and route(config) == "pipeline" else ()
    return checkpoints, [out / name for name in existing(out, [*PRODUCTS, *stages])]


def claim_output_dir(config: TrainConfig, resume: bool, overwrite: bool, resumable: bool = True) -> BaseFileLock | None:
    """An ``output_dir`` holding an earlier run is continued (``resume``, where there are checkpoints to continue)
    or cleared (``overwrite``: its checkpoints, ``final``, ``summary.json`` and a pipeline's stage outputs removed,
    by the first process only), else refused with a ``ConfigError`` naming both flags (``resumable`` False: a job
    with no ``--resume``, ``knowrl.sft``, which trained over a finished run's ``final``: hostile pass 54). Empty or
    new: nothing to do, and nothing is made (``run_mark.claim`` marks the folder at the run's first write). A file
    or folder the run would write and did not write is refused whatever the flags (``run_mark``: audit 60).
    ``overwrite`` never removes what the run reads (``model.adapter`` its own ``final``: ``run_inputs``), and no
    run writes into its model's folder (``model_folder_problem``). Returns the folder's lock (``run_lock``), which
    the caller holds until the run ends: a run still writing the folder refuses every other claim of it."""
    if resume and overwrite:
        raise ConfigError("--resume continues the run in output_dir and --overwrite removes it: give one of them")
    problem = model_folder_problem(config)
    if problem:
        raise ConfigError(problem)
    out = Path(config.output_dir)
    held = hold_output_dir(out)
    try:
        return _claim(config, out, resume, overwrite, resumable, held)
    except BaseException:
        if held is not None:
            held.release()  # refused: the folder is free again at once, not when the traceback goes
        raise


def _claim(
    config: TrainConfig, out: Path, resume: bool, overwrite: bool, resumable: bool, held: BaseFileLock | None
) -> BaseFileLock | None:
    """``claim_output_dir`` with the folder's lock taken."""
    first = int(os.environ.get("RANK", "0")) == 0
    names = run_names(config) if resumable else list(WRITES)  # knowrl.sft writes no reward log
    problem = foreign_problem(out, names) if first or not overwrite else None  # not while rank 0 removes
    if problem:
        raise ConfigError(problem)
    checkpoints, products = earlier_run(out, config)
    if not checkpoints and not products:
        return held
    if overwrite:
        problem = _input_removed(config, checkpoints + products)
        if problem:  # read after the removal: the adapter the run was to start from was gone (hostile pass 57)
            raise ConfigError(problem)
        if first:
            for path in checkpoints + products:
                try:
                    remove_path(path)
                except OSError as exc:
                    raise ConfigError(f"--overwrite: cannot remove {path}: {exc.strerror}") from None
            release(out, [p.name for p in checkpoints + products])
            log.warning("--overwrite: removed %s from %s", _names(checkpoints + products), out)
        return held
    kind = route(config)
    if resume and checkpoints and kind != "pipeline":
        if not (checkpoints[-1] / "trainer_state.json").is_file():  # a raw "[Errno 2] ..." from the trainer before
            earlier = checkpoints[-2].name if len(checkpoints) > 1 else "the start"
            raise ConfigError(
                f"--resume: {checkpoints[-1]} was not saved whole (no trainer_state.json: the run stopped while "
                f"saving it); remove that folder to continue from {earlier}"
            )
        check_resume(config, checkpoints[-1])  # what the last checkpoint was trained with (hostile pass 55)
        return held
    found = _names(checkpoints + products)
    if kind == "pipeline":
        offer = "pass --overwrite to start clean (a pipeline runs every stage again: --resume does not continue it)"
    elif not checkpoints or not resumable:
        why = "nothing to --resume (no checkpoint); " if resume else ""
        offer = f"{why}pass --overwrite to replace it"
    else:
        offer = "pass --resume to continue it, or --overwrite to start clean (removes them first)"
    raise ConfigError(f"output_dir {out} holds an earlier run ({found}): {offer}; or choose another output_dir")


@contextmanager
def claimed(config: TrainConfig, resume: bool, overwrite: bool, resumable: bool = True) -> Iterator[None]:
    """``claim_output_dir`` for the length of the block: the folder's lock released when the run ends."""
    held = claim_output_dir(config, resume, overwrite, resumable)
    try:
        yield
    finally:
        if held is not None:
            held.release()


def model_folder_problem(config: TrainConfig) -> str | None:
    """Why the run must not write into ``output_dir``, or None: it is (or lies inside) the folder the run's model or
    adapter loads from, a built-in id's cache folder included (``output_dir`` set to tiny's folder trained into
    the base every later job loads; ``knowrl.merge`` did the same: hostile pass 59)."""
    from knowrl.model_folder import output_model_problem

    models = [("model.name_or_path", config.model.name_or_path), ("model.adapter", config.model.adapter)]
    return output_model_problem(
        config.output_dir, "output_dir", models, config.seed, holds=False, fix="choose another output_dir"
    )


def run_inputs(config: TrainConfig) -> list[tuple[str, str]]:
    """(key, path) of every local file or folder the run reads: the model, the adapter, the data, the KB's source
    and the reward's knowledge base, custom source's files and judge templates (names that are no local path are
    skipped)."""
    found = [
        ("model.name_or_path", config.model.name_or_path),
        ("model.adapter", config.model.adapter),
        ("data.train", config.data.train),
        ("data.eval", config.data.eval),
        ("data.sft", config.data.sft),
        ("kb.build_from", config.kb.build_from),
        ("pipeline.demo_boundary_file", config.pipeline.demo_boundary_file),
    ]
    reward = config.reward
    if reward is not None:
        from reward_engine.knowledge import kb_path

        kb = kb_path(reward.factuality.kb_path)
        found += [
            ("reward.factuality.kb_path", str(kb) if kb else None),
            ("reward.factuality.source", reward.factuality.source),
        ]
        if reward.factuality.source:  # a custom source's corpus files (hostile pass 60)
            from reward_engine.source_options import source_option_files

            options = source_option_files(reward.factuality.source_options)
            found += [("reward.factuality.source_options", str(path)) for path in options]
        found += [
            (f"reward.prompts.{key}", getattr(reward.prompts, key))
            for key in ("grader", "decompose", "verify", "fused")
        ]
    return [(key, value) for key, value in found if value and os.path.lexists(value)]


def _input_removed(config: TrainConfig, removed: list[Path]) -> str | None:
    """Why ``--overwrite`` must not remove ``removed``: one of the run's inputs lies in it, or None."""
    for key, value in run_inputs(config):
        for gone in removed:
            if _takes(gone, Path(value)):
                return (
                    f"{key} {value} lies in output_dir {config.output_dir}'s {gone.name}, which --overwrite removes; "
                    "copy it out of output_dir first, or choose another output_dir"
                )
    return None


def _takes(gone: Path, path: Path) -> bool:
    """Whether removing ``gone`` (a folder's tree, or a file or link) removes ``path`` or the way to it."""

    def within(a: str, b: str) -> bool:
        return a == b or a.startswith(b.rstrip(os.sep) + os.sep)

    if within(os.path.abspath(path), os.path.abspath(gone)):
        return True
    return not gone.is_symlink() and within(os.path.realpath(path), os.path.realpath(gone))


def _names(paths: list[Path]) -> str:
    names = [p.name for p in paths]
    return ", ".join(names[:4] + ([f"{len(names) - 4} more"] if len(names) > 4 else []))
