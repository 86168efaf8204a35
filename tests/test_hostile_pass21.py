"""Hostile passes 21 to 25 (issue #74): 87 new cases written before they were run (16 whole completions through the
presets, 9 on jobs): no data loss, no stale result, and no wrong answer paid as right. Closed here: right answers
paid as wrong, each beside its controls: "Lyon. Final answer: Paris", "Lyon. Just kidding, it's Paris." (corrections
the reading did not know), "Paris? Yes." (a confirmation read as a second answer), "Paris, or at least that's my
guess." (a hedge read as a second option). Pass 25's rest: a quoted marker ('Lyon, not "final answer: Paris"'), markers
inside a clause ("Paris, which on reflection is obvious", "Paris is my final answer"), a correction that confirms
("On second thought, that's right"), a marker said twice, "I am 100% sure" and Binary RAR reading "I'm" as a name.

Left (debatable, in the issue's note; none pays a policy more than "I don't know"): "I don't have enough information
to say, but Paris is plausible." NOT_ATTEMPTED right or wrong; "1889±1" NOT_ATTEMPTED; bounds that hold the gold
("more than one" for 2) NOT_ATTEMPTED; a prize year swapped with another prize's only unsupported; truthrl pays "I do
not know." as wrong (TruthRL's literal phrase rule).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

FRANCE = "What is the capital of France?"
EIFFEL = "In which year was the Eiffel Tower completed?"


@pytest.mark.parametrize(
    ("answer", "question", "gold", "label"),
    [
        # hostile pass 21
        ("Lyon. Final answer: Paris", FRANCE, "Paris", Label.CORRECT),
        ("Paris. Final answer: Lyon", FRANCE, "Paris", Label.INCORRECT),
        ("Final answer: Paris", FRANCE, "Paris", Label.CORRECT),
        ("Lyon. Just kidding, it's Paris.", FRANCE, "Paris", Label.CORRECT),
        ("Paris. Just kidding: Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris? Yes.", FRANCE, "Paris", Label.CORRECT),
        ("Paris. Yes, definitely.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon? Yes.", FRANCE, "Paris", Label.INCORRECT),
        ("Yes.", "Is Paris the capital of France?", "Yes", Label.CORRECT),
        ("Paris, or at least that's my guess.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon, or at least that's my guess.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris, or at least Lyon", FRANCE, "Paris", Label.INCORRECT),
        ("Paris or Lyon", FRANCE, "Paris", Label.INCORRECT),
        # hostile pass 22 (83 cases: no data loss, no stale result): where pass 21's rules went too far or not far
        ("Paris, or at least I think it's Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris, or at least my guess is Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("Lyon. Just kidding.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris, and I'm not just kidding.", FRANCE, "Paris", Label.CORRECT),
        ("Answer: Paris\nConfidence: low", FRANCE, "Paris", Label.CORRECT),
        ("Lyon. Confidence: high", FRANCE, "Paris", Label.INCORRECT),
        ("1. 1889", EIFFEL, "1889", Label.CORRECT),
        ("1. Lyon 2. Paris", FRANCE, "Paris", Label.INCORRECT),
        ("1889, and that's no mistake.", EIFFEL, "1889", Label.CORRECT),
        ("Paris \u2014 a common misconception is that it's Lyon.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon \u2014 a common misconception is that it's Paris.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris is a myth.", FRANCE, "Paris", Label.INCORRECT),
        # hostile pass 23 (92 cases: no data loss, no stale result): "I mean it." read as a new, empty answer (an
        # abstention: Binary RAR paid 1 for "Lyon. I mean it."), confirmations and openers read as second answers
        ("Lyon. I mean it.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris. I mean it.", FRANCE, "Paris", Label.CORRECT),
        ("1887. I mean it.", EIFFEL, "1889", Label.INCORRECT),
        ("Paris \u2014 I mean, obviously.", FRANCE, "Paris", Label.CORRECT),
        ("Paris, the one on the Seine, I mean.", FRANCE, "Paris", Label.CORRECT),
        ("Paris, I mean Lyon", FRANCE, "Paris", Label.INCORRECT),
        ("1889. Yes, really.", EIFFEL, "1889", Label.CORRECT),
        ("Paris. Yes, that's right.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon. That's right.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris. Correct.", FRANCE, "Paris", Label.CORRECT),
        ("No kidding, Paris.", FRANCE, "Paris", Label.CORRECT),
        ("No kidding, Lyon.", FRANCE, "Paris", Label.INCORRECT),
        # hostile pass 24 (79 cases: no data loss, no stale result): "On second thought, Lyon" paid the first answer
        ("Paris. On second thought, Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("Lyon. On second thought, Paris.", FRANCE, "Paris", Label.CORRECT),
        ("Paris. Come to think of it, Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("I'd say Lyon. On reflection, Paris.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon.\n**Final answer**: Paris", FRANCE, "Paris", Label.CORRECT),
        ("Lyon. Correction \u2014 Paris.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon. Let me correct myself: Paris.", FRANCE, "Paris", Label.CORRECT),
        ("Paris. Yes, really. I mean it. Confidence: high", FRANCE, "Paris", Label.CORRECT),
        ("Lyon. Yes, really. I mean it. Confidence: high", FRANCE, "Paris", Label.INCORRECT),
        ("Confidence: high. Paris.", FRANCE, "Paris", Label.CORRECT),
        ("Confidence: high. Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("1889. No, seriously.", EIFFEL, "1889", Label.CORRECT),
        ("1887. No, seriously.", EIFFEL, "1889", Label.INCORRECT),
        ("Paris. 100%.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon. 100%.", FRANCE, "Paris", Label.INCORRECT),
        # hostile pass 25: "I mean it" inside an answer is emphasis, not a correction to "it"
        ("Lyon. I mean it. Paris.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris, I mean Lyon, I mean it.", FRANCE, "Paris", Label.INCORRECT),
        ("Lyon, I mean Paris, I mean it.", FRANCE, "Paris", Label.CORRECT),
        ("Paris, I mean the city itself.", FRANCE, "Paris", Label.CORRECT),  # "I mean" clarifying, not correcting
        ("Lyon, I mean the city itself.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris, I mean, of course.", FRANCE, "Paris", Label.CORRECT),
        ("Paris, I mean lyon", FRANCE, "Paris", Label.INCORRECT),
        ("Paris, I mean the capital is Lyon.", FRANCE, "Paris", Label.INCORRECT),
        # pass 25, the rest: a quoted marker, markers inside a clause, a correction that confirms, repeated markers
        ('Lyon, not "final answer: Paris".', FRANCE, "Paris", Label.INCORRECT),
        ('Paris, not "final answer: Lyon".', FRANCE, "Paris", Label.CORRECT),
        ("Paris (I mean the French one)", FRANCE, "Paris", Label.CORRECT),
        ("Lyon (I mean the French one)", FRANCE, "Paris", Label.INCORRECT),
        ("Paris, I mean the other one", FRANCE, "Paris", Label.INCORRECT),
        ("Paris, which on reflection is obvious.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon, which on reflection is obvious.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris is my final answer: no doubt.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon is my final answer: no doubt.", FRANCE, "Paris", Label.INCORRECT),
        ("Lyon. The final answer is Paris.", FRANCE, "Paris", Label.CORRECT),
        ("Paris. On second thought, that's right.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon. On second thought, that's right.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris. On second thought, no.", FRANCE, "Paris", Label.INCORRECT),
        ("Lyon. Just kidding, just kidding, it's Paris.", FRANCE, "Paris", Label.CORRECT),
        ("Paris. Just kidding, just kidding, it's Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris. I am 100% sure.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon. I am 100% sure.", FRANCE, "Paris", Label.INCORRECT),
    ],
)
def test_corrections_confirmations_hedges_closing_words(answer: str, question: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


JUPITER = ["Jupiter is the largest planet in the Solar System. Saturn is the second largest planet."]
EVEREST = ["Mount Everest is the highest mountain above sea level. Its summit is 8,849 metres high."]
PYTHON = ["Python is a programming language. Guido van Rossum first released Python in 1991."]


@pytest.mark.parametrize(
    ("claim", "passages", "supported"),
    [
        ("Jupiter is the largest planet, not Saturn.", JUPITER, True),
        ("Mount Everest's summit is 8,849 metres high, not 8,848.", EVEREST, True),
        ("Mount Everest's summit is 8,848 metres high, not 8,849.", EVEREST, False),
        ("Python was launched by Guido van Rossum in 1991.", PYTHON, True),
    ],
)
def test_pass22_claims(claim: str, passages: list[str], supported: bool) -> None:
    assert facts.supported(claim, passages) is supported


def test_pass23_binary_rar_and_claims_read_a_closing_word_as_no_fact() -> None:
    capital = ["Paris is the capital and largest city of France."]
    assert facts.answer_contradicted(FRANCE, "Lyon. I mean it.", capital)
    assert not facts.answer_contradicted(FRANCE, "Paris. I mean it.", capital)
    tower = ["The Eiffel Tower in Paris was completed in 1889."]
    assert facts.supported("The Eiffel Tower was completed in 1889, and that's no mistake.", tower)
    assert not facts.supported("The Eiffel Tower was completed in 1887, and that's no mistake.", tower)
    assert facts.supported("The Eiffel Tower was completed in 1889, no doubt about it.", tower)  # pass 24
    assert not facts.answer_contradicted(FRANCE, "**Final answer:** Paris", capital)
    assert facts.answer_contradicted(FRANCE, "Paris. On second thought, Lyon.", capital)


@pytest.mark.parametrize(
    ("answer", "contradicted"),
    [
        ("Paris. I'm sure.", False),  # the "I" of "I'm" was read as a name the evidence lacks
        ("Paris, I'm certain.", False),
        ("Lyon. I'm sure.", True),
        ('Lyon, not "final answer: Paris".', True),
        ("Paris. On second thought, that's right.", False),
        ("Lyon. On second thought, that's right.", True),
        ("Paris. On second thought, I don't know.", False),  # taken back: an abstention, as the grader reads it
        ("Lyon. On second thought, I'm not sure.", False),
    ],
)
def test_pass25_binary_rar(answer: str, contradicted: bool) -> None:
    capital = ["Paris is the capital and largest city of France."]
    assert facts.answer_contradicted(FRANCE, answer, capital) is contradicted
