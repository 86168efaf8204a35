"""Audit 59's write-site holes (issue #74, item 2: never the input, never a special file, never a foreign file;
another input's output only when asked to replace), each shown on real files, most through the real CLI.

- H7: a ``cache_dir`` holding a user's SQLite ``cache.db`` (or a KB named so) was turned into a diskcache.
- H8: ``score --output docs.jsonl --overwrite`` replaced a custom source's corpus named in ``source_options``.
- H10: ``inspect b.jsonl -o r.html`` replaced the page of ``a.jsonl`` without a flag.
- H11: the local judge's log truncated a user's file, wrote through a link, and hung on a FIFO.
- H14: ``score --output results`` wrote its record over a user's one-line ``results.job.json``.
- H15: the demo data in the shared cache was rewritten in place: a reader could see a truncated file.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl_io.job_output import sidecar
from tests.test_jobs_keyed_by_content import DOCS, REPO, ROWS, SOURCE, build_kb, jsonl, one_line_error, run, score


def _user_db(path: Path) -> bytes:
    """A user's own SQLite file (journal mode DELETE, as sqlite3 makes one); its bytes."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Ada', '555-0100')")
    conn.commit()
    conn.close()
    return path.read_bytes()


def _journal_mode(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        conn.close()


# -- H7: a cache_dir whose cache.db is not diskcache's own -------------------------------------------------------------
def test_a_users_cache_db_in_judge_cache_dir_is_refused_and_left_as_it_was(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    before = _user_db(folder / "cache.db")
    judge = {"endpoints": [{"base_url": "http://127.0.0.1:9/v1", "model": "m"}], "cache_dir": str(folder)}
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(json.dumps({"grader": "llm", "judge": judge, "factuality": {"enabled": False}}))
    out = tmp_path / "scored.jsonl"
    line = one_line_error(score(jsonl(tmp_path / "in.jsonl", ROWS), out, cfg), "judge.cache_dir", "contacts")
    assert "cache.db" in line and "not a diskcache" in line
    assert (folder / "cache.db").read_bytes() == before and _journal_mode(folder / "cache.db") == "delete"
    assert sorted(p.name for p in folder.iterdir()) == ["cache.db"] and not out.exists()


def test_a_kb_named_cache_db_is_never_made_a_diskcache_by_factuality_cache_dir(tmp_path):
    """``kb_path: kb/cache.db`` with ``cache_dir: kb``: the first score run wrote diskcache's tables into the KB."""
    kb = build_kb(tmp_path, (tmp_path / "kb").joinpath("cache.db"), DOCS, "--no-dense")
    before = kb.read_bytes()
    cfg = tmp_path / "reward.yaml"
    factuality = {"kb_path": "kb/cache.db", "cache_dir": "kb", "retrieval_mode": "bm25"}
    cfg.write_text(json.dumps({"grader": "offline", "factuality": factuality}))
    out = tmp_path / "scored.jsonl"
    line = one_line_error(score(jsonl(tmp_path / "in.jsonl", ROWS), out, cfg), "factuality.cache_dir", "cache.db")
    assert "someone else's SQLite database" in line and "passages" in line
    assert kb.read_bytes() == before and not out.exists()
    assert not {"Settings", "Cache"} & {r[0] for r in sqlite3.connect(kb).execute("SELECT name FROM sqlite_master")}


def test_the_caches_own_folders_open_as_before(tmp_path):
    """A new folder, an empty one, an empty cache.db and a diskcache of its own all open; a text file does not."""
    from reward_engine.disk_cache import CacheError, DiskCache

    own = DiskCache(tmp_path / "new" / "cache")
    own.set("k", {"v": 1})
    own.close()
    again = DiskCache(tmp_path / "new" / "cache")  # its own cache.db: reopened, values kept
    assert again.get("k") == {"v": 1}
    again.close()
    (tmp_path / "empty").mkdir()
    DiskCache(tmp_path / "empty").close()
    (tmp_path / "blank").mkdir()
    (tmp_path / "blank" / "cache.db").touch()
    DiskCache(tmp_path / "blank").close()
    (tmp_path / "text").mkdir()
    (tmp_path / "text" / "cache.db").write_text("my notes\n")
    with pytest.raises(CacheError, match="cannot be used"):
        DiskCache(tmp_path / "text")
    assert (tmp_path / "text" / "cache.db").read_text() == "my notes\n"


# -- H8: a custom source's files are inputs ----------------------------------------------------------------------------
EXTRA_SOURCE = """
from my_source import JsonlSource


class Corpus(JsonlSource):
    '''Its corpus under an option name the path rule does not know, and more files in a list.'''

    def __init__(self, corpus, more=()):
        super().__init__(corpus)
"""


@pytest.mark.parametrize("named", ["path", "corpus", "more"])
def test_score_never_replaces_a_custom_sources_corpus_even_with_overwrite(tmp_path, named):
    (tmp_path / "my_source.py").write_text(SOURCE)
    (tmp_path / "my_corpus.py").write_text(EXTRA_SOURCE)
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO), os.environ.get("PYTHONPATH", "")])}
    docs = jsonl(tmp_path / "docs.jsonl", DOCS)
    before = docs.read_bytes()
    factuality: dict = {"retrieval_mode": "bm25"}
    if named == "path":  # relative: resolved against the config's folder
        factuality |= {"source": "my_source:JsonlSource", "source_options": {"path": "docs.jsonl"}}
    elif named == "corpus":
        factuality |= {"source": "my_corpus:Corpus", "source_options": {"corpus": str(docs)}}
    else:
        other = jsonl(tmp_path / "other.jsonl", DOCS[:1])
        options = {"corpus": str(other), "more": [str(docs)]}
        factuality |= {"source": "my_corpus:Corpus", "source_options": options}
    cfg = tmp_path / "reward.yaml"
    cfg.write_text(json.dumps({"grader": "offline", "factuality": factuality}))
    src = jsonl(tmp_path / "in.jsonl", ROWS)
    for extra in ([], ["--overwrite"]):
        one_line_error(score(src, docs, cfg, *extra, env=env), f"--output {docs} is the input file")
        assert docs.read_bytes() == before and not sidecar(docs).exists()
    done = score(src, tmp_path / "scored.jsonl", cfg, env=env)  # the same config scores into another file
    assert done.returncode == 0, done.stderr[-3000:]


