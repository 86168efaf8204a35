"""Does the KnowRL reward, and not just more training, lower held-out hallucination? A seeded ablation.

    python bench/effect.py                 # 3 seeds x 4 reward settings, ~60 min on 2 CPU cores
    python bench/effect.py --quick         # the tiny random model, 1 seed, 2 steps: checks the job end to end

The set-up is ``configs/demo.yaml``'s (SmolLM2-135M, the demo data generated from the Factbook, the
offline reward engine). One cold-start SFT is shared by every run, so the comparison is paired: each
GRPO run starts from the same policy and differs only in its seed (sampling, data order, LoRA
initialisation) and its reward:

- ``knowrl``: the released reward (CORRECT +2, NOT_ATTEMPTED +1, INCORRECT -1 + fact score);
- ``knowrl-june2025``: refusals score -1 like errors, so abstaining should not rise;
- ``knowrl-robust``: the released reward with unsupported claims never raising the fact score;
- ``control``: the same steps with a reward that ignores correctness (format only).

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
from knowrl_io.jsonl import read_objects  # noqa: E402

RESULTS = ROOT / "bench" / "results"
RATES = ("correct", "incorrect", "not_attempted", "accuracy_given_attempted")
LABELS = ("CORRECT", "INCORRECT", "NOT_ATTEMPTED")
SETTINGS: dict[str, list[str]] = {
    "knowrl": ["reward.preset=knowrl"],
    "knowrl-june2025": ["reward.preset=knowrl-june2025"],
    "knowrl-robust": ["reward.preset=knowrl-robust"],
    # Format reward only: the same number of GRPO steps, no signal about being right or abstaining.
    "control": ["reward.preset=knowrl",
                "reward.semantics={correct: 0, not_attempted: 0, incorrect: 0, fact_weight: 0}"],
}
QUICK = ["model.name_or_path=tiny", "sft.max_steps=2", "grpo.max_steps=2", "pipeline.demo_train_questions=16",
         "pipeline.demo_heldout_questions=8", "pipeline.eval_samples=2", "pipeline.eval_max_new_tokens=16",
         "sft.max_length=384", "grpo.max_completion_length=16"]


def config(overrides: list[str]) -> TrainConfig:
    return load_train_config(ROOT / "configs" / "demo.yaml", overrides)


def heldout(model: str, adapter: str | None, cfg: TrainConfig) -> dict[str, Any]:
    """Sampled held-out rates (k answers per question at the training temperature) with 95 % intervals."""
    from knowrl.evaluate import evaluate_model
    from reward_engine.config import parse_reward_config

    grader = parse_reward_config({"factuality": {"enabled": False}})
    sampling = {**eval_sampling(cfg), "samples": max(1, cfg.pipeline.eval_samples)}
    metrics, _ = evaluate_model(model, adapter, Path(cfg.data.eval), grader, cfg.pipeline.eval_max_new_tokens,
                                greedy=False, **sampling)
    return metrics["sampled"]


def per_step(log: Path) -> dict[str, list[float]]:
    """Mean reward and label fractions per GRPO step, from the run's reward log."""
    steps: dict[int, list[dict[str, Any]]] = {}
    for row in read_objects(log):
        if isinstance(row.get("step"), int):
            steps.setdefault(row["step"], []).append(row)
    xs = sorted(steps)
    out: dict[str, list[float]] = {"step": [float(x) for x in xs],
                                   "reward": [statistics.fmean(r.get("total") or 0.0 for r in steps[x]) for x in xs]}
    for label in LABELS:
        out[label] = [sum(r.get("label") == label for r in steps[x]) / len(steps[x]) for x in xs]
    return out


def cold_start(work: Path, overrides: list[str]) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Path]]:
    """Data, the shared SFT policy, and the held-out rates before and after SFT (cached in ``work``)."""
    from knowrl.demo_data import build_demo_data
    from knowrl.merge import merge
    from knowrl.models import resolve_model_path
    from knowrl.sft import sft

    cfg = config(overrides + ["seed=0"])
    p = cfg.pipeline
    data = build_demo_data(work / "data", p.demo_train_questions, p.demo_heldout_questions, 0,
                           p.demo_sft_unsure_share)
    cfg.data.train, cfg.data.eval, cfg.data.sft = str(data["train"]), str(data["heldout"]), str(data["sft"])
    done = work / "cold_start.json"
    if done.exists():
        saved = json.loads(done.read_text())
        return str(Path(saved["policy"]).resolve()), saved["before"], saved["after_sft"], data
    started = time.perf_counter()
    base = resolve_model_path(cfg.model.name_or_path, 0)
    before = heldout(base, None, cfg)
    sft_cfg = cfg.model_copy(deep=True)
    sft_cfg.data.train, sft_cfg.output_dir, sft_cfg.model.name_or_path = str(data["sft"]), str(work / "sft"), base
    sft(sft_cfg)
    policy = str(merge(base, str(work / "sft" / "final"), work / "sft-merged"))
    after_sft = heldout(policy, None, cfg)
    done.write_text(json.dumps({"policy": policy, "before": before, "after_sft": after_sft,
                                "wall_s": time.perf_counter() - started}))
    return policy, before, after_sft, data


