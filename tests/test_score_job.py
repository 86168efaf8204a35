"""``python -m reward_engine.score``: bad lines, resume, torn output, the CLI."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
import yaml

from reward_engine.config import parse_reward_config
from reward_engine.score import score_file
from tests.helpers import score_command, server_stats, write_jsonl

ROWS = [
    {
        "id": "a",
        "question": "Capital of France?",
        "answers": "Paris",
        "completion": "<think>Paris is the capital of France.</think><answer>Paris</answer>",
    },
    {
        "id": "b",
        "question": "Capital of France?",
        "answers": ["Paris", "Paname"],
        "title": "Paris",
        "completion": "<think>The Eiffel Tower in Paris was completed in 1889 for the World's Fair.</think>"
        "<answer>Lyon</answer>",
    },
    {
        "id": "c",
        "question": "Capital of Japan?",
        "answers": "Tokyo",
        "completion": "<think>Unsure.</think><answer>I don't know</answer>",
    },
]


def write_input(path, extra_lines=()):
    lines = [json.dumps(r) for r in ROWS] + list(extra_lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_output(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


async def test_every_line_gets_one_row_and_bad_lines_are_named(tmp_path, kb, caplog):
    src = write_input(
        tmp_path / "in.jsonl",
        [
            '{"id": "d", "question": "Q?"',  # line 4: invalid JSON
            json.dumps({"id": "e", "question": "Q?", "completion": "x"}),  # line 5: no answers
            json.dumps({"id": "f", "question": 7, "completion": "x", "answers": "y"}),  # line 6: wrong type
            json.dumps({"id": "g", "question": "Q?", "completion": "x", "answers": "y", "title": 3}),  # line 7
        ],
    )
    out = tmp_path / "out.jsonl"
    config = parse_reward_config({"factuality": {"kb_path": "x"}})
    summary = await score_file(src, out, config, progress=False, kb=kb)
    rows = read_output(out)
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert [r["id"] for r in rows] == ["a", "b", "c", None, "e", "f", "g"]  # a bad row keeps a readable id
    assert [r["reward"] for r in rows[:3]] == [3.0, pytest.approx(1 - 1 + rows[1]["fact_score"]), 2.0]
    assert rows[1]["label"] == "INCORRECT" and rows[1]["claims"][0]["supported"] is True
    errors = {r["line"]: r["error"] for r in rows[3:]}
    assert "in.jsonl:4: invalid JSON" in errors[4]
    assert "field 'answers' missing" in errors[5] and "field 'question' must be str" in errors[6]
    assert "field 'title'" in errors[7]
    assert summary["statuses"] == {"ok": 3, "bad_input": 4}
    assert summary["labels"] == {"CORRECT": 1, "INCORRECT": 1, "NOT_ATTEMPTED": 1}
    assert "in.jsonl:5" in caplog.text


async def test_rerun_resumes_without_recomputing(tmp_path, kb, server):
    src = write_input(tmp_path / "in.jsonl")
    out = tmp_path / "out.jsonl"
    judge = {"endpoints": [{"base_url": server.url, "model": "m"}]}
    config = parse_reward_config({"grader": "llm", "judge": judge, "factuality": {"kb_path": "x"}})
    first = await score_file(src, out, config, progress=False, kb=kb)
    requests = (await server_stats(server))["requests"]
    with out.open("a") as handle:
        handle.write('{"id": "a", "line": 1, "rew')  # a torn line from a killed run
    second = await score_file(src, out, config, progress=False, kb=kb)
    assert first["already_scored"] == 0 and second["already_scored"] == 3
    assert (await server_stats(server))["requests"] == requests  # nothing recomputed
    assert [r["line"] for r in read_output(out)] == [1, 2, 3]


def one_try_judge_job(tmp_path, server):
    """(input, output, config) of a job whose judge calls are tried once each."""
    judge = {"endpoints": [{"base_url": server.url, "model": "m"}], "max_attempts": 1}
    config = parse_reward_config({"grader": "llm", "judge": judge, "factuality": {"kb_path": "x"}})
    return write_input(tmp_path / "in.jsonl"), tmp_path / "out.jsonl", config


async def test_failed_rows_are_retried_on_the_next_run(tmp_path, kb, server):
    src, out, config = one_try_judge_job(tmp_path, server)
    server.config.down = True
    summary = await score_file(src, out, config, progress=False, kb=kb, passes=1)
    assert summary["statuses"] == {"error": 3} and all(r["reward"] is None for r in read_output(out))
    server.config.down = False
    summary = await score_file(src, out, config, progress=False, kb=kb)
    assert summary["statuses"] == {"ok": 3} and summary["already_scored"] == 0
    assert [r["line"] for r in read_output(out)] == [1, 2, 3]


def test_score_cli(tmp_path, kb_path):
    src = write_input(tmp_path / "in.jsonl")
    cfg = tmp_path / "reward.yaml"
    cfg.write_text(yaml.safe_dump({"factuality": {"kb_path": str(kb_path)}}))
    out = tmp_path / "scored.jsonl"
    proc = subprocess.run(
        score_command(src, out, cfg),
        capture_output=True,
        text=True,
        check=True,
    )
    summary = json.loads(proc.stdout)
    assert summary["rows"] == 3 and summary["labels"] == {"CORRECT": 1, "INCORRECT": 1, "NOT_ATTEMPTED": 1}
    assert len(read_output(out)) == 3


def test_score_cli_bad_config_is_a_clear_error(tmp_path):
    cfg = tmp_path / "reward.yaml"
    cfg.write_text("gradr: offline\nfactuality: {enabled: false}\n")
    src = write_input(tmp_path / "in.jsonl")
    proc = subprocess.run(
        score_command(src, tmp_path / "o.jsonl", cfg),
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "unknown key 'gradr'" in proc.stderr and "did you mean 'grader'" in proc.stderr


async def test_batches_in_flight_at_once_finish_in_input_order(tmp_path, kb, server):
    """A batch held up by a slow judge call does not hold back the others; the file still ends in input order."""
    rows = [dict(r, id=f"{r['id']}{i}", question=f"{r['question']} ({i})") for i in range(6) for r in ROWS]
    src = tmp_path / "in.jsonl"
    write_jsonl(src, rows)
    judge = {"endpoints": [{"base_url": server.url, "model": "m"}]}
    config = parse_reward_config({"grader": "llm", "judge": judge, "factuality": {"kb_path": "x"}})
    server.config.latency_ms = 50
    serial = await score_file(
        src, tmp_path / "serial.jsonl", config, batch_size=2, progress=False, kb=kb, concurrency=1
    )
    requests = (await server_stats(server))["requests"]
    overlapped = await score_file(
        src, tmp_path / "overlapped.jsonl", config, batch_size=2, progress=False, kb=kb, concurrency=4
    )
    assert (await server_stats(server))["max_in_flight"] >= 2
    keys = ("id", "line", "reward", "label")
    assert [tuple(r[k] for k in keys) for r in read_output(tmp_path / "overlapped.jsonl")] == [
        tuple(r[k] for k in keys) for r in read_output(tmp_path / "serial.jsonl")
    ]
    assert [r["line"] for r in read_output(tmp_path / "overlapped.jsonl")] == list(range(1, len(rows) + 1))
    assert serial["statuses"] == overlapped["statuses"] == {"ok": len(rows)}
    # totals come from the judge client, not from summing overlapping batches' deltas
    assert overlapped["judge_requests"] == (await server_stats(server))["requests"] - requests


def test_index_rows_keeps_the_last_whole_row_per_line(tmp_path):
    from knowrl_io.jsonl import rewrite_indexed
    from knowrl_io.row_index import index_rows

    path = tmp_path / "out.jsonl"
    path.write_bytes(
        b'{"line": 2, "status": "error"}\n{"line": 1, "status": "ok", "v": 1}\nnot json\n'
        b'{"line": 2, "status": "ok", "v": 2}\n{"line": 3, "status": "ok"}\n{"line": 4, "sta'
    )
    index = index_rows(path, {"ok"})
    assert sorted(index) == [1, 2, 3]
    rewrite_indexed(path, index)
    assert read_output(path) == [
        {"line": 1, "status": "ok", "v": 1},
        {"line": 2, "status": "ok", "v": 2},
        {"line": 3, "status": "ok"},
    ]


async def test_a_judge_back_within_the_run_scores_every_row(tmp_path, kb, server):
    """A job has no step budget: rows that failed while the judge was away are tried again in the same run."""
    src, out, config = one_try_judge_job(tmp_path, server)
    server.config.down = True
    asyncio.get_running_loop().call_later(0.5, lambda: setattr(server.config, "down", False))
    summary = await score_file(src, out, config, progress=False, kb=kb, passes=3)
    assert summary["statuses"] == {"ok": 3} and [r["status"] for r in read_output(out)] == ["ok"] * 3


def test_piped_input_is_scored_while_the_pipe_is_still_open(tmp_path):
    """``--input -``: a row already read is scored and written while the job waits for the next line
    (the read runs off the event loop), so a slow producer is never a stalled job."""
    import time

    cfg = tmp_path / "reward.yaml"
    cfg.write_text("grader: offline\nfactuality: {enabled: false}\n")
    out = tmp_path / "scored.jsonl"
    cmd = [sys.executable, "-m", "reward_engine.score", "--input", "-", "--output", str(out)]
    proc = subprocess.Popen(
        [*cmd, "--config", str(cfg), "--batch-size", "1", "--no-progress"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        proc.stdin.write(json.dumps(ROWS[0]) + "\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 120
        while not (out.exists() and out.read_text().count("\n") >= 1) and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read()
            time.sleep(0.2)
        assert read_output(out)[0]["id"] == "a"  # scored with the pipe still open
        proc.stdin.write("".join(json.dumps(r) + "\n" for r in ROWS[1:]))
        proc.stdin.close()
        assert proc.wait(timeout=120) == 0, proc.stderr.read()
    finally:
        proc.kill()
    assert [r["id"] for r in read_output(out)] == ["a", "b", "c"]
    assert json.loads(proc.stdout.read())["labels"] == {"CORRECT": 1, "INCORRECT": 1, "NOT_ATTEMPTED": 1}
