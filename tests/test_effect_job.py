"""bench/effect.py --quick end to end: a seed's boundary cold start and SFT, one GRPO run per arm, the
report's sections, and a second invocation that resumes from the finished pieces."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from knowrl_io.jsonl import read_objects
from tests.helpers import write_jsonl

ROOT = Path(__file__).resolve().parents[1]


def run_effect(work: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "effect.py"),
            "--quick",
            "--config",
            "configs/demo.yaml",  # the earlier gradient design and its report
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
    assert md.startswith("# The effect, measured as a SimpleQA reader would (1 seed x 2 arms)")
    assert "Command: `python bench/effect.py --quick" in md
    for section in (
        "## F-score and the SimpleQA rates",
        "## The goal, per seed",
        "## Selectivity",
        "## Training:",
        "## Graders and cold start",
        "## What this shows",
    ):
        assert section in md
    assert "**1 of the study's 3 seeds.**" in md  # fewer seeds than the design: said at the top
    # The tiny random model knows none of the held-out questions: the selective ceiling is F = 0.
    assert re.search(r"on 0 of the \d+ answerable held-out questions \(in at least one: 0\)", md)
    assert "F = 0.000: about the most any reward can reach" in md

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
    # 2 steps x 4 prompts x 4 completions, and one fresh draw per flat group (dynamic sampling, 1 round)
    training = runs["knowrl"]["training"]
    assert training["steps"] == 2 and 32 <= training["completions"] <= 64
    assert 0.0 <= training["steps_with_spread"] <= 1.0

    kept = [seed / "control" / "rewards.jsonl", seed / "sft-merged" / "config.json"]
    stamps = [p.stat().st_mtime_ns for p in kept]
    again = run_effect(work)  # every finished piece is kept: nothing trains twice
    assert again.returncode == 0, again.stderr[-3000:]
    assert [p.stat().st_mtime_ns for p in kept] == stamps

    stale = run_effect(work, "--set", "grpo.learning_rate=0.5")  # kept pieces made with other settings
    assert stale.returncode != 0 and "was made with" in stale.stderr and "another --work" in stale.stderr


def test_workers_take_pieces_in_turn_and_the_report_holds_them_all(tmp_path):
    """--workers 2: single-threaded processes that each take the next piece nobody has taken (a seed's cold
    start, or an arm whose cold start is kept), keep it and write no report (the base model's held-out probe
    runs once, in the caller); the report assembled after them holds every seed, each piece made once."""
    # one seed: its two arms wait for its cold start, then go to the two workers at once (two seeds made this the
    # slowest test of CI, three processes on two cores, while the queue's waiting has its own test below)
    work = tmp_path / "work"
    proc = run_effect(work, "--seeds", "0", "--workers", "2")
    assert proc.returncode == 0, proc.stderr[-3000:]
    md = (work / "effect.md").read_text()
    assert md.startswith("# The effect, measured as a SimpleQA reader would (1 seed x 2 arms)")
    assert "this invocation: " in md and ", 3 of 3 pieces made by it;" in md
    # the threads each stage ran with, as the pieces recorded them (the workers' share of the cores)
    assert f"2 process(es), torch threads {max(1, (os.cpu_count() or 1) // 2)} each, as the stages recorded" in md
    claims = sorted(p.name for p in (work / "claims").iterdir())
    assert claims == sorted(f"seed0-{a}" for a in ("cold-start", "knowrl", "control"))
    assert (work / "seed0" / "control" / "effect.json").exists() and "| knowrl | 0 |" in md
    for i in (0, 1):
        log = (work / f"worker{i}.log").read_text()
        assert "The effect, measured" not in log  # a worker prints no report
    assert not list(work.glob("worker*.md"))
    again = run_effect(work, "--seeds", "0", "--workers", "2")  # claims cleared, every piece kept
    assert again.returncode == 0, again.stderr[-3000:]
    assert ", 0 of 3 pieces made by it;" in (work / "effect.md").read_text()


def test_pull_pieces_waits_for_a_cold_start_taken_elsewhere_and_stops_when_all_are_taken(tmp_path):
    """The queue itself, with pieces that only write their files: an arm waits for its seed's cold start; a
    piece another worker has claimed is left to it; the worker returns once every piece is done or taken."""
    effect = load_effect_module()
    (tmp_path / "claims").mkdir()
    effect.claim_path(tmp_path, 1, None).touch()  # seed 1's cold start: another worker's
    made = []

    def make(seed, arm):
        made.append((seed, arm))
        piece = effect.piece_path(tmp_path, seed, arm)
        piece.parent.mkdir(parents=True, exist_ok=True)
        piece.write_text("{}")
        if (seed, arm) == (0, "b"):  # meanwhile the other worker finishes seed 1's cold start
            effect.piece_path(tmp_path, 1, None).parent.mkdir(parents=True, exist_ok=True)
            effect.piece_path(tmp_path, 1, None).write_text("{}")

    assert effect.pull_pieces(tmp_path, [0, 1], ["a", "b"], make, poll_s=0.01) == made
    assert made == [(0, None), (0, "a"), (0, "b"), (1, "a"), (1, "b")]


def load_effect_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("effect_bench", ROOT / "bench" / "effect.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_base_knowledge_grades_the_probe_strictly_and_gives_the_selective_ceiling(tmp_path):
    """The ceiling reads the probe's kept answers (no model runs here) with the strict grader: a question
    counts as known at 2 of 4 right; F is that of a policy answering exactly the known ones."""
    from knowrl.effect.boundary import model_key

    effect = load_effect_module()
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    rows = [
        {"question": "Capital of A?", "aliases": ["Alpha"], "answers": ["Alpha"], "answerable": True, "qid": "a"},
        {"question": "Capital of B?", "aliases": ["Beta"], "answers": ["Beta"], "answerable": True, "qid": "b"},
        {"question": "Year of C?", "aliases": ["1957"], "answers": ["1957"], "answerable": True, "qid": "c"},
        {"question": "Capital of Zorvia?", "aliases": [], "answers": [], "answerable": False, "qid": "z"},
    ]
    heldout = tmp_path / "heldout.jsonl"
    write_jsonl(heldout, rows)
    kept = {  # a: 2 of 4 right (known); b: 1 of 4 (right once, not known); c: "Alpha Beta" style near misses
        "a": {"answers": ["Alpha", "alpha.", "Gamma", "Delta"], "correct": 2},
        "b": {"answers": ["Beta", "Gamma", "Gamma", "Gamma"], "correct": 1},
        "c": {"answers": ["1956", "In 1958", "I don't know", "Mali"], "correct": 0},
    }
    cache = tmp_path / "work" / "boundary"
    cache.mkdir(parents=True)
    (cache / f"{model_key(str(model))}-k4-t0.9-s0.json").write_text(json.dumps(kept))
    got = effect.base_knowledge(tmp_path / "work", heldout, str(model))
    assert (got["questions"], got["answerable"], got["right_half"], got["right_any"]) == (4, 3, 1, 2)
    assert abs(got["f_ceiling"] - 2 * 0.25 / 1.25) < 1e-12  # correct 1/4, correct given attempted 1
    assert got["by_template"] == {"?": [3, 1, 2]}  # asked, known, right once (no template field)
    assert got["right_counts"] == {"0": 1, "1": 1, "2": 1, "3": 0, "4": 0}


def test_the_answer_threshold_of_each_preset_and_how_many_questions_clear_it():
    """KnowRL's +2 / +1 / -1 pays for answering only above p = 2/3; a control arm (all zero) has no threshold;
    the report counts the base model's questions right in at least 3 of 4 answers (3/4 > 2/3, 2/4 is not)."""
    effect = load_effect_module()
    assert effect.answer_threshold({"correct": 2.0, "not_attempted": 1.0, "incorrect": -1.0}) == 2 / 3
    assert effect.answer_threshold({"correct": 1.0, "not_attempted": 0.0, "incorrect": -1.0}) == 0.5
    assert effect.answer_threshold({"correct": 0, "not_attempted": 0, "incorrect": 0}) is None
    assert effect.answer_threshold({"correct": 1.0, "not_attempted": -1.0, "incorrect": -1.0}) is None
    knowrl = {"semantics": {"correct": 2.0, "not_attempted": 1.0, "incorrect": -1.0}}
    control = {"semantics": {"correct": 0.0, "not_attempted": 0.0, "incorrect": 0.0}}
    base = {"k": 4, "answerable": 10, "right_counts": {"0": 4, "1": 2, "2": 2, "3": 1, "4": 1}}
    (line,) = effect.threshold_lines({"knowrl": {1: knowrl}, "control": {1: control}, "fact-free": {1: knowrl}}, base)
    assert "`knowrl` and `fact-free` arms' payoffs" in line and "above 0.67" in line
    assert "at least 3 of its 4 bare answers on 2 of the 10" in line


