"""A claim that says its passage's sentence with one slot changed, which word coverage alone pays as supported.

Another word in a word's place: "Anne Frank died of typhoid at Bergen-Belsen" where the passage says "died of
typhus at Bergen-Belsen" covers every other word, so three words in four passed (hostile pass 55: "cholera" and
"measles" passed too). Two names turned round a relation: "Christine chooses Raoul over the Phantom" where it
says "chooses the Phantom over Raoul", "The Lakers beat the Celtics" where the Celtics beat the Lakers; the same
words, the other way round (comparatives such as "larger than" are ``comparatives``' to read).
"""

from __future__ import annotations

import re

from reward_engine.offline.words import STOP, WORD, stem


def _tokens(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def _content(word: str) -> bool:
    return len(word) >= 3 and word not in STOP and not word[:1].isdigit()


# a preposition before the slot: its object is a thing named (a disease, a material, a cause), where a verb or an
# adjective in another slot is as often a paraphrase ("The Qing dynasty ended in 1912" where it "fell in 1912")
_BEFORE_A_THING = frozenset("of from by with at in on for".split())


def word_swapped(claim: str, sentences: list[str]) -> bool:
    """A content word of the claim after a preposition that no sentence holds, where one sentence has another
    content word between the same two neighbours: the claim names something else in that slot.

    >>> word_swapped("Anne Frank died of typhoid at Bergen-Belsen.", ["Anne Frank died of typhus at Bergen-Belsen."])
    True
    >>> word_swapped("Anne Frank died of typhus in Bergen-Belsen.", ["Anne Frank died of typhus at Bergen-Belsen."])
    False
    >>> word_swapped("The Qing dynasty ended in 1912.", ["The Qing dynasty fell in 1912 when Puyi abdicated."])
    False
    """
    said = _tokens(claim)
    told = [_tokens(s) for s in sentences]
    held = {w for t in told for w in t}
    stems = {stem(w) for w in said}
    for i in range(1, len(said) - 1):
        word = said[i]
        if not _content(word) or word in held or said[i - 1] not in _BEFORE_A_THING:
            continue
        for there in told:
            for j in range(1, len(there) - 1):
                other = there[j]
                if there[j - 1] != said[i - 1] or there[j + 1] != said[i + 1] or other == word:
                    continue
                if _content(other) and stem(other) not in stems and stem(other) != stem(word):
                    return True
    return False


_SIDE = r"(?:the\s+)?[A-Z][\w'-]*(?:\s+(?:of\s+|de\s+)?[A-Z][\w'-]*)*"
_ORDERED = re.compile(
    rf"(?P<a>{_SIDE})\s+(?:(?:chooses|chose|chosen|picks|picked|prefers|preferred|favou?rs|favou?red)\s+)?"
    rf"(?:(?P<rel>over|beat|beats|defeated|defeats|outscored|outsold|outranks|outranked|preceded|precedes|"
    rf"succeeded|succeeds)|(?P<pref>to))\s+(?P<b>{_SIDE})"
)


def _pairs(text: str) -> set[tuple[str, str, str]]:
    """(first name, relation, second name), "the" dropped and lower-cased: the ordered pairs a text states."""
    out = set()
    for found in _ORDERED.finditer(text):
        if found["pref"] and not re.search(r"(?i)\bprefer\w*\s+\S+(?:\s+\S+){0,3}\s*$", text[: found.end("a")]):
            continue  # "to" orders a pair only after "prefers" ("prefers Raoul to the Phantom")
        a, b = (re.sub(r"(?i)^the\s+", "", found[k]).lower() for k in ("a", "b"))
        out.add((a.split()[-1] if a else a, (found["rel"] or "to").lower(), b.split()[0] if b else b))
    return out


def order_turned(claim: str, passage: str) -> bool:
    """The claim's two names stand the other way round the same relation in the passage.

    >>> order_turned("Christine chooses Raoul over the Phantom.", "Christine chooses the Phantom over Raoul.")
    True
    >>> order_turned("The Lakers beat the Celtics in 1985.", "The Lakers beat the Celtics in 1985.")
    False
    """
    stated, told = _pairs(claim), _pairs(passage)
    return any((b, rel, a) in told and (a, rel, b) not in told for a, rel, b in stated)
