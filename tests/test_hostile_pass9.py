"""Hostile pass 9 (issue #74): 40 new cases written before they were run; each failure closed here with a test
that fails on the code before it.

Data loss: two arrays one after the other (``cat a.json b.json``) or rows appended to an array lost everything
after the first ``]``; an id written NaN became null; rerun on an emptied input, a score job dropped every row;
a document with a NUL in its text was skipped; ``build --from-db`` copied the file without its write-ahead log;
an untyped ``documents`` table's number titles and BLOB texts were left out in silence.
Stale: an in-place ``UPDATE`` of a KB's text kept every passage id, so the evidence cache and a served KB's
version missed it; TRL's reward functions reused a batch's run when the same function asked again; the reward
code's version left out ``retrieval/text.py``, which the offline verifier reads.
Reward holes: "a few hundred metres" for 8,849 m was vague, not wrong; Binary RAR took the Physics year for
the Chemistry prize; a claim stitched from two sentences ("Japan is the most populous metropolitan area") and
a "non-" negation were supported; "...</answer> Wait, no, it's Lyon." paid the answer it took back; a message
whose content is a list of parts was read as an empty completion.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from knowrl_io.records import iter_records
from reward_engine.completion import completion_text, parse
from reward_engine.labels import Label
from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from tests.helpers import OFFLINE, write_jsonl
from tests.test_hostile_pass8_io import ROWS, _kb, _run

CONFIG = OFFLINE


def _values(path: Path) -> list[tuple[object, bool]]:
    return [(r.value.get("id") if isinstance(r.value, dict) else None, r.error is None) for r in iter_records(path)]


def test_arrays_one_after_another_and_rows_appended_to_an_array_are_all_read(tmp_path) -> None:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(ROWS[:2], indent=2) + "\n" + json.dumps(ROWS[2:], indent=2) + "\n")
    assert _values(path) == [(1, True), (2, True), (3, True), (4, True)]
    path.write_text(json.dumps(ROWS[:2], indent=2) + "\n" + "".join(json.dumps(r) + "\n" for r in ROWS[2:]))
    assert _values(path) == [(1, True), (2, True), (3, True), (4, True)]
    path.write_text(json.dumps(ROWS[:2]) + " 42\n")  # what cannot be read is said, never dropped
    records = list(iter_records(path))
    assert len(records) == 3 and "after the JSON array's end" in records[-1].error


def _score(tmp_path: Path, rows: Path, out: Path, *extra) -> object:
    config = tmp_path / "c.yaml"
    config.write_text(json.dumps(CONFIG))
    return _run("reward_engine.score", "--input", rows, "--output", out, "--config", config, "--no-progress", *extra)


def test_ids_written_nan_or_infinity_stay_told_apart(tmp_path) -> None:
    rows = tmp_path / "in.jsonl"
    rows.write_text("".join(json.dumps(dict(ROWS[0], id=v)) + "\n" for v in (float("nan"), float("inf"))))
    out = tmp_path / "o.jsonl"
    assert _score(tmp_path, rows, out).returncode == 0
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["nan", "inf"]


def test_a_rerun_on_an_emptied_input_keeps_the_scores_unless_asked(tmp_path) -> None:
    rows, out = tmp_path / "in.jsonl", tmp_path / "o.jsonl"
    write_jsonl(rows, ROWS)
    assert _score(tmp_path, rows, out).returncode == 0
    scored = out.read_text()
    rows.write_text("")
    done = _score(tmp_path, rows, out)
    assert done.returncode == 2 and "is empty" in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert out.read_text() == scored
    assert _score(tmp_path, rows, out, "--overwrite").returncode != 2


def test_build_keeps_a_document_with_a_nul_and_reads_untyped_cells(tmp_path) -> None:
    docs, db = tmp_path / "docs.jsonl", tmp_path / "kb.db"
    docs.write_text(json.dumps({"title": "Alpha", "text": "Alpha bravo.\u0000 Zanzibarword charlie."}) + "\n")
    assert _run("retrieval.build", "--input", docs, "--db", db, "--no-dense", "--no-progress").returncode == 0
    with sqlite3.connect(db) as conn:
        assert [t for (t,) in conn.execute("SELECT title FROM passages")] == ["Alpha"]
    src = tmp_path / "factscore.db"
    with sqlite3.connect(src) as conn:
        conn.execute("CREATE TABLE documents (title, text)")
        conn.executemany(
            "INSERT INTO documents VALUES (?, ?)",
            [("Paris", "Paris is a city."), (1984, "A novel."), ("Blob", b"Bytes of text."), ("Null", None)],
        )
    done = _run("retrieval.build", "--from-db", src, "--db", tmp_path / "built.db", "--no-dense", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert "1 document(s) have a NULL title or text" in done.stderr, done.stderr
    with sqlite3.connect(tmp_path / "built.db") as conn:
        assert sorted(t for (t,) in conn.execute("SELECT DISTINCT title FROM passages")) == ["1984", "Blob", "Paris"]


def test_build_from_db_copies_what_is_still_in_the_write_ahead_log(tmp_path) -> None:
    src = tmp_path / "src.db"
    writer = sqlite3.connect(src)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE documents (title TEXT, text TEXT)")
    writer.executemany("INSERT INTO documents VALUES (?, ?)", [(f"T{i}", f"Text number {i}.") for i in range(10)])
    writer.commit()  # held open: the rows stay in src.db-wal
    try:
        assert Path(f"{src}-wal").stat().st_size > 0
        done = _run("retrieval.build", "--from-db", src, "--db", tmp_path / "dst.db", "--no-dense", "--no-progress")
        assert done.returncode == 0, done.stderr
    finally:
        writer.close()
    with sqlite3.connect(tmp_path / "dst.db") as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 10


def _update_in_place(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        for table in ("documents", "passages"):
            conn.execute(f"UPDATE {table} SET text = replace(text, 'completed in 1889', 'completed in 1901')")


def _tower_config(db: Path, cache: Path | None = None) -> dict:
    factuality = {"kb_path": str(db), "retrieval_mode": "bm25", **({"cache_dir": str(cache)} if cache else {})}
    return {"preset": "knowrl", "grader": "offline", "decomposer": "offline", "verifier": "offline",
            "factuality": factuality}  # fmt: skip


TOWER = (
    "When was the Eiffel Tower completed?",
    "<think>The Eiffel Tower was completed in 1889.</think><answer>1890</answer>",
    "1889",
    "Eiffel Tower",
)


async def test_the_evidence_cache_and_a_served_kb_see_an_edit_in_place(tmp_path) -> None:
    """An UPDATE keeps every passage id: a cache keyed by the id fingerprint served the old text."""
    from retrieval.kb import KnowledgeBase
    from retrieval.serve import handlers
    from reward_engine.config import parse_reward_config
    from reward_engine.engine import RewardEngine, Sample

    db, cache = _kb(tmp_path, "1889"), tmp_path / "cache"
    with KnowledgeBase(db) as kb:
        before = handlers(kb)["info"]({})["version"]
    async with RewardEngine(parse_reward_config(_tower_config(db, cache))) as engine:
        (first,) = await engine.score([Sample(*TOWER)])
    _update_in_place(db)
    with KnowledgeBase(db) as kb:
        assert handlers(kb)["info"]({})["version"] != before
    async with RewardEngine(parse_reward_config(_tower_config(db, cache))) as engine:
        (second,) = await engine.score([Sample(*TOWER)])
    assert [c.supported for c in first.claims] == [True] and [c.supported for c in second.claims] == [False]


async def test_a_reward_function_asking_again_gets_a_new_run(tmp_path) -> None:
    from reward_engine.config import parse_reward_config
    from reward_engine.trl_rewards import KnowRLRewards

    db = _kb(tmp_path, "1889")
    rewards = KnowRLRewards(parse_reward_config(_tower_config(db)))
    form, correctness = rewards.functions()
    cols = {"question": [TOWER[0]], "answers": [TOWER[2]], "title": [TOWER[3]]}
    prompts, completions = [[{"role": "user", "content": TOWER[0]}]], [TOWER[1]]
    try:
        await form(prompts=prompts, completions=completions, **cols)
        first = await correctness(prompts=prompts, completions=completions, **cols)
        runs = rewards.engine.totals.copy()
        _update_in_place(db)
        again = await correctness(prompts=prompts, completions=completions, **cols)
    finally:
        await rewards.aclose()
    assert first != again and first[0] > again[0], (first, again, runs)


def test_the_reward_code_version_covers_the_sentence_splitter() -> None:
    import reward_engine.offline.version as version

    package = Path(version.__file__).resolve().parents[1]
    assert any((package / pattern).resolve() == (package.parent / "retrieval" / "text.py").resolve()
               for pattern in version._SCORING)  # fmt: skip


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("a few hundred metres", Label.INCORRECT),
        ("a few metres", Label.INCORRECT),
        ("a few thousand metres", Label.NOT_ATTEMPTED),
        ("several thousand metres", Label.NOT_ATTEMPTED),
    ],
)
def test_a_few_of_a_scale_that_leaves_the_gold_out_is_wrong(answer: str, label: Label) -> None:
    assert grade(answer, "8,849 m", "How high is Mount Everest?") is label


CURIE = (
    "Marie Curie was a physicist and chemist who studied radioactivity. She won the Nobel Prize in Physics in 1903 "
    "and the Nobel Prize in Chemistry in 1911."
)


@pytest.mark.parametrize(
    ("prize", "year", "contradicted"),
    [("Chemistry", "1903", True), ("Chemistry", "1911", False), ("Physics", "1911", True), ("Physics", "1903", False)],
)
def test_binary_rar_takes_the_year_the_sentence_gives_the_asked_prize(prize, year, contradicted) -> None:
    question = f"In which year did Marie Curie win the Nobel Prize in {prize}?"
    assert facts.answer_contradicted(question, year, [CURIE]) is contradicted


TOKYO = "Tokyo is the capital of Japan. The Greater Tokyo Area is the most populous metropolitan area in the world."
PYTHON = "Python is a general-purpose programming language. Guido van Rossum first released it in 1991."


@pytest.mark.parametrize(
    ("claim", "passage", "supported"),
    [
        ("Japan is the most populous metropolitan area in the world.", TOKYO, False),
        ("Greater Tokyo is the most populous metropolitan area in the world.", TOKYO, True),
        ("Tokyo is the capital of Japan.", TOKYO, True),
        ("Python was first released in 1991.", PYTHON, True),  # "it": the claim's subject may be meant
        ("Python is a non-general-purpose programming language.", PYTHON, False),
        ("Python is a general-purpose programming language.", PYTHON, True),
    ],
)
def test_a_stitched_claim_and_a_non_prefix_are_not_supported(claim: str, passage: str, supported: bool) -> None:
    assert facts.supported(claim, [passage]) is supported


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("<think>Hmm.</think><answer>Paris</answer> Wait, no, it's Lyon.", Label.INCORRECT),
        ("<think>Hmm.</think><answer>Paris</answer> Hope this helps!", Label.CORRECT),
        ("<think>Hmm.</think><answer>Paris</answer>\n", Label.CORRECT),
    ],
)
def test_words_after_the_answer_that_take_it_back_are_read_with_it(text: str, label: Label) -> None:
    assert grade(parse(text).answer, "Paris", "What is the capital of France?") is label


def test_a_message_whose_content_is_a_list_of_parts_is_its_text() -> None:
    text = "<think>Hmm.</think><answer>Paris</answer>"
    message = [{"role": "assistant", "content": [{"type": "text", "text": text}, {"type": "image"}]}]
    assert completion_text(message) == text and parse(message).answer == "Paris"
