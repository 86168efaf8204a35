"""Hostile pass 10 (issue #74): 33 new cases written before they were run; the failures closed here, each with a
test that fails on the code before it (controls beside them).

Data loss: an array cut short (no closing ``]``) was read as the whole input, and a rerun dropped the later
scores (a rebuild kept its documents only by luck of the bad-row rule); an output named like another output's
job record was written over; ``score`` refused message content given as a list of parts; an input re-exported as
one newline wiped a rerun's scores. Stale: a plugin swap left the config fingerprint as it was; verl's worker kept
an engine for an edited config; a KB moved over the path kept being read from the old file. Reward holes: "Lyon,
also known as Paris"; a claim's year in words, its relation turned round, its number with a scale word the
evidence lacks. Underpaid: a citation mark ("8,849 m [1]") and ``\\boxed{Paris}``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from knowrl_io.records import CUT_SHORT, iter_records
from reward_engine.labels import Label
from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from tests.helpers import OFFLINE, write_jsonl, write_offline_config
from tests.test_hostile_pass8_io import ROWS, _run

FRANCE = "What is the capital of France?"
PARIS = "Paris is the capital and largest city of France. The Eiffel Tower was completed in 1889 for the World's Fair."
TOKYO = "Tokyo is the capital of Japan."
EVEREST = "Mount Everest is the highest mountain above sea level. Its summit is 8,849 metres high."


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("Lyon, also known as Paris", "Paris", FRANCE, Label.INCORRECT),
        ("Lyon aka Paris", "Paris", FRANCE, Label.INCORRECT),
        ("Paris, also known as the City of Light", "Paris", FRANCE, Label.CORRECT),
        ("The City of Light, also known as Paris", "Paris", FRANCE, Label.CORRECT),
        ("8,849 m [1]", "8,849 m", "How high is Mount Everest?", Label.CORRECT),
        ("8,849 m [2], 9,000 m", "8,849 m", "How high is Mount Everest?", Label.INCORRECT),
        ("\\boxed{Paris}", "Paris", FRANCE, Label.CORRECT),
        ("\\boxed{Lyon}", "Paris", FRANCE, Label.INCORRECT),
    ],
)
def test_pass10_grader(answer: str, gold: str, question: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


PUNE = (
    "The city of Pune is part of Pune Metropolitan Region, which according to the 2011 Census of India, has 7.2 "
    "million residents, making it the seventh-most populous metropolitan area in India."
)


@pytest.mark.parametrize(
    ("claim", "passage", "supported"),
    [
        ("The Eiffel Tower was completed in eighteen ninety for the World's Fair.", PARIS, False),
        ("The Eiffel Tower was completed in 1889 for the World's Fair.", PARIS, True),
        ("Japan is the capital of Tokyo.", TOKYO, False),
        ("Tokyo is the capital of Japan.", TOKYO, True),
        ("Mount Everest's summit is 8,849 thousand metres high.", EVEREST, False),
        ("Mount Everest's summit is 8,849 metres high.", EVEREST, True),
        # a sentence copied whole: "city" is no number word, and an ordinal the passage says too is no new number
        (PUNE, PUNE, True),
        (PUNE.replace("seventh", "eighth"), PUNE, False),
    ],
)
def test_pass10_verifier(claim: str, passage: str, supported: bool) -> None:
    assert facts.supported(claim, [passage]) is supported


def test_an_array_cut_short_is_told_and_a_rerun_keeps_the_later_scores(tmp_path) -> None:
    config = tmp_path / "c.yaml"
    write_offline_config(config)
    rows, out = tmp_path / "in.json", tmp_path / "o.jsonl"
    whole = json.dumps(ROWS, indent=2)
    rows.write_text(whole)
    args = ("reward_engine.score", "--input", rows, "--output", out, "--config", config, "--no-progress")
    assert _run(*args).returncode == 0
    cut = whole[: whole.index('"id": 3')].rstrip().rstrip("{").rstrip()  # "... }," and the file ends
    rows.write_text(cut)
    records = list(iter_records(rows))
    assert [r.error for r in records][-1] == CUT_SHORT and len(records) == 3
    done = _run(*args)
    assert done.returncode == 0 and "cut short" in done.stderr, done.stderr
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == [1, 2, 3, 4]


def test_score_never_writes_its_record_over_another_output(tmp_path) -> None:
    config = tmp_path / "c.yaml"
    write_offline_config(config)
    rows = tmp_path / "in.jsonl"
    write_jsonl(rows, ROWS)
    first = tmp_path / "run.jsonl.job.json"
    assert _run("reward_engine.score", "--input", rows, "--output", first, "--config", config).returncode == 0
    scored = first.read_text()
    done = _run("reward_engine.score", "--input", rows, "--output", tmp_path / "run.jsonl", "--config", config)
    assert done.returncode == 2 and "is not a job record" in done.stderr and first.read_text() == scored


def test_score_reads_parts_and_refuses_a_blank_reexport(tmp_path) -> None:
    config = tmp_path / "c.yaml"
    write_offline_config(config)
    rows, out = tmp_path / "in.jsonl", tmp_path / "o.jsonl"
    parts = [{"role": "assistant", "content": [{"type": "text", "text": "<think>Hmm.</think><answer>Paris</answer>"}]}]
    rows.write_text("".join(json.dumps(dict(r, completion=parts)) + "\n" for r in ROWS))
    args = ("reward_engine.score", "--input", rows, "--output", out, "--config", config, "--no-progress")
    assert _run(*args).returncode == 0
    assert {json.loads(line)["label"] for line in out.read_text().splitlines()} == {"CORRECT"}
    rows.write_text("\n")
    done = _run(*args)
    assert done.returncode == 2 and "is empty" in done.stderr and len(out.read_text().splitlines()) == 4


def test_plugins_are_part_of_the_fingerprint() -> None:
    from reward_engine.config import parse_reward_config

    plain = parse_reward_config(OFFLINE)
    assert "plugins" not in json.dumps(plain.model_dump()) or plain.plugins == []
    other = plain.model_copy(update={"plugins": ["json"]})  # any importable module name
    assert other.fingerprint() != plain.fingerprint()


def test_verl_reads_an_edited_config_again(tmp_path) -> None:
    from reward_engine import verl

    path = tmp_path / "r.yaml"
    write_offline_config(path)
    before = verl._stamp(str(path))
    write_offline_config(path, semantics={"incorrect": -3})
    assert verl._stamp(str(path)) != before


def test_a_kb_moved_over_its_path_is_read_again_after_reopen(tmp_path) -> None:
    from retrieval.kb import KnowledgeBase

    def build(name: str, text: str) -> Path:
        docs, db = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.db"
        docs.write_text(json.dumps({"title": "Eiffel Tower", "text": text}) + "\n")
        assert _run("retrieval.build", "--input", docs, "--db", db, "--no-dense", "--no-progress").returncode == 0
        return db

    live, new = build("live", "Completed in 1889."), build("new", "Completed in 1901.")
    with KnowledgeBase(live) as kb:
        assert "1889" in kb.title_passages("Eiffel Tower", 5)[0].text
        new.replace(live)
        kb.reopen()
        assert "1901" in kb.title_passages("Eiffel Tower", 5)[0].text
    with sqlite3.connect(live) as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 1


def test_a_title_repeated_in_a_keyless_documents_table_keeps_every_text(tmp_path) -> None:
    """A documents table a script made without a key, one title on two rows: both texts are indexed under it and
    the build says so; a rebuild changes nothing; dropping one row drops its text (the title's passages follow)."""
    from retrieval.kb import KnowledgeBase

    db = tmp_path / "fs.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE documents (title TEXT, text TEXT)")
        conn.executemany(
            "INSERT INTO documents VALUES (?, ?)",
            [("Paris", PARIS), ("Field notes", "Alphaword opens the first note."), ("Field notes", "Betaword ends.")],
        )
    conn.close()

    def build() -> tuple[str, set[str]]:
        done = _run("retrieval.build", "--from-db", db, "--no-dense", "--no-progress")
        assert done.returncode == 0, done.stderr
        with KnowledgeBase(db) as kb:
            return done.stdout + done.stderr, {p.text for p in kb.title_passages("Field notes", 10)}

    said, texts = build()
    assert texts == {"Alphaword opens the first note.", "Betaword ends."}
    assert "'Field notes' (2 rows)" in said
    said, again = build()
    assert again == texts and '"documents_changed": 0' in said
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM documents WHERE text LIKE 'Betaword%'")
    conn.close()
    assert build()[1] == {"Alphaword opens the first note."}


