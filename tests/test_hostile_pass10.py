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
    config.write_text(json.dumps({"grader": "offline", "factuality": {"enabled": False}}))
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
    config.write_text(json.dumps({"grader": "offline", "factuality": {"enabled": False}}))
    rows = tmp_path / "in.jsonl"
    rows.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    first = tmp_path / "run.jsonl.job.json"
    assert _run("reward_engine.score", "--input", rows, "--output", first, "--config", config).returncode == 0
    scored = first.read_text()
    done = _run("reward_engine.score", "--input", rows, "--output", tmp_path / "run.jsonl", "--config", config)
    assert done.returncode == 2 and "is not a job record" in done.stderr and first.read_text() == scored


def test_score_reads_parts_and_refuses_a_blank_reexport(tmp_path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(json.dumps({"grader": "offline", "factuality": {"enabled": False}}))
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

    plain = parse_reward_config({"grader": "offline", "factuality": {"enabled": False}})
    assert "plugins" not in json.dumps(plain.model_dump()) or plain.plugins == []
    other = plain.model_copy(update={"plugins": ["json"]})  # any importable module name
    assert other.fingerprint() != plain.fingerprint()


def test_verl_reads_an_edited_config_again(tmp_path) -> None:
    from reward_engine import verl

    path = tmp_path / "r.yaml"
    path.write_text(json.dumps({"grader": "offline", "factuality": {"enabled": False}}))
    before = verl._stamp(str(path))
    path.write_text(json.dumps({"grader": "offline", "factuality": {"enabled": False}, "semantics": {"incorrect": -3}}))
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
