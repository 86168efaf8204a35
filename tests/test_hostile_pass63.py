"""Hostile pass 63's findings (issue #74), as variants of its cases (the pass's own calls stay out of the tests):
``inspect -o LINK --overwrite`` wrote the page through a link to a user's file, ``ci_summary`` took "nan" and
negative seconds into the CI record, the gold said to rank second was paid where the top is asked, and a superlative
given to another thing than the passage gives it was supported. Every assertion but the guards failed on 554f265."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from tests.helpers import JOB_ENV, REPO, digest


def test_inspect_overwrite_replaces_a_link_to_someone_s_file_and_keeps_the_file(tmp_path: Path) -> None:
    rows = tmp_path / "scored.jsonl"
    rows.write_text(json.dumps({"prompt": "Q?", "completion": "A.", "reward": 1.0}) + "\n")
    mine = tmp_path / "diary.md"
    mine.write_text("# my diary\n")
    page = tmp_path / "page.html"
    page.symlink_to(mine)
    before = digest(mine)
    command = [sys.executable, "-m", "reward_engine.inspect", str(rows), "-o", str(page)]
    refused = subprocess.run(command, cwd=REPO, env=JOB_ENV, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and digest(mine) == before
    done = subprocess.run([*command, "--overwrite"], cwd=REPO, env=JOB_ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert digest(mine) == before  # the link is replaced by the page; the file it named is kept
    assert not page.is_symlink() and "knowrl reward_engine.inspect" in page.read_text()


@pytest.mark.parametrize(("install", "total"), [("inf", "10"), ("-1", "10"), ("5", "nan")])
def test_ci_summary_refuses_seconds_that_are_no_duration(tmp_path: Path, install: str, total: str) -> None:
    junit = tmp_path / "j.xml"
    junit.write_text('<testsuites><testsuite tests="1" failures="0" errors="0" skipped="0" time="1.0"/></testsuites>')
    out = tmp_path / "ci.md"
    done = subprocess.run(
        [sys.executable, "bench/ci_summary.py", str(junit), "--install-s", install, "--total-s", total]
        + ["--exit-code", "0", "--out", str(out)],
        cwd=REPO,
        env=JOB_ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and not out.exists()
    assert len(done.stderr.strip().splitlines()) == 1


EU = "What is the longest river in the European Union?"


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("The Volga; the Danube is second.", "Danube", EU, "INCORRECT"),
        ("The Danube is second.", "Danube", EU, "INCORRECT"),
        ("The Arabian, with the Sahara second.", "Sahara", "What is the largest hot desert in the world?", "INCORRECT"),
        ("The Danube.", "Danube", EU, "CORRECT"),
        ("The Danube, second to none in the Union.", "Danube", EU, "CORRECT"),
        ("The Danube; the Elbe is second.", "Danube", EU, "CORRECT"),
    ],
)
def test_the_gold_said_to_rank_below_the_top_is_incorrect(answer: str, gold: str, question: str, label: str) -> None:
    assert grade(answer, gold, question).name == label


LAKES = [
    "Lake Superior is the largest of the Great Lakes by area. Lake Michigan is the only Great Lake entirely within "
    "the United States. Lake Ontario is the smallest of the Great Lakes by area."
]


def test_a_superlative_given_to_another_name_is_not_supported() -> None:
    assert not facts.supported("Lake Michigan is the largest of the Great Lakes by area.", LAKES)
    assert not facts.supported("Lake Erie is the smallest of the Great Lakes by area.", LAKES)
    assert facts.supported("Lake Superior is the largest of the Great Lakes by area.", LAKES)


# the landing review of this pass's mends (and of the session's): right answers the new rules refused, a right
# "never" contradicted, and ledger patterns that covered a user's files


@pytest.mark.parametrize(
    ("answer", "gold", "question"),
    [
        ("Canada is the second largest country.", "Canada", "What is the second largest country in the world by area?"),
        ("Justin Guarini finished second.", "Justin Guarini", "Who finished second in American Idol's first season?"),
        ("Dami Im was runner-up.", "Dami Im", "Who was runner-up in the 2016 Eurovision Song Contest?"),
        ("Microsoft Corporation.", "Microsoft", "Which company makes Windows?"),
        ("Pixar Animation Studios.", "Pixar", "Which studio made Toy Story?"),
        ("Shakespeare's Hamlet is the play.", "William Shakespeare", "Who wrote Hamlet?"),
    ],
)
def test_a_rank_asked_a_company_name_and_a_possessive_stay_correct(answer: str, gold: str, question: str) -> None:
    assert grade(answer, gold, question).name == "CORRECT"


def test_never_is_not_contradicted_where_the_evidence_says_never() -> None:
    browns = ["The Cleveland Browns, founded in 1946, have never played in the Super Bowl."]
    asked = "When did the Cleveland Browns win the Super Bowl?"
    assert not facts.answer_contradicted(asked, "They never have.", browns)


def test_the_sentence_after_a_name_can_give_it_the_superlative() -> None:
    tokyo = ["Tokyo is the capital of Japan. The city is the most populous city in Japan."]
    assert facts.supported("Tokyo is the most populous city in Japan.", tokyo)


def test_the_ledger_covers_only_the_run_s_own_names() -> None:
    from knowrl.output_dir import STAGES, WRITES
    from knowrl.run_mark import matches

    patterns = [*WRITES, *STAGES]
    assert any(matches("checkpoint-500", p) for p in patterns)
    assert any(matches("heldout_after_sft.json", p) for p in patterns)
    assert not any(matches("checkpoint-500-best", p) for p in patterns)
    assert not any(matches("heldout_questions.json", p) for p in patterns)


def test_a_place_put_in_another_country_with_in_is_contradicted() -> None:
    elbrus = ["Mount Elbrus in Russia is the highest mountain in Europe, at 5,642 metres."]
    asked = "What is the highest mountain in Europe?"
    assert facts.answer_contradicted(asked, "Elbrus, in Georgia.", elbrus)
    assert not facts.answer_contradicted(asked, "Elbrus, in Russia.", elbrus)
