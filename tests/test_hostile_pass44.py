"""Hostile pass 44 (seed 44044, run at c8dc691, issue #74): 30 cases written before they were run. Closed here (each
assertion failed on c8dc691):

- two `score` runs at once on one file, one naming it through a symbolic link, each took the lock beside the name it
  was given and both wrote the file: both exited 0 with 256 of 600 rows left (data loss). The file a link names is
  now locked too;
- wrong answers paid right: a comparison turned round in any adjective ("The Dead Sea is less salty than the Red
  Sea." for the saltier; only a list of fifteen was read), the gold ranked second ("Nolan Ryan is second only to
  Sandy Koufax."), the event denied after the gold ("..., but the merger never went through."), the gold town in
  another state than the question's ("Montgomery County, Maryland.");
- Binary RAR paid "The Red Sea." where the evidence says the Dead Sea is saltier, and "In the spring of 1979."
  where it began "in the fall of 1979"; `supported` held the spring claim (seasons were not read);
- `contradicted` missed "less salty" against "much saltier";
- under-pay: "In the Rococo period." was INCORRECT for the gold "Rococo-era".

Review 45 (138 cases, 51ac576 against 95b14b5) found 23 regressions of these rules' first forms, all mended: a rank
said of the gold (a verb after it, or "second only to / behind X"; not "; second is X", "a second time", a rank in a
wider group), a denial whose subject is "it" or the question's own event and a question asking no start or plan,
the asked state only from the question's main clause, seasons inside names (Winter Palace, Arab Spring) no season,
comparisons only between the question's options, a comparison opened by what limits it ("In 2023, ...") left alone,
a runner-up only after the pick. Its cases are pinned in tests/data/grader_reviews.jsonl.

Left (in the issue's note): G3 "The Red Sea is far less salty." (the pick said through the other option, no
"than"), G8 "Three sons and a daughter." for 4 (parts not added), G12
"Somewhere between 230 and 250." for 240 read as vague (NOT_ATTEMPTED, SimpleQA's own rule for a range around the
gold).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from knowrl_io.job_output import OutputError, own_output
from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

MERGER = "When did Tim Hortons merge with Burger King?"
BASE = "Where is the Air Force Base in Alabama?"
ZONES = "Which country has the largest number of time zones?"


def test_a_run_through_a_link_and_a_run_naming_its_file_are_two_writers(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": 1}\n')
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    link.symlink_to(real.name)  # dangling: neither run has written yet
    with own_output(real, source, "score", "s"):
        with pytest.raises(OutputError, match="another job is writing"):
            with own_output(link, source, "score", "s"):
                pass
    with own_output(link, source, "score", "s"):  # and the other way round
        with pytest.raises(OutputError, match="another job is writing"):
            with own_output(real, source, "score", "s"):
                pass
    assert link.is_symlink()


def test_two_links_to_one_file_are_two_writers(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": 1}\n')
    (tmp_path / "a.jsonl").symlink_to("real.jsonl")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "real.jsonl")
    with own_output(tmp_path / "a.jsonl", source, "score", "s"):
        with pytest.raises(OutputError, match="real.jsonl.lock"):
            with own_output(tmp_path / "b.jsonl", source, "score", "s"):
                pass


SALTIER = "Which is saltier, Dead Sea or Red Sea?"


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("The Dead Sea is less salty than the Red Sea.", Label.INCORRECT),  # any comparative, turned round
        ("The Red Sea is saltier than the Dead Sea.", Label.INCORRECT),
        ("The Dead Sea is saltier than the Red Sea.", Label.CORRECT),
        ("The Red Sea is less salty than the Dead Sea.", Label.CORRECT),
        ("The Dead Sea.", Label.CORRECT),
    ],
)
def test_a_comparison_of_any_adjective_is_read_for_the_option_it_picks(answer: str, label: Label) -> None:
    assert grade(answer, "Dead Sea", SALTIER) is label


def test_comparisons_of_any_adjective_contradict_and_pick() -> None:
    assert facts.contradicted(
        "The Dead Sea is less salty than the Red Sea.", ["The Dead Sea is much saltier than the Red Sea."]
    )
    sea = ["With a salinity of 34 percent, the Dead Sea is far saltier than the Red Sea."]
    assert facts.answer_contradicted(SALTIER, "The Red Sea.", sea)  # Binary RAR paid it 1
    assert not facts.answer_contradicted(SALTIER, "The Dead Sea.", sea)


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("Nolan Ryan is second only to Sandy Koufax.", "Nolan Ryan", "Who has the most no-hitters?", Label.INCORRECT),
        ("Nolan Ryan came a distant second.", "Nolan Ryan", "Who has the most no-hitters?", Label.INCORRECT),
        ("Nolan Ryan, second to none.", "Nolan Ryan", "Who has the most no-hitters?", Label.CORRECT),
        ("Nolan Ryan; Koufax is second.", "Nolan Ryan", "Who has the most no-hitters?", Label.CORRECT),
        ("Nolan Ryan; second is Sandy Koufax.", "Nolan Ryan", "Who has the most no-hitters?", Label.CORRECT),
        ("2014; the planned sequel never happened.", "2014", "When was the film released?", Label.CORRECT),
        ("Memphis, Tennessee", "Memphis", "Born in Mississippi, Elvis Presley died in which city?", Label.CORRECT),
        ("It was announced in 2014, but the merger never went through.", "2014", MERGER, Label.INCORRECT),
        ("2014, though it was not completed until December.", "2014", MERGER, Label.CORRECT),
        ("Montgomery County, Maryland.", "Montgomery", BASE, Label.INCORRECT),
        ("Montgomery, Alabama.", "Montgomery", BASE, Label.CORRECT),
        ("France, with 12 time zones; Russia has 11.", "France", ZONES, Label.CORRECT),
        ("In the Rococo period.", "Rococo-era", "In which era was the palace decorated?", Label.CORRECT),
        ("In the Baroque period.", "Rococo-era", "In which era was the palace decorated?", Label.INCORRECT),
    ],
)
def test_the_gold_named_but_ranked_below_denied_or_misplaced(answer: str, gold: str, question: str, label) -> None:
    assert grade(answer, gold, question) is label


def test_another_season_is_another_date() -> None:
    began = ["The UCF Knights football program of the University of Central Florida began play in the fall of 1979."]
    asked = "When did the University of Central Florida start playing football?"
    assert facts.answer_contradicted(asked, "In the spring of 1979.", began)
    assert not facts.answer_contradicted(asked, "In autumn 1979.", began)
    assert not facts.supported("UCF began playing football in the spring of 1979.", began)
    assert facts.supported("UCF began play in the fall of 1979.", began)