def test_repeats_are_looked_for_only_where_nothing_keeps_titles_unique(tmp_path) -> None:
    """FActScore's keyed table and a unique index need no look; a key-less table with a repeat is read."""
    from retrieval.store import _repeated_titles

    conn = sqlite3.connect(tmp_path / "k.db")
    conn.execute("CREATE TABLE documents (title TEXT, text TEXT)")
    conn.executemany("INSERT INTO documents VALUES (?, ?)", [("Paris", "x"), ("Paris", "y"), ("Lyon", "z")])
    assert _repeated_titles(conn) == {"Paris": ("Paris", 2)}
    conn.execute("DELETE FROM documents WHERE text = 'y'")
    conn.execute('CREATE UNIQUE INDEX "by title" ON documents(title)')
    assert _repeated_titles(conn) == {}
    conn.close()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # json.dump's one-line array with JSONL rows appended: the first line is one record, told why
        (json.dumps(ROWS[:2]) + "\n" + json.dumps(ROWS[2]) + "\n", "got list of 2 objects: a one-line JSON array"),
        # two files joined, the first without its last newline: the fused line is one record, told why
        (json.dumps(ROWS[0]) + json.dumps(ROWS[1]) + "\n" + json.dumps(ROWS[2]) + "\n", "two rows on one line"),
    ],
)
def test_rows_run_together_are_named_with_their_likely_cause(tmp_path, text: str, said: str) -> None:
    from knowrl_io.jsonl import read_rows

    path = tmp_path / "in.jsonl"
    path.write_text(text)
    rows = list(read_rows(path, {"question": (str,)}, {}))
    assert [(r.line, r.error is None) for r in rows] == [(1, False), (2, True)]
    assert rows[0].error.startswith(f"{path}:1: ") and said in rows[0].error
    assert rows[1].id == 3


