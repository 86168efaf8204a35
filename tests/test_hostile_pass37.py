"""Hostile pass 37 (issue #74): 40 cases written before they were run, on 90 of KnowRL's released RL questions and
golds, run against 9c723b9: no data loss, no stale result, no crash (a score run stopped by SIGTERM and resumed with
another batch size, a config edited between runs, a build killed while embedding, a relative input after a change of
directory, an inspect page through a folder link); 8 findings.

Closed here, each beside a control: Binary RAR paid "Garth Brooks wrote it." 1 for "Who wrote the dance sung by Garth
Brooks?" (a name the question holds, offered as the answer, was checked against nothing); "Mayweather, by unanimous
decision" was INCORRECT for Floyd Mayweather asked "between Mayweather and Guerrero" (the surname is the question's).

Left (in the issue's note): another person's figure beside the answer ("He is 28; Elizabeth is 20."), the parts of a
total ("113 combined points: Washington 72, New York Giants 41"), a role's full name with "opposite X", a relative's
name with a year span, "8 episodes" against "eight episodes" in supported(), and Binary RAR reading an explanation's
names (the documented "justification's names" class).
"""

from __future__ import annotations

from reward_engine.offline import facts
from reward_engine.offline.grader import Label
from tests.helpers import grade_table

DANCE = "Who wrote the dance sung by Garth Brooks?"
ARATA = ["Tony Arata wrote The Dance, a song sung by Garth Brooks."]


def test_binary_rar_checks_a_name_the_question_holds() -> None:
    assert facts.answer_contradicted(DANCE, "Garth Brooks wrote it.", ARATA)
    assert facts.answer_contradicted(DANCE, "Garth Brooks", ARATA)
    assert not facts.answer_contradicted(DANCE, "Tony Arata wrote it.", ARATA)
    assert not facts.answer_contradicted(DANCE, "I don't know.", ARATA)
    fight = "Who won the boxing match between Mayweather and Guerrero?"  # the question's names are the options
    assert not facts.answer_contradicted(fight, "Mayweather.", ["Floyd Mayweather beat Robert Guerrero in 2013."])


FIGHT = "Who won the boxing match between Mayweather and Guerrero?"

test_pass37_grades = grade_table(
    [
        ("Mayweather, by unanimous decision in May 2013.", FIGHT, "Floyd Mayweather", Label.CORRECT),
        ("Guerrero.", FIGHT, "Floyd Mayweather", Label.INCORRECT),
        ("Mayweather or Guerrero", FIGHT, "Floyd Mayweather", Label.INCORRECT),
        ("Mayweather.", "Who won, Mayweather or Guerrero?", "Floyd Mayweather", Label.CORRECT),
        ("Floyd Patterson", FIGHT, "Floyd Mayweather", Label.INCORRECT),
        # what the review of pass 36's rules found, mended beside them
        ("Catherine Parr", "Which wife of Henry VIII came from Aragon?", "Catherine of Aragon", Label.INCORRECT),
        ("Battle of Verdun", "Which battle on the Somme began in 1916?", "Battle of the Somme", Label.INCORRECT),
        (
            "1993? No \u2014 she was crowned in 1994.",
            "What year was Kenya Moore crowned Miss USA?",
            "Miss USA 1993",
            Label.INCORRECT,
        ),
        (
            "Jupiter. Saturn is the biggest.",
            "Which is the largest planet in the Solar System?",
            "Jupiter",
            Label.INCORRECT,
        ),
        (
            "Portland, Maine \u2014 actually, I think it's Portland, Oregon.",
            "Where was the poet born?",
            "Portland, Maine",
            Label.INCORRECT,
        ),
        ("Portland, Maine, U.S.", "Where was the poet born?", "Portland, Maine", Label.CORRECT),
        ("Amy Tin", "Who wrote The Joy Luck Club?", "Amy Tan", Label.INCORRECT),
        ("Al-Qaida", "Which group carried out the 9/11 attacks?", "Al-Qaeda", Label.CORRECT),
        (
            "Kate Winslet played Rose DeWitt Bukater; Gloria Stuart played Rose in the present-day scenes.",
            "Who played Rose in Titanic?",
            "Kate Winslet",
            Label.CORRECT,
        ),
        (
            "I don't know \u2014 Los Angeles or Miami.",
            "Was the first Super Bowl played in Los Angeles or Miami?",
            "Los Angeles",
            Label.NOT_ATTEMPTED,
        ),
    ]
)


def test_binary_rar_drops_a_modifier_only_where_the_question_keeps_its_verb() -> None:
    oxfam = ["Oxfam was founded in Oxford in 1942 by Cecil Jackson-Cole and Canon Theodore Milford."]
    assert facts.answer_contradicted("Who founded Oxfam, known for famine relief?", "Bob Geldof", oxfam)
    iron = ["Margaret Thatcher was known as the Iron Lady."]
    assert facts.answer_contradicted("Who was known as the Iron Lady?", "Indira Gandhi", iron)
    tips = ["Tips From Former Smokers was launched by the CDC in 2012. The campaign featured real people."]
    question = "Which campaign aimed at reducing smoking was launched by the CDC in 2012?"
    assert not facts.answer_contradicted(question, "Tips From Former Smokers", tips)
