"""Does a reward make a policy abstain where it does not know, the way a SimpleQA reader measures it? A seeded study.

    python bench/effect.py                  # 3 seeds x {sft-only, truthrl, knowrl} -> bench/results/effect.md
    python bench/effect.py --seeds 0 --arms sft-only truthrl   # one piece at a time; kept pieces are reused
    python bench/effect.py --quick          # the tiny random model, 1 seed, 2 steps: the job end to end
    python bench/effect.py --config configs/demo.yaml --arms knowrl control   # the earlier gradient design

The study (``configs/selective.yaml``, issue #73): questions with a margin from the base policy's 8-sample probe
(``knowrl.effect.margin``), a short-target cold start, then per arm GRPO from the same SFT policy; the reward
forecast (``knowrl.effect.forecast``) of each arm's preset beside what training did; selectivity within family
and agreement with the reward's optimum (``knowrl.effect.study_report``). The rest of this docstring describes the
earlier gradient design (``--config configs/demo.yaml``), kept for its results files.

Per seed s (data, SFT and GRPO all seeded by s): training questions drawn from the pool (the held-out set of
``knowrl.effect.demo_questions`` is fixed and split from it by entity); the base model's knowledge boundary
(``knowrl.effect.boundary``) picks the cold-start "I don't know" targets; cold-start SFT; then one GRPO run per arm
from that SFT policy:

- ``knowrl``: the released reward (+2 / +1 / -1 + fact score);
- ``correctness``: the same without the fact term (fact weight 0);
- ``control``: format reward only (no signal about being right or abstaining);
- ``knowrl-june2025``: refusals score -1 like errors;
- ``truthrl``: TruthRL's ternary reward (+1 / 0 / -1).

Every stage is evaluated on all held-out questions, greedy (the headline) and, after SFT, with k sampled
answers (which defines "known" for the selectivity figures). Grades come from the strict evaluation grader
(``knowrl.effect.eval_grader``), not the grader the policy was trained against; the training grader's labels and
the agreement between the two are reported beside them. Deltas are after GRPO minus after SFT of the same
seed, with 95 % intervals from a paired bootstrap over questions (``knowrl.stats``).

Arms whose after-GRPO greedy answers are identical to another arm's in every seed are reported once.
Each finished piece is kept in ``--work``: an interrupted study resumes where it stopped. It is also kept in the
repository (``bench/results/effect-pieces/<config>/``, ``effect_keep``: evaluations, data, the SFT adapter) and
restored from there into a new ``--work``: a study spans sessions whose machines do not outlive them.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import effect_keep  # noqa: E402

from knowrl.config import TrainConfig, load_train_config  # noqa: E402
from knowrl.effect.heldout import evaluate_policy, save  # noqa: E402
from knowrl.effect.selectivity import known, paired_gap, report  # noqa: E402
from knowrl.effect.training_signal import training_signal  # noqa: E402
from knowrl.stats import paired_bootstrap, rates  # noqa: E402
from knowrl_io import provenance  # noqa: E402
from knowrl_io.job_output import check_results
from knowrl_io.work_folder import claim_work, renew_inside

RESULTS = ROOT / "bench" / "results"
ARMS: dict[str, list[str]] = {
    "sft-only": [],  # no GRPO: the SFT policy itself, what every other arm is paired against
    "truthrl": ["reward.preset=truthrl"],
    "knowrl": ["reward.preset=knowrl"],
    "threshold-0.75": ["reward.preset=threshold", "reward.threshold_t=0.75"],
    # levers on the abstention trap (every group's samples all "I don't know"), each alone on truthrl:
    "truthrl-explore": ["reward.preset=truthrl", "reward.abstain_ramp_steps=30"],  # abstain pays -1 -> 0 by step 30
    "truthrl-t1.2": ["reward.preset=truthrl", "grpo.temperature=1.2"],  # more answers sampled per group
    # a smaller abstain reward: answering pays where p(right) > 0.35 (TruthRL with "I don't know" at -0.3)
    "threshold-0.35": ["reward.preset=threshold", "reward.threshold_t=0.35"],
    "correctness": ["reward.preset=knowrl", "reward.semantics={fact_weight: 0, fact_on_no_answer: false}"],
    "control": [
        "reward.preset=knowrl",
        "reward.semantics={correct: 0, not_attempted: 0, incorrect: 0, no_answer: 0, fact_weight: 0}",
    ],
    "knowrl-june2025": ["reward.preset=knowrl-june2025"],
}
STUDY_ARMS = ["sft-only", "truthrl", "knowrl"]
HEADLINE = ("f_score", "correct_given_attempted", "correct", "incorrect", "not_attempted", "malformed")
DEFAULTS = {"train_questions": 200, "sft_steps": 40, "grpo_steps": 60, "samples": 4, "max_new_tokens": 48}
STUDY_SEEDS = 3
GRPO_ONLY = ("grpo.", "dynamic_sampling.", "time_budget_min=")  # overrides a cold start never reads
STUDY_CONFIG = "configs/selective.yaml"
CONFIG_KEY = "config="  # the base config travels first among a piece's overrides: kept pieces record it
QUICK = ["model.name_or_path=tiny", "sft.max_length=384", "pipeline.demo_boundary_stand_in=true"]


def config(overrides: list[str]) -> TrainConfig:
    """The study's config: ``config=PATH`` among the overrides names the base file (default the margin study's)."""
    path = next((o[len(CONFIG_KEY) :] for o in overrides if o.startswith(CONFIG_KEY)), STUDY_CONFIG)
    return load_train_config(ROOT / path, [o for o in overrides if not o.startswith(CONFIG_KEY)])


def base_model(overrides: list[str]) -> str:
    """The base policy's local path (a restored cold start re-merges its SFT adapter onto it)."""
    from knowrl.models import resolve_model_path

    return resolve_model_path(config(overrides).model.name_or_path, 0)


def is_margin(overrides: list[str]) -> bool:
    return config(overrides).pipeline.demo_design == "margin"


def grpo_batch(overrides: list[str]) -> str:
    """One GRPO step's batch as the config sets it (TRL counts completions: prompts = batch / group)."""
    grpo = config(overrides).grpo
    group = int(grpo.get("num_generations", 8))
    return f"{int(grpo.get('per_device_train_batch_size', 8)) // group} prompts x {group} completions"


def sizes_overrides(sizes: dict[str, int]) -> list[str]:
    return [
        f"sft.max_steps={sizes['sft_steps']}",
        f"grpo.max_steps={sizes['grpo_steps']}",
        f"grpo.max_completion_length={sizes['max_new_tokens']}",
        f"pipeline.eval_max_new_tokens={sizes['max_new_tokens']}",
        f"pipeline.demo_train_questions={sizes['train_questions']}",
        "grpo.save_steps=100000",
    ]


def _done(path: Path, made_with: dict[str, Any]) -> dict[str, Any] | None:
    """A kept result, reused only if made with the same settings (else the table would be stale)."""
    if not path.exists():
        return None
    saved = json.loads(path.read_text())
    if _cold_key(saved.get("made_with")) != made_with:
        raise SystemExit(f"{path} was made with {saved.get('made_with')}, not {made_with}: use another --work")
    return saved


def _cold_key(made_with: Any) -> Any:
    """A kept cold start's settings without what only GRPO reads: a longer or time-boxed GRPO (a lent GPU's)
    reuses the same cold start. An arm piece (no ``heldout`` key) passes through unchanged."""
    if not isinstance(made_with, dict) or "heldout" not in made_with:
        return made_with
    return {
        **made_with,
        "sizes": {k: v for k, v in made_with["sizes"].items() if k != "grpo_steps"},
        "overrides": [o for o in made_with["overrides"] if not o.startswith(GRPO_ONLY)],
    }


