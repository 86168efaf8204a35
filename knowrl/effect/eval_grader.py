"""An evaluation grader that shares no rule with the training reward's grader.

Held-out answers graded by the grader the policy was trained against show that grader's quirks as
improvement (a hedge it misreads, a country name it accepts for "Republic of ..."). This one is strict and
simple on purpose: an answer is CORRECT only when, normalised (case, accents, punctuation, a leading
article), it equals one of the question's aliases, or, for a number gold, it is a short answer whose only
number is that one. It has its own short list of refusals. It imports nothing from
``reward_engine.offline``; ``agreement`` reports how often it and the training grader agree.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Sequence

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
