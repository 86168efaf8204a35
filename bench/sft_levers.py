"""Which cold-start levers make SFT abstain where the base policy is wrong and answer where it is right?

    python bench/sft_levers.py --work /tmp/knowrl-levers          # every lever, seed 0 -> bench/results/sft-levers.md
    python bench/sft_levers.py --levers demo lr-2e-4 --work DIR   # some of them

Issue #42 point 4: the demo's cold start abstains on about half of the questions the base policy knows, so F
falls after SFT. Each lever is one change to ``configs/demo.yaml``'s cold start (seed 0, the fixed held-out set
of the gradient design, greedy, strict grader); the table gives F and the abstention split per lever, each F
change against the base row with its paired interval. Pieces are kept in ``--work`` (``bench/effect.py``'s
cold start), so an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knowrl.effect.selectivity import report  # noqa: E402
from knowrl.pipeline import known_mask  # noqa: E402
from knowrl.stats import paired_bootstrap, rates  # noqa: E402
from knowrl_io.job_output import check_results
from knowrl_io.work_folder import claim_work

# name -> (what changes, sizes changed, config overrides, min_correct)
LEVERS: dict[str, tuple[str, dict[str, int], list[str], int | None]] = {
    "demo": ("as configs/demo.yaml (40 steps, lr 1e-3, 45 % known targets)", {}, [], None),
    "lr-2e-4": ("SFT learning rate 1e-3 -> 2e-4", {}, ["sft.learning_rate=2.0e-4"], None),
    "steps-20": ("SFT steps 40 -> 20", {"sft_steps": 20}, [], None),
    "steps-80": ("SFT steps 40 -> 80 (two passes)", {"sft_steps": 80}, [], None),
    "known-0.6": (
        "known share of training targets 0.45 -> 0.6 (100 training questions: the known ones run out)",
        {"train_questions": 100, "sft_steps": 25},
        ["pipeline.demo_known_share=0.6"],
        None,
    ),
    "min-correct-1": ("known = right in 1 of 4 probe answers (was 2 of 4)", {}, [], 1),
    "answer-first": (
        "reasoning targets open with the answer sentence (or the admission), KB context after",
        {},
        ["pipeline.demo_answer_first=true"],
        None,
    ),
}
SIZES = {"train_questions": 160, "sft_steps": 40, "grpo_steps": 0, "samples": 0, "max_new_tokens": 96}
SHOWN = ("f_score", "correct", "incorrect", "not_attempted", "malformed", "correct_given_attempted")


def effect_module() -> Any:
    spec = importlib.util.spec_from_file_location("effect_bench", ROOT / "bench" / "effect.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lever_row(effect: Any, work: Path, name: str) -> dict[str, Any]:
    """One lever's cold start (kept in ``work/name``) and its held-out figures against the base row."""
    _, sizes, overrides, min_correct = LEVERS[name]
    lever_work = work / name
    lever_work.mkdir(parents=True, exist_ok=True)
    shared_base = work / "base.eval.json"
    if shared_base.exists() and not (lever_work / "base.eval.json").exists():
        (lever_work / "base.eval.json").write_text(shared_base.read_text())  # one base row for every lever
    design = [effect.CONFIG_KEY + "configs/demo.yaml", *overrides]  # the gradient design these levers were read on
    cs = effect.cold_start(lever_work, 0, {**SIZES, **sizes}, design, None, min_correct)
    if not shared_base.exists():
        shared_base.write_text((lever_work / "base.eval.json").read_text())
    base = json.loads(shared_base.read_text())
    after = json.loads((lever_work / "seed0" / "after_sft.eval.json").read_text())
    b, a = np.array(base["greedy"]["counts"]), np.array(after["greedy"]["counts"])
    demo_eval = work / "demo" / "seed0" / "after_sft.eval.json"
    versus = None
    if name != "demo" and demo_eval.exists():  # the lever against the demo's own cold start, same questions
        versus = paired_bootstrap(np.array(json.loads(demo_eval.read_text())["greedy"]["counts"]), a)
    return {
        "lever": name,
        "versus_demo": versus,
        "rates": rates(a),
        "base_rates": rates(b),
        "delta": paired_bootstrap(b, a),
        "selectivity": report(a, known_mask(after), after["answerable"]),
        "idk_targets": (cs["cold_start"]["unsure_real"] + cs["cold_start"]["made_up"])
        / (cs["cold_start"]["real"] + cs["cold_start"]["made_up"]),
        "sft_s": cs["sft_s"],
        "eval_s": cs["eval_s"],
    }


