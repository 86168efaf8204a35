"""bench/effect.py --quick end to end: a seed's boundary cold start and SFT, one GRPO run per arm, the
report's sections, and a second invocation that resumes from the finished pieces."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_effect(work: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "effect.py"),
            "--quick",
            "--work",
            str(work),
            "--arms",
            "knowrl",
            "control",
            *extra,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_quick_effect_run_reports_paired_deltas_selectivity_and_resumes(tmp_path):
    work = tmp_path / "work"
    proc = run_effect(work)
    assert proc.returncode == 0, proc.stderr[-3000:]
    md = (work / "effect.md").read_text()
    assert md.startswith("# The effect, measured as a SimpleQA reader would (1 seeds x 2 arms)")
    assert "Command: `python bench/effect.py --quick" in md
    for section in (
        "## F-score and the SimpleQA rates",
        "## The goal, per seed",
        "## Selectivity",
        "## Training:",
        "## Graders and cold start",
    ):
        assert section in md

    seed = work / "seed0"
    cold = json.loads((seed / "cold_start.json").read_text())
    # The tiny random model answers nothing right before SFT: every real question gets "I don't know".
    assert cold["cold_start"]["real"] == cold["cold_start"]["unsure_real"] > 0
    sft_eval = json.loads((seed / "after_sft.eval.json").read_text())
    assert len(sft_eval["qids"]) == 12 and len(sft_eval["greedy"]["counts"]) == 12
    assert all(sum(c) == 2 for c in sft_eval["sampled"]["counts"])  # 2 samples per question
    runs = {arm: json.loads((seed / arm / "effect.json").read_text()) for arm in ("knowrl", "control")}
    control = runs["control"]["semantics"]
    assert control["correct"] == control["not_attempted"] == control["incorrect"] == control["fact_weight"] == 0
    assert runs["knowrl"]["training"]["completions"] == 8  # 2 steps x 4 completions

    kept = [seed / "control" / "rewards.jsonl", seed / "sft-merged" / "config.json"]
    stamps = [p.stat().st_mtime_ns for p in kept]
    again = run_effect(work)  # every finished piece is kept: nothing trains twice
    assert again.returncode == 0, again.stderr[-3000:]
    assert [p.stat().st_mtime_ns for p in kept] == stamps

    stale = run_effect(work, "--set", "grpo.learning_rate=0.5")  # kept pieces made with other settings
    assert stale.returncode != 0 and "was made with" in stale.stderr and "another --work" in stale.stderr


def test_workers_split_the_seeds_and_the_report_holds_them_all(tmp_path):
    """--workers 2: each seed runs in its own single-threaded process, and the report assembled after them
    holds every seed (the pieces each worker kept are reused, not trained again)."""
    work = tmp_path / "work"
    proc = run_effect(work, "--seeds", "0", "1", "--workers", "2")
    assert proc.returncode == 0, proc.stderr[-3000:]
    md = (work / "effect.md").read_text()
    assert md.startswith("# The effect, measured as a SimpleQA reader would (2 seeds x 2 arms)")
    assert "2 worker processes with OMP_NUM_THREADS=" in md
    for i, seed in enumerate((0, 1)):
        assert (work / f"seed{seed}" / "control" / "effect.json").exists()
        worker_md = (work / f"worker{i}.md").read_text()  # each worker's own report: its seed only
        assert "(1 seeds x 2 arms)" in worker_md
        assert f"| knowrl | {seed} |" in worker_md and f"| knowrl | {1 - seed} |" not in worker_md
        assert f"| knowrl | {seed} |" in md