def test_source_option_files_walks_lists_and_mappings_and_skips_urls(tmp_path):
    from reward_engine.source_options import source_option_files

    kept = jsonl(tmp_path / "kept.jsonl", DOCS)
    options = {
        "index_dir": str(tmp_path / "not-yet"),  # named as a path: an input whether or not it exists yet
        "url": "http://127.0.0.1:9/x",
        "nested": {"list": [str(kept), "not a file", 3]},
        "name": "mine",
        "bad": "a\0b",
    }
    assert source_option_files(options) == [tmp_path / "not-yet", kept]


# -- H14: the record's place -------------------------------------------------------------------------------------------
OFFLINE = {"grader": "offline", "factuality": {"enabled": False}}


@pytest.mark.parametrize("planted", ["one line of json", "a link"])
def test_score_never_writes_its_record_over_a_users_file(tmp_path, planted):
    cfg = tmp_path / "offline.json"
    cfg.write_text(json.dumps(OFFLINE))
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "results"
    victim = tmp_path / "victim.json"
    victim.write_text('{"user": "data"}\n')
    if planted == "a link":
        sidecar(out).symlink_to(victim)
    else:
        sidecar(out).write_text(victim.read_text())
    for extra in ([], ["--overwrite"]):
        one_line_error(score(src, out, cfg, *extra), f"{sidecar(out)} is not a job record")
        assert victim.read_text() == '{"user": "data"}\n' and not out.exists()
    assert sidecar(out).read_text() == '{"user": "data"}\n'
    sidecar(out).unlink()
    for _ in range(2):  # its own record: written, then read back by the rerun
        done = score(src, out, cfg)
        assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(sidecar(out).read_text())["job"]


def test_an_empty_record_place_is_taken_and_a_list_is_not(tmp_path):
    from knowrl_io.job_output import OutputError, own_output

    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "o.jsonl"
    sidecar(out).touch()
    with own_output(out, src, "score", "s"):
        pass
    assert json.loads(sidecar(out).read_text())["job"] == "score"
    sidecar(out).write_text('["job", "score"]\n')
    with pytest.raises(OutputError, match="is not a job record"):
        with own_output(out, src, "score", "s"):
            pass


# -- H10: inspect's page of other rows -------------------------------------------------------------------------------
def _rows(path: Path, label: str) -> Path:
    return jsonl(path, [{"line": 1, "id": label, "label": label, "total": 1.0, "question": f"Q {label}?"}])


def _inspect(*args: object) -> subprocess.CompletedProcess:
    return run("reward_engine.inspect", *args)


def test_inspect_replaces_the_page_of_the_same_rows_only(tmp_path):
    a, b = _rows(tmp_path / "a.jsonl", "CORRECT"), _rows(tmp_path / "b.jsonl", "INCORRECT")
    page = tmp_path / "r.html"
    for _ in range(2):  # a rerun on the same rows refreshes its report
        assert _inspect(a, "-o", page).returncode == 0
    mine = page.read_bytes()
    shown = os.path.realpath(a)  # the page names the rows' real path
    line = one_line_error(_inspect(b, "-o", page), f"--output {page} is the page of the rows of {shown}", "--overwrite")
    assert f"not of {b}" in line and page.read_bytes() == mine
    link = tmp_path / "link.jsonl"
    link.symlink_to(a)  # the same rows by another name
    assert _inspect(link, "-o", page).returncode == 0
    assert _inspect(b, "-o", page, "--overwrite").returncode == 0 and b"INCORRECT" in page.read_bytes()
    assert _inspect(b, "-o", page).returncode == 0


