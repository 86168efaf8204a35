"""Hostile pass 16 (issue #74): 53 new cases written before they were run; 17 on jobs found no data loss and no
stale result, 9 found reward holes, closed here.

Wrong paid as right: "Johann Christian Bach" for Johann Sebastian Bach (another given name where the gold has its
own), "It is not true that it is Paris.", "Paris is lovely. But the capital is Lyon." (the question answered again
in its own words), "About half of France's land is forest" supported by "29 %", "Saturn is larger than Jupiter"
not contradicted by "Jupiter is the largest planet". Right paid as wrong: "half" for 50 %, "25%" for one quarter,
"Louis the Fourteenth" for Louis XIV, and Binary RAR's answer check reading "Dvorak" as a name the evidence
("Antonín Dvořák") does not hold. Found beside them: "J.S. Bach" for Johann Sebastian Bach was INCORRECT.

Found beside them in claims: "It is not untrue that ..." contradicted, "minus 89.2 degrees Celsius" unsupported by
"−89.2 °C".

Not a hole: knowrl-june2025's keyword shortcut pays "Dvorak" for "Antonín Dvořák" -1, as KnowRL's June 2025
code does (a substring test on the lowercased answer, no accents folded); the preset reproduces that code.
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.comparatives import outranked
from reward_engine.offline.grader import Label, grade
from reward_engine.offline.rewrites import regnal, shares_as_percent
from reward_engine.offline.shortcuts import misses_gold_keywords

FRANCE = "What is the capital of France?"
BACH, BACH_Q = "Johann Sebastian Bach", "Who composed the Brandenburg Concertos?"
MOZART, MOZART_Q = "Wolfgang Amadeus Mozart", "Who composed The Magic Flute?"
SHARE_Q = "What share of the votes did the winning candidate receive?"
FOREST_Q = "What fraction of the island is covered by forest?"
KING_Q = "Which French king was known as the Sun King?"


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("Johann Christian Bach", BACH, BACH_Q, Label.INCORRECT),  # the hole: his son
        ("J.C. Bach", BACH, BACH_Q, Label.INCORRECT),
        ("Johann Sebastian Bach", BACH, BACH_Q, Label.CORRECT),
        ("J. S. Bach", BACH, BACH_Q, Label.CORRECT),
        ("J.S. Bach", BACH, BACH_Q, Label.CORRECT),  # was INCORRECT: "js" read as another given name
        ("Bach", BACH, BACH_Q, Label.CORRECT),
        ("W.A. Mozart", MOZART, MOZART_Q, Label.CORRECT),
        ("L.A. Mozart", MOZART, MOZART_Q, Label.INCORRECT),
        ("Maria Skłodowska-Curie", "Marie Curie", "Who discovered radium?", Label.CORRECT),  # her own double name
    ],
)
def test_another_given_name_where_the_gold_has_its_own(answer: str, gold: str, question: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("It is not true that it is Paris.", Label.INCORRECT),  # the hole
        ("It is false that it is Paris.", Label.INCORRECT),
        ("It is not the case that it is Paris.", Label.INCORRECT),
        ("It is not untrue that it is Paris.", Label.CORRECT),  # two negations affirm it
        ("It is true that it is Paris.", Label.CORRECT),
        ("Paris is lovely. But the capital is Lyon.", Label.INCORRECT),  # the hole: a second answer
        ("Paris is nice. The capital is Lyon.", Label.INCORRECT),
        ("Paris. The capital is Lyon.", Label.INCORRECT),
        ("Paris. The capital is beautiful.", Label.CORRECT),  # a remark, no name
        ("The capital lies on the Seine. It is Paris.", Label.CORRECT),
        ("Paris. The capital of France is Paris.", Label.CORRECT),
    ],
)
def test_a_denied_claim_and_the_question_answered_again(answer: str, label: Label) -> None:
    assert grade(answer, "Paris", FRANCE) is label


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("half", "50%", SHARE_Q, Label.CORRECT),
        ("one half", "50%", SHARE_Q, Label.CORRECT),
        ("a third", "50%", SHARE_Q, Label.INCORRECT),
        ("one quarter", "50%", SHARE_Q, Label.INCORRECT),
        ("25%", "one quarter", FOREST_Q, Label.CORRECT),
        ("a quarter", "one quarter", FOREST_Q, Label.CORRECT),
        ("75%", "one quarter", FOREST_Q, Label.INCORRECT),
        ("three quarters", "one quarter", FOREST_Q, Label.INCORRECT),
        ("half a dozen", "6", "How many legs does an insect have?", Label.CORRECT),  # no share asked: a count
        ("Louis the Fourteenth", "Louis XIV", KING_Q, Label.CORRECT),
        ("Louis 14", "Louis XIV", KING_Q, Label.CORRECT),
        ("Louis the 14th", "Louis XIV", KING_Q, Label.CORRECT),
        ("Louis the Sixteenth", "Louis XIV", KING_Q, Label.INCORRECT),
        ("Louis XVI", "Louis XIV", KING_Q, Label.INCORRECT),
        ("Louis XV", "Louis XIV", KING_Q, Label.INCORRECT),
    ],
)
def test_shares_and_regnal_numbers_in_the_gold_s_form(answer: str, gold: str, question: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


def test_rewrites_leave_what_is_no_share_or_regnal_number() -> None:
    assert shares_as_percent("the fourth of July; the second half of the century", of_only=True) == (
        "the fourth of July; the second half of the century"
    )
    assert shares_as_percent("half of its land", of_only=True) == "50% of its land"
    assert regnal("Louis the Great and Alfred the best") == "Louis the Great and Alfred the best"
    assert regnal("Henry the Eighth") == "Henry VIII"


FRANCE_KB = [
    "France is a country in Western Europe. Its area is 643,801 square kilometres. About 29% of its land is forest."
]
JUPITER_KB = ["Jupiter is the largest planet in the Solar System. Saturn is the second largest planet."]


@pytest.mark.parametrize(
    ("claim", "passages", "supported", "contradicted"),
    [
        ("About half of France's land is forest.", FRANCE_KB, False, True),  # the hole: supported by 29 %
        ("About a third of France's land is forest.", FRANCE_KB, False, True),
        ("About 29 percent of France's land is forest.", FRANCE_KB, True, False),
        ("Saturn is larger than Jupiter.", JUPITER_KB, False, True),  # the hole: never contradicted
        ("Jupiter is smaller than Saturn.", JUPITER_KB, False, True),
        ("Jupiter is larger than Saturn.", JUPITER_KB, False, False),
        ("Mercury is larger than Saturn.", JUPITER_KB, False, False),  # "the second largest" settles nothing
    ],
)
def test_shares_and_comparisons_against_the_evidence(
    claim: str, passages: list[str], supported: bool, contradicted: bool
) -> None:
    assert facts.supported(claim, passages) is supported
    assert facts.contradicted(claim, passages) is contradicted


MOZART_KB = ["Wolfgang Amadeus Mozart was a composer born in Salzburg in 1756. He wrote more than 600 works."]
VOSTOK_KB = [
    "Vostok Station in Antarctica recorded the lowest natural temperature on Earth, \u221289.2 \u00b0C, in 1983."
]


@pytest.mark.parametrize(
    ("claim", "passages", "supported", "contradicted"),
    [
        ("It is not untrue that Mozart was born in Salzburg.", MOZART_KB, True, False),  # was contradicted
        ("It is not true that Mozart was born in Salzburg.", MOZART_KB, False, True),
        ("The lowest natural temperature on Earth is minus 89.2 degrees Celsius.", VOSTOK_KB, True, False),
        ("The lowest natural temperature on Earth is 89.2 degrees Celsius.", VOSTOK_KB, False, True),
        ("The lowest natural temperature on Earth is minus 89.2 degrees Fahrenheit.", VOSTOK_KB, False, False),
    ],
)
def test_claims_said_twice_negated_or_in_words_for_signs_and_units(
    claim: str, passages: list[str], supported: bool, contradicted: bool
) -> None:
    assert facts.supported(claim, passages) is supported
    assert facts.contradicted(claim, passages) is contradicted


def test_a_comparison_needs_the_superlative_of_its_kind() -> None:
    assert outranked("Saturn is heavier than Jupiter.", ["Jupiter is the heaviest planet."])
    assert not outranked("Saturn is older than Jupiter.", ["Jupiter is the largest planet."])


DVORAK_Q = "Who composed the New World Symphony?"
DVORAK_KB = ["Antonín Dvořák was a Czech composer. He composed the Symphony No. 9, known as the New World Symphony."]


@pytest.mark.parametrize(
    ("response", "contradicted"),
    [
        ("Dvorak", False),  # the hole: "Dvořák" typed without its accents read as another name
        ("Antonin Dvorak", False),
        ("Antonín Dvořák", False),
        ("Bedřich Smetana", True),
        ("Smetana", True),
    ],
)
def test_binary_rar_compares_names_without_accents(response: str, contradicted: bool) -> None:
    assert facts.answer_contradicted(DVORAK_Q, response, DVORAK_KB) is contradicted


def test_june_2025_keyword_shortcut_folds_no_accents_as_its_code_does() -> None:
    assert misses_gold_keywords("Dvorak", "Antonín Dvořák")  # substring test on the lowercased answer
    assert not misses_gold_keywords("Dvořák", "Antonín Dvořák")
