"""Hostile pass 18 (issue #74): 44 new cases written before they were run; 10 on jobs found no data loss and no
stale result, but three more file flags used twice silently (``warm --data``, ``inspect --kb``,
``retrieval.build --from-db``); of the grading cases, these holes are closed here.

Wrong paid as right: "03:30" and "3:30 in the morning" for 3:30 pm, "00:00" for noon, "Super Bowl LII" for Super
Bowl LI, a claim "began at 3:30 am" supported by "3:30 pm", Binary RAR's "Not 1991." not contradicted. Right paid as
wrong: "It wasn't in 1887 but in 1889.", "3:30 in the afternoon" for 15:30, "noon", "4.7.1776" (dots are day
first), "Super Bowl 51", "Louis XIV was King in 1700" contradicted by a reign of 1643-1715, Binary RAR's "1991,
not 1989." contradicted.

Also closed: "Jupiter is smaller than Saturn." CORRECT to "Which is larger, Jupiter or Saturn?"; "Lyon is lovely.
But the capital is Paris." INCORRECT (a remark on another name read as a second answer); Binary RAR paying "USA" 0
where the evidence says "the United States".

Left (in the issue's note): "Anything but 1889." CORRECT, an inserted middle name ("John Quincy Adams" for John
Adams: only knowledge tells it from a full name), spoken years and Roman numerals in claims, "USA" in claims, "one
and a half million".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

ROOT = Path(__file__).resolve().parents[1]
SHOP = "At what time does the shop open?"


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("03:30", "3:30 pm", Label.INCORRECT),  # a 24-hour clock: no afternoon to assume
        ("3:30 in the morning", "3:30 pm", Label.INCORRECT),
        ("3:30", "3:30 pm", Label.CORRECT),
        ("3:30 in the afternoon", "15:30", Label.CORRECT),
        ("00:00", "12:00 pm", Label.INCORRECT),
        ("noon", "12:00 pm", Label.CORRECT),
        ("midday", "12:00 pm", Label.CORRECT),
        ("midnight", "12:00 pm", Label.INCORRECT),
    ],
)
def test_times_of_day_keep_their_half_of_the_day(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, SHOP) is label


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("It wasn't in 1887 but in 1889.", "1889", "In which year was the Eiffel Tower completed?", Label.CORRECT),
        ("It wasn't 1887, it was 1889.", "1889", "In which year was the Eiffel Tower completed?", Label.CORRECT),
        ("It wasn't 1889, it was 1887.", "1889", "In which year was the Eiffel Tower completed?", Label.INCORRECT),
        ("4.7.1776", "4 July 1776", "When was the Declaration of Independence adopted?", Label.CORRECT),
        ("04.07.1776", "4 July 1776", "When was the Declaration of Independence adopted?", Label.CORRECT),
        ("07.04.1776", "4 July 1776", "When was the Declaration of Independence adopted?", Label.INCORRECT),
        ("Super Bowl LII", "Super Bowl LI", "Which Super Bowl did the Patriots win in 2017?", Label.INCORRECT),
        ("Super Bowl L", "Super Bowl LI", "Which Super Bowl did the Patriots win in 2017?", Label.INCORRECT),
        ("Super Bowl 51", "Super Bowl LI", "Which Super Bowl did the Patriots win in 2017?", Label.CORRECT),
        ("World War I", "World War II", "Which war ended in 1945?", Label.INCORRECT),
    ],
)
def test_values_set_aside_dotted_dates_and_numbered_names(answer: str, gold: str, question: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


LOUIS = ["Louis XIV, known as the Sun King, was King of France from 1643 until his death in 1715."]
CEREMONY = ["The ceremony began at 3:30 pm on Sunday."]
PYTHON = ["Python is a programming language. Guido van Rossum first released Python in 1991."]


@pytest.mark.parametrize(
    ("claim", "passages", "supported", "contradicted"),
    [
        ("Louis XIV was King of France in 1700.", LOUIS, False, False),  # inside the reign: was contradicted
        ("Louis XIV was King of France in 1750.", LOUIS, False, True),
        ("The ceremony began at 3:30 am.", CEREMONY, False, False),  # was supported: am and pm are opposites
        ("The ceremony began at 3:30 pm.", CEREMONY, True, False),
        ("The museum closes at 5:30 pm.", ["The museum opens at 9:30 and closes at 5:30 every day."], False, False),
    ],
)
def test_years_inside_a_period_and_times_in_claims(
    claim: str, passages: list[str], supported: bool, contradicted: bool
) -> None:
    assert facts.supported(claim, passages) is supported
    assert facts.contradicted(claim, passages) is contradicted


@pytest.mark.parametrize(
    ("response", "contradicted"),
    [("Not 1991.", True), ("1991, not 1989.", False), ("It wasn't 1989, it was 1991.", False), ("1989", True)],
)
def test_binary_rar_reads_a_denied_value(response: str, contradicted: bool) -> None:
    question = "In which year was Python first released?"
    assert facts.answer_contradicted(question, response, PYTHON) is contradicted


@pytest.mark.parametrize(
    ("answer", "question", "gold", "label"),
    [
        ("Jupiter is smaller than Saturn.", "Which is larger, Jupiter or Saturn?", "Jupiter", Label.INCORRECT),
        ("Jupiter is much bigger than Saturn.", "Which is larger, Jupiter or Saturn?", "Jupiter", Label.CORRECT),
        ("Lyon is lovely. But the capital is Paris.", "What is the capital of France?", "Paris", Label.CORRECT),
        ("Paris is lovely. But the capital is Lyon.", "What is the capital of France?", "Paris", Label.INCORRECT),
        ("Paris. Lyon is the capital.", "What is the capital of France?", "Paris", Label.INCORRECT),
    ],
)
def test_a_comparison_said_the_other_way_and_a_remark_on_another_name(
    answer: str, question: str, gold: str, label: Label
) -> None:
    assert grade(answer, gold, question) is label


APOLLO = ["Apollo 11 first landed humans on the Moon. It was launched by the United States in 1969."]


@pytest.mark.parametrize(
    ("response", "contradicted"), [("USA", False), ("America", False), ("USSR", True), ("Texas", True)]
)
def test_binary_rar_reads_another_name_of_the_evidence_s_country(response: str, contradicted: bool) -> None:
    assert facts.answer_contradicted("Which country launched Apollo 11?", response, APOLLO) is contradicted


# A review of passes 16-18's rules for over-reach found ordinary answers they had turned wrong (or a wrong one right);
# each is pinned here to the label it had before those rules.
@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("John Fitzgerald Kennedy", "John F. Kennedy", "Who was president during the Cuban crisis?", Label.CORRECT),
        ("George Walker Bush", "George W. Bush", "Who was president in 2003?", Label.CORRECT),
        ("3rd", "third", "In what place did Mo Farah finish in the race?", Label.CORRECT),  # a rank, not a share
        ("5th", "fifth", "In what place did she finish?", Label.CORRECT),
        ("Mozart did not finish the Requiem and died in 1791.", "1791", "When did Mozart die?", Label.CORRECT),
        ("Tesla never married and died in 1943.", "1943", "When did Tesla die?", Label.CORRECT),
        ("Everest is not a volcano and stands 8,849 m tall.", "8,849 m", "How high is Everest?", Label.CORRECT),
        ("Tokyo. The capital was Kyoto until 1868.", "Tokyo", "What is the capital of Japan?", Label.CORRECT),
        (
            "Leonardo da Vinci. The Mona Lisa is 77 cm tall.",
            "Leonardo da Vinci",
            "Who painted the Mona Lisa?",
            Label.CORRECT,
        ),  # fmt: skip
        ("Paris. Lyon is correct.", "Paris", "What is the capital of France?", Label.INCORRECT),  # endorses Lyon
        (
            "The Volga is shorter than the Nile but is the longest river in Europe.",
            "Volga",
            "What is the longest river in Europe?",
            Label.CORRECT,
        ),  # fmt: skip
        ("Robert Di Niro", "Robert De Niro", "Who played Travis Bickle in Taxi Driver?", Label.CORRECT),  # no 501
    ],
)
def test_what_the_review_found_the_new_rules_overreached_on(
    answer: str, gold: str, question: str, label: Label
) -> None:
    assert grade(answer, gold, question) is label


@pytest.mark.parametrize(
    ("claim", "passages", "contradicted"),
    [
        ("Tokyo is larger than Sydney.", ["Sydney is the largest city in Australia."], False),  # a scoped superlative
        (
            "Russia is larger than Canada.",
            ["Canada is the second-largest country, after Russia, which is the largest."],
            False,
        ),  # fmt: skip
        (
            "Louis XIV reigned from 1643 to 1715.",
            ["Louis XIV reigned from 1643. In 1682 he moved to Versailles."],
            False,
        ),
        (
            "Mozart was born in 1760.",
            ["Mozart (1756-1791) was a composer, born in Salzburg in 1756."],
            True,
        ),  # a lifespan
        ("The museum closes at 5:30 pm.", ["The museum opens at 9:30 and closes at 5:30 every day."], False),
    ],
)
def test_claims_the_review_found_the_new_rules_overreached_on(
    claim: str, passages: list[str], contradicted: bool
) -> None:
    assert facts.contradicted(claim, passages) is contradicted
