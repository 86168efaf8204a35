"""Jobs never lose or corrupt data (issue #23): the output is owned (never the input, never another file,
never two writers), resume is keyed by content, one hostile line never ends a job, limits are validated,
user errors are one line and a documented exit code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from knowrl_io.job_output import OutputError, own_output, sidecar
from reward_engine.config import ConfigError, load_reward_config, parse_reward_config
from reward_engine.job import job_fingerprint
from reward_engine.score import score_file

ROOT = Path(__file__).resolve().parents[1]
OFFLINE = {"factuality": {"kb_path": "x"}}


def row(rid: str, question: str, gold: str, answer: str) -> dict:
    return {
        "id": rid,
        "question": question,
        "answers": gold,
        "completion": f"<think>I recall it.</think><answer>{answer}</answer>",
    }


PARIS = row("paris", "Capital of France?", "Paris", "Paris")  # CORRECT
TOKYO = row("tokyo", "Capital of Japan?", "Tokyo", "I don't know")  # NOT_ATTEMPTED
ROME = row("rome", "Capital of Italy?", "Rome", "Rome")  # CORRECT


def write(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def read(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def cli(*args, stdin=None, timeout=180):
    return subprocess.run(
        [sys.executable, "-m", "reward_engine.score", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def config_file(tmp_path, kb_path):
    path = tmp_path / "reward.yaml"
    path.write_text(yaml.safe_dump({"factuality": {"kb_path": str(kb_path)}}))
    return path


# -- B1: the output is never the input, never a file the job did not write ---------------------------------
def test_output_equal_to_input_is_refused_and_the_input_kept(tmp_path, config_file):
    src = write(tmp_path / "same.jsonl", [PARIS, TOKYO])
    before = src.read_bytes()
    proc = cli("--input", src, "--output", src, "--config", config_file, "--no-progress")
    assert proc.returncode == 2 and "is the input file" in proc.stderr and "Traceback" not in proc.stderr
    assert src.read_bytes() == before
    link = tmp_path / "alias.jsonl"
    link.symlink_to(src)  # the same file under another name
    assert cli("--input", src, "--output", link, "--config", config_file, "--no-progress").returncode == 2
    assert src.read_bytes() == before


async def test_an_existing_file_the_job_did_not_write_is_refused_unless_overwrite(tmp_path, kb):
    src, out = write(tmp_path / "in.jsonl", [PARIS]), tmp_path / "notes.jsonl"
    out.write_text("my precious notes\n")
    with pytest.raises(OutputError, match="not written by this"):
        await score_file(src, out, parse_reward_config(OFFLINE), progress=False, kb=kb)
    assert out.read_text() == "my precious notes\n"
    await score_file(src, out, parse_reward_config(OFFLINE), progress=False, kb=kb, overwrite=True)
    assert [r["id"] for r in read(out)] == ["paris"]


async def test_another_config_refuses_to_mix_rewards(tmp_path, kb):
    src, out = write(tmp_path / "in.jsonl", [PARIS]), tmp_path / "out.jsonl"
    await score_file(src, out, parse_reward_config(OFFLINE), progress=False, kb=kb)
    other = parse_reward_config({**OFFLINE, "preset": "knowrl-june2025"})
    with pytest.raises(OutputError, match="other settings"):
        await score_file(src, out, other, progress=False, kb=kb)
    # the refused run leaves the record as it was: the first config's fingerprint, with the KB's content version
    assert json.loads(sidecar(out).read_text())["settings"] == job_fingerprint(
        parse_reward_config(OFFLINE), kb.content_version
    )


# -- B2: resume keyed by content ------------------------------------------------------------------------------
async def test_resume_rescores_rows_whose_input_changed(tmp_path, kb):
    out = tmp_path / "out.jsonl"
    config = parse_reward_config(OFFLINE)
    await score_file(write(tmp_path / "a.jsonl", [PARIS, TOKYO, ROME]), out, config, progress=False, kb=kb)
    # the input edited in place: nothing of the old rows may survive
    other = [row("x", "Capital of Spain?", "Madrid", "Lisbon"), row("y", "Capital of Peru?", "Lima", "Lima")]
    summary = await score_file(write(tmp_path / "a.jsonl", other), out, config, progress=False, kb=kb)
    assert summary["already_scored"] == 0
    assert [(r["id"], r["label"]) for r in read(out)] == [("x", "INCORRECT"), ("y", "CORRECT")]
    # another input file into the same output is refused (its rows would be dropped), the output untouched
    kept = out.read_bytes()
    with pytest.raises(OutputError, match="made for the input"):
        await score_file(write(tmp_path / "b.jsonl", other), out, config, progress=False, kb=kb)
    assert out.read_bytes() == kept
    # a row inserted at the top shifts every line: each is scored again, none keeps its old id or label
    shifted = [TOKYO, *other]
    summary = await score_file(write(tmp_path / "a.jsonl", shifted), out, config, progress=False, kb=kb)
    assert [(r["id"], r["label"]) for r in read(out)] == [
        ("tokyo", "NOT_ATTEMPTED"),
        ("x", "INCORRECT"),
        ("y", "CORRECT"),
    ]
    assert summary["already_scored"] == 0


async def test_a_bad_line_fixed_by_the_user_is_scored_on_rerun(tmp_path, kb):
    out, config = tmp_path / "out.jsonl", parse_reward_config(OFFLINE)
    src = write(tmp_path / "in.jsonl", [PARIS, '{"id": "tokyo", "question": "Capital of Japan?"'])
    await score_file(src, out, config, progress=False, kb=kb)
    assert [r["status"] for r in read(out)] == ["ok", "bad_input"]
    write(src, [PARIS, TOKYO])
    summary = await score_file(src, out, config, progress=False, kb=kb)
    assert [r["status"] for r in read(out)] == ["ok", "ok"] and summary["already_scored"] == 1


# -- B3: two runs on one output ---------------------------------------------------------------------------------
def test_a_second_run_on_the_same_output_is_refused_while_the_first_runs(tmp_path, config_file):
    src, out = write(tmp_path / "in.jsonl", [PARIS]), tmp_path / "out.jsonl"
    with own_output(out, src, "reward_engine.score", "any"):  # a first run holding the output
        proc = cli("--input", src, "--output", out, "--config", config_file, "--no-progress")
    assert proc.returncode == 2 and "another job is writing" in proc.stderr
    assert cli("--input", src, "--output", out, "--config", config_file, "--no-progress").returncode == 0


# -- B4: temporary files never follow a planted link -----------------------------------------------------------
async def test_a_planted_link_beside_the_output_is_never_written_through(tmp_path, kb):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    out = tmp_path / "out.jsonl"
    for name in ("out.jsonl.tmp", "out.jsonl.job.json.tmp"):
        (tmp_path / name).symlink_to(victim)
    await score_file(write(tmp_path / "in.jsonl", [PARIS]), out, parse_reward_config(OFFLINE), progress=False, kb=kb)
    assert victim.read_text() == "keep me\n" and len(read(out)) == 1


# -- B10: a pipe is read once ---------------------------------------------------------------------------------------
def test_standard_input_with_the_progress_bar_on(tmp_path, config_file):
    out = tmp_path / "out.jsonl"
    stdin = "".join(json.dumps(r) + "\n" for r in (PARIS, TOKYO, ROME))
    proc = cli("--input", "-", "--output", out, "--config", config_file, stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    assert [r["id"] for r in read(out)] == ["paris", "tokyo", "rome"]


# -- B5/B6 and rough edges: one hostile line never ends a job --------------------------------------------------------
HOSTILE = [
    '{"id": "big", "question": "Q?", "answers": "x", "completion": "y", "n": ' + "9" * 5000 + "}",
    "[" * 100_000,
    json.dumps({**PARIS, "id": "list", "completion": [1, 2, 3]}),
    '{"id": "kept-id", "question": "Q?", "completion": "y"}',  # no answers: bad, but its id is readable
]


async def test_hostile_lines_are_bad_input_and_the_rest_is_scored(tmp_path, kb):
    src = tmp_path / "in.jsonl"
    src.write_bytes(
        b"\xef\xbb\xbf"
        + "".join(json.dumps(r) + "\n" for r in (PARIS,)).encode()
        + "\n".join(HOSTILE).encode()
        + b"\n"
        + json.dumps(ROME).encode()
        + b"\n"
    )
    summary = await score_file(src, tmp_path / "out.jsonl", parse_reward_config(OFFLINE), progress=False, kb=kb)
    rows = read(tmp_path / "out.jsonl")
    assert [r["status"] for r in rows] == ["ok", "bad_input", "bad_input", "bad_input", "bad_input", "ok"]
    assert rows[0]["id"] == "paris"  # the UTF-8 BOM no longer costs the first row
    assert "unreadable JSON value" in rows[1]["error"] and "nesting too deep" in rows[2]["error"]
    assert "list of {'role', 'content'} messages" in rows[3]["error"]
    assert rows[4]["id"] == "kept-id" and ":5: field 'answers' missing" in rows[4]["error"]
    assert summary["rows"] == 6


def test_warm_and_build_survive_the_same_lines(tmp_path, kb_path):
    src = write(tmp_path / "in.jsonl", [PARIS, *HOSTILE, ROME])
    cfg = tmp_path / "reward.yaml"
    cfg.write_text(yaml.safe_dump({"factuality": {"kb_path": str(kb_path)}}))
    warm = subprocess.run(
        [sys.executable, "-m", "reward_engine.warm", "--data", str(src), "--config", str(cfg)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert warm.returncode == 0, warm.stderr
    assert json.loads(warm.stdout)["titles"]["bad_rows"] == 3  # the list completion is a valid data row
    docs = tmp_path / "docs.jsonl"
    write(
        docs,
        [
            {"title": "Good", "text": "A good page."},
            *HOSTILE[:2],
            '{"title": "\\ud800", "text": "x"}',
            '{"title": "Bad", "text": "caf\\udce9"}',
            {"title": "Also good", "text": "Another page."},
        ],
    )
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "retrieval.build",
            "--input",
            str(docs),
            "--db",
            str(tmp_path / "kb.db"),
            "--no-dense",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    report = json.loads(build.stdout)
    assert report["bad_rows"] and len(report["bad_rows"]) == 4 and "lone surrogate" in " ".join(report["bad_rows"])


# -- B7/B8: limits and constants validated; a hostile YAML is refused before it grows ----------------------------
@pytest.mark.parametrize(
    "section,message",
    [
        ({"judge": {"requests_per_minute": -1}}, "requests_per_minute: Input should be greater than 0"),
        ({"judge": {"tokens_per_minute": -5}}, "tokens_per_minute"),
        ({"judge": {"max_tokens": -1}}, "max_tokens"),
        ({"judge": {"temperature": -0.5}}, "temperature"),
        ({"semantics": {"cap": 0}}, "cap: Input should be greater than 0"),
        ({"semantics": {"correct": float("nan")}}, "finite number"),
        (
            {
                "judge": {
                    "endpoints": [{"base_url": "http://127.0.0.1:1/v1", "model": "m", "api_key_env": "sk-live-123"}]
                }
            },
            "NAME of an environment variable",
        ),
    ],
)
def test_limits_and_constants_are_validated(section, message):
    judge = {"endpoints": [{"base_url": "http://127.0.0.1:1/v1", "model": "m"}]}
    data = {
        "grader": "llm",
        "judge": {**judge, **section.get("judge", {})},
        **OFFLINE,
        **{k: v for k, v in section.items() if k != "judge"},
    }
    with pytest.raises(ConfigError, match=message) as err:
        parse_reward_config(data)
    assert "sk-live-123" not in str(err.value)


def test_a_billion_laughs_yaml_is_refused_at_once(tmp_path):
    levels = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    levels += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    path = tmp_path / "laughs.yaml"
    path.write_text("\n".join(levels) + "\nmax_answer_chars: *a9\n")
    started = time.perf_counter()
    with pytest.raises(ConfigError, match="expands to more than"):
        load_reward_config(path)
    assert time.perf_counter() - started < 5


def test_a_secret_url_is_never_echoed_in_a_config_error(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_URL", "https://user:hunter2@judge.example/v1")
    path = tmp_path / "r.yaml"
    path.write_text(
        "grader: llm\nfactuality: {enabled: false}\n"
        "judge: {endpoints: [{base_url: '${JUDGE_URL}', model: m}], timeout_s: -1}\n"
    )
    with pytest.raises(ConfigError) as err:
        load_reward_config(path)
    assert "timeout_s" in str(err.value) and "hunter2" not in str(err.value)


# -- B9 and exit codes: one line, never a traceback ----------------------------------------------------------------
def test_output_locations_that_cannot_be_written_are_one_line(tmp_path, config_file):
    src = write(tmp_path / "in.jsonl", [PARIS])
    folder = tmp_path / "a-folder"
    folder.mkdir()
    proc = cli("--input", src, "--output", folder, "--config", config_file, "--no-progress")
    assert proc.returncode == 2 and "is a directory" in proc.stderr and "Traceback" not in proc.stderr
    nested = tmp_path / "new" / "deeper" / "out.jsonl"  # a missing folder is made
    assert cli("--input", src, "--output", nested, "--config", config_file, "--no-progress").returncode == 0
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "ro"
        locked.mkdir(mode=0o500)
        proc = cli("--input", src, "--output", locked / "o.jsonl", "--config", config_file, "--no-progress")
        assert proc.returncode == 2 and "permission denied" in proc.stderr


def test_no_row_scored_exits_3_and_a_missing_kb_exits_2(tmp_path, config_file, kb_path):
    src = write(tmp_path / "in.jsonl", ['{"id": 1}', '{"id": 2}'])
    proc = cli("--input", src, "--output", tmp_path / "o.jsonl", "--config", config_file, "--no-progress")
    assert proc.returncode == 3 and "no row could be scored" in proc.stderr
    missing = tmp_path / "missing.yaml"
    missing.write_text(yaml.safe_dump({"factuality": {"kb_path": str(tmp_path / "nope.db")}}))
    proc = cli("--input", src, "--output", tmp_path / "p.jsonl", "--config", missing, "--no-progress")
    assert proc.returncode == 2 and "nope.db not found" in proc.stderr and "Traceback" not in proc.stderr


# -- B11-B13: a broken KB or a bad --set is one line, never a traceback ----------------------------------------------
def test_broken_knowledge_bases_are_one_line_each(tmp_path, kb_path):
    import shutil

    from retrieval.dense import index_paths

    def search(db, *extra):
        return subprocess.run(
            [sys.executable, "-m", "retrieval.search", "--db", str(db), "--query", "Paris", *extra],
            capture_output=True,
            text=True,
            timeout=120,
        )

    db = tmp_path / "kb.db"
    shutil.copy(kb_path, db)
    index, manifest = index_paths(db)
    for src, dst in zip(index_paths(kb_path), (index, manifest)):
        shutil.copy(src, dst)
    index.write_bytes(index_paths(kb_path)[0].read_bytes()[:100])  # a truncated index
    proc = search(db)
    assert proc.returncode == 2 and "unreadable" in proc.stderr and "--from-db" in proc.stderr
    shutil.copy(index_paths(kb_path)[0], index)
    manifest.write_text("[1, 2]")
    proc = search(db)
    assert proc.returncode == 2 and "manifest" in proc.stderr and "Traceback" not in proc.stderr
    index.unlink()
    manifest.unlink()  # now a BM25-only KB: hybrid search names the command that adds the index
    proc = search(db)
    assert proc.returncode == 2 and f"retrieval.build --from-db {db}" in proc.stderr
    assert search(db, "--mode", "bm25").returncode == 0
    text = tmp_path / "notes.db"
    text.write_text("not a database\n")
    proc = search(text)
    assert proc.returncode == 2 and "is not a knowledge base" in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "retrieval.build", "--from-db", str(text), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "is not a knowledge base" in proc.stderr and "Traceback" not in proc.stderr


def test_a_bad_set_value_is_one_line():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "knowrl.train",
            "--config",
            str(ROOT / "configs" / "smoke.yaml"),
            "--set",
            "output_dir=[1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "--set output_dir" in proc.stderr and "Traceback" not in proc.stderr


def test_warm_with_a_missing_kb_is_one_line(tmp_path):
    cfg = tmp_path / "r.yaml"
    cfg.write_text(yaml.safe_dump({"factuality": {"kb_path": str(tmp_path / "nope.db")}}))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "reward_engine.warm",
            "--data",
            str(write(tmp_path / "d.jsonl", [PARIS])),
            "--config",
            str(cfg),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "nope.db not found" in proc.stderr and "Traceback" not in proc.stderr
