"""Qualifiers of a fact that the evidence must say the same way: which season or time of year, which part of a
decade, which half of the day, which kin (events and their places: ``events``). Each check reads a claim against a
passage and answers True when the passage names another of the same kind and not this one; a passage that names
none leaves the claim to the word checks (``facts.supported``)."""

from __future__ import annotations

import functools
import re

from reward_engine.offline import turns
from reward_engine.offline.answer_forms import date_spans, one_date
from reward_engine.offline.words import STOP

# the seasons; "fall" only as one ("in the fall", "fall of 1979"), not "the fall of Rome"
_SEASON = re.compile(
    r"(?i)\b(spring|summer|autumn|winter)\b|\b(?:in(?:\s+the)?|that|this|last|next|early|late|mid-?)\s+(fall)\b"
    r"|\b(fall)(?=\s+(?:of\s+)?\d{4})"
)


def other_season(said: str, evidence: str) -> bool:
    """``said`` names a season ``evidence`` does not, where the evidence names one: "the spring of 1979" against
    "the fall of 1979" (hostile pass 44: a supported claim, and Binary RAR paid 1). Autumn is fall.

    >>> other_season("In the spring of 1979.", "It began play in the fall of 1979."), other_season("1979", "fall")
    (True, False)
    """
    said_seasons, told = _seasons(said), _seasons(evidence)
    return bool(said_seasons) and bool(told) and not said_seasons & told


def _seasons(text: str) -> set[str]:
    """The seasons ``text`` names, not as part of a name ("the Winter Palace")."""
    return {_season(found) for found in _SEASON.finditer(text) if not _in_a_name(text, found)}


_KIN = re.compile(
    r"(?i)\b((?:great-)*(?:grand|step|half-)?(?:son|daughter|father|mother|brother|sister|child|parent)|nephew|niece|"
    r"uncle|aunt|cousin|wife|husband|widow|widower)s?\b"
)


def other_kin(claim: str, passage: str) -> bool:
    """The claim names a kinship the passage does not, where the passage names another: "Hassan II was the grandson
    of Mohammed V" against "... was the son of Mohammed V" (hostile pass 46: supported, every other word there).

    >>> other_kin("He was the grandson of Mohammed V.", "He was the son of Mohammed V."), other_kin("a son", "sons")
    (True, False)
    """
    said, told = ({k.lower() for k in _KIN.findall(t)} for t in (claim, passage))
    return bool(said and told and said - told)


_DECADE_PART = re.compile(r"(?i)\b(early|mid|late)[\s-]+((?:1\d|20)\d0)'?s\b")


def other_part_of_the_decade(said: str, evidence: str) -> bool:
    """``said`` puts something in a part of a decade the evidence gives another part of, and not that one: "in the
    early 1960s" where it says "in the late 1960s" (hostile pass 45: supported).

    >>> other_part_of_the_decade("used in the early 1960s", "used in the late 1960s along the DMZ")
    True
    >>> other_part_of_the_decade("early 1960s", "early 1960s"), other_part_of_the_decade("1960s", "late 1960s")
    (False, False)
    """
    told: dict[str, set[str]] = {}
    for part, decade in _DECADE_PART.findall(evidence):
        told.setdefault(decade, set()).add(part.lower())
    for year in re.findall(r"\b(?:1\d|20)\d\d\b", evidence):  # "formed in 1961": early in the 1960s (review 46)
        told.setdefault(year[:3] + "0", set()).add(
            ("early", "early", "early", "early", "mid", "mid", "mid", "late", "late", "late")[int(year[3])]
        )
    return any(decade in told and part.lower() not in told[decade] for part, decade in _DECADE_PART.findall(said))


_CLOCK = re.compile(r"(?i)\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s*m\b\.?")


def other_half_of_the_day(said: str, evidence: str) -> bool:
    """``said`` gives a clock time the evidence gives in the other half of the day, and not in this one: "7:00 am"
    where it says "7:00 pm" (hostile pass 45: Binary RAR paid it 1; the hour alone was compared).

    >>> other_half_of_the_day("7:00 am.", "It starts at 7:00 pm."), other_half_of_the_day("7 pm", "at 7:00 p.m.")
    (True, False)
    """
    told = {(int(h), int(m or 0), x.lower()) for h, m, x in _CLOCK.findall(evidence)}
    given = [(int(h), int(m or 0), x.lower()) for h, m, x in _CLOCK.findall(said)]
    if any(time in told for time in given):
        return False  # "7:00 pm, not 7:00 am as some listings say": the evidence's own time is given (review 46)
    return any((h, m, "p" if x == "a" else "a") in told for h, m, x in given)


def _season(found: re.Match[str]) -> str:
    return next(g for g in found.groups() if g).lower().replace("autumn", "fall")


