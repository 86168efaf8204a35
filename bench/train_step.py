"""Where a demo training step's time goes on CPU, before and after the cuts.

    python bench/train_step.py [--steps 4]
    python bench/train_step.py --compare generation --steps 4 --out bench/results/train_step_vllm.md
    python bench/train_step.py --compare generation --config configs/selective.yaml \
        --model RUN/sft-merged --data RUN/data --steps 4    # the study's shape, on its SFT policy

``--compare generation``: the GRPO step as committed with transformers' generation and with vLLM's
(``grpo.use_vllm=true``: TRL's colocate mode, ``knowrl/vllm_cpu.py`` on CPU), same config and seed, one run.

Runs a few GRPO steps and a few cold-start SFT steps of ``configs/demo.yaml`` (SmolLM2-135M,
the demo data, the offline reward engine) twice in one process: with the demo's settings as
they were (the "before" column: ``beta 0.04``, so TRL keeps a reference model and runs a
reference forward per step) and as they are now (``configs/demo.yaml``); the SFT step has no cut,
so its two columns are the same config twice (the run-to-run noise). Each phase is timed
by wrapping the TRL trainer's own methods: generation (``_generate``), reward
(``_calculate_rewards``), the reference/old-policy forward (log-probs computed while building the
batch), the policy forward (``compute_loss``), backward plus the rest of ``training_step``, and
the optimizer step (the remainder of the step). The first step of each run is a warm-up and not
counted. Results go to bench/results/train_step.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from knowrl.config import load_train_config  # noqa: E402
from knowrl.effect.demo_data import build_demo_data  # noqa: E402
from knowrl.models import resolve_model_path  # noqa: E402
from knowrl_io import provenance  # noqa: E402
from knowrl_io.job_output import check_results

RESULTS = ROOT / "bench" / "results"
# The demo's settings before this profile: a KL term (TRL then keeps a reference model and runs its
# forward every step). SFT has no cut: turning TRL's gradient checkpointing off was faster in one run
# and slower in the next, so both SFT columns run the same config and show the run-to-run noise.
BEFORE: dict[str, list[str]] = {"grpo": ["grpo.beta=0.04"], "sft": []}
# --compare: the two columns of each stage's table, (name, overrides per stage); a stage without overrides is
# not run in that comparison.
COMPARISONS: dict[str, tuple[tuple[str, dict[str, list[str]]], ...]] = {
    "cuts": (("before", BEFORE), ("after", {"grpo": [], "sft": []})),
    "generation": (
        ("transformers", {"grpo": []}),
        ("vllm", {"grpo": ["grpo.use_vllm=true"]}),
        # fp32 on both sides: vLLM's and the trainer's log-probs agree to ~1e-6, so TRL's importance-sampling
        # correction (an extra old-policy forward per step) multiplies by ~1
        ("vllm, no IS correction", {"grpo": ["grpo.use_vllm=true", "grpo.vllm_importance_sampling_correction=false"]}),
    ),
    # TRL's GRPOConfig checkpoints activations by default: the backward pass runs the forward again, a cost a
    # 135M LoRA policy on CPU has no memory reason to pay
    "checkpointing": (
        ("checkpointing (TRL's default)", {"grpo": []}),
        ("no checkpointing", {"grpo": ["grpo.gradient_checkpointing=false"]}),
        (
            "vllm, no IS correction, no checkpointing",
            {
                "grpo": [
                    "grpo.gradient_checkpointing=false",
                    "grpo.use_vllm=true",
                    "grpo.vllm_importance_sampling_correction=false",
                ]
            },
        ),
    ),
}


class Phases:
    """Seconds per phase per step, from wrapped trainer methods; nested calls are not double-counted."""

    def __init__(self) -> None:
        self.steps: list[dict[str, float]] = []
        self.current: dict[str, float] = defaultdict(float)
        self.stack: list[str] = []
        self.step_started = 0.0

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        self.stack.append(name)
        try:
            yield
        finally:
            self.stack.pop()
            self.current[name] += time.perf_counter() - started

    def wrap(self, obj: Any, method: str, name: str | Callable[[], str]) -> None:
        original = getattr(obj, method)

        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.phase(name() if callable(name) else name):
                return original(*args, **kwargs)

        setattr(obj, method, timed)

    def begin(self) -> None:
        self.current = defaultdict(float)
        self.step_started = time.perf_counter()

    def end(self) -> None:
        total = time.perf_counter() - self.step_started
        self.current["step"] = total
        self.steps.append(dict(self.current))

    def summary(self) -> dict[str, float]:
        counted = self.steps[1:] or self.steps  # the first step warms caches
        keys = sorted({k for s in counted for k in s})
        return {k: statistics.mean(s.get(k, 0.0) for s in counted) for k in keys}


def step_callback(phases: Phases) -> Any:
    from transformers import TrainerCallback

    class StepTimer(TrainerCallback):
        def on_step_begin(self, args, state, control, **kwargs):  # noqa: D401
            phases.begin()

        def on_step_end(self, args, state, control, **kwargs):
            phases.end()

    return StepTimer()


def instrument(trainer_class: type, phases: Phases, methods: dict[str, str | Callable[[], str]]) -> Callable[[], None]:
    """Wrap ``trainer_class``'s methods (class level: the stage builds the trainer); returns the undo."""
    saved = {m: getattr(trainer_class, m) for m in methods}
    for method, name in methods.items():
        phases.wrap(trainer_class, method, name)

    def undo() -> None:
        for method, original in saved.items():
            setattr(trainer_class, method, original)

    return undo


