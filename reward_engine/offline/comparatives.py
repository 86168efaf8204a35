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
    rf"(?P<name>{_NAME})\s+(?:is|was|are|were|remains)\s+(?:(?!\bthan\b)[^.;!?])*?\bthe\s+"
    rf"(?P<sup>{'|'.join(sorted({*_OPPOSITE, *_SAME}, key=len, reverse=True))})\b"
)


def _holders(passage: str) -> dict[str, set[str]]:
    """Name (normalised) -> the superlatives a sentence gives it: "Jupiter is the largest planet" ->
    {"jupiter": {"largest"}}. A ranked one ("the second-largest") gives none: the pattern wants "the" right before."""
    out: dict[str, set[str]] = {}
    for found in _HOLDS.finditer(passage):
        name = normalize(re.sub(r"^The\s+", "", found["name"]))
        out.setdefault(name, set()).add(_SAME.get(found["sup"].lower(), found["sup"].lower()))
    return out


def outranked(claim: str, passages: list[str]) -> bool:
    """The claim "A is <more> than B" where a passage gives B the matching superlative, or A the opposite one.

    >>> outranked("Saturn is larger than Jupiter.", ["Jupiter is the largest planet in the Solar System."])
    True
    >>> outranked("Jupiter is larger than Saturn.", ["Jupiter is the largest planet in the Solar System."])
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
        holders = _holders(passage)
        if superlative in holders.get(b, ()) or _OPPOSITE.get(superlative) in holders.get(a, ()):
            return True
    return False