def versus(row: dict[str, Any]) -> str:
    v = (row.get("versus_demo") or {}).get("f_score")
    return "" if v is None else f"{v['delta']:+.3f} [{v['low']:+.3f}, {v['high']:+.3f}]"


def markdown(command: str, rows: list[dict[str, Any]], wall_s: float) -> str:
    cpus = f"{platform.machine()}, {os.cpu_count()} cores"
    lines = [
        f"# Cold-start levers: `{command}`",
        "",
        f"Written by that command (this invocation {wall_s / 60:.0f} min on {cpus}; levers kept in --work from"
        " an earlier invocation of it are reused, their stage times as recorded then). Seed 0, the gradient "
        "design's fixed held-out set (240 answerable + 60 made-up), greedy, strict grader; SFT only (no "
        "GRPO). `[low, high]`: 95 % paired bootstrap over questions against the base row (the untrained "
        "policy's bare answers, every answer an attempt), and against the demo's own cold start. Known = the "
        "base policy's probe (fixed before training). SFT s: the stage's wall time as recorded (a lever run "
        "beside other work is slower).",
        "",
        "| lever | F | ΔF vs base | ΔF vs demo | correct | incorrect | not attempted | malformed | correct given"
        " attempted | abstain known | abstain unknown | abstain made-up | AUROC | IDK targets | SFT s |",
        "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    base = rows[0]["base_rates"] if rows else {}
    if rows:
        lines.append(
            "| base (bare answers) | "
            + f"{base['f_score']:.3f} | | | {base['correct']:.3f} | {base['incorrect']:.3f} | "
            + f"{base['not_attempted']:.3f} | {base['malformed']:.3f} | "
            + f"{base['correct_given_attempted']:.3f} | | | | | | |"
        )
    for r in rows:
        d, s, x = r["delta"]["f_score"], r["selectivity"], r["rates"]
        lines.append(
            f"| {r['lever']}: {LEVERS[r['lever']][0]} | {x['f_score']:.3f} | "
            f"{d['delta']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}] | {versus(r)} | "
            + " | ".join(f"{x[k]:.3f}" for k in SHOWN[1:])
            + f" | {s['abstain_known']:.2f} | {s['abstain_unknown']:.2f} | {s['abstain_made_up']:.2f} | "
            f"{s['auroc_unknown']:.2f} | {r['idk_targets']:.2f} | {r['sft_s']:.0f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levers", nargs="+", default=list(LEVERS), choices=list(LEVERS))
    parser.add_argument(
        "--work",
        type=Path,
        required=True,
        help="the levers' own folder, kept across runs; marked with knowrl-work.txt when made: a folder holding "
        "other files is refused (one made before marks: with the command that marks it)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "sft-levers.md")
    args = parser.parse_args(argv)
    check_results(args, __file__)  # never an input or someone's file (hostile pass 52)
    started = time.perf_counter()
    effect = effect_module()
    claim_work(args, __file__)  # its own folder: never one of someone's files (hostile pass 59)
    command = ("python bench/sft_levers.py " + " ".join(argv if argv is not None else sys.argv[1:])).strip()
    rows = []
    for name in args.levers:
        rows.append(lever_row(effect, args.work.resolve(), name))
        print(json.dumps({"lever": name, "f": rows[-1]["rates"]["f_score"], **rows[-1]["selectivity"]}), flush=True)
        args.out.write_text(markdown(command, rows, time.perf_counter() - started))  # each lever as it lands
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
