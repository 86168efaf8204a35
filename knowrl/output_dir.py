"""Who owns a training run's ``output_dir``: an earlier run there is continued (``--resume``), cleared
(``--overwrite``) or refused, for ``knowrl.train`` and ``knowrl.sft`` alike (sft trained over a finished run's
``final``: hostile pass 54). Its own module so both can import it without a cycle through the pipeline."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from pathlib import Path
from typing import Any, Literal

from knowrl.config import ConfigError, TrainConfig
from knowrl.resume import check_resume

log = logging.getLogger(__name__)
CHECKPOINT = re.compile(r"checkpoint-\d+")  # transformers' checkpoint folders (``get_last_checkpoint``'s pattern)
MARK = "knowrl-run.json"  # written into output_dir when a run claims it: the folder is a knowrl run's
TRL_CARD = "It has been trained using [TRL](https://github.com/huggingface/trl)."  # the model card TRL writes


def route(config: TrainConfig) -> Literal["task_eval", "grpo", "pipeline"]:
    """Which job ``run`` does: the verifiable tasks' before/after evaluation, one GRPO run, or KnowRL's pipeline
    (which runs every stage again: ``--resume`` does not continue it)."""
    p = config.pipeline
    if config.task != "knowrl" and p.evaluate_before_after:
        return "task_eval"
    return "pipeline" if p.demo_data or p.cold_start_sft or p.evaluate_before_after else "grpo"


def marked(out: Path) -> bool:
    """Whether ``out`` carries a knowrl run's mark (``MARK``, written when a run claimed it)."""
    try:
        found = json.loads((out / MARK).read_text())
    except (OSError, ValueError):
        return False
    return isinstance(found, dict) and found.get("written_by") == "knowrl"


def _entries(out: Path) -> list[Path]:
    """What ``out`` holds, less its mark and the mark another process is writing (``MARK``'s temporary name)."""
    if not out.is_dir():
        return []
    return sorted(p for p in out.iterdir() if p.name != MARK and not p.name.startswith(f".{MARK}."))


def _json_dict(path: Path) -> dict[str, Any] | None:
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return found if isinstance(found, dict) else None


def _legacy_product(path: Path, reward_log: str) -> bool:
    """Whether ``path`` is what a knowrl run made before runs marked their folder, by its look, not its name alone:
    a checkpoint with transformers' ``trainer_state.json``, a ``final`` adapter or model, this project's
    ``summary.json``, TRL's model card, the reward log (or one moved aside, or a rank's). A user's ``final/ch1.md``
    or ``summary.json`` is none of these (``--overwrite`` removed them as "an earlier run": hostile audit 59)."""
    if path.is_symlink():
        return False
    name = path.name
    if path.is_dir():
        if CHECKPOINT.fullmatch(name):
            return (path / "trainer_state.json").is_file()
        if name == "final":
            return (path / "adapter_config.json").is_file() or (path / "config.json").is_file()
        if name == "runs":  # tensorboard's event files (logging.report_to: tensorboard)
            files = [f for f in path.rglob("*") if not f.is_dir()]
            return bool(files) and all(f.name.startswith("events.out.tfevents.") for f in files)
        return False
    if not path.is_file():
        return False
    if name == "summary.json":
        summary = _json_dict(path)
        return summary is not None and {"global_step", "adapter", "training_loss"} <= summary.keys()
    if name == "README.md":
        try:
            return TRL_CARD in path.read_text(errors="replace")
        except OSError:
            return False
    log_name = Path(reward_log)
    return re.fullmatch(rf"{re.escape(log_name.stem)}(\.rank\d+)?(\.\d{{8}}-\d{{6}})?\.jsonl", name) is not None


def earlier_run(out: Path, reward_log: str = "rewards.jsonl") -> tuple[list[Path], list[Path]] | None:
    """(checkpoint folders, everything else) an earlier run left in ``out``, oldest checkpoint first; None where
    ``out`` holds files that no knowrl run is known to have made (no mark, and not only an older run's products)."""
    entries = _entries(out)
    if entries and not marked(out) and not all(_legacy_product(p, reward_log) for p in entries):
        return None
    checkpoints = [p for p in entries if CHECKPOINT.fullmatch(p.name) and p.is_dir() and not p.is_symlink()]
    checkpoints.sort(key=lambda p: int(p.name.rsplit("-", 1)[1]))
    return checkpoints, [p for p in entries if p not in checkpoints]


