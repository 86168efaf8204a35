"""Hostile pass 35 (issue #74): 40 cases written before they were run, on 90 of KnowRL's released RL questions and
golds, run against 9930f19: no data loss, no stale result, no crash; 5 findings, each closed here beside a control.

- Binary RAR paid every name 1 for "In 1905, who founded the Servants of India Society aimed at promoting
  education?": the trailing modifier made the question's words too many for the evidence to answer it.
- Right answers paid wrong: "Roughly 500,000 years ago, in the Pleistocene." for the gold "about 500,000 years ago"
  (an approximate answer to an approximate gold, read as vague); "280 hp, from a turbocharged 4.3-liter V6." (the
  second measure read as a second answer: "how much horsepower" names the asked unit; "hp" and "4.3-liter" were not
  read as units); "**Rachel Perkins** -- she directed Radiance and Bran Nue Dae." (the works joined by "and" in a
  clause about her read as rival names).
- An ``--output`` that is a symbolic link was replaced by a regular file on the first run's atomic rewrite; the file
  it linked to was never written. A link is now written through, as a shell's ">" does, and kept.
"""

from __future__ import annotations

import json
import os

from reward_engine.offline import facts
from reward_engine.offline.grader import Label
from tests.helpers import grade_table, write_jsonl, write_offline_config
from tests.test_hostile_pass8_io import ROWS, _run

ETNA = "When was the first time Mount Etna erupted?"
SYCLONE = "How much horsepower does a GMC Syclone have?"
PERKINS = "Which television director was the daughter of Charles Perkins?"

test_pass35_grades = grade_table(
    [
        ("Roughly 500,000 years ago, in the Pleistocene.", ETNA, "about 500,000 years ago", Label.CORRECT),
        ("Around 600,000 years ago, in the Pleistocene.", ETNA, "about 500,000 years ago", Label.INCORRECT),
        ("About 50,000 years ago", ETNA, "about 500,000 years ago", Label.INCORRECT),
        ("280 hp, from a turbocharged 4.3-liter V6.", SYCLONE, "280", Label.CORRECT),
        ("4.3-liter V6 making 250 hp", SYCLONE, "280", Label.INCORRECT),
        ("280 hp or 300 hp", SYCLONE, "280", Label.INCORRECT),
        ("**Rachel Perkins** \u2014 she directed Radiance and Bran Nue Dae.", PERKINS, "Rachel Perkins", Label.CORRECT),
        ("Rachel Perkins, who directed Radiance and Bran Nue Dae.", PERKINS, "Rachel Perkins", Label.CORRECT),
        ("Rachel Perkins, who directed Radiance, and Warwick Thornton", PERKINS, "Rachel Perkins", Label.INCORRECT),
        ("Warwick Thornton \u2014 he directed Samson and Delilah.", PERKINS, "Rachel Perkins", Label.INCORRECT),
    ]
)

SOCIETY = "In 1905, who founded the Servants of India Society aimed at promoting education?"
EVIDENCE = ["Gopal Krishna Gokhale founded the Servants of India Society in 1905."]


def test_binary_rar_reads_a_question_past_its_trailing_modifier() -> None:
    assert facts.answer_contradicted(SOCIETY, "Bal Gangadhar Tilak founded it.", EVIDENCE)
    assert facts.answer_contradicted(SOCIETY, "Mahatma Gandhi", EVIDENCE)
    assert not facts.answer_contradicted(SOCIETY, "Gopal Krishna Gokhale founded it.", EVIDENCE)
    assert not facts.answer_contradicted(SOCIETY, "Gokhale", EVIDENCE)


def test_an_output_that_is_a_link_is_written_through_and_kept(tmp_path) -> None:
    config = tmp_path / "c.yaml"
    write_offline_config(config)
    rows = tmp_path / "in.jsonl"
    write_jsonl(rows, ROWS)
    store = tmp_path / "store"
    store.mkdir()
    link = tmp_path / "out.jsonl"
    link.symlink_to(store / "run.jsonl")  # dangling until the first run
    for _ in range(2):  # the rerun resumes through the link
        done = _run("reward_engine.score", "--input", rows, "--output", link, "--config", config, "--no-progress")
        assert done.returncode == 0, done.stderr
        assert link.is_symlink() and os.readlink(link) == str(store / "run.jsonl")
        scored = [json.loads(line) for line in (store / "run.jsonl").read_text().splitlines()]
        assert [(r["id"], r["status"]) for r in scored] == [(i, "ok") for i in range(1, 5)]
    page = tmp_path / "page.html"
    page.symlink_to(store / "page.html")
    done = _run("reward_engine.inspect", link, "-o", page)
    assert done.returncode == 0, done.stderr
    assert page.is_symlink() and (store / "page.html").read_text().lstrip().lower().startswith("<!doctype html")
