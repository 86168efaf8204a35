"""Parallel parts of one sentence: a pair of words ("western" and "eastern", "absorb" and "release"), each with
its own filler. A claim or answer that gives one word the other's filler is turned round however many words it
shares: every word of "The western terminus is Vladivostok" stands in "its western terminus is Moscow and its
eastern terminus is Vladivostok" (hostile pass 69).
"""

from __future__ import annotations

import re

from reward_engine.offline.words import STOP, WORD, nfkc, stem


def _form(word: str) -> str:
    """One form of a word's inflections: "release", "released" and "releases" are "releas"; "emitted" is "emit"."""
    found = stem(word.lower())
    found = found[:-1] if found.endswith("e") and len(found) >= 5 else found
    return found[:-1] if len(found) > 3 and found[-1] == found[-2] and found[-1] not in "aeiouls" else found


def _stems(text: str) -> list[str]:
    return [_form(w) for w in WORD.findall(nfkc(text))]


# words that set up two parallel parts of a sentence, each with its own filler: "its western terminus is Moscow and
# its eastern terminus is Vladivostok", "plants absorb carbon dioxide ... and release oxygen"
# adjectives whose two parts share a head noun ("its western terminus ... its eastern terminus"), and verbs whose
# two parts each take their own object ("absorb carbon dioxide ... release oxygen"); not converse pairs that say
# one thing both ways ("Russia sold Alaska" is "the US bought Alaska")
_QUALIFIER_PAIRS = (
    "western eastern, northern southern, west east, north south, upper lower, inner outer, left right, male female, "
    "first last, front back, home away, minimum maximum, lowest highest"
)
_DEED_PAIRS = "absorb release, absorb emit, inhale exhale, import export, produce consume"


def _paired(text: str) -> dict[str, frozenset[str]]:
    """Each word's form of ``text``'s pairs ("western eastern, ...") with its partners."""
    pairs = [tuple(_form(w) for w in pair.split()) for pair in text.split(", ")]
    return {w: frozenset(b if w == a else a for a, b in pairs if w in (a, b)) for pair in pairs for w in pair}


_QUALIFIERS = _paired(_QUALIFIER_PAIRS)
_DEEDS = _paired(_DEED_PAIRS)
_CLAUSE = re.compile(r"(?i)\s*(?:;|,\s*(?:and|but|while|whereas|which|who)\b)\s*")


def _set_aside(words: list[str], at: int) -> bool:
    """``words[at]`` follows "not" (an article between): "the male, not the female"."""
    before = [w for w in words[max(0, at - 3) : at] if w not in ("the", "a", "an")]
    return bool(before) and before[-1] == "not"


def _content(words: list[str]) -> list[str]:
    return [w for w in words if w not in STOP]


def _other_filler(said: list[str], there: list[str]) -> bool:
    """One clause's words (``said``) against a sentence's (``there``): a word of a pair with the other's filler."""
    for at, word in enumerate(said):
        deed = word in _DEEDS
        for other in (_DEEDS if deed else _QUALIFIERS).get(word, ()):
            if word not in there or other not in there or (other in said and not deed):
                continue
            mine, theirs = there.index(word), there.index(other)
            if _set_aside(there, theirs):
                continue  # "it is the male, not the female, that incubates the egg": no part of its own
            own = _content(there[mine + 1 : theirs if theirs > mine else None])
            others = _content(there[theirs + 1 : mine if mine > theirs else None])
            after = _content(said[at + 1 :])
            if not own or not others or not after:
                continue
            if deed and after[0] in set(others) - set(own):  # "absorb oxygen" where it releases oxygen
                return True
            if (
                not deed
                and own[0] == others[0]
                and set(after) & (set(others) - set(own))
                and not set(after) & (set(own) - set(others))
            ):
                return True  # "western terminus ... Vladivostok": both parts name the terminus; not "the first
                # Harry Potter book ... and the last in 2007", whose second part names no head of its own
    return False


def filler_of_the_other(claim: str, sentence: str) -> bool:
    """The claim gives one of a pair of parallel words ("western", "absorb") what the sentence gives the other:
    "The western terminus ... is Vladivostok" where "its western terminus is Moscow and its eastern terminus is
    Vladivostok"; "Plants absorb oxygen" where they "absorb carbon dioxide ... and release oxygen" (hostile pass 69:
    supported, one sentence holding every word). Read after the word in both, one clause of the claim at a time:
    "Lyon lies south of Paris" restates "Paris lies north of Lyon".

    >>> s = "Its western terminus is Moscow and its eastern terminus is Vladivostok."
    >>> filler_of_the_other("The western terminus is Vladivostok.", s)
    True
    >>> filler_of_the_other("The western terminus is Moscow, and the line runs to Vladivostok.", s)
    False
    """
    there = _stems(sentence)
    return any(_other_filler(_stems(clause), there) for clause in _CLAUSE.split(claim) if clause)


def gold_given_the_other(question: str, answer: str, gold: str) -> bool:
    """The answer gives the gold to the other verb of the question's pair: "plants absorb oxygen ... and release
    carbon dioxide" to which gas plants absorb, gold carbon dioxide (hostile pass 69: CORRECT).

    >>> asked = "Which gas do plants absorb?"
    >>> gold_given_the_other(asked, "They absorb oxygen and release carbon dioxide.", "carbon dioxide")
    True
    >>> gold_given_the_other(asked, "They absorb carbon dioxide and release oxygen.", "carbon dioxide")
    False
    """
    asked, said, wanted = set(_stems(question)), _stems(answer), _content(_stems(gold))
    for word in asked & set(said) & set(_DEEDS):
        for other in _DEEDS[word]:
            if other in asked or other not in said:
                continue
            mine, theirs = said.index(word), said.index(other)
            own = _content(said[mine + 1 : theirs if theirs > mine else None])
            others = _content(said[theirs + 1 : mine if mine > theirs else None])
            if wanted and others[: len(wanted)] == wanted and own and own[0] not in wanted:
                return True
    return False
