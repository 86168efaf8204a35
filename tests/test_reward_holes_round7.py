"""The seventh hostile pass (issue #74), each case reproduced on the old code and closed here.

* The engine paid a wrong answer as right when padding pushed its closing correction past ``max_answer_chars``
  ("Paris." + 2,100 spaces + "Correction: it is Lyon."), or when a second answer block was written in capitals
  or with a space in its tag (``<ANSWER>``, ``<answer >``), which the one-block rule did not count.
* The offline grader paid an answer that names the gold only to put it down ("I doubt it's Paris", "Paris is a
  common misconception", "..., but that's a myth", "Paris - false."), to measure something else by it ("A city
  bigger than Paris", "higher than 8,849 m"), as what was once so ("It used to be Paris"), crossed out ("Paris ❌",
  "P̶a̶r̶i̶s̶"), two years at once ("1889/90"), or in another currency ("€5 million", "5 million yen", "12‰").
  "MDCCCLXXXIX" for 1889 is now right.
* Binary RAR's answer check: the same put-downs, comparisons and strict bounds ("after 1889") paid 1; a range
  or bound that holds the evidence's value ("between 8,000 and 9,000 m", "above 8,000 metres") and "It's not
  Salieri, it's Mozart." paid 0. The verifier supported a turned change ("chemical energy into light energy"),
  "used to be", a number from another sentence, a bound the evidence breaks ("before 1756", "after 1903"), and
  did not see "1889 BC" or "fewer than 600" contradict the evidence.
* A score job resumed an output scored by other offline rules (a grader fix since) with the old verdicts.
* (Jobs: tests/test_hostile_round3.py and tests/test_records_stream.py hold the writer and reader cases.)
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from reward_engine.completion import parse
from reward_engine.engine import RewardEngine, Sample
from reward_engine.labels import Label
from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from reward_engine.semantics import payoffs
from tests.helpers import write_offline_config
from tests.test_reward_holes_round3 import EVEREST, FRANCE, config_for
from tests.test_reward_holes_round5 import FLUTE, JUPITER
from tests.test_reward_holes_round6 import EIFFEL, EVIDENCE

BUDGET = ("What was the film's budget?", "$5 million", None)
SHARE = ("What share of the vote did it win?", "12%", None)


@pytest.mark.parametrize(
    "answer, case",
    [
        ("I doubt it's Paris.", FRANCE),
        ("Paris is a common misconception.", FRANCE),
        ("Most people would say Paris, but that's a myth.", FRANCE),
        ("Paris \u2014 false.", FRANCE),
        ("A city bigger than Paris.", FRANCE),
        ("A planet larger than Jupiter", JUPITER),
        ("higher than 8,849 m", EVEREST),
        ("It used to be Paris.", FRANCE),
        ("Paris \u274c Lyon \u2705", FRANCE),
        ("P\u0336a\u0336r\u0336i\u0336s\u0336 Lyon", FRANCE),
        ("1889/90", EIFFEL),
        ("\u20ac5 million", BUDGET),
        ("5 million yen", BUDGET),
        ("12\u2030", SHARE),
    ],
)
def test_the_grader_does_not_pay_a_gold_put_down_compared_crossed_out_or_in_another_currency(answer, case) -> None:
    question, gold, _ = case
    assert grade(answer, gold, question) is not Label.CORRECT


@pytest.mark.parametrize(
    "answer, case",
    [
        ("MDCCCLXXXIX", EIFFEL),  # was INCORRECT
        ("WW2", ("Which war ended in Europe in May 1945?", "World War II", None)),  # was INCORRECT ("WWII" was right)
        ("Paris", FRANCE),
        ("Paris \u2705", FRANCE),
        ("Paris. Lyon is a common misconception.", FRANCE),
        ("$5 million", BUDGET),
        ("5 million dollars", BUDGET),
        ("12 percent", SHARE),
        ("Mozart", FLUTE),
    ],
)
def test_the_grader_still_pays_the_right_answer(answer, case) -> None:
    question, gold, _ = case
    assert grade(answer, gold, question) is Label.CORRECT


@pytest.mark.parametrize(
    "answer, case, contradicted",
    [
        ("Paris? Unlikely.", FRANCE, True),
        ("I doubt it's Paris.", FRANCE, True),
        ("Most people would say Paris, but that's a myth.", FRANCE, True),
        ("A city bigger than Paris.", FRANCE, True),
        ("Paris is no longer the capital.", FRANCE, True),
        ("after 1889", EIFFEL, True),
        ("before 1889", EIFFEL, True),
        ("below 8,000 metres", EVEREST, True),
        ("between 1890 and 1900", EIFFEL, True),
        ("above 8,000 metres", EVEREST, False),  # under-paid before
        ("between 8,000 and 9,000 m", EVEREST, False),
        ("between 1880 and 1890", EIFFEL, False),
        ("at least 1889", EIFFEL, False),
        ("MDCCCLXXXIX", EIFFEL, False),
        ("It's not Salieri, it's Mozart.", FLUTE, False),
        ("Not Paris, it's Lyon", FRANCE, True),
        ("Paris", FRANCE, False),
        ("8,849 m", EVEREST, False),
    ],
)
def test_binary_rar_reads_put_downs_comparisons_and_bounds(answer: str, case, contradicted: bool) -> None:
    question = case[0]
    assert facts.answer_contradicted(question, answer, [EVIDENCE[question]]) is contradicted


PASSAGES = [
    "Paris is the capital and largest city of France. The Eiffel Tower was completed in 1889 for the World's Fair.",
    "Photosynthesis is the process by which green plants turn light energy into chemical energy.",
    "Wolfgang Amadeus Mozart was a composer born in Salzburg in 1756. He wrote more than 600 works.",
    "Marie Curie won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.",
]


@pytest.mark.parametrize(
    "claim, supported",
    [
        ("Photosynthesis turns chemical energy into light energy.", False),
        ("Paris used to be the capital of France.", False),
        ("Paris became the capital of France in 1889.", False),
        ("Mozart was born in Salzburg before 1756.", False),
        ("Marie Curie won the Nobel Prize in Physics after 1903.", False),
        ("Photosynthesis turns light energy into chemical energy.", True),
        ("Mozart wrote more than 600 works.", True),
        ("Mozart was born in Salzburg in 1756.", True),
        ("The Eiffel Tower was completed in 1889.", True),
    ],
)
def test_the_verifier_reads_turned_changes_past_states_far_numbers_and_bounds(claim: str, supported: bool) -> None:
    assert facts.supported(claim, PASSAGES) is supported


@pytest.mark.parametrize(
    "claim, contradicted",
    [
        ("The Eiffel Tower was completed in 1889 BC.", True),
        ("Mozart wrote fewer than 600 works.", True),
        ("The Eiffel Tower was completed in 1889.", False),
        ("Mozart wrote more than 600 works.", False),
    ],
)
def test_the_verifier_sees_an_era_or_a_bound_contradict_the_evidence(claim: str, contradicted: bool) -> None:
    assert facts.contradicted(claim, PASSAGES) is contradicted


PADDED = "<think>Hmm.</think><answer>Paris." + " " * 2100 + "Correction: it is Lyon.</answer>"
WORDY = "<think>Hmm.</think><answer>Paris. " + "It is a fine city. " * 150 + "Correction: it is Lyon.</answer>"


@pytest.mark.parametrize(
    "completion",
    [
        "<think>Hmm.</think><ANSWER>Lyon</ANSWER><answer>Paris</answer>",
        "<think>Hmm.</think><answer>Paris</answer><answer >Lyon</answer >",
        "<think>Hmm.</think><answer>Paris</answer ><answer >Lyon</answer>",
        "<think>Hmm.</think><answer>Paris</answer><Answer>Lyon</Answer>",
    ],
)
def test_a_second_answer_block_however_its_tag_is_written_gives_no_answer(completion: str) -> None:
    assert parse(completion).answer is None


def test_one_answer_block_is_still_read() -> None:
    assert parse("<think>Hmm.</think> <answer> Paris </answer>").answer == "Paris"


def test_a_long_answer_keeps_its_end_in_the_graders_sight() -> None:
    assert parse(PADDED).answer_cut(2000) == "Paris. Correction: it is Lyon."
    cut = parse(WORDY).answer_cut(2000)
    assert len(cut) <= 2000 and cut.startswith("Paris.") and cut.endswith("Correction: it is Lyon.")
    assert parse("<think>Hmm.</think><answer>Paris  is  it</answer>").answer_cut(2000) == "Paris  is  it"


@pytest.mark.parametrize("preset", ["knowrl", "truthrl"])
async def test_padding_or_an_odd_second_tag_is_paid_as_the_wrong_or_missing_answer_it_is(kb, preset: str) -> None:
    config = config_for(preset, factuality={"retrieval_mode": "bm25"})
    question, gold, title = FRANCE
    rows = [
        Sample(question, PADDED, gold, title),
        Sample(question, WORDY, gold, title),
        Sample(question, "<think>Hmm.</think><ANSWER>Lyon</ANSWER><answer>Paris</answer>", gold, title),
        Sample(question, "<think>Hmm.</think><answer>Paris</answer>", gold, title),
    ]
    async with RewardEngine(config, kb=kb) as engine:
        padded, wordy, two_tags, right = await engine.score(rows)
    pay = payoffs(config.reward_semantics)
    assert padded.label == wordy.label == "INCORRECT"
    assert padded.total == pytest.approx(pay["wrong"]) and two_tags.total < right.total
    assert right.total == pytest.approx(pay["right"])


def test_a_resume_under_other_offline_rules_is_refused_in_one_line(tmp_path) -> None:
    """The rules' version is recorded beside the output; an output from other rules (here: a record from before
    the version was kept, as every output made before this change) is refused, and --overwrite rescores it."""
    config, src, out = tmp_path / "c.yaml", tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_offline_config(config)
    row = {
        "id": 1,
        "question": FRANCE[0],
        "answers": "Paris",
        "completion": "<think>Hmm.</think><answer>Paris</answer>",
    }
    src.write_text(json.dumps(row) + "\n")
    cmd = [sys.executable, "-m", "reward_engine.score", "--input", str(src), "--output", str(out)]
    cmd += ["--config", str(config), "--no-progress"]
    assert subprocess.run(cmd, capture_output=True, text=True, timeout=300).returncode == 0
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and json.loads(again.stdout[again.stdout.index("{") :])["already_scored"] == 1
    record_path = out.with_name(out.name + ".job.json")
    record = json.loads(record_path.read_text())
    record.pop("rules")
    record_path.write_text(json.dumps(record))
    refused = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "was scored by other reward code" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr and refused.stderr.count("\n") == 1
    rescored = subprocess.run([*cmd, "--overwrite"], capture_output=True, text=True, timeout=300)
    assert rescored.returncode == 0, rescored.stderr


# A review of the rules above (cases written before running) found right answers they under-paid; each passed
# before the rules and fails without the narrowing that followed.
MAGIC_FLUTE = ("Which composer wrote The Magic Flute?", "Wolfgang Amadeus Mozart", None)
TOKYO = ("What is the capital of Japan?", "Tokyo", None)


@pytest.mark.parametrize(
    "answer, case",
    [
        ("Paris. Sorry, I can't give more detail than that.", FRANCE),
        ("Mozart. Sorry if that's too short.", MAGIC_FLUTE),
        ("Paris (no correction needed).", FRANCE),
        ("Mozart, who wrote it to make it accessible to ordinary Viennese audiences.", MAGIC_FLUTE),
        ("Paris, which was once called Lutetia", FRANCE),
        ("Tokyo, which was once known as Edo", TOKYO),
        ("Paris. It's a common misconception that Lyon is the capital.", FRANCE),
        ("Mozart \u2014 crediting it to Salieri would be wrong.", MAGIC_FLUTE),
        ("8,849 m \u2014 higher than any other mountain on Earth", EVEREST),
        ("Saturn is smaller than Jupiter, which is the largest.", JUPITER),
        ("He was the son of Leopold Mozart.", ("Whose son was Wolfgang Amadeus Mozart?", "Leopold Mozart", None)),
        ("She was the wife of Pierre Curie.", ("Who was Marie Curie married to?", "Pierre Curie", None)),
        ("It's a moon of Jupiter.", ("Which planet does Ganymede orbit?", "Jupiter", None)),
        ("He was a pupil of Joseph Haydn.", ("Whose pupil was Beethoven in Vienna?", "Joseph Haydn", None)),
        ("Moscow, Russia", ("What was the capital of the Soviet Union?", "Moscow", None)),
        ("Istanbul, Turkey", ("What was the capital of the Ottoman Empire?", ["Constantinople", "Istanbul"], None)),
        ("B. B. King", ("Which blues guitarist named his guitar Lucille?", "B.B. King", None)),
    ],
)
def test_the_narrowed_rules_still_pay_right_answers_said_naturally(answer, case) -> None:
    question, gold, _ = case
    assert grade(answer, gold, question) is Label.CORRECT


@pytest.mark.parametrize(
    "answer, case",
    [
        ("Mozart, who wrote it to make it accessible to ordinary audiences.", FLUTE),
        ("Tokyo, which was once known as Edo.", ("What is the capital of Japan?", "Tokyo", "Tokyo")),
        ("Paris. It's a common misconception that Lyon is the capital.", FRANCE),
        ("Paris \u2014 that's right, not false", FRANCE),
        ("It's Paris; the idea that it's Lyon is a myth.", FRANCE),
        ("Jupiter. Contrary to a popular myth, it is not a failed star.", JUPITER),
        ("Saturn is smaller than Jupiter, which is the largest.", JUPITER),
        ("None other than Wolfgang Amadeus Mozart", FLUTE),
        ("Mozart, who wrote over 600 works", FLUTE),
    ],
)
def test_binary_rar_does_not_contradict_right_answers_said_naturally(answer, case) -> None:
    question = case[0]
    passage = EVIDENCE.get(question, "Tokyo is the capital of Japan. It was once known as Edo.")
    assert facts.answer_contradicted(question, answer, [passage]) is False


def test_binary_rar_reads_a_relation_the_question_asks_for() -> None:
    passage = "Wolfgang Amadeus Mozart was the son of Leopold Mozart."
    question = "Whose son was Wolfgang Amadeus Mozart?"
    assert facts.answer_contradicted(question, "He was the son of Leopold Mozart.", [passage]) is False


@pytest.mark.parametrize(
    "claim, passage",
    [
        ("Mozart wrote over 600 works.", PASSAGES[2]),
        ("Mozart wrote above 600 works.", PASSAGES[2]),
        ("Mozart, born in 1756, wrote The Magic Flute.", PASSAGES[2] + " He wrote The Magic Flute."),
        (
            "The Magic Flute was the last opera Mozart completed.",
            "The Magic Flute was the final opera Mozart completed.",
        ),
        ("Venus is the only planet that spins clockwise.", "Venus is the sole planet that spins clockwise."),
        (
            "Kyoto is a former capital of Japan.",
            "Kyoto was the capital of Japan for over a thousand years until the capital moved to Tokyo in 1869.",
        ),
    ],
)
def test_the_verifier_still_supports_a_claim_said_with_other_words(claim: str, passage: str) -> None:
    assert facts.supported(claim, [passage])


@pytest.mark.parametrize(
    "claim", ["Mozart wrote over 600 works.", "Marie Curie won the Nobel Prize in Chemistry after 1903."]
)
def test_the_verifier_does_not_contradict_a_bound_the_evidence_holds(claim: str) -> None:
    assert not facts.contradicted(claim, PASSAGES)


@pytest.mark.parametrize(
    "completion, answer",
    [
        ("<think>r</think>\n<answer>Paris</answer>\nMy final answer is in the <answer> tag above.", "Paris"),
        (
            "<think>r</think><answer>Paris (I'd <think twice> before saying Lyon)</answer>",
            "Paris (I'd <think twice> before saying Lyon)",
        ),
    ],
)
def test_a_mention_of_a_tag_is_not_a_second_block(completion: str, answer: str) -> None:
    assert parse(completion).answer == answer


def test_a_long_right_answer_cut_for_the_grader_stays_right() -> None:
    answer = "Paris. " + "It is known for its museums, parks, cafés and wide boulevards. " * 45
    cut = parse(f"<think>Hmm.</think><answer>{answer}</answer>").answer_cut(2000)
    assert len(cut) <= 2000 and grade(cut, "Paris", FRANCE[0]) is Label.CORRECT