def test_boundary_cold_start_min_correct_moves_the_known_line(tmp_path):
    """The probe's kept counts decide the "I don't know" targets: by default a question is known at 2 of 4
    right answers; with min_correct=1 one right answer is enough, so fewer targets say "I don't know"."""
    from knowrl.effect.boundary import model_key, seal
    from knowrl.effect.demo_data import build_demo_data

    plain = build_demo_data(tmp_path / "plain", 24, 12, 3)
    real = [r["qid"] for r in read_objects(plain["train"]) if r["answerable"]]
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    counts = {q: 1 if i < 3 else 2 if i < 5 else 0 for i, q in enumerate(real)}
    cache = tmp_path / "boundary"
    cache.mkdir()
    rows = {r["qid"]: r for r in read_objects(plain["train"])}
    kept = {q: {"answers": ["x"] * 4, "correct": c} for q, c in counts.items()}
    kept = {q: {**e, "seal": seal(e, rows[q])} for q, e in kept.items()}  # as if today's grader counted them
    (cache / f"{model_key(str(model))}-k4-t0.9-s3.json").write_text(json.dumps(kept))

    def unsure(min_correct):
        boundary = {"model": str(model), "k": 4, "temperature": 0.9, "cache": cache, "min_correct": min_correct}
        paths = build_demo_data(tmp_path / f"mc{min_correct}", 24, 12, 3, boundary=boundary)
        return json.loads(paths["cold_start"].read_text())

    half, one = unsure(None), unsure(1)
    assert half["unsure_real"] == len(real) - 2 and one["unsure_real"] == len(real) - 5
    assert half["rule"].startswith("wrong in more than half of 4") and one["rule"].startswith("right in fewer than 1")


