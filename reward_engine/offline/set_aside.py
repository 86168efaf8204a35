"""What a claim or a passage sets aside: "born in Salzburg, not Vienna" states Salzburg; "the male, not the female,
carries the eggs" says it of the male alone; "..., but not in Africa" denies what a passage may say.
"""

from __future__ import annotations

import re

from retrieval.text import split_sentences
from reward_engine.offline.polarity import claim_words, claims_negation, negated
from reward_engine.offline.words import content_words, stem

_NAMED = r"(?:[A-Z][\w'-]*(?:\s+(?:of\s+)?[A-Z][\w'-]*)*|\d[\d,.]*)"
_SET_ASIDE = re.compile(
    rf"^(?P<main>.*?\b(?P<said>[\w'-]+))\s*,?\s+(?:and\s+|but\s+)?(?:not|rather\s+than|instead\s+of)\s+"
    rf"(?:in\s+|on\s+|at\s+)?(?P<other>{_NAMED})\s*(?P<end>[.!]?)\s*$"
)


def set_aside(claim: str) -> str | None:
    """ "Mozart was born in Salzburg, not Vienna." -> "Mozart was born in Salzburg.": what the claim states without
    the value it sets aside (hostile pass 19); None for a claim that sets nothing aside. What it denies is not
    checked: which slot the other value would fill is a reading these rules get wrong (the review of pass 19:
    "Canberra is the capital of Australia, not Sydney" is no claim that Sydney is the capital of Sydney)."""
    found = _SET_ASIDE.match(claim.strip())
    if not found or found["said"] == found["other"]:
        return None
    return found["main"] + found["end"]


_SET_ASIDE_IN = re.compile(r"(?i),\s*(?:and\s+|but\s+)?not\s+(?:the\s+|a\s+|an\s+|by\s+|in\s+)?([a-z][\w'-]*)")


def given_what_it_sets_aside(claim: str, passage: str) -> bool:
    """The claim says of a word what the passage says is not so of it, set off as ", not X": "The female seahorse
    carries the eggs" where "it is the male, not the female, that carries the eggs" (hostile pass 66: supported,
    every word there); only where the passage holds the word nowhere else.

    >>> p = "In seahorses it is the male, not the female, that carries the eggs."
    >>> given_what_it_sets_aside("The female seahorse carries the eggs.", p)
    True
    >>> given_what_it_sets_aside("The male seahorse carries the eggs.", p)
    False
    """
    if claims_negation(claim):
        return False
    said = {stem(w) for w in content_words(claim)}
    for found in _SET_ASIDE_IN.finditer(passage):
        word = stem(found[1].lower())
        rest = passage[: found.start()] + passage[found.end() :]
        if word in said and word not in {stem(w) for w in content_words(rest)}:
            return True
    return False


_BUT_NOT = re.compile(
    r"(?i:\s*,?\s*but\s+not\s+(?:(?:in|of|at|on|from|for|by|to)\s+)?(?:the\s+)?)"
    r"(?P<name>[A-Z][\w'-]*(?:\s+(?:of\s+)?[A-Z][\w'-]*)*)"
)


def denied_where_told(claim: str, passage: str) -> bool:
    """The claim sets a name aside ("..., but not in Africa") that a passage sentence saying the rest of the claim
    gives it: "Kilimanjaro is the highest mountain in Tanzania but not in Africa." where it is "the highest mountain
    in Africa" (hostile pass 63: supported, every word there).

    >>> p = "Mount Kilimanjaro in Tanzania is the highest mountain in Africa, at 5,895 metres."
    >>> denied_where_told("Kilimanjaro is the highest mountain in Tanzania but not in Africa.", p)
    True
    >>> denied_where_told("Kilimanjaro is the highest mountain in Tanzania but not in Europe.", p)
    False
    """
    found = _BUT_NOT.search(claim)
    if found is None:
        return False
    rest, name = claim_words(claim[: found.start()]), claim_words(found["name"])
    clauses = [c for sentence in split_sentences(passage) for c in _CLAUSE_BREAK.split(sentence)]
    return bool(rest and name) and any(  # in one clause: "..., while penguins live in Antarctica" is another's
        name <= (told := claim_words(clause)) and len(rest & told) >= 0.75 * len(rest) and not negated(clause)
        for clause in clauses
    )


_CLAUSE_BREAK = re.compile(r";\s*|,?\s+(?:while|whereas|but|although|though)\s+")
