"""Which event a fact tells of (born, died, began, ended) and where: a claim of one event is not supported by a
passage that tells of another ("died in Salzburg" against "born in Salzburg"). Apart from ``qualifiers`` because it
reads a passage sentence by sentence (``retrieval.text``), which the offline grader does not load."""

from __future__ import annotations

import re

from retrieval.text import split_sentences
from reward_engine.offline import places
from reward_engine.offline.text_form import normalize
from reward_engine.offline.words import content_words, names

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


def told(text: str) -> set[int]:
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


_AT_PLACE = re.compile(r"\b(?:at|in|near)\s+(?:the\s+)?(?P<place>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")


def place_of_another(claim: str, passage: str, threshold: float = 0.75) -> bool:
    """The claim puts what it tells at a place the passage gives only to something else, while the passage's
    sentences that tell the claim's own fact (all its other names, ``threshold`` of its other words) give a place
    of their own: "The Thompson River meets the Fraser River at Kamloops." against "The Thompson River joins the
    Fraser River at Lytton. ... The North Thompson and South Thompson rivers meet at Kamloops." (hostile pass 52:
    neither contradicted nor refused). A place the passage never names leaves the claim to the other checks
    ("born in Germany" against "born in Ulm").

    >>> p = "The Thompson River joins the Fraser River at Lytton. The North and South Thompson meet at Kamloops."
    >>> place_of_another("The Thompson River meets the Fraser River at Kamloops.", p)
    True
    >>> place_of_another("The Thompson River meets the Fraser River at Lytton.", p)
    False
    >>> place_of_another("Einstein was born in Germany.", "Einstein was born in Ulm. He later lived in Berlin.")
    False
    >>> place_of_another("Mozart was born in Salzburg.", "Mozart was born in Austria. Haydn died in Salzburg.")
    False
    """
    said = list(_AT_PLACE.finditer(claim))
    if not said:
        return False
    place = content_words(said[-1]["place"])
    rest = claim[: said[-1].start()] + " " + claim[said[-1].end() :]
    named, words = names(rest), content_words(rest)
    if not place or not named or not words:
        return False
    telling, elsewhere = [], False
    for sentence in split_sentences(passage):
        held = content_words(sentence)
        if named <= held and len(words & held) / len(words) >= threshold:
            telling.append(sentence)
        elif place <= held:
            elsewhere = True
    if not telling or not elsewhere or any(place <= content_words(s) for s in telling):
        return False
    # a place of the same size, neither holding the other's words: "born in Salzburg" is not contradicted by "born in
    # Austria", nor "in England" by "in Stratford-upon-Avon" (review 53: seven true claims were)
    size = places.level(said[-1]["place"])
    return any(
        places.level(found["place"]) == size and not (content_words(found["place"]) & place)
        for s in telling
        for found in _AT_PLACE.finditer(s)
    )