def test_budget_leaves_out_a_probe_that_came_from_the_cache():
    """A cold start resumed after an unfinished run finds the probe's answers cached: its probe_s timed no
    probing, so the report says so instead of quoting ~0 s per question, and plans without it."""
    effect = load_effect_module()
    sizes = {"train_questions": 100, "sft_steps": 10, "grpo_steps": 5, "samples": 2}
    run = {"train_s": 50.0, "eval_s": 30.0}
    cold = {"probe_s": 90.0, "sft_s": 60.0, "eval_s": 120.0}
    timed = "\n".join(effect.budget_lines({0: cold}, {"knowrl": {0: run}}, sizes, 300, "t"))
    assert "boundary probe 0.90 s per training question" in timed
    cached = {**cold, "probe_s": 1.5, "probe_cached": True}
    lines = "\n".join(effect.budget_lines({0: cached}, {"knowrl": {0: run}}, sizes, 300, "t"))
    assert "boundary probe not timed" in lines and "0.01 s per training question" not in lines
    # mixed: only the timed probe counts
    mixed = "\n".join(effect.budget_lines({0: cold, 1: cached}, {"knowrl": {0: run}}, sizes, 300, "t"))
    assert "boundary probe 0.90 s per training question" in mixed


def test_quick_selective_study_writes_the_issues_effect_json_and_the_forecast(tmp_path):
    """The margin study (configs/selective.yaml) end to end on the tiny model, SmolLM2's kept probe standing in:
    effect.json holds every arm with the keys issue #73 names, effect.md the forecast before the results."""
    work = tmp_path / "work"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "effect.py"), "--quick", "--work", str(work)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    md = (work / "effect.md").read_text()
    assert md.startswith("# Selective abstention: what each reward asks, and what GRPO did (1 seed x 3 arms)")
    assert md.index("## The forecast") < md.index("## SimpleQA rates")
    assert "Reward forecast (truthrl): answering pays where p(right) > 0.50" in md
    assert "Reward forecast (knowrl): answering pays where p(right) > 0.67" in md
    data = json.loads((work / "effect.json").read_text())
    seed = data["seeds"]["0"]
    assert 0 < seed["base_known_share"] < 1
    for arm in ("sft-only", "truthrl", "knowrl"):
        e = seed[arm]
        for key in ("f", "correct_given_attempted", "incorrect", "not_attempted"):
            assert set(e[key]) == {"sft", "grpo"}
        for key in ("vs_sft_f", "vs_sft_correct_given_attempted", "vs_sft_incorrect"):
            if e[key] is None:  # a policy that attempted nothing has no correct given attempted (0/0), not 0
                assert key == "vs_sft_correct_given_attempted" and e["correct_given_attempted"]["grpo"] is None
                assert e["f"]["grpo"] == 0 and e["incorrect"]["grpo"] == 0 and "(nothing attempted)" in md
                continue
            assert len(e[key]) == 3 and e[key][1] <= e[key][0] <= e[key][2]
        assert set(e["auroc"]["grpo"]) == {"pooled", "within_family", "family_prior"}
        assert set(e["optimum_agreement"]) == {"train", "heldout"}
        assert all(0.0 <= v <= 1.0 for v in e["policy_optimum_agreement"].values())
    # the SFT policy's own samples on the training questions, and the forecast read from them
    sampled = json.loads((work / "seed0" / "train_sft_sampled.eval.json").read_text())
    assert sampled["sampled"]["k"] == load_effect_module().POLICY_SAMPLES and "greedy" not in sampled
    assert md.index("## The forecast for the policy GRPO trains") < md.index("## SimpleQA rates")
    assert seed["sft-only"]["vs_sft_f"] == [0.0, 0.0, 0.0] and seed["sft-only"]["trap_share"] is None
    assert 0.0 <= seed["truthrl"]["trap_share"] <= 1.0
