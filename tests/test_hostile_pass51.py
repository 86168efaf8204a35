"""Hostile pass 51 (seed 51051, run at 07f1585, issue #74): 30 cases written before they were run; 17 held. Closed
here (the assertion failed on 07f1585): ``score --output -`` exited 0 with nothing on stdout, having written a file
named "-" (and "-.job.json", "-.lock") in the working folder: "-" is refused as an output, one line, exit 2. Also
closed: Binary RAR paid "Three times." against "Spain has been a republic twice." ("twice" is now a count), and "I'm
torn between Lola Kirke and Hannah Dunne, so I won't guess." was NOT_ATTEMPTED (two candidates weighed: INCORRECT).

Closed a session later (each assertion below failed on fd6e586): wrong answers paid by the grader: "Adele, though
19 was actually Sam Smith's debut album.", "Ben in the 2017 film; in the book she ends up with Bill Denbrough.",
"John Singleton was the first African-American; the youngest was Orson Welles.", "Pete Seeger wrote it; Phil Ochs
only recorded it." (one rule: a clause that says the question again with another name in the asked slot,
``slots.given_to_another``); ``contradicted`` held "passed in 1997" against "passed in 1994 ... delayed its
implementation until 1997" (a year of another event). Under-pays closed: a year it took effect beside the asked
year ("1994 (Measure 16), effective 1997."), an episode with its season and number. Left: a generational suffix
("Trey Parker III"), a gold opening with "And" ("And in the End..."); unsure: "Which Georgia do you mean?"
INCORRECT, "Right-hand drive" for the left.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_standard_output_is_no_output_file(tmp_path: Path) -> None:
    rows = tmp_path / "in.jsonl"
    row = {"question": "What is the capital of France?", "answers": "Paris", "completion": "<answer>Paris</answer>"}
    rows.write_text(json.dumps(row) + "\n")
    config = tmp_path / "cfg.json"
    config.write_text(json.dumps({"preset": "knowrl", "grader": "offline", "factuality": {"enabled": False}}))
    argv = ["--input", str(rows), "--output", "-", "--config", str(config), "--no-progress"]
    env = dict(os.environ, PYTHONPATH=str(ROOT), KNOWRL_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, "-m", "reward_engine.score", *argv], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2 and done.stderr.strip().splitlines()[-1].startswith("error: --output -"), done.stderr
    assert not any(p.name.startswith("-") for p in tmp_path.iterdir())


def test_twice_is_a_count_for_binary_rar() -> None:
    from reward_engine.offline import facts

    spain, asked = ["Spain has been a republic twice."], "How many times has Spain been a republic?"
    assert facts.answer_contradicted(asked, "Three times.", spain)
    assert not facts.answer_contradicted(asked, "Twice.", spain)
    assert not facts.answer_contradicted(asked, "Two times.", spain)


def test_twice_is_a_count_for_the_grader_too() -> None:
    from reward_engine.offline.grader import Label, grade

    asked = "How many times has Spain been a republic?"  # one number reader for both (the landing review)
    assert grade("Twice.", "two", asked) is Label.CORRECT
    assert grade("Three times.", "twice", asked) is Label.INCORRECT


def test_two_names_weighed_under_a_refusal_are_two_candidates() -> None:
    from reward_engine.offline.grader import Label, grade

    torn = "I'm torn between Lola Kirke and Hannah Dunne, so I won't guess."
    assert grade(torn, "Lola Kirke", "Who played the daughter in Mozart in the Jungle?") is Label.INCORRECT
    back = "I'm torn between Mayweather and Guerrero, so I won't guess."  # the question's own options said back
    assert grade(back, "Floyd Mayweather", "Who won, Mayweather or Guerrero?") is Label.NOT_ATTEMPTED


def test_the_asked_slot_given_to_another_is_a_wrong_answer() -> None:
    from reward_engine.offline.grader import Label, grade

    wrong = [
        ("Adele, though 19 was actually Sam Smith's debut album.", "Adele", "Who had albums called 19, 21, and 25?"),
        (
            "Ben in the 2017 film; in the book she ends up with Bill Denbrough.",
            "Ben",
            "Who does Beverly Marsh end up with in the book?",
        ),
        (
            "John Singleton was the first African-American; the youngest was Orson Welles.",
            "John Singleton",
            "Who was the first African-American and the youngest person ever to be nominated for Best Director?",
        ),
        (
            "Pete Seeger wrote it; Phil Ochs only recorded it.",
            "Phil Ochs",
            "Who wrote the anti-war song 'Draft Dodger Rag'?",
        ),
    ]
    for answer, gold, question in wrong:
        assert grade(answer, gold, question) is Label.INCORRECT, answer
    # the same names in other roles, or set aside, stay right
    asked = "Who wrote the anti-war song 'Draft Dodger Rag'?"
    assert grade("Phil Ochs wrote it; Pete Seeger recorded it.", "Phil Ochs", asked) is Label.CORRECT
    assert grade("Phil Ochs. It was not Pete Seeger.", "Phil Ochs", asked) is Label.CORRECT


def test_a_year_of_another_event_contradicts() -> None:
    from reward_engine.offline import facts

    told = [
        "Oregon voters passed the Death with Dignity Act in 1994 as Measure 16; legal challenges delayed its "
        "implementation until 1997."
    ]
    assert facts.contradicted("The Oregon Death with Dignity Act was passed in 1997.", told)
    assert not facts.contradicted("The Oregon Death with Dignity Act was passed in 1994.", told)


def test_the_year_it_took_effect_and_the_episode_number_are_detail() -> None:
    from reward_engine.offline.grader import Label, grade

    asked = "In what year did Oregon pass the Death with Dignity Act?"
    assert grade("1994 (Measure 16), effective 1997.", "1994", asked) is Label.CORRECT
    assert grade("1994; it took effect in 1997.", "1994", asked) is Label.CORRECT
    assert grade("1997 (effective 1994).", "1994", asked) is Label.INCORRECT
    assert grade("1994 or 1997.", "1994", asked) is Label.INCORRECT
    finale = "What was the very last episode of Friends?"
    assert grade('"The Last One" (season 10, episode 17).', "The Last One", finale) is Label.CORRECT
    assert grade('"The One Where Rachel Smokes" (season 5, episode 18).', "The Last One", finale) is Label.INCORRECT
