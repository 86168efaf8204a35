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


def paired_lines(paired: dict[str, Any]) -> list[str]:
    """After GRPO minus after SFT, per rate, with 95 % intervals from a paired bootstrap over questions, and
    whether abstention moved toward the questions the SFT policy did not know."""
    lines = []
    for mode in ("greedy", "sampled"):
        if mode not in paired:
            continue
        for key in ("f_score", "correct_given_attempted", "correct", "incorrect", "not_attempted", "malformed"):
            d = paired[mode][key]
            beyond = "beyond the noise" if d["low"] > 0 or d["high"] < 0 else "within the noise"
            lines.append(f"- {mode} {key}: {d['delta']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}] ({beyond})")
    sel = paired.get("selectivity")
    if sel:
        a, b, gap = sel["after_sft"], sel["after"], sel["gap"]

        def pct(x: float | None) -> str:
            return "-" if x is None else f"{x:.2f}"

        lines.append(
            f"- greedy abstention on the {a['n_known']} questions the SFT policy knew: {pct(a['abstain_known'])} -> "
            f"{pct(b['abstain_known'])}; on the {a['n_unknown']} it did not: {pct(a['abstain_unknown'])} -> "
            f"{pct(b['abstain_unknown'])}; on {a['n_made_up']} made-up: {pct(a['abstain_made_up'])} -> "
            f"{pct(b['abstain_made_up'])}; AUROC of abstention for unknown {pct(a['auroc_unknown'])} -> "
            f"{pct(b['auroc_unknown'])}"
            + (f"; gap change {gap['delta']:+.3f} [{gap['low']:+.3f}, {gap['high']:+.3f}]" if gap else "")
        )
    return lines


def settings(section: dict[str, Any]) -> str:
    return ", ".join(f"{key} {value}" for key, value in section.items()) or "TRL's defaults"


def cache_note(cached: list[str] | None) -> str:
    """Whether the times above include building the knowledge base and converting the model."""
    if cached is None:
        return ""
    if not cached:
        return (
            "The user cache ($KNOWRL_CACHE_DIR) was empty at the start: these times include building the knowledge "
            "base and converting the model (done in the first stage that needs it)."
        )
    return (
        f"The user cache ($KNOWRL_CACHE_DIR) already held {', '.join(cached)} at the start: stages that found "
        "their output there took seconds."
    )


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
        f"{config.seed}. {cache_note(result.get('cached_at_start'))}",
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
        f"Held-out: greedy and {p.eval_samples} sampled answers per question at the training temperature, "
        "graded by the strict evaluation grader (alias match; no rule shared with the training grader); "
        "`[low, high]` is a 95 % interval from resampling questions.",
        "",
    ]
    if "table" in result:
        lines += [result["table"], ""]
        verdict = paired_lines(result.get("paired") or {})
        if verdict:
            lines += ["After GRPO minus after SFT, same questions (paired bootstrap, 95 %):", ""] + verdict + [""]
        agree = [
            f"{label} {mode}: {v[mode]['agreement']['agree']:.3f} (kappa {v[mode]['agreement']['kappa']:.2f})"
            for key, label in (("after_sft", "after SFT"), ("after", "after GRPO"))
            for v in [result.get(key)]
            if v
            for mode in v
        ]
        if agree:
            lines += ["Strict grader vs the training grader, share of answers labelled alike: " + "; ".join(agree), ""]
    if curve:
        lines += [f"![mean reward per GRPO step]({png.name})", ""]
    path.write_text("\n".join(lines))
    log.info("report written to %s", path)