def cold_start(
    work: Path,
    seed: int,
    sizes: dict[str, int],
    overrides: list[str],
    heldout_n: int | None,
    min_correct: int | None = None,
) -> dict:
    """Seed ``seed``'s data, boundary probe, SFT policy and its held-out evaluation (kept in ``work``).
    ``min_correct``: right answers (of 4) that make a question known; None: at least half."""
    from knowrl.effect.boundary import probe_path
    from knowrl.effect.demo_data import build_demo_data
    from knowrl.merge import merge
    from knowrl.models import resolve_model_path
    from knowrl.sft import sft

    made_with: dict[str, Any] = _cold_key({"sizes": sizes, "overrides": overrides, "heldout": heldout_n})
    if min_correct is not None:  # absent at the default, so pieces kept before the option still match
        made_with["min_correct"] = min_correct
    out = work / f"seed{seed}"
    saved = _done(out / "cold_start.json", made_with)
    if saved:
        policy_samples(out, saved, sizes, overrides)  # a cold start kept from before this piece existed
        return saved
    cfg = config(overrides + sizes_overrides(sizes) + [f"seed={seed}"])
    started = time.perf_counter()
    base = resolve_model_path(cfg.model.name_or_path, 0)
    kept = probe_path(base, work / "boundary", 4, 0.9, seed)
    before = kept.stat().st_mtime_ns if kept.exists() else None
    p = cfg.pipeline
    if p.demo_design == "margin":
        from knowrl.effect.margin import margin_data_for

        data, _, _ = margin_data_for(cfg, out / "data", base, work / "boundary")
    elif p.demo_design == "gradient":
        from knowrl.effect.demo_data import gradient_data_for

        data = gradient_data_for(
            cfg, out / "data", base, work / "boundary", sizes["train_questions"], min_correct, heldout_n
        )
    else:
        boundary = {"model": base, "k": 4, "temperature": 0.9, "cache": work / "boundary", "min_correct": min_correct}
        data = build_demo_data(out / "data", sizes["train_questions"], heldout_n, seed, boundary=boundary)
    probe_s = time.perf_counter() - started
    if p.demo_design in ("gradient", "margin"):
        from knowrl.effect.heldout import evaluate_bare, evaluate_majority

        base_eval = work / "base.eval.json"  # the held-out set is the same for every seed: one base row
        if not base_eval.exists():
            save(evaluate_bare(base, data["heldout"]), base_eval)
        fresh = work / "base_samples.json"  # the no-training reference: 4 fresh bare answers per question
        if p.demo_design == "margin" and not fresh.exists():
            from knowrl.effect.boundary import sample_answers
            from knowrl.effect.heldout import heldout_rows

            questions = [r["question"] for r in heldout_rows(data["heldout"])]
            save({"answers": sample_answers(base, questions, 4, 0.9, 1000, batch_size=48)}, fresh)
        save(evaluate_majority(data["heldout"], data["train"]), out / "majority.eval.json")
    sft_cfg = cfg.model_copy(deep=True)
    sft_cfg.data.train, sft_cfg.output_dir, sft_cfg.model.name_or_path = str(data["sft"]), str(out / "sft"), base
    sft(sft_cfg)
    policy = str(merge(base, str(out / "sft" / "final"), out / "sft-merged"))
    sft_s = time.perf_counter() - started - probe_s
    temperature = float(cfg.grpo.get("temperature", 0.9))  # samples at the training temperature
    evaluation = evaluate_policy(
        policy, None, data["heldout"], sizes["max_new_tokens"], sizes["samples"], temperature, seed
    )
    save(evaluation, out / "after_sft.eval.json")
    if p.demo_design == "margin":  # the greedy action on the training questions: does it reach the optimum?
        save(evaluate_policy(policy, None, data["train"], sizes["max_new_tokens"]), out / "train_sft.eval.json")
    result = {
        "seed": seed,
        "policy": policy,
        "data": {k: str(v) for k, v in data.items()},
        "cold_start": {k: v for k, v in json.loads(data["cold_start"].read_text()).items() if k != "probe"},
        "torch_threads": torch_threads(),
        "probe_s": probe_s,
        # every answer came from the probe cache (an earlier, unfinished run): probe_s timed no probing
        "probe_cached": before is not None and kept.stat().st_mtime_ns == before,
        "sft_s": sft_s,
        "eval_s": time.perf_counter() - started - probe_s - sft_s,
        "made_with": made_with,
        "commit": provenance.commit(),  # the code that made this piece (a report may be assembled later)
        "hardware": hardware(),
    }
    policy_samples(out, result, sizes, overrides)
    save(result, out / "cold_start.json")
    return result


POLICY_SAMPLES = 8  # the SFT policy's sampled answers per training question: its own forecast


def policy_samples(out: Path, cs: dict, sizes: dict[str, int], overrides: list[str]) -> None:
    """Margin design: the SFT policy's ``POLICY_SAMPLES`` sampled answers per training question at GRPO's
    temperature, in the answer format (``train_sft_sampled.eval.json``): what GRPO's groups will draw, so the
    reward's optimum for the policy being trained (``forecast.policy_p_right``) can be printed beside the base
    probe's. Kept; made once per seed."""
    path = out / "train_sft_sampled.eval.json"
    if path.exists():
        return
    cfg = config(overrides)
    if cfg.pipeline.demo_design != "margin":
        return
    temperature = float(cfg.grpo.get("temperature", 0.9))
    effect_keep.remerge(cs, base_model(overrides))
    save(
        evaluate_policy(
            cs["policy"],
            None,
            Path(cs["data"]["train"]),
            sizes["max_new_tokens"],
            POLICY_SAMPLES,
            temperature,
            int(cs["seed"]),
            greedy=False,
        ),
        path,
    )


def arm_run(work: Path, seed: int, arm: str, cs: dict, sizes: dict[str, int], overrides: list[str]) -> dict:
    """One GRPO run of ``arm`` from seed ``seed``'s SFT policy, and its greedy held-out evaluation."""
    from knowrl.grpo import train

    made_with = {"sizes": sizes, "overrides": overrides, "arm": ARMS[arm]}
    out = work / f"seed{seed}" / arm
    saved = _done(out / "effect.json", made_with)
    if saved:
        return saved
    if arm == "sft-only":  # the SFT policy's own evaluations are the arm's
        result = {"seed": seed, "arm": arm, "train_s": 0.0, "eval_s": 0.0, "made_with": made_with}
        result["commit"] = provenance.commit()
        result |= {"torch_threads": torch_threads(), "training": None, "answers_sha": None}
        save(result, out / "effect.json")
        return result
    cfg = config(
        overrides
        + sizes_overrides(sizes)
        + ARMS[arm]
        + [
            f"seed={seed}",
            f"output_dir={out}",
            f"model.name_or_path={cs['policy']}",
            f"data.train={cs['data']['train']}",
            f"data.eval={cs['data']['heldout']}",
        ]
    )
    effect_keep.remerge(cs, base_model(overrides))
    started = time.perf_counter()
    summary = train(cfg)
    train_s = time.perf_counter() - started
    margin = cfg.pipeline.demo_design == "margin"
    samples, temperature = (sizes["samples"], float(cfg.grpo.get("temperature", 0.9))) if margin else (0, 1.0)
    evaluation = evaluate_policy(
        cs["policy"],
        summary["adapter"],
        Path(cs["data"]["heldout"]),
        sizes["max_new_tokens"],
        samples,
        temperature,
        seed,
    )
    save(evaluation, out / "after_grpo.eval.json")
    if margin:
        train_eval = evaluate_policy(
            cs["policy"], summary["adapter"], Path(cs["data"]["train"]), sizes["max_new_tokens"]
        )
        save(train_eval, out / "train_grpo.eval.json")
    answers = [d["completion"] for d in evaluation["greedy"]["details"]]
    result = {
        "seed": seed,
        "arm": arm,
        "semantics": cfg.reward.reward_semantics.model_dump(),
        "torch_threads": torch_threads(),
        "train_s": train_s,
        "eval_s": time.perf_counter() - started - train_s,
        "training": training_signal(
            Path(summary["reward_log"]),
            cfg.reward.reward_semantics.fact_weight,
            int(cfg.grpo.get("num_generations", 8)),
            summary.get("dynamic_sampling"),
        ),
        "answers_sha": hashlib.sha1(json.dumps(answers).encode()).hexdigest(),
        "made_with": made_with,
        "commit": provenance.commit(),  # the code that made this piece (a report may be assembled later)
        "hardware": hardware(),
    }
    save(result, out / "effect.json")
    return result


