"""Answers and golds in one comparable form (``normalize``), and whether a text says something (``is_statement``).

Its own module because the grader, the reading of refusals (``commitment``) and the grade guard all compare
texts this way, and the grader uses the other two.
"""

from __future__ import annotations

import re
import string
import unicodedata

from reward_engine.offline.memo import short_memo
from reward_engine.offline.words import UNDECOMPOSED as _UNDECOMPOSED

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(f"[{re.escape(string.punctuation)}\u2018\u2019\u201c\u201d\u2013\u2014\u00b7]")
_SPACES = re.compile(r"\s+")
# an apostrophe inside a word that is no English ending ("don't", "Paris's", "we'll", "they're" keep theirs) nor
# an elided article or name part ("l'Automobile", "O'Brien")
_INNER_APOSTROPHE = re.compile(r"(?<=[a-z][a-z])['\u2019](?=(?!(?:s|t|d|m|ll|re|ve)\b)[a-z])")
_DOTTED = re.compile(r"\b[a-z](?:\.[a-z])+\.?(?![a-z])")  # "u.s.a.", "d.c" (its last dot cut by a reading)
VERBS = frozenset(
    "is are was were be been being has have had does do did can could would will shall should may might must "
    "lived died married won wrote made became "
    # past tenses that say what someone did ("Nansen led the expedition": a statement, not a four-word answer)
    "led built founded invented discovered painted composed designed directed ruled commanded sailed captained "
    "played signed flew sang ran took gave began taught fought held sent sold brought told said went came saw "
    "knew knocked defeated served reigned governed starred worked".split()
)

_MEMO_MAX_CHARS = 256  # pure helpers below remember short texts only: a hostile answer must not fill a memo


@short_memo(65_536, _MEMO_MAX_CHARS, len)
def normalize(text: str) -> str:
    """Lowercase, NFKC (NBSP -> space), strip punctuation and articles, squeeze spaces.

    >>> normalize("The Qur'an."), normalize("O'Brien's"), normalize("Don't")
    ('quran', 'o brien s', 'don t')

    Memoised for short texts: one grade normalises the same answer, golds and question words ~8 times."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = _DOTTED.sub(lambda m: m.group().replace(".", ""), text)  # "u.s.a." is one word, not "u s" + article
    text = fold_marks(text)
    text = _INNER_APOSTROPHE.sub("", text)  # "qur'an", "hawai'i": one word, not "qur" and an article (pass 66)
    text = _PUNCT.sub(" ", text)
    text = _ARTICLES.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


# letters no canonical decomposition takes apart, written as an English text writes them (hostile pass 19: "Lodz"
# for "Łódź", "Strauss" for "Strauß", "Soren" for "Søren")


def fold_marks(text: str) -> str:
    """Letters without their accents ("Dvořák" -> "Dvorak", "Łódź" -> "Lodz"): an answer typed without them names
    the same person. Canonical decomposition plus a table of the letters it leaves whole, so "m²" and "½" keep
    their meaning.

    >>> fold_marks("Antonín Dvořák, 8,849 m²"), fold_marks("Łódź, Strauß, Søren, Æsir")
    ('Antonin Dvorak, 8,849 m²', 'Lodz, Strauss, Soren, Aesir')
    """
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return text.translate(_UNDECOMPOSED) if not text.isascii() else text


def is_statement(text: str) -> bool:
    """A clause with a verb ("Malia was born in 1998"), not a bare name or list."""
    return any(w in VERBS for w in normalize(text).split())
