"""The GPU path, end to end: GRPO steps on CUDA with each policy backend, timed.

    python bench/gpu.py                        # on a CUDA machine; writes bench/results/gpu.md
    python bench/gpu.py --shape PATH           # also a model shaped like PATH's config.json (random weights)
    python bench/gpu.py --model smollm2        # also real weights (the bundled SmolLM2-135M GGUF)

Each case is ``python -m knowrl.train --config configs/smoke.yaml`` (the offline reward engine, a BM25
knowledge base built from ``configs/data/smoke_kb.jsonl``) with the backend, dtype and model overridden, so
what runs is exactly what a user's run executes. ``--shape`` points at a folder with a model's
``config.json`` and tokenizer (e.g. SmolLM2-135M's, a few MB): random weights of that shape give
representative step times without moving the weights. Random weights rarely stop early, so every
completion runs to ``max_completion_length``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knowrl_io import provenance  # noqa: E402
from knowrl_io.job_output import check_results
from knowrl_io.work_folder import claim_work

SMOKE = ROOT / "configs" / "smoke.yaml"
COMMON = ["reward.factuality.retrieval_mode=bm25", "model.dtype=auto", "grpo.save_steps=100000"]


def shaped_model(source: Path, out: Path) -> Path:
    """Random weights with ``source``'s architecture and tokenizer (written once)."""
    if (out / "config.json").exists():
        return out
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(source))
    model.save_pretrained(out)
    AutoTokenizer.from_pretrained(source).save_pretrained(out)
    return out


def step_times(out: Path) -> list[float]:
    """TRL's per-step wall times from the run's trainer state (the last checkpoint TRL wrote)."""
    states = sorted(out.glob("checkpoint-*/trainer_state.json"), key=lambda p: int(p.parent.name.split("-")[-1]))
    if not states:
        return []
    history = json.loads(states[-1].read_text())["log_history"]
    return [h["step_time"] for h in history if "step_time" in h]


def run_case(name: str, overrides: list[str], work: Path) -> dict[str, Any]:
    out = work / name
    shutil.rmtree(out, ignore_errors=True)
    args = [sys.executable, "-m", "knowrl.train", "--config", str(SMOKE)]
    for o in COMMON + overrides + [f"output_dir={out}", f"reward.factuality.kb_path={work / 'kb.db'}"]:
        args += ["--set", o]
    started = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    result: dict[str, Any] = {
        "case": name,
        "overrides": overrides,
        "rc": proc.returncode,
        "wall_s": round(time.perf_counter() - started, 1),
    }
    (work / f"{name}.log").write_text(proc.stdout + proc.stderr)
    if proc.returncode:
        result["error"] = (proc.stderr or proc.stdout)[-1500:]
        return result
    summary = json.loads((out / "summary.json").read_text())
    rows = [json.loads(line) for line in (out / "rewards.jsonl").read_text().splitlines() if line.strip()]
    result.update(
        backend=summary["backend"],
        steps=summary["global_step"],
        peak_gib=summary.get("peak_gpu_memory_gib"),
        reward_rows=len(rows),
        scored=sum(r.get("total") is not None for r in rows),
    )
    times = step_times(out)
    if times:
        later = times[1:] or times  # the first step pays for compilation and warm-up
        per_step = len(rows) / max(1, summary["global_step"])
        result.update(
            first_step_s=round(times[0], 3),
            median_step_s=round(statistics.median(later), 3),
            completions_per_step=per_step,
            ms_per_completion=round(1000 * statistics.median(later) / max(1.0, per_step), 1),
        )
    return result


def environment() -> dict[str, str]:
    import torch

    env = {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none",
    }
    from importlib.metadata import PackageNotFoundError, version

    for pkg in ("transformers", "trl", "peft", "unsloth", "unsloth_zoo", "vllm", "bitsandbytes"):
        try:
            env[pkg] = version(pkg)
        except PackageNotFoundError:
            env[pkg] = "not installed"
    return env


