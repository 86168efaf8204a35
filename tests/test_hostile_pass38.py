"""Hostile pass 38 (issue #74): 40 cases written before they were run, on 90 of KnowRL's released RL questions and
golds, run against 2e23422: a full disk mid-run and at the final reordering (exit 2, whole rows kept, a clean
resume), warm and score sharing a cache across two KBs of one name; 6 findings.

Closed here: a stale result, and a wrong answer Binary RAR paid. Two outputs of one input under knowrl and truthrl,
then "mv out.truthrl.jsonl out.knowrl.jsonl" (the records beside them left where they were): the knowrl rerun kept
all six truthrl rows as its own, exit 0. Rows now carry the settings that scored them (``scored_with``) and a rerun
refuses rows of other settings whatever the record beside the file says. Binary RAR paid "The Philadelphia Eagles."
for "Who does Brian Dawkins play for in 2011?" where the KB's sentence for 2008 held every word of the question but
the year: a sentence holding them all now answers before one that misses a word.

Left (in the issue's note): two names for one thing ("a Scud-B copy, the Hwasong-5"), a season's own figures beside
its year ("23-5"), "near Mwinilunga", a later home ("Reading, Pennsylvania -- she moved to Hendersonville, Tennessee
at 14").
"""

from __future__ import annotations

import json

from tests.helpers import write_jsonl, write_offline_config
from tests.test_hostile_pass8_io import _run

ROWS = [
    {"id": i, "question": "What is the capital of France?", "answers": "Paris",
     "completion": f"<think>\nIt is {a}.\n</think>\n<answer>\n{a}\n</answer>"}
    for i, a in enumerate(["Paris", "Lyon", "I don't know"])
]  # fmt: skip


def test_an_output_moved_over_another_job_s_output_is_refused(tmp_path) -> None:
    rows = tmp_path / "in.jsonl"
    write_jsonl(rows, ROWS)
    outputs = {}
    for preset in ("knowrl", "truthrl"):
        config = tmp_path / f"{preset}.yaml"
        write_offline_config(config, preset=preset)
        outputs[preset] = (config, tmp_path / f"out.{preset}.jsonl")
        done = _run("reward_engine.score", "--input", rows, "--output", outputs[preset][1], "--config", config)
        assert done.returncode == 0, done.stderr
    knowrl_config, knowrl_out = outputs["knowrl"]
    truthrl_rows = outputs["truthrl"][1].read_bytes()
    outputs["truthrl"][1].rename(knowrl_out)  # the records beside both stay where they were
    done = _run("reward_engine.score", "--input", rows, "--output", knowrl_out, "--config", knowrl_config)
    assert done.returncode == 2 and "scored with other settings" in done.stderr, done.stderr
    assert knowrl_out.read_bytes() == truthrl_rows  # refused before anything was written
    done = _run("reward_engine.score", "--input", rows, "--output", knowrl_out, "--config", knowrl_config,
                "--overwrite")  # fmt: skip
    assert done.returncode == 0, done.stderr
    rewards = [json.loads(line)["reward"] for line in knowrl_out.read_text().splitlines()]
    assert rewards[0] == 3.0 and rewards[2] == 2.0  # knowrl's pay: a right answer 3, an abstention 2


def test_a_rerun_of_the_same_job_keeps_its_rows(tmp_path) -> None:
    rows = tmp_path / "in.jsonl"
    write_jsonl(rows, ROWS)
    config = tmp_path / "c.yaml"
    write_offline_config(config, preset="knowrl")
    out = tmp_path / "out.jsonl"
    for _ in range(2):
        done = _run("reward_engine.score", "--input", rows, "--output", out, "--config", config)
        assert done.returncode == 0, done.stderr
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(scored) == 3 and len({r["scored_with"] for r in scored}) == 1


def test_binary_rar_prefers_the_sentence_that_holds_the_whole_question() -> None:
    from reward_engine.offline import facts

    question = "Who does Brian Dawkins play for in 2011?"
    kb = ["Brian Dawkins played for the Philadelphia Eagles from 1996 to 2008. In 2011 Brian Dawkins played for the "
          "Denver Broncos."]  # fmt: skip
    assert facts.answer_contradicted(question, "The Philadelphia Eagles.", kb)
    assert not facts.answer_contradicted(question, "The Denver Broncos.", kb)
    assert not facts.answer_contradicted("Who played for the Eagles?", "Brian Dawkins", kb[:1])


