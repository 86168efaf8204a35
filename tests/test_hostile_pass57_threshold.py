"""Hostile pass 57 (run at cb7647b, issue #74), finding J7: under the ``threshold`` preset, ``semantics:
{incorrect: -2, no_answer: -2}`` paid -3 (t 0.75) with no message, while ``correct`` and ``not_attempted``
overrides were honoured. threshold_t sets the wrong-side constants, so another value for them is now refused
when the config loads, naming the key and the preset. Failed on 071011f."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reward_engine.config import parse_reward_config
from reward_engine.semantics import payoffs

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
BASE = {"preset": "threshold", "threshold_t": 0.75, "grader": "offline", "factuality": {"enabled": False}}


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"incorrect": -2.0, "no_answer": -2.0}, "semantics.incorrect, semantics.no_answer"),
        ({"no_answer": -1.0}, "semantics.no_answer"),
        ({"unparseable": 0.0}, "semantics.unparseable"),
        ({"threshold_t": 0.75, "incorrect": -2.0}, "semantics.incorrect"),  # the target inside semantics too
    ],
)
def test_an_override_threshold_t_would_drop_is_refused_naming_it(overrides: dict, named: str) -> None:
    with pytest.raises(ValueError, match=f"{named} under preset 'threshold': threshold_t 0.75") as got:
        parse_reward_config({**BASE, "semantics": overrides})
    assert "-t/(1-t) = -3" in str(got.value)


def test_a_training_config_is_refused_when_it_loads() -> None:
    """knowrl.train, knowrl.pipeline and reward_engine.serve read the reward section through the same loader."""
    from knowrl.config import load_train_config

    threshold = ["reward.preset=threshold", "reward.threshold_t=0.75", "reward.semantics.no_answer=-2"]
    with pytest.raises(ValueError, match="semantics.no_answer under preset 'threshold'"):
        load_train_config(ROOT / "configs" / "smoke.yaml", threshold)


def test_what_t_sets_anyway_and_the_other_constants_are_still_honoured() -> None:
    same = parse_reward_config({**BASE, "semantics": {"incorrect": -3.0, "no_answer": -3}})
    assert payoffs(same.reward_semantics)["wrong"] == -3.0
    moved = parse_reward_config({**BASE, "semantics": {"correct": 5.0, "not_attempted": 0.5}})
    assert payoffs(moved.reward_semantics) == {"right": 5.0, "abstain": 0.5, "wrong": -3.0}
    other = parse_reward_config({**BASE, "preset": "truthrl", "threshold_t": None, "semantics": {"incorrect": -2.0}})
    assert payoffs(other.reward_semantics)["wrong"] == -2.0  # no target: every constant is the user's


def test_score_refuses_the_config_before_writing_a_row(tmp_path: Path) -> None:
    config = tmp_path / "cfg.json"
    config.write_text(json.dumps({**BASE, "semantics": {"incorrect": -2.0, "no_answer": -2.0}}))
    rows = tmp_path / "in.jsonl"
    answer = "<think>\nThe narrator.\n</think>\n<answer>\nMike Rowe.\n</answer>"
    rows.write_text(
        json.dumps({"question": "Who narrates Deadliest Catch?", "answers": "Mike Rowe", "completion": answer})
    )
    out = tmp_path / "out.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "reward_engine.score", "--input", str(rows), "--output", str(out)]
        + ["--config", str(config), "--no-progress"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "semantics.incorrect, semantics.no_answer" in done.stderr
    assert not out.exists()
