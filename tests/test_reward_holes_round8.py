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