def test_cached_evidence_is_keyed_to_the_search_code(tmp_path, monkeypatch) -> None:
    """A ranking fix in retrieval/fts.py is another search version, and evidence found before it is not read."""
    import shutil

    from retrieval import version
    from reward_engine.stages import evidence_cache

    copy = tmp_path / "retrieval"
    shutil.copytree(Path(version.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = version.code_digest(copy)
    assert before == version.search_version()  # the copy is this package
    (copy / "fts.py").write_text((copy / "fts.py").read_text() + "\n# bm25 weights changed\n")
    after = version.code_digest(copy)
    assert after != before
    key = evidence_cache.evidence_key("kb", "claim", 5, "hybrid", "Paris", "")
    monkeypatch.setattr(evidence_cache, "search_version", lambda: after)
    assert evidence_cache.evidence_key("kb", "claim", 5, "hybrid", "Paris", "") != key


async def test_an_engine_over_a_served_kb_sees_an_edit_under_the_server(tmp_path) -> None:
    """One long-lived engine reads its evidence from ``retrieval.serve`` (HttpSource, real HTTP on 127.0.0.1); the
    served KB is edited in place between two identical steps: the second step is a fresh engine's."""
    import subprocess
    import sys

    from reward_engine.config import parse_reward_config
    from reward_engine.engine import RewardEngine, Sample
    from tests.test_hostile_pass9 import TOWER, _kb, _update_in_place

    db = _kb(tmp_path, "1889")
    server = subprocess.Popen([sys.executable, "-m", "retrieval.serve", "--db", str(db), "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    try:
        url = server.stdout.readline().split()[-1]
        assert url.startswith("http://127.0.0.1:"), url
        source = {"source": "retrieval.http_source:HttpSource", "source_options": {"url": url}}
        source["retrieval_mode"] = "bm25"
        offline = {"grader": "offline", "decomposer": "offline", "verifier": "offline"}
        config = parse_reward_config({"preset": "knowrl", **offline, "factuality": source})
        async with RewardEngine(config) as engine:
            (first,) = await engine.score([Sample(*TOWER)])
            _update_in_place(db)
            (second,) = await engine.score([Sample(*TOWER)])
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert [c.supported for c in first.claims] == [True] and [c.supported for c in second.claims] == [False]


@pytest.mark.parametrize(
    ("answer", "contradicted"),
    [
        ("It was completed in eighteen eighty-nine.", False),
        ("Eighteen eighty-nine", False),
        ("It was completed in Eighteen Ninety.", True),
        ("It was one of the first towers, completed in 1889.", False),  # a lone number word stays a word
        ("It was one of the first towers, completed in 1890.", True),
    ],
)
def test_binary_rar_reads_a_year_said_in_words_inside_a_sentence(answer: str, contradicted: bool) -> None:
    question = "In which year was the Eiffel Tower completed?"
    assert facts.answer_contradicted(question, answer, [PARIS]) is contradicted
