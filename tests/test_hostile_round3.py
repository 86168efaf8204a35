"""Hostile input, round 3 (issue #74): one reader for every JSONL input, with no cap on a line (a first row longer
than 64 KiB was two bad rows and shifted every line number after it), and ``reward_engine.inspect`` owns its
output as the score job does (it wrote its HTML over the scores, over their input, and hung on a FIFO); a
training run owns its ``output_dir``, a KB build its ``--db``; values are range-checked; pipes and directories are
inputs told apart from a missing file; the shipped configs cache under ``KNOWRL_CACHE_DIR``; the test judge stops
on SIGTERM while a request hangs."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import tracemalloc
import urllib.request
from pathlib import Path

import pytest

from knowrl_io.records import BOM, digest, iter_records
from tests.helpers import write_offline_config

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
    write_offline_config(config)
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


def test_score_past_a_file_size_limit_says_so_in_one_line_and_resumes(tmp_path) -> None:
    """Hostile pass 6 (D6): past RLIMIT_FSIZE (EFBIG) the job ended in an OSError traceback. Now one line, exit 2,
    only whole rows kept, and the same command without the limit finishes the job."""
    import resource
    import signal

    config = tmp_path / "c.yaml"
    write_offline_config(config)
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps(_row(i)) + "\n" for i in range(1, 201)))
    args = ["--input", src, "--output", out, "--config", config, "--no-progress", "--batch-size", "10"]

    def limited() -> None:  # the child's writes past 4 KiB fail with EFBIG instead of killing it (SIGXFSZ)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))

    cmd = [sys.executable, "-m", "reward_engine.score", *map(str, args)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, preexec_fn=limited)
    err = done.stderr.strip().splitlines()
    assert done.returncode == 2 and err and err[-1].startswith("error: cannot write"), done.stderr
    assert "Traceback" not in done.stderr and "run the same command again" in err[-1]
    kept = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]  # whole rows only
    assert len(kept) < 200
    again = _run("reward_engine.score", *args)
    assert again.returncode == 0, again.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["line"] for r in rows) == list(range(1, 201))


def test_build_tells_each_row_whose_title_repeats_an_earlier_one(tmp_path) -> None:
    """Hostile pass 6 (D8): titles equal once normalised (NFC and NFD, a doubled space) were merged with nothing on
    stderr, only a count in the JSON report. Each is now told with its line and the line it repeats."""
    src, db = tmp_path / "docs.jsonl", tmp_path / "kb.db"
    docs = [("Caf\u00e9", "First text."), ("Cafe\u0301", "Second text."), ("Paris", "A city."), ("Paris  ", "Again.")]
    src.write_text("".join(json.dumps({"title": t, "text": x}) + "\n" for t, x in docs))
    done = _run("retrieval.build", "--input", src, "--db", db, "--no-dense", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert f"{src}:2: title 'Caf\u00e9' repeats line 1's" in done.stderr
    assert f"{src}:4: title 'Paris' repeats line 3's" in done.stderr
    assert "2 row(s) repeat an earlier title" in done.stderr
    with sqlite3.connect(db) as conn:
        assert dict(conn.execute("SELECT title, text FROM documents")) == {
            "Caf\u00e9": "First text.",
            "Paris": "A city.",
        }


def test_a_build_stopped_before_its_passages_leaves_the_kb_as_it_was(tmp_path, monkeypatch) -> None:
    """Hostile pass 6 (D9): a build killed after its documents were written and before their passages left new
    documents over old passages, and ``score`` used the mixed KB. Documents and passages now commit together."""
    import retrieval.build as build_module
    from retrieval.build import build
    from retrieval.sources import Document

    db = tmp_path / "kb.db"
    build(db, [Document("Paris", "Paris is a city.")], progress=False, dense_index=False, replace=True, overwrite=True)

    def killed(conn, progress=True):  # noqa: ANN001, ANN202 - sync_passages' signature
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "sync_passages", killed)
    with pytest.raises(KeyboardInterrupt):
        build(
            db, [Document("Lyon", "Lyon is a city.")], progress=False, dense_index=False, replace=True, overwrite=True
        )
    with sqlite3.connect(db) as conn:
        assert [t for (t,) in conn.execute("SELECT title FROM documents")] == ["Paris"]
        assert [t for (t,) in conn.execute("SELECT title FROM passages")] == ["Paris"]


@pytest.mark.parametrize("target", ["kb", "config"])
def test_score_never_writes_over_its_knowledge_base_or_config(tmp_path, target) -> None:
    """Hostile pass 7 (I11, I12): ``--output`` naming the config's KB or the config file, with ``--overwrite``,
    replaced it with scores, exit 0 (the input file was already refused)."""
    from retrieval.build import build
    from retrieval.sources import Document

    kb, config, src = tmp_path / "kb.db", tmp_path / "c.yaml", tmp_path / "in.jsonl"
    build(kb, [Document("Paris", "Paris is the capital of France.")], progress=False, dense_index=False)
    config.write_text(json.dumps({"grader": "offline", "factuality": {"kb_path": str(kb), "retrieval_mode": "bm25"}}))
    src.write_text(json.dumps(_row(1)) + "\n")
    output = {"kb": kb, "config": config}[target]
    before = output.read_bytes()
    done = _run("reward_engine.score", "--input", src, "--output", output, "--config", config, "--overwrite")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and str(output) in done.stderr, done.stderr
    assert output.read_bytes() == before


def test_a_rebuild_with_a_bad_row_removes_no_document_and_a_removal_is_named(tmp_path) -> None:
    """Hostile pass 7 (I24): rebuilt from an input whose Paris row had become torn JSON, the KB lost Paris, and
    the log said only "skipped ... everything else was built"."""
    src, db = tmp_path / "docs.jsonl", tmp_path / "kb.db"
    paris, lyon = json.dumps({"title": "Paris", "text": "A city."}), json.dumps({"title": "Lyon", "text": "A town."})
    args = ("retrieval.build", "--input", src, "--db", db, "--no-dense", "--no-progress")
    src.write_text(paris + "\n" + lyon + "\n")
    assert _run(*args).returncode == 0
    src.write_text(paris[:-9] + "\n" + lyon + "\n")  # torn
    done = _run(*args)
    assert done.returncode == 0 and "1 document(s) the input no longer holds were kept" in done.stderr, done.stderr
    with sqlite3.connect(db) as conn:
        assert sorted(t for (t,) in conn.execute("SELECT title FROM documents")) == ["Lyon", "Paris"]
    src.write_text(lyon + "\n")  # Paris taken out on purpose
    done = _run(*args)
    assert done.returncode == 0 and "were removed from the KB: 'Paris'" in done.stderr, done.stderr
    with sqlite3.connect(db) as conn:
        assert [t for (t,) in conn.execute("SELECT title FROM documents")] == ["Lyon"]


async def test_inspect_warns_when_its_input_is_not_what_the_scores_were_made_from(tmp_path, capsys) -> None:
    """Hostile pass 7 (I21, I22): an --input edited after scoring (or another file) was joined by line in
    silence: the page showed "Lyon" beside a CORRECT made for "Paris"."""
    from reward_engine.config import parse_reward_config
    from reward_engine.score import score_file

    src, scores = _scores(tmp_path)
    scores.unlink()
    await score_file(src, scores, parse_reward_config({"factuality": {"enabled": False}}), progress=False)
    code, err = _inspect(scores, "--input", src, "-o", tmp_path / "same.html", capsys=capsys)
    assert code == 0 and "warning" not in err
    src.write_text(src.read_text().replace("Paris</answer>", "Lyon</answer>"))
    code, err = _inspect(scores, "--input", src, "-o", tmp_path / "edited.html", capsys=capsys)
    assert code == 0 and "1 row(s) are not the rows these scores were made from (first: line 1" in err, err


def test_inspect_names_a_documents_only_kb_in_one_line(tmp_path, capsys) -> None:
    """Hostile pass 7 (I23): ``--kb`` a documents-only DB (FActScore's format, which scoring accepts by deriving
    its passages) ended in a traceback (no table ``passages``)."""
    _, scores = _scores(tmp_path)
    scores.write_text(
        json.dumps({"line": 1, "id": 1, "status": "ok", "total": 1.0, "claims": [{"text": "c", "evidence_ids": [1]}]})
        + "\n"
    )
    kb = tmp_path / "documents.db"
    with sqlite3.connect(kb) as conn:
        conn.execute("CREATE TABLE documents(title TEXT PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO documents VALUES ('Paris', 'Paris is a city.')")
    code, err = _inspect(scores, "--kb", kb, "-o", tmp_path / "page.html", capsys=capsys)
    assert code == 2 and err.count("\n") == 1 and "--from-db" in err and "Traceback" not in err, err


def test_score_carries_ids_written_as_whole_floats(tmp_path) -> None:
    """Hostile pass 7 (I07): ids 1.0 and 2.0 (as some exports write them) made every row bad input, exit 3."""
    config, src, out = tmp_path / "c.yaml", tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_offline_config(config)
    src.write_text("".join(json.dumps({**_row(1), "id": float(i)}) + "\n" for i in (1, 2)))
    done = _run("reward_engine.score", "--input", src, "--output", out, "--config", config, "--no-progress")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["status"]) for r in rows] == [(1.0, "ok"), (2.0, "ok")]


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


async def test_inspect_never_writes_over_a_score_jobs_record(tmp_path, capsys) -> None:
    """Hostile pass 6 (D7): ``-o SCORES.job.json --overwrite`` replaced the record a resumed score job reads."""
    from knowrl_io.job_output import sidecar
    from reward_engine.config import parse_reward_config
    from reward_engine.score import score_file

    src, scores = _scores(tmp_path)
    scores.unlink()
    await score_file(src, scores, parse_reward_config({"factuality": {"enabled": False}}), progress=False)
    record = sidecar(scores)
    before = record.read_bytes()
    for extra in ([], ["--overwrite"]):
        code, err = _inspect(scores, "-o", record, *extra, capsys=capsys)
        _refused(code, err, record)
        assert "is the job record of" in err
    assert record.read_bytes() == before


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


# -- 3. knowrl.train owns its output_dir --------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"


def _one_line_error(code: int, err: str, *names: str) -> None:
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and all(n in err for n in names), err


@pytest.fixture
def trained(monkeypatch):
    """``knowrl.train``'s CLI with the GRPO run replaced by a stub that records its calls (nothing trains)."""
    import knowrl.train

    calls: list[bool] = []

    def stub(config, resume: bool = False, callbacks=None):  # noqa: ANN001 - grpo.train's signature
        calls.append(resume)
        return {"global_step": 0}

    monkeypatch.setattr(knowrl.train, "train", stub)
    return calls


