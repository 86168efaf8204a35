"""KnowRL's two stages end to end from one config (what ``configs/demo.yaml`` runs).

data (optionally generated from the demo KB) -> evaluate the base model on the held-out
split -> cold-start SFT -> merge -> GRPO with the reward engine -> evaluate again ->
a before/after table and a reward-curve PNG.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from knowrl.config import TrainConfig
from knowrl.evaluate import evaluate_model
from knowrl.grpo import train
from knowrl.kb import ensure_kb
from knowrl.merge import merge
from knowrl.models import resolve_model_path
from knowrl.pipeline_report import StageClock, write_report
from knowrl.reward_log import reward_curve
from knowrl.sft import sft
from knowrl_io.paths import cache_dir
from reward_engine.config import parse_reward_config

ROWS = ("correct", "incorrect", "not_attempted", "accuracy_given_attempted", "f_score", "format_compliance")


def cell(values: dict[str, Any] | None, key: str) -> str:
    if not values:
        return "-"
    low_high = values.get("intervals", {}).get(key)
    return f"{values[key]:.3f}" + (f" [{low_high[0]:.2f}, {low_high[1]:.2f}]" if low_high else "")


def table(before: dict[str, Any] | None, after: dict[str, Any], after_sft: dict[str, Any] | None = None) -> str:
    """Held-out metrics of the base model, after cold-start SFT (when run) and after GRPO: greedy, and
    sampled (k per question, 95 % intervals) when the evaluation drew samples."""
    columns = [("before", before)] + ([("after SFT", after_sft)] if after_sft else []) + [("after GRPO", after)]
    header = ["| held-out metric | " + " | ".join(name for name, _ in columns) + " |", "|---|" + "---|" * len(columns)]
    lines = header + [
        f"| {key} (greedy, n={after['n']}) | " + " | ".join(cell(v, key) for _, v in columns) + " |" for key in ROWS
    ]
    if "sampled" in after:
        sampled = [(name, v.get("sampled") if v else None) for name, v in columns]
        lines += [
            f"| {key} (sampled, n={after['sampled']['n']}) | " + " | ".join(cell(v, key) for _, v in sampled) + " |"
            for key in ROWS
            if key != "format_compliance"
        ]
    return "\n".join(lines)


def eval_sampling(config: TrainConfig) -> dict[str, Any]:
    """How held-out answers are sampled: k per question at the training temperature unless set."""
    p = config.pipeline
    return {
        "samples": p.eval_samples,
        "seed": config.seed,
        "temperature": p.eval_temperature or float(config.grpo.get("temperature", 1.0)),
    }


def run_pipeline(config: TrainConfig, command: str = "python -m knowrl.train") -> dict[str, Any]:
    clock = StageClock()
    p = config.pipeline
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    if p.demo_data:
        from knowrl.demo_data import build_demo_data

        clock.stage("generating QA from the demo KB sources")
        name = f"seed-{config.seed}-{p.demo_train_questions}-{p.demo_heldout_questions}-{p.demo_sft_unsure_share:g}"
        paths = build_demo_data(
            cache_dir() / "demo-data" / name,
            p.demo_train_questions,
            p.demo_heldout_questions,
            config.seed,
            p.demo_sft_unsure_share,
        )
        config.data.train, config.data.eval, config.data.sft = (
            str(paths["train"]),
            str(paths["heldout"]),
            str(paths["sft"]),
        )
    clock.stage("knowledge base")
    ensure_kb(config)
    clock.stage("policy model")
    base = resolve_model_path(config.model.name_or_path, config.seed)
    grader = parse_reward_config({"factuality": {"enabled": False}})
    sampling = eval_sampling(config)
    before = None
    if p.evaluate_before_after and config.data.eval:
        clock.stage("evaluating the base model on the held-out split")
        before, _ = evaluate_model(
            base,
            None,
            Path(config.data.eval),
            grader,
            p.eval_max_new_tokens,
            **{**sampling, "samples": p.eval_samples if p.sample_before else 0},
        )
    grpo_base = base
    after_sft = None
    if p.cold_start_sft:
        if not config.data.sft:
            raise ValueError("pipeline.cold_start_sft needs data.sft")
        clock.stage("cold-start SFT")
        sft_config = config.model_copy(deep=True)
        sft_config.data.train, sft_config.output_dir = config.data.sft, str(out / "sft")
        sft_config.model.name_or_path = base
        sft(sft_config)
        grpo_base = str(merge(base, str(out / "sft" / "final"), out / "sft-merged"))
        if p.evaluate_before_after and config.data.eval:
            clock.stage("evaluating after cold-start SFT")
            after_sft, _ = evaluate_model(
                grpo_base, None, Path(config.data.eval), grader, p.eval_max_new_tokens, **sampling
            )
    clock.stage("GRPO with the reward engine")
    grpo_config = config.model_copy(deep=True)
    grpo_config.model.name_or_path = grpo_base
    summary = train(grpo_config)
    result: dict[str, Any] = {"grpo": summary}
    if p.evaluate_before_after and config.data.eval:
        clock.stage("evaluating after GRPO")
        after, details = evaluate_model(
            grpo_base, summary["adapter"], Path(config.data.eval), grader, p.eval_max_new_tokens, **sampling
        )
        (out / "heldout_after.json").write_text(json.dumps({"metrics": after, "details": details}, indent=2))
        result.update(before=before, after_sft=after_sft, after=after, table=table(before, after, after_sft))
    curve = reward_curve(out / config.logging.reward_log, out / "reward_curve.png")
    result["reward_curve"] = str(curve) if curve else None
    clock.stop()
    result["stages_s"] = dict(clock.stages)
    (out / "pipeline.json").write_text(json.dumps(result, indent=2))
    for report in [out / "report.md"] + ([Path(p.report)] if p.report else []):
        write_report(report, command, config, clock, result)
    return result
