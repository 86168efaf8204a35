"""bench/effect.py --quick end to end: shared cold start, one GRPO run per reward setting, the table,
the verdict lines and the plot, and a second invocation that resumes from the finished runs."""

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
            "--settings",
            "knowrl-june2025",
            "control",
            *extra,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_quick_effect_run_writes_table_plot_and_resumes(tmp_path):
    work = tmp_path / "work"
    proc = run_effect(work)
    assert proc.returncode == 0, proc.stderr[-3000:]
    md = (work / "effect.md").read_text()
    assert md.startswith("# Held-out hallucination after GRPO, by reward (1 seeds)")
    assert "Command: `python bench/effect.py --quick" in md
    assert "| held-out rate | before | after SFT | GRPO `knowrl-june2025` | GRPO `control` |" in md
    for key in ("correct", "incorrect", "not_attempted", "accuracy_given_attempted"):
        assert f"| {key} | " in md
    assert "- `control`: incorrect below the after-SFT interval" in md
    assert (work / "effect.png").stat().st_size > 10_000

    runs = {p.parent.name: json.loads(p.read_text()) for p in work.glob("*/effect.json")}
    assert set(runs) == {"knowrl-june2025-seed0", "control-seed0"}
    for run in runs.values():
        held = run["heldout"]
        assert held["n"] == 16  # 8 held-out questions x 2 samples
        assert abs(held["correct"] + held["incorrect"] + held["not_attempted"] - 1) < 1e-9
        steps = run["steps"]
        assert steps["step"] == [0.0, 1.0]
        for i in range(2):
            assert sum(steps[label][i] for label in ("CORRECT", "INCORRECT", "NOT_ATTEMPTED")) <= 1 + 1e-9
    control = runs["control-seed0"]["semantics"]  # the reward each run was trained with
    assert control["correct"] == control["not_attempted"] == control["incorrect"] == control["fact_weight"] == 0
    assert runs["knowrl-june2025-seed0"]["semantics"]["not_attempted"] == -1.0
    log = [json.loads(line) for line in (work / "control-seed0" / "rewards.jsonl").read_text().splitlines()]
    assert len(log) == 8 and all(row["correctness"] in (0.0, -1.0) for row in log)  # 0, or -1 for no answer

    kept = [work / "control-seed0" / "rewards.jsonl", work / "sft-merged" / "config.json"]
    stamps = [p.stat().st_mtime_ns for p in kept]
    again = run_effect(work)  # every finished run is kept: nothing trains twice
    assert again.returncode == 0, again.stderr[-3000:]
    assert [p.stat().st_mtime_ns for p in kept] == stamps
    assert json.loads((work / "control-seed0" / "effect.json").read_text()) == runs["control-seed0"]

    stale = run_effect(work, "--set", "grpo.learning_rate=0.5")  # kept runs made with other settings
    assert stale.returncode != 0 and "was made with" in stale.stderr and "another --work" in stale.stderr


def log_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def incorrect(claims: list[bool], sem) -> dict:
    """A logged INCORRECT completion whose correctness was scored under ``sem``."""
    from reward_engine.semantics import fact_score

    fact = fact_score(sum(claims), len(claims), sem)
    return {
        "step": 0,
        "label": "INCORRECT",
        "factuality": fact,
        "correctness": sem.incorrect + fact,
        "claims": [{"text": f"c{i}", "supported": ok, "on_topic": True} for i, ok in enumerate(claims)],
    }


def test_replay_finds_where_two_rewards_differ(tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    import effect

    from reward_engine.semantics import semantics

    released, robust = semantics("knowrl"), semantics("knowrl-robust")
    same = [
        {"step": 0, "label": "CORRECT", "correctness": 2.0, "claims": []},
        {"step": 0, "label": "NOT_ATTEMPTED", "correctness": 1.0, "claims": []},
        {"step": 1, "label": None, "correctness": -1.0},  # no answer block
        incorrect([True], released),
        incorrect([False], released),
    ]
    assert effect.replay(log_rows(tmp_path / "a.jsonl", same), released, robust) == (5, 0)
    # One supported claim beside an unsupported one: the released rule damps by all claims, robust by supported.
    mixed = same + [incorrect([True, False], released)]
    assert effect.replay(log_rows(tmp_path / "b.jsonl", mixed), released, robust) == (6, 1)
    # June 2025 pays a refusal -1: that row differs, and so do the fact scores (capped rule).
    assert effect.replay(log_rows(tmp_path / "c.jsonl", same), released, semantics("knowrl-june2025"))[1] >= 1
    # A log that its own reward does not reproduce cannot stand in for a run.
    wrong = same + [{"step": 2, "label": "CORRECT", "correctness": 1.5, "claims": []}]
    assert effect.replay(log_rows(tmp_path / "d.jsonl", wrong), released, robust) is None