def _train(capsys, out: Path, *args: str) -> tuple[int, str]:
    from knowrl.train import main

    code = main(
        ["--config", str(SMOKE), f"--set=output_dir={out}", f"--set=reward.factuality.kb_path={out}.kb.db", *args]
    )
    return code, capsys.readouterr().err


def _earlier_run(out: Path) -> None:
    for step in (2, 3):
        (out / f"checkpoint-{step}").mkdir(parents=True)
        (out / f"checkpoint-{step}" / "trainer_state.json").write_text("{}")
    (out / "final").mkdir()
    (out / "final" / "adapter_config.json").write_text("{}")
    (out / "summary.json").write_text("{}")


def test_train_into_an_earlier_runs_output_dir_needs_resume_or_overwrite(tmp_path, capsys, trained) -> None:
    """Old: a new run trained into the folder: save_total_limit rotated the old run's checkpoints away, or a later
    --resume continued the old run's. Now one line naming output_dir and both ways on; nothing is touched."""
    out = tmp_path / "run"
    _earlier_run(out)
    before = sorted(p.name for p in out.iterdir())
    code, err = _train(capsys, out)
    _one_line_error(code, err, f"output_dir {out}", "--resume", "--overwrite", "checkpoint-2")
    assert trained == [] and sorted(p.name for p in out.iterdir()) == before
    code, err = _train(capsys, out, "--resume", "--overwrite")
    _one_line_error(code, err, "--resume", "--overwrite")
    assert _train(capsys, out, "--resume")[0] == 0 and trained == [True]  # continues: nothing removed
    assert sorted(p.name for p in out.iterdir()) == before
    code, err = _train(capsys, out, "--overwrite")
    assert code == 0 and trained == [True, False], err
    assert not list(out.glob("checkpoint-*")) and not (out / "final").exists() and not (out / "summary.json").exists()
    assert _train(capsys, out)[0] == 0  # now empty: a plain run is fine
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _train(capsys, empty)[0] == 0 and _train(capsys, tmp_path / "new")[0] == 0