@functools.cache
def load_eval(path: Path) -> dict[str, Any]:
    """An evaluation file, read once per report (each holds every completion: megabytes)."""
    return json.loads(path.read_text())


def known_after_sft(sft_eval: dict[str, Any]) -> np.ndarray:
    """Per question: the SFT policy is right in at least half of its sampled answers (greedy when none)."""
    basis = sft_eval["sampled"]["counts"] if "sampled" in sft_eval else sft_eval["greedy"]["counts"]
    return known(np.array(basis), sft_eval["answerable"])


def compare(work: Path, seed: int, arm: str) -> dict[str, Any]:
    """Paired deltas (after GRPO - after SFT, greedy, strict grader), the whole pipeline's (base row -> after
    GRPO) when the base row exists, against the control arm's policy, and selectivity for one run."""
    from knowrl.pipeline import known_mask

    sft_eval = load_eval(work / f"seed{seed}" / "after_sft.eval.json")
    grpo_eval = load_eval(work / f"seed{seed}" / arm / "after_grpo.eval.json")
    before, after = np.array(sft_eval["greedy"]["counts"]), np.array(grpo_eval["greedy"]["counts"])
    answerable = sft_eval["answerable"]
    is_known = known_mask(sft_eval)
    out = {
        "deltas": paired_bootstrap(before, after, seed=seed),
        "sft": rates(before),
        "after": rates(after),
        "train_grader_after": grpo_eval["greedy"]["train_rates"],
        "agreement_after": grpo_eval["greedy"]["agreement"],
        "selectivity_sft": report(before, is_known, answerable),
        "selectivity_grpo": report(after, is_known, answerable),
        "gap": paired_gap(before, after, is_known, answerable, seed=seed),
        "claims_eval": grpo_eval["greedy"]["claims_mean"],
    }
    base_path = work / "base.eval.json"
    if base_path.exists():
        base = np.array(load_eval(base_path)["greedy"]["counts"])
        out["base"] = rates(base)
        out["pipeline"] = paired_bootstrap(base, after, seed=seed)
    control = work / f"seed{seed}" / "control" / "after_grpo.eval.json"
    if arm != "control" and control.exists():
        out["vs_control"] = paired_bootstrap(np.array(load_eval(control)["greedy"]["counts"]), after, seed=seed)
    return out


def triple(d: dict[str, float]) -> list[float]:
    """[estimate, low, high] of one paired delta (effect.json's shape)."""
    return [round(d["delta"], 4), round(d["low"], 4), round(d["high"], 4)]


def effect_json(
    path: Path, command: str, seeds: list[int], colds: dict, runs: dict[str, dict[int, dict]], work: Path
) -> dict[str, Any]:
    """effect.json beside effect.md: per seed the base policy's known share of the answerable held-out
    questions, and per arm F at each stage, the paired deltas and selectivity, with the commit."""
    import subprocess

    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    out: dict[str, Any] = {"command": command, "commit": commit or None, "seeds": {}}
    for s in seeds:
        known = colds[s]["cold_start"].get("heldout_known", {}).get("all")
        entry: dict[str, Any] = {"base_known_share": known["known"] / known["questions"] if known else None}
        for arm in runs:
            if s not in runs[arm]:
                continue
            c = compare(work, s, arm)
            entry[arm] = {
                "f": {
                    "base": c.get("base", {}).get("f_score"),
                    "sft": c["sft"]["f_score"],
                    "grpo": c["after"]["f_score"],
                },
                "pipeline_delta_f": triple(c["pipeline"]["f_score"]) if "pipeline" in c else None,
                "pipeline_delta_incorrect": triple(c["pipeline"]["incorrect"]) if "pipeline" in c else None,
                "grpo_delta_f": triple(c["deltas"]["f_score"]),
                "grpo_delta_incorrect": triple(c["deltas"]["incorrect"]),
                "vs_control_f": triple(c["vs_control"]["f_score"]) if "vs_control" in c else None,
                "vs_control_incorrect": triple(c["vs_control"]["incorrect"]) if "vs_control" in c else None,
                "auroc": {"sft": c["selectivity_sft"]["auroc_unknown"], "grpo": c["selectivity_grpo"]["auroc_unknown"]},
                "steps_with_spread": runs[arm][s]["training"].get("steps_with_spread"),
            }
        out["seeds"][str(s)] = entry
    path.write_text(json.dumps(out, indent=1) + "\n")
    return out


def goal(c: dict[str, Any]) -> dict[str, bool]:
    """The issue's goal for one run, each beyond its paired 95 % interval."""
    d, gap = c["deltas"], c["gap"]
    return {
        "F up": d["f_score"]["low"] > 0,
        "CGA up": d["correct_given_attempted"]["low"] > 0,
        "incorrect down": d["incorrect"]["high"] < 0,
        "abstention more on unknown": bool(gap) and gap["low"] > 0,
    }


def fmt_delta(d: dict[str, float]) -> str:
    return f"{d['delta']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}]"


def opt(x: float | None, spec: str = ".2f") -> str:
    return "-" if x is None else format(x, spec)


def identical_arms(runs: dict[str, dict[int, dict]]) -> dict[str, str]:
    """arm -> the earlier arm whose greedy held-out answers it repeats in every seed."""
    same: dict[str, str] = {}
    names = list(runs)
    for i, b in enumerate(names):
        for a in names[:i]:
            if (
                a not in same
                and set(runs[a]) == set(runs[b])
                and all(runs[a][s]["answers_sha"] == runs[b][s]["answers_sha"] for s in runs[b])
            ):
                same[b] = a
                break
    return same


def stage_seconds(colds: dict, runs: dict[str, dict[int, dict]]) -> float:
    """Process time of every finished stage, as each recorded it."""
    cold = sum(c["probe_s"] + c["sft_s"] + c["eval_s"] for c in colds.values())
    return cold + sum(r["train_s"] + r["eval_s"] for arm in runs.values() for r in arm.values())


def base_knowledge(work: Path, heldout: Path, base: str, k: int = 4) -> dict[str, Any]:
    """The base model's held-out knowledge and the selective F ceiling (``knowrl.effect.boundary.heldout_knowledge``),
    its probe kept in ``work``."""
    from knowrl.effect.boundary import heldout_knowledge
    from knowrl.effect.heldout import heldout_rows

    return heldout_knowledge(heldout_rows(heldout), base, work / "boundary", k)


