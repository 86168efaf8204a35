"""Hostile pass 64's findings (issue #74), as variants of its cases (the pass's own calls stay out of the tests):
``inspect`` of a compressed rows file wrote an empty page, exit 0; ``ci_summary`` wrote a page whose install outlasts
the whole run; a count in words against the passage's ("seven countries" where it says six) was supported; a
sentence on another person's deed was read as answering who did the asked one (its pronoun carried the deed over);
and an initialism of a French name was refused. Every assertion but the guards failed on 600c82b."""

from __future__ import annotations

import bz2
import json
import subprocess
import sys
from pathlib import Path

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from tests.helpers import JOB_ENV, REPO, grade_tables


def _inspect(rows: Path, page: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "reward_engine.inspect", str(rows), "-o", str(page)]
    return subprocess.run(command, cwd=REPO, env=JOB_ENV, capture_output=True, text=True, timeout=120)


ROW = {"prompt": "Q?", "completion": "<answer>A</answer>", "reward": 1.0}


def test_inspect_of_rows_it_cannot_read_is_an_error_not_an_empty_page(tmp_path: Path) -> None:
    rows = tmp_path / "rewards.jsonl.bz2"
    rows.write_bytes(bz2.compress((json.dumps(ROW) + "\n").encode() * 3))
    done = _inspect(rows, tmp_path / "page.html")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "rewards.jsonl.bz2" in done.stderr and "line 1" in done.stderr
    assert not (tmp_path / "page.html").exists()


def test_inspect_names_the_rows_it_skips(tmp_path: Path) -> None:
    rows = tmp_path / "rewards.jsonl"
    rows.write_text(json.dumps(ROW) + "\n" + '{"prompt": "torn\n' + json.dumps(ROW) + "\n")
    done = _inspect(rows, tmp_path / "page.html")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "1 row(s) skipped" in done.stderr and "line 2" in done.stderr and done.stdout.startswith("2 rows")


def _ci_summary(tmp_path: Path, install: str, total: str, pytest_s: str = "1.0") -> subprocess.CompletedProcess:
    junit = tmp_path / "j.xml"
    junit.write_text(
        f'<testsuites><testsuite tests="1" failures="0" errors="0" skipped="0" time="{pytest_s}"/></testsuites>'
    )
    command = [sys.executable, "bench/ci_summary.py", str(junit), "--install-s", install, "--total-s", total]
    command += ["--exit-code", "0", "--out", str(tmp_path / "ci.md")]
    return subprocess.run(command, cwd=REPO, env=JOB_ENV, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("install", "total", "pytest_s"), [("300", "60", "10"), ("5", "60", "600")])
def test_ci_summary_refuses_parts_longer_than_the_whole_run(
    tmp_path: Path, install: str, total: str, pytest_s: str
) -> None:
    done = _ci_summary(tmp_path, install, total, pytest_s)
    assert done.returncode == 2 and "Traceback" not in done.stderr and not (tmp_path / "ci.md").exists()
    assert len(done.stderr.strip().splitlines()) == 1 and "--total-s" in done.stderr
    assert _ci_summary(tmp_path, "5", "60", "50").returncode == 0  # guard: parts inside the whole


RHINE = "The Rhine rises in the Swiss Alps. It flows through six countries before reaching the North Sea."


def test_a_count_in_words_must_be_the_passage_s() -> None:
    assert not facts.supported("The Rhine flows through seven countries.", [RHINE])
    assert not facts.supported("The Rhine flows through 5 countries.", [RHINE])
    assert facts.supported("The Rhine flows through six countries.", [RHINE])  # guard
    assert facts.supported("The Rhine flows through 6 countries.", [RHINE])  # guard


APPLE = (
    "Apple was founded by Steve Jobs, Steve Wozniak and Ronald Wayne in April 1976 in California. "
    "Tim Cook later became its chief executive in 2011."
)


def test_a_name_doing_another_deed_after_a_pronoun_does_not_answer_the_asked_deed() -> None:
    asked = "Who co-founded Apple with Steve Jobs?"
    assert facts.answer_contradicted(asked, "Tim Cook.", [APPLE])
    assert not facts.answer_contradicted(asked, "Steve Wozniak.", [APPLE])  # guard
    chief = "Who became Apple's chief executive in 2011?"
    assert facts.answer_contradicted(chief, "Ronald Wayne.", [APPLE])  # the sentence before's names stay there
    assert not facts.answer_contradicted(chief, "Tim Cook.", [APPLE])  # guard


test_a_wrong_initialism_is_incorrect, test_a_french_initialism_is_correct = grade_tables(
    [("FIFA.", "Fédération Internationale de l'Automobile", "Which body governs Formula One?")],
    [
        ("The FIA.", "Fédération Internationale de l'Automobile", "Which body governs Formula One?"),
        ("CNRS.", "Centre national de la recherche scientifique", "Which French agency funds basic research?"),
    ],
)


def test_a_spelt_out_initialism_still_answers() -> None:  # guard: the English link words as before
    assert grade("NASA.", "National Aeronautics and Space Administration", "Which agency ran Apollo?").name == "CORRECT"