def test_train_refuses_what_resume_cannot_continue(tmp_path, capsys, trained) -> None:
    """A finished run without checkpoints has nothing to resume; a pipeline config runs every stage again (its
    --resume was ignored, and the old checkpoints rotated away as before): both offer --overwrite only."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "final").mkdir()
    (out / "summary.json").write_text("{}")  # a run's final (a lone final/ is someone's: audit 60 H5)
    code, err = _train(capsys, out, "--resume")
    _one_line_error(code, err, f"output_dir {out}", "nothing to --resume", "--overwrite")
    pipeline = tmp_path / "pipeline"
    _earlier_run(pipeline)
    sft = ROOT / "configs" / "data" / "smoke_sft.json"  # the stage's data: without it, refused first (pass 59)
    code, err = _train(capsys, pipeline, "--resume", "--set=pipeline.cold_start_sft=true", f"--set=data.sft={sft}")
    _one_line_error(code, err, f"output_dir {pipeline}", "--overwrite", "--resume does not continue it")
    assert trained == []


# -- 4. a KB build writes only into a knowledge base ---------------------------------------------------------------
def _build(capsys, *args) -> tuple[int, str]:
    from retrieval.build import main

    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


def test_build_refuses_an_unrelated_sqlite_file_and_rebuilds_its_own(tmp_path, capsys) -> None:
    """Old: the KB's tables were written into another program's database, exit 0."""
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"title": "Paris", "text": "Paris is a city."}) + "\n")
    app = tmp_path / "app.db"
    with sqlite3.connect(app) as conn:
        conn.execute("CREATE TABLE users (id INTEGER, name TEXT)")
        conn.execute("INSERT INTO users VALUES (1, 'ann')")
    conn.close()
    before = app.read_bytes()
    for args in (["--input", docs, "--db", app], ["--from-db", app]):
        code, err = _build(capsys, *args, "--no-dense", "--no-progress")
        _one_line_error(code, err, str(app))
    assert app.read_bytes() == before and not Path(f"{app}-wal").exists()
    kb = tmp_path / "kb.db"
    for _ in range(2):  # its own KB is rebuilt as before
        code, err = _build(capsys, "--input", docs, "--db", kb, "--no-dense", "--no-progress")
        assert code == 0, err
    factscore = tmp_path / "factscore.db"  # FActScore's documents table alone is a knowledge base
    with sqlite3.connect(factscore) as conn:
        conn.execute("CREATE TABLE documents (title PRIMARY KEY, text)")
        conn.execute("INSERT INTO documents VALUES ('Rome', 'Rome is a city.')")
    conn.close()
    assert _build(capsys, "--from-db", factscore, "--no-dense", "--no-progress")[0] == 0


# -- 5. values range-checked, one line naming the key or flag -------------------------------------------------------
@pytest.mark.parametrize(
    "setting,message",
    [
        ("grpo.max_steps=abc", "grpo.max_steps: 'abc' is not a whole number"),
        ("grpo.num_generations=0", "grpo.num_generations must be at least 2, got 0"),
        ("grpo.max_steps=-5", "grpo.max_steps must be -1 (train num_train_epochs instead) or at least 1, got -5"),
        ("grpo.max_steps=0", "grpo.max_steps must be -1"),
        ("grpo.learning_rate=fast", "grpo.learning_rate: 'fast' is not a number"),
        ("sft.max_length=0", "sft.max_length must be at least 1, got 0"),
    ],
)
def test_train_settings_out_of_range_are_one_line(tmp_path, capsys, trained, setting, message) -> None:
    """Old: 'abc' and 0 were tracebacks after the model loaded; -5 trained the epochs' 24 steps (transformers takes
    any max_steps below 1 as -1, "use num_train_epochs": -1 is still accepted)."""
    code, err = _train(capsys, tmp_path / "run", f"--set={setting}")
    _one_line_error(code, err, message)
    assert trained == []
    assert _train(capsys, tmp_path / "ok", "--set=grpo.max_steps=-1")[0] == 0 and trained == [False]


@pytest.mark.parametrize(
    "flags,message",
    [
        (["--max-samples", "0"], "--max-samples must be at least 1"),
        (["--max-new-tokens", "-1"], "--max-new-tokens must be at least 1, got -1"),
        (["--samples", "-2"], "--samples must be 0"),
    ],
)
def test_evaluate_values_out_of_range_are_one_line(tmp_path, capsys, monkeypatch, flags, message) -> None:
    """Old: --max-samples 0 evaluated one row, --max-new-tokens -1 was taken."""
    import knowrl.evaluate

    monkeypatch.setattr(knowrl.evaluate, "_evaluate", lambda args, config: ({"rows": 1}, []))
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(_row(1)) + "\n")
    code = knowrl.evaluate.main(["--model", "tiny", "--data", str(data), "--out", str(tmp_path / "e"), *flags])
    _one_line_error(code, capsys.readouterr().err, message)


# -- 6. a pipe is an input, a directory says so ---------------------------------------------------------------------
def _pipe(data: bytes) -> tuple[str, int]:
    """``/dev/fd/N`` of a pipe holding ``data`` (what ``<(cmd)`` hands a command), and its read end to close."""
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    return f"/dev/fd/{read}", read


def _offline(tmp_path: Path) -> Path:
    config = tmp_path / "c.yaml"
    write_offline_config(config)
    return config


def _job(job: str, path: str, tmp_path: Path, monkeypatch) -> int:
    """Run ``job``'s CLI in this process on the input ``path``."""
    if job == "warm":
        from reward_engine.warm import main

        return main(["--data", path, "--config", str(_offline(tmp_path))])
    if job == "build":
        from retrieval.build import main

        return main(["--input", path, "--db", str(tmp_path / "kb.db"), "--no-dense", "--no-progress"])
    if job == "score":
        from reward_engine.score import main

        return main(["--input", path, "--output", str(tmp_path / "o.jsonl"), "--config", str(_offline(tmp_path)),
                     "--no-progress"])  # fmt: skip
    import knowrl.evaluate
    from knowrl.data import load_rl_rows

    def rows_only(model, adapter, data, *args, **kwargs):  # noqa: ANN001 - the data read as evaluate reads it
        return {"rows": len(load_rl_rows(data)[0])}, []

    monkeypatch.setattr(knowrl.evaluate, "evaluate_model", rows_only)
    return knowrl.evaluate.main(["--model", "tiny", "--data", path, "--out", str(tmp_path / "e")])