def _in_a_name(text: str, found: re.Match[str]) -> bool:
    """A capitalised season beside another capitalised word (not a small word: "In Spring 1979") is part of a name:
    the Winter Palace, the Arab Spring, Donna Summer, the Summer Olympics (review 45).

    >>> palace, date = "the Winter Palace", "In Spring 1979"
    >>> _in_a_name(palace, _SEASON.search(palace)), _in_a_name(date, _SEASON.search(date))
    (True, False)
    """
    word = found[0].split()[-1]
    if not word[:1].isupper():
        return False
    start = found.end() - len(word)
    before = re.search(r"([A-Za-z]+) $", text[:start])
    after = re.match(r" ([A-Za-z]+)", text[found.end() :])
    return any(m and m[1][:1].isupper() and m[1].lower() not in STOP for m in (before, after))


# the months a season may mean, either hemisphere's ("autumn" is March to May in Sydney)
_SEASON_MONTHS = {
    "spring": frozenset({3, 4, 5, 9, 10, 11}),
    "summer": frozenset({6, 7, 8, 12, 1, 2}),
    "fall": frozenset({9, 10, 11, 3, 4, 5}),
    "winter": frozenset({12, 1, 2, 6, 7, 8}),
}


# countries wholly or mostly south of the equator: only where the texts name one is a season read the southern way
_SOUTHERN = frozenset(
    "australia;new zealand;south africa;argentina;chile;uruguay;paraguay;brazil;bolivia;peru;madagascar;mozambique;"
    "zimbabwe;zambia;botswana;namibia;angola;lesotho;eswatini;swaziland;malawi;indonesia;fiji;samoa;tonga;"
    "papua new guinea;mauritius;antarctica".split(";")
)


_NORTH = {"spring": frozenset({3, 4, 5}), "summer": frozenset({6, 7, 8}), "fall": frozenset({9, 10, 11}),
          "winter": frozenset({12, 1, 2})}  # fmt: skip


def _northern(months: frozenset[int], said: str, evidence: str) -> frozenset[int]:
    """A season's months north of the equator (December to February is winter), unless ``said`` or ``evidence``
    names a southern country: "In the spring of 1989." is not 9 November 1989 in Berlin (hostile pass 63), though
    November is a spring month in Sydney.

    >>> sorted(_northern(months_of_a_season("in the spring"), "In the spring of 1989.", "on 9 November 1989"))
    [3, 4, 5]
    >>> len(_northern(months_of_a_season("in the spring"), "In the spring.", "in Perth, Australia, in November"))
    6
    """
    if turns.countries(f"{said} {evidence}") & _SOUTHERN:
        return months
    return months & frozenset().union(*(_NORTH[s] for s in _seasons(said)))


def months_of_a_season(text: str) -> frozenset[int] | None:
    """The months the seasons ``text`` names may mean (in either hemisphere), or None when it names none.

    >>> sorted(months_of_a_season("In the autumn of 1981.")), months_of_a_season("the Arab Spring of 2011")
    ([3, 4, 5, 9, 10, 11], None)
    """
    seasons = _seasons(text)
    return frozenset().union(*(_SEASON_MONTHS[s] for s in seasons)) if seasons else None


def other_time_of_year(said: str, evidence: str) -> bool:
    """``said`` dates something within one year (a month, early/mid/late, a season) that the evidence dates in that
    year only at other months: "In late 1981." or "In December 1981." where it says "lifted on 17 January 1981"
    (hostile pass 47: not contradicted, Binary RAR paid 1; the years alone were compared). Evidence that also gives
    the year without a month ("in 1981"), or no date of that year, leaves it to the other checks.

    >>> lifted = "Martial law was lifted on 17 January 1981."
    >>> other_time_of_year("In late 1981.", lifted), other_time_of_year("In December 1981.", lifted)
    (True, True)
    >>> other_time_of_year("In early 1981.", lifted), other_time_of_year("In 1981.", lifted)
    (False, False)
    >>> other_time_of_year("In June 1981.", "It was recorded in March 1981 and released in 1981.")
    False
    >>> other_time_of_year("In December 1994.", "Filming began in February 1994; it premiered later that year.")
    False
    """
    said_at = _within_a_year(said)
    if said_at is None:
        return False
    year, months = said_at
    if _seasons(said) and months == months_of_a_season(said):
        months = _northern(months, said, evidence)  # the months came from a season: which hemisphere's
    spans = date_spans(evidence)
    told = [span for span in spans if span.years == (year, year)]
    if len(told) != 1 or told[0].months is None:
        return False  # "began in February 1994 and wrapped in April 1994": which is the asked event's (review 47)
    if any(span.years is None for span in spans) or _SEASON.search(evidence) or _RELATIVE_TIME.search(evidence):
        return False  # "the album was released in the autumn", "later that year": a time the evidence gives apart
    return not months & set(range(told[0].months[0], told[0].months[1] + 1))


@functools.lru_cache(maxsize=8192)
def _within_a_year(said: str) -> tuple[int, frozenset[int]] | None:
    """The one year ``said`` dates within and the months it allows (a month, a part of the year, a season), or None:
    read once per claim, not once per passage it is checked against."""
    date = one_date(date_spans(said))
    if date is None or date.years is None or date.years[0] != date.years[1]:
        return None
    months = frozenset(range(date.months[0], date.months[1] + 1)) if date.months else months_of_a_season(said)
    return (date.years[0], months) if months else None