def mark(out: Path, job: str) -> None:
    """Write ``out``'s mark (first process only; whole, by a rename): the folder is a knowrl run's from now on."""
    if int(os.environ.get("RANK", "0")) != 0 or marked(out):
        return
    try:
        out.mkdir(parents=True, exist_ok=True)
        tmp = out / f".{MARK}.{os.getpid()}"
        note = "this folder is a knowrl run's output_dir: --overwrite removes everything in it but this file"
        tmp.write_text(json.dumps({"written_by": "knowrl", "job": job, "note": note}, indent=2) + "\n")
        os.replace(tmp, out / MARK)
    except OSError as exc:
        raise ConfigError(f"output_dir {out}: cannot write {MARK}: {exc.strerror}") from None


def claim_output_dir(
    config: TrainConfig, resume: bool, overwrite: bool, resumable: bool = True, job: str = "knowrl.train"
) -> None:
    """Claim ``output_dir`` for a run of ``job``: a new or empty folder, or one a knowrl run claimed (its ``MARK``),
    is marked and used; a folder of other files is refused (``ConfigError``), ``--overwrite`` or not: TRL's model
    card replaced a user's ``README.md``, the pipeline's reports their same-named files, and ``--overwrite`` removed
    any ``final/`` (hostile audit 59). A folder an older knowrl run made (no mark) is taken only where everything in
    it looks like that run's products (``_legacy_product``). An earlier run there is continued (``resume``, where
    there are checkpoints to continue) or cleared (``overwrite``: everything in it but the mark, the pipeline's
    ``sft/``, ``data/`` and reports too, by the first process only; a file the run reads stays), else refused with
    a ``ConfigError`` naming both flags (``resumable`` False: a job with no ``--resume``, ``knowrl.sft``).
    ``overwrite`` never removes what the run reads (``run_inputs``), and no run writes into its model's folder
    (``model_folder_problem``)."""
    if resume and overwrite:
        raise ConfigError("--resume continues the run in output_dir and --overwrite removes it: give one of them")
    problem = model_folder_problem(config)
    if problem:
        raise ConfigError(problem)
    out = Path(config.output_dir)
    if (out.exists() or out.is_symlink()) and not out.is_dir():
        raise ConfigError(f"output_dir {out} is not a folder; choose a new or empty output_dir")
    found_run = earlier_run(out, config.logging.reward_log)
    if found_run is None:
        raise ConfigError(
            f"output_dir {out} holds files that no knowrl run made (no {MARK}; {_names(_entries(out))}): a run "
            "writes README.md, reports and checkpoints there and --overwrite would remove them; choose a new or "
            "empty output_dir (an older knowrl run's folder with other files in it: move those out first)"
        )
    checkpoints, products = found_run
    inputs = {os.path.abspath(value) for _, value in run_inputs(config)}
    products = [p for p in products if os.path.abspath(p) not in inputs]  # a data file kept beside the run stays
    if not checkpoints and not products:
        mark(out, job)
        return
    if overwrite:
        problem = _input_removed(config, checkpoints + products)
        if problem:  # read after the removal: the adapter the run was to start from was gone (hostile pass 57)
            raise ConfigError(problem)
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
        mark(out, job)
        return
    kind = route(config)
    if resume and checkpoints and kind != "pipeline":
        check_resume(config, checkpoints[-1])  # what the last checkpoint was trained with (hostile pass 55)
        mark(out, job)
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
    and the reward's knowledge base and judge templates (names that are no local path are skipped)."""
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
        found += [
            (f"reward.prompts.{key}", getattr(reward.prompts, key))
            for key in ("grader", "decompose", "verify", "fused")
        ]
        from reward_engine.score import source_option_files  # a custom source's files (audit 59 H8)

        options = reward.factuality.source_options
        found += [("reward.factuality.source_options", str(p)) for p in source_option_files(options or {})]
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
