"""Hostile pass 56 (seed 56056, run at 96b8607, issue #74): 30 cases written before they were run; 15 held. The
grader and fact-check cases closed here (each assertion failed on 96b8607); the job cases are in
tests/test_hostile_pass56_jobs.py.

- wrong paid right: "The Deputy Prime Minister." for Prime Minister (an office under the gold's);
- wrong paid as an abstention: "Boxing Day, 2013." for 25 December 2013 (a fixed-date holiday is its date:
  ``rewrites.holidays_as_dates``); "I don't know, but my money's on Harry Vanda." (a bet is a guess, committed);
- right paid wrong: "I'll pass on this one." was INCORRECT (-3 under threshold t 0.75), now an abstention;
  ``supported`` of "on Christmas Day 2013" by "on 25 December 2013".

Left (in the issue's note): "Paul Young." for John Paul Young (the gold's middle and family names: offline it reads
as "Paul McCartney" for James Paul McCartney does) and the fact term and Binary RAR that follow it; "Beverly Hills."
for The Beverly Hills Hotel (unsure); multi-process ``--resume`` on CPU; ``evaluate``/``merge`` with an adapter of
another base (a traceback).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import grade

LOVE = "Who had a hit with Love Is in the Air?"
INDIA = "Who is the constitutional head of government of India?"
RELEASED = "When was The Wolf of Wall Street released in the United States?"


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("The Deputy Prime Minister.", "Prime Minister", INDIA, "INCORRECT"),
        ("The Prime Minister.", "Prime Minister", INDIA, "CORRECT"),
        ("The Vice President.", "President", "Who is the head of state of the United States?", "INCORRECT"),
        ("The Lieutenant Governor.", "Governor", "Who is the head of a US state's government?", "INCORRECT"),
        ("The Vice President.", "Vice President", "Which office did she hold?", "CORRECT"),
        ("Boxing Day, 2013.", "25 December 2013", RELEASED, "INCORRECT"),
        ("On Christmas Day 2013.", "25 December 2013", RELEASED, "CORRECT"),
        ("I'll pass on this one.", "John Paul Young", LOVE, "NOT_ATTEMPTED"),
        ("Skipping this one.", "John Paul Young", LOVE, "NOT_ATTEMPTED"),
        ("I don't know, but my money's on Harry Vanda.", "John Paul Young", LOVE, "INCORRECT"),
        ("I'd bet on Harry Vanda.", "John Paul Young", LOVE, "INCORRECT"),
    ],
)
def test_pass56_wordings(answer: str, gold: str, question: str, label: str) -> None:
    assert grade(answer, gold, question).name == label


def test_a_fixed_date_holiday_is_its_date_in_supported() -> None:
    passage = ["The Wolf of Wall Street was released in the United States on 25 December 2013."]
    assert facts.supported("The Wolf of Wall Street was released on Christmas Day 2013.", passage)
    assert not facts.supported("The Wolf of Wall Street was released on Boxing Day 2013.", passage)
    assert facts.supported("Halloween is on 31 October.", ["Halloween is celebrated on 31 October."])


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        # the landing review of this session's rules: right answers the first versions paid wrong, and back
        ("He served under Henry VIII.", "Henry VIII", "Which king did he serve?", "CORRECT"),
        ("Lieutenant John Chard.", "John Chard", "Who led the defence of Rorke's Drift?", "CORRECT"),
        ("Hardly.", "hard", "How was the exam?", "INCORRECT"),
        ("Deadly.", "dead", "What state was the patient in?", "INCORRECT"),
        ("In the Republic of Ireland.", "Ireland", "Where was he born?", "CORRECT"),
        ("In the State of Israel.", "Israel", "Where was she born?", "CORRECT"),
        ("I'd skip Lyon; the answer is Paris.", "Paris", "What is the capital of France?", "CORRECT"),
        ("I'll pass.", "Paris", "What is the capital of France?", "NOT_ATTEMPTED"),
        (
            "William Lamb. His father was the 1st Viscount Melbourne.",
            "William Lamb, 2nd Viscount Melbourne",
            "Where does the name Melbourne come from?",
            "CORRECT",
        ),
        ("Wilson; Fences premiered in March 1985.", "August Wilson", "Who wrote the play Fences?", "CORRECT"),
    ],
)
def test_landing_review_wordings(answer: str, gold: str, question: str, label: str) -> None:
    assert grade(answer, gold, question).name == label
