"""The pipeline's markdown report: how long each stage took, the held-out table, and whether GRPO moved
the rates beyond their noise (what ``bench/results/demo.md`` is: written by the demo command itself)."""

from __future__ import annotations

import logging
import os
import platform
import shutil
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


class StageClock:
    """Logs each stage as it starts and keeps its wall time (a stage ends when the next one starts)."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.stages: list[tuple[str, float]] = []
        self._current: tuple[str, float] | None = None

    def stage(self, name: str) -> None:
        self.stop()
        log.info("=== %s ===", name)
        self._current = (name, time.perf_counter())

    def stop(self) -> None:
        if self._current:
            name, since = self._current
            self.stages.append((name, time.perf_counter() - since))
            self._current = None

    @property
    def total_s(self) -> float:
        return time.perf_counter() - self.started


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)} min {int(seconds % 60)} s"


def side(value: float, interval: tuple[float, float] | list[float]) -> str:
    """Where a rate after GRPO lies against the after-SFT 95 % interval: below, inside or above."""
    low, high = interval
    return "below" if value < low else "above" if value > high else "inside"


def moved(after_sft: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """KnowRL's direction, judged on the sampled rates: after GRPO outside the after-SFT 95 % interval?"""
    if not after_sft or "sampled" not in after or "sampled" not in after_sft:
        return []
    lines = []
    for key, want in (("incorrect", "down"), ("not_attempted", "up"), ("correct", None)):
        low, high = after_sft["sampled"]["intervals"][key]
        value = after["sampled"][key]
        where = side(value, (low, high))
        verdict = (
            ""
            if want is None
            else (
                " (KnowRL's direction, beyond the noise)"
                if (want, where) in (("down", "below"), ("up", "above"))
                else " (not beyond the noise in KnowRL's direction)"
            )
        )
        lines.append(
            f"- sampled {key}: {after_sft['sampled'][key]:.3f} after SFT -> {value:.3f} after GRPO, "
            f"{where} the after-SFT interval [{low:.2f}, {high:.2f}]{verdict}"
        )
    aga = (after_sft["sampled"]["accuracy_given_attempted"], after["sampled"]["accuracy_given_attempted"])
    lines.append(f"- sampled accuracy given attempted: {aga[0]:.3f} -> {aga[1]:.3f}")
    return lines


def settings(section: dict[str, Any]) -> str:
    return ", ".join(f"{key} {value}" for key, value in section.items()) or "TRL's defaults"


def write_report(path: Path, command: str, config: Any, clock: StageClock, result: dict[str, Any]) -> None:
    """The run's report at ``path``; the reward curve is copied beside it."""
    p, g, s = config.pipeline, config.grpo, config.sft
    path.parent.mkdir(parents=True, exist_ok=True)
    curve = result.get("reward_curve")
    png = path.with_name(path.stem + "_reward_curve.png")
    if curve:
        shutil.copyfile(curve, png)
    lines = [
        f"# Pipeline run: `{command}`",
        "",
        f"Written by that command. {minutes(clock.total_s)} from start to table on {platform.machine()}, "
        f"{os.cpu_count()} cores, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, seed "
        f"{config.seed}. Stages that find their output cached (the knowledge base, the converted model) take "
        "seconds; an empty user cache builds them here.",
        "",
        "| stage | wall time |",
        "|---|---:|",
    ]
    lines += [f"| {name} | {minutes(seconds)} |" for name, seconds in clock.stages]
    lines += [
        "",
        f"Set-up: policy `{config.model.name_or_path}`, LoRA r {config.lora.r} on "
        f"{', '.join(config.lora.target_modules)}; reward preset `{config.reward.preset}` (grader "
        f"{config.reward.grader}, verifier {config.reward.verifier}); cold-start SFT: {settings(s)}; "
        f"GRPO: {settings(g)} (TRL counts completions per batch: "
        f"{g.get('per_device_train_batch_size', 8)} / {g.get('num_generations', 8)} prompts per step). "
        f"Held-out: greedy (n = questions) and {p.eval_samples} sampled answers per question at the training "
        "temperature; `[low, high]` is a 95 % Wilson interval.",
        "",
    ]
    if "table" in result:
        lines += [result["table"], ""]
        verdict = moved(result.get("after_sft"), result["after"])
        if verdict:
            lines += ["After GRPO against after SFT:", ""] + verdict + [""]
    if curve:
        lines += [f"![mean reward per GRPO step]({png.name})", ""]
    path.write_text("\n".join(lines))
    log.info("report written to %s", path)
