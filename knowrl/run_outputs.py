"""What a training run writes beside its checkpoints, and the pipeline keys its route reads, checked before any
model loads (hostile pass 59).

- ``logging.reward_log`` (a ``.jsonl`` name in ``output_dir``: ``reward_log.reward_log_problem``, at load) lies
  there by every route and is none of the run's inputs: naming the run's own data file (or ``../notes.jsonl``)
  moved that file aside and wrote the log in its place, exit 0.
- ``pipeline.report`` and the pages copied beside it (``<stem>-rewards.html``, ``<stem>_reward_curve.png``) follow
  the report writers' ownership rule (``knowrl_io.job_output.check_page``): never an input, a folder or a special
  file; an existing file only when it is a page this project wrote (a user's own results page, the run's own held-out
  data and a user's page named like the inspector's were replaced, exit 0).
- a key the config's route never reads: ``pipeline.report`` on a one-stage GRPO run is refused (no report is
  written there), the other ``pipeline`` settings are named in one warning; ``pipeline.evaluate_before_after``
  without ``data.eval`` (nothing was evaluated, exit 0) and ``cold_start_sft`` without ``data.sft`` are refused.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from knowrl.config import ConfigError, TrainConfig
from knowrl.output_dir import reward_logs, route, run_inputs
from knowrl.pipeline_report import REPORT_MARK
from knowrl.reward_log import CURVE_MARK, rank_log
from knowrl.run_mark import foreign
from knowrl_io.job_output import MARK_BYTES, OutputError, check_page, read_head, same_file

log = logging.getLogger(__name__)
RUN_FILES = ("summary.json", "pipeline.json", "rewards.html", "reward_curve.png")  # and report.md, which may repeat
ROUTE_FLAGS = {"demo_data", "cold_start_sft", "evaluate_before_after"}  # what makes a config a pipeline
JOB = "knowrl.train"


def check_keys(config: TrainConfig) -> None:
    """The pipeline keys the config's route does not read or cannot run without, before anything loads: a report
    no stage writes and an evaluation with no data are refused (``ConfigError``, one line naming the key), the other
    ``pipeline`` settings of a one-stage GRPO run named in one warning."""
    kind, p = route(config), config.pipeline
    if p.report and kind == "grpo":
        raise ConfigError(
            "pipeline.report: this config runs one GRPO stage, which writes no report (KnowRL's pipeline does: "
            "pipeline.evaluate_before_after, cold_start_sft or demo_data); remove pipeline.report"
        )
    if p.report and kind == "task_eval":
        raise ConfigError(
            f"pipeline.report: task {config.task}'s before/after evaluation writes no report but output_dir's "
            "task_eval.json and its table; remove pipeline.report"
        )
    if kind == "pipeline" and not p.demo_data:  # demo_data makes the held-out and SFT files itself
        if p.evaluate_before_after and not config.data.eval:
            raise ConfigError(
                "data.eval: pipeline.evaluate_before_after evaluates data.eval before and after training and none "
                "is given; set data.eval, or pipeline.evaluate_before_after: false"
            )
        if p.cold_start_sft and not config.data.sft:  # found after the base model's evaluation otherwise
            raise ConfigError("data.sft: pipeline.cold_start_sft trains on data.sft and none is given; set data.sft")
        read = [("data.train", config.data.train)]
        read += [("data.eval", config.data.eval)] if p.evaluate_before_after else []
        read += [("data.sft", config.data.sft)] if p.cold_start_sft else []
        for key, given in read:  # a typo in data.eval: trained and evaluated nothing, then a traceback (pass 65)
            if given and not Path(given).exists():  # a file, or a local dataset folder (load_from_disk)
                raise ConfigError(f"{key}: no such file or folder: {given}")
    fields = type(p).model_fields  # set away from their defaults (the loader's path resolving sets some too)
    unread = [key for key, field in fields.items() if key not in ROUTE_FLAGS and getattr(p, key) != field.default]
    unread = unread if kind == "grpo" else []
    if unread:
        log.warning(
            "%s: not read: this config runs one GRPO stage (a pipeline runs with pipeline.evaluate_before_after, "
            "cold_start_sft or demo_data)",
            ", ".join(f"pipeline.{key}" for key in unread),
        )


def check_outputs(config: TrainConfig, world: int) -> None:
    """The run's outputs outside its checkpoints, before any model loads: the reward log (one per rank under
    several processes) and, for a pipeline, ``pipeline.report`` and the pages beside it. Raises ``ConfigError``."""
    check_reward_log(config, world)
    if config.pipeline.report and route(config) == "pipeline":
        check_report(config)


def check_reward_log(config: TrainConfig, world: int) -> None:
    """Each rank's reward log lies in ``output_dir`` by every route (a link out of it is refused: a resume rewrites
    the log through it), is a plain file or nothing, none of the run's inputs, and a log a knowrl run wrote when it
    exists (a fresh run moves it aside). Raises ``ConfigError``."""
    out = Path(config.output_dir)
    inside = os.path.realpath(out)
    for path in [rank_log(out / config.logging.reward_log, rank, world) for rank in range(world)]:
        real = os.path.realpath(path)
        if not real.startswith(inside.rstrip(os.sep) + os.sep):
            raise ConfigError(f"logging.reward_log {path} leads out of output_dir {out} (to {real}); give a name in it")
        if path.exists() and not path.is_file():
            raise ConfigError(f"logging.reward_log {path} is not a plain file (a folder, a device or a pipe)")
        for key, value in run_inputs(config):
            if same_file(path, Path(value)):
                raise ConfigError(
                    f"logging.reward_log {path} is {key} {value}, which the run reads; give the log another name"
                )
    taken = foreign(out, reward_logs(config))  # moved aside as "an earlier run's" log otherwise (audit 60 J1)
    if taken:
        raise ConfigError(
            f"logging.reward_log {taken[0]} exists and is no reward log a knowrl run wrote; move it away, or give "
            "the log another name"
        )


def report_files(report: Path) -> tuple[Path, Path, Path]:
    """``pipeline.report`` and what the run copies beside it: the reward inspector's page and the reward curve."""
    return report, report.with_name(report.stem + "-rewards.html"), report.with_name(report.stem + "_reward_curve.png")


