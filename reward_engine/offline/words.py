"""English words the offline rules share: stop words, a crude stem, and NFKC that keeps powers of ten.

Its own module so the offline grader, which needs only these, does not import ``retrieval`` (and FAISS,
tqdm) through ``facts``: the grader alone imports in ~50 ms, not ~350 ms.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Iterable

STOP = frozenset(
    "a an the and or but of in on at to for from by with as is are was were be been being it its this that "
    "these those he she they his her their there which who whom whose what when where how also has have had "
    "not no into over under than then so such very more most other some any each".split()
)


# letters canonical decomposition leaves whole, as written without marks ("Søren" -> "Soren", "ı" -> "i")
UNDECOMPOSED = str.maketrans(
    {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe",
     "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i"}
)  # fmt: skip


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude English stem ("capitals" -> "capital"), accents dropped, the letters NFKD keeps whole too ("Tatlıtuğ"
    is "tatlitug": hostile pass 59); memoised: a few thousand words recur across every claim and passage of a step.

    >>> stem("Tatlıtuğ"), stem("Asbæk"), stem("Strauß")
    ('tatlitug', 'asbaek', 'straus')
    """
    word = unicodedata.normalize("NFKD", word.lower())
    word = "".join(c for c in word if not unicodedata.combining(c))
    word = word.translate(UNDECOMPOSED) if not word.isascii() else word
    for suffix in ("'s", "ies", "es", "s", "ed", "ing"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def one_e_form(words: Iterable[str]) -> set[str]:
    """Stems with a long word's closing "e" dropped, for matching only: the question's noun "voice" and the verb's
    stem "voic" are one word there (hostile pass 39, review 41). Not in ``stem`` itself: there it made "cape" meet
    "cap" and "note" the negation "not" (review 41).

    >>> sorted(one_e_form({"voice", "voic", "cape"}))
    ['cape', 'voic']
    """
    return {w[:-1] if w.endswith("e") and len(w) >= 5 else w for w in words}


WORD = re.compile(r"[\w'-]+", re.UNICODE)


def content_words(text: str) -> set[str]:
    """Stemmed words that are not stop words."""
    return {stem(w) for w in WORD.findall(text) if w.lower() not in STOP}


def names(text: str) -> set[str]:
    """Capitalised content words: the entities a text is about."""
    return {stem(w) for w in WORD.findall(text) if w[:1].isupper() and w.lower() not in STOP}


_SUPERSCRIPT = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b\u207a", "0123456789-+")
_POWER_OF_TEN = re.compile("10([\u207b\u207a]?[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+)")


_VULGAR = {"\u00bd": 0.5, "\u00bc": 0.25, "\u00be": 0.75, "\u2153": 1 / 3, "\u2154": 2 / 3, "\u215b": 0.125}
_VULGAR_AFTER = re.compile(r"(?<!\d)(\d{0,15})[ \t]*([%s])" % "".join(_VULGAR))  # 15 digits: no huge int


def _vulgar(match: re.Match[str]) -> str:
    return (match.group(1) or "0") + str(_VULGAR[match.group(2)])[1:]  # "1,000½": "1,000.5"; "8⅓": "8.333..."


def nfkc(text: str) -> str:
    """Unicode NFKC, but "10²⁴" becomes "10^24" and "8½" becomes "8.5": NFKC alone makes them "1024" and "81⁄2",
    other numbers."""
    text = _VULGAR_AFTER.sub(_vulgar, _POWER_OF_TEN.sub(lambda m: "10^" + m.group(1).translate(_SUPERSCRIPT), text))
    return unicodedata.normalize("NFKC", text)
