"""Hostile pass 57 (seed 57057, run at cb7647b, issue #74): 30 cases written before they were run; 15 held. The
grader and fact-check cases closed here (each assertion below on the pass's own wordings failed on cb7647b); the job
cases are in tests/test_hostile_pass57_*.py.

- wrong paid as an abstention: "Christmas 1977." for March 24, 1977 (NOT_ATTEMPTED; knowrl-robust paid 2.0): the
  season without "Day" is its month (``rewrites.holidays_as_dates``);
- fact checks: "released at Christmas 1977" (or "in April 1977") where it says "on March 24, 1977" was never
  contradicted, a month being read as a name the passage must hold; Binary RAR paid it 1;
- right paid wrong: "A V-6." for V6 and "F16" for F-16 (a model code hyphenated the other way), ``supported`` and
  ``answer_contradicted`` of "Matti Nykaenen" against "Nykänen" (an umlaut spelt "ae"; Binary RAR paid 0).

Left (in the issue's note): "Genevieve Hannelius." for G Hannelius (INCORRECT: reading a given name spelt from the
gold's initial paid any name of that letter, "Gina Hannelius.", "Oliver Henry." for O. Henry: review 57); "David
Sloan Wilson." for Sloan Wilson, the mirror of pass 56's "Paul Young." (another given name before a gold whose first
name may be a middle name: "Thomas Woodrow Wilson" for Woodrow Wilson is the same man; telling them apart needs
knowledge).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import grade

DREAMS = "When did 'Dreams' by Fleetwood Mac come out?"
DREAMS_P = ["Dreams was released as a single on March 24, 1977."]
NYKANEN = ["Matti Nykänen won four Olympic gold medals in ski jumping."]


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("Christmas 1977.", "March 24, 1977", DREAMS, "INCORRECT"),
        ("At Christmas 1977.", "March 24, 1977", DREAMS, "INCORRECT"),
        ("Xmas 1977.", "March 24, 1977", DREAMS, "INCORRECT"),
        ("Christmas 1977.", "December 1977", DREAMS, "CORRECT"),
        ("March 1977.", "March 24, 1977", DREAMS, "NOT_ATTEMPTED"),
        ("Edmund Wilson.", "E. O. Wilson", "Who wrote Sociobiology?", "INCORRECT"),
        ("A V-6.", "V6", "Is the Honda Pilot a V6 or V8?", "CORRECT"),
        ("It's a V-8 engine.", "V6", "Is the Honda Pilot a V6 or V8?", "INCORRECT"),
        ("The B-52.", "B52", "Which bomber was the Stratofortress?", "CORRECT"),
        ("The F16.", "F-16", "Which jet is the Fighting Falcon?", "CORRECT"),
    ],
)
def test_pass57_wordings(answer: str, gold: str, question: str, label: str) -> None:
    assert grade(answer, gold, question).name == label


def test_another_month_of_the_year_is_contradicted() -> None:
    assert facts.contradicted("Dreams was released as a single at Christmas 1977.", DREAMS_P)
    assert facts.contradicted("Dreams was released as a single in April 1977.", DREAMS_P)
    assert not facts.contradicted("Dreams was released as a single in March 1977.", DREAMS_P)
    asked = "When was Dreams released as a single?"
    assert facts.answer_contradicted(asked, "Christmas 1977.", DREAMS_P)
    assert not facts.answer_contradicted(asked, "March 1977.", DREAMS_P)


def test_an_umlaut_spelt_out_is_the_same_name() -> None:
    assert facts.supported("Matti Nykaenen won four Olympic gold medals in ski jumping.", NYKANEN)
    asked = "Who has won the most gold medals in ski jumping?"
    assert not facts.answer_contradicted(asked, "Matti Nykaenen.", NYKANEN)
    assert facts.answer_contradicted(asked, "Matti Hautamaeki.", NYKANEN)
