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

# a question asking who: "Who ...?", "Actor who plays ...?", "whose", "whom"
ASKS_WHO = re.compile(r"(?i)\bwho(?:m|se)?\b")
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

# the kind of thing asked, where the question's words say it: a settlement ("capital", "city", "where"), a country,
# a person (``ASKS_PERSON``). The grader reads a name after the gold as another answer of that kind unless it names a
# larger place (``places.level``): "Paris, Lyon" for France's capital is two guesses, "Paris, France" one answer.
ASKS_SETTLEMENT = re.compile(
    r"(?i)\b(?:capital|capitals|city|cities|town|towns|village|port|birthplace|hometown|where)\b"
)
ASKS_COUNTRY = re.compile(r"(?i)\b(?:country|countries|nation|nations)\b")
_WORDS = re.compile(r"[^\W\d_][\w'-]*")


def asks_a_kind(question: str | None) -> bool:
    """Whether the question names the kind of thing it asks for as a place or a person, so that a second name
    after the gold is another thing of that kind ("Who composed ...?": "Mozart, Beethoven" names two composers).

    >>> asks_a_kind("What is the capital of France?"), asks_a_kind("Who composed The Magic Flute?")
    (True, True)
    >>> asks_a_kind("What is the highest mountain on Earth?"), asks_a_kind(None)
    (False, False)
    """
    if not question:
        return False
    if ASKS_SETTLEMENT.search(question) or ASKS_COUNTRY.search(question):
        return True
    return any(w.lower() in ASKS_PERSON for w in _WORDS.findall(question))


# the alternatives a question offers: "Is the capital of France Lyon or Paris?", "Who composed it, Beethoven or
# Mozart?", "Which is larger, the Pacific or the Atlantic?": a run of capitalised words (or one word) before "or",
# those before it joined by commas, and the words after it to the end of the clause
_OR = re.compile(r"(?i)\s+or\s+")
_OPTION_AFTER = re.compile(r"\s*((?:(?:the|a|an)\s+)?[\w'-]+(?:\s+[\w'-]+){0,3})\s*[?.!,;:]*\s*$")
_SMALL = frozenset("the a an of de la le von van der du".split())
_COPULA = frozenset("is was are were be it either whether".split())  # "Is it New York, Boston or ...?"


def offered(question: str | None) -> tuple[str, ...]:
    """The alternatives ``question`` offers to choose from ("X or Y?"), as written; () when it offers none.

    >>> offered("Is the capital of France Lyon or Paris?"), offered("Who composed it, Beethoven or Mozart?")
    (('Lyon', 'Paris'), ('Beethoven', 'Mozart'))
    >>> offered("Is it New York, Boston or Los Angeles?"), offered("What is the capital of France?")
    (('New York', 'Boston', 'Los Angeles'), ())
    >>> offered("Is a tomato a fruit or a vegetable?"), offered("Who composed The Magic Flute, Beethoven or Mozart?")
    (('fruit', 'vegetable'), ('Beethoven', 'Mozart'))
    """
    if not question:
        return ()
    parts = _OR.split(question.strip())
    if len(parts) != 2:
        return ()
    before, after = parts
    last = _OPTION_AFTER.match(after)
    if last is None:
        return ()
    option = [w for w in last.group(1).split() if w.lower() not in ("the", "a", "an")]
    pieces = before.split(",")
    first = _trailing_name(pieces[-1], len(option)) or " ".join(
        [w for w in pieces[-1].split() if w.lower() not in ("the", "a", "an")][-len(option) :]
    )
    options = [first]
    for piece in reversed(pieces[:-1]):  # "New York, Boston or Chicago": the names listed before
        name = _trailing_name(piece, 3)
        lead = piece[: piece.rindex(name)].split() if name else []
        if not name or (lead and lead[-1].lower() not in _COPULA):
            break  # "Who composed The Magic Flute, Beethoven or Mozart?": a title, not an option
        options.insert(0, name)
        if lead:
            break
    options.append(" ".join(option))
    return tuple(o for o in options if o)


def _trailing_name(text: str, most: int) -> str:
    """The run of capitalised words (small words such as "of" inside it) that ends ``text``, at most ``most``
    words: "New York" of "Is it New York", "Lyon" of "the capital of France Lyon" (one word asked); "" when
    ``text`` ends in a lower-case word."""
    run: list[str] = []
    for word in reversed(text.split()):
        if len(run) >= most:
            break
        if word[:1].isupper() or (run and word.lower() in _SMALL):
            run.insert(0, word)
            continue
        break
    while run and run[0].lower() in _SMALL:
        run.pop(0)
    return " ".join(run)
