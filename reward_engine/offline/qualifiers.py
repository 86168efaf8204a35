"""Qualifiers of a fact that the evidence must say the same way: which event (born, died, began, ended) and where,
which season, which part of a decade, which half of the day, which kin. Each check reads a claim against a passage
and answers True when the passage names another of the same kind and not this one; a passage that names none
leaves the claim to the word checks (``facts.supported``)."""

from __future__ import annotations

import re

from retrieval.text import split_sentences
from reward_engine.offline.text_form import normalize
from reward_engine.offline.words import STOP

# what happened, in the words that say it: a claim of an event is not supported by a passage that tells of events
# but not that one ("Mozart died in Salzburg in 1756" against "born in Salzburg in 1756": hostile pass 20); a passage
# that tells of none ("came out in 1994") leaves it to the words. Verbs and event nouns only: a role ("his wife",
# "the co-founder") is no event (the review of pass 20).
_EVENT_GROUPS = (
    "born birth birthplace birthday", "died dies die death passed", "buried burial interred",
    "married marriage marries wed wedded wedding", "divorced divorce",
    "founded founding established cofounded co-founded started formed created",
    "released release premiered debuted launched launch",
    "elected election", "crowned coronation", "baptised baptized baptism christened",
    "assassinated assassination murdered killed", "invented invention", "discovered discovery found",
    "published publication", "resigned resignation", "retired retirement",
    "graduated graduation", "abdicated abdication", "executed execution",
)  # fmt: skip
_EVENT_OF = {word: i for i, group in enumerate(_EVENT_GROUPS) for word in group.split()}
_IMPLIES = {_EVENT_OF["assassinated"]: _EVENT_OF["died"], _EVENT_OF["executed"]: _EVENT_OF["died"]}  # killed: died


def events(text: str) -> set[int]:
    """The events ``text`` tells of (indices into ``_EVENT_GROUPS``), with what they imply (a killing, a death)."""
    found = {_EVENT_OF[w] for w in normalize(text).split() if w in _EVENT_OF}
    return found | {_IMPLIES[e] for e in found if e in _IMPLIES}


_BEGAN = re.compile(r"(?i)\b(?:began|begun|begins|started|starts|broke out|took office)\b")
_ENDED = re.compile(
    r"(?i)\b(?:ended|ends|stopped|stops|quit|quits|ceased|concluded|came to (?:an end|a close)|left office|fell)\b"
)


def begun_for_ended(claim: str, passage: str) -> bool:
    """The claim tells of an end where the passage tells only of a beginning, or the reverse: "stopped hosting in
    2010" against "began hosting in 2010" (hostile pass 30). A passage that tells of neither, or of both, leaves it
    to the words ("ended in 1991" against "started soon after 1945, came to a close in 1991").

    >>> begun_for_ended("He stopped hosting it in 2010.", "He began hosting it in 2010.")
    True
    >>> begun_for_ended("The war began in 1914.", "The war broke out in 1914.")
    False
    """
    ends, begins = _ENDED.search(claim), _BEGAN.search(claim)
    told_end, told_begin = _ENDED.search(passage), _BEGAN.search(passage)
    if ends and not begins:
        return bool(told_begin) and not told_end
    if begins and not ends:
        return bool(told_end) and not told_begin
    return False


_EVENT_AT = re.compile(
    r"(?i:\b(?P<event>%s))\s+(?:\w+\s+){0,2}?(?:in|at)\s+(?:the\s+)?(?P<place>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)"
    % "|".join(sorted(map(re.escape, _EVENT_OF), key=len, reverse=True))
)
_EVENT_WORD = re.compile(r"(?i)\b(?:%s)\b" % "|".join(sorted(map(re.escape, _EVENT_OF), key=len, reverse=True)))


def place_crossed(claim: str, passage: str) -> bool:
    """The claim puts an event in a place the passage names only for another event, and the passage tells of the
    claim's event: "Mozart died in Salzburg." against "born in Salzburg ... died in Vienna". Each event of the
    passage reaches from its word to the next event's word or the sentence's end, so "died in the Austrian capital
    Vienna", "born in Ulm, Germany" or "assassinated at Ford's Theatre in Washington" hold their places (the review
    of pass 27); a place the passage does not name leaves the claim to the other checks.

    >>> place_crossed("Mozart died in Salzburg.", "Mozart was born in Salzburg in 1756 and died in Vienna in 1791.")
    True
    >>> place_crossed("Mozart died in Vienna.", "Mozart was born in Salzburg in 1756 and died in Vienna in 1791.")
    False
    >>> place_crossed("Einstein was born in Germany.", "Einstein was born in Ulm, Germany, and died in Princeton.")
    False
    """
    spans: dict[int, list[str]] = {}
    for sentence in split_sentences(passage):
        words = list(_EVENT_WORD.finditer(sentence))
        for k, found in enumerate(words):
            end = words[k + 1].start() if k + 1 < len(words) else len(sentence)
            spans.setdefault(_EVENT_OF[found.group().lower()], []).append(normalize(sentence[found.start() : end]))
    for said in _EVENT_AT.finditer(claim):
        event, place = _EVENT_OF[said["event"].lower()], f" {normalize(said['place'])} "
        if event not in spans or any(place in f" {s} " for s in spans[event]):
            continue
        if any(place in f" {s} " for e, found in spans.items() if e != event for s in found):
            return True
    return False


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
    seasons = [{_season(found) for found in _SEASON.finditer(t) if not _in_a_name(t, found)} for t in (said, evidence)]
    return bool(seasons[0]) and bool(seasons[1]) and not seasons[0] & seasons[1]


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
