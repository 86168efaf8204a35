"""Hostile pass 53 (seed 53053, run at 11b9338, issue #74): 30 cases written before they were run; 20 held. Closed
here (each assertion failed on 11b9338):

- data loss: ``bench/ci_summary.py --out`` onto a copy of the results index replaced it (the index names every
  script in its table; a page is now the script's own only when its first lines give the script's command or say
  it was written by it);
- silent failures: ``reward_engine.serve`` with an LLM grader whose judge was not up listened and answered every
  completion 0.0, unscored (the judges are checked before it listens, as ``score`` checks them);
  ``knowrl.evaluate`` graded rows whose gold was empty (``[""]``, ``";"``, ``["  "]``) as abstentions (the RL
  data reader now skips them, naming line and field, and the report counts them in ``bad_rows``);
- late checks: ``grpo.learning_rate`` below 0 and ``grpo.temperature`` 0 stopped only after the model loaded,
  with messages naming no key (range-checked with the config);
- an interrupted ``reward_engine.inspect`` was a traceback (one line, exit 130);
- reward holes: "15 months." CORRECT for an age of 15, "Four boys." for four girls (the other of a pair only:
  the landing review found "Two kids." for 2 children paid wrong by a broader rule); ``supported`` held "275
  doubles" against "275 home runs" and "lost three times" against "won three times ... lost twice", which
  ``contradicted`` missed.

Left (in the issue's note): ``supported`` does not match "between 1797 and 1798" to "1797–98" (an under-pay);
"Four dogs." for four girls (another counted thing that is no pair of the gold's) is paid.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")


def test_a_page_that_only_names_the_script_is_not_its_page(tmp_path: Path) -> None:
    from knowrl_io.job_output import check_results

    index = tmp_path / "README.md"
    index.write_text((ROOT / "bench" / "results" / "README.md").read_text())
    notes = tmp_path / "notes.md"
    notes.write_text("# My notes on bench/ci_summary.py\n")
    for page in (index, notes):
        with pytest.raises(SystemExit) as stopped:
            check_results(argparse.Namespace(out=page), str(ROOT / "bench" / "ci_summary.py"))
        assert stopped.value.code == 2
    own = tmp_path / "ci.md"
    own.write_text((ROOT / "bench" / "results" / "ci.md").read_text())
    check_results(argparse.Namespace(out=own), str(ROOT / "bench" / "ci_summary.py"))
    judged = tmp_path / "report.json"
    judged.write_text(json.dumps({"command": "python bench/judge_set.py --set x"}, indent=1))
    check_results(argparse.Namespace(out=judged), str(ROOT / "bench" / "judge_set.py"))
    with pytest.raises(SystemExit):
        check_results(argparse.Namespace(out=judged), str(ROOT / "bench" / "judge.py"))


def test_serve_refuses_a_judge_that_is_not_up(tmp_path: Path) -> None:
    from judges.ports import free_port

    config = tmp_path / "cfg.yaml"
    endpoint = f"http://127.0.0.1:{free_port()}/v1"
    config.write_text(
        "preset: knowrl\ngrader: llm\nfactuality: {enabled: false}\n"
        f"judge: {{endpoints: [{{base_url: '{endpoint}', model: judge}}], timeout_s: 2, max_attempts: 1}}\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "reward_engine.serve", "--config", str(config), "--port", "0", "--judge-wait", "1"],
        env=dict(ENV, KNOWRL_CACHE_DIR=str(tmp_path / "cache")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "no endpoint accepts a connection" in done.stderr and "listening" not in done.stdout


def test_rows_without_a_gold_are_bad_rows_named_by_field() -> None:
    from knowrl.data import rl_row

    for answers in ([""], ";", ["  "]):
        row, problem = rl_row({"question": "Who wrote Got My Mind Set on You?", "answers": answers})
        assert row is None and problem.startswith("field 'answers'"), answers
    row, problem = rl_row({"question": "Who wrote Got My Mind Set on You?", "answers": "Rudy Clark"})
    assert problem is None and row["answers"] == "Rudy Clark"


def test_learning_rate_and_temperature_are_range_checked_with_the_config() -> None:
    from trl import GRPOConfig

    from knowrl.config import check_trl_values

    for key, value in (("learning_rate", -1e-4), ("temperature", 0), ("top_p", 1.5)):
        with pytest.raises(ValueError, match=f"grpo.{key}"):
            check_trl_values({key: value}, GRPOConfig, "grpo")
    check_trl_values({"learning_rate": 1e-5, "temperature": 0.7, "beta": 0.0}, GRPOConfig, "grpo")


def test_an_interrupted_inspect_is_one_line(tmp_path: Path, monkeypatch, capsys) -> None:
    from reward_engine import inspect

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    rows = tmp_path / "rewards.jsonl"
    rows.write_text(json.dumps({"question": "q?", "completion": "a", "reward": 1.0}) + "\n")
    monkeypatch.setattr(inspect, "write_page", stopped)
    assert inspect.main([str(rows), "-o", str(tmp_path / "page.html")]) == 130
    assert capsys.readouterr().err.strip().startswith("interrupted:")


def test_another_unit_or_another_counted_thing_is_wrong() -> None:
    from reward_engine.offline.grader import Label, grade

    age = "What is the age of consent in Poland?"
    for answer in ("15 months.", "15 weeks.", "Fifteen months old."):
        assert grade(answer, "15", age) is Label.INCORRECT, answer
    assert grade("15 years old.", "15", age) is Label.CORRECT
    dies = "Who dies in The Watsons Go to Birmingham?"
    assert grade("Four boys.", "four girls", dies) is Label.INCORRECT
    assert grade("4 girls.", "four girls", dies) is Label.CORRECT
    assert grade("Two kids.", "2 children", "How many children did they have?") is Label.CORRECT  # a synonym
    assert grade("Three feet.", "36 inches", "What is the height of a tennis net at the centre in inches?") is (
        Label.CORRECT
    )


def test_a_count_of_another_thing_or_another_event_is_not_supported() -> None:
    from reward_engine.offline import facts

    maris = ["Roger Maris hit 275 home runs in his career."]
    assert not facts.supported("Roger Maris hit 275 doubles in his career.", maris)
    assert facts.supported("Roger Maris hit 275 home runs in his career.", maris)
    raiders = ["The Raiders have won the Super Bowl three times. The Raiders have lost the Super Bowl twice."]
    lost_three = "The Raiders have lost the Super Bowl three times."
    assert facts.contradicted(lost_three, raiders) and not facts.supported(lost_three, raiders)
    assert facts.supported("The Raiders have lost the Super Bowl twice.", raiders)
    assert not facts.contradicted("The Raiders have won the Super Bowl three times.", raiders)
