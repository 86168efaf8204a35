"""A comparison the evidence's superlative settles: "Saturn is larger than Jupiter" against "Jupiter is the largest
planet" (hostile pass 16, issue #74). No sentence holds the claim's words, so the word-overlap rules of ``facts``
never see it; the superlative names the one thing nothing is larger than.
"""

from __future__ import annotations

import re

from reward_engine.offline.text_form import normalize

_SUPERLATIVE_OF = {
    "larger": "largest", "bigger": "largest", "smaller": "smallest", "higher": "highest", "taller": "highest",
    "lower": "lowest", "longer": "longest", "shorter": "shortest", "older": "oldest", "younger": "youngest",
    "deeper": "deepest", "hotter": "hottest", "colder": "coldest", "heavier": "heaviest", "lighter": "lightest",
    "faster": "fastest", "slower": "slowest", "brighter": "brightest", "richer": "richest",
    "more populous": "most populous", "less populous": "least populous",
}  # fmt: skip
_OPPOSITE = {
    "largest": "smallest", "highest": "lowest", "longest": "shortest", "oldest": "youngest", "hottest": "coldest",
    "heaviest": "lightest", "fastest": "slowest", "most populous": "least populous",
}  # fmt: skip
_OPPOSITE |= {v: k for k, v in _OPPOSITE.items()}
_SAME = {"biggest": "largest", "tallest": "highest"}

_NAME = r"[A-Z][\w'-]*(?:\s+(?:of\s+)?[A-Z][\w'-]*)*"
_COMPARED = re.compile(
    rf"^\W*(?:The\s+)?(?P<a>{_NAME})\s+(?:is|was|are|were)\s+(?:much\s+|far\s+|slightly\s+|a\s+bit\s+)?"
    rf"(?P<comp>{'|'.join(_SUPERLATIVE_OF)})\s+than\s+(?:the\s+)?(?P<b>{_NAME})"
)
_HOLDS = re.compile(
    # "Jupiter is the largest planet", "Jupiter is the fifth planet from the Sun and the largest" (not "Mars is
    # smaller than the largest planet")
    rf"(?P<name>{_NAME})\s+(?:is|was|are|were|remains)\s+(?:(?!\bthan\b)[^.;!?,])*?\bthe\s+"
    rf"(?P<sup>{'|'.join(sorted({*_OPPOSITE, *_SAME}, key=len, reverse=True))})\b"
    r"(?P<scope>(?:\s+[\w-]+)?\s+(?:in|of|on|among|within)\s+(?!the\s+(?:world|universe)\b)[\w\s'-]+)?"
)


def _holders(passage: str, other: str) -> dict[str, set[str]]:
    """Name (normalised) -> the superlatives a sentence gives it: "Jupiter is the largest planet" ->
    {"jupiter": {"largest"}}. A ranked one ("the second-largest") gives none: the pattern wants "the" right before.
    One limited to a place or group ("the largest city in Australia") counts only where the passage names the
    claim's ``other`` name too: Tokyo is not in Australia (pass 18's review)."""
    out: dict[str, set[str]] = {}
    named = f" {other} " in f" {normalize(passage)} "
    for found in _HOLDS.finditer(passage):
        if found["scope"] and not named:
            continue
        name = normalize(re.sub(r"^The\s+", "", found["name"]))
        out.setdefault(name, set()).add(_SAME.get(found["sup"].lower(), found["sup"].lower()))
    return out


def outranked(claim: str, passages: list[str]) -> bool:
    """The claim "A is <more> than B" where a passage gives B the matching superlative, or A the opposite one.

    >>> solar = ["Jupiter is the largest planet in the Solar System; Saturn is the second largest."]
    >>> outranked("Saturn is larger than Jupiter.", solar), outranked("Jupiter is larger than Saturn.", solar)
    (True, False)
    >>> outranked("Tokyo is larger than Sydney.", ["Sydney is the largest city in Australia."])  # not in Australia
    False
    >>> outranked("Saturn is larger than Jupiter.", ["Jupiter is the fifth planet from the Sun and the largest."])
    True
    >>> outranked("Mercury is larger than Jupiter.", ["Jupiter is the second largest planet."])
    False
    >>> outranked("Mars is larger than Venus.", ["Mars is smaller than the largest planet."])
    False
    """
    found = _COMPARED.match(claim)
    if not found:
        return False
    a, b = normalize(found["a"]), normalize(found["b"])
    superlative = _SUPERLATIVE_OF[found["comp"].lower()]
    if a == b:
        return False
    for passage in passages:
        if superlative in _holders(passage, a).get(b, ()):
            return True
        if _OPPOSITE.get(superlative) in _holders(passage, b).get(a, ()):
            return True
    return False


_COMPARING = re.compile(rf"(?i)\b({'|'.join(_SUPERLATIVE_OF)})\b")  # "Which is larger, Jupiter or Saturn?"
_SAID_AFTER = re.compile(
    rf"(?i)^\s*(?:is|was|are|were)\s+(?:much\s+|far\s+|slightly\s+|a\s+bit\s+)?({'|'.join(_SUPERLATIVE_OF)})\s+than\b"
)


def said_the_other_way(question: str, after: str) -> bool:
    """The answer names the gold but says it is the opposite of what the question asks: "Jupiter is smaller than
    Saturn" to "Which is larger, Jupiter or Saturn?" (hostile pass 18). ``after``: the answer's text after the
    gold, normalised or not.

    >>> said_the_other_way("Which is larger, Jupiter or Saturn?", " is smaller than Saturn")
    True
    >>> said_the_other_way("Which is larger, Jupiter or Saturn?", " is larger than Saturn")
    False
    """
    asked, said = _COMPARING.search(question or ""), _SAID_AFTER.match(after)
    if not asked or not said:
        return False
    than = normalize(after[said.end() :]).split()[:1]
    if not than or than[0] not in normalize(question).split():
        return False  # "The Volga is shorter than the Nile but is the longest river in Europe": no Nile asked
    want = asked.group(1).lower()
    want = _SAME.get(_SUPERLATIVE_OF.get(want, want), _SUPERLATIVE_OF.get(want, want))
    return _OPPOSITE.get(want) == _SUPERLATIVE_OF[said.group(1).lower()]