ROW_TEXT = {
    "build": json.dumps({"title": "Paris", "text": "Paris is a city."}) + "\n",
    "warm": json.dumps(_row(1)) + "\n" + json.dumps(_row(2)) + "\n",
    "evaluate": json.dumps(_row(1)) + "\n" + json.dumps(_row(2)) + "\n",
    "score": json.dumps(_row(1)) + "\n",
}


@pytest.mark.parametrize("job", ["warm", "evaluate", "build", "score"])
def test_a_process_substitution_input_is_read(tmp_path, capsys, monkeypatch, job) -> None:
    """Old: warm, evaluate and score called ``<(cmd)`` (/dev/fd/N, a pipe) "not found" (or "not a file")."""
    path, fd = _pipe(ROW_TEXT[job].encode())
    try:
        code = _job(job, path, tmp_path, monkeypatch)
    finally:
        os.close(fd)
    out, err = capsys.readouterr()
    assert code == 0, err
    if job in ("warm", "evaluate"):
        report = json.loads(out)
        assert (report["titles"]["rows"] if job == "warm" else report["rows"]) == 2
    elif job == "build":
        assert json.loads(out)["documents"]["added"] == 1, out


@pytest.mark.parametrize("job", ["warm", "evaluate", "build", "score"])
def test_a_directory_input_says_it_is_a_directory(tmp_path, capsys, monkeypatch, job) -> None:
    """Old: "not found" (score, warm), "not a file" (evaluate), a traceback (build)."""
    folder = tmp_path / "inputs"
    folder.mkdir()
    code = _job(job, str(folder), tmp_path, monkeypatch)
    _one_line_error(code, capsys.readouterr().err, f"{folder} is a directory")