def summary_lines(
    compared: dict[str, dict[int, dict]],
    runs: dict[str, dict[int, dict]],
    same: dict[str, str],
    colds: dict,
    work: Path,
    base: dict | None,
) -> list[str]:
    """The plain reading, computed from the tables below (so it cannot read better than they do)."""
    sft = {s: load_eval(work / f"seed{s}" / "after_sft.eval.json") for s in colds}
    sft_rates = [rates(np.array(e["greedy"]["counts"])) for e in sft.values()]
    n_known = [int(known_after_sft(e).sum()) for e in sft.values()]
    deltas = [c["deltas"]["f_score"] for arm in compared.values() for c in arm.values()]
    met = sum(all(goal(c).values()) for arm in compared.values() for c in arm.values())

    def each(key: str, spec: str) -> str:
        return ", ".join(format(r[key], spec) for r in sft_rates)

    lines = [
        "## What this shows",
        "",
        f"- After the knowledge-boundary cold start, greedy on the held-out questions (seeds "
        f"{', '.join(map(str, colds))}): F {each('f_score', '.3f')}; correct {each('correct', '.3f')}; "
        f'"I don\'t know" {each("not_attempted", ".1%")}; malformed {each("malformed", ".1%")}. Questions the '
        f"SFT policy knows (right in at least half of its samples): {', '.join(map(str, n_known))}.",
    ]
    if base:
        lines.append(
            f"- Before any training, the base model is right in at least {math.ceil(base['k'] / 2)} of "
            f"{base['k']} bare answers on {base['right_half']} of the {base['answerable']} answerable held-out "
            f"questions (in at least one: {base['right_any']}). A policy answering exactly those and abstaining "
            f"on everything else would score F = {base['f_ceiling']:.3f}: about the most any reward can reach "
            f"with this model on this set."
        )
    lines += threshold_lines(runs, base)
    if deltas:
        n_runs = sum(len(r) for r in runs.values())
        twins = (
            f"; {', '.join(same)} gave {', '.join(sorted(set(same.values())))}'s greedy answers exactly" if same else ""
        )
        low, high = min(d["delta"] for d in deltas), max(d["delta"] for d in deltas)
        change = f"{low:+.3f}" if len(deltas) == 1 else f"from {low:+.3f} to {high:+.3f}"
        runs_text = "1 run" if n_runs == 1 else f"{n_runs} runs, {len(deltas)} distinct{twins}"
        lines.append(
            f"- GRPO ({runs_text}): change in F {change}; the issue's goal (all four criteria beyond their "
            f"intervals) met in {met} of {len(deltas)} {'run' if len(deltas) == 1 else 'distinct runs'}."
        )

    def share(arm: str, label: str) -> str:
        got = [r["training"]["labels"][label] for r in runs[arm].values() if r["training"].get("completions")]
        return f"{min(got):.2f}-{max(got):.2f}" if got else "-"

    lines.append(
        "- Sampled completions in training, share CORRECT / INCORRECT by arm: "
        + "; ".join(f"{arm} {share(arm, 'CORRECT')} / {share(arm, 'INCORRECT')}" for arm in runs)
        + ". Where no completion of a group is CORRECT or INCORRECT, the reward can only tell apart "
        '"I don\'t know" from a malformed answer.'
    )
    return lines + [""]


def answer_threshold(semantics: dict[str, Any]) -> float | None:
    """The probability of being right above which answering earns more than "I don't know" under a reward's
    payoffs (fact term aside): p * correct + (1 - p) * incorrect > not_attempted. None when abstaining is
    not paid between the two (a control arm, or a reward that never pays for abstaining)."""
    right, idk, wrong = semantics.get("correct"), semantics.get("not_attempted"), semantics.get("incorrect")
    if None in (right, idk, wrong) or not right > idk > wrong:
        return None
    return (idk - wrong) / (right - wrong)


def threshold_lines(runs: dict[str, dict[int, dict]], base: dict | None) -> list[str]:
    """Why a reward may teach abstention everywhere: its answer threshold against how sure the base model is
    (one line per distinct set of payoffs, naming the arms that share it)."""
    by_payoff: dict[tuple[float, float, float], list[str]] = {}
    for arm, by_seed in runs.items():
        semantics = next(iter(by_seed.values()), {}).get("semantics") or {}
        if answer_threshold(semantics) is not None:
            payoff = (semantics["correct"], semantics["not_attempted"], semantics["incorrect"])
            by_payoff.setdefault(payoff, []).append(arm)
    out = []
    for (right, idk, wrong), arms in by_payoff.items():
        p = answer_threshold({"correct": right, "not_attempted": idk, "incorrect": wrong})
        names = " and ".join(f"`{a}`" for a in arms)
        text = (
            f"- The {names} arm{'s' if len(arms) > 1 else ''}' payoffs (right {right:+g}, \"I don't know\" {idk:+g}, "
            f"wrong {wrong:+g}) make answering pay more than abstaining only where the policy is right with "
            f"probability above {p:.2f}"
        )
        if base and "right_counts" in base:
            k = base["k"]
            need = next(c for c in range(k + 1) if c / k > p)
            sure = sum(n for c, n in base["right_counts"].items() if int(c) >= need)
            text += (
                f"; the base model is right in at least {need} of its {k} bare answers on {sure} of the "
                f"{base['answerable']} answerable held-out questions"
            )
        out.append(text + ".")
    return out


