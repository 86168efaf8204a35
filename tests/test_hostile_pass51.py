"""Hostile pass 51 (seed 51051, run at 07f1585, issue #74): 30 cases written before they were run; 17 held. Closed
here (the assertion failed on 07f1585): ``score --output -`` exited 0 with nothing on stdout, having written a file
named "-" (and "-.job.json", "-.lock") in the working folder: "-" is refused as an output, one line, exit 2. Also
closed: Binary RAR paid "Three times." against "Spain has been a republic twice." ("twice" is now a count), and "I'm
torn between Lola Kirke and Hannah Dunne, so I won't guess." was NOT_ATTEMPTED (two candidates weighed: INCORRECT).

Left (in the issue's note; found at the session's end, not closed): wrong answers paid by the grader: "Adele,
though 19 was actually Sam Smith's debut album." (a wrong detail after "though"), "Ben in the 2017 film; in the book
she ends up with Bill Denbrough." (the gold tied to another version than the question's), "John Singleton was the
first African-American; the youngest was Orson Welles." (the question's second description given to another),
"Pete Seeger wrote it; Phil Ochs only recorded it." (a lesser role for the gold); ``contradicted`` held "passed
in 1997" against "passed in 1994 ... delayed until 1997" (a year of another event). Under-pays: a generational
suffix ("Trey Parker III"), a gold ending in "...", a year it took effect beside the asked year. Unsure: "Which
Georgia do you mean?" INCORRECT, "Right-hand drive" for the left.
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
