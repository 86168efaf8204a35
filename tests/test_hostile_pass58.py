"""Hostile pass 58 (seed 58058, run at be2f140, issue #74): 30 cases written before they were run; 14 held (two of
the 16 misses were the pass's own expectation: "About 350." for 346 is NOT_ATTEMPTED by SimpleQA's rule). The
grader and fact-check cases closed here (each failed on be2f140); the job cases are in
tests/test_hostile_pass58_*.py.

- wrong paid right: Binary RAR paid "Flight 93." 1 where the film is "United 93" (the shared number read as the
  evidence's value): a number ending another name is no confirmation (``facts._numbered_name_differs``);
- right paid wrong: "Harrisville, Rhode Island." for Rhode Island (a town, then the gold state, read as two
  answers), "Stan Livingston." for Stanley Livingston (Stan missing from the short forms), "The Shermans." for The
  Sherman Brothers, ``supported`` of "58 stories" by "a 58-story skyscraper".

Left by choice (in the issue's note): "Richard and Robert Sherman." (which given names belong to a family takes
knowledge: "Groucho and Karl Marx." for The Marx Brothers is wrong), "1914, 1957, 1995 and 2021." to "What years
did the Braves win?" (a list of years cannot be told from a spread of guesses without the true set).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import grade

UNITED = ["United 93 is a 2006 film written and directed by Paul Greengrass."]
TOWER = ["Trump Tower is a 58-story skyscraper on Fifth Avenue in Midtown Manhattan."]


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("Harrisville, Rhode Island.", "Rhode Island", "Where did the movie The Conjuring take place?", "CORRECT"),
        ("Hoboken, New Jersey.", "New Jersey", "In which state was Frank Sinatra born?", "CORRECT"),
        ("Connecticut, Rhode Island.", "Rhode Island", "In which state is Newport?", "INCORRECT"),
        ("Seattle, Washington", "Washington, D.C.", "In which city did the band form?", "INCORRECT"),
        ("Stan Livingston.", "Stanley Livingston", "Who played Chip Douglas on My Three Sons?", "CORRECT"),
        ("The Shermans.", "The Sherman Brothers", "Who wrote the music and lyrics for Mary Poppins?", "CORRECT"),
        ("Groucho and Karl Marx.", "The Marx Brothers", "Which comedy team starred in Duck Soup?", "INCORRECT"),
    ],
)
def test_pass58_wordings(answer: str, gold: str, question: str, label: str) -> None:
    assert grade(answer, gold, question).name == label


def test_a_number_ending_another_name_is_contradicted() -> None:
    asked = "Which movie did Paul Greengrass direct in 2006?"
    assert facts.answer_contradicted(asked, "Flight 93.", UNITED)
    assert not facts.answer_contradicted(asked, "United 93.", UNITED)
    houdini = ["Harry Houdini died on October 31, 1926."]
    assert not facts.answer_contradicted("When did Harry Houdini die?", "On Halloween 1926.", houdini)


def test_a_hyphenated_count_is_the_count() -> None:
    assert facts.supported("Trump Tower has 58 stories.", TOWER)
    assert facts.contradicted("Trump Tower has 68 stories.", TOWER)
    assert facts.supported(
        "The Washington Monument is 555 feet tall.", ["The Washington Monument is a 555-foot obelisk."]
    )


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        # the landing review of this session's rules: what their first versions paid wrong
        (
            "She first turns down Mr. Darcy, then accepts him.",
            "Mr. Darcy",
            "Whom does Elizabeth Bennet marry?",
            "CORRECT",
        ),
        ("Rafael Nadal lost to Federer in 2007 but beat him in 2008.", "Rafael Nadal", "Who won in 2008?", "CORRECT"),
        ("A cub.", "Bear", "What kind of animal is Baloo?", "INCORRECT"),
        ("Umbria, Tuscany.", "Tuscany", "Which Italian region is Florence in?", "INCORRECT"),
        ("It was a 1 in 5 chance.", "A1", "Which steak sauce is it?", "INCORRECT"),
    ],
)
def test_landing_review_wordings(answer: str, gold: str, question: str, label: str) -> None:
    assert grade(answer, gold, question).name == label


def test_landing_review_fact_readings() -> None:
    died = ["About 3000 people died in the attacks."]
    assert not facts.answer_contradicted("How many people died in the attacks?", "Nearly 3000.", died)
    rematch = [
        "The Boston Celtics beat the Los Angeles Lakers in the 1984 NBA Finals, but the Lakers won the 1985 NBA Finals."
    ]
    assert not facts.answer_contradicted("Who won the 1985 NBA Finals?", "The Los Angeles Lakers.", rematch)
    from reward_engine.offline.rewrites import holidays_as_dates

    assert holidays_as_dates("On Christmas Island in 1957.") == "On Christmas Island in 1957."