def write_markdown(
    path: Path,
    command: str,
    sizes: dict,
    seeds: list[int],
    runs: dict[str, dict[int, dict]],
    work: Path,
    colds: dict,
    threads: str,
    base: dict | None = None,
    workers: int = 1,
    invocation: str = "",
    grpo_batch: str = "",
) -> None:
    from knowrl.effect.heldout import heldout_rows

    same = identical_arms(runs)
    shown = [a for a in runs if a not in same]
    any_cs = colds[seeds[0]]
    rows = heldout_rows(Path(any_cs["data"]["heldout"]))
    templates: dict[str, int] = {}
    for r in rows:
        templates[r.get("template", "?")] = templates.get(r.get("template", "?"), 0) + 1
    compared = {a: {s: compare(work, s, a) for s in runs[a]} for a in shown}
    notes = []
    if len(seeds) < STUDY_SEEDS:
        cost = design_cost(colds, runs, sizes, len(rows), workers)
        steps = cost["cap"]["grpo_steps_that_fit"] if cost else None
        fit = (
            "how the whole design fits this machine's 2.5 h is in the Budget section below"
            if steps is None
            else f"at these sizes the whole design takes {cost['design_min'] / workers:.0f} min here, "
            + ("within" if steps >= sizes["grpo_steps"] else "over")
            + f" the 2.5 h cap, which holds {steps} GRPO steps per run (the Budget section below)"
        )
        notes = [f"**{len(seeds)} of the study's {STUDY_SEEDS} seeds.** {fit[0].upper() + fit[1:]}.", ""]
    total_s = stage_seconds(colds, runs)
    lines = [
        f"# The effect, measured as a SimpleQA reader would ({len(seeds)} seed{'s' * (len(seeds) != 1)} x "
        f"{len(runs)} arms)",
        "",
        f"Command: `{command}` at commit {provenance.commit()} "
        f"({invocation + '; ' if invocation else ''}{total_s / 60:.0f} min of stages as each "
        f"recorded it; {platform.machine()}, "
        f"{os.cpu_count()} cores, {threads}).",
        "",
        f"Sizes: {sizes['train_questions']} training questions per seed, SFT {sizes['sft_steps']} steps, GRPO "
        f"{sizes['grpo_steps']} steps ({grpo_batch or 'TRL batch'} each), {sizes['max_new_tokens']} new tokens; "
        f"held-out {len(rows)} questions ({', '.join(f'{k} {v}' for k, v in sorted(templates.items()))}), "
        f'greedy at every stage, {sizes["samples"]} sampled answers per question after SFT (for "known").',
        "",
        "Grades: the strict evaluation grader (alias match, its own refusals; shares no rule with the training "
        "grader). Deltas: after GRPO minus after SFT of the same seed, greedy, with a 95 % interval from a "
        "paired bootstrap over questions. Malformed answers (no parseable answer) are counted apart from "
        "abstentions.",
        "",
        *notes,
        *summary_lines(compared, runs, same, colds, work, base),
        "## F-score and the SimpleQA rates, after GRPO minus after SFT",
        "",
        "| arm | seed | base F | after SFT F | after GRPO F | pipeline Δ F | pipeline Δ incorrect | GRPO Δ F vs "
        "control | " + " | ".join(f"GRPO Δ {k}" for k in HEADLINE) + " |",
        "|---|---:|---:|---:|---:|---|---|---|" + "---|" * len(HEADLINE),
    ]
    for arm in shown:
        for s in seeds:
            if s not in compared[arm]:
                continue
            c = compared[arm][s]
            f_before = c["after"]["f_score"] - c["deltas"]["f_score"]["delta"]
            pipe = c.get("pipeline")
            vs = c.get("vs_control")
            lines.append(
                f"| {arm} | {s} | {opt(c.get('base', {}).get('f_score'), '.3f')} | {f_before:.3f} | "
                f"{c['after']['f_score']:.3f} | {fmt_delta(pipe['f_score']) if pipe else '-'} | "
                f"{fmt_delta(pipe['incorrect']) if pipe else '-'} | {fmt_delta(vs['f_score']) if vs else '-'} | "
                + " | ".join(fmt_delta(c["deltas"][k]) for k in HEADLINE)
                + " |"
            )
    lines += ["", "## The goal, per seed (each beyond its paired interval)", ""]
    lines += [
        "| arm | F up | CGA up | greedy incorrect down | abstention up more on unknown | all four |",
        "|---|---|---|---|---|---|",
    ]
    for arm in shown:
        marks = [goal(compared[arm][s]) for s in seeds if s in compared[arm]]
        n = len(marks)
        cols = [
            f"{sum(m[k] for m in marks)} of {n}"
            for k in ("F up", "CGA up", "incorrect down", "abstention more on unknown")
        ]
        lines.append(f"| {arm} | " + " | ".join(cols) + f" | {sum(all(m.values()) for m in marks)} of {n} |")
    lines += [
        "",
        "## Selectivity: abstention on questions the SFT policy knew vs did not",
        "",
        "Known: right in at least half of its sampled answers after SFT (strict grader). AUROC: how well a "
        "question's abstention ranks unknown above known questions (0.5 = at random). Gap change: (abstention "
        "on unknown - on known) after GRPO minus after SFT, 95 % paired interval.",
        "",
        "| arm | seed | known / unknown | abstain known SFT -> GRPO | abstain unknown SFT -> GRPO "
        "| made-up SFT -> GRPO | AUROC SFT -> GRPO | gap change |",
        "|---|---:|---|---|---|---|---|---|",
    ]
    for arm in shown:
        for s, c in compared[arm].items():
            a, b = c["selectivity_sft"], c["selectivity_grpo"]
            gap = fmt_delta(c["gap"]) if c["gap"] else "- (no known or no unknown)"
            lines.append(
                f"| {arm} | {s} | {a['n_known']} / {a['n_unknown']} | "
                f"{opt(a['abstain_known'])} -> {opt(b['abstain_known'])} | "
                f"{opt(a['abstain_unknown'])} -> {opt(b['abstain_unknown'])} | {opt(a['abstain_made_up'])} -> "
                f"{opt(b['abstain_made_up'])} | {opt(a['auroc_unknown'])} -> {opt(b['auroc_unknown'])} | {gap} |"
            )
    lines += [
        "",
        "## Training: the reward's signal, claims and the fact term",
        "",
        "| arm | seed | GRPO min | steps with spread | groups with spread (first draw -> trained) "
        "| CORRECT / INCORRECT per step | CORRECT / INCORRECT / IDK / no answer | claims per completion "
        "| claims per INCORRECT | fact score (INCORRECT) | fact term's share of in-group reward variance |",
        "|---|---:|---:|---:|---|---|---|---:|---:|---:|---:|",
    ]
    for arm in shown:
        for s, r in runs[arm].items():
            t = r["training"]
            if not t.get("completions"):
                continue
            lab = t["labels"]
            lines.append(
                f"| {arm} | {s} | {r['train_s'] / 60:.1f} | {t['steps_with_spread']:.0%} of {t['steps']} | "
                f"{t['groups_with_spread_first_draw']:.0%} -> {t['groups_with_spread_trained']:.0%} | "
                f"{t['correct_per_step']:.1f} / {t['incorrect_per_step']:.1f} | "
                f"{lab['CORRECT']:.2f} / {lab['INCORRECT']:.2f} / {lab['NOT_ATTEMPTED']:.2f} / {t['no_answer']:.2f} | "
                f"{t['claims_per_completion']:.2f} | {opt(t['claims_per_incorrect'])} | "
                f"{opt(t['fact_score_incorrect'], '.3f')} | "
                f"{opt(t['fact_variance_share'], '.1%')} |"
            )
    lines += ["", "## Graders and cold start", ""]
    lines += [
        '| seed | cold start: real questions / "I don\'t know" targets '
        "| strict vs training grader after SFT (agree, kappa) |",
        "|---:|---|---|",
    ]
    for s in seeds:
        cs = colds[s]
        ev = load_eval(work / f"seed{s}" / "after_sft.eval.json")["greedy"]["agreement"]
        lines.append(
            f"| {s} | {cs['cold_start']['real']} / {cs['cold_start']['unsure_real']} | "
            f"{ev['agree']:.3f}, {ev['kappa']:.2f} |"
        )
    lines += budget_lines(colds, runs, sizes, len(rows), threads, workers)
    if same:
        lines += ["", "Arms reported once (identical greedy held-out answers to another arm in every seed): "]
        lines += [f"- `{b}` = `{a}`" for b, a in same.items()]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def design_cost(
    colds: dict, runs: dict[str, dict[int, dict]], sizes: dict, heldout: int, workers: int = 1
) -> dict[str, Any] | None:
    """This run's costs per unit (``per``), the 2.5 h plan on them for the whole design (``cap``: ``workers``
    processes side by side hold that many times the process time), and the design's process minutes at these
    sizes; None before any run is finished."""
    done = [r for arm in runs.values() for r in arm.values()]
    if not colds or not done:
        return None
    timed = [c["probe_s"] for c in colds.values() if not c.get("probe_cached")]
    per = unit_costs(
        sizes,
        heldout,
        statistics.fmean(timed) if timed else 0.0,
        statistics.fmean(c["sft_s"] for c in colds.values()),
        statistics.fmean(c["eval_s"] for c in colds.values()),
        statistics.fmean(r["train_s"] for r in done),
        statistics.fmean(r["eval_s"] for r in done),
    )
    cap = plan(per, sizes, 150.0 * workers, STUDY_SEEDS, len(ARMS), heldout)
    design_min = cap["fixed_min"] + STUDY_SEEDS * len(ARMS) * sizes["grpo_steps"] * per["grpo_step_s"] / 60
    return {"per": per, "cap": cap, "design_min": design_min, "probe_timed": bool(timed)}


