"""Hostile pass 68's findings (issue #74), as variants of its cases (the pass's own calls stay out of the tests):
``retrieval.build --from-db`` of a database with no documents left its copy behind on refusing; a town the passage
gives another deed was paid for the asked one behind "The company is ..." and its state; a body part the passage
names elsewhere was supported in another's slot after "to its"; an initialism with a digit (W3C) and initialisms
in a claim against the names spelt out were refused. Every assertion but the guards failed on 64e617e."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reward_engine.offline import facts
from tests.helpers import grade_tables, run_job


def test_build_from_a_database_with_no_documents_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "notes.db"
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    copy = tmp_path / "copy.db"
    done = run_job("-m", "retrieval.build", "--from-db", str(source), "--db", str(copy), "--no-dense", "--no-progress")
    assert done.returncode == 2 and "documents" in done.stderr and "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


APPLE = [
    "Apple was founded by Steve Jobs and Steve Wozniak in Los Altos, California, in 1976. "
    "The company is headquartered in Cupertino, California."
]


def test_a_town_of_another_deed_behind_the_company_and_its_state_is_contradicted() -> None:
    asked = "Where is Apple headquartered?"
    assert facts.answer_contradicted(asked, "In Los Altos, California.", APPLE)
    assert not facts.answer_contradicted(asked, "In Cupertino, California.", APPLE)  # guard
    assert not facts.answer_contradicted("Where was Apple founded?", "In Los Altos, California.", APPLE)  # guard


SPIDER = [
    "A spider's body has two parts: the cephalothorax and the abdomen. Its eight legs are attached to the "
    "cephalothorax."
]


def test_a_part_named_elsewhere_is_not_supported_in_another_s_slot() -> None:
    assert not facts.supported("A spider's eight legs are attached to its abdomen.", SPIDER)
    assert facts.supported("A spider's eight legs are attached to its cephalothorax.", SPIDER)  # guard


GDPR = ["The General Data Protection Regulation was adopted by the European Union in April 2016."]


def test_a_claim_s_initialisms_read_as_the_names_the_passage_spells_out() -> None:
    assert facts.supported("The EU adopted the GDPR in 2016.", GDPR)
    assert not facts.supported("The EU adopted the GDPR in 2018.", GDPR)  # guard


W3C = "Which body develops the standards of the World Wide Web?"
test_a_wrong_initialism_is_incorrect, test_an_initialism_with_a_digit_is_correct = grade_tables(
    [("The IETF.", "World Wide Web Consortium", W3C)],
    [("W3C, led by Tim Berners-Lee.", "World Wide Web Consortium", W3C)],
)
