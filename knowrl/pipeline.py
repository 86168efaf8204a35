"""KnowRL's two stages end to end from one config (what ``configs/demo.yaml`` runs).

data (optionally generated from the demo KB) -> evaluate the base model on the held-out
split -> cold-start SFT -> merge -> GRPO with the reward engine -> evaluate again ->
a before/after table and a reward-curve PNG.
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from knowrl.config import ConfigError, TrainConfig
from knowrl.effect.heldout import evaluate_policy, save
from knowrl.grpo import train
from knowrl.kb import check_reward_knowledge, ensure_kb
from knowrl.merge import merge_current
from knowrl.models import resolve_model_path
from knowrl.output_dir import run_names
from knowrl.pipeline_report import StageClock, write_report
from knowrl.reward_log import reward_curve
from knowrl.run_mark import claim
from knowrl.run_outputs import check_report
from knowrl.sft import sft
from knowrl_io.paths import cache_dir

STAGES = (
    ("majority", "majority guess"),
    ("base", "base (bare answer)"),
    ("before", "before"),
    ("after_sft", "after SFT"),
    ("after", "after GRPO"),
)
# Paired changes reported (later stage minus earlier, same questions): the whole pipeline, SFT's and GRPO's.
PAIRS = (("base", "after", "pipeline (base -> after GRPO)"), ("base", "after_sft", "cold-start SFT"))


log = logging.getLogger(__name__)


def interval_cell(stage: dict[str, Any] | None, key: str) -> str:
    """A rate with its 95 % interval from resampling questions (k answers of one question move together)."""
    if not stage:
        return "-"
    low, high = stage["intervals"][key]
    return f"{stage['rates'][key]:.3f} [{low:.2f}, {high:.2f}]"


def summarise(evaluation: dict[str, Any] | None) -> dict[str, Any] | None:
    """Per mode (greedy, sampled): strict-grader rates with question-bootstrap intervals, the training
    grader's rates and the two graders' agreement."""
    if evaluation is None:
        return None
    import numpy as np

    from knowrl.stats import bootstrap

    out: dict[str, Any] = {}
    for mode in ("greedy", "sampled"):
        if mode in evaluation:
            stage = evaluation[mode]
            out[mode] = {
                "n_questions": len(stage["counts"]),
                "k": stage["k"],
                "rates": stage["rates"],
                "intervals": bootstrap(np.array(stage["counts"])),
                "train_rates": stage["train_rates"],
                "agreement": {k: stage["agreement"][k] for k in ("agree", "kappa")},
                "claims_mean": stage["claims_mean"],
            }
    return out


def table(summaries: dict[str, dict[str, Any] | None]) -> str:
    """Held-out rates per stage, strict evaluation grader, F first: greedy, then sampled when drawn."""
    from knowrl.stats import STATS

    columns = [(label, summaries[key]) for key, label in STAGES if summaries.get(key) is not None]
    lines = [
        "| held-out (strict grader) | " + " | ".join(name for name, _ in columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for mode in ("greedy", "sampled"):
        shown = [(name, (v or {}).get(mode)) for name, v in columns]
        ref = next((v for _, v in shown if v), None)
        if ref is None:
            continue
        n = f"{ref['n_questions']} questions" + (f" x {ref['k']}" if ref["k"] > 1 else "")
        lines += [
            f"| {key} ({mode}, {n}) | " + " | ".join(interval_cell(v, key) for _, v in shown) + " |" for key in STATS
        ]
    return "\n".join(lines)


def known_by_probe(sft_eval: dict[str, Any]) -> bool:
    """The held-out rows carry the base policy's probe (the gradient design)."""
    return any(sft_eval.get("base_known") or [])


def known_mask(sft_eval: dict[str, Any]) -> Any:
    """Which questions count as known for selectivity: the base policy's probe when the held-out rows carry it
    (the gradient design: fixed before any training), else right in half of the SFT policy's answers."""
    import numpy as np

    from knowrl.effect.selectivity import known

    if known_by_probe(sft_eval):
        return np.array(sft_eval["base_known"], dtype=bool) & np.array(sft_eval["answerable"], dtype=bool)
    basis = sft_eval.get("sampled", sft_eval["greedy"])
    return known(np.array(basis["counts"]), sft_eval["answerable"])


