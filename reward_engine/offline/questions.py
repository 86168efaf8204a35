"""What a question asks for, read in one place: the grader, the guard and the answer forms all need to know
whether a question asks for an amount, a year, a place, a word or one named thing (SimpleQA grades an answer
against what was asked: "1989" answers "In which year ...?" for a gold of "9 November 1989").

Every pattern ignores case. The numeric precision a question asks ("to two decimal places") is read with the
numbers, in ``answer_forms.asked_step``.
"""

from __future__ import annotations

import re

# an amount or a measure: the grader reads a four-digit gold as a count, not a year; a figure answers it
HOW_MUCH = r"how (?:many|much|long|tall|high|far|old|deep|big|large|wide|heavy|fast)"
ASKS_MEASURE = re.compile(rf"(?i)\b{HOW_MUCH}\b")
ASKS_AMOUNT = re.compile(rf"(?i)\b(?:{HOW_MUCH}|(?:which|what) year|when)\b")  # an amount, or a year
HOW_MANY_UNITS = re.compile(r"(?i)\bhow many ((?:square |cubic |nautical )?[a-z]+)\b")  # "how many metres"
# a figure asked by its noun: "What is the weight of a men's discus?", "What was the city's population in 1900?"
_MEASURE_NOUNS = (
    r"weight|mass|height|length|width|depth|area|population|distance|diameter|radius|speed|velocity|temperature|"
    r"altitude|elevation|volume|capacity|duration|wingspan|circumference|lifespan|(?:boiling|melting|freezing) point"
)
ASKS_FIGURE = re.compile(
    rf"(?i)\b{HOW_MUCH}\b|\bwhat (?:is|was|are|were) (?:the |its |his |her |their )?(?:\w+ )?(?:{_MEASURE_NOUNS})\b"
)

# a time: a year, a decade or a century only (SimpleQA: precision not asked for is not required)
ASKS_TIME = re.compile(r"(?i)\b(?:when|(?:which|what|in which|in what) (?:year|decade|century|date|month))\b")
ASKS_YEAR = re.compile(r"(?i)\b(?:which|what) year\b|\byear (?:did|was|were|is|does|do)\b")
ASKS_DECADE = re.compile(r"(?i)\b(?:which|what) decade\b|\bdecade (?:did|was|were)\b")
ASKS_CENTURY = re.compile(r"(?i)\b(?:which|what) century\b|\bcentury (?:did|was|were)\b")

ASKS_PLACE = re.compile(
    r"(?i)\b(?:where|(?:which|what|in which|in what) (?:\w+ )?(?:city|country|town|state|place|region|continent))\b"
)
# a word asked for ("what is it called", "the term for"); not a kind ("what kind of animal": "a reptile" is vague)
ASKS_TERM = re.compile(r"(?i)\bcalled\s*\??\s*$|\b(?:term|word|name) for\b")
# one thing by its kind, not a number: "Which structure ...?", "Who founded ...?"
ASKS_ONE_THING = re.compile(r"(?i)^\s*(?:which|who|whom|whose|where)\b(?!.*\bnumber\b)")
# question words that ask for a person, whose full name may end with a one-word gold
ASKS_PERSON = frozenset(
    """who whom whose person man woman scientist composer author writer painter artist poet king queen emperor
    empress president leader inventor explorer architect director actor actress singer philosopher
    mathematician physicist chemist novelist playwright founder pope saint sculptor astronomer""".split()
)
