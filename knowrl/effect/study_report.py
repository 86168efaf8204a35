"""The selective-abstention study's numbers per (seed, arm), read from its kept evaluation files, and its tables.

Per arm, from the held-out evaluations of the SFT policy and of the arm's policy (greedy, strict grader: the
headline; the containment match beside it) and the greedy answers on the training questions:

- ``f``, ``correct_given_attempted``, ``incorrect``, ``not_attempted``: each ``{sft, grpo}``;
- ``vs_sft_f``, ``vs_sft_correct_given_attempted``, ``vs_sft_incorrect``: [estimate, low, high], after minus the
  same seed's SFT policy, 95 % paired bootstrap over questions; a policy that attempts nothing has no correct given
  attempted (0/0): its value and delta are None, not 0;
- ``auroc``: ``{sft, grpo}``, each ``{pooled, within_family, family_prior}`` over greedy and sampled answers;
- ``optimum_agreement``: ``{train, heldout}``, greedy action vs the reward forecast's optimum (from the base
  policy's probe); ``policy_optimum_agreement``: the same against the optimum for the SFT policy's own sampled
  attempts (``forecast.policy_p_right``: what GRPO, sampling that policy, is paid for);
- ``trap_share``, ``steps_with_spread``: from the GRPO reward log (None for ``sft-only``).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from knowrl.effect.abstention_metrics import greedy_answers, optimum_agreement, optimum_of, selectivity
from knowrl.stats import paired_bootstrap, rates

HEADLINE = ("f_score", "correct_given_attempted", "incorrect", "not_attempted")
KEYS = {"f_score": "f", "correct_given_attempted": "correct_given_attempted", "incorrect": "incorrect"}


def _both(evaluation: Mapping[str, Any]) -> np.ndarray:
    """Greedy and sampled outcome counts added per question (the abstention score the AUROC ranks by)."""
    counts = np.array(evaluation["greedy"]["counts"])
    if "sampled" in evaluation:
        counts = counts + np.array(evaluation["sampled"]["counts"])
    return counts


def _triple(d: Mapping[str, float]) -> list[float]:
    return [round(d["delta"], 4), round(d["low"], 4), round(d["high"], 4)]


def arm_entry(
    sft_eval: Mapping[str, Any],
    arm_eval: Mapping[str, Any],
    held_rows: Sequence[Mapping[str, Any]],
    train_rows: Sequence[Mapping[str, Any]],
    train_greedy: Mapping[str, Any],
    probe: Mapping[str, Any],
    k: int,
    sem: Any,
    training: Mapping[str, Any] | None,
    seed: int,
    policy_ps: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """One arm of one seed (``arm_eval`` is ``sft_eval`` for ``sft-only``; ``train_greedy``: the arm's greedy
    evaluation on the training rows; ``policy_ps``: the SFT policy's p(right | it answers) per qid)."""
    before, after = np.array(sft_eval["greedy"]["counts"]), np.array(arm_eval["greedy"]["counts"])
    r_sft, r_arm = rates(before), rates(after)
    deltas = paired_bootstrap(before, after, seed=seed)
    out: dict[str, Any] = {
        name: {"sft": r_sft[key], "grpo": r_arm[key]}
        for key, name in zip(HEADLINE, ("f", "correct_given_attempted", "incorrect", "not_attempted"))
    }
    contain_sft, contain_arm = (
        rates(np.array(sft_eval["greedy"]["contain_counts"])),
        rates(np.array(arm_eval["greedy"]["contain_counts"])),
    )
    out["f_contain"] = {"sft": contain_sft["f_score"], "grpo": contain_arm["f_score"]}
    for key, name in KEYS.items():
        out[f"vs_sft_{name}"] = _triple(deltas[key])
    if not after[:, :2].sum():  # no CORRECT or INCORRECT (OUTCOMES' first two): correct given attempted is 0/0
        out["correct_given_attempted"]["grpo"] = None
        out["vs_sft_correct_given_attempted"] = None
    out["auroc"] = {
        "sft": selectivity(_both(sft_eval), held_rows, train_rows),
        "grpo": selectivity(_both(arm_eval), held_rows, train_rows),
    }
    out["optimum_agreement"] = {
        "train": optimum_agreement(
            greedy_answers(np.array(train_greedy["greedy"]["counts"])), optimum_of(train_rows, probe, k, sem)
        ),
        "heldout": optimum_agreement(greedy_answers(after), optimum_of(held_rows, probe, k, sem)),
    }
    out["policy_optimum_agreement"] = (
        {
            "train": optimum_agreement(
                greedy_answers(np.array(train_greedy["greedy"]["counts"])),
                optimum_of(train_rows, None, k, sem, policy_ps),
            ),
            "heldout": optimum_agreement(greedy_answers(after), optimum_of(held_rows, None, k, sem, policy_ps)),
        }
        if policy_ps is not None
        else None
    )
    out["trap_share"] = training.get("trap_share") if training else None
    out["steps_with_spread"] = training.get("steps_with_spread") if training else None
    return out


def goal(entry: Mapping[str, Any]) -> dict[str, bool]:
    """The issue's goal for one arm of one seed: within-family AUROC >= 0.7 after GRPO, correct given attempted
    up and incorrect down beyond their paired intervals; and the trainer reaching its optimum (>= 80 % agreement
    on training questions)."""
    within = entry["auroc"]["grpo"]["within_family"]
    agree = entry["optimum_agreement"]["train"]
    own = (entry.get("policy_optimum_agreement") or {}).get("train")
    return {
        "within_family_auroc_0.7": within is not None and within >= 0.7,
        "cga_up": entry["vs_sft_correct_given_attempted"] is not None
        and entry["vs_sft_correct_given_attempted"][1] > 0,
        "incorrect_down": entry["vs_sft_incorrect"][2] < 0,
        "optimum_agreement_0.8": agree is not None and agree >= 0.8,
        "policy_optimum_agreement_0.8": own is not None and own >= 0.8,
    }


def is_arm(entry: Any) -> bool:
    """An arm's entry among a seed's keys (beside ``base_known_share`` and the no-training ``reference``)."""
    return isinstance(entry, dict) and "auroc" in entry


def arms_of(seeds: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str, Mapping[str, Any]]]:
    """(seed, arm, entry) for every arm of every seed, in order."""
    return [(seed, arm, e) for seed, entry in seeds.items() for arm, e in entry.items() if is_arm(e)]


