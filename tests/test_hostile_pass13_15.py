"""Hostile passes 13, 14 and 15 (issue #74), each of new cases written before they were run.

Pass 13 (34 cases, 4 failed): "two dozen" was graded CORRECT for the gold 2 (the count was read, its scale word was
not), a reward hole, closed here. Left, with reasons in the issue: a fact reward of 4e-5 under knowrl-robust for
evidence recombined into false claims, "fifth from the outside" for "fifth", ids written as an object or a list
(bad rows named by file, line and field).

Pass 14 (68 cases, 5 failed, 3 real): Binary RAR paid 1 for "Jupiter, the 6th planet from the Sun" where the
evidence says fifth (an ordinal rank was never compared); "the 5th planet" was unsupported by "the fifth planet";
"Lyon? No, Paris." was INCORRECT though "Lyon, no wait, Paris" is CORRECT. Found beside them: "Paris. No doubt."
read "No doubt" as a second answer.

Pass 15 (52 cases, 14 failed, 7 real, all reward holes that pay a right answer as a wrong one): "Capital: Paris" (a
label of the question's words read as a second name; a markdown table's header row the same), "Paris&nbsp;" (HTML
entities), "\\boxed{\\text{Paris}}" (nested LaTeX), "8'849 m" (an apostrophe as thousands separator, in answers and
claims), claims with a citation mark "[1]" or "(source: ...)" unsupported, "44 BCE" unsupported by "44 BC". Left as
debatable (in the issue): names in other scripts, an element's symbol for its name, ten repeats of the answer, a
range holding a range gold, a Latin-1 byte naming the row by line only, a KB deleted and rebuilt refused.
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.answer_forms import quantities
from reward_engine.offline.grader import Label, grade

MARS = "How many moons does Mars have?"


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("two dozen", "2", MARS, Label.INCORRECT),  # the hole: 24, not 2
        ("Two dozen.", "24", "How many hours are in a day?", Label.CORRECT),
        ("a dozen", "12", "How many months are in a year?", Label.CORRECT),
        ("a dozen", "1", "How many natural satellites does Earth have?", Label.INCORRECT),
        ("half a dozen", "6", "How many legs does an insect have?", Label.CORRECT),
        ("half a dozen", "12", "How many months are in a year?", Label.INCORRECT),
        ("2", "2", MARS, Label.CORRECT),
        ("A gross is 12 dozen.", "12", "How many dozen are in a gross?", Label.CORRECT),  # counted in dozens
        ("two dozen", "2", "How many dozen eggs are in the box?", Label.CORRECT),
    ],
)
def test_a_count_of_dozens_is_twelve_times_the_count(answer: str, gold: str, question: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("two dozen eggs", [24.0]),
        ("3 dozen", [36.0]),
        ("2.5 dozen roses", [30.0]),
        ("dozens of moons", []),  # no count: nothing committed to
        ("a few dozen", []),
    ],
)
def test_dozens_read_as_numbers(text: str, values: list[float]) -> None:
    assert [q.low for q in quantities(text)] == values


JUPITER = "Jupiter is the fifth planet from the Sun and the largest in the Solar System."
SATURN = "Saturn is the sixth planet from the Sun and the second-largest in the Solar System."
LARGEST = "Which planet is the largest in the Solar System?"


@pytest.mark.parametrize(
    ("claim", "passage", "supported", "contradicted"),
    [
        ("Jupiter is the 5th planet from the Sun.", JUPITER, True, False),  # was unsupported
        ("Jupiter is the fifth planet from the Sun.", JUPITER, True, False),
        ("Jupiter is the sixth planet from the Sun.", JUPITER, False, True),  # was neither
        ("Jupiter is the 6th planet from the Sun.", JUPITER, False, True),
        ("Saturn is the 6th planet from the Sun.", SATURN, True, False),
        ("Saturn is the second-largest planet.", SATURN, True, False),
        ("Saturn is the third-largest planet.", SATURN, False, True),
        ("Jupiter is the second largest planet.", JUPITER, False, False),  # a rank of another thing than "planet"
        ("Saturn is not the third-largest planet.", SATURN, False, False),
    ],
)
def test_ordinal_ranks_in_words_or_digits_are_compared(
    claim: str, passage: str, supported: bool, contradicted: bool
) -> None:
    assert facts.supported(claim, [passage]) is supported
    assert facts.contradicted(claim, [passage]) is contradicted


@pytest.mark.parametrize(
    ("response", "contradicted"),
    [
        ("Jupiter, the 6th planet from the Sun", True),  # the hole: Binary RAR paid 1
        ("Jupiter, the sixth planet from the Sun", True),
        ("Jupiter, the fifth planet from the Sun", False),
        ("Jupiter, the 5th planet from the Sun", False),
        ("Jupiter", False),
    ],
)
def test_binary_rar_reads_a_wrong_rank_said_of_the_answer(response: str, contradicted: bool) -> None:
    assert facts.answer_contradicted(LARGEST, response, [JUPITER]) is contradicted


FRANCE = "What is the capital of France?"


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Lyon? No, Paris.", Label.CORRECT),  # was INCORRECT
        ("Lyon. No, Paris.", Label.CORRECT),
        ("Lyon? No \u2014 Paris.", Label.CORRECT),
        ("Paris? No, Lyon.", Label.INCORRECT),
        ("Lyon, no wait, Paris", Label.CORRECT),
        ("Paris. No doubt.", Label.CORRECT),  # was INCORRECT: "No doubt" read as a second answer
        ("Paris. Without a doubt.", Label.CORRECT),
        ("Paris, for sure.", Label.CORRECT),
        ("Lyon. No doubt.", Label.INCORRECT),
        ("Lyon, for sure.", Label.INCORRECT),
    ],
)
def test_a_guess_turned_down_and_an_assurance_after_the_answer(answer: str, label: Label) -> None:
    assert grade(answer, "Paris", FRANCE) is label


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("Capital: Paris", "Paris", FRANCE, Label.CORRECT),
        ("Capital city: Paris", "Paris", FRANCE, Label.CORRECT),
        ("Capital of France - Paris", "Paris", FRANCE, Label.CORRECT),
        ("Capital: Lyon", "Paris", FRANCE, Label.INCORRECT),
        ("Lyon: Paris", "Paris", FRANCE, Label.INCORRECT),  # a label of another name is no label
        ("| Country | Capital |\n|---|---|\n| France | Paris |", "Paris", FRANCE, Label.CORRECT),
        ("| Country | Capital |\n|---|---|\n| France | Lyon |", "Paris", FRANCE, Label.INCORRECT),
        ("Paris&nbsp;", "Paris", FRANCE, Label.CORRECT),
        ("&#80;aris", "Paris", FRANCE, Label.CORRECT),
        ("Lyon&nbsp;", "Paris", FRANCE, Label.INCORRECT),
        ("$\\boxed{\\text{Paris}}$", "Paris", FRANCE, Label.CORRECT),
        ("\\boxed{\\text{Lyon}}", "Paris", FRANCE, Label.INCORRECT),
        ("8'849 m", "8,849 m", "How high is Mount Everest?", Label.CORRECT),
        ("8\u2019849 metres", "8,849 m", "How high is Mount Everest?", Label.CORRECT),
        ("8'000 m", "8,849 m", "How high is Mount Everest?", Label.INCORRECT),
    ],
)
def test_markup_and_labels_around_an_answer(answer: str, gold: str, question: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


CAESAR = "Julius Caesar was a Roman general and statesman. He was assassinated in Rome on the Ides of March, 44 BC."
EIFFEL = "The Eiffel Tower was completed in 1889."
EVEREST = "Mount Everest is the highest mountain above sea level. Its summit is 8,849 metres high."


@pytest.mark.parametrize(
    ("claim", "passage", "supported", "contradicted"),
    [
        ("Julius Caesar was assassinated in 44 BCE.", CAESAR, True, False),
        ("Julius Caesar was assassinated in 44 B.C.E.", CAESAR, True, False),
        ("Julius Caesar was assassinated in 44 CE.", CAESAR, False, True),
        ("Julius Caesar was assassinated in 45 BCE.", CAESAR, False, True),
        ("The Eiffel Tower was completed in 1889 [1].", EIFFEL, True, False),
        ("The Eiffel Tower was completed in 1889[1].", EIFFEL, True, False),
        ("The Eiffel Tower was completed in 1889 (source: Wikipedia).", EIFFEL, True, False),
        ("The Eiffel Tower was completed in 1901 [2].", EIFFEL, False, True),
        ("Mount Everest's summit is 8'849 metres high.", EVEREST, True, False),
        ("Mount Everest's summit is 8'000 metres high.", EVEREST, False, True),
    ],
)
def test_claims_read_past_citation_marks_eras_and_separators(
    claim: str, passage: str, supported: bool, contradicted: bool
) -> None:
    assert facts.supported(claim, [passage]) is supported
    assert facts.contradicted(claim, [passage]) is contradicted
