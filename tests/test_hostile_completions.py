"""Hostile input, round 2 (issue #44): what a policy can write never stalls a step, and gold answers that
cannot be graded are bad rows, not silent wrong rewards."""

from __future__ import annotations

import random
import re
import time

import pytest

from reward_engine.completion import FORMAT_RE, _blocks, _well_formed, parse, with_think
from reward_engine.config import parse_reward_config
from reward_engine.engine import RewardEngine, Sample
from tests.helpers import write_jsonl, write_offline_config


def test_linear_parse_reads_every_completion_as_the_format_regex_does() -> None:
    """The string-search parser agrees with KnowRL's format regex (and the answer-block regex) on tag soup."""
    pieces = ["<think>", "</think>", "<answer>", "</answer>", " ", "x", "\n", "a b", "<THINK>", "\u00a0"]
    rng = random.Random(0)
    for _ in range(50_000):
        text = with_think("".join(rng.choice(pieces) for _ in range(rng.randint(1, 10))).strip())
        match = FORMAT_RE.match(text)
        assert _well_formed(text) == ((match.group(1).strip(), match.group(2).strip()) if match else None), text
        assert _blocks(text) == re.findall(r"<answer>(.*?)</answer>", text, re.DOTALL), text


HOSTILE = {
    "20k-answer-openers": "<think>x</think>" + "<answer>" * 20_000,
    "200k-newlines-in-answer": "<think>Hmm.</think><answer>Lyon" + "\n" * 200_000 + "x</answer>",
    "100k-newlines-in-think": "<think>The tower." + "\n" * 100_000 + "</think><answer>Lyon</answer>",
    "10MB-reasoning": "<think>" + "Lyon is a city. " * 600_000 + "</think><answer>Lyon</answer>",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
async def test_a_hostile_completion_is_scored_inside_the_step_budget(kb, name: str) -> None:
    """These took 21-51 s against a 5 s budget (quadratic regexes in parse, run on the event loop)."""
    budget = 5.0
    config = parse_reward_config(
        {"factuality": {"kb_path": "given", "retrieval_mode": "bm25"}, "step_timeout_s": budget}
    )
    async with RewardEngine(config, kb=kb) as engine:
        started = time.perf_counter()
        (result,) = await engine.score([Sample("What is the capital of France?", HOSTILE[name], "Paris", "Paris")])
        elapsed = time.perf_counter() - started
    assert elapsed < budget + 1.0
    assert result.status == "ok" and result.total is not None


@pytest.mark.parametrize(
    ("answers", "status", "label"),
    [
        ([2], "ok", "CORRECT"),  # a number is the gold "2" (was graded against no gold: INCORRECT)
        (2, "ok", "CORRECT"),
        (["", " "], "bad_input", None),
        ("; |", "bad_input", None),
        (";".join(f"alias {i}" for i in range(300)), "bad_input", None),
    ],
)
async def test_gold_answers_are_validated(answers, status: str, label: str | None) -> None:
    config = parse_reward_config({"factuality": {"enabled": False}})
    async with RewardEngine(config) as engine:
        (result,) = await engine.score(
            [Sample("How many moons does Mars have?", "<think>Two.</think><answer>2</answer>", answers)]
        )
    assert (result.status, result.label) == (status, label)
    if status == "bad_input":
        assert result.total is None and "gold" in result.error
    assert parse("<think>Two.</think><answer>2</answer>").answer == "2"


class _Planted:
    """What an attacker with write access to a shared cache directory plants: unpickling runs a command."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        import os

        return (os.system, (f"touch {self.marker}",))


def test_a_planted_pickle_in_the_judge_cache_never_runs(tmp_path) -> None:
    """The judge's disk cache stores JSON; an entry pickled into its directory reads as a miss, unrun."""
    import diskcache

    from reward_engine.judge.cache import JudgeCache

    marker = tmp_path / "ran"
    with diskcache.Cache(str(tmp_path / "cache")) as raw:  # diskcache's default disk pickles objects
        raw.set("planted", _Planted(str(marker)))
        raw.set("old-text", "a reply cached as raw text by an older version")
    cache = JudgeCache(tmp_path / "cache")
    try:
        assert cache.get("planted") is None and not marker.exists()
        assert cache.get("old-text") is None
        cache.set("reply", {"text": "B", "tokens": [1, 2]})
        cache.flush()
    finally:
        cache.close()
    again = JudgeCache(tmp_path / "cache")
    try:
        assert again.get("reply") == {"text": "B", "tokens": [1, 2]}
    finally:
        again.close()


def _eleven() -> list[dict]:
    return [
        {
            "id": f"r{i}",
            "question": "Capital of France?",
            "answers": "Paris",
            "completion": "<think>x.</think><answer>Paris</answer>",
        }
        for i in range(11)
    ]


async def test_a_json_array_on_one_line_keeps_every_row(tmp_path) -> None:
    """``json.dump`` writes an array on one line: every element was line 1 and the output kept only the last."""
    import json

    from reward_engine.score import score_file

    src, out = tmp_path / "in.json", tmp_path / "out.jsonl"
    src.write_text(json.dumps(_eleven()))
    config = parse_reward_config({"factuality": {"enabled": False}})
    await score_file(src, out, config, progress=False)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == [f"r{i}" for i in range(11)] and {r["status"] for r in rows} == {"ok"}


async def test_jsonl_whose_first_line_is_a_list_is_still_jsonl(tmp_path) -> None:
    """Its first line was taken for a whole JSON array: 1 row out, the other 10 ignored."""
    import json

    from reward_engine.score import score_file

    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("[1, 2]\n" + "".join(json.dumps(r) + "\n" for r in _eleven()[:10]))
    config = parse_reward_config({"factuality": {"enabled": False}})
    await score_file(src, out, config, progress=False)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 11 and rows[0]["status"] == "bad_input" and "in.jsonl:1: expected an object" in rows[0]["error"]
    assert [r["id"] for r in rows[1:]] == [f"r{i}" for i in range(10)]


def test_build_reads_a_jsonl_led_by_an_empty_list(tmp_path) -> None:
    import json

    from retrieval.sources import BadRow, read_documents

    src = tmp_path / "docs.jsonl"
    src.write_text("[]\n" + "".join(json.dumps({"title": f"T{i}", "text": f"Text {i}."}) + "\n" for i in range(3)))
    rows = [doc for _, doc in read_documents(src)]
    assert isinstance(rows[0], BadRow) and [d.title for d in rows[1:]] == ["T0", "T1", "T2"]


def test_a_kb_built_again_with_other_text_is_a_new_version(tmp_path, embedder) -> None:
    """Deleted and rebuilt with other text but as many passages: the old evidence and FAISS index were reused
    (the version was a fingerprint of passage ids; dense sync added 0, rebuilt nothing)."""
    from retrieval.build import build
    from retrieval.kb import KnowledgeBase
    from retrieval.sources import Document

    db = tmp_path / "kb.db"
    first = build(db, [Document("Paris", "Paris is the capital of France.")], progress=False, embedder=embedder)
    with KnowledgeBase(db, embedder=embedder) as kb:
        before = kb.version
    db.unlink()  # the FAISS index and manifest beside it stay
    again = build(db, [Document("Lyon", "Lyon lies on the Rhone.")], progress=False, embedder=embedder)
    with KnowledgeBase(db, embedder=embedder) as kb:
        after = kb.version
        (hit,) = kb.search("Rhone", k=1, mode="dense").hits
    assert first.dense["added"] == again.dense["added"] == 1 and again.dense["rebuilt"]
    assert before != after and "Rhone" in hit.passage.text


def test_a_kb_path_with_a_hash_opens_that_file(tmp_path, kb_path) -> None:
    """``kb#1.db`` went into an SQLite URI unescaped: it opened (and created) ``kb``."""
    import shutil

    from retrieval.kb import KnowledgeBase

    odd = tmp_path / "kb#1.db"
    shutil.copy(kb_path, odd)
    with KnowledgeBase(odd) as kb:
        assert kb.search("Eiffel Tower", k=1, mode="bm25").hits
    assert not (tmp_path / "kb").exists() and all(p.name.startswith("kb#1.db") for p in tmp_path.iterdir())


async def test_an_input_named_like_the_sidecar_is_refused_not_replaced(tmp_path) -> None:
    import json

    from knowrl_io.job_output import OutputError
    from reward_engine.score import score_file

    out = tmp_path / "out.jsonl"
    src = tmp_path / "out.jsonl.job.json"  # the job's own record file for out.jsonl
    src.write_text("".join(json.dumps(r) + "\n" for r in _eleven()[:10]))
    before = src.read_bytes()
    with pytest.raises(OutputError, match="record file"):
        await score_file(src, out, parse_reward_config({"factuality": {"enabled": False}}), progress=False)
    assert src.read_bytes() == before


async def test_an_output_made_for_another_input_is_refused_not_truncated(tmp_path) -> None:
    import json

    from knowrl_io.job_output import OutputError
    from reward_engine.score import score_file

    config = parse_reward_config({"factuality": {"enabled": False}})
    first, second, out = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "out.jsonl"
    first.write_text("".join(json.dumps(r) + "\n" for r in _eleven()[:10]))
    second.write_text("".join(json.dumps(r) + "\n" for r in _eleven()[:2]))
    await score_file(first, out, config, progress=False)
    kept = out.read_bytes()
    with pytest.raises(OutputError, match="made for the input"):
        await score_file(second, out, config, progress=False)
    assert out.read_bytes() == kept and len(kept.splitlines()) == 10


async def test_an_output_that_is_not_a_regular_file_is_refused(tmp_path) -> None:
    import json
    import os

    from knowrl_io.job_output import OutputError
    from reward_engine.score import score_file

    src, fifo = tmp_path / "in.jsonl", tmp_path / "out.fifo"
    src.write_text(json.dumps(_eleven()[0]) + "\n")
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="not a regular file"):
        await score_file(src, fifo, parse_reward_config({"factuality": {"enabled": False}}), progress=False)


