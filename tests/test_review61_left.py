"""Review 61's misses (issue #74; /work/review61's cases stay out of the tests, these are variants of them): Binary
RAR's offline check found no answering sentence where the question quotes a title, writes "U.S.", asks "immediately
before", names the unit, asks "on what date" or uses an irregular verb the evidence puts in the past ("sank", "fell");
a sentence naming the doer of the asked deed was read as an aside; a win told with "beating" or "who beat" was no
pair; a name with dotted initials ("George W. Bush") broke a pair. The grader paid a denial of the gold's family name as
no attempt, another generation ("Jr." for "Sr."), another initial beside the gold's own, a one-word gold run on
into another name where no person is asked, and a succession turned round. Every assertion but the guards failed on
ddd6803."""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from tests.helpers import grade_tables

WATCH = "The Night Watch is a 1642 painting by Rembrandt van Rijn."

CONTRADICTED = [
    ("Who painted 'The Night Watch'?", "Johannes Vermeer.", WATCH),
    (
        "Which U.S. president directly preceded Harry Truman?",
        "Woodrow Wilson.",
        "Harry S. Truman succeeded Franklin D. Roosevelt as president in April 1945.",
    ),
    ("In what year did the Lusitania sink?", "Nineteen sixteen.", "RMS Lusitania sank on 7 May 1915 off Ireland."),
    (
        "On what date did the Bastille fall?",
        "July 4, 1789.",
        "The Bastille fell on 14 July 1789, when revolutionaries stormed the fortress.",
    ),
    (
        "What is the freezing point of water at sea level in degrees Fahrenheit?",
        "0 degrees Fahrenheit.",
        "At sea level, pure water freezes at 0 °C (32 °F).",
    ),
    (
        "Who directed the 1977 film Star Wars?",
        "George Clooney directed it.",
        "Star Wars is a 1977 American film written and directed by George Lucas.",
    ),
    (
        "Which country won the 2010 FIFA World Cup?",
        "The Netherlands, beating Spain in the final.",
        "Spain won the 2010 FIFA World Cup, defeating the Netherlands 1–0 in the final.",
    ),
    (
        "Who won the women's singles title at Wimbledon in 2004?",
        "Serena Williams, who beat Maria Sharapova in the final.",
        "Maria Sharapova defeated two-time defending champion Serena Williams in the final to win the 2004 Wimbledon "
        "women's singles title.",
    ),
]

NOT_CONTRADICTED = [
    ("Who painted 'The Night Watch'?", "Rembrandt van Rijn.", WATCH),
    ("In what year did the Lusitania sink?", "1915.", "RMS Lusitania sank on 7 May 1915 off Ireland."),
    (
        "Which country won the 2010 FIFA World Cup?",
        "Spain, beating the Netherlands in the final.",
        "Spain won the 2010 FIFA World Cup, defeating the Netherlands 1–0 in the final.",
    ),
    (
        "When was the bridge first closed by the city?",
        "1921.",
        "The bridge was first closed by the city in 1921. The city closed the bridge again in 1934.",
    ),
]


@pytest.mark.parametrize(("question", "response", "passage"), CONTRADICTED)
def test_a_wrong_response_is_contradicted(question: str, response: str, passage: str) -> None:
    assert facts.answer_contradicted(question, response, [passage])


@pytest.mark.parametrize(("question", "response", "passage"), NOT_CONTRADICTED)
def test_a_right_response_is_not_contradicted(question: str, response: str, passage: str) -> None:
    assert not facts.answer_contradicted(question, response, [passage])


def test_a_pair_turned_round_is_not_supported() -> None:
    cup = ["Spain won the 2010 FIFA World Cup, defeating the Netherlands 1–0 in the final."]
    assert not facts.supported("The Netherlands defeated Spain 1–0 in the 2010 World Cup final.", cup)
    office = ["Bill Clinton succeeded George H. W. Bush as president in January 1993."]
    assert not facts.supported("George H. W. Bush succeeded Bill Clinton as president.", office)
    final = ["Maria Sharapova defeated two-time defending champion Serena Williams in the 2004 Wimbledon final."]
    assert not facts.supported("Serena Williams defeated Maria Sharapova in the 2004 Wimbledon final.", final)
    assert facts.supported("Maria Sharapova defeated Serena Williams in the 2004 Wimbledon final.", final)


WRONG_PAID = [
    ("Definitely not Picasso.", "Pablo Picasso", "Who painted Guernica?"),
    ("Franklin D. Roosevelt Jr.", "Franklin D. Roosevelt", "Who was US president during most of World War II?"),
    ("Martin Luther King Sr.", "Martin Luther King Jr.", "Who gave the 'I Have a Dream' speech?"),
    ("George H. W. Bush.", "George W. Bush", "Who was US president on 11 September 2001?"),
    ("Prince Harry.", "Prince", "Which musician recorded the album Purple Rain?"),
    ("David Cameron succeeded Theresa May.", "Theresa May", "Who succeeded David Cameron as Prime Minister?"),
    ("Harry Truman preceded Franklin Roosevelt.", "Harry Truman", "Who came after Franklin Roosevelt as president?"),
]

RIGHT_PAID = [
    ("Martin Luther King Jr.", "Martin Luther King Jr.", "Who gave the 'I Have a Dream' speech?"),
    ("John Fitzgerald Kennedy.", "John F. Kennedy", "Who was US president during the Cuban Missile Crisis?"),
    ("Prince.", "Prince", "Which musician recorded the album Purple Rain?"),
    ("Apple Inc.", "Apple", "Which company makes the iPhone?"),
    ("Theresa May succeeded David Cameron.", "Theresa May", "Who succeeded David Cameron as Prime Minister?"),
]


test_a_wrong_answer_is_incorrect, test_a_right_answer_is_correct = grade_tables(WRONG_PAID, RIGHT_PAID)
