"""The Hopper NaN check on the real model: cold-start SFT steps of Qwen2.5-Coder-1.5B where every batch is
padded to a length 64 past a multiple of 128, with training's attention as shipped and without it.

    python bench/gpu_sft_nan.py --model qwen2.5-coder-1.5b --steps 20 --md gpu_sft_nan.md   # on a CUDA machine
    python bench/gpu_sft_nan.py --model tiny --steps 2 --md /tmp/x.md                      # plumbing, on a CPU

Every 1.5B cold-start SFT on an H100 (2026-11-25) hit a NaN grad_norm at a finite loss; the suspect is cuDNN's
SDPA backward with a padding mask at such lengths (docs/dev/gpu-runbook.md). A natural batch pads there ~7 % of
the time; here every example is 129-192 tokens and ``sft.pad_to_multiple_of=64`` pads every batch to 192, so
every step runs the suspect case. Each arm runs ``knowrl.sft.sft`` in its own process (a device-side assert
cannot leak into the next arm); a hook on the model records each step's padded length and whether the mask
pads. An arm that diverges is stopped by ``knowrl.finite`` at that step, which is its result.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from knowrl_io.job_output import check_results  # noqa: E402

ARMS = ("training_attention", "default", "cudnn_first")
SHAREGPT_ROLES = {"user": "human", "assistant": "gpt"}
WORDS = "river stone market garden winter lantern harbor meadow signal orchard".split()


def conversations(tokenizer: Any, n: int, low: int, high: int) -> list[list[dict[str, str]]]:
    """``n`` question/answer pairs whose chat-template length lies in [low, high] tokens, spread evenly."""
    out = []
    for i in range(n):
        target = low + (high - low) * i // max(n - 1, 1)
        user = {"role": "user", "content": f"Question {i}: describe item {i} in a few words."}
        words: list[str] = []
        while True:
            answer = {"role": "assistant", "content": " ".join(["<answer>", *words, "</answer>"])}
            text = tokenizer.apply_chat_template([user, answer], tokenize=False)
            length = len(tokenizer(text, add_special_tokens=False)["input_ids"])
            if length >= target or len(words) > 4 * high:
                break
            words.append(WORDS[(i + len(words)) % len(WORDS)])
        out.append([user, answer])
    return out


def attention(arm: str) -> Any:
    """The context ``knowrl.sft`` trains in, per arm."""
    if arm == "training_attention":
        from knowrl.accelerator import training_attention

        return training_attention
    if arm == "default":
        return contextlib.nullcontext
    from torch.nn.attention import SDPBackend, sdpa_kernel

    order = [SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]
    return lambda: sdpa_kernel(order, set_priority=True)


def run_arm(args: argparse.Namespace) -> dict[str, Any]:
    """One arm in this process: SFT steps, then what each step logged and was padded to."""
    import torch
    from transformers import AutoTokenizer, TrainerCallback

    import knowrl.sft as sft_module
    from knowrl.config import load_train_config
    from knowrl.models import resolve_model_path

    work = Path(args.work)
    path = resolve_model_path(args.model, seed=args.seed)
    tokenizer = AutoTokenizer.from_pretrained(path)
    data = work / "sft.json"
    rows = conversations(tokenizer, args.examples, args.pad - 59, args.pad - 6)  # padded up to args.pad by 64s
    data.write_text(
        json.dumps(
            [{"conversations": [{"from": SHAREGPT_ROLES[m["role"]], "value": m["content"]} for m in c]} for c in rows]
        )
    )
    overrides = [
        f"model.name_or_path={args.model}",
        "model.backend=transformers",
        f"data.train={data}",
        f"output_dir={work / args.arm}",
        f"seed={args.seed}",
        f"sft.max_steps={args.steps}",
        "sft.per_device_train_batch_size=4",
        "sft.learning_rate=1.0e-3",
        f"sft.max_length={args.pad + 64}",
        "sft.pad_to_multiple_of=64",
    ]
    config = load_train_config(args.config, overrides)

    shapes: list[dict[str, Any]] = []

    def hook(_module: Any, _args: Any, kwargs: dict[str, Any]) -> None:
        ids, mask = kwargs.get("input_ids"), kwargs.get("attention_mask")
        if ids is not None and torch.is_grad_enabled():
            padded = mask is not None and bool((mask == 0).any())
            shapes.append({"length": int(ids.shape[1]), "mask_pads": padded})

    class Log(TrainerCallback):
        def __init__(self) -> None:
            self.steps: list[dict[str, Any]] = []

        def on_train_begin(self, _a: Any, _s: Any, _c: Any, model: Any = None, **_k: Any) -> None:
            model.register_forward_pre_hook(hook, with_kwargs=True)
            kinds: dict[str, int] = {}
            for p in model.parameters():
                key = f"{str(p.dtype).removeprefix('torch.')} {'trainable' if p.requires_grad else 'frozen'}"
                kinds[key] = kinds.get(key, 0) + p.numel()
            self.dtype = ", ".join(f"{k} {v / 1e6:.1f}M" for k, v in sorted(kinds.items()))

        def on_log(self, _a: Any, state: Any, _c: Any, logs: Any = None, **_k: Any) -> None:
            if logs and "grad_norm" in logs:
                self.steps.append({"step": state.global_step, "loss": logs.get("loss"), "grad_norm": logs["grad_norm"]})

    log = Log()
    sft_module.training_attention = attention(args.arm)
    result: dict[str, Any] = {"arm": args.arm}
    try:
        summary = sft_module.sft(config, callbacks=[log])
        result.update(outcome="finished", global_step=summary["global_step"])
    except Exception as error:  # the finite-check's TrainingDiverged, or a CUDA error: the arm's result
        result.update(outcome=f"{type(error).__name__}: {str(error)[:300]}")
    result.update(
        steps=log.steps,
        shapes=shapes,
        weights_dtype=getattr(log, "dtype", "?"),
        torch=torch.__version__,
        device=torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu",
        cudnn=torch.backends.cudnn.version() if torch.cuda.is_available() else None,
    )
    return result


def table(results: list[dict[str, Any]], command: str) -> str:
    first = results[0]
    lines = [
        f"Command: `{command}` ({first['device']}, torch {first['torch']}, cuDNN {first['cudnn']}, "
        f"weights {first['weights_dtype']}).",
        "",
        "| arm | outcome | steps logged | finite grad norms | first non-finite step | batches padded to "
        "| mask pads in | loss first -> last |",
        "|---|---|---:|---:|---|---|---:|---|",
    ]
    for r in results:
        norms = [s["grad_norm"] for s in r["steps"]]
        finite = [g for g in norms if g is not None and g == g and abs(g) != float("inf")]
        bad = next((s["step"] for s in r["steps"] if s["grad_norm"] not in finite), None)
        lengths = sorted({s["length"] for s in r["shapes"]})
        pads = sum(s["mask_pads"] for s in r["shapes"])
        losses = [s["loss"] for s in r["steps"] if s["loss"] is not None]
        loss = f"{losses[0]:.3f} -> {losses[-1]:.3f}" if losses else "-"
        outcome = r["outcome"]
        if outcome.startswith("TrainingDiverged"):
            outcome = "stopped by knowrl.finite: " + outcome.split(": ", 1)[1].split(" (")[0]
        lines.append(
            f"| {r['arm']} | {outcome} | {len(norms)} | {len(finite)} | {bad or '-'} | "
            f"{', '.join(map(str, lengths)) or '-'} | {pads}/{len(r['shapes'])} | {loss} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--config", default="configs/demo.yaml")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="seed 1 hit NaN at step 1 on the H100")
    parser.add_argument("--pad", type=int, default=192, help="every batch's padded length (64 past a multiple of 128)")
    parser.add_argument("--examples", type=int, default=64)
    parser.add_argument("--arms", default=",".join(ARMS))
    parser.add_argument("--md", default=None, help="write the table here")
    parser.add_argument("--arm", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--work", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    check_results(args, __file__)  # never an input or someone's file (hostile pass 52)
    if args.arm:
        print("RESULT " + json.dumps(run_arm(args)), flush=True)
        return 0
    results = []
    with tempfile.TemporaryDirectory() as work:
        for arm in args.arms.split(","):
            cmd = [
                sys.executable,
                __file__,
                "--arm",
                arm,
                "--work",
                work,
                "--model",
                args.model,
                "--config",
                args.config,
                "--steps",
                str(args.steps),
                "--seed",
                str(args.seed),
                "--pad",
                str(args.pad),
                "--examples",
                str(args.examples),
            ]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
            if line is None:
                print(proc.stdout[-2000:], proc.stderr[-3000:], file=sys.stderr)
                results.append(
                    {
                        "arm": arm,
                        "outcome": f"process exited {proc.returncode}",
                        "steps": [],
                        "shapes": [],
                        "device": "?",
                        "torch": "?",
                        "cudnn": None,
                        "weights_dtype": "?",
                    }
                )
            else:
                results.append(json.loads(line[len("RESULT ") :]))
            print(json.dumps({k: v for k, v in results[-1].items() if k != "shapes"}), flush=True)
    text = table(results, "python bench/gpu_sft_nan.py " + " ".join(argv if argv is not None else sys.argv[1:]))
    print(text)
    if args.md:
        Path(args.md).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
