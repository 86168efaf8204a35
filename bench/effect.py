"""Does the KnowRL reward, and not just more training, lower held-out hallucination? A seeded ablation.

    python bench/effect.py                 # 3 seeds x 3 reward presets, ~55 min on 2 CPU cores
    python bench/effect.py --settings knowrl control    # the format-only control beside the released reward
    python bench/effect.py --quick         # the tiny random model, 1 seed, 2 steps: checks the job end to end

The set-up is ``configs/demo.yaml``'s (SmolLM2-135M, the demo data generated from the Factbook, the
offline reward engine). One cold-start SFT is shared by every run, so the comparison is paired: each
GRPO run starts from the same policy and differs only in its seed (sampling, data order, LoRA
initialisation) and its reward:

- ``knowrl``: the released reward (CORRECT +2, NOT_ATTEMPTED +1, INCORRECT -1 + fact score);
- ``knowrl-june2025``: refusals score -1 like errors, so abstaining should not rise;
- ``knowrl-robust``: the released reward with unsupported claims never raising the fact score;
- ``control``: the same steps with a reward that ignores correctness (format only).

``knowrl-robust`` differs from ``knowrl`` only on wrong answers whose reasoning mixes supported and
unsupported claims. Training is deterministic for a seed, so where its reward equals ``knowrl``'s on every
completion a ``knowrl`` run logged, its run would repeat that run update for update: the job checks this
from the log (re-scoring each logged completion under both rewards) and reuses the run instead of
training it again; any completion that scores differently makes it train for real.

Held-out evaluation draws k answers per question at the training temperature (n = k x questions;
95 % Wilson intervals). Results: ``bench/results/effect.md`` and ``effect.png`` (held-out rates per
setting, mean and spread over seeds; reward and label fractions per GRPO step from ``rewards.jsonl``).
Each finished run is kept in ``--work``, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knowrl.config import TrainConfig, load_train_config  # noqa: E402
from knowrl.pipeline import cell, eval_sampling  # noqa: E402
from knowrl.pipeline_report import side  # noqa: E402
from knowrl_io.jsonl import read_objects  # noqa: E402
from reward_engine.labels import Label  # noqa: E402
from reward_engine.semantics import Semantics, combine, fact_score  # noqa: E402

RESULTS = ROOT / "bench" / "results"
RATES = ("correct", "incorrect", "not_attempted", "accuracy_given_attempted")
LABELS = ("CORRECT", "INCORRECT", "NOT_ATTEMPTED")
SETTINGS: dict[str, list[str]] = {
    "knowrl": ["reward.preset=knowrl"],
    "knowrl-june2025": ["reward.preset=knowrl-june2025"],
    "knowrl-robust": ["reward.preset=knowrl-robust"],
    # Format reward only: the same number of GRPO steps, no signal about being right or abstaining.
    "control": [
        "reward.preset=knowrl",
        "reward.semantics={correct: 0, not_attempted: 0, incorrect: 0, fact_weight: 0}",
    ],
}
# A setting whose run may be a replay of another's (see the module docstring).
REPLAYS = {"knowrl-robust": "knowrl"}
QUICK = [
    "model.name_or_path=tiny",
    "sft.max_steps=2",
    "grpo.max_steps=2",
    "pipeline.demo_train_questions=16",
    "pipeline.demo_heldout_questions=8",
    "pipeline.eval_samples=2",
    "pipeline.eval_max_new_tokens=16",
    "sft.max_length=384",
    "grpo.max_completion_length=16",
]


def config(overrides: list[str]) -> TrainConfig:
    return load_train_config(ROOT / "configs" / "demo.yaml", overrides)


def heldout(model: str, adapter: str | None, cfg: TrainConfig) -> dict[str, Any]:
    """Sampled held-out rates (k answers per question at the training temperature) with 95 % intervals."""
    from knowrl.evaluate import evaluate_model
    from reward_engine.config import parse_reward_config

    grader = parse_reward_config({"factuality": {"enabled": False}})
    sampling = {**eval_sampling(cfg), "samples": max(1, cfg.pipeline.eval_samples)}
    metrics, _ = evaluate_model(
        model, adapter, Path(cfg.data.eval), grader, cfg.pipeline.eval_max_new_tokens, greedy=False, **sampling
    )
    return metrics["sampled"]


def per_step(log: Path) -> dict[str, list[float]]:
    """Mean reward and label fractions per GRPO step, from the run's reward log."""
    steps: dict[int, list[dict[str, Any]]] = {}
    for row in read_objects(log):
        if isinstance(row.get("step"), int):
            steps.setdefault(row["step"], []).append(row)
    xs = sorted(steps)
    totals = {x: [r.get("total") or 0.0 for r in steps[x]] for x in xs}
    out: dict[str, list[float]] = {
        "step": [float(x) for x in xs],
        "reward": [statistics.fmean(totals[x]) for x in xs],
        # GRPO learns nothing from a step whose completions all score the same
        "reward_sd": [statistics.pstdev(totals[x]) for x in xs],
    }
    for label in LABELS:
        out[label] = [sum(r.get("label") == label for r in steps[x]) / len(steps[x]) for x in xs]
    return out


