"""An evaluation grader that shares no rule with the training reward's grader.

Held-out answers graded by the grader the policy was trained against show that grader's quirks as
improvement (a hedge it misreads, a country name it accepts for "Republic of ..."). This one is strict and
simple on purpose, and reports two matches, each with its own short list of refusals (NOT_ATTEMPTED):

- ``strict_label``, exact match (the headline): an answer is CORRECT only when, normalised (case, accents,
  punctuation, a leading article), it equals one of the question's aliases, or, for a number gold, it is a
  short answer whose only number is that one. A sentence answer ("Tokyo is the capital of Japan.") is
  INCORRECT here, which undercounts policies that answer in sentences.
- ``contain_label``, containment match (reported beside it): CORRECT when the normalised answer holds a gold
  alias as a whole phrase, not negated ("not Paris", "isn't Paris"), and names no other candidate: no other
  number for a number gold (the gold number matched whole: "8" is not in "18" or "8.5"), and none of
  ``others`` (the answers of the other questions of the family, given by the caller; one that is a gold
  alias or a part of one does not count). Everything ``strict_label`` calls CORRECT is CORRECT here too.

It imports nothing from ``reward_engine.offline``; ``agreement`` reports how often it and the training
grader agree.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache
from typing import Iterable, Sequence

LABELS = ("CORRECT", "INCORRECT", "NOT_ATTEMPTED")
_REFUSALS = re.compile(
    r"^(?:i do not know|i don t know|i dont know|not sure|i m not sure|i am not sure|unknown|no idea|"
    r"i cannot answer|i can t answer|there is no such|no such|it does not exist|this does not exist)\b"
)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
MAX_NUMBER_ANSWER_WORDS = 4


def strict_normalize(text: str) -> str:
    """Lower case, accents and punctuation gone, a leading article dropped, spaces squeezed.

    >>> strict_normalize("  The Hague! "), strict_normalize("São Tomé"), strict_normalize("Côte d'Ivoire")
    ('hague', 'sao tome', 'cote d ivoire')
    """
    text = unicodedata.normalize("NFKD", text or "")
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = re.sub(r"[^\w\s]|_", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"^(?:the|a|an) ", "", text)


def is_refusal(answer: str) -> bool:
    """The answer opens with a plain refusal ("I don't know", "Not sure", "No such country").

    >>> is_refusal("I don't know."), is_refusal("Not sure, maybe Paris"), is_refusal("Paris")
    (True, True, False)
    """
    return bool(_REFUSALS.match(strict_normalize(answer)))


def strict_label(answer: str, aliases: Sequence[str], answerable: bool = True) -> str:
    """CORRECT, INCORRECT or NOT_ATTEMPTED for one parsed answer. ``answerable`` False: the question is about
    something that does not exist, so any answer but a refusal is INCORRECT.

    >>> strict_label("Nairobi.", ["Nairobi"]), strict_label("Mali", ["Republic of Mali"])
    ('CORRECT', 'INCORRECT')
    >>> strict_label("In 1957", ["1957"]), strict_label("Not sure", ["1957"]), strict_label("Zorvia", [], False)
    ('CORRECT', 'NOT_ATTEMPTED', 'INCORRECT')
    """
    if is_refusal(answer):
        return "NOT_ATTEMPTED"
    if not answerable:
        return "INCORRECT"
    said = strict_normalize(answer)
    for alias in aliases:
        gold = strict_normalize(alias)
        if said == gold:
            return "CORRECT"
        if _NUMBER.fullmatch(gold) and len(said.split()) <= MAX_NUMBER_ANSWER_WORDS:
            if _NUMBER.findall(said) == [gold]:
                return "CORRECT"
    return "INCORRECT"


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # "1,957" -> "1957" before normalising
_NUMBER_TOKEN = re.compile(r"(?<!\w)\d+(?:[.,]\d+)*\w*")  # a number as written: "1957", "8.5", "1950s"
_NEGATIONS = frozenset({"not", "never", "neither", "nor", "t", "isnt", "wasnt", "arent", "werent"})  # "t": n't
_NEGATION_WINDOW = 3  # words before an alias that can negate it ("it is not Paris")
_NEGATED_AFTER = re.compile(r"(?:is|was|are|were)(?: not|n t|nt)\b")  # "Paris is not ...", "Paris isn't ..."


@lru_cache(maxsize=1 << 16)
def _normalized(text: str) -> str:
    return strict_normalize(text)


@lru_cache(maxsize=1 << 16)
def _phrase(normalized: str) -> re.Pattern[str]:
    """A normalised phrase as whole words: "oman" does not match inside "romania"."""
    return re.compile(rf"(?<!\w){re.escape(normalized)}(?!\w)")


def _negated(said: str, start: int, end: int) -> bool:
    """A negation right before the phrase at ``said[start:end]`` ("not", "never", "isn't" within
    ``_NEGATION_WINDOW`` words, "no" just before) or a negated copula right after it ("Paris is not ...")."""
    before = said[:start].split()
    if before[-1:] == ["no"] or _NEGATIONS.intersection(before[-_NEGATION_WINDOW:]):
        return True
    return bool(_NEGATED_AFTER.match(said[end:].lstrip()))


def _numbers(answer: str) -> list[str]:
    """The numbers an answer writes, as written ("8.5", "1950s"), thousands separators dropped."""
    text = unicodedata.normalize("NFKD", answer or "")
    return _NUMBER_TOKEN.findall(_THOUSANDS.sub("", text))


def contain_label(answer: str, aliases: Sequence[str], answerable: bool = True, others: Iterable[str] = ()) -> str:
    """Containment match: CORRECT when the normalised answer holds a gold alias as a whole phrase, not negated,
    and names no other candidate; NOT_ATTEMPTED for a refusal and INCORRECT otherwise, as ``strict_label``.
    ``others``: the answers of the other questions of the same family; one that is a gold alias or inside one
    never counts, one that holds a gold alias ("South Sudan" for "Sudan") counts where it is said. For a
    number gold, any other number in the answer is a second candidate.

    >>> contain_label("Tokyo is the capital of Japan.", ["Tokyo"]), strict_label("Tokyo is the capital.", ["Tokyo"])
    ('CORRECT', 'INCORRECT')
    >>> contain_label("It is not Paris.", ["Paris"]), contain_label("Romania", ["Oman"])
    ('INCORRECT', 'INCORRECT')
    >>> cities = ["Lyon", "Rome"]
    >>> said = ("Paris or Lyon", "Paris, I think")
    >>> tuple(contain_label(a, ["Paris"], others=cities) for a in said)
    ('INCORRECT', 'CORRECT')
    >>> contain_label("He was born in 1957.", ["1957"]), contain_label("between 1950 and 1957", ["1957"])
    ('CORRECT', 'INCORRECT')
    >>> contain_label("about 18", ["8"]), contain_label("8.5", ["8"]), contain_label("I don't know", ["8"])
    ('INCORRECT', 'INCORRECT', 'NOT_ATTEMPTED')
    >>> contain_label("Zorvia City is its capital.", [], False)
    'INCORRECT'
    """
    if is_refusal(answer):
        return "NOT_ATTEMPTED"
    if not answerable:
        return "INCORRECT"
    if strict_label(answer, aliases, answerable) == "CORRECT":
        return "CORRECT"
    said = strict_normalize(_THOUSANDS.sub("", answer or ""))
    golds = {g for g in (_normalized(a) for a in aliases) if g}
    spans = [m.span() for g in golds for m in _phrase(g).finditer(said)]
    if not spans or any(_negated(said, start, end) for start, end in spans):
        return "INCORRECT"
    gold_numbers = {g for g in golds if g.isdigit()}
    if gold_numbers and any(n not in gold_numbers for n in _numbers(answer)):
        return "INCORRECT"
    for other in others:
        name = _normalized(other)
        if not name or name not in said or any(_phrase(name).search(g) for g in golds):
            continue  # not said, or a gold alias or a part of one: saying it is saying the gold
        if _phrase(name).search(said):
            return "INCORRECT"
    return "CORRECT"


def agreement(first: Sequence[str], second: Sequence[str]) -> dict[str, object]:
    """How often two graders give the same label, Cohen's kappa, and the confusion counts (first -> second).

    >>> agreement(["CORRECT", "INCORRECT"], ["CORRECT", "CORRECT"])["agree"]
    0.5
    """
    if len(first) != len(second):
        raise ValueError(f"agreement needs labels of the same answers: {len(first)} vs {len(second)}")
    n = len(first)
    if n == 0:
        return {"n": 0, "agree": 0.0, "kappa": 0.0, "confusion": {}}
    agree = sum(a == b for a, b in zip(first, second)) / n
    p1, p2 = Counter(first), Counter(second)
    expected = sum(p1[label] * p2[label] for label in set(p1) | set(p2)) / (n * n)
    kappa = (agree - expected) / (1 - expected) if expected < 1 else 1.0
    confusion = Counter(f"{a}->{b}" for a, b in zip(first, second))
    return {"n": n, "agree": agree, "kappa": kappa, "confusion": dict(sorted(confusion.items()))}