def test_build_from_db_never_overwrites_an_existing_db(tmp_path, kb_path) -> None:
    import os
    import shutil
    import subprocess
    import sys

    target = tmp_path / "notes.txt"
    target.write_text("not a knowledge base, and not yours to replace")
    cmd = [sys.executable, "-m", "retrieval.build", "--from-db", str(kb_path), "--db", str(target), "--no-dense"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "--overwrite" in done.stderr and target.read_text().startswith("not a")
    own, link = tmp_path / "own.db", tmp_path / "link.db"
    shutil.copy(kb_path, own)  # the session's KB stays as it is
    os.link(own, link)  # the same file under two names: updated in place, no traceback
    done = subprocess.run(
        [*cmd[:3], "--from-db", str(own), "--db", str(link), "--no-dense", "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("grader: offline\nverifier: offline\ngrader: llm\n", "key 'grader' given twice (first on line 1)"),
        ("a: " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
        (b"grader: caf\xe9\n", ":1: not valid UTF-8"),
    ],
)
def test_a_bad_config_is_one_line_naming_the_file(tmp_path, text, message: str) -> None:
    from reward_engine.config import ConfigError, load_yaml

    path = tmp_path / "c.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ConfigError) as caught:
        load_yaml(path)
    assert message in str(caught.value) and str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_a_template_that_never_ends_is_refused() -> None:
    from reward_engine.prompts.files import TemplateError, load_template

    with pytest.raises(TemplateError, match="larger than"):
        load_template("grader", "/dev/zero")


def test_the_local_judge_refuses_a_port_out_of_range(capsys) -> None:
    from judges.local import main

    with pytest.raises(SystemExit) as caught:
        main(["--port", "99999"])
    assert caught.value.code == 2 and "outside 1-65535" in capsys.readouterr().err


def test_output_lines_and_summaries_are_strict_json() -> None:
    """``Infinity`` in a summary is not JSON: non-finite numbers are written as null."""
    import json

    from knowrl_io.jsonl import dumps, finite

    line = dumps({"reward": float("inf"), "stats": [float("nan"), 1.5], "n": 3})
    assert json.loads(line, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}")) == {
        "reward": None,
        "stats": [None, 1.5],
        "n": 3,
    }
    assert finite({"a": (float("-inf"),)}) == {"a": [None]}


async def test_a_long_output_name_and_the_umask(tmp_path) -> None:
    """A 240-character output name gave a traceback (its lock file's name is longer than 255 bytes); outputs
    were always 0600 whatever the umask."""
    import json
    import os

    from knowrl_io.job_output import OutputError
    from reward_engine.score import score_file

    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(_eleven()[0]) + "\n")
    config = parse_reward_config({"factuality": {"enabled": False}})
    await score_file(src, tmp_path / ("o" * 240 + ".jsonl"), config, progress=False)  # its temp file fits too
    with pytest.raises(OutputError, match="too long"):
        await score_file(src, tmp_path / ("o" * 250 + ".jsonl"), config, progress=False)
    old = os.umask(0o022)
    try:
        await score_file(src, tmp_path / "out.jsonl", config, progress=False)
    finally:
        os.umask(old)
    assert (tmp_path / "out.jsonl").stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (["retrieval.search", "--db", "{tmp}", "--query", "x"], {}, "is a directory"),
        (["retrieval.build", "--preset", "demo", "--no-dense"], {"KNOWRL_CACHE_DIR": "{tmp}/file"}, "cannot create"),
    ],
)
def test_path_errors_are_one_line_exit_2(tmp_path, argv, env, message: str) -> None:
    import os
    import subprocess
    import sys

    (tmp_path / "file").write_text("a file where a folder should be")
    cmd = [sys.executable, "-m", *[a.replace("{tmp}", str(tmp_path)) for a in argv]]
    environ = {**os.environ, **{k: v.replace("{tmp}", str(tmp_path)) for k, v in env.items()}}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=environ)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_score_with_standard_input_closed_is_one_line(tmp_path) -> None:
    import os
    import subprocess
    import sys

    config = tmp_path / "c.yaml"
    config.write_text("factuality:\n  enabled: false\n")
    cmd = [sys.executable, "-m", "reward_engine.score", "--input", "-", "--output", str(tmp_path / "o.jsonl")]
    done = subprocess.run(
        [*cmd, "--config", str(config), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=lambda: os.close(0),  # noqa: PLW1509 - the case itself: no standard input at all
    )
    assert done.returncode == 2 and "standard input is closed" in done.stderr and "Traceback" not in done.stderr


def test_a_title_with_a_lone_surrogate_falls_back_to_global_search(kb) -> None:
    """warm on a row titled '\\ud800x' gave a UnicodeEncodeError traceback (SQLite cannot bind it)."""
    ids, found, missing = kb.title_passage_ids(["\ud800x", "Paris"])
    assert found == ["Paris"] and len(missing) == 1 and ids
    assert not kb.has_title("\ud800x") and kb.search("capital of France", titles="\ud800x", k=1).hits


@pytest.mark.parametrize("broken", ["a file", "a damaged cache.db"])
def test_a_broken_judge_cache_is_one_line_exit_2(tmp_path, broken: str) -> None:
    import json
    import subprocess
    import sys

    cache = tmp_path / "cache"
    if broken == "a file":
        cache.write_text("not a folder")
    else:
        cache.mkdir()
        (cache / "cache.db").write_text("not SQLite")
    src, config = tmp_path / "in.jsonl", tmp_path / "c.yaml"
    src.write_text(json.dumps(_eleven()[0]) + "\n")
    judge = {"endpoints": [{"base_url": "http://127.0.0.1:9/v1", "model": "m"}], "cache_dir": str(cache)}
    config.write_text(json.dumps({"grader": "llm", "factuality": {"enabled": False}, "judge": judge}))
    cmd = [sys.executable, "-m", "reward_engine.score", "--input", str(src), "--output", str(tmp_path / "o.jsonl")]
    done = subprocess.run([*cmd, "--config", str(config), "--no-progress"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "cannot be used" in done.stderr and "Traceback" not in done.stderr


def test_the_local_judge_on_a_used_port_or_a_bad_gguf_is_one_line(tmp_path) -> None:
    import socket
    import subprocess
    import sys

    pytest.importorskip("xllamacpp")
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF" + bytes(100))
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        cmd = [sys.executable, "-m", "judges.local", "--model", str(bad), "--port", str(port)]
        used = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert used.returncode == 2 and f"port {port} on 127.0.0.1 is in use" in used.stderr
    loaded = subprocess.run(cmd, capture_output=True, text=True, timeout=120)  # the port is free now
    assert loaded.returncode == 2 and "could not load" in loaded.stderr and "Traceback" not in loaded.stderr


@pytest.mark.parametrize("job", ["score", "warm"])
def test_a_broken_evidence_cache_dir_is_one_line_before_any_row(tmp_path, kb_path, job: str) -> None:
    """factuality.cache_dir a file: every row came back an `error` row with exit 0; now one line, exit 2."""
    import json
    import subprocess
    import sys

    (tmp_path / "cache").write_text("not a folder")
    src, config = tmp_path / "in.jsonl", tmp_path / "c.yaml"
    src.write_text("".join(json.dumps(r) + "\n" for r in _eleven()[:2]))
    factuality = {"kb_path": str(kb_path), "retrieval_mode": "bm25", "cache_dir": str(tmp_path / "cache")}
    config.write_text(json.dumps({"grader": "offline", "factuality": factuality}))
    if job == "score":
        args = ["--input", str(src), "--output", str(tmp_path / "o.jsonl"), "--no-progress"]
    else:
        args = ["--data", str(src)]
    done = subprocess.run(
        [sys.executable, "-m", f"reward_engine.{job}", *args, "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert "factuality.cache_dir" in done.stderr and "cannot be used" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "o.jsonl").exists()


def test_ctrl_c_while_reading_an_idle_pipe_ends_the_job_at_once_and_keeps_its_rows(tmp_path) -> None:
    """The reading thread ran on asyncio's default executor, which asyncio.run joins on the way out: SIGINT
    waited until the writer closed the pipe (36 s for a 40-s writer here)."""
    import json
    import signal
    import subprocess
    import sys
    import time

    config, out = tmp_path / "c.yaml", tmp_path / "o.jsonl"
    write_offline_config(config)
    cmd = [sys.executable, "-m", "reward_engine.score", "--input", "-", "--output", str(out), "--batch-size", "1"]
    log = (tmp_path / "stderr.txt").open("w")  # a file, not a pipe: a full pipe would block the job's exit
    proc = subprocess.Popen(
        [*cmd, "--config", str(config), "--no-progress"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=log,
        text=True,
        # a pytest-xdist worker ignores SIGINT and a child inherits that (Python then installs no handler): the
        # job would never see the Ctrl-C a user's terminal sends it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        proc.stdin.write(json.dumps(_eleven()[0]) + "\n")
        proc.stdin.flush()  # one row, then the pipe stays open and idle
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (out.exists() and out.read_text().count("\n") == 1):
            time.sleep(0.2)
        assert out.read_text().count("\n") == 1, "the first row was never scored"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=120)  # stdin stays open (communicate would close it): only the interrupt can end it
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdin.close()
        log.close()
    err = (tmp_path / "stderr.txt").read_text()
    assert proc.returncode == 130 and "interrupted" in err and "Fatal Python error" not in err, err[-2000:]
    assert json.loads(out.read_text())["total"] is not None


def test_a_full_disk_is_one_line_keeps_whole_rows_and_resumes(tmp_path) -> None:
    """A write the disk refused gave a traceback and left a torn last line. The file-size limit stands in
    for a full disk here (both are an OSError from write): the failed batch is taken back whole."""
    import json
    import resource
    import signal
    import subprocess
    import sys

    src, config, out = tmp_path / "in.jsonl", tmp_path / "c.yaml", tmp_path / "o.jsonl"
    completion = "<think>" + "x" * 500 + ".</think><answer>Paris</answer>"
    rows = [{**_eleven()[0], "id": f"r{i}", "completion": completion} for i in range(300)]
    write_jsonl(src, rows)
    write_offline_config(config)
    cmd = [sys.executable, "-m", "reward_engine.score", "--input", str(src), "--output", str(out), "--batch-size", "16"]

    def small_files() -> None:  # in the child: files stop growing at 30 KB
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (30_000, 30_000))

    full = subprocess.run(
        [*cmd, "--config", str(config), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=small_files,
    )
    assert full.returncode == 2 and "cannot write" in full.stderr and "Traceback" not in full.stderr, full.stderr[
        -2000:
    ]
    assert "never retrieved" not in full.stderr
    text = out.read_text()
    kept = [json.loads(line) for line in text.splitlines()]  # every line whole
    assert text.endswith("\n") and 0 < len(kept) < 300 and len(kept) % 16 == 0
    again = subprocess.run(
        [*cmd, "--config", str(config), "--no-progress"], capture_output=True, text=True, timeout=300
    )
    assert again.returncode == 0, again.stderr[-2000:]
    done = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["id"] for r in done) == sorted(r["id"] for r in rows)  # all 300, none twice
