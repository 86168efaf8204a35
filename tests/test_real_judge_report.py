"""bench/real_judge.py's held-out table: issue #43's point 3 is read from it, so its counts must be right."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_bench():
    sys.path.insert(0, str(ROOT / "bench"))  # the script imports its sibling judge_set.py
    spec = importlib.util.spec_from_file_location("real_judge_bench", ROOT / "bench" / "real_judge.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_not_attempted_made_wrong_splits_the_guard_from_the_judge():
    bench = load_bench()
    cases = [
        {"id": "a", "label": "NOT_ATTEMPTED"},  # the judge said NOT_ATTEMPTED, the engine INCORRECT: the guard
        {"id": "b", "label": "NOT_ATTEMPTED"},  # the judge's own INCORRECT
        {"id": "c", "label": "NOT_ATTEMPTED"},  # kept
        {"id": "d", "label": "INCORRECT"},  # not a NOT_ATTEMPTED case: not counted
        {"id": "e", "label": "NOT_ATTEMPTED"},  # the judge's CORRECT refused and settled INCORRECT: the guard
    ]
    results = [
        {"id": "a", "raw": "NOT_ATTEMPTED", "engine": "INCORRECT"},
        {"id": "b", "raw": "INCORRECT", "engine": "INCORRECT"},
        {"id": "c", "raw": "NOT_ATTEMPTED", "engine": "NOT_ATTEMPTED"},
        {"id": "d", "raw": "NOT_ATTEMPTED", "engine": "INCORRECT"},
        {"id": "e", "raw": "CORRECT", "engine": "INCORRECT"},
    ]
    assert bench.not_attempted_made_wrong(cases, results) == (2, 1, 4)


def test_the_goal_is_judged_only_out_of_sample_and_by_its_interval():
    bench = load_bench()
    newest = bench.HELDOUT[-1].relative_to(ROOT).as_posix()
    assert "out of sample" in bench.HELDOUT_STATUS[newest]
    assert bench.goal_cell(newest, {"accuracy": 0.9, "low": 0.86}) == "85 %: met"
    assert bench.goal_cell(newest, {"accuracy": 0.86, "low": 0.78}) == "85 %: met at the point estimate only"
    assert "not met" in bench.goal_cell(newest, {"accuracy": 0.8, "low": 0.72})
    in_sample = bench.HELDOUT[0].relative_to(ROOT).as_posix()
    assert bench.goal_cell(in_sample, {"accuracy": 0.99, "low": 0.95}) == "in-sample: no verdict"


def test_the_command_shows_a_heldout_choice_that_is_not_the_default():
    """A results file names the command that regenerates it: a run on fewer held-out sets must say which."""
    bench = load_bench()
    assert bench.shown_heldout(",".join(str(p.relative_to(bench.ROOT)) for p in bench.HELDOUT)) == ""
    assert bench.shown_heldout("bench/data/judge_set_15.jsonl") == " --heldout bench/data/judge_set_15.jsonl"
