"""Surface forms of one answer that the offline grader treats as the same answer.

Graded answers as real models write them showed four kinds of harmless variation that
plain normalised matching calls INCORRECT: numbers in words ("twenty-three", "fifteen
hundred"), a name without its honorific or title ("Isaac Newton" for "Sir Isaac Newton"),
a short form without a generic head word ("the Pacific" for "Pacific Ocean", "Everest"
for "Mount Everest"), and initialisms ("UK" for "United Kingdom"). Each rule here is
general (word lists, not examples) and only ever makes two strings *equal*; containment,
hedges and lists stay the grader's business. Inputs are already ``normalize``d.
"""

from __future__ import annotations

import re

_UNITS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen".split()
    )
}
_TENS = {w: 10 * (i + 2) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_ORDINALS = {
    w: i + 1
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
        "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split()
    )
}
_SCALES = {
    "hundred": 100,
    "thousand": 1_000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
    "trillion": 1_000_000_000_000,
}
_NUMBER_WORD = re.compile(
    r"\b(?:%s)(?:[\s-]+(?:and[\s-]+)?(?:%s))*\b"
    % ("|".join([*_UNITS, *_TENS, *_SCALES]), "|".join([*_UNITS, *_TENS, *_SCALES]))
)

# Leading honorifics and titles, trailing post-nominals; regnal numbers ("II") are never dropped.
_HONORIFICS = frozenset(
    """sir dame lord lady dr doctor mr mrs ms miss mx prof professor rev reverend fr father
saint st king queen prince princess emperor empress pope president general gen captain capt admiral colonel
sheikh chancellor senator judge justice""".split()
)
_POST_NOMINALS = frozenset("jr junior sr senior phd md esq obe mbe kbe".split())
# Generic head words a short form may drop, before or after the name.
_HEADS_BEFORE = frozenset("mount mt lake cape isle isla city republic kingdom state province county gulf bay".split())
_HEADS_AFTER = frozenset(
    """ocean sea river lake mountain mountains range island islands desert peninsula bay gulf
strait canal valley falls glacier volcano city town county province state university college""".split()
)
_LINKS = frozenset("of the and for".split())


def _number_phrase(words: list[str]) -> int | None:
    total, current = 0, 0
    for word in words:
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word in _SCALES:
            total += max(current, 1) * _SCALES[word]
            current = 0
        elif word != "and":
            return None
    return total + current


def numbers_in_words_to_digits(text: str) -> str:
    """Number words and ordinals as digits.

    >>> numbers_in_words_to_digits("twenty-three years and one hundred and five days, the third")
    '23 years and 105 days, the 3'
    >>> numbers_in_words_to_digits("fifteen hundred"), numbers_in_words_to_digits("2 million")
    ('1500', '2 million')
    """

    def phrase(match: re.Match[str]) -> str:
        words = re.split(r"[\s-]+", match.group())
        if all(w in _SCALES or w == "and" for w in words):  # "2 million": a scale word after digits stays
            return match.group()
        value = _number_phrase(words)
        return match.group() if value is None else str(value)

    text = _NUMBER_WORD.sub(phrase, text)
    text = re.sub(r"\b(%s)\b" % "|".join(_ORDINALS), lambda m: str(_ORDINALS[m.group()]), text)
    return re.sub(r"\b(\d+)(?:st|nd|rd|th)\b", r"\1", text)


def without_titles(name: str) -> str:
    """A name without leading honorifics and trailing post-nominals ("sir isaac newton" -> "isaac newton")."""
    words = name.split()
    while len(words) > 1 and words[0] in _HONORIFICS:
        words = words[1:]
    while len(words) > 1 and words[-1] in _POST_NOMINALS:
        words = words[:-1]
    return " ".join(words)


def without_head(name: str) -> str:
    """A place-like name without its generic head word ("pacific ocean" -> "pacific", "mount everest" ->
    "everest"); unchanged when nothing would remain."""
    words = name.split()
    if len(words) > 1 and words[-1] in _HEADS_AFTER:
        words = words[:-1]
    if len(words) > 1 and words[0] in _HEADS_BEFORE:
        words = words[1:]
        if len(words) > 1 and words[0] == "of":  # "city of london"
            words = words[1:]
    return " ".join(words)


def initials(name: str) -> str:
    """The initialism of a multi-word name, link words left out ("united states of america" -> "usa")."""
    words = [w for w in name.split() if w not in _LINKS]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""


def _as_initialism(text: str) -> str:
    """A single token ("uk"), or spelled-out letters ("u s" from "U.S."), as one lowercase token."""
    tokens = text.split()
    if len(tokens) == 1 and 2 <= len(tokens[0]) <= 6 and tokens[0].isalpha():
        return tokens[0]
    if 2 <= len(tokens) <= 6 and all(len(t) == 1 and t.isalpha() for t in tokens):
        return "".join(tokens)
    return ""


def same_answer(pred: str, gold: str) -> bool:
    """True when ``pred`` and ``gold`` (both normalised) are one answer written two ways.

    >>> same_answer("isaac newton", "sir isaac newton"), same_answer("pacific", "pacific ocean")
    (True, True)
    >>> same_answer("uk", "united kingdom"), same_answer("forty two", "42"), same_answer("newton", "isaac newton")
    (True, True, False)
    """
    if pred == gold:
        return True
    if numbers_in_words_to_digits(pred) == numbers_in_words_to_digits(gold):
        return True
    if without_titles(pred) == without_titles(gold):
        return True
    if without_head(without_titles(pred)) == without_head(without_titles(gold)):
        return True
    short_pred, short_gold = _as_initialism(pred), _as_initialism(gold)
    return bool(short_pred and short_pred == initials(gold) or short_gold and short_gold == initials(pred))
