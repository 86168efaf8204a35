"""Hostile passes 42 (seed 42042, run at fe4b91b) and 43 (seed 43043, run at 8cbae4d), issue #74: 30 cases each,
written before they were run, on KnowRL's released RL questions and golds. Pass 42 found no data loss and no stale
result; pass 43 none either. Closed here (each assertion failed on the code the pass ran against):

- knowrl-robust paid a fact restated in other words (pass 42: seven paraphrases of one dated fact counted as five
  claims, 60x the control) or weakened (pass 43: "Orr was the bassist." beside "Benjamin Orr was the bassist of The
  Cars.", 100x): a supported claim that says no word of its evidence sentence a larger supported claim did not
  is a restatement, left out of the fact score (``claims.restatements``);
- Binary RAR's answer check read "S. Epatha Merkerson." as an answer the evidence gives, the name being in the other
  clause of "A played Connie Rubirosa on Law & Order; S. Epatha Merkerson played Lt. Anita Van Buren.";
- `supported` held a change turned round ("from driving on the right to driving on the left" against "from ... the
  left to ... the right");
- "South West Delhi" was CORRECT for South East Delhi (read as a misspelling);
- "1974 - sorry, 1973." was INCORRECT for 1973 ("sorry" as a correction; "Paris, sorry, Lyon" was CORRECT for Paris);
- "France, with 12 time zones ...; Russia has 11." was INCORRECT for the most time zones (a runner-up with a lower
  count read as a second answer);
- Binary RAR paid "Four months." 1 where the evidence says "for four years" (a measure in words was no value);
- a row with a NUL or 0xFF byte lost its id (tests/test_hostile_inputs.py);
- `knowrl.evaluate` interrupted with Ctrl-C ended in a traceback: now one line and exit 130, an earlier report kept.

Review 44 (161 cases, old code against new) found 43 regressions of these rules' first forms; mended (a 'sorry' only
between an answer and a name or number; bearings glued into one word; clauses split only when each opens with its
own doer and none left out holds a pronoun; "to Y from X" read, spans and figures left out) but for restatements
worded otherwise than their sentence (docs/reward-engine.md); its cases are pinned in tests/data.

Left (in the issue's note): pass 42's G9 ("John Entwistle" for the gold Entwistle: which Entwistle is meant is not
in the answer, gold or question the offline grader reads); pass 43's under-pay (G8 a description of the question's
own subject read as a wrong answer, G11 a season's count beside the career's, G14), F3 ("Jon Jones defeated Daniel
Cormier" answers no "Who won ...?": the evidence words it otherwise).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade
from reward_engine.stages.claims import restatements
from tests.test_reward_holes_round3 import ENTRIES, FRANCE, answered, config_for, score_via

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("South West Delhi", "South East Delhi", Label.INCORRECT),
        ("Northwest Passage", "Northeast Passage", Label.INCORRECT),
        ("Upper Egypt", "Lower Egypt", Label.INCORRECT),
        ("Southeast Delhi", "South East Delhi", Label.CORRECT),
        ("Sout East Delhi", "South East Delhi", Label.CORRECT),  # a slip in a name that keeps its bearing
        ("South East Asia", "Southeast Asia", Label.CORRECT),
    ],
)
def test_another_bearing_is_another_place_not_a_misspelling(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold) is label


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("1974 - sorry, 1973.", "1973", Label.CORRECT),
        ("Lyon, sorry, Paris", "Paris", Label.CORRECT),
        ("Paris, sorry, Lyon", "Paris", Label.INCORRECT),
        ("Paris. Sorry, I am not sure.", "Paris", Label.CORRECT),  # an apology and a hedge, no correction
        ("Paris. Sorry if that is wrong.", "Paris", Label.CORRECT),
        ("Sorry, it is Paris.", "Paris", Label.CORRECT),
        ("Sorry, I do not know.", "Paris", Label.NOT_ATTEMPTED),
        ("Joe South. Sorry, it took me a while.", "Joe South", Label.CORRECT),  # review 44: an apology, no answer
        ("Sorry, Wrong Number", "Sorry, Wrong Number", Label.CORRECT),  # a title
    ],
)
def test_sorry_corrects_the_answer_before_it(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold) is label


ZONES = "Which country has the largest number of time zones?"


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("France, with 12 time zones thanks to its overseas territories; Russia has 11.", Label.CORRECT),
        ("Russia, with 11; France has 12.", Label.INCORRECT),  # named first, Russia is the pick (review 45)
        ("France has 12; Russia has 13.", Label.INCORRECT),  # a count past the answer's: a rival
        ("France, with 12; or Russia with 11.", Label.INCORRECT),  # offered as another answer
    ],
)
def test_a_runner_up_named_with_a_lower_count_is_a_comparison(answer: str, label: Label) -> None:
    assert grade(answer, "France", ZONES) is label


def test_a_change_turned_round_is_not_supported() -> None:
    passage = ["In 1972 Nigeria changed from driving on the left to driving on the right."]
    assert not facts.supported("In 1972 Nigeria changed from driving on the right to driving on the left.", passage)
    assert facts.supported("In 1972 Nigeria changed from driving on the left to driving on the right.", passage)
    assert facts.supported("He served as mayor from 1990 to 2000.", ["He served as mayor from 1990 to 2000."])


RUBIROSA = "Who played Connie Rubirosa on Law & Order?"
CAST = ["Alana de la Garza played Connie Rubirosa on Law & Order; S. Epatha Merkerson played Lt. Anita Van Buren."]


@pytest.mark.parametrize(
    ("response", "contradicted"),
    [
        ("S. Epatha Merkerson.", True),  # named in the clause of another role
        ("Merkerson", True),
        ("Alana de la Garza.", False),
        ("Alana de la Garza, not S. Epatha Merkerson.", False),
    ],
)
def test_a_name_in_the_other_clause_answers_nothing(response: str, contradicted: bool) -> None:
    assert facts.answer_contradicted(RUBIROSA, response, CAST) is contradicted


CAST_AWAY = [
    "Cast Away is a 2000 film starring Tom Hanks. Chuck Noland, a FedEx employee, is stranded on an uninhabited "
    "island for four years after his plane crashes in the South Pacific."
]


@pytest.mark.parametrize(
    ("response", "contradicted"),
    [("Four months.", True), ("Two years", True), ("Four years.", False), ("4 years", False), ("48 months", False)],
)
def test_a_measure_the_evidence_says_in_words_is_still_compared(response: str, contradicted: bool) -> None:
    question = "How many years was he on the island in Cast Away?"  # pass 43's R3: "Four months." was paid 1
    assert facts.answer_contradicted(question, response, CAST_AWAY) is contradicted


def test_paraphrases_and_weakenings_of_a_supported_claim_are_restatements() -> None:
    page = [
        "Hearst Castle is a historic estate in San Simeon, California. It was donated to the state of California "
        "in 1957 and opened to the public as a state historic monument in 1958."
    ]
    said = [
        "Hearst Castle was donated to the state of California in 1957.",
        "In 1957, Hearst Castle was given to the state of California.",
        "California's state government was given Hearst Castle in 1957.",
        "Hearst Castle is in San Simeon.",  # another fact of another sentence
        "Hearst Castle opened to the public in 1958.",  # another fact of the same sentence
        "Mount Everest is the highest mountain.",  # about something else: not a restatement, whatever it is
    ]
    assert restatements(said, [True] * len(said), [page] * len(said)) == [False, True, True, False, False, False]
    assert restatements(said, [False, True, True, True, True, True], [page] * 6)[:3] == [False, False, True]


PARAPHRASED = answered(
    "Lyon",
    "Paris is the capital and largest city of France. France's capital and largest city is Paris. "
    "The largest city of France, Paris, is also its capital. Paris is France's capital. "
    "Paris is the largest city of France.",
)
ONE = answered("Lyon", "Paris is the capital and largest city of France.")
THREE = answered(
    "Lyon",
    "Paris is the capital and largest city of France. The city lies on the river Seine. "
    "The Eiffel Tower in Paris was completed in 1889.",
)


@pytest.mark.parametrize("entry", ENTRIES)
async def test_a_fact_said_in_other_words_earns_what_it_earns_once_and_distinct_facts_still_pay(kb, entry) -> None:
    (once, _), (reworded, _), (three, _) = await score_via(
        entry, config_for("knowrl-robust"), kb, [(FRANCE, ONE), (FRANCE, PARAPHRASED), (FRANCE, THREE)]
    )
    assert reworded <= once + 1e-12
    assert three > once  # three facts of the page, each its own


def test_an_interrupted_evaluation_is_one_line_exit_130_and_keeps_the_earlier_report(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        "".join(json.dumps({"question": f"What is {i} + {i}?", "answers": str(2 * i)}) + "\n" for i in range(300))
    )
    out = tmp_path / "ev"
    command = [sys.executable, "-m", "knowrl.evaluate", "--model", "tiny", "--data", str(rows), "--out", str(out)]
    command += ["--max-new-tokens", "32"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    first = subprocess.run([*command, "--max-samples", "2"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    report = (out / "report.json").read_bytes()
    # a shell's background job starts with Ctrl-C ignored (CI may run us so): the job gets it as a terminal would
    again = subprocess.Popen(
        [*command, "--overwrite"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert again.stderr is not None
    seen = ""
    while "Loading weights" not in seen and again.poll() is None:  # the model is loading: the evaluation has begun
        seen += again.stderr.read(1)
    time.sleep(0.2)
    again.send_signal(signal.SIGINT)
    _, rest = again.communicate(timeout=300)
    lines = [line for line in (seen + rest).splitlines() if line.strip() and "%|" not in line]
    assert again.returncode == 130, seen + rest
    assert "Traceback" not in seen + rest and lines[-1].startswith("interrupted: no report written"), lines
    assert (out / "report.json").read_bytes() == report