def check_report(config: TrainConfig) -> None:
    """``pipeline.report`` and the files beside it may be written: not one of the run's own files in output_dir,
    not an input, a folder or a special file, and an existing one only when this project wrote it (the report's
    heading; beside it, the inspector's or the curve's mark, or a page of theirs drawn before the mark beside a
    report of ours). Called before the model loads and again before writing. Raises ``ConfigError`` naming
    ``pipeline.report``."""
    from reward_engine.inspect import MARK as PAGE_MARK

    report, page, curve = report_files(Path(str(config.pipeline.report)))
    out = Path(config.output_dir)
    own = [out / name for name in (*RUN_FILES, config.logging.reward_log)]
    sources = [Path(value) for _, value in run_inputs(config)]
    beside = (  # (file, its mark, what it held before the mark, what it is)
        (page, PAGE_MARK, b"<title>knowrl reward inspector</title>", "reward inspector page"),
        (curve, CURVE_MARK, b"Matplotlib version", "reward curve"),
    )
    try:
        for path in (report, page, curve):
            taken = next((mine for mine in own if same_file(path, mine)), None)
            if taken is not None:
                raise OutputError(
                    f"pipeline.report {path} is the run's own {taken.name}; choose another pipeline.report"
                )
        check_page(report, sources, JOB, REPORT_MARK, "the report", flag="pipeline.report", replace="remove it")
        ours = report.is_file() and report.stat().st_size > 0  # check_page has refused a report not ours
        for path, mark, before, what in beside:
            check_page(path, sources, JOB, None, f"the {what}", overwrite=True, flag="pipeline.report")  # where
            if not _written_by_us(path, mark, before if ours else None):
                raise OutputError(
                    f"pipeline.report {path} exists and is not a {what} {JOB} wrote; remove it (the run copies its "
                    f"{what} beside the report as {path.name}), or choose another pipeline.report"
                )
    except OutputError as exc:
        raise ConfigError(str(exc)) from None


def _written_by_us(path: Path, mark: bytes, before: bytes | None) -> bool:
    """An absent or empty file, one whose head holds ``mark``, or (``before`` given: beside a report of ours) one
    whose head holds what the page held before it carried the mark. A device or pipe swapped in since
    ``check_page`` looked (``read_head`` never blocks on it), or an unreadable file, is an ``OutputError``."""
    head = read_head(path, MARK_BYTES, "pipeline.report", "whether the run wrote it")
    return not head or mark in head or (before is not None and before in head)
