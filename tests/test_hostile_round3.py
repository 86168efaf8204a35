"""Hostile input, round 3 (issue #74): one reader for every JSONL input, with no cap on a line (a first row longer
than 64 KiB was two bad rows and shifted every line number after it), and ``reward_engine.inspect`` owns its
output as the score job does (it wrote its HTML over the scores, over their input, and hung on a FIFO)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest

from knowrl_io.records import BOM, digest, iter_records

LONG = 70_000  # past the 64 KiB the first line used to be read with


def _row(rid: int, think: int = 0) -> dict:
    return {
        "id": rid,
        "question": "Capital of France?",
        "answers": "Paris",
        "completion": "<think>" + "I recall it. " * (think // 13) + "</think><answer>Paris</answer>",
    }


def _read(path: Path, how: str, data: bytes, consume=list):
    """The records of ``data`` read from a regular file, or from a FIFO a thread writes into (with a timeout:
    a reader that waits for ever fails the test instead of hanging the suite)."""
    if how == "file":
        path.write_bytes(data)
        return consume(iter_records(path))
    os.mkfifo(path)

    def write() -> None:
        try:
            with open(path, "wb") as fifo:
                fifo.write(data)
        except BrokenPipeError:
            pass

    got: dict[str, object] = {}

    def read() -> None:
        try:
            got["records"] = consume(iter_records(path))
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            got["error"] = exc

    threads = [threading.Thread(target=write, daemon=True), threading.Thread(target=read, daemon=True)]
    for thread in threads:
        thread.start()
    threads[1].join(60)
    assert not threads[1].is_alive(), "reading the FIFO never finished"
    if "error" in got:
        raise got["error"]  # type: ignore[misc]
    return got["records"]


# -- 1. a row of any length is one row ----------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["file", "fifo"])
def test_a_jsonl_row_longer_than_64_kib_is_one_row_and_line_numbers_stay_exact(tmp_path, how) -> None:
    """Old: the first row came out as two bad rows (lines 1 and 2) and every later row one line too far."""
    lines = [
        json.dumps(_row(1, LONG)),
        "",
        json.dumps(_row(3, 200_000)),
        json.dumps(_row(4)),
        json.dumps(_row(5, 1 << 20)),
    ]
    data = BOM + "\n".join(lines).encode() + b"\n"
    records = _read(tmp_path / "in.jsonl", how, data)
    assert [(r.line, r.error) for r in records] == [(1, None), (3, None), (4, None), (5, None)]
    assert [r.value["id"] for r in records] == [1, 3, 4, 5]
    assert [r.digest for r in records] == [digest(lines[i].encode()) for i in (0, 2, 3, 4)]


@pytest.mark.parametrize("how", ["file", "fifo"])
def test_jsonl_led_by_a_list_longer_than_64_kib_stays_jsonl(tmp_path, how) -> None:
    """Old: a first line past 64 KiB that opens a list made the file one JSON array: the list's numbers were the
    rows and every JSONL row after it vanished without a word."""
    first = list(range(20_000))
    data = (json.dumps(first) + "\n" + "".join(json.dumps({"id": i}) + "\n" for i in range(3))).encode()
    records = _read(tmp_path / "in.jsonl", how, data)
    assert [r.line for r in records] == [1, 2, 3, 4] and records[0].value == first
    assert [r.value for r in records[1:]] == [{"id": i} for i in range(3)]


@pytest.mark.parametrize("how", ["file", "fifo"])
def test_a_one_line_json_array_of_any_length_still_streams_element_by_element(tmp_path, how) -> None:
    values = [_row(i, 1_000) for i in range(300)]  # ~330 KB on one line, as json.dump writes it
    records = _read(tmp_path / "in.json", how, json.dumps(values).encode() + b"\n\n")
    assert [r.value for r in records] == values and [r.line for r in records] == list(range(1, 301))
    assert {r.text_line for r in records} == {1}


def _peak(read) -> int:
    tracemalloc.start()
    try:
        read()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_one_line_json_array_from_a_pipe_is_never_held_in_memory(tmp_path) -> None:
    """Only the end of a one-line array tells it from JSONL led by a list: from a pipe it is kept on disk."""
    row = json.dumps({"question": "q" * 900, "completion": "c" * 900})
    data = ("[" + ", ".join([row] * 20_000) + "]").encode()  # ~36 MB on one line
    count = {}
    good = lambda records: sum(r.error is None for r in records)  # noqa: E731 - counted, not kept
    peak = _peak(lambda: count.setdefault("n", _read(tmp_path / "in.json", "fifo", data, good)))
    assert count["n"] == 20_000 and peak < 32 * 2**20, peak


def test_memory_follows_the_longest_row_not_the_file(tmp_path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(_row(i, 2 << 20)) + "\n" for i in range(16)))  # 16 rows of 2 MiB
    count = {}
    peak = _peak(lambda: count.setdefault("n", sum(r.error is None for r in iter_records(path))))
    assert count["n"] == 16 and peak < 16 * 2**20, peak


def _run(module: str, *args, stdin: str | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", module, *map(str, args)], input=stdin, capture_output=True, text=True, timeout=timeout
    )


def test_score_warm_and_build_read_a_first_row_longer_than_64_kib(tmp_path) -> None:
    """The three jobs that read user JSONL share the reader: score (from a pipe), warm and build (from files)."""
    config = tmp_path / "c.yaml"
    config.write_text(json.dumps({"grader": "offline", "factuality": {"enabled": False}}))
    rows = "".join(json.dumps(_row(i, LONG if i == 1 else 0)) + "\n" for i in (1, 2, 3))
    out = tmp_path / "out.jsonl"
    score = _run(
        "reward_engine.score", "--input", "-", "--output", out, "--config", config, "--no-progress", stdin=rows
    )
    assert score.returncode == 0, score.stderr[-2000:]
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["line"], r["id"], r["status"]) for r in scored] == [(1, 1, "ok"), (2, 2, "ok"), (3, 3, "ok")]

    data = tmp_path / "data.jsonl"
    data.write_text(rows)
    warm = _run("reward_engine.warm", "--data", data, "--config", config)
    assert warm.returncode == 0, warm.stderr[-2000:]
    assert json.loads(warm.stdout)["titles"]["rows"] == 3 and json.loads(warm.stdout)["titles"]["bad_rows"] == 0

    docs = tmp_path / "docs.jsonl"
    docs.write_text(
        json.dumps({"title": "Long", "text": "Paris is a city. " * (LONG // 17)}) + "\n"
        + json.dumps({"title": "Short", "text": "Rome is a city."}) + "\n"
    )  # fmt: skip
    build = _run("retrieval.build", "--input", docs, "--db", tmp_path / "kb.db", "--no-dense", "--no-progress")
    assert build.returncode == 0, build.stderr[-2000:]
    assert not json.loads(build.stdout)["bad_rows"], build.stdout


# -- 2. reward_engine.inspect owns its output ---------------------------------------------------------------------
def _inspect(*args, capsys) -> tuple[int, str]:
    from reward_engine.inspect import main

    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


def _scores(tmp_path: Path) -> tuple[Path, Path]:
    src, scores = tmp_path / "in.jsonl", tmp_path / "scores.jsonl"
    src.write_text(json.dumps(_row(1)) + "\n")
    scores.write_text(json.dumps({"line": 1, "id": 1, "status": "ok", "total": 1.0, "claims": []}) + "\n")
    return src, scores


def _refused(code: int, err: str, path: Path) -> None:
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and str(path) in err, err


@pytest.mark.parametrize("target", ["rows", "symlink", "hardlink", "input", "kb"])
def test_inspect_never_writes_over_its_rows_or_inputs(tmp_path, capsys, target) -> None:
    """Old: exit 0, and the scores (or the completions, or the KB) were replaced by the HTML page."""
    src, scores = _scores(tmp_path)
    args = [scores, "--input", src]
    if target == "kb":  # a real knowledge base (full-text only: no embedding model needed)
        from retrieval.build import build
        from retrieval.sources import Document

        build(tmp_path / "kb.db", [Document("Paris", "Paris is a city.")], progress=False, dense_index=False)
        args += ["--kb", tmp_path / "kb.db"]
    output = {"rows": scores, "input": src, "kb": tmp_path / "kb.db"}.get(target, tmp_path / f"{target}.html")
    if target == "symlink":
        output.symlink_to(scores)
    elif target == "hardlink":
        os.link(scores, output)
    before = {p: p.read_bytes() for p in (src, scores, tmp_path / "kb.db") if p.exists()}
    for extra in ([], ["--overwrite"]):  # --overwrite never lifts this rule
        code, err = _inspect(*args, "-o", output, *extra, capsys=capsys)
        _refused(code, err, output)
        assert "is the input file" in err
    assert {p: p.read_bytes() for p in before} == before


async def test_inspect_never_writes_over_the_input_a_score_job_recorded(tmp_path, capsys) -> None:
    """``-o`` naming the file the scores were made from is refused even when ``--input`` is not given."""
    from reward_engine.config import parse_reward_config
    from reward_engine.score import score_file

    src, scores = _scores(tmp_path)
    scores.unlink()
    await score_file(src, scores, parse_reward_config({"factuality": {"enabled": False}}), progress=False)
    before = src.read_bytes()
    for extra in ([], ["--overwrite"]):
        code, err = _inspect(scores, "-o", src, *extra, capsys=capsys)
        _refused(code, err, src)
        assert "is the input file" in err
    assert src.read_bytes() == before


@pytest.mark.parametrize("special", ["fifo", "/dev/null"])
def test_inspect_refuses_a_fifo_or_a_device_at_once(tmp_path, special) -> None:
    """Old: a FIFO output hung the command (here: the timeout); /dev/null swallowed the page, exit 0."""
    _, scores = _scores(tmp_path)
    output = Path(special)
    if special == "fifo":
        output = tmp_path / "out.html"
        os.mkfifo(output)
    for extra in ([], ["--overwrite"]):
        done = _run("reward_engine.inspect", scores, "-o", output, *extra, timeout=60)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert f"--output {output} is not a regular file" in done.stderr


def test_inspect_replaces_its_own_page_and_an_empty_file_but_not_someone_elses(tmp_path, capsys) -> None:
    """Old: any existing file at ``-o`` was replaced without a word."""
    _, scores = _scores(tmp_path)
    notes = tmp_path / "notes.html"
    notes.write_text("<html><body>my notes</body></html>")
    code, err = _inspect(scores, "-o", notes, capsys=capsys)
    _refused(code, err, notes)
    assert "not a page reward_engine.inspect wrote" in err and "--overwrite" in err
    assert notes.read_text() == "<html><body>my notes</body></html>"
    code, err = _inspect(scores, "-o", notes, "--overwrite", capsys=capsys)
    assert code == 0 and "knowrl reward_engine.inspect" in notes.read_text()
    page = tmp_path / "report.html"
    for _ in range(2):  # a page it wrote is replaced: rerunning the report just works
        code, err = _inspect(scores, "-o", page, capsys=capsys)
        assert code == 0, err
    assert '<meta name="generator" content="knowrl reward_engine.inspect">' in page.read_text()
    empty = tmp_path / "empty.html"
    empty.touch()
    assert _inspect(scores, "-o", empty, capsys=capsys)[0] == 0 and empty.stat().st_size > 0


def test_inspect_skips_unreadable_rows_and_reads_long_ones(tmp_path, capsys) -> None:
    """Old: one 5,000-digit number ended the whole report (exit 2), deep nesting was a traceback, and a row past
    64 KiB was not read at all by the other jobs' reader."""
    scores, page = tmp_path / "scores.jsonl", tmp_path / "report.html"
    good = [{"line": i, "status": "ok", "total": 1.0, "completion": "x" * (LONG if i == 1 else 10)} for i in (1, 2)]
    scores.write_text(
        json.dumps(good[0]) + "\n" + '{"n": ' + "1" * 5_000 + "}\n" + "[" * 100_000 + "\n" + json.dumps(good[1]) + "\n"
    )
    code, err = _inspect(scores, "-o", page, capsys=capsys)
    assert code == 0, err
    embedded = re.search(r'<script id="data-rows" type="application/json">(.*?)</script>', page.read_text(), re.S)
    assert [len(r["completion"]) for r in json.loads(embedded.group(1))] == [LONG, 10]