# -- 7. the shipped configs cache under KNOWRL_CACHE_DIR -------------------------------------------------------------
def test_every_shipped_config_caches_under_knowrl_cache_dir(tmp_path, monkeypatch) -> None:
    """Old: configs/reward_judge.yaml (and the local judge's, KnowRL's GRPO config) cached under
    ~/.cache/knowrl/judge whatever KNOWRL_CACHE_DIR said."""
    from reward_engine.config import load_reward_config

    cache = tmp_path / "cache"
    monkeypatch.setenv("KNOWRL_CACHE_DIR", str(cache))
    monkeypatch.setenv("KNOWRL_JUDGE_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("KNOWRL_JUDGE_MODEL", "judge")
    checked = []
    for path in sorted((ROOT / "configs").glob("*.yaml")):
        if "cache_dir" not in path.read_text():
            continue
        config = load_reward_config(path)
        dirs = [j.cache_dir for j in (config.judge, *config.judges.values()) if j is not None and j.cache_dir]
        dirs += [config.factuality.cache_dir] if config.factuality.cache_dir else []
        assert dirs and all(Path(d).is_relative_to(cache) for d in dirs), (path, dirs)
        checked.append(path.name)
    assert "reward_judge.yaml" in checked, checked


# -- 8. the test judge stops on SIGTERM while a request hangs --------------------------------------------------------
HANG = ["--fault-rate", "1", "--faults", "hang"]
SLOW = ["--latency-ms", "600000", "--latency-dist", "fixed"]


@pytest.mark.parametrize(
    "how,mode",
    [(["judges/test_server.py"], HANG), (["-m", "judges.test_server"], HANG), (["judges/test_server.py"], SLOW)],
    ids=["script-hang", "module-hang", "script-slow"],
)
def test_the_test_judge_exits_on_sigterm_while_a_request_hangs(how, mode) -> None:
    """Old: SIGTERM waited on the hanging request (aiohttp's 60 s shutdown, then --hang-s): still up 10 s later.
    Now a hang is released at once and a slow reply (--latency-ms) is cut after a short grace."""
    from judges.ports import free_port

    port = free_port()
    args = [sys.executable, *how, "--port", str(port), *mode]
    server = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "test judge on" in server.stdout.readline()
        body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hello"}]}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/chat/completions", body, {"Content-Type": "application/json"}
        )

        def hang() -> None:
            try:
                urllib.request.urlopen(request, timeout=30).read()
            except OSError:
                pass

        threading.Thread(target=hang, daemon=True).start()
        deadline = time.monotonic() + 10
        while json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/stats", timeout=5))["in_flight"] < 1:
            assert time.monotonic() < deadline, "the request never reached the judge"
            time.sleep(0.05)
        sent = time.monotonic()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
        # its own grace is under 1 s; the bound leaves room for a machine busy with other work (1.66 s seen
        # beside a training run), far below the 10 s the old server stayed up
        assert time.monotonic() - sent < 5 and server.returncode is not None
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        server.stdout.close()
        server.stderr.close()