def rescore(row: dict[str, Any], sem: Semantics) -> float | None:
    """A logged completion's correctness reward under ``sem``, from its label and checked claims."""
    label = row.get("label")
    if label is None:
        return None if row.get("correctness") is None else sem.no_answer
    fact = None
    if label == Label.INCORRECT.value and row.get("factuality") is not None:
        kept = [c for c in row.get("claims") or [] if c.get("on_topic", True)]
        fact = fact_score(sum(bool(c.get("supported")) for c in kept), len(kept), sem)
    return combine(Label(label), fact, sem)


def replay(log: Path, trained: Semantics, other: Semantics) -> tuple[int, int] | None:
    """(completions, how many ``other`` scores differently) over a run's reward log; None when the log
    cannot reproduce the reward the run was trained with, or the format rewards differ."""
    if (trained.format_correct, trained.format_wrong) != (other.format_correct, other.format_wrong):
        return None
    rows = differ = 0
    for row in read_objects(log):
        logged, mine, theirs = row.get("correctness"), rescore(row, trained), rescore(row, other)
        if (logged is None) != (mine is None) or (mine is not None and abs(mine - logged) > 1e-9):
            return None
        rows += 1
        differ += (mine is None) != (theirs is None) or (mine is not None and abs(mine - theirs) > 1e-12)
    return rows, differ


def check_made_with(saved: dict[str, Any], overrides: list[str], where: Path) -> None:
    """A kept run is reused only if it was made with the same overrides (else a stale table)."""
    if saved.get("overrides", overrides) != overrides:
        raise SystemExit(
            f"{where} was made with {saved['overrides']}, not {overrides}: give another --work, or remove it"
        )


def cold_start(work: Path, overrides: list[str]) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Path]]:
    """Data, the shared SFT policy, and the held-out rates before and after SFT (cached in ``work``)."""
    from knowrl.demo_data import build_demo_data
    from knowrl.merge import merge
    from knowrl.models import resolve_model_path
    from knowrl.sft import sft

    cfg = config(overrides + ["seed=0"])
    p = cfg.pipeline
    data = build_demo_data(work / "data", p.demo_train_questions, p.demo_heldout_questions, 0, p.demo_sft_unsure_share)
    cfg.data.train, cfg.data.eval, cfg.data.sft = str(data["train"]), str(data["heldout"]), str(data["sft"])
    done = work / "cold_start.json"
    made_with = [o for o in overrides if not o.startswith("grpo.")]  # GRPO settings do not touch it
    if done.exists():
        saved = json.loads(done.read_text())
        check_made_with(saved, made_with, done)
        return str(Path(saved["policy"]).resolve()), saved["before"], saved["after_sft"], data
    started = time.perf_counter()
    base = resolve_model_path(cfg.model.name_or_path, 0)
    before = heldout(base, None, cfg)
    sft_cfg = cfg.model_copy(deep=True)
    sft_cfg.data.train, sft_cfg.output_dir, sft_cfg.model.name_or_path = str(data["sft"]), str(work / "sft"), base
    sft(sft_cfg)
    policy = str(merge(base, str(work / "sft" / "final"), work / "sft-merged"))
    after_sft = heldout(policy, None, cfg)
    done.write_text(
        json.dumps(
            {
                "policy": policy,
                "before": before,
                "after_sft": after_sft,
                "wall_s": time.perf_counter() - started,
                "overrides": made_with,
            }
        )
    )
    return policy, before, after_sft, data


