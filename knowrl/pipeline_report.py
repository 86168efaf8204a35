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

from knowrl_io import provenance

log = logging.getLogger(__name__)
REPORT_MARK = b"# Pipeline run: `"  # the report's first line: a file with it is our report, which a rerun replaces


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
    for label, deltas in (paired.get("stages") or {}).items():
        parts = [
            f"{key} {d['delta']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}]"
            for key in ("f_score", "incorrect", "correct", "not_attempted")
            for d in [deltas[key]]
        ]
        lines.append(f"- {label}, greedy: " + "; ".join(parts))
    sel = paired.get("selectivity")
    if sel:
        a, b, gap = sel["after_sft"], sel["after"], sel["gap"]

        def pct(x: float | None) -> str:
            return "-" if x is None else f"{x:.2f}"

        lines.append(
            f"- greedy abstention on the {a['n_known']} questions known ({sel.get('known_by', 'by the SFT policy')}): "
            f"{pct(a['abstain_known'])} -> "
            f"{pct(b['abstain_known'])}; on the {a['n_unknown']} it did not: {pct(a['abstain_unknown'])} -> "
            f"{pct(b['abstain_unknown'])}; on {a['n_made_up']} made-up: {pct(a['abstain_made_up'])} -> "
            f"{pct(b['abstain_made_up'])}; AUROC of abstention for unknown {pct(a['auroc_unknown'])} -> "
            f"{pct(b['auroc_unknown'])}"
            + (f"; gap change {gap['delta']:+.3f} [{gap['low']:+.3f}, {gap['high']:+.3f}]" if gap else "")
        )
    return lines


def data_lines(data: dict[str, Any] | None) -> list[str]:
    """How many questions the base policy knew, per family, on each side (the gradient design)."""
    if not data or data.get("design") != "gradient":
        return []

    def side(name: str) -> str:
        got = data[name]
        fams = ", ".join(f"{f} {v['known']}/{v['questions']}" for f, v in sorted(got.items()) if f != "all")
        total = got["all"]
        return f"{total['known']} of {total['questions']} ({total['known'] / total['questions']:.0%}; {fams})"

    return [
        f"Questions chosen from the base policy's knowledge boundary ({data['rule']}). Known by the base policy: "
        f"answerable held-out {side('heldout_known')}; training {side('train_known')}; all candidates "
        f"{side('candidates')}.",
        "",
    ]


def signal_lines(signal: dict[str, Any] | None) -> list[str]:
    """The GRPO training signal (``knowrl.effect.training_signal``)."""
    if not signal or not signal.get("completions"):
        return []

    def opt(x: float | None, spec: str) -> str:
        return "-" if x is None else format(x, spec)

    return [
        f"GRPO training signal: {signal['steps_with_spread']:.0%} of {signal['steps']} steps trained on a group with "
        f"reward spread; groups with spread {signal['groups_with_spread_first_draw']:.0%} in the first draw, "
        f"{signal['groups_with_spread_trained']:.0%} after dynamic sampling; per step {signal['correct_per_step']:.1f} "
        f"CORRECT and {signal['incorrect_per_step']:.1f} INCORRECT completions drawn; "
        f"{signal['claims_per_completion']:.2f} claims per completion; the fact term's share of in-group reward "
        f"variance {opt(signal['fact_variance_share'], '.1%')}.",
        "",
    ]


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
        f"{REPORT_MARK.decode()}{command}`",
        "",
        f"Written by that command at commit {provenance.commit()}. {minutes(clock.total_s)} from start to table on "
        f"{platform.machine()}, "
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
    lines += data_lines(result.get("data"))
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
    lines += signal_lines(result.get("training_signal"))
    if curve:
        lines += [f"![mean reward per GRPO step]({png.name})", ""]
    pages = [Path(x) for x in result.get("inspector") or [] if Path(x).parent == path.parent]
    if pages:  # the reward inspector's page written beside this report
        page = pages[0]
        lines += [
            f"The GRPO completions behind these numbers, claim by claim with their evidence: [{page.name}]"
            f"({page.name}) (`python -m reward_engine.inspect`).",
            "",
        ]
    path.write_text("\n".join(lines))
    log.info("report written to %s", path)