def opt(x: float | None, spec: str = ".3f") -> str:
    return "-" if x is None else format(x, spec)


def _delta(t: Sequence[float] | None) -> str:
    return "- (nothing attempted)" if t is None else f"{t[0]:+.3f} [{t[1]:+.3f}, {t[2]:+.3f}]"


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def tables(seeds: Mapping[str, Mapping[str, Any]]) -> str:
    """effect.json's seeds as markdown: the SimpleQA rates, selectivity and the reward's optimum, every seed and
    arm."""
    lines = [
        "## SimpleQA rates on the held-out questions (greedy, strict grader), after SFT -> after the arm",
        "",
        "| seed | arm | F | F (containment) | correct given attempted | incorrect | not attempted | "
        "Δ F vs SFT | Δ correct given attempted | Δ incorrect |",
        "|---:|---|---|---|---|---|---|---|---|---|",
    ]
    for seed, arm, e in arms_of(seeds):
        pair = " | ".join(
            f"{_rate(e[k]['sft'])} -> {_rate(e[k]['grpo'])}"
            for k in ("f", "f_contain", "correct_given_attempted", "incorrect", "not_attempted")
        )
        deltas = " | ".join(_delta(e[f"vs_sft_{k}"]) for k in ("f", "correct_given_attempted", "incorrect"))
        lines.append(f"| {seed} | {arm} | {pair} | {deltas} |")
    lines += [
        "",
        '## Selectivity: AUROC of abstention for "the base policy did not know" (greedy + samples)',
        "",
        "| seed | arm | pooled SFT -> arm | within family SFT -> arm | family prior | optimum agreement train / "
        "held-out (base's probe) | (SFT policy's samples) | abstention trap | steps with spread | GRPO s per step |",
        "|---:|---|---|---|---:|---|---|---:|---:|---:|",
    ]
    for seed, arm, e in arms_of(seeds):
        a = e["auroc"]
        agree, own = e["optimum_agreement"], e.get("policy_optimum_agreement") or {}
        lines.append(
            f"| {seed} | {arm} | {opt(a['sft']['pooled'], '.2f')} -> {opt(a['grpo']['pooled'], '.2f')} | "
            f"{opt(a['sft']['within_family'], '.2f')} -> {opt(a['grpo']['within_family'], '.2f')} | "
            f"{opt(a['grpo']['family_prior'], '.2f')} | {opt(agree['train'], '.2f')} / "
            f"{opt(agree['heldout'], '.2f')} | {opt(own.get('train'), '.2f')} / {opt(own.get('heldout'), '.2f')} | "
            f"{opt(e['trap_share'], '.2f')} | "
            f"{opt(e['steps_with_spread'], '.2f')} | {opt(e.get('grpo_s_per_step'), '.1f')} |"
        )
    return "\n".join(lines)