# -- 9. a hostile pass of 30 new cases (round 3's fixes): what it found ----------------------------------------------
def _offline_cli(tmp_path: Path) -> list[str]:
    return ["--config", str(_offline(tmp_path)), "--no-progress"]


@pytest.mark.parametrize("via", ["relative", "absolute"])
def test_an_output_through_a_missing_folder_and_dotdot_is_never_the_input(tmp_path, capsys, monkeypatch, via) -> None:
    """D5. Old: ``--output sub/../in.jsonl --overwrite`` with ``sub/`` missing emptied the input, exit 0 (the
    same-file test ran before ``sub/`` was made, and ``samefile`` failed on it); ``inspect -o sub/../ROWS
    --overwrite`` wrote its HTML over its rows."""
    from reward_engine.score import main as score

    monkeypatch.chdir(tmp_path)
    src, scores = _scores(tmp_path)
    before = {p: p.read_bytes() for p in (src, scores)}
    base = "" if via == "relative" else f"{tmp_path}/"
    output = f"{base}sub/deeper/../../{src.name}"
    code = score(["--input", src.name, "--output", output, "--overwrite", *_offline_cli(tmp_path)])
    err = capsys.readouterr().err
    _refused(code, err, Path(output))
    assert "is the input file" in err
    page = f"{base}nope/../{scores.name}"
    for extra in ([], ["--overwrite"]):
        code, err = _inspect(scores, "-o", page, *extra, capsys=capsys)
        _refused(code, err, Path(page))
        assert "is the input file" in err
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.parametrize("text", ["", "\n\n", "\ufeff"])
def test_score_of_an_input_without_rows_is_no_success(tmp_path, capsys, text) -> None:
    """D5. Old: an input that read as 0 rows (an empty file, blank lines, a BOM alone) printed "rows": 0, exit 0."""
    from reward_engine.score import main as score

    src = tmp_path / "in.jsonl"
    src.write_text(text, encoding="utf-8")
    code = score(["--input", str(src), "--output", str(tmp_path / "o.jsonl"), *_offline_cli(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 3 and json.loads(out)["rows"] == 0, (code, err)
    assert f"error: no row could be scored: --input {src} holds no rows" in err


@pytest.fixture
def evaluated(monkeypatch):
    """``knowrl.evaluate``'s CLI with the evaluation replaced by a stub that counts its calls (nothing loads)."""
    import knowrl.evaluate

    calls: list[int] = []

    def stub(args, config):  # noqa: ANN001 - _evaluate's signature
        calls.append(1)
        return {"n": len(calls)}, []

    monkeypatch.setattr(knowrl.evaluate, "_evaluate", stub)
    return calls


def _evaluate(capsys, data: Path, out: Path | str, *extra: str) -> tuple[int, str]:
    import knowrl.evaluate

    code = knowrl.evaluate.main(["--model", "tiny", "--data", str(data), "--out", str(out), *extra])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("out", ["ev", "ev/missing/.."])
def test_evaluate_never_writes_its_report_over_its_data(tmp_path, capsys, evaluated, out) -> None:
    """D9. Old: ``--data ev/report.json --out ev`` replaced the questions with the report, exit 0."""
    data = tmp_path / "ev" / "report.json"
    data.parent.mkdir()
    data.write_text(json.dumps([{"question": "Capital of France?", "answers": "Paris"}]))
    before = data.read_bytes()
    for extra in ([], ["--overwrite"]):  # --overwrite never lifts this rule
        code, err = _evaluate(capsys, data, tmp_path / out, *extra)
        _one_line_error(code, err, "report.json is the input file", "--out")
    assert data.read_bytes() == before and evaluated == [] and not (tmp_path / "ev" / "report.md").exists()


def test_evaluate_replaces_an_earlier_report_only_with_overwrite(tmp_path, capsys, evaluated) -> None:
    """D9. Old: a second evaluation into the same --out replaced the first's report without a word."""
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(_row(1)) + "\n")
    out = tmp_path / "ev"
    assert _evaluate(capsys, data, out)[0] == 0 and evaluated == [1]
    first = {name: (out / name).read_bytes() for name in ("report.json", "report.md")}
    assert json.loads(first["report.json"])["metrics"] == {"n": 1}
    code, err = _evaluate(capsys, data, out)
    _one_line_error(code, err, f"--out {out / 'report.json'} exists", "--overwrite")
    assert evaluated == [1] and {name: (out / name).read_bytes() for name in first} == first  # refused up front
    assert _evaluate(capsys, data, out, "--overwrite")[0] == 0 and evaluated == [1, 1]
    assert json.loads((out / "report.json").read_text())["metrics"] == {"n": 2}
    other = tmp_path / "other"
    other.mkdir()
    (other / "report.md").write_text("# my notes\n")  # someone's file of that name
    code, err = _evaluate(capsys, data, other)
    _one_line_error(code, err, f"--out {other / 'report.md'} exists")
    assert (other / "report.md").read_text() == "# my notes\n" and not (other / "report.json").exists()


@pytest.mark.parametrize("value", ['""', "''", '"   "'])
def test_an_empty_output_dir_is_a_config_error(value) -> None:
    """D10. Old: ``--set 'output_dir=""'`` resolved to the config's own folder: the run trained into configs/."""
    from knowrl.config import ConfigError, load_train_config

    with pytest.raises(ConfigError) as caught:
        load_train_config(SMOKE, [f"output_dir={value}"])
    message = str(caught.value)
    assert "output_dir is empty" in message and "\n" not in message, message


def test_a_kb_edited_in_place_is_another_content_version(tmp_path) -> None:
    """S1. Old: ``UPDATE passages SET text = ...`` kept every id, so the content version (a fingerprint of ids)
    stayed: a rerun kept the rows scored against text that no longer existed ("already_scored")."""
    from retrieval.build import build
    from retrieval.kb import check_kb, content_version
    from retrieval.sources import Document

    db = tmp_path / "kb.db"
    build(db, [Document("Town", "Town has a stone bridge built in 1803.")], progress=False, dense_index=False)
    before = check_kb(db, "bm25")
    assert content_version(db) == before  # read again: the same (from the memo)
    time.sleep(0.05)  # the stat key's clock: an edit is a later write
    with sqlite3.connect(db) as conn:  # same length: the file's size does not change
        conn.execute("UPDATE passages SET text = replace(text, '1803', '1999')")
    conn.close()
    after = check_kb(db, "bm25")
    assert after != before and after.startswith("kb:")


async def test_a_rerun_against_a_kb_edited_in_place_is_refused(tmp_path) -> None:
    """S1 through the score job: the output's rows were scored against the old text."""
    from knowrl_io.job_output import OutputError
    from retrieval.build import build
    from retrieval.sources import Document
    from reward_engine.config import parse_reward_config
    from reward_engine.score import score_file

    db = tmp_path / "kb.db"
    build(db, [Document("Town", "Town has a stone bridge built in 1803.")], progress=False, dense_index=False)
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({**_row(1), "title": "Town"}) + "\n")
    config = parse_reward_config({"factuality": {"kb_path": str(db), "retrieval_mode": "bm25"}})
    assert (await score_file(src, out, config, progress=False))["statuses"] == {"ok": 1}
    time.sleep(0.05)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE passages SET text = replace(text, '1803', '1999')")
    conn.close()
    with pytest.raises(OutputError, match="scored against another version of the knowledge base"):
        await score_file(src, out, config, progress=False)


P3_ROWS = '{"question": "q"}\nnot json\n{"answers": "x"}\n'


@pytest.mark.parametrize("flag,text", [("--data", P3_ROWS), ("--completions", P3_ROWS), ("--data", "")])
def test_warm_with_no_usable_row_exits_3_and_names_the_bad_rows(tmp_path, flag, text) -> None:
    """P3. Old: exit 0 ("rows 0, bad_rows 3"); --completions did not even count its bad rows."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text(text)
    done = _run("reward_engine.warm", flag, rows, "--config", _offline(tmp_path), timeout=120)
    assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert f"error: no usable row in {flag} {rows}" in done.stderr
    report = json.loads(done.stdout)[{"--data": "titles", "--completions": "completions"}[flag]]
    assert report == {**report, "rows": 0, "bad_rows": 3 if text else 0}
    if text:
        assert all(f"{rows}:{line}" in done.stderr for line in (1, 2, 3)), done.stderr


def test_warm_completions_counts_bad_rows_beside_the_good(tmp_path, capsys) -> None:
    """P3. A partly bad --completions file warms the good rows (exit 0) and says how many were bad."""
    from reward_engine.warm import main as warm

    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(_row(1)) + "\n" + P3_ROWS)
    assert warm(["--completions", str(rows), "--config", str(_offline(tmp_path))]) == 0
    assert json.loads(capsys.readouterr().out)["completions"] == {"rows": 1, "bad_rows": 3}


@pytest.mark.parametrize(
    "flags,message",
    [
        (["--max-tokens", "0"], "argument --max-tokens: must be at least 1, got 0"),
        (["--max-tokens", "-5"], "argument --max-tokens: must be at least 1, got -5"),
        (["--max-tokens", "ten"], "argument --max-tokens: must be a whole number, got 'ten'"),
        (["--flat-max", "-1"], "argument --flat-max: must be at least 0, got -1"),
    ],
)
def test_build_values_out_of_range_are_refused(tmp_path, capsys, flags, message) -> None:
    """N2. Old: --max-tokens -5 built one word per passage (max_tokens -5 in the KB's meta), exit 0."""
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"title": "Paris", "text": "Paris is a city."}) + "\n")
    with pytest.raises(SystemExit) as caught:
        _build(capsys, "--input", docs, "--db", tmp_path / "kb.db", "--no-dense", "--no-progress", *flags)
    assert caught.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "kb.db").exists()
    assert _build(capsys, "--input", docs, "--db", tmp_path / "kb.db", "--no-dense", "--no-progress",
                  "--flat-max", "0", "--max-tokens", "1")[0] == 0  # fmt: skip


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_serve_refuses_an_unscored_reward_that_is_no_number(tmp_path, capsys, value) -> None:
    """N2. Old: --unscored-reward nan started the server: NaN rewards for OpenRLHF for every unscored completion."""
    from reward_engine.serve import main as serve

    with pytest.raises(SystemExit) as caught:
        serve(["--config", str(tmp_path / "never-read.yaml"), "--port", "0", f"--unscored-reward={value}"])
    assert caught.value.code == 2
    assert f"--unscored-reward must be a finite number, got {float(value)}" in capsys.readouterr().err
