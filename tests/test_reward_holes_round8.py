"""Review 8 (issue #74): right answers the offline rules paid as wrong, closed here, each beside the wrong
answers of the same shape that must stay wrong.

* A think or answer tag in capitals or with a space (``<THINK>``, ``</ answer>``) hid the answer: no answer at
  all, paid as a wrong one. The format term still says it is not KnowRL's format.
* "1889 (completed 31 March 1889)": a year restated as a full date read as two dates, a list.
* "Atlanta, Georgia, USA" (Georgia, the US state) and "Washington, D.C., USA" (the gold's own comma): where the
  gold lies, said outward, read as a list of three guesses.
* (Hostile pass 7's G24, the other way:) "Paris <but really Lyon>" was CORRECT: any word in angle brackets was
  dropped as markup. Only HTML elements and tags with attributes are markup now; other bracketed words an aside.
* "8,849 m, and it still rises by about 4 mm/yr", "... summit temperatures can drop to -60 °C": a number of
  another dimension, or below zero, beside the gold's own value read as the gold's number changed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reward_engine.completion import parse
from reward_engine.labels import Label
from reward_engine.offline.grader import grade
from reward_engine.offline.text_form import normalize
from reward_engine.offline.version import rules_version

FRANCE = ("What is the capital of France?", "Paris")
EVEREST = ("How high is Mount Everest?", "8,849 m")
EIFFEL = ("In which year was the Eiffel Tower completed?", "1889")
USA = ("What is the capital of the United States?", "Washington, D.C.")
GEORGIA = ("What is the capital of Georgia?", "Atlanta")


@pytest.mark.parametrize(
    ("text", "answer", "well_formed"),
    [
        ("<THINK>France's capital.</THINK><answer>Paris</answer>", "Paris", False),
        ("<think>Hmm.</think><ANSWER>Paris</ANSWER>", "Paris", False),
        ("<think>Hmm.</think>< answer >Paris</ answer>", "Paris", False),
        ("<think>Hmm.</ think><answer>Paris</answer>", "Paris", False),
        ("<think>Hmm.</think><answer>Paris</answer>", "Paris", True),
        # still one block only: a second one in any case spoils both, a tag inside the answer is no answer
        ("<think>Hmm.</think><answer>Paris</answer><ANSWER>Lyon</ANSWER>", None, False),
        ("<think>Hmm.</think><ANSWER>Lyon</ANSWER><answer>Paris</answer>", None, False),
        ("<think>Hmm.</think><answer>Paris <ANSWER>Lyon</answer>", None, True),
        ("<think>Hmm.</think><answer/>Paris", None, False),
    ],
)
def test_tags_in_any_case_give_their_answer_and_still_fail_the_format(text: str, answer, well_formed: bool) -> None:
    parsed = parse(text)
    assert (parsed.answer, parsed.well_formed) == (answer, well_formed)


@pytest.mark.parametrize(
    ("answer", "qa", "label"),
    [
        ("1889 (completed 31 March 1889)", EIFFEL, Label.CORRECT),
        ("31 March 1889", EIFFEL, Label.CORRECT),
        ("1889 or 1890", EIFFEL, Label.INCORRECT),
        ("1889, no wait, 1890", EIFFEL, Label.INCORRECT),
        ("in 1889, started 1887", EIFFEL, Label.INCORRECT),
        ("Atlanta, Georgia, USA", GEORGIA, Label.CORRECT),
        ("Atlanta, Georgia, USA", ("What is the capital of Georgia?", "Tbilisi"), Label.INCORRECT),
        ("Tbilisi, Georgia", ("What is the capital of Georgia?", "Tbilisi"), Label.CORRECT),
        ("Paris, France, Europe", FRANCE, Label.CORRECT),
        ("Paris, Texas, USA", FRANCE, Label.INCORRECT),
        ("Paris, France, Germany", FRANCE, Label.INCORRECT),
        ("Paris, Lyon, France", FRANCE, Label.INCORRECT),
        ("Paris, France, USA", FRANCE, Label.INCORRECT),
        ("Washington, D.C., USA", USA, Label.CORRECT),
        ("Washington, D.C.", USA, Label.CORRECT),
        ("New York, Washington, D.C.", USA, Label.INCORRECT),
        # a region that is also a city's name after a city gold is another city, not where the gold lies
        ("Washington, D.C., New York", USA, Label.INCORRECT),
        ("Washington DC, New York", ("What is the capital of the United States?", "Washington DC"), Label.INCORRECT),
        ("Ottawa, Quebec", ("What is the capital of Canada?", "Ottawa"), Label.INCORRECT),
        ("Albany, New York", ("What is the capital of New York State?", "Albany"), Label.CORRECT),
        ("Nepal, China, Asia", ("Which country is Mount Everest in?", "Nepal"), Label.INCORRECT),
    ],
)
def test_dates_restated_and_places_said_outward(answer: str, qa: tuple[str, str], label: Label) -> None:
    question, gold = qa
    assert grade(answer, gold, question) is label


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("8,849 m, and it still rises by about 4 mm/yr", Label.CORRECT),
        ("8,849 m, where summit temperatures can drop to -60 °C", Label.CORRECT),
        ("8,849 m, about 29,032 ft", Label.CORRECT),
        ("-8,849 m", Label.INCORRECT),
        ("minus 8,849 m", Label.INCORRECT),
        ("8,849 m below sea level", Label.INCORRECT),
        ("8,849 m, or -8,849 m", Label.INCORRECT),
        ("8,849 m/s", Label.INCORRECT),
        ("8,849 m/s and 8,849 m", Label.INCORRECT),
        ("8,849 m or 8,849 km²", Label.INCORRECT),
        ("9,100 m, 8,849 °C", Label.INCORRECT),
        ("9,000 m, where it is -60 °C", Label.INCORRECT),
        ("8,849 m or 9,000 m, and 4 mm/yr", Label.INCORRECT),
    ],
)
def test_a_measure_of_something_else_beside_the_gold_is_detail(answer: str, label: Label) -> None:
    question, gold = EVEREST
    assert grade(answer, gold, question) is label


def test_initialisms_read_alike_with_or_without_their_last_dot() -> None:
    """A reading cuts a sentence's last dot: "D.C" and "D.C." must still be one word."""
    assert normalize("D.C") == normalize("D.C.") == "dc"
    assert normalize("U.S.A.") == "usa" and normalize("file.py") == "file py"