# a time given relative to a date the sentence gives: "later that year", "the following month"
_RELATIVE_TIME = re.compile(
    r"(?i)\b(?:later|earlier)\s+(?:that|the\s+same)\s+year|\b(?:that|the\s+same)\s+year\b|"
    r"\bthe\s+(?:following|next|previous)\s+(?:month|spring|summer|autumn|fall|winter)\b|\bmonths?\s+later\b"
)


# the year a law or treaty took effect, after the answer's own date: "1994 (Measure 16), effective 1997"
_TOOK_EFFECT = re.compile(
    r"(?i)\s*(?:[,;]\s*(?:and\s+|but\s+)?|\(\s*)(?:(?:it|which|this)\s+)?(?:only\s+)?"
    r"(?:(?:took|takes|came|went|entered)\s+(?:into\s+)?(?:effect|force)|effective|in\s+(?:force|effect)|"
    r"(?:was\s+)?implemented|enforced)(?:\s+(?:from|in|on|as\s+of|until))?\s+[^.;()]{0,30}?\b\d{4}\s*\)?"
    r"(?=\s*[.;!]?\s*$|\s*[.;]\s)"
)
_ASKS_EFFECT = re.compile(r"(?i)\b(?:effect|effective|force|implement\w*|enforce\w*)\b")


def without_taking_effect(text: str, question: str | None, golds: list[str] | None = None) -> str:
    """``text`` without the year its law took effect, said after the answer's date, where the question asks of
    another event ("When did Oregon pass the Act?": "1994 (Measure 16), effective 1997." was two years, a hedge:
    hostile pass 51). A question about taking effect keeps it.

    >>> without_taking_effect("1994; it took effect in 1997.", "When was the Act passed?")
    '1994.'
    >>> without_taking_effect("1994, effective 1997.", "When did the Act take effect?")
    '1994, effective 1997.'
    """
    if _ASKS_EFFECT.search(question or ""):
        return text
    years = {y for g in golds or () for y in re.findall(r"\b\d{4}\b", g)}
    # the year it took effect kept where it is a gold's: "Ratified in 1919; it took effect in 1920." for 1920
    return _TOOK_EFFECT.sub(lambda m: m.group() if set(re.findall(r"\b\d{4}\b", m.group())) & years else "", text)


def kin_of_another_role(question: str, response: str, sentences: list[str]) -> bool:
    """A kinship question answered with a name the answering sentence gives another kinship, in a clause of its own,
    where another clause names the asked one: "Zeus." to who is Apollo's mother, against "Apollo is a son of Zeus,
    and his mother is the Titaness Leto" (hostile pass 66: Zeus was in the answering sentence, so not contradicted).

    >>> s = ["Apollo is a son of Zeus, and his mother is the Titaness Leto."]
    >>> asked = "Who is the mother of Apollo?"
    >>> kin_of_another_role(asked, "Zeus.", s), kin_of_another_role(asked, "Leto", s)
    (True, False)
    """
    asked = {k.lower() for k in _KIN.findall(question)}
    said = {w.lower() for w in re.findall(r"\b[A-Z][\w'-]+", response)} - STOP
    if not asked or not said:
        return False
    kin = "|".join(re.escape(k) for k in asked)
    # the asked kinship given to a name of its own ("his mother is the Titaness Leto"), not one left unnamed ("his
    # father is the king of the gods") nor a name in another deed ("her father had Anne executed": landing review)
    told = re.compile(rf"(?i:\b(?:{kin})s?\s+(?:is|was)\s+(?:the\s+)?)(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
    for sentence in sentences:
        clauses = re.split(r"[,;]\s*(?:and\s+|but\s+|while\s+)?|\s+and\s+(?=(?:his|her|their|its)\b)", sentence)
        holding = [c for c in clauses if said & {w.lower() for w in re.findall(r"[\w'-]+", c)}]
        others = [found for found in told.finditer(sentence) if not said & set(found["who"].lower().split())]
        if holding and others and all(not asked & {k.lower() for k in _KIN.findall(c)} for c in holding):
            return True
    return False
    for sentence in sentences:
        clauses = [
            c for c in re.split(r"[,;]\s*(?:and\s+|but\s+|while\s+)?|\s+and\s+(?=(?:his|her|their|its)\b)", sentence)
        ]
        holding = [c for c in clauses if said & {w.lower() for w in re.findall(r"[\w'-]+", c)}]
        kin_of = [{k.lower() for k in _KIN.findall(c)} for c in holding]
        asked_elsewhere = any(asked & {k.lower() for k in _KIN.findall(c)} for c in clauses if c not in holding)
        if holding and asked_elsewhere and all(kin and not kin & asked for kin in kin_of):
            return True
    return False
