"""Hostile pass 19 (issue #74): 61 new cases written before they were run; 8 on jobs found no data loss and no
stale result; of the grading cases, these holes are closed here, each beside the controls that passed.

Wrong paid as right: "half a percent" for 50 %, "3:30 at night" for 3:30 pm, "Saturn is larger than Jupiter." to
"Which is larger, Jupiter or Saturn?", "Not two." read as an abstention; claims "Saturn is larger than Jupiter"
against "Jupiter is the largest planet in the Solar System" and against "Jupiter is larger than Saturn", "Jupiter
is not larger than Saturn", "Jupiter is the second largest planet". Right paid as wrong: "half a percent" for
0.5 %, "Super Bowl fifty-one" / "Super Bowl LI" / "Apollo XI" for their golds in other numerals, "two moons, not
one", "1889 (not 1887, as is often said)", "1889 rather than 1887", "Lodz" / "Strauss" / "Soren" for "Łódź" /
"Strauß" / "Søren", claims "Saturn is larger than Titan" against "Titan is the largest moon of Saturn" and "Earth
is larger than the Moon" against a superlative qualified by "relative to", "born in Salzburg, not Vienna".

Left (in the issue's note): "one in five" for 20 %, "3:30" for a 24-hour gold "15:30", "Louis the Fourteenth" in a
claim, claims "half the land" against 29 % and "born in Vienna, not Salzburg" (unsupported, not contradicted: what
a claim denies fills a slot these rules cannot tell; a review of this pass found the first tries over-reached), "I
don't know Lyon well, but the capital is Paris." NOT_ATTEMPTED (right or wrong alike: it pays what "I
don't know" pays, so no policy gains by it).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

SHARE_Q = "What share of the votes did the winning candidate receive?"
SHOP = "At what time does the shop open?"
BOWL = "Which Super Bowl did the Patriots win in 2017?"
LARGER = "Which is larger, Jupiter or Saturn?"
MARS = "How many moons does Mars have?"
EIFFEL = "In which year was the Eiffel Tower completed?"
FRANCE = "What is the capital of France?"


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("half a percent", "50%", SHARE_Q, Label.INCORRECT),
        ("half a percent", "0.5%", "What share of the population is over 100?", Label.CORRECT),
        ("half of one per cent", "0.5%", "What share of the population is over 100?", Label.CORRECT),
        ("a half percent", "0.5%", "What share of the population is over 100?", Label.CORRECT),
        ("half of 1%", "0.5%", "What share of the population is over 100?", Label.CORRECT),
        ("half of 1%", "50%", SHARE_Q, Label.INCORRECT),
        ("half", "50%", SHARE_Q, Label.CORRECT),
        ("one and a half percent", "50%", SHARE_Q, Label.INCORRECT),
        ("3:30 at night", "3:30 pm", SHOP, Label.INCORRECT),
        ("12:30 at night", "12:30 pm", SHOP, Label.INCORRECT),
        ("9:30 at night", "9:30 pm", SHOP, Label.CORRECT),
        ("3:30 at night", "3:30 am", SHOP, Label.CORRECT),
        ("Super Bowl fifty-one", "Super Bowl LI", BOWL, Label.CORRECT),
        ("Super Bowl LI", "Super Bowl 51", BOWL, Label.CORRECT),
        ("Super Bowl LII", "Super Bowl 51", BOWL, Label.INCORRECT),
        ("Apollo XI", "Apollo 11", "Which mission first landed humans on the Moon?", Label.CORRECT),
        ("Apollo XII", "Apollo 11", "Which mission first landed humans on the Moon?", Label.INCORRECT),
        ("Saturn is larger than Jupiter.", "Jupiter", LARGER, Label.INCORRECT),
        ("Saturn is smaller than Jupiter.", "Jupiter", LARGER, Label.CORRECT),
        ("Jupiter is larger than Saturn.", "Jupiter", LARGER, Label.CORRECT),
        ("Not two.", "2", MARS, Label.INCORRECT),
        ("Mars has two moons, not one.", "2", MARS, Label.CORRECT),
        ("Mars has one moon, not two.", "2", MARS, Label.INCORRECT),
        ("1889 (not 1887, as is often said)", "1889", EIFFEL, Label.CORRECT),
        ("1887 (not 1889, as is often said)", "1889", EIFFEL, Label.INCORRECT),
        ("1889 rather than 1887", "1889", EIFFEL, Label.CORRECT),
        ("1887 rather than 1889", "1889", EIFFEL, Label.INCORRECT),
        ("Lodz", "Łódź", "Which Polish city is known for its film school?", Label.CORRECT),
        ("Johann Strauss II", "Johann Strauß II", "Who composed The Blue Danube?", Label.CORRECT),
        ("Johann Strauss I", "Johann Strauß II", "Who composed The Blue Danube?", Label.INCORRECT),
        ("I don't know, but maybe Paris.", "Paris", FRANCE, Label.CORRECT),
        ("I don't know.", "Paris", FRANCE, Label.NOT_ATTEMPTED),
        ("Not even Saturn is larger than Jupiter.", "Jupiter", LARGER, Label.CORRECT),  # the review's over-reaches
        ("Jupiter. Not even Saturn is larger than Jupiter.", "Jupiter", LARGER, Label.CORRECT),
        ("Many people think Saturn is larger than Jupiter, but it's Jupiter.", "Jupiter", LARGER, Label.CORRECT),
        ("Not one person knows for sure.", "1", "How many people know the whole formula?", Label.NOT_ATTEMPTED),
        (
            "Yes I'm sure it was Apollo XI.",
            "Apollo 11",
            "Which mission first landed humans on the Moon?",
            Label.CORRECT,
        ),
    ],
)
def test_pass19_answers(answer: str, gold: str, question: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


JUPITER = ["Jupiter is the largest planet in the Solar System. Saturn is the second largest planet."]
MOZART = ["Wolfgang Amadeus Mozart was a composer born in Salzburg in 1756. He wrote more than 600 works."]
FOREST = [
    "France is a country in Western Europe. Its area is 643,801 square kilometres. About 29% of its land is forest."
]


@pytest.mark.parametrize(
    ("claim", "passages", "supported", "contradicted"),
    [
        ("Saturn is larger than Jupiter.", ["Jupiter is the largest planet in the Solar System."], False, True),
        ("Saturn is larger than Jupiter.", ["Jupiter is larger than Saturn."], False, True),
        ("Jupiter is larger than Saturn.", ["Jupiter is larger than Saturn."], True, False),
        ("Saturn is smaller than Jupiter.", ["Jupiter is larger than Saturn."], None, False),
        ("Jupiter is not larger than Saturn.", JUPITER, False, True),
        ("Saturn is not larger than Jupiter.", JUPITER, None, False),
        ("Jupiter is the second largest planet.", JUPITER, False, True),
        ("Saturn is the second largest planet.", JUPITER, True, False),
        ("Jupiter is the largest planet.", JUPITER, True, False),
        ("Saturn is larger than Titan.", ["Titan is the largest moon of Saturn."], None, False),
        (
            "Rhea is larger than Titan.",
            ["Titan is the largest moon of Saturn. Rhea is its second largest moon."],
            None,
            True,
        ),
        (
            "Earth is larger than the Moon.",
            ["The Moon is the largest natural satellite relative to the size of its planet."],
            None,
            False,
        ),
        ("Tokyo is larger than Sydney.", ["Sydney is the largest city in Australia."], None, False),
        ("About 29% of the land of France is forest.", FOREST, True, False),
        ("Mozart was born in Vienna, not Salzburg.", MOZART, False, False),  # unsupported; a place is no value
        ("Mozart was born in Salzburg, not Vienna.", MOZART, True, False),
    ],
)
def test_pass19_claims(claim: str, passages: list[str], supported: bool | None, contradicted: bool) -> None:
    if supported is not None:
        assert facts.supported(claim, passages) is supported
    assert facts.contradicted(claim, passages) is contradicted


MZ = ["Wolfgang Amadeus Mozart was born in Salzburg in 1756. He died in Vienna in 1791."]
AU = ["Canberra is the capital city of Australia. Sydney is the largest city in Australia."]
PARIS = ["Paris is the capital of France. Lyon is its third city."]
US = ["The United States is larger than Canada by population, but Canada has the larger land area."]
TEXAS = ["California is larger than Texas in population, but Texas is larger in area."]
SUN = ["The Sun is the largest object in the Solar System. Jupiter is the largest planet in the Solar System."]
LAKES = [
    "Lake Superior is the largest freshwater lake in the world by surface area. "
    "The Caspian Sea is the largest lake in the world."
]


@pytest.mark.parametrize(
    ("claim", "passages", "supported", "contradicted"),
    [
        ("Mozart was born in Salzburg, not Vienna.", MZ, True, False),
        ("Canberra is the capital of Australia, not Sydney.", AU, True, False),
        ("The capital of Australia is Canberra, not Sydney.", AU, True, False),
        ("Paris is the capital of France, not Lyon.", PARIS, None, False),
        ("Canada is larger than the United States.", US, None, False),
        ("Texas is larger than California.", TEXAS, None, False),
        ("Venus is not much smaller than Earth.", ["Earth is larger than Venus, but only slightly."], None, False),
        ("Jupiter is the second-largest object in the Solar System.", SUN, None, False),
        ("Lake Superior is the second-largest lake in the world.", LAKES, None, False),
    ],
)  # fmt: skip
def test_what_the_review_of_pass19_found_the_new_rules_overreached_on(
    claim: str, passages: list[str], supported: bool | None, contradicted: bool
) -> None:
    if supported is not None:
        assert facts.supported(claim, passages) is supported
    assert facts.contradicted(claim, passages) is contradicted


PYTHON = ["Python is a programming language. Guido van Rossum first released Python in 1991."]


@pytest.mark.parametrize(
    ("question", "response", "passages", "contradicted"),
    [
        ("In which year was Python first released?", "1991 rather than 1989", PYTHON, False),
        ("In which year was Python first released?", "1989 rather than 1991", PYTHON, True),
        (
            "Who wrote Either/Or?",
            "Soren Kierkegaard",
            ["Søren Kierkegaard was a Danish philosopher. He wrote Either/Or in 1843."],
            False,
        ),
        (
            "Which is the largest planet in the Solar System?",
            "Saturn is larger than Jupiter.",
            ["Jupiter is the fifth planet from the Sun and the largest in the Solar System."],
            True,
        ),
        (
            "Which is the largest planet in the Solar System?",
            "Jupiter",
            ["Jupiter is the fifth planet from the Sun and the largest in the Solar System."],
            False,
        ),
    ],
)
def test_pass19_binary_rar(question: str, response: str, passages: list[str], contradicted: bool) -> None:
    assert facts.answer_contradicted(question, response, passages) is contradicted
