"""Hostile pass 45 (seed 45045, run at af00244, issue #74): 30 cases written before they were run; 22 held, no data
loss and no stale result (8 jobs: a warm stopped with Ctrl-C, two builds on one KB at once, a duplicate line
deleted, names with a newline and a tab, train's output_dir on its data, a KB link repointed, an interrupted
--overwrite with a new config). Closed here (each assertion failed on af00244):

- wrong answers paid right: "The President." for the gold "Vice President" (an office's last word read as a
  family name); Binary RAR paid "7:00 am." where the evidence says 7:00 pm; `supported` held "in the early 1960s"
  against "in the late 1960s";
- a usage error (`--max-error-share nan`) printed argparse's usage block: now one line, as the docs say.

Left (in the issue's note): R1, one sentence cut into its atoms under knowrl-robust ("Fences is a film.", "...
directed by Denzel Washington", "... came out in 2016"): each atom holds words of its own, as FActScore's atomic facts
do, so they count apart; G5 "A trio." for three (NOT_ATTEMPTED; closed in pass 47: an ensemble is its count); G14
"Season 9." for "the show's ninth season" and G7 "It has no dimension." for "dimensionless" (INCORRECT: aliases
"ninth season" and "no dimension" were tried and taken back, review 46 found them paying "The eighth season; the
ninth season only shows his funeral." and "no dimension of length, but the dimension of time").

Review 46 (136 cases, 3dd2367 against 8811a39) found 28 regressions of the first forms: the office rule refused
"King." for Kerry King and "Pope." for Alexander Pope (now only a gold of modifiers and an office, "Vice
President", "Attorney General"), the clock rule "7:00 pm, not 7:00 am" (now only when no time the response gives
is the evidence's), the decade rule a year the evidence gives ("formed in 1961" is early 1960s), and the aliases
above; 0 left, its cases pinned in tests/data/grader_reviews.jsonl.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

ROOT = Path(__file__).resolve().parents[1]
UNION = "Who sits next to the Speaker of the House during the State of the Union?"


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("The President.", "Vice President", UNION, Label.INCORRECT),
        ("Minister.", "Prime Minister", "Who heads the government?", Label.INCORRECT),
        ("The Vice President.", "Vice President", UNION, Label.CORRECT),
        ("Hanks.", "Tom Hanks", "Who played Forrest Gump?", Label.CORRECT),  # a person's family name still answers
        ("King.", "Stephen King", "Who wrote Carrie?", Label.CORRECT),  # a person named like an office (review 46)
        ("Season 10.", "the show's ninth season", "When does Mark Sloan die in Grey's Anatomy?", Label.INCORRECT),
        ("It has the dimension of time.", "dimensionless", "What is the dimension of the Erlang?", Label.INCORRECT),
    ],
)
def test_offices_and_plain_forms_of_a_gold(answer: str, gold: str, question: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


def test_the_half_of_the_day_and_the_part_of_the_decade() -> None:
    asked, told = "When does Home and Away start on Channel 7?", ["Home and Away starts on Channel 7 at 7:00 pm."]
    assert facts.answer_contradicted(asked, "7:00 am.", told)
    assert not facts.answer_contradicted(asked, "7 pm", told)
    assert not facts.answer_contradicted(asked, "At 7:00 pm, not 7:00 am as some listings say.", told)
    late = ["Agent Orange was first used in Korea in the late 1960s along the Korean Demilitarized Zone."]
    assert not facts.supported("Agent Orange was first used in Korea in the early 1960s.", late)
    assert facts.supported("Agent Orange was first used in Korea in the late 1960s.", late)


def test_a_bad_flag_value_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "c.json").write_text("{}")
    done = subprocess.run(
        [sys.executable, "-m", "reward_engine.score", "--input", str(tmp_path / "in.jsonl"), "--output",
         str(tmp_path / "o.jsonl"), "--config", str(tmp_path / "c.json"), "--max-error-share", "nan"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "--max-error-share: must be a share from 0 to 1, got 'nan'" in done.stderr
    assert not (tmp_path / "o.jsonl").exists()
