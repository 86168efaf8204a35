"""Polarity: whether a text says a thing is not so, and the content words a claim and its negation share.

Read apart from the words: "Paris is not the capital of France" covers the words of "Paris is the capital of
France"; which of the two the evidence says is a question of these rules alone.
"""

from __future__ import annotations

import re

from reward_engine.offline.words import content_words, stem

NEGATION = re.compile(
    r"(?i)\b(?:not|no|never|neither|nor|none|nobody|nothing|nowhere|cannot|hardly|scarcely|anything but|other than|"
    r"except|(?:false|untrue|a myth|a misconception) that|"
    r"rather than|instead of)\b|n['\u2019]t\b|\bnon-(?=\w)"  # "non-general-purpose" (hostile pass 9)
)
# phrases with a negation word that state something ("not only", "no doubt", "No. 5", "no more than 8 km")
NOT_A_NEGATION = re.compile(
    r"(?i)\b(?:not only|not just|not least|not until|no doubt|no less than|no fewer than|no more than|"
    r"nothing but|none other than|no longer than|no\.\s*\d)"
)
NEGATORS = frozenset(
    stem(w)
    for w in "not no never neither nor none nobody nothing nowhere cannot hardly scarcely anything except rather "
    "instead".split()
)


def negated(text: str) -> bool:
    """Whether ``text`` says something is not so ("Paris is not the capital", "Paris was never ...", "isn't").

    >>> negated("Paris is not the capital of France."), negated("Paris is not only the capital but the largest city.")
    (True, False)
    """
    return bool(NEGATION.search(NOT_A_NEGATION.sub(" ", text)))


# where a negation's reach ends: a comma, a colon, a bracket, "but", "while" ("... or hail, but some thunderstorms
# produce no precipitation" states the hail plainly; "Paris, not Lyon, is the capital" states Paris plainly)
# (not a title's colon: "Law & Order: Special Victims Unit premiered ..." is one piece, hostile pass 41)
CHUNK = re.compile(
    r"[,;()]\s*|:(?!\s*(?-i:[A-Z]))\s*|\s+(?:but|while|whereas|although|though|however)\s+", re.IGNORECASE
)


def claims_negation(claim: str) -> bool:
    """Whether a claim states that something is not so: its main part (the piece between commas, "but" ... that
    holds most of its content words) holds a negation.

    >>> claims_negation("Paris is not the capital of France."), claims_negation("Paris, not Lyon, is the capital.")
    (True, False)
    """
    pieces = [p for p in CHUNK.split(claim) if p and p.strip()]
    if not pieces:
        return False
    main = max(pieces, key=lambda p: len(claim_words(p)))
    return negated(main)


def claim_words(text: str) -> set[str]:
    """Content words without the negation words (polarity is read apart: a claim and its negation cover the
    same words)."""
    return {w for w in content_words(text) if w not in NEGATORS and not w.endswith(("n't", "n\u2019t"))}
