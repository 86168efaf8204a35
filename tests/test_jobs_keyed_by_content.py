"""Jobs keyed by content, and what a job needs checked before its first row (#74 points 3 and 4, #75 point 2).

Real knowledge bases built by ``python -m retrieval.build``, real ``python -m reward_engine.score`` and
``python -m reward_engine.warm`` processes, the project's test judge on 127.0.0.1.

- A KB rebuilt with other text (or a FActScore/KnowRL ``documents``-only DB edited) is another job: the old rows
  are not resumed (they were kept as ``already_scored``); ``--overwrite`` scores them again.
- ``--input -`` is keyed by what was read: another stdin is refused like another file (it replaced 3 rows with 1).
- A document removed from the build input leaves the rebuilt KB.
- A ``kb_path`` that is not a KB, a KB without the dense index its retrieval mode needs (a --no-dense or an
  interrupted build), a custom source without the mode or without its file, a judge that is not up: one line
  naming the config key, exit 2, before any row (they failed row by row with wrong advice and exit 0).
- ``--max-error-share``: too many failed rows exit 4 after every row is written (exit 0 before).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.helpers import jsonl, score_command

REPO = Path(__file__).resolve().parents[1]

DOCS = [
    {
        "title": "Paris",
        "text": "Paris is the capital and largest city of France. The Eiffel Tower in Paris was "
        "completed in 1889 for the World's Fair.",
    },
    {"title": "Tokyo", "text": "Tokyo is the capital of Japan and its largest city."},
]
CHANGED = [{**DOCS[0], "text": "Paris is the capital of France. The Louvre is a museum in Paris."}, DOCS[1]]
ROWS = [
    {
        "id": "a",
        "question": "What is the capital of France?",
        "answers": "Paris",
        "title": "Paris",
        "completion": "<think>The Eiffel Tower in Paris was completed in 1889.</think><answer>Lyon</answer>",
    },
    {
        "id": "b",
        "question": "What is the capital of Japan?",
        "answers": "Tokyo",
        "title": "Tokyo",
        "completion": "<think>Tokyo is the capital of Japan.</think><answer>Tokyo</answer>",
    },
    {
        "id": "c",
        "question": "What is the capital of Japan?",
        "answers": "Tokyo",
        "completion": "<think>Unsure.</think><answer>I don't know</answer>",
    },
]


def run(module: str, *args: object, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", module, *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        env={**os.environ, "OMP_NUM_THREADS": "1", **(env or {})},
    )


def build_kb(tmp_path: Path, db: Path, docs: list[dict], *extra: str) -> Path:
    built = run("retrieval.build", "--input", jsonl(tmp_path / "docs.jsonl", docs), "--db", db, "--no-progress", *extra)
    assert built.returncode == 0, built.stderr
    return db


def config(tmp_path: Path, name: str = "reward.yaml", **factuality: object) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump({"factuality": factuality}))
    return path


def score(src: Path | str, out: Path, cfg: Path, *extra: object, stdin: str | None = None, env=None):
    return run(
        "reward_engine.score",
        "--input",
        src,
        "--output",
        out,
        "--config",
        cfg,
        "--no-progress",
        *extra,
        stdin=stdin,
        env=env,
    )


def summary(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout[proc.stdout.index("{") :])


def one_line_error(proc: subprocess.CompletedProcess, *needles: str) -> str:
    """Exit 2 with one ``error:`` line holding every needle, and no traceback."""
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-3000:])
    assert len(errors) == 1 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])
    return errors[0]


# -- A(i): the KB's content, not its path, keys the job ---------------------------------------------------------------
def test_a_kb_rebuilt_with_other_text_is_not_resumed_from_its_old_rows(tmp_path):
    db = build_kb(tmp_path, tmp_path / "kb.db", DOCS, "--no-dense")
    cfg = config(tmp_path, kb_path=str(db), retrieval_mode="bm25")
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"
    first = summary(score(src, out, cfg))
    assert first["statuses"] == {"ok": 3}
    assert summary(score(src, out, cfg))["already_scored"] == 3  # the same KB: resumed
    scored = out.read_bytes()

    build_kb(tmp_path, db, CHANGED, "--no-dense")  # the same path, other text
    refused = score(src, out, cfg)
    one_line_error(refused, "another version of the knowledge base", "--overwrite")
    assert out.read_bytes() == scored  # nothing mixed, nothing dropped

    again = summary(score(src, out, cfg, "--overwrite"))
    assert again["already_scored"] == 0 and again["statuses"] == {"ok": 3}
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["claims"][0]["supported"] is False  # 1889 is no longer in the KB: scored against the new text
    assert summary(score(src, out, cfg))["already_scored"] == 3  # and the rebuilt KB's rows resume


def test_an_output_scored_before_kbs_were_versioned_is_not_resumed_blindly(tmp_path):
    """A sidecar written before this change holds the config's fingerprint alone: whether the KB changed since
    cannot be known, so the rerun is refused with a line that says why (not resumed as it was)."""
    from reward_engine.config import load_reward_config

    db = build_kb(tmp_path, tmp_path / "kb.db", DOCS, "--no-dense")
    cfg = config(tmp_path, kb_path=str(db), retrieval_mode="bm25")
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"
    summary(score(src, out, cfg))
    legacy = {"job": "reward_engine.score", "settings": load_reward_config(cfg).fingerprint(), "input": str(src)}
    (tmp_path / "scored.jsonl.job.json").write_text(json.dumps(legacy))
    one_line_error(score(src, out, cfg), "before jobs were keyed by the knowledge base's content", "--overwrite")
    assert summary(score(src, out, cfg, "--overwrite"))["statuses"] == {"ok": 3}


def test_a_config_without_a_kb_keeps_its_fingerprint():
    from reward_engine.config import parse_reward_config
    from reward_engine.job import job_fingerprint

    plain = parse_reward_config({"factuality": {"enabled": False}})
    assert job_fingerprint(plain, None) == plain.fingerprint()
    with_kb = parse_reward_config({"factuality": {"kb_path": "/x/kb.db"}})
    assert len({job_fingerprint(with_kb, "kb:1"), job_fingerprint(with_kb, "kb:2"), with_kb.fingerprint()}) == 3


def test_a_documents_only_db_opens_as_is_and_is_keyed_by_its_documents(tmp_path):
    """KnowRL's released knowledge_base.db is FActScore's ``documents(title, text)`` alone: no version stored, so
    one is computed from its documents (once per state of the file); an edited document is another KB."""
    db = tmp_path / "knowledge_base.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE documents (title PRIMARY KEY, text)")
        conn.executemany("INSERT INTO documents VALUES (?, ?)", [(d["title"], d["text"]) for d in DOCS])
    cfg = config(tmp_path, kb_path=str(db))
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"
    assert summary(score(src, out, cfg))["statuses"] == {"ok": 3}
    assert summary(score(src, out, cfg))["already_scored"] == 3
    with sqlite3.connect(db) as conn:  # opened as-is: our job never wrote into it
        assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} == {"documents"}
        conn.execute("UPDATE documents SET text = ? WHERE title = 'Paris'", (CHANGED[0]["text"],))
    one_line_error(score(src, out, cfg), "another version of the knowledge base")


# -- A(ii): standard input is keyed by what was read -------------------------------------------------------------------
def test_a_different_stdin_is_refused_like_a_different_file(tmp_path):
    cfg = config(tmp_path, enabled=False)
    out = tmp_path / "scored.jsonl"
    first, other = "".join(json.dumps(r) + "\n" for r in ROWS), json.dumps(ROWS[1]) + "\n"
    assert summary(score("-", out, cfg, stdin=first))["rows"] == 3
    assert summary(score("-", out, cfg, stdin=first))["already_scored"] == 3  # the same stdin resumes
    scored = out.read_bytes()

    one_line_error(score("-", out, cfg, stdin=other), "another standard input", "--overwrite")
    assert out.read_bytes() == scored  # 3 rows were replaced by 1, exit 0

    # a run that was interrupted recorded no digest of its stdin: the rows it wrote must match the new stdin's
    record = json.loads((tmp_path / "scored.jsonl.job.json").read_text())
    record.pop("stdin_digest")
    (tmp_path / "scored.jsonl.job.json").write_text(json.dumps(record))
    one_line_error(score("-", out, cfg, stdin=other), "another standard input")
    assert out.read_bytes() == scored
    assert summary(score("-", out, cfg, stdin=first))["already_scored"] == 3

    replaced = summary(score("-", out, cfg, "--overwrite", stdin=other))
    assert replaced["rows"] == 1 and len(out.read_text().splitlines()) == 1


# -- A(iii): a rebuild is the input's content --------------------------------------------------------------------------
def test_ingest_replace_drops_documents_the_input_no_longer_has(tmp_path):
    from retrieval.chunking import Chunker
    from retrieval.schema import connect, create_schema
    from retrieval.sources import Document
    from retrieval.store import ingest, sync_passages

    conn = connect(tmp_path / "kb.db")
    create_schema(conn)
    ingest(conn, [Document(d["title"], d["text"]) for d in DOCS], Chunker(), progress=False)
    sync_passages(conn, progress=False)
    report = ingest(conn, [Document("Tokyo", DOCS[1]["text"])], Chunker(), progress=False, replace=True)
    synced = sync_passages(conn, progress=False)
    assert report.unchanged == 1 and synced.documents_removed == 1
    assert [r[0] for r in conn.execute("SELECT title FROM documents")] == ["Tokyo"]
    assert {r[0] for r in conn.execute("SELECT title FROM passages")} == {"Tokyo"}
    conn.close()


def test_a_document_removed_from_the_build_input_leaves_the_rebuilt_kb(tmp_path):
    db = build_kb(tmp_path, tmp_path / "kb.db", DOCS, "--no-dense")
    build_kb(tmp_path, db, DOCS[1:], "--no-dense")
    with sqlite3.connect(db) as conn:
        assert [r[0] for r in conn.execute("SELECT title FROM documents")] == ["Tokyo"]
        assert {r[0] for r in conn.execute("SELECT title FROM passages")} == {"Tokyo"}


# -- B: what a job needs, checked before the first row --------------------------------------------------------------
def not_a_kb(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.db"
    if kind == "text":  # /etc/passwd
        path.write_text("root:x:0:0:root:/root:/bin/bash\n")
    elif kind == "other-sqlite":
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    else:  # a documents table that is not FActScore's
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE documents (id INTEGER PRIMARY KEY, body TEXT)")
            conn.execute("INSERT INTO documents(body) VALUES ('x')")
    return path


@pytest.mark.parametrize("job", ["score", "warm"])
@pytest.mark.parametrize("kind", ["text", "other-sqlite", "other-documents"])
def test_a_kb_path_that_is_not_a_kb_is_one_line_before_any_row(tmp_path, kind, job):
    cfg = config(tmp_path, kb_path=str(not_a_kb(tmp_path, kind)))
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"
    if job == "score":
        proc = score(src, out, cfg)
    else:
        proc = run("reward_engine.warm", "--data", src, "--config", cfg)
    one_line_error(proc, "factuality.kb_path", "not a knowledge base")
    assert not out.exists()


def interrupted_build(tmp_path: Path) -> Path:
    """A build killed while embedding: passages and BM25 in, the embedding model recorded, no index written."""
    db = build_kb(tmp_path, tmp_path / "kb.db", DOCS, "--no-dense")
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO meta(key, value) VALUES ('embedding_model', ?)", (json.dumps("minilm"),))
    return db


def half_written_index(tmp_path: Path) -> Path:
    """A build killed while writing the index: an empty FAISS file and no manifest beside the KB."""
    db = build_kb(tmp_path, tmp_path / "kb.db", DOCS, "--no-dense")
    (tmp_path / "kb.faiss").write_bytes(b"")
    return db


@pytest.mark.parametrize("job", ["score", "warm"])
@pytest.mark.parametrize(
    ("state", "needle"),
    [("no-dense", "built with --no-dense"), ("interrupted", "interrupted"), ("half-index", "incomplete")],
)
def test_a_kb_without_the_index_its_mode_needs_is_one_line_before_any_row(tmp_path, state, needle, job):
    if state == "no-dense":
        db = build_kb(tmp_path, tmp_path / "kb.db", DOCS, "--no-dense")
    else:
        db = interrupted_build(tmp_path) if state == "interrupted" else half_written_index(tmp_path)
    cfg = config(tmp_path, kb_path=str(db))  # retrieval_mode: hybrid, the default
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"
    if job == "score":
        proc = score(src, out, cfg)
    else:
        proc = run("reward_engine.warm", "--completions", src, "--config", cfg)
    line = one_line_error(proc, "factuality.kb_path", needle, f"retrieval.build --from-db {db}")
    if state != "half-index":
        assert "factuality.retrieval_mode: bm25" in line
    assert not out.exists()


SOURCE = '''
import json
from pathlib import Path

from retrieval.kb import Hit, Passage, SearchResult, split_titles


class JsonlSource:
    """A knowledge source over a JSONL of {title, text}, as a user writes one from docs/architecture.md."""

    def __init__(self, path):
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        self.passages = [Passage(i, r["title"], r["text"]) for i, r in enumerate(map(json.loads, lines), 1)]

    version = property(lambda self: "jsonl-1")
    modes = property(lambda self: ("bm25",))

    def search(self, query, titles=None, k=5, mode="hybrid", query_vector=None):
        wanted = split_titles(titles)
        pool = [p for p in self.passages if p.title in wanted] or self.passages
        words = set(query.lower().split())
        ranked = sorted(pool, key=lambda p: -len(words & set(p.text.lower().split())))[:k]
        hits = [Hit(p, 1.0, {"bm25": rank}) for rank, p in enumerate(ranked, 1)]
        return SearchResult(hits, mode, "titles" if wanted else "global")

    def title_passages(self, titles, limit):
        found = [p for p in self.passages if p.title in split_titles(titles)]
        return found if 0 < len(found) <= limit else None

    def encode_queries(self, queries):
        return [None] * len(queries)

    def title_passage_ids(self, titles):
        found = [t for t in titles if any(p.title == t for p in self.passages)]
        ids = [p.id for p in self.passages if p.title in found]
        return ids, found, [t for t in titles if t not in found]

    def get_passages(self, ids):
        return {p.id: p for p in self.passages if p.id in set(ids)}

    def close(self):
        pass
'''


@pytest.mark.parametrize("job", ["score", "warm"])
def test_a_custom_source_is_checked_before_any_row(tmp_path, job):
    (tmp_path / "my_source.py").write_text(SOURCE)
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO), os.environ.get("PYTHONPATH", "")])}
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"
    docs = jsonl(tmp_path / "docs.jsonl", DOCS)

    def go(cfg: Path) -> subprocess.CompletedProcess:
        if job == "score":
            return score(src, out, cfg, env=env)
        return run("reward_engine.warm", "--completions", src, "--config", cfg, env=env)

    spec = "my_source:JsonlSource"
    hybrid = config(tmp_path, "h.yaml", source=spec, source_options={"path": str(docs)})  # hybrid, the default
    one_line_error(go(hybrid), "factuality.retrieval_mode 'hybrid'", f"factuality.source '{spec}'", "['bm25']")
    missing = config(
        tmp_path, "m.yaml", source=spec, source_options={"path": str(tmp_path / "gone.jsonl")}, retrieval_mode="bm25"
    )
    one_line_error(go(missing), f"factuality.source '{spec}' cannot be opened", "FileNotFoundError")
    assert not out.exists()
    fine = config(tmp_path, "f.yaml", source=spec, source_options={"path": str(docs)}, retrieval_mode="bm25")
    done = go(fine)
    assert done.returncode == 0, done.stderr[-3000:]
    if job == "score":
        assert summary(done)["statuses"] == {"ok": 3}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("job", ["score", "warm"])
def test_a_judge_that_is_not_up_is_one_line_before_any_row(tmp_path, job):
    port = free_port()
    cfg = tmp_path / "judge.yaml"
    judge = {"endpoints": [{"base_url": f"http://127.0.0.1:{port}/v1", "model": "m"}], "max_attempts": 1}
    cfg.write_text(yaml.safe_dump({"grader": "llm", "judge": judge, "factuality": {"enabled": False}}))
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"
    if job == "score":
        proc = score(src, out, cfg, "--passes", "1")
    else:
        proc = run("reward_engine.warm", "--completions", src, "--config", cfg)
    one_line_error(proc, "judge: no endpoint accepts a connection", f"127.0.0.1:{port}")
    assert not out.exists()


async def test_too_many_failed_rows_exit_4_after_every_row_is_written(tmp_path, server):
    """28 of 40 rows in error exited 0; now every row is written and the exit code tells a pipeline."""
    server.config.fault_rate, server.config.faults = 0.7, ("500",)
    rows = [
        {
            "id": i,
            "question": f"What is {i} plus {i}?",
            "answers": str(2 * i),
            "completion": f"<think>Adding.</think><answer>{2 * i}</answer>",
        }
        for i in range(40)
    ]
    src = jsonl(tmp_path / "in.jsonl", rows)
    judge = {"endpoints": [{"base_url": server.url, "model": "m"}], "max_attempts": 1, "breaker_failures": 1000}
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({"grader": "llm", "judge": judge, "factuality": {"enabled": False}}))

    async def score_async(out: Path, *extra: str) -> tuple[int, str, str]:
        proc = await asyncio.create_subprocess_exec(
            *score_command(src, out, cfg, "--passes", "1", *extra),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=REPO,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
        )
        stdout, stderr = await asyncio.wait_for(proc.communicate(), 300)
        return proc.returncode, stdout.decode(), stderr.decode()

    code, stdout, stderr = await score_async(tmp_path / "a.jsonl")
    written = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert [r["line"] for r in written] == list(range(1, 41))  # every row written
    failed = sum(r["status"] == "error" for r in written)
    assert 0 < failed < 40 and failed / 40 > 0.1
    assert code == 4, stderr[-3000:]
    assert f"{failed} of 40 rows failed" in stderr and "--max-error-share 0.1" in stderr
    assert json.loads(stdout[stdout.index("{") :])["statuses"]["error"] == failed  # the summary is printed

    code, _, stderr = await score_async(tmp_path / "b.jsonl", "--max-error-share", "1")
    assert code == 0, stderr[-3000:]
    code, _, stderr = await score_async(tmp_path / "c.jsonl", "--max-error-share", "1.5")
    assert code == 2 and "--max-error-share" in stderr