@pytest.mark.parametrize("module", ["completion.py", "stages/claims.py", "rules/graded.py", "semantics.py"])
def test_the_rules_version_covers_all_code_that_decides_a_reward(tmp_path, monkeypatch, module: str) -> None:
    """Reading an answer out (review 8) and deduplicating claims (hostile pass 8's S07) change rewards as much as a
    grader rule: a job keyed to the rules must see a change to either."""
    import reward_engine.offline.version as version

    package = Path(version.__file__).resolve().parents[1]
    copy = tmp_path / "reward_engine"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(version, "__file__", str(copy / "offline" / "version.py"))
    version.rules_version.cache_clear()
    try:
        first = version.rules_version()
        with (copy / module).open("a") as f:
            f.write("\n# changed\n")
        version.rules_version.cache_clear()
        assert version.rules_version() != first
    finally:
        monkeypatch.undo()
        version.rules_version.cache_clear()
    assert len(rules_version()) == 16


# -- hostile pass 8: reward holes -------------------------------------------------------------------------------------
FLUTE = ("Which composer wrote The Magic Flute?", "Wolfgang Amadeus Mozart")
STRADDLE = ("Which two countries does Mount Everest straddle?", "Nepal, China")
VOTE = ("What share of the vote did the party win?", "12%")


