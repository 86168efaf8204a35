"""The reward log read back: per-run signal and the per-block label trajectory (a written JSONL log)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowrl.effect.training_signal import label_trajectory, main, training_signal


def _log(tmp_path: Path, labels_per_step: list[list[str | None]]) -> Path:
    path = tmp_path / "rewards.jsonl"
    totals = {"CORRECT": 3.0, "INCORRECT": 0.0, "NOT_ATTEMPTED": 2.0, None: -1.0}
    with path.open("w") as f:
        for step, labels in enumerate(labels_per_step):
            for lab in labels:
                row = {"step": step, "completion": "x.</think><answer>y</answer>", "label": lab}
                f.write(json.dumps({**row, "total": totals[lab], "factuality": 0.0}) + "\n")
        f.write("not json\n")  # a torn last line is skipped, not fatal
    return path


def test_trajectory_shows_a_collapse_onto_abstaining(tmp_path: Path) -> None:
    early = ["CORRECT", "INCORRECT", "NOT_ATTEMPTED", None]
    late = ["NOT_ATTEMPTED"] * 4
    log = _log(tmp_path, [early, early, late, late, late])
    rows = label_trajectory(log, block=2)
    assert [r["steps"] for r in rows] == [(0, 1), (2, 3), (4, 4)]
    assert rows[0]["CORRECT"] == 0.25 and rows[0]["no_answer"] == 0.25 and rows[0]["completions"] == 8
    assert rows[1]["NOT_ATTEMPTED"] == 1.0 and rows[1]["mean_reward"] == 2.0
    assert rows[0]["mean_reward"] == pytest.approx((3 + 0 + 2 - 1) / 4)
    signal = training_signal(log, fact_weight=1.0, group=4)
    assert signal["steps"] == 5 and signal["labels"]["NOT_ATTEMPTED"] == pytest.approx(14 / 20)
    assert signal["trap_share_per_step"] == [0.0, 0.0, 1.0, 1.0, 1.0] and signal["trap_share"] == pytest.approx(0.6)


def test_trap_counts_groups_not_completions(tmp_path: Path) -> None:
    """Two groups of 2 per step: one all "I don't know" traps half the step's groups; one abstention in a group
    with an answer traps none."""
    log = _log(
        tmp_path, [["NOT_ATTEMPTED", "NOT_ATTEMPTED", "CORRECT", "NOT_ATTEMPTED"], ["NOT_ATTEMPTED", "CORRECT"] * 2]
    )
    assert training_signal(log, fact_weight=1.0, group=2)["trap_share_per_step"] == [0.5, 0.0]


def test_cli_prints_a_table_and_names_a_missing_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path, [["CORRECT", "NOT_ATTEMPTED"]] * 3)
    assert main([str(log), "--block", "3"]) == 0
    out = capsys.readouterr().out
    assert "| 0-2 | 6 | 0.50 | 0.00 | 0.50 | 0.00 | +2.50 |" in out
    with pytest.raises(SystemExit):
        main([str(tmp_path / "missing.jsonl")])
    assert "missing.jsonl" in capsys.readouterr().err