def grpo_run(
    work: Path, overrides: list[str], policy: str, data: dict[str, Path], setting: str, seed: int
) -> dict[str, Any]:
    """One GRPO run from the shared SFT policy and its held-out rates (cached in ``work``)."""
    from knowrl.grpo import train

    out = work / f"{setting}-seed{seed}"
    done = out / "effect.json"
    if done.exists():
        saved = json.loads(done.read_text())
        check_made_with(saved, overrides, done)
        return saved
    cfg = config(
        overrides
        + SETTINGS[setting]
        + [
            f"seed={seed}",
            f"output_dir={out}",
            f"model.name_or_path={policy}",
            f"data.train={data['train']}",
            f"data.eval={data['heldout']}",
            "grpo.save_steps=100000",
        ]
    )
    started = time.perf_counter()
    summary = train(cfg)
    result = {
        "setting": setting,
        "seed": seed,
        "train_s": time.perf_counter() - started,
        "semantics": cfg.reward.reward_semantics.model_dump(),
        "heldout": heldout(policy, summary["adapter"], cfg),
        "steps": per_step(out / cfg.logging.reward_log),
        "overrides": overrides,
    }
    result["wall_s"] = time.perf_counter() - started  # training and evaluation
    done.write_text(json.dumps(result))
    return result


def replayed_run(work: Path, overrides: list[str], source: dict[str, Any], setting: str) -> dict[str, Any] | None:
    """``setting``'s run as a copy of ``source``'s when its reward equals the source's on every logged
    completion (same seed, so the same samples and updates); None when it must be trained."""
    sem = config(overrides + SETTINGS[setting]).reward.reward_semantics
    checked = replay(
        work / f"{source['setting']}-seed{source['seed']}" / "rewards.jsonl", Semantics(**source["semantics"]), sem
    )
    if checked is None or checked[1]:
        return None
    out = work / f"{setting}-seed{source['seed']}"
    out.mkdir(parents=True, exist_ok=True)
    result = {
        **source,
        "setting": setting,
        "semantics": sem.model_dump(),
        "replayed_from": source["setting"],
        "replayed_rows": checked[0],
        "train_s": 0.0,
        "wall_s": 0.0,
    }
    (out / "effect.json").write_text(json.dumps(result))
    return result


def spread(values: list[float]) -> str:
    return f"{statistics.fmean(values):.3f} ± {statistics.stdev(values):.3f}" if len(values) > 1 else f"{values[0]:.3f}"


def direction(sem: Semantics) -> str | None:
    """'abstain' when the reward pays "I don't know" above a wrong answer, 'answer' when it does not,
    None when it ignores correctness."""
    if sem.correct == sem.not_attempted == sem.incorrect and not sem.fact_weight:
        return None
    return "answer" if sem.not_attempted <= sem.incorrect else "abstain"


def moved(run: dict[str, Any], after_sft: dict[str, Any]) -> bool | None:
    """Did the held-out rates leave the after-SFT intervals the way the run's reward predicts?"""
    held, intervals = run["heldout"], after_sft["intervals"]
    way = direction(Semantics(**run["semantics"]))
    if way is None:
        return None
    abstained = side(held["not_attempted"], intervals["not_attempted"])
    if way == "answer":
        return abstained == "below"
    return side(held["incorrect"], intervals["incorrect"]) == "below" and abstained == "above"


