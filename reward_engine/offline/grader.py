"""Grading an answer against gold targets without a judge: normalised match with rules.

For users who pay for no judge (and for the offline demo). Conservative by design: a
long answer that merely *contains* the gold, a list of guesses, or a negated gold is
not CORRECT, so the policy cannot win by saying more.
"""

from __future__ import annotations

import math
import re
import string
import unicodedata
from datetime import datetime
from typing import Iterable

from reward_engine.labels import Label
from reward_engine.offline.answer_forms import numbers_in_words_to_digits, same_answer

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(f"[{re.escape(string.punctuation)}\u2018\u2019\u201c\u201d\u2013\u2014\u00b7]")
_SPACES = re.compile(r"\s+")
_DOTTED = re.compile(r"\b(?:[a-z]\.){2,}")
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d{1,3}(?:[,\u00a0 ]\d{3})+(?:\.\d+)?(?![\w])|[-+]?\d*\.?\d+")
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "billion": 1e9, "bn": 1e9, "trillion": 1e12}
ABSTENTIONS = (
    r"\bi (?:do not|don't|dont) know\b",
    r"\bi(?: am|'m) not (?:sure|certain)\b",
    r"\bnot sure\b",
    r"\bcannot be determined\b",
    r"\bcan(?:no|')t be determined\b",
    r"\bno idea\b",
    r"\bunknown to me\b",
    r"\bi (?:can ?not|can't|am unable to|'m unable to) (?:answer|say|determine|tell|know|find)\b",
    r"\b(?:insufficient|not enough) (?:information|data|context)\b",
    r"\bunable to (?:answer|determine)\b",
    r"\bi (?:have no|lack) (?:information|knowledge)\b",
    r"\bno reliable information\b",
    r"^unknown$",
    r"\bi(?: am|'m) unsure\b",
    r"\bi (?:cannot|can't) recall\b",
    # refusals that never say "know" or "sure"
    r"\b(?:it is|it's|that is|that's) (?:unclear|not clear|uncertain|impossible to (?:say|tell|know|determine))\b",
    r"\bno (?:reliable |verifiable |specific )?(?:information|data|records?|details) (?:is |are )?"
    r"(?:available|found|exists?)\b",
    r"\b(?:information|data|details) (?:is |are )?(?:not available|unavailable|lacking)\b",
    r"\bi (?:do not|don't|did not|didn't) have (?:that|this|the|enough|any|sufficient|reliable) "
    r"(?:information|data|knowledge|details)\b",
    r"\bi(?: am|'m) (?:not able|unable) to (?:answer|say|determine|tell|find|provide|confirm|verify)\b",
    r"\bi (?:could not|couldn't|cannot|can't|was unable to) (?:find|verify|confirm|provide)\b",
    r"\b(?:hard|difficult) to say\b",
    r"\bwithout (?:more|further|additional) (?:information|context|data)\b",
    r"\bi (?:would|'d) (?:only )?be guessing\b",
    r"\bno way (?:of|to) know(?:ing)?\b",
    r"^(?:unsure|uncertain|unclear|not known|n/?a|no answer|cannot say|can't say)$",
)
_ABSTAIN = re.compile("|".join(ABSTENTIONS))
_NEGATION = re.compile(r"\b(not|no|never|isn't|wasn't|aren't|weren't|neither|nor)\s+(?:\w+\s+){0,2}$")
_MULTI_GUESS = re.compile(r"\b(or|either|maybe|possibly|perhaps)\b")
_MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
).split()


