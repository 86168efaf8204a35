"""Held-out evaluation of the verifiable tasks (maths, reasoning-gym), per task.

    python -m knowrl.task_eval --config configs/reasoning_gym.yaml [--adapter runs/x/final] [--out DIR]

For each task: accuracy (the verifier says right: boxed answer equivalent, or
``score_answer`` = 1), the mean score, and format compliance (a ``\\boxed{}`` for maths;
``<think>…</think><answer>…</answer>`` for reasoning-gym). With
``pipeline.evaluate_before_after`` the trainer evaluates the base model, trains, and
evaluates the adapter, and prints one table.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from knowrl import task_registry as tasks
from knowrl.adapters import adapter_base_problem
from knowrl.cli import config_parser, run_job
from knowrl.config import ConfigError, TrainConfig, load_train_config
from knowrl.evaluate import generate
from knowrl.grpo import train
from knowrl.model_folder import output_model_problem
from knowrl.models import check_model_path, model_inputs_problem, resolve_model_path
from knowrl.tasks.boxed import last_boxed
from knowrl_io.job_output import reports_problem, write_atomically
from knowrl_io.once import Once
from reward_engine.completion import parse

log = logging.getLogger(__name__)


async def _score(config: TrainConfig, rows: list[dict[str, Any]], completions: list[str]) -> list[tuple]:
    rewards = tasks.rewards(config)
    try:
        return await rewards.score_rows(rows, completions)
    finally:
        rewards.close()


def task_metrics(
    config: TrainConfig, rows: list[dict[str, Any]], completions: list[str]
) -> tuple[dict[str, dict[str, float]], list[dict[str, Any]]]:
    """Per-task metrics and per-row details for completions of ``rows``."""
    scored = asyncio.run(_score(config, rows, completions))
    groups: dict[str, list[tuple[bool, float, bool]]] = defaultdict(list)
    details = []
    for row, completion, (reward, status, answer) in zip(rows, completions, scored):
        if config.task == "math":
            name, correct, well_formed = "math", status == "correct", last_boxed(completion) is not None
            score = 1.0 if correct else 0.0
        else:
            name, score, well_formed = row["rg_task"], float(reward or 0.0), parse(completion).well_formed
            correct = score >= 1.0
        groups[name].append((correct, score, well_formed))
        details.append(
            {
                "task": name,
                "question": row["question"],
                "completion": completion,
                "answer": answer,
                "status": status,
                "score": score,
                "well_formed": well_formed,
            }
        )
    metrics = {
        name: {
            "n": len(g),
            "accuracy": sum(c for c, _, _ in g) / len(g),
            "mean_score": sum(s for _, s, _ in g) / len(g),
            "format_compliance": sum(f for _, _, f in g) / len(g),
        }
        for name, g in sorted(groups.items())
    }
    return metrics, details


def evaluate_task(
    config: TrainConfig, model: str, adapter: str | None, rows: list[dict[str, Any]], max_new_tokens: int
) -> tuple[dict[str, dict[str, float]], list[dict[str, Any]]]:
    completions = generate(
        model, adapter, [r["question"] for r in rows], max_new_tokens, instructions=tasks.instructions(config)
    )
    return task_metrics(config, rows, completions)


def task_table(
    before: dict[str, dict[str, float]] | None, after: dict[str, dict[str, float]], trained: list[str]
) -> str:
    """One line per task: accuracy and format compliance before and after (unseen tasks marked)."""
    lines = [
        "| task | n | accuracy before | accuracy after | format before | format after |",
        "|---|---|---|---|---|---|",
    ]
    for name, values in after.items():
        b = (before or {}).get(name)
        label = name if name in trained or name == "math" else f"{name} (not trained on)"
        lines.append(
            f"| {label} | {values['n']} | {b['accuracy'] if b else float('nan'):.3f} | "
            f"{values['accuracy']:.3f} | {b['format_compliance'] if b else float('nan'):.3f} | "
            f"{values['format_compliance']:.3f} |"
        )
    return "\n".join(lines)


def run_task_pipeline(config: TrainConfig, resume: bool = False) -> dict[str, Any]:
    """Evaluate the base model, GRPO, evaluate the adapter; writes ``task_eval.json``."""
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = tasks.eval_rows(config)
    base = resolve_model_path(config.model.name_or_path, config.seed)
    n_tokens = config.pipeline.eval_max_new_tokens
    log.info("=== evaluating the base model on %d held-out rows ===", len(rows))
    before, _ = evaluate_task(config, base, config.model.adapter, rows, n_tokens)
    summary = train(config, resume=resume)
    log.info("=== evaluating after GRPO ===")
    after, details = evaluate_task(config, base, summary["adapter"], rows, n_tokens)
    trained = list(config.reasoning_gym.train_tasks) if config.reasoning_gym else []
    result = {"grpo": summary, "before": before, "after": after, "table": task_table(before, after, trained)}
    (out / "task_eval.json").write_text(json.dumps({**result, "details_after": details}, indent=2))
    return result


def main(argv: list[str] | None = None) -> int:
    """Evaluate the config's model (plus ``--adapter``) on its task's held-out rows."""
    parser = config_parser("python -m knowrl.task_eval", __doc__)
    parser.add_argument("--adapter", action=Once, help="a LoRA adapter (e.g. <output_dir>/final)")
    parser.add_argument("--out", type=Path, action=Once, help="report folder (default: <output_dir>/task_eval)")
    parser.add_argument("--overwrite", action="store_true", help="replace the reports of an earlier run in --out")
    args = parser.parse_args(argv)

    def job() -> dict[str, Any]:
        config = load_train_config(args.config, args.set)
        if config.task == "knowrl":
            raise ConfigError("task 'knowrl' is evaluated by python -m knowrl.evaluate")
        check_model_path(config.model.name_or_path)
        out = args.out or Path(config.output_dir) / "task_eval"
        # the reports as knowrl.evaluate's: never the config, a directory or a special file; an earlier run's
        # replaced only with --overwrite (task_eval wrote over them and over any file of those names)
        problem = reports_problem(out, ("report.json", "report.md"), [args.config], "knowrl.task_eval", args.overwrite)
        adapter = args.adapter or config.model.adapter
        if not problem:  # never into the model's own folder, a built-in id's included (hostile pass 59)
            models = [("model.name_or_path", config.model.name_or_path), ("--adapter", adapter)]
            problem = output_model_problem(out, "--out", models, config.seed, holds=False, fix="choose another --out")
        if not problem and adapter:  # one trained on another base: torch's "size mismatch" after the model loaded
            flags = ("--adapter" if args.adapter else "model.adapter", "model.name_or_path")
            problem = model_inputs_problem(config.model.name_or_path, adapter, flags[1]) or adapter_base_problem(
                adapter, config.model.name_or_path, config.seed, flags
            )
        if problem:
            raise ConfigError(problem)
        rows = tasks.eval_rows(config)
        model = resolve_model_path(config.model.name_or_path, config.seed)
        metrics, details = evaluate_task(config, model, adapter, rows, config.pipeline.eval_max_new_tokens)
        out.mkdir(parents=True, exist_ok=True)
        write_atomically(out / "report.json", json.dumps({"metrics": metrics, "details": details}, indent=2).encode())
        lines = ["| task | n | accuracy | mean score | format compliance |", "|---|---|---|---|---|"]
        lines += [
            f"| {k} | {v['n']} | {v['accuracy']:.3f} | {v['mean_score']:.3f} | {v['format_compliance']:.3f} |"
            for k, v in metrics.items()
        ]
        write_atomically(out / "report.md", ("\n".join(lines) + "\n").encode())
        return metrics

    return run_job(args, job)


if __name__ == "__main__":
    sys.exit(main())