def write_markdown(path: Path, command: str, env: dict[str, str], results: list[dict[str, Any]]) -> None:
    lines = [
        "# GRPO on a GPU, per backend",
        "",
        f"Command: `{command}` at commit {provenance.commit()}",
        "",
        "Environment: " + ", ".join(f"{k} {v}" for k, v in env.items()) + ".",
        "",
        "Each case is `python -m knowrl.train --config configs/smoke.yaml` with the overrides shown and "
        f"`{' '.join(COMMON)}`. Step times are TRL's `step_time` (median of the steps after the first, "
        "which pays for warm-up).",
        "",
        "| case | overrides | result | steps | completions scored | completions per step | first step s "
        "| median step s | ms per completion | peak GPU GiB | wall s |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        ok = f"ok ({r['backend']})" if r["rc"] == 0 else f"failed (exit {r['rc']})"
        lines.append(
            f"| {r['case']} | `{' '.join(r['overrides'])}` | {ok} | {r.get('steps', '')} | "
            f"{r.get('scored', '')}/{r.get('reward_rows', '')} | {r.get('completions_per_step', '')} | "
            f"{r.get('first_step_s', '')} | {r.get('median_step_s', '')} | {r.get('ms_per_completion', '')} | "
            f"{r.get('peak_gib', '')} | "
            f"{r['wall_s']} |"
        )
    lines += [""] + readings(env, results)
    failed = [r for r in results if r["rc"]]
    if failed:
        lines += ["", "## Failures (last lines of each)", ""]
        for r in failed:
            lines += [f"### {r['case']}", "", "```", r["error"].strip(), "```", ""]
    path.write_text("\n".join(lines) + "\n")


def readings(env: dict[str, str], results: list[dict[str, Any]]) -> list[str]:
    """Ratios measured in this run, and what was not exercised."""
    lines = []
    by_case = {r["case"]: r for r in results if r.get("ms_per_completion")}
    for name, r in by_case.items():
        if name.endswith("-unsloth") and name.replace("-unsloth", "-transformers") in by_case:
            base = by_case[name.replace("-unsloth", "-transformers")]
            lines.append(
                f"- `{name.rsplit('-', 1)[0]}`: Unsloth took {r['ms_per_completion'] / base['ms_per_completion']:.2f}x "
                f"the transformers backend's time per completion after the first step (first step "
                f"{r['first_step_s']:.0f} s against {base['first_step_s']:.0f} s: Unsloth compiles)."
            )
    per_model = {(r["case"].rsplit("-", 1)[0], r["completions_per_step"]) for r in by_case.values()}
    if len(per_model) == len({model for model, _ in per_model}):
        lines.append(
            "- Both backends scored the same number of completions per step (the judge bill a config "
            "promises): Unsloth's own trainer defaults are not let through (knowrl/trl_args.py)."
        )
    if env.get("vllm") == "not installed":
        lines.append(
            "- vLLM was not installed, so Unsloth ran with `fast_inference` off (generation by "
            "transformers, Unsloth's training kernels); the vLLM generation path is not measured here."
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", nargs="+", default=["transformers", "unsloth"])
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--shape", type=Path, help="a folder with config.json + tokenizer (random weights)")
    parser.add_argument("--model", help="a real model too, e.g. 'smollm2' (the bundled GGUF's weights)")
    parser.add_argument("--tiny", action=argparse.BooleanOptionalAction, default=True, help="the tiny test model")
    parser.add_argument("--completion-length", type=int, default=128, help="for the --shape / --model runs")
    parser.add_argument(
        "--work",
        type=Path,
        default=Path(os.environ.get("TMPDIR", "/tmp")) / "knowrl-gpu",
        help="its own folder (each case's run folder in it is replaced): made and marked (knowrl-work.txt) when new "
        "or empty; a folder holding other files is refused, one a run made before marks with the command that marks it",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "gpu.md")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="one more override for every case"
    )
    args = parser.parse_args(argv)
    check_results(args, __file__)  # never an input or someone's file (hostile pass 52)
    claim_work(args, __file__)  # its own folder: each case's run folder in it is removed before the case runs
    cases: list[tuple[str, list[str]]] = []
    for backend in args.backends if args.tiny else []:
        cases.append((f"tiny-{backend}", [f"model.backend={backend}", f"grpo.max_steps={args.steps}"]))
    models: list[tuple[str, str]] = []
    if args.shape:
        models.append((f"{args.shape.name}-shape", str(shaped_model(args.shape, args.work / "shaped"))))
    if args.model:
        models.append((args.model, args.model))  # real weights: completions stop at EOS
    for label, model in models:
        for backend in args.backends:
            cases.append(
                (
                    f"{label}-{backend}",
                    [
                        f"model.backend={backend}",
                        f"model.name_or_path={model}",
                        f"grpo.max_steps={args.steps}",
                        f"grpo.max_completion_length={args.completion_length}",
                        "grpo.per_device_train_batch_size=16",
                        "grpo.num_generations=4",
                        "lora.target_modules=[q_proj,k_proj,v_proj,o_proj]",
                        "lora.r=16",
                        "lora.alpha=32",
                    ],
                )
            )
    cases = [(name, overrides + args.set) for name, overrides in cases]
    results = []
    for name, overrides in cases:
        results.append(run_case(name, overrides, args.work))
        print(json.dumps(results[-1])[:2000], flush=True)
    command = "python bench/gpu.py " + " ".join(argv if argv is not None else sys.argv[1:])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_markdown(args.out, command.strip(), environment(), results)
    print(args.out.read_text())
    return 0 if all(r["rc"] == 0 for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
