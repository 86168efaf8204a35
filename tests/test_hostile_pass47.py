"""Hostile pass 47 (seed 47047, run at da08d55, issue #74) and what was found beside it. Each assertion failed on
da08d55.

Pass 47: 21 of 30 held; no job case lost data, left a stale result or ended in a traceback (a KB rebuilt on a full
disk, an input still being written, a KB rebuilt under a running score, a cache on a full disk, a list title, an
output named like a lock file's stem, rows deleted from the input, a build input without texts). Closed here:

- wrong answers paid: Binary RAR paid "In late 1981." and "In December 1981." where the evidence dates it 17 January
  1981, and ``supported`` held the claim (only years were compared); the grader called "In the autumn of 1981."
  NOT_ATTEMPTED for 17 January 1981; "Not on any one person, though Frank Mundus is often cited." was CORRECT for
  Frank Mundus (the premise denied, the gold named only as what others say);
- right answers paid wrong: "Rob Knepper." for Robert Knepper (grader, ``supported`` and Binary RAR: a short given
  name read as another; only that way round), "I don't know, though it wasn't Henry Mancini." (INCORRECT;
  truthrl-strict paid -1: the ruled-out name read as a guess; in tests/test_reward_holes_round3.py through every
  entry point).

- a stale result with exit 0 (J3, passed by its lenient expectation but seen in its output): a KB rebuilt under a
  running ``score`` left 1,024 rows scored against the old text and 976 against the new, exit 0 with a warning; the
  job now reads the KB's content version again at its end and exits 5 with one line (every row written; the same
  command refuses the output, ``--overwrite`` scores it again).

Left (in the issue's note): G7 "Between the 2007 and 2008 seasons." for "Following the 2007 season" (INCORRECT),
G13 "The United States, Guatemala and Belize." for the incomplete gold "United States of America" (a list), G3 "Ira
and Charlie Louvin." for The Louvin Brothers and R2 "The Columbia Broadcasting System." where the evidence says CBS
(Binary RAR 0): a members-as-the-group rule and an initialism rule were tried and taken back, review 47 found them
paying "Groucho and Karl Marx." for the Marx Brothers and "World Wrestling Federation" against "the WWF, the
conservation charity" (any names with the family word, any expansion with the initials).

Found beside the pass:
- pass 46's G6: "Hundreds of thousands." was CORRECT for the gold "Thousands" (the gold's word inside another
  order of magnitude);
- "Season 9; the eighth season." was CORRECT for "Season 9": a second season said as "the ..." read as a description;
- a gold given with an alias (``["three", "trio"]``) paid "Octopuses have one heart; squids have three.", INCORRECT
  for "three" alone: a wrong candidate competed with one alias and not the other, and the grader took the milder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reward_engine.offline import facts
from reward_engine.offline.commitment import commits
from reward_engine.offline.grader import Label, grade

NEPAL = "How many houses were destroyed in Nepal earthquake?"
SEASON = "In which season does he die?"
SQUID = "How many hearts does a squid have?"
ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("Hundreds of thousands.", "Thousands", Label.INCORRECT),
        ("Tens of thousands.", "Thousands", Label.INCORRECT),
        ("Thousands of houses.", "Thousands", Label.CORRECT),
        ("Hundreds of thousands.", "Hundreds of thousands", Label.CORRECT),
    ],
)
def test_another_order_of_magnitude(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, NEPAL) is label


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Season 9; the eighth season.", Label.INCORRECT),
        ("Season 9 or the 8th season.", Label.INCORRECT),
        ("Season 9. Maybe season eight.", Label.INCORRECT),
        ("Season 9; engaged in Season 6", Label.CORRECT),  # a detail of another season (review 44)
        ("Season 9, in episode 5.", Label.CORRECT),
    ],
)
def test_a_second_season_is_a_second_answer(answer: str, label: Label) -> None:
    assert grade(answer, "Season 9", SEASON) is label
    assert grade(answer, "the ninth season", SEASON) is label


def test_an_alias_the_answer_does_not_use_changes_nothing() -> None:
    answer = "Octopuses have one heart; squids have three."
    alone = grade(answer, "three", SQUID)
    assert alone is Label.INCORRECT
    assert grade(answer, ["three", "trio"], SQUID) is alone
    assert grade(answer, ["trio", "three"], SQUID) is alone
    assert grade("Three.", ["three", "trio"], SQUID) is Label.CORRECT


MARTIAL = (
    "Martial law in the Philippines was declared by Ferdinand Marcos in September 1972. Martial law in the "
    "Philippines was lifted on 17 January 1981."
)
LIFTED = "When was martial law lifted in the Philippines?"


@pytest.mark.parametrize(
    ("answer", "contradicted"),
    [
        ("In late 1981.", True),
        ("In December 1981.", True),
        ("On 17 December 1981.", True),
        ("In the autumn of 1981.", True),
        ("In early 1981.", False),
        ("In January 1981.", False),
        ("In 1981.", False),
        ("In the winter of 1981.", False),  # January is winter in the north
    ],
)
def test_a_time_of_year_the_evidence_does_not_give(answer: str, contradicted: bool) -> None:
    assert facts.answer_contradicted(LIFTED, answer, [MARTIAL]) is contradicted


def test_a_month_the_evidence_does_not_give_is_not_supported() -> None:
    assert not facts.supported("Martial law in the Philippines was lifted in late 1981.", [MARTIAL])
    assert facts.supported("Martial law in the Philippines was lifted in January 1981.", [MARTIAL])
    recorded = ["The album was recorded in March 1981 and released in 1981."]  # the year alone too: left open
    assert not facts.answer_contradicted("When was the album released?", "In June 1981.", recorded)


def test_a_season_outside_the_gold_date() -> None:
    assert grade("In the autumn of 1981.", "17 January 1981", LIFTED) is Label.INCORRECT
    assert grade("In the winter of 1981.", "17 January 1981", LIFTED) is Label.NOT_ATTEMPTED


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Not on any one person, though Frank Mundus is often cited.", Label.INCORRECT),
        ("No one in particular; Frank Mundus is often cited.", Label.INCORRECT),
        ("Frank Mundus, though some say no one in particular.", Label.CORRECT),
    ],
)
def test_the_premise_denied(answer: str, label: Label) -> None:
    assert grade(answer, "Frank Mundus", "Who was the character Quint in Jaws based on?") is label


def test_a_doubt_is_no_premise_denied() -> None:
    doubt = "Nobody knows for sure; Frank Mundus is often cited."  # a refusal and an aside, not a denial
    assert grade(doubt, "Frank Mundus", "Who was the character Quint in Jaws based on?") is not Label.INCORRECT


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("Rob Knepper.", "Robert Knepper", Label.CORRECT),
        ("William Smith.", "Will Smith", Label.INCORRECT),  # only that way round: Will Smith is a Willard (review 47)
        ("Andrew Barrymore.", "Drew Barrymore", Label.INCORRECT),
        ("Bill Clinton.", "William Clinton", Label.CORRECT),
        ("Dan Brown.", "Don Brown", Label.INCORRECT),  # a name of its own, one vowel away
        ("Jim Carrey.", "John Carrey", Label.INCORRECT),
    ],
)
def test_a_short_given_name(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, "Who played him?") is label


def test_a_short_given_name_in_the_fact_checks() -> None:
    heroes = ["Robert Knepper played Samuel Sullivan in the NBC series Heroes."]
    assert facts.supported("Rob Knepper played Samuel Sullivan in Heroes.", heroes)
    assert not facts.supported("Dan Knepper played Samuel Sullivan in Heroes.", heroes)
    # "Bob" is Dylan's, not Plant's: the short form counts only before the same family name (review 47)
    assert not facts.supported("Bob Dylan wrote the song.", ["Robert Plant wrote the song; Dylan later covered it."])
    asked = "Who played Samuel Sullivan in Heroes?"
    assert not facts.answer_contradicted(asked, "Rob Knepper.", heroes)
    assert facts.answer_contradicted(asked, "Dan Knepper.", heroes)


def test_one_ruled_out_after_a_refusal_commits_to_nothing() -> None:
    asked = "Who wrote the theme to Sanford and Son?"
    answer = "I don't know, though it wasn't Henry Mancini."
    assert not commits(answer, asked)
    assert grade(answer, "Quincy Jones", asked) is Label.NOT_ATTEMPTED
    assert grade(answer, "Henry Mancini", asked) is Label.INCORRECT
    assert commits("I don't know. Maybe Henry Mancini.", asked)


def _build(docs: list[dict[str, str]], source: Path, db: Path) -> None:
    source.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    argv = ["--input", str(source), "--db", str(db), "--no-dense", "--no-progress", "--overwrite"]  # another input
    done = subprocess.run([sys.executable, "-m", "retrieval.build", *argv], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_knowledge_base_rebuilt_under_a_score_is_no_success(tmp_path: Path) -> None:
    """Pass 47's J3: a KB rebuilt while ``score`` ran left rows scored against both texts, exit 0 with a warning."""
    text = "Ray Walston played Uncle Martin, the Martian, in My Favorite Martian."
    db = tmp_path / "kb.db"
    _build([{"title": "My Favorite Martian", "text": text}], tmp_path / "a.jsonl", db)
    config = tmp_path / "cfg.json"
    config.write_text(
        json.dumps(
            {
                "preset": "knowrl-robust",
                "grader": "offline",
                "decomposer": "offline",
                "verifier": "offline",
                "factuality": {"enabled": True, "kb_path": str(db), "retrieval_mode": "bm25"},
            }
        )
    )
    completion = f"<think>\n{text}\n</think>\n<answer>\nBill Bixby.\n</answer>"
    row = {"question": "Who played Uncle Martin?", "answers": "Ray Walston", "title": "My Favorite Martian"}
    rows = [json.dumps({**row, "id": i, "completion": completion + " " * (i % 7)}) + "\n" for i in range(40)]
    out = tmp_path / "out.jsonl"
    argv = ["--input", "-", "--output", str(out), "--config", str(config), "--no-progress", "--batch-size", "4"]
    env = dict(os.environ, PYTHONPATH=str(ROOT), KNOWRL_CACHE_DIR=str(tmp_path / "cache"))
    job = subprocess.Popen(
        [sys.executable, "-m", "reward_engine.score", *argv],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert job.stdin is not None
    job.stdin.write("".join(rows[:20]))
    job.stdin.flush()
    deadline = time.monotonic() + 120
    while (not out.exists() or out.read_text().count("\n") < 4) and time.monotonic() < deadline:
        time.sleep(0.1)  # some rows scored against the first text
    _build([{"title": "My Favorite Martian", "text": text.replace("Ray Walston", "Bob Walker")}], tmp_path / "b", db)
    stdout, stderr = job.communicate("".join(rows[20:]), timeout=300)
    assert job.returncode == 5, stderr
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "the knowledge base changed while scoring" in lines[0], stderr
    assert len(out.read_text().splitlines()) == 40  # every row written
    again = subprocess.run(
        [sys.executable, "-m", "reward_engine.score", *argv],
        cwd=ROOT,
        env=env,
        input="".join(rows),
        text=True,
        capture_output=True,
    )
    assert again.returncode == 2 and "another version of the knowledge base" in again.stderr, again.stderr


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("A trio.", "three", Label.CORRECT),  # pass 45's G5
        ("Three, or possibly a duo.", ["three", "trio"], Label.INCORRECT),
        ("A trio; the band formed in 1994.", ["three", "trio"], Label.CORRECT),  # review 47: a year is detail
        ("Three members; they released two albums.", ["three", "trio"], Label.CORRECT),  # another count: detail
        ("Three; later there were five.", "three", Label.INCORRECT),
    ],
)
def test_ensembles_count_and_other_figures_are_detail(answer: str, gold: str | list[str], label: Label) -> None:
    assert grade(answer, gold, "How many members were in the band's classic line-up?") is label


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("Thousands, in a city of hundreds of thousands.", "Thousands", Label.CORRECT),  # review 47
        ("Thousands of protesters; tens of thousands more watched on television.", "Thousands", Label.CORRECT),
        ("Hundreds of thousands.", "Hundreds", Label.INCORRECT),
        ("Tens of thousands.", "Hundreds of thousands", Label.INCORRECT),
    ],
)
def test_a_magnitude_in_a_detail(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, "How many people protested?") is label


def test_a_time_of_year_another_event_has_is_left_open() -> None:
    single = ["The single was released on 3 July 1981, and the album was released in the autumn."]
    assert not facts.answer_contradicted("When was the album released?", "In the autumn of 1981.", single)
    film = ["Filming began in February 1994 and wrapped in April 1994; the film premiered later that year."]
    assert not facts.answer_contradicted("When did the film premiere?", "In December 1994.", film)


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Not any single person alone, but Frank Mundus, as is often cited, was the main model.", Label.CORRECT),
        ("There was no real person behind Quint, though some point to Frank Mundus.", Label.INCORRECT),
    ],
)
def test_a_premise_denied_then_a_name_committed_to(answer: str, label: Label) -> None:
    assert grade(answer, "Frank Mundus", "Who was the character Quint in Jaws based on?") is label