def instrument_grpo(phases: Phases) -> Callable[[], None]:
    from trl import GRPOTrainer

    def logps_phase() -> str:
        return "policy forward" if "compute_loss" in phases.stack else "reference / old-policy forward"

    return instrument(
        GRPOTrainer,
        phases,
        {
            "_generate": "generation",
            "_calculate_rewards": "reward",
            "_get_per_token_logps_and_entropies": logps_phase,
            "compute_loss": "compute_loss",
            "training_step": "training_step",
            "_generate_and_score_completions": "build batch",
        },
    )


def instrument_sft(phases: Phases) -> Callable[[], None]:
    from trl import SFTTrainer

    return instrument(SFTTrainer, phases, {"compute_loss": "policy forward", "training_step": "training_step"})


def grpo_rows(p: dict[str, float]) -> dict[str, float]:
    """Exclusive phase times: backward = training_step - build batch - compute_loss; optimizer = rest."""
    gen, reward = p.get("generation", 0.0), p.get("reward", 0.0)
    ref = p.get("reference / old-policy forward", 0.0)
    build = p.get("build batch", 0.0)
    forward = p.get("compute_loss", 0.0)
    backward = p.get("training_step", 0.0) - build - forward
    return {
        "generation": gen,
        "reward": reward,
        "reference / old-policy forward": ref,
        "batch assembly (tokenise, advantages)": build - gen - reward - ref,
        "policy forward (loss)": forward,
        "backward": backward,
        "optimizer and the rest": p.get("step", 0.0) - p.get("training_step", 0.0),
        "whole step": p.get("step", 0.0),
    }


def sft_rows(p: dict[str, float]) -> dict[str, float]:
    forward = p.get("policy forward", 0.0)
    return {
        "policy forward (loss)": forward,
        "backward": p.get("training_step", 0.0) - forward,
        "optimizer and the rest": p.get("step", 0.0) - p.get("training_step", 0.0),
        "whole step": p.get("step", 0.0),
    }


DEFAULT_FLAGS = {"config": "configs/demo.yaml", "model": "smollm2", "data": None}


def profile(
    stage: str,
    overrides: list[str],
    steps: int,
    work: Path,
    data: dict[str, Path],
    base: str,
    config_path: Path = ROOT / "configs" / "demo.yaml",
) -> dict[str, float]:
    from knowrl.grpo import train
    from knowrl.sft import sft

    config = load_train_config(
        config_path,
        overrides
        + [
            f"output_dir={work / stage / str(abs(hash(tuple(overrides))))}",
            f"model.name_or_path={base}",
            f"data.train={data['sft' if stage == 'sft' else 'train']}",
            f"{stage}.max_steps={steps + 1}",
            "pipeline.demo_data=false",
        ],
    )
    phases = Phases()
    undo = (instrument_sft if stage == "sft" else instrument_grpo)(phases)
    try:
        if stage == "sft":
            sft(config, callbacks=[step_callback(phases)])
            return sft_rows(phases.summary())
        train(config, callbacks=[step_callback(phases)])
        return grpo_rows(phases.summary())
    finally:
        undo()