def other_pairs(evals: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The paired changes of ``PAIRS`` that both stages exist for (greedy)."""
    import numpy as np

    from knowrl.stats import paired_bootstrap

    return {
        label: paired_bootstrap(np.array(evals[a]["greedy"]["counts"]), np.array(evals[b]["greedy"]["counts"]))
        for a, b, label in PAIRS
        if a in evals and b in evals
    }


def paired(evals: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """After GRPO minus after SFT on the same questions (paired bootstrap), per mode, and selectivity."""
    if "after_sft" not in evals or "after" not in evals:
        return {}
    import numpy as np

    from knowrl.effect.selectivity import paired_gap, report
    from knowrl.stats import paired_bootstrap

    sft_eval, grpo_eval = evals["after_sft"], evals["after"]
    out: dict[str, Any] = {}
    for mode in ("greedy", "sampled"):
        if mode in sft_eval and mode in grpo_eval:
            out[mode] = paired_bootstrap(np.array(sft_eval[mode]["counts"]), np.array(grpo_eval[mode]["counts"]))
    stages = other_pairs(evals)
    if stages:  # the gradient design's base row: the pipeline's and SFT's own changes
        out["stages"] = stages
    is_known = known_mask(sft_eval)
    before, after = np.array(sft_eval["greedy"]["counts"]), np.array(grpo_eval["greedy"]["counts"])
    by = "by the base policy's probe" if known_by_probe(sft_eval) else "by the SFT policy"
    out["selectivity"] = {
        "known_by": by,
        "after_sft": report(before, is_known, sft_eval["answerable"]),
        "after": report(after, is_known, sft_eval["answerable"]),
        "gap": paired_gap(before, after, is_known, sft_eval["answerable"]),
    }
    return out


def eval_sampling(config: TrainConfig) -> dict[str, Any]:
    """How held-out answers are sampled: k per question at the training temperature unless set."""
    p = config.pipeline
    return {
        "samples": p.eval_samples,
        "seed": config.seed,
        "temperature": p.eval_temperature or float(config.grpo.get("temperature", 1.0)),
    }


def cached_at_start() -> list[str]:
    """Non-empty folders of the user cache: the report says whether its stage times include building them."""
    root = cache_dir()
    if not root.is_dir():
        return []
    return sorted(d.name for d in root.iterdir() if d.is_dir() and any(d.iterdir()))


def run_pipeline(config: TrainConfig, command: str = "python -m knowrl.train") -> dict[str, Any]:
    cached = cached_at_start()
    result_data: dict[str, Any] | None = None
    clock = StageClock()
    p = config.pipeline
    out = Path(config.output_dir)
    claim(out, run_names(config))  # the pipeline's first write, after every check: its ledger (audit 60)
    if p.demo_data and p.demo_design == "margin":
        from knowrl.effect.margin import margin_data_for

        clock.stage("choosing questions with a margin from the base policy's knowledge boundary")
        model_path = resolve_model_path(config.model.name_or_path, config.seed)
        paths, probed, k = margin_data_for(config, out / "data", model_path, cache_dir() / "boundary")
        config.data.train, config.data.eval, config.data.sft = (
            str(paths["train"]),
            str(paths["heldout"]),
            str(paths["sft"]),
        )
        result_data = json.loads(paths["cold_start"].read_text())
        if p.forecast and config.reward is not None:  # before any stage spends time on a reward that asks for IDK
            result_data["forecast"] = print_forecast(config, probed, k)
    elif p.demo_data and p.demo_design == "gradient":
        from knowrl.effect.demo_data import gradient_data_for

        clock.stage("choosing questions from the base policy's knowledge boundary")
        model_path = resolve_model_path(config.model.name_or_path, config.seed)
        paths = gradient_data_for(
            config, out / "data", model_path, cache_dir() / "boundary", p.demo_train_questions, p.demo_min_correct
        )
        config.data.train, config.data.eval, config.data.sft = (
            str(paths["train"]),
            str(paths["heldout"]),
            str(paths["sft"]),
        )
        result_data = json.loads(paths["cold_start"].read_text())
    elif p.demo_data:
        from knowrl.effect.demo_data import build_demo_data

        clock.stage("generating QA from the demo KB sources")
        unsure = "boundary" if p.demo_cold_start == "boundary" else f"{p.demo_sft_unsure_share:g}"
        name = f"seed-{config.seed}-{p.demo_train_questions}-{p.demo_heldout_questions}-{unsure}"
        boundary = None
        if p.demo_cold_start == "boundary":
            clock.stage("probing what the base model knows (its knowledge boundary)")
            boundary = {
                "model": resolve_model_path(config.model.name_or_path, config.seed),
                "k": 4,
                "temperature": 0.9,
                "cache": cache_dir() / "boundary",
            }
        paths = build_demo_data(
            out / "data" if boundary else cache_dir() / "demo-data" / name,
            p.demo_train_questions,
            p.demo_heldout_questions,
            config.seed,
            p.demo_sft_unsure_share,
            boundary,
        )
        config.data.train, config.data.eval, config.data.sft = (
            str(paths["train"]),
            str(paths["heldout"]),
            str(paths["sft"]),
        )
    clock.stage("knowledge base")
    ensure_kb(config)
    check_reward_knowledge(config)
    clock.stage("policy model")
    base = resolve_model_path(config.model.name_or_path, config.seed)
    sampling = eval_sampling(config)
    evals: dict[str, dict[str, Any]] = {}

    def evaluate(stage: str, model: str, adapter: str | None, samples: int) -> None:
        evals[stage] = evaluate_policy(
            model, adapter, Path(config.data.eval), p.eval_max_new_tokens, samples, sampling["temperature"], config.seed
        )
        save(evals[stage], out / f"heldout_{stage}.json")

    if p.evaluate_before_after and p.demo_design == "gradient" and config.data.eval:
        from knowrl.effect.heldout import evaluate_bare, evaluate_majority

        clock.stage("evaluating the base model (bare answers) and the majority guess on the held-out split")
        evals["base"] = evaluate_bare(base, Path(config.data.eval))
        evals["majority"] = evaluate_majority(Path(config.data.eval), Path(config.data.train))
        for stage in ("base", "majority"):
            save(evals[stage], out / f"heldout_{stage}.json")
    elif p.evaluate_before_after and p.evaluate_base and config.data.eval:
        clock.stage("evaluating the base model on the held-out split")
        evaluate("before", base, None, p.eval_samples if p.sample_before else 0)
    grpo_base = base
    if p.cold_start_sft:
        if not config.data.sft:
            raise ValueError("pipeline.cold_start_sft needs data.sft")
        clock.stage("cold-start SFT")
        sft_config = config.model_copy(deep=True)
        sft_config.data.train, sft_config.output_dir = config.data.sft, str(out / "sft")
        sft_config.model.name_or_path = base
        sft(sft_config)
        grpo_base = str(merge_current(base, str(out / "sft" / "final"), out / "sft-merged"))
        if p.evaluate_before_after and config.data.eval:
            clock.stage("evaluating after cold-start SFT")
            evaluate("after_sft", grpo_base, None, p.eval_samples)
    clock.stage("GRPO with the reward engine")
    grpo_config = config.model_copy(deep=True)
    grpo_config.model.name_or_path = grpo_base
    summary = train(grpo_config)
    result: dict[str, Any] = {"grpo": summary, "cached_at_start": cached, "data": result_data}
    if config.reward is not None:
        from knowrl.effect.training_signal import training_signal

        result["training_signal"] = training_signal(
            Path(summary["reward_log"]),
            config.reward.reward_semantics.fact_weight,
            int(config.grpo.get("num_generations", 8)),
            summary.get("dynamic_sampling"),
        )
    if p.evaluate_before_after and config.data.eval:
        clock.stage("evaluating after GRPO")
        evaluate("after", grpo_base, summary["adapter"], p.eval_samples)
        summaries = {key: summarise(evals.get(key)) for key, _ in STAGES}
        result.update(summaries, table=table(summaries), paired=paired(evals))
    curve = reward_curve(out / config.logging.reward_log, out / "reward_curve.png")
    result["reward_curve"] = str(curve) if curve else None
    report = checked_report(config)  # again: a file may have appeared beside it while the stages ran
    try:
        result["inspector"] = [str(page) for page in _inspector_pages(config, out, report)]
    except (OSError, ValueError, sqlite3.Error) as exc:  # a finished run keeps its table whatever the page hits
        log.warning("reward inspector page not written: %s", exc)
        result["inspector"] = []
    clock.stop()
    result["stages_s"] = dict(clock.stages)
    (out / "pipeline.json").write_text(json.dumps(result, indent=2))
    for path in [out / "report.md"] + ([Path(report)] if report else []):
        write_report(path, command, config, clock, result)
        print(f"report: {path}", flush=True)
    return result


def checked_report(config: TrainConfig) -> str | None:
    """``pipeline.report`` when it and the files beside it may still be written (``check_report``), else None
    with a warning: the run is done, its report stays in output_dir."""
    if not config.pipeline.report:
        return None
    try:
        check_report(config)
    except ConfigError as exc:
        log.warning("%s; the report is in %s only", exc, Path(config.output_dir) / "report.md")
        return None
    return config.pipeline.report


def print_forecast(config: TrainConfig, probed: dict[str, Any], k: int) -> dict[str, Any]:
    """What the run's reward asks of this policy on its own training and held-out questions, printed (and logged
    as a warning when its optimum abstains on most training questions) before GRPO spends its steps."""
    from knowrl.effect.forecast import forecast, read_rows, render, warning

    assert config.reward is not None and config.data.eval
    sets = {"train": read_rows(Path(config.data.train)), "heldout": read_rows(Path(config.data.eval))}
    result = forecast(sets, probed, k, config.reward.reward_semantics)
    note = warning(result)
    table = render(result, config.reward.preset)
    print("\n" + (table.removesuffix("\n" + note) if note else table) + "\n", flush=True)
    if note:  # once, through the log, so a run's log file holds it too
        log.warning(note)
    return result


def _inspector_pages(config: TrainConfig, out: Path, report: str | None) -> list[Path]:
    """The GRPO completions as ``python -m reward_engine.inspect`` shows them (claims with their evidence
    text), in the run folder and beside the report: what the table's numbers are made of."""
    from reward_engine.inspect import write_page
    from reward_engine.knowledge import kb_path

    rows = out / config.logging.reward_log
    if not rows.is_file():
        return []
    kb = kb_path(config.reward.factuality.kb_path) if config.reward is not None else None
    kb = kb if kb is not None and kb.is_file() else None
    pages = [out / "rewards.html"] + ([Path(report).with_name(Path(report).stem + "-rewards.html")] if report else [])
    pages[0].parent.mkdir(parents=True, exist_ok=True)
    write_page(rows, pages[0], kb)
    for page in pages[1:]:  # rendered once, copied beside the report
        page.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pages[0], page)
    return pages
