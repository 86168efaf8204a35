"""The per-completion reward log of a GRPO run (``rewards.jsonl``) and the curve drawn from it."""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path
from typing import Any

from knowrl_io.jsonl import Appender, read_objects, rewrite
from reward_engine.samples import RewardResult, Sample

log = logging.getLogger(__name__)
CURVE_MARK = b"knowrl reward curve"  # in the PNG's head (its title): a curve of ours, which a rerun replaces
RUN_FOLDERS = re.compile(r"final|data|sft|sft-merged|checkpoint-\d+")  # what a run writes in output_dir itself


def reward_log_problem(value: str) -> str | None:
    """Why ``logging.reward_log`` names no place for the log (one line naming the key), or None: a relative
    ``.jsonl`` name in ``output_dir``, outside the folders the run writes itself. An absolute path or ``..`` wrote
    the log over whatever was there, the run's own data file included, moved aside (hostile pass 59)."""
    name = Path(value)
    inside = "the log is written in output_dir; give a name in it (e.g. rewards.jsonl)"
    if not value.strip():
        return f"logging.reward_log is empty: {inside}"
    if name.is_absolute() or value.startswith("~"):
        return f"logging.reward_log {value} is an absolute or home-folder path: {inside}"
    if ".." in name.parts:
        return f"logging.reward_log {value} leads out of output_dir: {inside}"
    if name.suffix != ".jsonl":
        return f"logging.reward_log {value} must name a .jsonl file (the log is JSON lines), e.g. rewards.jsonl"
    if len(name.parts) > 1 and RUN_FOLDERS.fullmatch(name.parts[0]):
        return f"logging.reward_log {value} lies in output_dir's {name.parts[0]}/, which the run writes itself"
    return None


def rank_log(path: Path, rank: int, world: int) -> Path:
    """The log one process writes: ``path`` in a one-process run, ``<stem>.rank<N><suffix>`` under several (each
    rank scores its own completions)."""
    return path if world == 1 else path.with_name(f"{path.stem}.rank{rank}{path.suffix}")


def other_logs(path: Path, world: int) -> list[Path]:
    """The logs beside ``path`` that a run under another process count wrote and a run of ``world`` processes will
    not: the one-process log under several, every rank's log past this run's (all of them in one process). A
    resume trims them too, so that no step is in two logs."""
    name = re.compile(rf"{re.escape(path.stem)}\.rank(\d+){re.escape(path.suffix)}")
    found = [(p, name.fullmatch(p.name)) for p in path.parent.glob(f"{path.stem}.rank*{path.suffix}")]
    ranks = sorted(p for p, match in found if match and (world == 1 or int(match[1]) >= world))
    return ranks + ([path] if world > 1 and path.exists() else [])


def trim_reward_log(path: Path, step: int) -> None:
    """On resume from ``checkpoint-<step>``: drop rows of steps that will run again (and a torn last line),
    so the log holds each step once."""
    if path.exists():
        rewrite(path, [row for row in read_objects(path) if isinstance(row.get("step"), int) and row["step"] < step])


def start_fresh(path: Path) -> Path | None:
    """A fresh run (no ``--resume``) starts a new log: an old one is moved aside, never appended to
    (its steps would appear twice). Returns where the old log went."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    moved = path.with_name(f"{path.stem}.{time.strftime('%Y%m%d-%H%M%S')}{path.suffix}")
    path.replace(moved)
    log.warning("%s held an earlier run's rewards; moved to %s (use --resume to continue that run)", path, moved)
    return moved


class RewardLog:
    """Appends one JSON line per scored completion: step, inputs and every reward component, under
    ``RewardResult``'s names (``total`` = ``format`` + ``correctness``; ``fact_score`` is already inside
    ``correctness``, shown for reading, null where not computed; logs written before the rename call it
    ``factuality``, which ``reward_engine.samples.fact_score_of`` reads too).

    Picklable (it holds the path; the file reopens on the next write), as TRL-style reward
    callables that carry it must be.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._out = Appender(path)

    def __call__(self, step: int, samples: list[Sample], results: list[RewardResult]) -> None:
        self._out.write(
            [
                {
                    "step": step,
                    "question": s.question,
                    "answers": s.answers,
                    "title": s.title,
                    "completion": s.completion if isinstance(s.completion, str) else str(s.completion),
                    **r.to_dict(),
                }
                for s, r in zip(samples, results)
            ]
        )

    def write_rows(self, step: int, rows: list[dict[str, Any]]) -> None:
        """Rows already shaped by a task reward (maths, reasoning-gym)."""
        self._out.write([{"step": step, **row} for row in rows])

    def close(self) -> None:
        self._out.close()


def reward_curve(log_path: Path, png: Path) -> Path | None:
    """Mean total reward and format reward per GRPO step, from the reward log (a torn last line is skipped)."""
    steps: dict[int, list[tuple[float, float]]] = {}
    for row in read_objects(log_path):
        if isinstance(row.get("step"), int) and row.get("total") is not None and row.get("format") is not None:
            steps.setdefault(row["step"], []).append((row["total"], row["format"]))
    if not steps:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = sorted(steps)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(xs, [sum(t for t, _ in steps[x]) / len(steps[x]) for x in xs], label="total reward")
    ax.plot(xs, [sum(f for _, f in steps[x]) / len(steps[x]) for x in xs], label="format reward")
    ax.set_xlabel("GRPO step")
    ax.set_ylabel("mean over completions")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=100, metadata={"Title": CURVE_MARK.decode()})
    plt.close(fig)
    return png