def budget_lines(
    colds: dict, runs: dict[str, dict[int, dict]], sizes: dict, heldout: int, threads: str, workers: int = 1
) -> list[str]:
    """What this run's stages cost per unit, and what the whole design (5 seeds x every arm) would take at
    these sizes against the 2.5 h cap (``plan`` on the measured costs, not on a separate profile). Costs are
    per process as measured; ``workers`` processes run side by side, so the cap holds that many times the
    process time."""
    cost = design_cost(colds, runs, sizes, heldout, workers)
    if cost is None:
        return []
    per, cap, design_min, timed = cost["per"], cost["cap"], cost["design_min"], cost["probe_timed"]
    total = stage_seconds(colds, runs)
    probe = (
        f"boundary probe {per['probe_per_question_s']:.2f} s per training question"
        if timed
        else "boundary probe not timed (its answers were all in the probe cache; left out of the plan below)"
    )
    return [
        "",
        "## Budget",
        "",
        f"Measured in this run ({threads}), per process: {probe}, SFT {per['sft_step_s']:.1f} s per step, "
        "after-SFT evaluation "
        f"{per['eval_sft_per_question_s']:.2f} s per held-out question (greedy + {sizes['samples']} samples), "
        f"GRPO {per['grpo_step_s']:.1f} s per step, after-GRPO evaluation {per['eval_greedy_per_question_s']:.2f} "
        f"s per question (greedy). Stages summed: {total / 60:.0f} min of process time "
        f"({total / 60 / workers:.0f} min of wall time over {workers} process(es)).",
        "",
        f"The whole design ({STUDY_SEEDS} seeds x {len(ARMS)} arms) at these sizes: the evaluations, probes and "
        f"SFT alone take {cap['fixed_min']:.0f} min of process time ({cap['per_seed_fixed_min']:.1f} min per "
        f"seed, {cap['per_run_eval_min']:.1f} min per arm's held-out evaluation), {cap['fixed_min'] / workers:.0f}"
        f" min of wall time over {workers} process(es); with {sizes['grpo_steps']} GRPO steps per run, "
        f"{design_min / workers:.0f} min. The issue's 2.5 h cap leaves {cap['grpo_steps_that_fit']} GRPO steps "
        "per run.",
    ]


def profile(overrides: list[str], sizes: dict[str, int], work: Path, budget_min: float, seeds: int, arms: int) -> dict:
    """Time one seed's stages at small sizes and solve for the GRPO steps that fit the budget."""
    quick = {**sizes, "train_questions": 24, "sft_steps": 4, "grpo_steps": 2, "samples": sizes["samples"]}
    t = time.perf_counter()
    cs = cold_start(work / "profile", 0, quick, overrides, 48)
    r = arm_run(work / "profile", 0, "knowrl", cs, quick, overrides)
    wall = time.perf_counter() - t
    n_held = len(json.loads((work / "profile" / "seed0" / "after_sft.eval.json").read_text())["qids"])
    per = {
        **unit_costs(quick, n_held, cs["probe_s"], cs["sft_s"], cs["eval_s"], r["train_s"], r["eval_s"]),
        "profile_wall_s": wall,
    }
    return {**per, **plan(per, sizes, budget_min, seeds, arms)}


def unit_costs(
    sizes: dict[str, int], heldout: int, probe_s: float, sft_s: float, eval_sft_s: float, grpo_s: float, eval_s: float
) -> dict[str, float]:
    """Seconds per unit of each stage, what ``plan`` multiplies: from one seed's (or one run's) stage times at
    ``sizes`` over ``heldout`` evaluation questions."""
    return {
        "probe_per_question_s": probe_s / sizes["train_questions"],
        "sft_step_s": sft_s / sizes["sft_steps"],
        "eval_sft_per_question_s": eval_sft_s / heldout,
        "grpo_step_s": grpo_s / sizes["grpo_steps"],
        "eval_greedy_per_question_s": eval_s / heldout,
    }


def plan(
    per: dict[str, float], sizes: dict[str, int], budget_min: float, seeds: int, arms: int, heldout: int = 312
) -> dict:
    """The budget arithmetic: fixed costs per seed and per run, and the GRPO steps S that fill the rest."""
    per_seed = (
        per["probe_per_question_s"] * sizes["train_questions"]
        + per["sft_step_s"] * sizes["sft_steps"]
        + per["eval_sft_per_question_s"] * heldout
    )
    per_run_fixed = per["eval_greedy_per_question_s"] * heldout
    fixed = seeds * (per_seed + arms * per_run_fixed)
    left = budget_min * 60 - fixed
    steps = max(0, math.floor(left / (seeds * arms * per["grpo_step_s"])))
    return {
        "fixed_min": fixed / 60,
        "grpo_steps_that_fit": steps,
        "per_seed_fixed_min": per_seed / 60,
        "per_run_eval_min": per_run_fixed / 60,
    }


def torch_threads() -> int:
    """The threads this process's torch computes with (what a stage's time was measured at)."""
    import torch

    return torch.get_num_threads()


def hardware() -> str:
    """Where a piece ran: the GPU's name, else the CPU's cores (a piece from a lent GPU says so)."""
    import torch

    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    return f"{gpu} + {os.cpu_count()} cores" if gpu else f"CPU, {os.cpu_count()} cores"


def threads_note(colds: dict, runs: dict[str, dict[int, dict]], workers: int) -> str:
    """How the stages ran, from the threads each kept piece recorded; pieces from before that record was
    kept fall back to this process's OMP_NUM_THREADS (the report may be assembled in another setting)."""
    seen = {c.get("torch_threads") for c in colds.values()}
    seen |= {r.get("torch_threads") for arm in runs.values() for r in arm.values()}
    if seen and None not in seen:
        each = "/".join(str(n) for n in sorted(seen))
        return f"{workers} process(es), torch threads {each} each, as the stages recorded"
    if workers > 1:
        return f"{workers} worker processes with OMP_NUM_THREADS={worker_threads(workers)}"
    return f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}"


def worker_threads(workers: int) -> int:
    """Threads per worker process: the cores shared out."""
    return max(1, (os.cpu_count() or 1) // workers)


def piece_path(work: Path, seed: int, arm: str | None) -> Path:
    """The file that marks a piece done: a seed's cold start, or one arm's run from it."""
    return work / f"seed{seed}" / (f"{arm}/effect.json" if arm else "cold_start.json")


def claim_path(work: Path, seed: int, arm: str | None) -> Path:
    """Created by the worker that takes the piece (``run_workers`` clears them when it starts)."""
    return work / "claims" / f"seed{seed}-{arm or 'cold-start'}"


def run_workers(argv: list[str], workers: int, work: Path) -> None:
    """``workers`` processes sharing the cores, each taking the next piece not yet taken (``pull_pieces``):
    pieces, not whole seeds, so 5 seeds on 2 workers do not leave one core idle for the last seed. Each keeps
    its pieces in ``work`` and writes no report (each would probe the base model's held-out knowledge for its
    own ceiling, side by side); the caller then assembles the one report. A worker that fails stops the rest
    (the pieces it was to make would be waited for for ever)."""
    import subprocess

    renew_inside(work, "claims", __file__)  # claims of an interrupted run (its pieces are redone); its folder only
    env = {**os.environ, "OMP_NUM_THREADS": str(worker_threads(workers))}
    procs = []
    for i in range(workers):
        # argparse keeps the last value of a repeated flag: the caller's flags, then each worker's own
        cmd = [sys.executable, __file__, *argv, "--work", str(work), "--pieces-only", "--workers", "1", "--pull"]
        with (work / f"worker{i}.log").open("a") as log:
            procs.append(subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT))
    while any(p.poll() is None for p in procs):
        if any(p.poll() not in (None, 0) for p in procs):
            for p in procs:
                p.terminate()
            break
        time.sleep(2)
    failed = [p.args for p in procs if p.wait() != 0]
    if failed:
        raise SystemExit(f"{len(failed)} worker(s) failed or were stopped: see {work}/worker*.log")


def pull_pieces(
    work: Path, seeds: list[int], arms: list[str], make: Any, poll_s: float = 5.0
) -> list[tuple[int, str | None]]:
    """Make pieces until every one is done or taken by another worker: an arm whose seed's cold start is kept
    first, else the next cold start; a piece is taken by creating its claim file (atomic), so no two workers
    make the same one. ``make(seed, arm)`` makes one (arm None: the cold start). The pieces this worker made."""
    pieces = [(s, None) for s in seeds] + [(s, a) for s in seeds for a in arms]
    made: list[tuple[int, str | None]] = []

    def claim(seed: int, arm: str | None) -> bool:
        try:
            claim_path(work, seed, arm).open("x").close()
        except FileExistsError:
            return False
        return True

    while True:
        ready = [(s, a) for s, a in pieces if a is not None and piece_path(work, s, None).exists()]
        ready += [(s, a) for s, a in pieces if a is None]
        todo = next((p for p in ready if not piece_path(work, *p).exists() and claim(*p)), None)
        if todo is not None:
            make(*todo)
            made.append(todo)
        elif all(piece_path(work, *p).exists() or claim_path(work, *p).exists() for p in pieces):
            return made
        else:
            time.sleep(poll_s)  # what is left waits on a cold start another worker is making