def write(path: Path, args: argparse.Namespace, results: dict[str, dict[str, dict[str, float]]], wall_s: float) -> None:
    names = [name for name, _ in COMPARISONS[args.compare]]
    first = names[0]
    command = f"python bench/train_step.py --steps {args.steps}" + (
        f" --compare {args.compare} --out {args.out_arg}" if args.compare != "cuts" else ""
    )
    for flag in ("config", "model", "data"):
        if getattr(args, flag) != DEFAULT_FLAGS[flag]:
            command += f" --{flag} {getattr(args, flag)}"
    lines = [
        "# One demo training step on CPU, by phase",
        "",
        f"Command: `{command}` at commit {provenance.commit()} ({wall_s / 60:.1f} min; {platform.machine()}, "
        f"{os.cpu_count()} cores, torch threads {args.threads}). Seconds per step, mean of {args.steps} steps "
        "after one warm-up step, every column measured in this one run.",
        "",
    ]
    if args.compare == "cuts":
        lines += [
            "Before: `configs/demo.yaml` with "
            + "; ".join(f"`{o}`" for v in BEFORE.values() for o in v)
            + " (the demo's earlier settings). After: `configs/demo.yaml` as committed.",
            "",
            "The policy is SmolLM2 before the cold-start SFT, which rarely writes the answer format, so the "
            "reward phase here is mostly the format check; the offline engine's cost on well-formed answers is "
            "in reward_throughput.md. Phases come from TRL's own methods; generation is the transformers path.",
            "",
        ]
    else:
        cols = "; ".join(
            f"*{name}*: " + (", ".join(f"`{o}`" for o in o_) if (o_ := overrides.get("grpo")) else "as committed")
            for name, overrides in COMPARISONS[args.compare]
        )
        lines += [
            f"Columns ({cols}).",
            "",
            f"Every column: `{args.config}` as committed, policy `{args.model}`; *vllm* adds `grpo.use_vllm=true`"
            " (TRL's colocate mode:"
            " vLLM in the trainer's process, the policy's weights pushed into it before each step's generation,"
            " which the generation phase includes; `knowrl/vllm_cpu.py`: float32, eager, plain linear layers);"
            " *no IS correction* also sets `grpo.vllm_importance_sampling_correction=false` (TRL then skips the"
            " old-policy forward it runs to reweight vLLM's samples). The vLLM engine's start (once per run) is"
            " not in any step. Phases come from TRL's own methods.",
            "",
        ]
    for stage, cols in results.items():
        a = cols[first]
        lines += [
            f"## {stage}",
            "",
            "| phase | "
            + " | ".join(f"{n} (s)" for n in names)
            + " | "
            + " | ".join(f"{n} / {first}" for n in names[1:])
            + " |",
            "|---|" + "---:|" * (2 * len(names) - 1),
        ]
        for key in a:
            times = " | ".join(f"{cols[n][key]:.3f}" for n in names)
            ratios = " | ".join(f"{cols[n][key] / a[key]:.2f}" if a[key] > 1e-3 else "-" for n in names[1:])
            lines.append(f"| {key} | {times} | {ratios} |")
        lines.append("")
    path.write_text("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--compare", choices=sorted(COMPARISONS), default="cuts")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--config", default=DEFAULT_FLAGS["config"], help="the run config whose step is timed")
    parser.add_argument("--model", default=DEFAULT_FLAGS["model"], help="the policy (e.g. a run's sft-merged)")
    parser.add_argument("--data", default=DEFAULT_FLAGS["data"], help="a run's data folder (train.jsonl, sft.json)")
    args = parser.parse_args(argv)
    args.out_arg = args.out
    args.out = args.out or RESULTS / "train_step.md"
    check_results(args, __file__)  # never an input or someone's file (hostile pass 52)
    import torch

    args.threads = torch.get_num_threads()
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="knowrl-train-step-"))
    if args.data:
        data = {"train": Path(args.data) / "train.jsonl", "sft": Path(args.data) / "sft.json"}
    else:
        data = build_demo_data(work / "data", 160, 40, seed=0)
    base = resolve_model_path(args.model, 0)
    results: dict[str, dict[str, dict[str, float]]] = {}
    grpo_title = f"GRPO step ({args.config}: 4 prompts x 4 completions, groups without spread drawn again)"
    for stage, title in (("grpo", grpo_title), ("sft", "Cold-start SFT step")):
        columns = COMPARISONS[args.compare]
        if any(stage not in overrides for _, overrides in columns):
            continue
        results[title] = {
            name: profile(stage, overrides[stage], args.steps, work, data, base, ROOT / args.config)
            for name, overrides in columns
        }
        print(json.dumps(results[title], indent=1), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write(args.out, args, results, time.perf_counter() - started)
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