def halves(values: list[float]) -> tuple[float, float]:
    """Mean over the first and the second half of a run's steps."""
    half = max(1, len(values) // 2)
    return statistics.fmean(values[:half]), statistics.fmean(values[half:] or values)


def flat_steps(steps: dict[str, list[float]]) -> int | None:
    """Steps whose completions all scored the same: no advantage, so no GRPO update."""
    return sum(sd < 1e-9 for sd in steps["reward_sd"]) if "reward_sd" in steps else None


def verdicts(after_sft: dict[str, Any], runs: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Per setting: how many seeds moved the way its reward predicts, and for those that did not, what
    their training logs show next to the seeds that did."""
    (low_inc, high_inc), (low_na, high_na) = (
        after_sft["intervals"]["incorrect"],
        after_sft["intervals"]["not_attempted"],
    )
    lines = []
    for setting, results in runs.items():
        n, held = len(results), [r["heldout"] for r in results]
        sem = Semantics(**results[0]["semantics"])
        if direction(sem) == "answer":
            lines.append(
                f"- `{setting}`: not-attempted below the after-SFT interval (< {low_na:.2f}) in "
                f"{sum(h['not_attempted'] < low_na for h in held)} of {n} seeds; incorrect above it "
                f"(> {high_inc:.2f}) in {sum(h['incorrect'] > high_inc for h in held)} of {n}."
            )
        else:
            better = sum(h["accuracy_given_attempted"] > after_sft["accuracy_given_attempted"] for h in held)
            low_correct = after_sft["intervals"]["correct"][0]
            lines.append(
                f"- `{setting}`: incorrect below the after-SFT interval (< {low_inc:.2f}) in "
                f"{sum(h['incorrect'] < low_inc for h in held)} of {n} seeds; not-attempted above it "
                f"(> {high_na:.2f}) in {sum(h['not_attempted'] > high_na for h in held)} of {n}; "
                f"accuracy-given-attempted above after-SFT in {better} of {n}; correct below its interval "
                f"(< {low_correct:.2f}: abstaining also on questions it knew) in "
                f"{sum(h['correct'] < low_correct for h in held)} of {n}."
            )
        lines.append(f"  - Expected: {expectation(sem)}")
        verdict = [moved(r, after_sft) for r in results]
        if None not in verdict:
            lines.append(f"  - Moved as expected, beyond the intervals, in {sum(verdict)} of {n} seeds.")
            went = [halves(r["steps"]["NOT_ATTEMPTED"])[0] for r, ok in zip(results, verdict) if ok]
            for r, ok in zip(results, verdict):
                if not ok:
                    lines.append(f"  - Seed {r['seed']} did not. {why(r, went)}")
        replayed = [r for r in results if r.get("replayed_from")]
        if replayed:
            lines.append(
                f"  - Not trained again in {len(replayed)} of {n} seeds: on every completion the "
                f"`{replayed[0]['replayed_from']}` run logged ({replayed[0]['replayed_rows']} per seed) this "
                "reward gives the same number, so with the same seed its run takes the same samples and "
                "updates. The two rewards differ only on wrong answers whose reasoning mixes supported and "
                "unsupported claims, which this policy's one-sentence reasoning does not produce."
            )
    names = list(runs)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if any(r.get("replayed_from") for r in runs[a] + runs[b]):
                continue
            if len(runs[a]) == len(runs[b]) and all(x["heldout"] == y["heldout"] for x, y in zip(runs[a], runs[b])):
                lines.append(
                    f"- `{a}` and `{b}` give the same held-out answers in every seed: their rewards never "
                    "differed on this run's completions (same seed, same samples, same updates)."
                )
    return lines


def why(run: dict[str, Any], moved_starts: list[float]) -> str:
    """What the training log of a run that did not move shows, beside the runs that did."""
    steps = run["steps"]
    (na0, na1), (inc0, inc1) = halves(steps["NOT_ATTEMPTED"]), halves(steps["INCORRECT"])
    flat = flat_steps(steps)
    text = (
        f'In training, "I don\'t know" went {na0:.2f} -> {na1:.2f} of its completions and incorrect '
        f"{inc0:.2f} -> {inc1:.2f} (first vs second half of its {len(steps['step'])} steps)"
    )
    text += f"; {flat} steps had no reward spread, so no update." if flat is not None else "."
    if moved_starts and na0 < min(moved_starts):
        text += (
            f' It sampled "I don\'t know" less at the start than the seeds that moved ('
            f"{min(moved_starts):.2f}-{max(moved_starts):.2f}): GRPO can only reinforce answers it samples, "
            "so it had less to push up; by its last step its held-out rates had not followed its training ones."
        )
    elif moved_starts:
        text += " Its training log looks like those of the seeds that moved: seed-to-seed spread, not a clear cause."
    return text


def expectation(sem: Semantics) -> str:
    """The direction the reward's constants predict for abstention."""
    way = direction(sem)
    if way is None:
        return "the reward ignores correctness, so it predicts no direction."
    if way == "answer":
        return (
            f'"I don\'t know" scores {sem.not_attempted:+g}, no more than a wrong answer ({sem.incorrect:+g}), '
            "so guessing never pays less than abstaining: not-attempted should fall, not rise."
        )
    p = (sem.not_attempted - sem.incorrect) / (sem.correct - sem.incorrect)
    return (
        f"answering pays only where the policy is right more than {p:.0%} of the time (CORRECT "
        f"{sem.correct:+g}, NOT_ATTEMPTED {sem.not_attempted:+g}, INCORRECT {sem.incorrect:+g}); below that, "
        "abstaining scores more: incorrect should fall and not-attempted rise."
    )


def write_markdown(
    path: Path,
    command: str,
    cfg: TrainConfig,
    before: dict[str, Any],
    after_sft: dict[str, Any],
    runs: dict[str, list[dict[str, Any]]],
    wall_s: tuple[float, float],
    png: Path,
) -> None:
    """``wall_s``: the cold start plus every run as each recorded it (an interrupted job resumes, so one
    invocation's clock can miss runs an earlier one finished), and this invocation's."""
    p, g = cfg.pipeline, cfg.grpo
    n = after_sft["n"]
    lines = [
        f"# Held-out hallucination after GRPO, by reward ({len(next(iter(runs.values())))} seeds)",
        "",
        f"Command: `{command}` ({wall_s[0] / 60:.1f} min: the cold start and every run as each recorded "
        f"it; this invocation {wall_s[1] / 60:.1f} min; {platform.machine()}, {os.cpu_count()} cores, "
        f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}). Everything below is from that command's runs.",
        "",
        f"Set-up: `configs/demo.yaml` (policy `{cfg.model.name_or_path}`, "
        f"LoRA r {cfg.lora.r}); {p.demo_train_questions} training / {p.demo_heldout_questions} held-out questions "
        f'(data seed 0; {p.demo_sft_unsure_share:.0%} of the real training questions get "I don\'t know" as '
        f"cold-start target); one cold-start SFT ({cfg.sft.get('max_steps')} steps) shared by every run; GRPO "
        f"{g.get('max_steps')} steps, {g.get('per_device_train_batch_size')} completions per step "
        f"({g.get('num_generations')} per prompt), lr {g.get('learning_rate')}, beta {g.get('beta')}, "
        f"temperature {g.get('temperature')}. Held-out: {max(1, p.eval_samples)} sampled answers per question "
        f"at the training temperature, n = {n} per run; `[low, high]` is a 95 % Wilson interval; GRPO columns "
        "are mean ± sd over seeds.",
        "",
        "| held-out rate | before | after SFT | " + " | ".join(f"GRPO `{s}`" for s in runs) + " |",
        "|---|---|---|" + "---|" * len(runs),
    ]
    for key in RATES:
        lines.append(
            f"| {key} | {cell(before, key)} | {cell(after_sft, key)} | "
            + " | ".join(spread([r["heldout"][key] for r in results]) for results in runs.values())
            + " |"
        )
    lines += ["", "## Did it move beyond the noise?", ""] + verdicts(after_sft, runs)
    lines += [
        "",
        "## Every run",
        "",
        "Held-out rates after GRPO, and the run's own training completions (first -> "
        "second half of its steps; flat: steps whose completions all scored the same, so GRPO made no update).",
        "",
        "| setting | seed | correct | incorrect | not attempted | acc. given attempted | training "
        '"I don\'t know" | training incorrect | flat steps | GRPO min |',
        "|---|---:|---|---|---|---:|---|---|---:|---:|",
    ]
    for setting, results in runs.items():
        for r in results:
            h = r["heldout"]
            minutes = f"= `{r['replayed_from']}`" if r.get("replayed_from") else f"{r['train_s'] / 60:.1f}"
            trained = " | ".join(
                "{:.2f} -> {:.2f}".format(*halves(r["steps"][k])) for k in ("NOT_ATTEMPTED", "INCORRECT")
            )
            flat = flat_steps(r["steps"])
            lines.append(
                f"| {setting} | {r['seed']} | {cell(h, 'correct')} | {cell(h, 'incorrect')} | "
                f"{cell(h, 'not_attempted')} | {h['accuracy_given_attempted']:.3f} | {trained} | "
                f"{'' if flat is None else flat} | {minutes} |"
            )
    lines += ["", f"![reward and label fractions per GRPO step]({png.name})", ""]
    path.write_text("\n".join(lines))


