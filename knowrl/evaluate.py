"""Evaluate a policy on held-out questions: ``python -m knowrl.evaluate``.

    python -m knowrl.evaluate --model PATH [--adapter A] --data HELDOUT.jsonl [--config reward.yaml] [--out DIR]

Generates an answer per question (greedy, the training prompt), grades it with the reward
engine's grader (offline rules by default, the LLM grader with a judge config), and
reports SimpleQA's numbers: correct / incorrect / not-attempted rates, accuracy given
attempted, their F-score, plus format compliance. JSON and markdown.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from knowrl.data import INSTRUCTIONS, load_rl_rows, render_prompt
from knowrl_io.logs import add_verbosity, setup_logging
from reward_engine.completion import parse
from reward_engine.config import RewardEngineConfig, load_reward_config_or_report, parse_reward_config
from reward_engine.engine import RewardEngine, Sample


def simpleqa_metrics(labels: Sequence[str | None], well_formed: Sequence[bool]) -> dict[str, float]:
    """Rates over all questions; an unanswered or ungradable one counts as not attempted."""
    n = max(1, len(labels))
    correct = sum(label == "CORRECT" for label in labels) / n
    incorrect = sum(label == "INCORRECT" for label in labels) / n
    not_attempted = 1.0 - correct - incorrect
    attempted = correct + incorrect
    given_attempted = correct / attempted if attempted else 0.0
    f_score = 2 * correct * given_attempted / (correct + given_attempted) if correct + given_attempted else 0.0
    return {"n": len(labels), "correct": correct, "incorrect": incorrect, "not_attempted": not_attempted,
            "accuracy_given_attempted": given_attempted, "f_score": f_score,
            "format_compliance": sum(well_formed) / n}


async def grade_completions(rows: list[dict[str, Any]], completions: list[str],
                            config: RewardEngineConfig) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Grade only (no factuality: evaluation measures answers, not the reward)."""
    config = config.model_copy(update={"factuality": config.factuality.model_copy(update={"enabled": False})})
    async with RewardEngine(config) as engine:
        results = await engine.score([Sample(r["question"], c, r["answers"], r["title"])
                                      for r, c in zip(rows, completions)])
    parsed = [parse(c) for c in completions]
    details = [{"question": r["question"], "answers": r["answers"], "completion": c, "answer": p.answer,
                "label": res.label, "well_formed": p.well_formed, "status": res.status}
               for r, c, p, res in zip(rows, completions, parsed, results)]
    return simpleqa_metrics([res.label for res in results], [p.well_formed for p in parsed]), details


def generate(model_path: str, adapter: str | None, questions: list[str], max_new_tokens: int,
             batch_size: int = 8, instructions: str = INSTRUCTIONS) -> list[str]:
    """Greedy completions with the training prompt (``instructions``: the task's template)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from knowrl.models import resolve_model_path

    path = resolve_model_path(model_path)
    tokenizer = AutoTokenizer.from_pretrained(adapter if adapter and (Path(adapter) / "tokenizer_config.json").exists()
                                              else path)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(path)
    if adapter:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, adapter)
    model.eval()
    outputs: list[str] = []
    for start in range(0, len(questions), batch_size):
        prompts = [render_prompt(tokenizer, q, instructions) for q in questions[start : start + batch_size]]
        batch = tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
        with torch.inference_mode():
            tokens = model.generate(**batch, max_new_tokens=max_new_tokens, do_sample=False,
                                    pad_token_id=tokenizer.pad_token_id)
        for row in tokens[:, batch["input_ids"].shape[1]:]:
            # The prompt ends with "<think>": put it back so the completion parses as trained.
            outputs.append("<think>" + tokenizer.decode(row, skip_special_tokens=True))
    return outputs


def evaluate_model(model: str, adapter: str | None, data: Path, config: RewardEngineConfig,
                   max_new_tokens: int = 64, max_samples: int | None = None) -> tuple[dict[str, float], list[dict]]:
    rows, _ = load_rl_rows(data, max_samples)
    completions = generate(model, adapter, [r["question"] for r in rows], max_new_tokens)
    return asyncio.run(grade_completions(rows, completions, config))


def markdown(metrics: dict[str, float], title: str) -> str:
    rows = [f"| {k} | {v:.3f} |" if isinstance(v, float) else f"| {k} | {v} |" for k, v in metrics.items()]
    return "\n".join([f"# {title}", "", "| metric | value |", "|---|---|", *rows, ""])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m knowrl.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="model path or id ('tiny', 'smollm2' too)")
    parser.add_argument("--adapter")
    parser.add_argument("--data", required=True, type=Path)
    parser.add_argument("--config", type=Path, help="reward config for the grader (default: offline grader)")
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--max-samples", type=int)
    parser.add_argument("--out", type=Path, default=Path("eval"))
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    config = (load_reward_config_or_report(args.config) if args.config
              else parse_reward_config({"factuality": {"enabled": False}}))
    if config is None:
        return 2
    if not args.data.exists():
        print(f"error: data not found: {args.data}", file=sys.stderr)
        return 2
    metrics, details = evaluate_model(args.model, args.adapter, args.data, config, args.max_new_tokens,
                                      args.max_samples)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "report.json").write_text(json.dumps({"metrics": metrics, "details": details}, indent=2))
    (args.out / "report.md").write_text(markdown(metrics, f"Evaluation of {args.model}"
                                                 + (f" + {args.adapter}" if args.adapter else "")))
    print(json.dumps(metrics, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
