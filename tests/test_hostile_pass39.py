"""Hostile pass 39 (issue #74): 40 cases written before they were run, on 90 of KnowRL's released RL questions and
golds, run against 05a609c and again at c249cd9: no data loss, no stale result, no wrong answer or refusal paid
right; 6 right answers or refusals paid too little, closed here (12 of the cases below were graded otherwise on
9dd02aa; the wrong answers beside them pin the other side).

- A sequel's full title, "Night at the Museum: Secret of the Tomb (2014)", was cut at its colon into three items, a
  list: a title the question names, then a colon and a capitalised subtitle, is one title.
- "From November 1783 to August 1784" for the gold 1783-1784 read as two dates (a list); and a year range followed by
  a comma ("1783-1784, while Congress met ...") was no range: the range's end refused any comma after it.
- "Nov. 14, 2014": the month's abbreviation ended a sentence.
- "The Skull, Sosa's assassin, shoots him ..." read as a list of three: a possessive description beside the gold
  describes it.
- "Ariel Winter voices Sofia; I don't remember who voices Amber." is a refusal with an aside about another part
  (NOT_ATTEMPTED), in either order; "voices" was no verb of a statement, and the stem of "voices" was "voic" against
  the question's "voice".
- Binary RAR: "Answer: Sam Rockwell\\nExplanation: he voices Vic, Frank's neighbour." read "Explanation" and "Frank's
  neighbour" as names the evidence lacks; and, once "voices" met "voice", "Bill Burr voices Vic." (a wrong answer it
  paid 1 on 9dd02aa, found while mending) is contradicted.
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

C, WRONG, N = Label.CORRECT, Label.INCORRECT, Label.NOT_ATTEMPTED

LANCELOT = "Who plays Sir Lancelot in Night at the Museum?"
ANNAPOLIS = "When was Annapolis the capital of the United States?"
DUMB = "When did Dumb and Dumber To come out?"
SCARFACE = "Who killed Tony at the end of Scarface?"
AMBER = "Who does the voice of Amber in Sofia the First?"


@pytest.mark.parametrize(
    ("question", "gold", "answer", "label"),
    [
        (
            LANCELOT,
            "Dan Stevens",
            "Dan Stevens plays Sir Lancelot in Night at the Museum: Secret of the Tomb (2014).",
            C,
        ),
        (LANCELOT, "Dan Stevens", "Dan Stevens, in Night at the Museum: Secret of the Tomb.", C),
        (LANCELOT, "Dan Stevens", "Ben Stiller plays Sir Lancelot in Night at the Museum: Secret of the Tomb.", WRONG),
        (LANCELOT, "Dan Stevens", "Night at the Museum: Ben Stiller.", WRONG),
        (ANNAPOLIS, "1783\u20131784", "From November 1783 to August 1784, while Congress met at the State House.", C),
        (ANNAPOLIS, "1783\u20131784", "1783\u20131784, while Congress met there.", C),
        (ANNAPOLIS, "1783\u20131784", "From 1783 to 1784, at the Maryland State House.", C),
        (ANNAPOLIS, "1783\u20131784", "From November 1784 to August 1785.", WRONG),
        (ANNAPOLIS, "1783\u20131784", "November 1783 or August 1784.", WRONG),
        (DUMB, "November 14, 2014", "It opened in US theaters on Nov. 14, 2014.", C),
        (DUMB, "November 14, 2014", "Nov. 15, 2014.", WRONG),
        (SCARFACE, "the Skull", "The Skull, Sosa's assassin, shoots him in the back with a shotgun.", C),
        (SCARFACE, "the Skull", "Sosa's assassin, the Skull.", C),
        (SCARFACE, "the Skull", "Alberto, Sosa's assassin, kills him.", WRONG),
        (SCARFACE, "the Skull", "The Skull, Sosa's assassin, and Alberto.", WRONG),
        (AMBER, "Darcy Rose Byrnes", "Ariel Winter voices Sofia; I don't remember who voices Amber.", N),
        (AMBER, "Darcy Rose Byrnes", "I don't remember who voices Amber. Ariel Winter voices Sofia.", N),
        (AMBER, "Darcy Rose Byrnes", "Ariel Winter voices Amber; I don't remember who voices Sofia.", WRONG),
        (AMBER, "Darcy Rose Byrnes", "Darcy Rose Byrnes voices Amber; I don't remember who voices Sofia.", C),
        (AMBER, "Darcy Rose Byrnes", "Ariel Winter voices Amber, I think, but I don't remember who voices her.", WRONG),
    ],
)
def test_pass_39_s_answers_are_graded_as_simpleqa_would(question: str, gold: str, answer: str, label: Label) -> None:
    assert grade(answer, gold, question) is label


def test_binary_rar_reads_an_explanation_s_description_as_no_answer() -> None:
    question = "Who does the voice of Vic on F Is for Family?"
    kb = ["Sam Rockwell voices Vic in F Is for Family. Bill Burr voices Frank Murphy in F Is for Family."]
    assert not facts.answer_contradicted(
        question, "Answer: Sam Rockwell\nExplanation: he voices Vic, Frank's neighbour.", kb
    )
    assert facts.answer_contradicted(question, "Answer: Bill Burr\nExplanation: he voices Vic, Frank's neighbour.", kb)
    assert facts.answer_contradicted(question, "Bill Burr voices Vic.", kb)
    assert facts.answer_contradicted(question, "Answer: Sam Rockwell\nExplanation: Bill Burr voices Vic.", kb)
    assert not facts.answer_contradicted(question, "Sam Rockwell voices Vic.", kb)


def test_the_state_a_city_gold_is_named_after_is_not_the_city() -> None:
    """Left in stop 86's note: "Kansas" for "Kansas City, Missouri" was paid right (an alias cut from the gold's words),
    while "In Kansas." was not. A state or country is another place unless the city is also called by it."""
    museum = "Where is the Negro Leagues Baseball Museum?"
    assert grade("Kansas", "Kansas City, Missouri", museum) is WRONG
    assert grade("Oklahoma", "Oklahoma City", "Where was he born?") is WRONG
    assert grade("Kansas City", "Kansas City, Missouri", museum) is C
    assert grade("New York", "New York City", "Where was he born?") is C  # the city is called so too


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("It was completed in 1889, two years after construction began in 1887.", C),
        ("1889. Construction had started in 1887.", C),
        ("Completed in 1889; it opened to the public in 1890.", WRONG),  # only how it began is another event
        ("It was completed in 1889; it was finished in 1890.", WRONG),  # the asked verb in other words (review 40)
        ("I don't know if it was completed in 1889; construction began in 1887.", WRONG),  # a refusal's own reading
        ("It was completed in 1887, two years after construction began in 1889.", WRONG),
        ("Construction began in 1887 and finished in 1889.", WRONG),  # no clause says "completed": left as a list
        ("It was completed in 1889 or 1890.", WRONG),
        ("in 1889, started 1887", WRONG),  # no statement of another event (hole round 8)
    ],
)
def test_a_second_year_for_another_event_is_detail(answer: str, label: Label) -> None:
    """Left in stop 86's note: two years were a list, INCORRECT, where one clause dates the asked event and the other
    how it began. Review 40 found any other verb may be the asked one in other words, so only the beginning is
    another event ("joined the VFL in 1987 -- renamed in 1990" stays left)."""
    assert grade(answer, "1889", "When was the Eiffel Tower completed?") is label
    founded = "In what year was the company founded?"
    assert grade("It was founded in 1998; it was established in 1999.", "1998", founded) is WRONG
    assert grade("1998. The founders incorporated it in 1997.", "1998", founded) is WRONG
    served = "During which years did the mayor serve in office?"
    assert grade("She served from 1990 until she stepped down in 1999.", "1990\u20131998", served) is WRONG
    miss = "What year was Kenya Moore crowned Miss USA?"
    assert grade("In 1993 she was crowned Miss Michigan; Miss USA came in 1994.", "1993", miss) is WRONG


@pytest.mark.parametrize(
    "answer",
    [
        "It was completed in 1889; some say it was 1890.",
        "It was completed in 1889. Others think it was finished in 1890.",
        "Completed in 1889. Actually it was 1890.",
        "It was completed in 1889; it was probably 1890 actually.",
    ],
)
def test_a_second_year_weighed_or_said_again_is_a_second_answer(answer: str) -> None:
    """What the first writing of the rule above paid right (found probing it, before it landed)."""
    assert grade(answer, "1889", "When was the Eiffel Tower completed?") is WRONG


@pytest.mark.parametrize(
    ("question", "gold", "answer", "label"),
    [
        (
            LANCELOT,
            "Dan Stevens",
            "I'm not sure who plays Lancelot in Night at the Museum: Ben Stiller, perhaps?",
            WRONG,
        ),
        (ANNAPOLIS, "1783\u20131784", "From November 1783 to August 1785.", WRONG),
        (ANNAPOLIS, "1783\u20131784", "1782\u20131784, while Congress met there.", WRONG),
        ("When did World War II take place?", "1939\u20131945", "1939-1944, in Europe.", WRONG),
        ("When did World War II take place?", "1939\u20131945", "From September 1939 to May 1944.", WRONG),
        ("In what year did Berlin become the capital of reunified Germany?", "1990", "Since 1990, Berlin has been.", C),
        (
            AMBER,
            "Darcy Rose Byrnes",
            "I'm not certain. Ariel Winter voices Sofia, so probably she voices Amber too.",
            WRONG,
        ),
        (
            "Who played Tony Stark's father in Iron Man 2?",
            "John Slattery",
            "I'm not certain, but John Slattery played Howard Stark.",
            C,
        ),  # fmt: skip
        ("In which city was she born?", "Mexico City", "Guadalajara, Mexico", WRONG),
        ("In which city is the museum?", "Kansas City, Missouri", "Kansas", WRONG),
    ],
)
def test_what_reviews_39_and_40_found(question: str, gold: str, answer: str, label: Label) -> None:
    """The reviews of this pass's rules (321 and 254 cases written first): a subtitle joined across a refusal, spans of
    years that differ from a span gold, "since 1990," read as a bound, a co-star aside holding its own guess or a part
    the question only describes, and a city gold's state or country as an alias ("which city")."""
    assert grade(answer, gold, question) is label


def test_a_verb_s_forms_meet_and_unrelated_words_do_not() -> None:
    """Review 39: a stem that kept the e of "voices" lost "voiced"; review 41: one that dropped every final e made
    "cape" meet "cap" and "note" the negation "not". The stems are the old ones again; the question's "voice" meets
    the response's "voices" where Binary RAR reads what a response says beyond the question."""
    kb = ["Darcy Rose Byrnes voices Amber in Sofia the First."]
    assert facts.supported("Byrnes voiced Amber.", kb)
    assert not facts.supported("Superman wore a cap.", ["Superman wore a red cape."])
    narrated = ["Planet Earth is narrated by David Attenborough."]
    assert facts.answer_contradicted("Who narrates the documentary Planet Earth?", "Morgan Freeman.", narrated)
    cape = ["Superman wore a red cape around his shoulders."]
    assert facts.answer_contradicted("What did Superman wear around his shoulders?", "A baseball cap.", cape)
    vic = ["Sam Rockwell voices Vic in F Is for Family. Bill Burr voices Frank Murphy in F Is for Family."]
    assert facts.answer_contradicted("Who does the voice of Vic on F Is for Family?", "Bill Burr voices Vic.", vic)