def grpo_run(work: Path, overrides: list[str], policy: str, data: dict[str, Path], setting: str,
             seed: int) -> dict[str, Any]:
    """One GRPO run from the shared SFT policy and its held-out rates (cached in ``work``)."""
    from knowrl.grpo import train

    out = work / f"{setting}-seed{seed}"
    done = out / "effect.json"
    if done.exists():
        return json.loads(done.read_text())
    cfg = config(overrides + SETTINGS[setting] + [f"seed={seed}", f"output_dir={out}", f"model.name_or_path={policy}",
                                                  f"data.train={data['train']}", f"data.eval={data['heldout']}",
                                                  "grpo.save_steps=100000"])
    started = time.perf_counter()
    summary = train(cfg)
    result = {"setting": setting, "seed": seed, "train_s": time.perf_counter() - started,
              "semantics": cfg.reward.reward_semantics.model_dump(),
              "heldout": heldout(policy, summary["adapter"], cfg),
              "steps": per_step(out / cfg.logging.reward_log)}
    result["wall_s"] = time.perf_counter() - started  # training and evaluation
    done.write_text(json.dumps(result))
    return result


def spread(values: list[float]) -> str:
    return f"{statistics.fmean(values):.3f} ± {statistics.stdev(values):.3f}" if len(values) > 1 \
        else f"{values[0]:.3f}"