def plot(png: Path, before: dict[str, Any], after_sft: dict[str, Any], runs: dict[str, list[dict[str, Any]]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4, figsize=(20, 4))
    names = ["after SFT"] + list(runs)
    for i, key in enumerate(("correct", "incorrect", "not_attempted")):
        means = [after_sft[key]] + [statistics.fmean(r["heldout"][key] for r in runs[s]) for s in runs]
        sds = [0.0] + [
            statistics.stdev([r["heldout"][key] for r in runs[s]]) if len(runs[s]) > 1 else 0.0 for s in runs
        ]
        axes[0].bar([x + i * 0.27 for x in range(len(names))], means, 0.27, yerr=sds, label=key, capsize=3)
    axes[0].set_xticks([x + 0.27 for x in range(len(names))], names, rotation=20, fontsize=8)
    axes[0].set_title("held-out rates (mean ± sd over seeds)")
    axes[0].legend(fontsize=8)
    for setting, results in runs.items():
        steps = results[0]["steps"]["step"]
        for ax, key in ((axes[1], "reward"), (axes[2], "INCORRECT"), (axes[3], "NOT_ATTEMPTED")):
            series = [r["steps"][key] for r in results if len(r["steps"][key]) == len(steps)]
            mean = [statistics.fmean(v) for v in zip(*series)]
            replay = any(r.get("replayed_from") for r in results)  # drawn dashed: it lies on its source
            ax.plot(steps, smooth(mean), "--" if replay else "-", label=setting + (" (= replay)" if replay else ""))
    axes[1].set_title("reward per GRPO step (mean over seeds, smoothed)")
    axes[2].set_title("fraction incorrect per GRPO step (smoothed)")
    axes[3].set_title("fraction 'I don't know' per GRPO step (smoothed)")
    for ax in axes[1:]:
        ax.set_xlabel("GRPO step")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def smooth(values: list[float], window: int = 5) -> list[float]:
    """Trailing mean: a step holds one prompt's few completions, too noisy to read raw."""
    return [statistics.fmean(values[max(0, i - window + 1) : i + 1]) for i in range(len(values))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument(
        "--settings", nargs="+", default=["knowrl", "knowrl-june2025", "knowrl-robust"], choices=list(SETTINGS)
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override configs/demo.yaml (as python -m knowrl.train --set)",
    )
    parser.add_argument("--quick", action="store_true", help="tiny model, 1 seed, 2 steps: the job end to end")
    parser.add_argument("--work", type=Path, help="where runs are kept (and resumed from)")
    parser.add_argument(
        "--out", type=Path, help="results markdown (default bench/results/effect.md; with --quick, <work>/effect.md)"
    )
    args = parser.parse_args(argv)
    overrides = (QUICK if args.quick else []) + args.set
    seeds = args.seeds[:1] if args.quick else args.seeds
    work = args.work or Path(os.environ.get("TMPDIR", "/tmp")) / (
        "knowrl-effect-quick" if args.quick else "knowrl-effect"
    )
    work = work.resolve()  # config overrides resolve relative paths against configs/
    work.mkdir(parents=True, exist_ok=True)
    out = args.out or (work / "effect.md" if args.quick else RESULTS / "effect.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    policy, before, after_sft, data = cold_start(work, overrides)
    cold_s = json.loads((work / "cold_start.json").read_text())["wall_s"]
    runs: dict[str, list[dict[str, Any]]] = {s: [] for s in args.settings}
    order = sorted(args.settings, key=lambda s: s in REPLAYS)  # a replay's source runs first
    for seed in seeds:
        for setting in order:
            source = REPLAYS.get(setting)
            result = None
            if source in runs and not (work / f"{setting}-seed{seed}" / "effect.json").exists():
                result = replayed_run(work, overrides, runs[source][-1], setting)
            runs[setting].append(result or grpo_run(work, overrides, policy, data, setting, seed))
            print(json.dumps({k: runs[setting][-1][k] for k in ("setting", "seed", "train_s")}), flush=True)
    png = out.with_suffix(".png")
    plot(png, before, after_sft, runs)
    command = "python bench/effect.py " + " ".join(argv if argv is not None else sys.argv[1:])
    total_s = cold_s + sum(r["wall_s"] for results in runs.values() for r in results)
    clocks = (total_s, time.perf_counter() - started)
    write_markdown(out, command.strip(), config(overrides), before, after_sft, runs, clocks, png)
    print(out.read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
