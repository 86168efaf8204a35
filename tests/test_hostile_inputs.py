"""Hostile and bad input: every row gets a clear error naming its line and field, or is scored;
never a crash of the batch, never silent loss. One file holds them all, as a user's would."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from knowrl.data import load_rl_rows
from knowrl.tasks.math_data import load_math_rows
from reward_engine.config import parse_reward_config
from reward_engine.score import score_file

GOOD = "<think>Paris lies on the river Seine.</think><answer>Paris</answer>"
WRONG = "<think>Paris lies on the river Seine.</think><answer>Lyon</answer>"


def row(**over) -> bytes:
    base = {"question": "What is the capital of France?", "answers": "Paris", "title": "Paris", "completion": GOOD}
    base.update(over)
    return json.dumps(base).encode()


# (raw JSONL line, expected: "scored" or the text the error must contain)
CASES = [
    (row(id="ok"), "scored"),
    (b'{"id": "torn", "question": "Q?", "answers": "x", "comp', "invalid JSON"),
    (row(id="no-answers", answers=None), "field 'answers'"),
    (json.dumps({"id": "no-question", "answers": "x", "completion": GOOD}).encode(), "field 'question' missing"),
    (row(id="question-list", question=["a"]), "field 'question' must be str"),
    (row(id="completion-number", completion=12), "field 'completion' must be str or list"),
    (row(id="title-number", title=12), "field 'title'"),
    (row(id="empty-question", question="   "), "field 'question' is empty"),
    (row(id="empty-completion", completion=""), "scored"),  # the policy wrote nothing: no answer (issue #74)
    (row(id="answers-blank", answers=[None, " "]), "no gold answer"),
    (b"[1, 2, 3]", "expected an object"),
    (b'{"id": "latin1", "question": "Caf\xe9?", "answers": "x", "completion": "y"}', "not valid UTF-8"),
    (b'{"id": "raw-nul", "question": "Q\x00?", "answers": "x", "completion": "y"}', "invalid JSON"),
    (
        row(id="escaped-nul", completion="<think>Paris\u0000 lies on the Seine.</think><answer>Pa\u0000ris</answer>"),
        "scored",
    ),
    (
        row(
            id="lone-surrogate", completion="<think>Paris lies on the river Seine \ud800.</think><answer>Lyon</answer>"
        ),
        "scored",
    ),
    (
        row(
            id="megabyte",
            completion="<think>" + "Paris lies on the river Seine. " * 34000 + "</think><answer>Lyon</answer>",
        ),
        "scored",
    ),
    (row(id="long-title", title="Paris " * 20000, completion=WRONG), "scored"),
    (row(id="title-not-in-kb", title="Atlantis (mythical island)", completion=WRONG), "scored"),
    (
        row(
            id="fts5-syntax",
            question='capital" OR title:* NEAR(paris seine) ^x AND "',
            completion='<think>"Paris" AND (lies OR NEAR) on* the river: Seine^ -"x".</think><answer>Lyon</answer>',
        ),
        "scored",
    ),
    (
        row(
            id="confusable-answer",
            completion="<think>Paris lies on the river Seine.</think><answer>P\u0430ris</answer>",
        ),
        "scored",
    ),
    (
        row(
            id="zero-width-rtl",
            completion="<think>Pa\u200bris lies on the \u202eriver Seine.</think><answer>Lyon\u200d</answer>",
        ),
        "scored",
    ),
    (row(id="conversation", completion=[{"role": "assistant", "content": GOOD}, "junk", {"content": 5}]), "scored"),
]


@pytest.fixture
def hostile_file(tmp_path):
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(b"\n".join(line for line, _ in CASES) + b"\n")
    return path


async def test_every_hostile_row_is_scored_or_named(hostile_file, tmp_path, kb):
    out = tmp_path / "scored.jsonl"
    summary = await score_file(
        hostile_file, out, parse_reward_config({"factuality": {"kb_path": "x"}}), progress=False, kb=kb
    )
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["line"] for r in rows] == list(range(1, len(CASES) + 1))  # nothing lost, nothing doubled
    for (_, expected), got in zip(CASES, rows):
        if expected == "scored":
            assert got["status"] == "ok" and isinstance(got["reward"], float), got
        else:
            assert got["reward"] is None and got["status"] == "bad_input", got
            assert expected in got["error"] and f":{got['line']}" in got["error"], (expected, got["error"])
    by_id = {r["id"]: r for r in rows if r["id"]}
    assert by_id["ok"]["label"] == "CORRECT"
    assert by_id["confusable-answer"]["label"] == "INCORRECT"  # a Cyrillic 'а' is not the gold answer
    assert by_id["megabyte"]["label"] == "INCORRECT" and len(by_id["megabyte"]["claims"]) == 1  # one fact, once
    assert by_id["empty-completion"]["reward"] == -2.0  # what training pays it: format -1, no answer -1
    # a bad byte later in the row keeps the id read before it (hostile pass 42: id null); a torn row has none
    assert by_id["latin1"]["status"] == by_id["raw-nul"]["status"] == "bad_input" and "torn" not in by_id
    assert summary["rows"] == len(CASES)


def test_training_loaders_keep_good_rows_and_name_bad_ones(hostile_file, tmp_path, caplog):
    rows, report = load_rl_rows(hostile_file)
    assert len(rows) + len(report.bad) == len(CASES)
    assert any(":2: invalid JSON" in b for b in report.bad) and any("not valid UTF-8" in b for b in report.bad)
    maths = tmp_path / "math.jsonl"
    maths.write_bytes(
        b"\n".join(
            [
                b'{"question": "1+1?", "ground_truth": "2"}',
                b"\xff\xfe{",
                b"{",
                json.dumps({"question": "x" * 1_000_000, "ground_truth": "1"}).encode(),
            ]
        )
    )
    good, report = load_math_rows(maths)
    assert [g["ground_truth"] for g in good] == ["2", "1"] and len(report.bad) == 2


@pytest.mark.parametrize(
    "text,message",
    [
        ("factuality: {kb_path: x, evidence_k: many}\n", "factuality.evidence_k"),
        ("factuality: {kb_path: x}\nstep_timeout: 3\n", "unknown key 'step_timeout'; did you mean 'step_timeout_s'"),
        ("grader: llm\nfactuality: {kb_path: x}\n", "needs a 'judge' section"),
        ("- just\n- a list\n", "mapping"),
    ],
)
def test_bad_reward_config_is_one_clear_line_and_exit_2(tmp_path, hostile_file, text, message):
    config = tmp_path / "reward.yaml"
    config.write_text(text)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "reward_engine.score",
            "--input",
            str(hostile_file),
            "--output",
            str(tmp_path / "o.jsonl"),
            "--config",
            str(config),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and message in proc.stderr and "reward.yaml" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