def study_seed(
    work: Path, seed: int, cs: dict, arms: list[str], overrides: list[str], probe: dict[str, Any], k: int
) -> dict[str, Any]:
    """effect.json's entry for one seed of the margin study: the base policy's known share of the held-out
    questions and every arm's numbers (``knowrl.effect.study_report.arm_entry``)."""
    from knowrl.effect.forecast import read_rows
    from knowrl.effect.study_report import arm_entry

    held, train = read_rows(Path(cs["data"]["heldout"])), read_rows(Path(cs["data"]["train"]))
    real = [r for r in held if r["answerable"]]
    entry: dict[str, Any] = {"base_known_share": sum(r["base_known"] for r in real) / max(1, len(real))}
    sft_eval = load_eval(work / f"seed{seed}" / "after_sft.eval.json")
    train_sft = load_eval(work / f"seed{seed}" / "train_sft.eval.json")
    from knowrl.effect.abstention_metrics import reference_selectivity

    entry["reference"] = reference_selectivity(load_eval(work / "base_samples.json")["answers"], held)
    policy_ps = own_p_right(work, seed, train, held)
    for arm in arms:
        folder = work / f"seed{seed}" / arm
        cfg = config(overrides + ARMS[arm])
        sem = cfg.reward.reward_semantics
        if arm == "sft-only":
            sem = config(overrides + ARMS["truthrl"]).reward.reward_semantics  # the study's main reward
            arm_eval, train_eval, training = sft_eval, train_sft, None
        else:
            arm_eval, train_eval = (
                load_eval(folder / "after_grpo.eval.json"),
                load_eval(folder / "train_grpo.eval.json"),
            )
            group = int(cfg.grpo.get("num_generations", 8))
            training = training_signal(folder / "rewards.jsonl", sem.fact_weight, group)
        entry[arm] = arm_entry(sft_eval, arm_eval, held, train, train_eval, probe, k, sem, training, seed, policy_ps)
        piece = json.loads((folder / "effect.json").read_text())
        steps = (training or {}).get("steps")
        entry[arm]["grpo_s_per_step"] = round(piece["train_s"] / steps, 1) if steps else None
    return entry


def own_p_right(work: Path, seed: int, train: list[dict], held: list[dict]) -> dict[str, float] | None:
    """The SFT policy's p(right | it answers) per question, from its sampled answers on the training questions
    (``policy_samples``) and on the held-out ones (its evaluation's samples); None before those exist."""
    from knowrl.effect.forecast import policy_p_right

    path = work / f"seed{seed}" / "train_sft_sampled.eval.json"
    held_eval = load_eval(work / f"seed{seed}" / "after_sft.eval.json")
    if not path.exists() or "sampled" not in held_eval:
        return None
    counts = load_eval(path)["sampled"]["counts"] + held_eval["sampled"]["counts"]
    return policy_p_right(train + held, counts)


def pieces(colds: dict, runs: dict[str, dict[int, dict]]) -> list[dict]:
    """Every kept piece of the report: the cold starts and the arms' runs."""
    return [*colds.values(), *(r for arm in runs.values() for r in arm.values())]


def scope_lines(seeds: list[int], arms: list[str]) -> list[str]:
    """What of the designed study this report holds, said before any number."""
    missing = [a for a in STUDY_ARMS if a not in arms]
    if len(seeds) >= STUDY_SEEDS and not missing:
        return []
    parts = [f"{len(seeds)} of the study's {STUDY_SEEDS} seeds"]
    if missing:
        parts.append("arm" + "s" * (len(missing) > 1) + " " + ", ".join(f"`{a}`" for a in missing) + " not run yet")
    return [f"**Partial: {'; '.join(parts)}.** Kept pieces are reused by the next invocation.", ""]


def probe_of(overrides: list[str]) -> tuple[dict[str, Any], int]:
    """The base policy's kept probe (the config's demo_boundary_file) and its k."""
    p = config(overrides).pipeline
    data = json.loads(Path(p.demo_boundary_file).read_text(encoding="utf-8"))
    return data["probe"], int(data["k"])