def verdicts(after_sft: dict[str, Any], runs: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Per setting: in how many seeds incorrect fell below, and not-attempted rose above, the SFT interval."""
    low_incorrect = after_sft["intervals"]["incorrect"][0]
    high_abstain = after_sft["intervals"]["not_attempted"][1]
    lines = []
    for setting, results in runs.items():
        fell = sum(r["heldout"]["incorrect"] < low_incorrect for r in results)
        rose = sum(r["heldout"]["not_attempted"] > high_abstain for r in results)
        better = sum(r["heldout"]["accuracy_given_attempted"] > after_sft["accuracy_given_attempted"] for r in results)
        lines.append(f"- `{setting}`: incorrect below the after-SFT interval (< {low_incorrect:.2f}) in {fell} of "
                     f"{len(results)} seeds; not-attempted above it (> {high_abstain:.2f}) in {rose} of {len(results)}; "
                     f"accuracy-given-attempted above after-SFT in {better} of {len(results)}.")
    names = list(runs)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if len(runs[a]) == len(runs[b]) and all(x["heldout"] == y["heldout"] for x, y in zip(runs[a], runs[b])):
                lines.append(f"- `{a}` and `{b}` give the same held-out answers in every seed: their rewards never "
                             "differed on this run's completions (same seed, same samples, same updates).")
    return lines


def write_markdown(path: Path, command: str, cfg: TrainConfig, before: dict[str, Any], after_sft: dict[str, Any],
                   runs: dict[str, list[dict[str, Any]]], wall_s: tuple[float, float], png: Path) -> None:
    """``wall_s``: the cold start plus every run as each recorded it (an interrupted job resumes, so one
    invocation's clock can miss runs an earlier one finished), and this invocation's."""
    p, g = cfg.pipeline, cfg.grpo
    n = after_sft["n"]
    lines = [f"# Held-out hallucination after GRPO, by reward ({len(next(iter(runs.values())))} seeds)", "",
             f"Command: `{command}` ({wall_s[0] / 60:.1f} min: the cold start and every run as each recorded "
             f"it; this invocation {wall_s[1] / 60:.1f} min; {platform.machine()}, {os.cpu_count()} cores, "
             f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}). Everything below is from that command's runs.", "",
             f"Set-up: `configs/demo.yaml` (policy `{cfg.model.name_or_path}`, "
             f"LoRA r {cfg.lora.r}); {p.demo_train_questions} training / {p.demo_heldout_questions} held-out questions "
             f"(data seed 0; {p.demo_sft_unsure_share:.0%} of the real training questions get \"I don't know\" as "
             f"cold-start target); one cold-start SFT ({cfg.sft.get('max_steps')} steps) shared by every run; GRPO "
             f"{g.get('max_steps')} steps, {g.get('per_device_train_batch_size')} completions per step "
             f"({g.get('num_generations')} per prompt), lr {g.get('learning_rate')}, beta {g.get('beta')}, "
             f"temperature {g.get('temperature')}. Held-out: {max(1, p.eval_samples)} sampled answers per question "
             f"at the training temperature, n = {n} per run; `[low, high]` is a 95 % Wilson interval; GRPO columns "
             "are mean ± sd over seeds.", "",
             "| held-out rate | before | after SFT | " + " | ".join(f"GRPO `{s}`" for s in runs) + " |",
             "|---|---|---|" + "---|" * len(runs)]
    for key in RATES:
        lines.append(f"| {key} | {cell(before, key)} | {cell(after_sft, key)} | "
                     + " | ".join(spread([r["heldout"][key] for r in results]) for results in runs.values()) + " |")
    lines += ["", "## Did it move beyond the noise?", ""] + verdicts(after_sft, runs)
    lines += ["", "## Every run", "", "| setting | seed | correct | incorrect | not attempted | acc. given attempted "
              "| GRPO min |", "|---|---:|---|---|---|---:|---:|"]
    for setting, results in runs.items():
        for r in results:
            h = r["heldout"]
            lines.append(f"| {setting} | {r['seed']} | {cell(h, 'correct')} | {cell(h, 'incorrect')} | "
                         f"{cell(h, 'not_attempted')} | {h['accuracy_given_attempted']:.3f} | {r['train_s'] / 60:.1f} |")
    lines += ["", f"![reward and label fractions per GRPO step]({png.name})", ""]
    path.write_text("\n".join(lines))


def plot(png: Path, before: dict[str, Any], after_sft: dict[str, Any], runs: dict[str, list[dict[str, Any]]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    names = ["after SFT"] + list(runs)
    for i, key in enumerate(("correct", "incorrect", "not_attempted")):
        means = [after_sft[key]] + [statistics.fmean(r["heldout"][key] for r in runs[s]) for s in runs]
        sds = [0.0] + [statistics.stdev([r["heldout"][key] for r in runs[s]]) if len(runs[s]) > 1 else 0.0
                       for s in runs]
        axes[0].bar([x + i * 0.27 for x in range(len(names))], means, 0.27, yerr=sds, label=key, capsize=3)
    axes[0].set_xticks([x + 0.27 for x in range(len(names))], names, rotation=20, fontsize=8)
    axes[0].set_title("held-out rates (mean ± sd over seeds)")
    axes[0].legend(fontsize=8)
    for setting, results in runs.items():
        steps = results[0]["steps"]["step"]
        for ax, key in ((axes[1], "reward"), (axes[2], "NOT_ATTEMPTED")):
            series = [r["steps"][key] for r in results if len(r["steps"][key]) == len(steps)]
            mean = [statistics.fmean(v) for v in zip(*series)]
            ax.plot(steps, smooth(mean), label=setting)
    axes[1].set_title("reward per GRPO step (mean over seeds, smoothed)")
    axes[2].set_title("fraction 'I don't know' per GRPO step")
    for ax in axes[1:]:
        ax.set_xlabel("GRPO step")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def smooth(values: list[float], window: int = 5) -> list[float]:
    """Trailing mean: a step holds one prompt's few completions, too noisy to read raw."""
    return [statistics.fmean(values[max(0, i - window + 1): i + 1]) for i in range(len(values))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override configs/demo.yaml (as python -m knowrl.train --set)")
    parser.add_argument("--quick", action="store_true", help="tiny model, 1 seed, 2 steps: the job end to end")
    parser.add_argument("--work", type=Path, help="where runs are kept (and resumed from)")
    parser.add_argument("--out", type=Path, help="results markdown (default bench/results/effect.md; "
                        "with --quick, <work>/effect.md)")
    args = parser.parse_args(argv)
    overrides = (QUICK if args.quick else []) + args.set
    seeds = args.seeds[:1] if args.quick else args.seeds
    work = args.work or Path(os.environ.get("TMPDIR", "/tmp")) / ("knowrl-effect-quick" if args.quick else "knowrl-effect")
    work = work.resolve()  # config overrides resolve relative paths against configs/
    work.mkdir(parents=True, exist_ok=True)
    out = args.out or (work / "effect.md" if args.quick else RESULTS / "effect.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    policy, before, after_sft, data = cold_start(work, overrides)
    cold_s = json.loads((work / "cold_start.json").read_text())["wall_s"]
    runs: dict[str, list[dict[str, Any]]] = {s: [] for s in args.settings}
    for seed in seeds:
        for setting in args.settings:
            runs[setting].append(grpo_run(work, overrides, policy, data, setting, seed))
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