def test_what_the_review_of_pass_37_s_rules_found() -> None:
    from reward_engine.offline import facts
    from reward_engine.offline.grader import Label, grade

    assert grade("About 100 rooms.", "51", "How many rooms does the hotel have?") is Label.INCORRECT  # one figure
    assert grade("Roughly 4,400 metres.", "4,421 m", "How high is Mount Whitney?") is Label.NOT_ATTEMPTED
    lakme = "Who composed the opera Lakme?"
    assert grade("I can't help with that one. Delibes, perhaps?", "Leo Delibes", lakme) is Label.CORRECT
    assert grade("I can't help with that one.", "Leo Delibes", lakme) is Label.NOT_ATTEMPTED
    bowl = "Was the first Super Bowl played in Los Angeles or Miami?"
    assert grade("I don't know -- Los Angeles or Miami? I'd lean Miami.", "Los Angeles", bowl) is Label.INCORRECT
    assert grade("I'm not sure, but Los Angeles.", "Los Angeles", bowl) is Label.CORRECT
    assert grade("York", "New York City", "Was the 1964 World's Fair held in York or New York?") is Label.INCORRECT
    assert grade("He came from Portland, Oregon.", "Portland, Maine", "Where was the poet born?") is Label.INCORRECT
    godfather = "Who played Michael Corleone in The Godfather?"
    answer = "Al Pacino played Vito Corleone, and Marlon Brando played Michael Corleone."
    assert grade(answer, "Al Pacino", godfather) is Label.INCORRECT
    largest = "Which is the largest planet in the Solar System?"
    assert grade("Jupiter. Mercury is the smallest.", "Jupiter", largest) is Label.CORRECT
    oprah = ["The Oprah Winfrey Show was hosted by Oprah Winfrey and produced by Harpo Productions in Chicago."]
    assert not facts.answer_contradicted("Who hosted The Oprah Winfrey Show?", "Oprah Winfrey", oprah)
    einstein = ["Albert Einstein, known for the theory of relativity, won the Nobel Prize in Physics in 1921.",
                "Marie Curie won the Nobel Prize in Physics in 1903."]  # fmt: skip
    question = "Which scientist, known for the theory of relativity, won the Nobel Prize in Physics?"
    assert facts.answer_contradicted(question, "Marie Curie", einstein)


def test_what_the_review_of_pass_38_s_rules_found() -> None:
    from reward_engine.offline import facts
    from reward_engine.offline.grader import Label, grade

    rooms = "How many rooms does the hotel have?"
    assert grade("About 100 rooms.", "98", rooms) is Label.NOT_ATTEMPTED  # two figures coarser, close: vague
    assert grade("About 100 rooms.", "51", rooms) is Label.INCORRECT  # far from it: another number
    dumas = "Who wrote The Three Musketeers, Alexandre Dumas or Alexandre Dumas fils?"
    assert grade("Alexandre Dumas", "Alexandre Dumas pere", dumas) is Label.CORRECT
    where = "Where was the poet born?"
    assert grade("Portland, Maine; a long way from Portland, Oregon.", "Portland, Maine", where) is Label.CORRECT
    assert grade("Venus. Mercury is the warmest.", "Venus", "Which is the hottest planet?") is Label.INCORRECT
    assert grade("I'm leaning towards saying I don't know.", "Leo Delibes", "Who composed Lakme?") is (
        Label.NOT_ATTEMPTED
    )
    ali = ["In 1971 Muhammad Ali was beaten by Joe Frazier in the Fight of the Century."]
    assert facts.answer_contradicted("Who beat Muhammad Ali in 1971?", "Muhammad Ali.", ali)
    einstein = ["Albert Einstein won the Nobel Prize in Physics in 1921 for the photoelectric effect."]
    question = "Which scientist, known for his theory of relativity, won the Nobel Prize in Physics in 1921?"
    assert facts.answer_contradicted(question, "Niels Bohr", einstein)  # the modifier the evidence does not repeat
    olympics = ["Barcelona hosted the 1992 Summer Olympics.", "In 1992, the city of Seville hosted Expo 92."]
    assert not facts.answer_contradicted("Which city hosted the Summer Olympics in 1992?", "Barcelona.", olympics)


def test_binary_rar_reads_the_sentence_that_holds_the_whole_question_first() -> None:
    """A sentence that misses one of the question's words (another role, another occasion) does not answer beside one
    that holds them all; the noun a "Which ..." question asks for is no word the evidence must say; a span of years
    holds the years inside it (what the fresh pass after ce427fc's mends found undone, written anew here)."""
    from reward_engine.offline import facts

    voice = "Who does the voice of the fox in the film?"
    kb = ["Mark Ruffalo does the voice of the fox in the film.", "Sam Neill does the voice of the owl in the film."]
    assert facts.answer_contradicted(voice, "Sam Neill.", kb)
    assert not facts.answer_contradicted(voice, "Mark Ruffalo", kb)
    first = "When was the bridge first closed by the city?"
    kb = ["The bridge was first closed by the city in 1921.", "The city closed the bridge again in 1934 for repairs."]
    assert facts.answer_contradicted(first, "1934.", kb)
    assert not facts.answer_contradicted(first, "1921", kb)
    team = "What team did Peyton Manning play for in 2005?"
    kb = ["Peyton Manning played for the Indianapolis Colts from 1998 to 2011.", "In 2005, Manning played in his "
          "sixth Pro Bowl."]  # fmt: skip
    assert not facts.answer_contradicted(team, "The Indianapolis Colts.", kb)
    assert facts.answer_contradicted(team, "The Denver Broncos.", kb)
    joan = "Which French heroine, known as the Maid of Orleans, was burned at the stake?"
    kb = ["Joan of Arc, known as the Maid of Orleans, was burned at the stake in Rouen in 1431."]
    assert not facts.answer_contradicted(joan, "Joan of Arc", kb)
    assert facts.answer_contradicted(joan, "Marie Antoinette", kb)