def write_study(
    out: Path,
    command: str,
    sizes: dict[str, int],
    seeds: list[int],
    colds: dict,
    runs: dict[str, dict[int, dict]],
    work: Path,
    overrides: list[str],
    threads: str,
) -> dict[str, Any]:
    """effect.md and effect.json of the margin study: the forecast of each arm's reward, then what training did,
    every seed and arm, and the goal per seed."""
    from knowrl.effect.forecast import forecast, read_rows, render
    from knowrl.effect.study_report import goal, is_arm, tables

    arms = list(runs)
    data = {"command": command, "commit": provenance.commit(), "sizes": sizes, "seeds": {}}
    probe, k = probe_of(overrides)  # read once: 0.6 MB
    for s in seeds:
        data["seeds"][str(s)] = study_seed(work, s, colds[s], arms, overrides, probe, k)
    cs = colds[seeds[0]]
    sets = {"train": read_rows(Path(cs["data"]["train"])), "heldout": read_rows(Path(cs["data"]["heldout"]))}
    own = own_p_right(work, seeds[0], sets["train"], sets["heldout"])
    forecasts, own_forecasts = [], []
    for arm in arms:
        if arm == "sft-only":
            continue
        cfg = config(overrides + ARMS[arm])
        result = forecast(sets, probe, k, cfg.reward.reward_semantics)
        forecasts.append(f"### `{arm}`\n\n" + render(result, cfg.reward.preset) + "\n")
        if own is not None:
            mine = forecast(sets, probe, k, cfg.reward.reward_semantics, ps=own)
            own_forecasts.append(f"### `{arm}`\n\n" + render(mine, cfg.reward.preset) + "\n")
    if own_forecasts:
        own_forecasts = [
            f"## The forecast for the policy GRPO trains (seed {seeds[0]}'s SFT policy: {POLICY_SAMPLES} sampled "
            "answers per training question and its held-out evaluation's samples, at GRPO's temperature, in the "
            "answer format; p = its attempts' accuracy, shrunk to its family's)",
            "",
            "*base F* here is that policy answering everything as its attempts do; *oracle F*, the best cut on its "
            "own p. GRPO samples this policy, not the base answering bare: this is the optimum its rewards point to.",
            "",
            *own_forecasts,
        ]
    goals = {s: {a: goal(e) for a, e in entry.items() if is_arm(e)} for s, entry in data["seeds"].items()}
    cold = cs["cold_start"]
    lines = [
        f"# Selective abstention: what each reward asks, and what GRPO did ({len(seeds)} seed"
        f"{'s' * (len(seeds) != 1)} x {len(arms)} arms)",
        "",
        f"Command: `{command}` at commit {provenance.commit()} ({threads}). Pieces made at: "
        + ", ".join(sorted({p.get("commit") or "(not recorded)" for p in pieces(colds, runs)}))
        + "; on: "
        + ", ".join(sorted({p.get("hardware") or "(not recorded)" for p in pieces(colds, runs)}))
        + ".",
        "",
        *scope_lines(seeds, arms),
        f"Sizes: {sizes}. Questions with a margin (`knowrl.effect.margin`): {cold.get('rule')}; "
        f"{cold.get('balance')}. Held-out: {cold.get('heldout', {}).get('all')}; training (seed {seeds[0]}): "
        f"{cold.get('train', {}).get('all')}; candidates: {cold.get('candidates', {}).get('all')}.",
        "",
        f"## The forecast (before training, from the base policy's probe; seed {seeds[0]}'s training questions)",
        "",
        *forecasts,
        "",
        *own_forecasts,
        tables(data["seeds"]),
        "",
        "No-training reference (the base policy, 4 fresh bare answers at T 0.9, abstaining unless 3 of 4 agree), "
        "AUROC pooled / within family: "
        + "; ".join(
            f"seed {s}: {opt(e['reference']['pooled'], '.2f')} / {opt(e['reference']['within_family'], '.2f')}"
            for s, e in data["seeds"].items()
        )
        + ".",
        "",
        "## The goal per seed (within-family AUROC >= 0.7 after GRPO; correct given attempted up and incorrect "
        "down beyond the paired 95 % interval; greedy action = the reward's optimum on >= 80 % of training "
        "questions)",
        "",
        "| seed | arm | within-family AUROC >= 0.7 | CGA up | incorrect down | optimum agreement >= 0.8 (base's "
        "probe) | (SFT policy's samples) |",
        "|---:|---|---|---|---|---|---|",
    ]
    for s, per in goals.items():
        for arm, g in per.items():
            if arm != "sft-only":
                lines.append(f"| {s} | {arm} | " + " | ".join("yes" if v else "no" for v in g.values()) + " |")
    judged = work / "judge_agreement.json"
    if judged.exists():
        j = json.loads(judged.read_text())
        data["judge_agreement"] = {k: v for k, v in j.items() if k != "disagreements"}
        lines += [
            "",
            "## The evaluation grader against the local 1.5B judge",
            "",
            f"`{j['command']}`: {j['answers']} held-out answers drawn from every kept greedy evaluation "
            f"({j['ungraded_by_judge']} the judge did not grade). Strict exact match vs the judge: agree "
            f"{j['strict_vs_judge']['agree']:.3f}, kappa {j['strict_vs_judge']['kappa']:.2f}; containment match vs "
            f"the judge: agree {j['contain_vs_judge']['agree']:.3f}, kappa {j['contain_vs_judge']['kappa']:.2f}. The "
            "judge is no ground truth (bench/results/real_judge.md).",
        ]
    out.write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", help=f"default 0..{STUDY_SEEDS - 1} (--quick: 0)")
    parser.add_argument("--arms", nargs="+", default=STUDY_ARMS, choices=list(ARMS))
    parser.add_argument("--config", default=STUDY_CONFIG, help="the study's base config (relative to the repo)")
    for key, value in DEFAULTS.items():
        parser.add_argument(f"--{key.replace('_', '-')}", type=int, default=value)
    parser.add_argument(
        "--min-correct",
        type=int,
        help="gradient design (--config configs/demo.yaml) only: known before SFT is right in this many of 4 "
        "(default: 2); the margin design reads its line from the 8-sample probe (knowrl.effect.margin)",
    )
    parser.add_argument("--heldout", type=int, help="first N held-out questions only (default: all)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override the --config file")
    parser.add_argument("--quick", action="store_true", help="tiny model, 1 seed, 2 steps: the job end to end")
    parser.add_argument("--profile", action="store_true", help="time the stages, print the sizes that fit")
    parser.add_argument("--budget-min", type=float, default=150.0)
    parser.add_argument(
        "--work",
        type=Path,
        help="the study's own folder, kept across runs (default: $TMPDIR/knowrl-effect[-quick]); marked with "
        "knowrl-work.txt when made: a folder holding other files is refused, and one a run made before marks "
        "existed is refused with the command that marks it (its pieces then reused)",
    )
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--keep",
        type=Path,
        help="where finished pieces are kept and restored from (default: bench/results/effect-pieces/<config>; "
        "--quick: none)",
    )
    parser.add_argument("--no-keep", action="store_true", help="keep nothing outside --work")
    parser.add_argument("--workers", type=int, default=1, help="run the seeds in this many processes")
    parser.add_argument("--pieces-only", action="store_true", help=argparse.SUPPRESS)  # a worker: no report
    parser.add_argument("--pull", action="store_true", help=argparse.SUPPRESS)  # a worker: take pieces in turn
    args = parser.parse_args(argv)
    sizes = {k: getattr(args, k) for k in DEFAULTS}
    overrides = [CONFIG_KEY + args.config, *args.set] if args.config != STUDY_CONFIG else list(args.set)
    seeds, heldout_n = args.seeds or list(range(STUDY_SEEDS)), args.heldout
    if args.quick:
        overrides = QUICK + overrides
        sizes = {"train_questions": 16, "sft_steps": 2, "grpo_steps": 2, "samples": 2, "max_new_tokens": 16}
        seeds, heldout_n = args.seeds or [0], heldout_n or 12
    work = (
        args.work or Path(os.environ.get("TMPDIR", "/tmp")) / ("knowrl-effect-quick" if args.quick else "knowrl-effect")
    ).resolve()
    args.work = work  # its own folder, marked: a foreign one is refused before anything is written or cleared
    claim_work(args, __file__)
    if not args.pieces_only:  # the report's files, before any piece runs: never an input or someone's file
        page = args.out or (work / "effect.md" if args.quick else RESULTS / "effect.md")
        check_results(args, __file__, [("--out", page)], [page.with_suffix(".json")])
    keep_dir = None if args.no_keep or (args.quick and not args.keep) else args.keep
    if keep_dir is None and not args.no_keep and not args.quick:
        keep_dir = RESULTS / "effect-pieces" / Path(args.config).stem
    if keep_dir is not None and not args.profile:
        restored = effect_keep.restore(work, keep_dir)
        if restored:
            print(f"restored kept pieces from {keep_dir}: {', '.join(restored)}", file=sys.stderr)
    if args.profile:
        print(json.dumps(profile(overrides, sizes, work, args.budget_min, len(seeds), len(args.arms)), indent=2))
        return 0
    command = "python bench/effect.py " + " ".join(argv if argv is not None else sys.argv[1:])
    started = time.time()

    def make(seed: int, arm: str | None) -> dict:
        cs = cold_start(work, seed, sizes, overrides, heldout_n, args.min_correct)
        piece = arm_run(work, seed, arm, cs, sizes, overrides) if arm else cs
        if keep_dir is not None:
            effect_keep.keep(work, keep_dir, seed, arm)
        return piece

    if args.pull:
        pull_pieces(work, seeds, args.arms, make)
        return 0
    if args.workers > 1:
        run_workers(list(argv if argv is not None else sys.argv[1:]), args.workers, work)
    colds, runs = {}, {arm: {} for arm in args.arms}
    for seed in seeds:
        colds[seed] = make(seed, None)
        for arm in args.arms:
            runs[arm][seed] = make(seed, arm)
    if args.pieces_only:
        return 0
    out = args.out or (work / "effect.md" if args.quick else RESULTS / "effect.md")
    threads = threads_note(colds, runs, args.workers)
    if is_margin(overrides):
        write_study(out, command.strip(), sizes, seeds, colds, runs, work, overrides, threads)
        print(out.read_text())
        return 0
    from knowrl.models import resolve_model_path

    base = base_knowledge(
        work, Path(colds[seeds[0]]["data"]["heldout"]), resolve_model_path(config(overrides).model.name_or_path, 0)
    )
    pieces = [piece_path(work, s, a) for s in seeds for a in [None, *args.arms]]
    made = sum(p.stat().st_mtime >= started for p in pieces)
    wall_min = (time.time() - started) / 60
    invocation = f"this invocation: {wall_min:.0f} min of wall time, {made} of {len(pieces)} pieces made by it"
    cmd, batch = command.strip(), grpo_batch(overrides)
    write_markdown(out, cmd, sizes, seeds, runs, work, colds, threads, base, args.workers, invocation, batch)
    effect_json(out.with_suffix(".json"), command.strip(), seeds, colds, runs, work)
    print(out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