@pytest.mark.parametrize(
    ("answer", "qa", "label"),
    [
        ("Mozart Sr.", FLUTE, Label.INCORRECT),  # Leopold, the father
        ("Mozart Jr.", FLUTE, Label.INCORRECT),
        ("Mozart the Elder", FLUTE, Label.INCORRECT),
        ("Mozart", FLUTE, Label.CORRECT),
        ("W. A. Mozart", FLUTE, Label.CORRECT),
        ("Martin Luther King Jr.", ("Who gave the I Have a Dream speech?", "Martin Luther King Jr."), Label.CORRECT),
        ("Nepal", STRADDLE, Label.INCORRECT),  # half of a two-part gold
        ("China", STRADDLE, Label.INCORRECT),
        ("Nepal and China", STRADDLE, Label.CORRECT),
        ("China and Nepal", STRADDLE, Label.CORRECT),
        ("Nepal, China", STRADDLE, Label.CORRECT),
        ("Nepal, China and India", STRADDLE, Label.INCORRECT),
        ("Paris", ("What is the capital of France?", "Paris, France"), Label.CORRECT),
        ("12 basis points", VOTE, Label.INCORRECT),  # 0.12 %
        ("12 bps", VOTE, Label.INCORRECT),
        ("12 percent", VOTE, Label.CORRECT),
        ("1889 ± 5", EIFFEL, Label.NOT_ATTEMPTED),  # eleven years that hold the gold: vague, never right
        ("1889 plus or minus 50 years", EIFFEL, Label.NOT_ATTEMPTED),
        ("1900 ± 5", EIFFEL, Label.INCORRECT),
        ("5,730 ± 40 years", ("What is the half-life of carbon-14?", "5,730 years"), Label.CORRECT),
    ],
)
def test_pass8_grader_holes(answer: str, qa: tuple[str, str], label: Label) -> None:
    question, gold = qa
    assert grade(answer, gold, question) is label


JUPITER = "Jupiter is the fifth planet from the Sun and the largest in the Solar System."
TOWER = "The Eiffel Tower was completed in 1889 for the World's Fair."


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Jupiter is the largest moon in the Solar System.", False),
        ("Jupiter is the biggest star in the Solar System.", False),
        ("Jupiter is the largest planet in the Solar System.", True),
        ("Jupiter is the biggest planet in the Solar System.", True),
    ],
)
def test_pass8_a_superlative_of_another_kind_is_not_supported(claim: str, supported: bool) -> None:
    from reward_engine.offline import facts

    assert facts.supported(claim, [JUPITER]) is supported


@pytest.mark.parametrize(("response", "contradicted"), [("the 1890s", True), ("the 1900s", True), ("the 1880s", False)])
def test_pass8_binary_rar_reads_a_decade(response: str, contradicted: bool) -> None:
    from reward_engine.offline import facts

    assert facts.answer_contradicted(EIFFEL[0], response, [TOWER]) is contradicted


def test_pass8_an_answer_block_between_two_think_closes_is_a_second_answer() -> None:
    assert parse("<think>Hmm.</think><answer>Lyon</answer></think><answer>Paris</answer>").answer is None
    # one inside the only think block is reasoning (KnowRL grades it; the conformance bench names the difference)
    assert parse("<think>Maybe <answer>Lyon</answer> fits.</think><answer>Paris</answer>").answer == "Paris"


def test_pass8_a_fact_reworded_is_one_claim() -> None:
    from reward_engine.stages.claims import distinct

    same = ["France's capital is Paris.", "The capital city of France is Paris.", "Paris serves as France's capital."]
    assert distinct(same) == same[:1]
    apart = ["Paris is the capital of France.", "Paris is the largest city of France.", "Paris is not in Spain."]
    assert distinct(apart) == apart
    years = ["Mozart was born in Salzburg in 1756.", "Mozart was born in Salzburg in 1757."]
    assert distinct(years) == years