def test_inspect_refuses_a_page_that_names_no_rows(tmp_path):
    """A page written before pages named their rows: which report it is cannot be told, so it is not replaced."""
    a = _rows(tmp_path / "a.jsonl", "CORRECT")
    page = tmp_path / "old.html"
    assert _inspect(a, "-o", page).returncode == 0
    old = b"".join(line for line in page.read_bytes().splitlines(True) if b"knowrl-rows" not in line)
    page.write_bytes(old)
    one_line_error(_inspect(a, "-o", page), "rows it does not name", "--overwrite")
    assert page.read_bytes() == old


def test_a_rows_file_named_like_a_placeholder_makes_a_whole_page(tmp_path):
    """The template's placeholders were replaced one after another: a ROWS file named ``__ROWS_JSON__.jsonl`` put
    the rows inside the title's JSON."""
    import html
    import re

    rows = _rows(tmp_path / "__ROWS_JSON__.jsonl", "CORRECT")
    page = tmp_path / "p.html"
    assert _inspect(rows, "-o", page).returncode == 0
    text = page.read_text()
    title = re.search(r'<script id="data-title" type="application/json">(.*?)</script>', text).group(1)
    assert json.loads(title) == "__ROWS_JSON__.jsonl"
    named = re.search(r'<meta name="knowrl-rows" content="([^"]*)">', text).group(1)
    assert json.loads(html.unescape(named)) == os.path.realpath(rows)


# -- H11: the local judge's log ----------------------------------------------------------------------------------------
class _Child:
    """Stands in for the judge's child process: writes a line to the log it was given, and is always ready."""

    def __init__(self, cmd, stdout, stderr):
        os.write(stdout.fileno(), b"server says hello\n")
        self.returncode = None

    def poll(self):
        return None

    def terminate(self):
        pass

    def wait(self, timeout=None):
        return 0


def test_the_judge_log_is_appended_to_never_truncated(tmp_path, monkeypatch):
    from judges import local

    monkeypatch.setattr(local, "resolve_model", lambda model: None)
    monkeypatch.setattr(local, "_ready", lambda root: True)
    monkeypatch.setattr(local.subprocess, "Popen", _Child)
    log = tmp_path / "smollm2-2.log"
    log.write_text("my own notes\n")
    for _ in range(2):
        with local.running(model="smollm2", port=9, log_path=log):
            pass
    text = log.read_text()
    assert text.startswith("my own notes\n--- judges.local starting ")
    assert text.count("server says hello\n") == 2 and text.count("--- judges.local starting") == 2


FIFO_RUN = """
import sys
from pathlib import Path
from judges import local
local.resolve_model = lambda model: None
local.subprocess.Popen = lambda *args, **kwargs: sys.exit("the server was started")  # never a real one here
try:
    with local.running(model="smollm2", port=9, log_path=Path(sys.argv[1])):
        pass
except local.LocalJudgeError as exc:
    print(f"error: {exc}", file=sys.stderr)
    sys.exit(2)
"""


@pytest.mark.parametrize("special", ["fifo", "link", "device", "folder"])
def test_the_judge_log_is_never_a_special_file(tmp_path, special):
    log = tmp_path / "judge.log"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    if special == "fifo":
        os.mkfifo(log)
    elif special == "link":
        log.symlink_to(victim)
    elif special == "device":
        log = Path(os.devnull)
    else:
        log.mkdir()
    try:
        done = subprocess.run(
            [sys.executable, "-c", FIFO_RUN, str(log)], capture_output=True, text=True, timeout=30, cwd=REPO
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the judge's log as a {special} hung the run")
    why = {"fifo": "No such device", "link": "a symbolic link", "device": "not a regular file", "folder": "directory"}
    one_line_error(done, f"the judge's log {log}", why[special])
    assert victim.read_text() == "keep me\n"


# -- H15: the demo data is replaced whole ------------------------------------------------------------------------------
def _items(n: int, tag: str) -> list:
    from knowrl.effect.demo_questions import Item

    return [
        Item(f"{tag}{i}", "capital", f"What is the capital of {tag}{i}?", (f"City{i}",), True, f"{tag}{i}", (tag,))
        for i in range(n)
    ]


def test_demo_data_files_are_replaced_whole_never_rewritten_in_place(tmp_path):
    """A reader that opened train.jsonl before another demo run rewrote it read what that run wrote, or a torn
    part of it: the file was truncated and written again in place."""
    from knowrl.effect.demo_data import write_data

    first, second = _items(40, "Aland"), _items(3, "Bland")
    paths = write_data(tmp_path, [i.rl_row() for i in first], [], first, set(), {"rule": "r"})
    handles = {name: path.open("rb") for name, path in paths.items()}
    try:
        before = {name: path.read_bytes() for name, path in paths.items()}
        write_data(tmp_path, [i.rl_row() for i in second], [], second, set(), {"rule": "r"})
        for name, handle in handles.items():  # the reader's file is whole: the run's own, not a torn new one
            assert handle.read() == before[name], name
    finally:
        for handle in handles.values():
            handle.close()
    assert [json.loads(line)["question"] for line in paths["train"].read_text().splitlines()] == [
        i.question for i in second
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths.values())