def normalize(text: str) -> str:
    """Lowercase, NFKC (NBSP -> space), strip punctuation and articles, squeeze spaces."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = _DOTTED.sub(lambda m: m.group().replace(".", ""), text)  # "u.s.a." is one word, not "u s" + article
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = _PUNCT.sub(" ", text)
    text = _ARTICLES.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def gold_aliases(answers: str | Iterable[str] | None) -> list[str]:
    """Gold targets: a list, or a string split on ';' or '|'; "X (Y)" and "X, Y" also accept X."""
    if answers is None:
        return []
    items = re.split(r"[;|]", answers) if isinstance(answers, str) else [a for a in answers if isinstance(a, str)]
    out: list[str] = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        out.append(item)
        head = re.split(r"\s*[(,]", item, maxsplit=1)[0].strip()
        if head and head != item and not _NUMBER.fullmatch(head.replace(" ", "")):
            out.append(head)
    return list(dict.fromkeys(out))


def is_abstention(answer: str) -> bool:
    return bool(_ABSTAIN.search(unicodedata.normalize("NFKC", answer).lower().replace("’", "'").strip(" .!")))


def _numbers(text: str) -> list[float]:
    low = numbers_in_words_to_digits(unicodedata.normalize("NFKC", text).lower())
    values = []
    for match in _NUMBER.finditer(low):
        raw = re.sub(r"[,\u00a0 ]", "", match.group())
        try:
            value = float(raw)
        except ValueError:
            continue
        after = low[match.end() :].lstrip()
        scale = re.match(r"(thousand|million|billion|trillion|bn|k)\b", after)
        if scale:
            value *= _SCALE[scale.group(1)]
        values.append(value)
    return values


def _date(text: str) -> tuple[int | None, int | None, int | None] | None:
    """(year, month, day) with None for parts not written, or None if not a date."""
    low = text.lower()
    if not (
        any(re.search(rf"\b{m}\b", low) for m in _MONTHS)
        or re.search(r"\b\d{4}-\d{1,2}-\d{1,2}\b", low)
        or re.search(r"\b\d{1,2}/\d{1,2}/\d{4}\b", low)
    ):
        return None
    from dateutil import parser

    try:
        a = parser.parse(text, fuzzy=True, default=datetime(1, 1, 1))
        b = parser.parse(text, fuzzy=True, default=datetime(2, 2, 2))
    except (ValueError, OverflowError):
        return None
    return (
        a.year if a.year == b.year else None,
        a.month if a.month == b.month else None,
        a.day if a.day == b.day else None,
    )


def _significant_figures(gold_raw: str) -> int:
    """Digits the gold was written with; trailing zeros count unless a scale word follows."""
    match = _NUMBER.search(unicodedata.normalize("NFKC", gold_raw).lower())
    if match is None:
        return 0
    digits = re.sub(r"\D", "", match.group()).lstrip("0")
    scaled = re.match(r"\s*(thousand|million|billion|trillion|bn|k)\b", gold_raw.lower()[match.end() :])
    if scaled or "." in match.group():
        digits = digits.rstrip("0") if scaled else digits
    return max(1, len(digits))


def _numbers_match(gold: float, pred: float, figures: int) -> bool:
    """Equal once the prediction is rounded to the gold's significant figures."""
    if gold == pred:
        return True
    if gold == 0 or pred == 0:
        return False
    magnitude = math.floor(math.log10(abs(gold)))
    step = 10.0 ** (magnitude - figures + 1)
    return math.isclose(round(pred / step) * step, gold, rel_tol=1e-9, abs_tol=step * 1e-6)


def _contains(haystack: str, needle: str) -> bool:
    return bool(needle) and re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", haystack) is not None


def grade(answer: str, answers: str | Iterable[str] | None) -> Label:
    """CORRECT / INCORRECT / NOT_ATTEMPTED for ``answer`` against the gold ``answers``.

    >>> grade("10 May 2018", "May 10, 2018"), grade("I don't know", "Paris"), grade("Lyon", "Paris")
    (<Label.CORRECT: 'CORRECT'>, <Label.NOT_ATTEMPTED: 'NOT_ATTEMPTED'>, <Label.INCORRECT: 'INCORRECT'>)
    """
    golds = gold_aliases(answers)
    pred = normalize(answer or "")
    if not pred:
        return Label.NOT_ATTEMPTED
    norm_golds = [g for g in (normalize(g) for g in golds) if g]
    if pred in norm_golds:
        return Label.CORRECT
    if is_abstention(answer):
        return Label.NOT_ATTEMPTED
    if any(same_answer(pred, g) for g in norm_golds):  # numbers in words, titles, head words, initialisms
        return Label.CORRECT
    for gold_raw, gold in zip(golds, (normalize(g) for g in golds)):
        if not gold:
            continue
        verdict = _compare(answer, pred, gold_raw, gold)
        if verdict is not None:
            return verdict
    return Label.INCORRECT


def _compare(answer: str, pred: str, gold_raw: str, gold: str) -> Label | None:
    gold_date, pred_date = _date(gold_raw), _date(answer)
    if gold_date and pred_date:
        same = all(g is None or g == p for g, p in zip(gold_date, pred_date))
        return Label.CORRECT if same and _single_guess(pred, gold) else Label.INCORRECT
    gold_numbers = _numbers(gold_raw)
    if gold_numbers and re.fullmatch(r"[\d\s.,%$\-+]*[a-z\s.%²]*", gold_raw.lower().strip()):
        pred_numbers = _numbers(answer)
        if pred_numbers:
            distinct = {round(p, 6) for p in pred_numbers}
            ok = len(distinct) == 1 and _numbers_match(gold_numbers[0], pred_numbers[0], _significant_figures(gold_raw))
            return Label.CORRECT if ok else Label.INCORRECT
    if _contains(pred, gold):
        before = pred[: pred.find(gold)]
        extra = len(pred.split()) - len(gold.split())
        if (
            _NEGATION.search(before + " ")
            or not _single_guess(pred, gold)
            or _is_list(answer, gold_raw)
            or extra > max(6, len(gold.split()))
        ):
            return Label.INCORRECT
        return Label.CORRECT
    return None


def _is_list(answer: str, gold_raw: str) -> bool:
    """True for "Lyon, Nice, Paris": three or more items are guesses, not one answer ("Paris, France" is fine)."""
    items = [i for i in re.split(r"[,;/&\n]|\band\b", answer) if i.strip(" .")]
    gold_items = [i for i in re.split(r"[,;/&\n]|\band\b", gold_raw) if i.strip(" .")]
    return len(items) >= 3 and len(items) > len(gold_items)


def _single_guess(pred: str, gold: str) -> bool:
    """False for "Paris or Lyon", "maybe Paris": hedged lists are not one answer."""
    rest = pred.replace(gold, " ")
    return _MULTI_GUESS.search(rest) is None
