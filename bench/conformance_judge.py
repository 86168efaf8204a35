"""Conformance's second table: the shipped ``configs/knowrl_grpo.yaml`` against KnowRL's prompts, one real judge.

The first table holds the judge side equal with a scripted judge, which shows the arithmetic but not what a
language model does with the two sides' prompts. Here both sides are the engine with the shipped reward section
(preset ``knowrl``, the NLI verifier, KnowRL's retrieval settings); they differ only in the prompts: the
shipped ones (grader-v6 with its answer span and ``grade_guard``, decompose-v2, JSON schemas) against KnowRL's
``LLM_EVAL_PROMPT`` and FActScore's ``ATOMIC_FACT_PROMPT``, read from the user's checkout (plain text, as
KnowRL sends them). Both go to the same local judge (llama.cpp's server, ``judges.local``), with the same NLI
model and KB as the first table, on the same completions. Run through ``python -m bench.conformance --knowrl
PATH --real-judge qwen2.5-coder-1.5b``.
"""

from __future__ import annotations

import copy
import statistics
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "configs" / "knowrl_grpo.yaml"


def shipped_reward(path: Path = SHIPPED) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["reward"]


def side_configs(
    tmp: Path, url: str, served_as: str, nli_repo: str, kb: Path, templates: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """The two sides: the shipped reward section, pointed at the local judge, the run's KB and NLI model; KnowRL's
    side adds its two prompt files and sends plain text (no JSON schema: their prompts ask for none)."""
    base = shipped_reward()
    base["judge"] = {
        "endpoints": [{"base_url": url, "model": served_as}],
        "max_in_flight": 2,  # the local server's slots
        "temperature": 0,
        "timeout_s": 600,
    }
    base["factuality"] = {
        **base["factuality"],
        "kb_path": str(kb),
        "nli": {**base["factuality"]["nli"], "model": nli_repo, "device": "cpu"},
    }
    base["step_timeout_s"] = 24 * 3600  # a CPU judge: the comparison must not time rows out
    sides = {"shipped": base, "knowrl": copy.deepcopy(base)}
    sides["knowrl"]["prompts"] = dict(templates)
    sides["knowrl"]["judge"]["structured_output"] = "off"
    for name, config in sides.items():
        config["judge"]["cache_dir"] = str(tmp / f"judge-cache-{name}")
    return sides


def run_sides(sides: dict[str, dict[str, Any]], batches: dict) -> dict[str, Any]:
    """Each side's results by row id and its wall time (one side after the other, the same server)."""
    from bench.conformance import run_engine  # the first table's scoring, without its NLI pairs

    runs: dict[str, Any] = {}
    for name, config in sides.items():
        started = time.monotonic()
        results, _ = run_engine(config, batches, [])
        runs[name] = {"results": results, "wall_s": time.monotonic() - started}
    return runs


def compare_sides(rows: Any, shipped: dict[str, Any], knowrl: dict[str, Any]) -> dict[str, Any]:
    """Grade agreement, claims per completion, fact-score and reward differences over the rows both scored."""
    both = [r.id for r in rows if shipped[r.id].total is not None and knowrl[r.id].total is not None]
    labelled = [i for i in both if shipped[i].label and knowrl[i].label]
    checked = [i for i in both if shipped[i].claims or knowrl[i].claims]
    pairs: dict[tuple[str, str], int] = {}
    for i in labelled:
        key = (knowrl[i].label, shipped[i].label)
        pairs[key] = pairs.get(key, 0) + 1

    def mean(xs: list[float]) -> float:
        return statistics.fmean(xs) if xs else float("nan")

    sides = (("shipped", shipped), ("knowrl", knowrl))

    return {
        "rows": len(rows),
        "scored_both": len(both),
        "unscored": {side: sum(res[r.id].total is None for r in rows) for side, res in sides},
        "graded_both": len(labelled),
        "same_label": sum(shipped[i].label == knowrl[i].label for i in labelled),
        "label_pairs": pairs,
        "claims_rows": len(checked),
        "claims_mean": {side: mean([len(res[i].claims) for i in checked]) for side, res in sides},
        "fact_mean_abs_diff": mean(
            [abs((shipped[i].fact_score or 0.0) - (knowrl[i].fact_score or 0.0)) for i in checked]
        ),
        "reward_mean_abs_diff": mean([abs(shipped[i].total - knowrl[i].total) for i in both]),
        "reward_same": sum(abs(shipped[i].total - knowrl[i].total) <= 1e-6 for i in both),
        "reward_mean": {side: mean([res[i].total for i in both]) for side, res in sides},
    }


def table_lines(summary: dict[str, Any], model: str, walls: dict[str, float]) -> list[str]:
    s = summary
    labels = ("CORRECT", "INCORRECT", "NOT_ATTEMPTED")
    lines = [
        "## Second table: the shipped prompts against KnowRL's, through one real judge",
        "",
        f"Both sides are the engine with `configs/knowrl_grpo.yaml`'s reward section (preset `knowrl`, NLI verifier, "
        f"top 5 passages for title + claim), the same KB, NLI model and completions as above, and one local judge, "
        f"`{model}` (`python -m judges.local`, 2 slots, temperature 0, no cache shared between the sides). They "
        "differ only in the prompts: *shipped* (grader-v6 with its answer span and `grade_guard`, decompose-v2, "
        "JSON schemas) and *KnowRL* (their `LLM_EVAL_PROMPT` and FActScore's `ATOMIC_FACT_PROMPT` from the "
        f"checkout, plain text). Wall: shipped {walls['shipped'] / 60:.1f} min, KnowRL {walls['knowrl'] / 60:.1f} min.",
        "",
        f"- Scored by both: {s['scored_both']} of {s['rows']} completions (unscored: shipped "
        f"{s['unscored']['shipped']}, KnowRL {s['unscored']['knowrl']}: a reply that stayed unreadable, or an error).",
        f"- Grade: same label on **{s['same_label']} of {s['graded_both']}** graded by both.",
        f"- Claims per completion (rows where either side checked facts, {s['claims_rows']}): shipped "
        f"{s['claims_mean']['shipped']:.2f}, KnowRL {s['claims_mean']['knowrl']:.2f}; mean |fact-score difference| "
        f"{s['fact_mean_abs_diff']:.3f}.",
        f"- Reward: equal on {s['reward_same']} of {s['scored_both']}; mean |difference| "
        f"{s['reward_mean_abs_diff']:.3f}; mean reward shipped {s['reward_mean']['shipped']:.3f}, KnowRL "
        f"{s['reward_mean']['knowrl']:.3f}.",
        "",
        "| KnowRL's prompt \\ shipped | " + " | ".join(labels) + " |",
        "|---|" + "---:|" * len(labels),
        *(f"| {a} | " + " | ".join(str(s["label_pairs"].get((a, b), 0)) for b in labels) + " |" for a in labels),
    ]
    return lines
