"""Claim policy: which decomposed claims the fact score counts.

KnowRL (FActScore's extraction): claims of at least 3 words, repeats differing only in
case counted once, all of them. ``knowrl-robust`` ignores spacing and punctuation too,
drops claims about something else (see ``relevance``) and verifies at most 24; off-topic
claims are reported but never verified.
"""

from __future__ import annotations

import re
from typing import Sequence

from reward_engine.semantics import Semantics
from reward_engine.stages.relevance import Topic


def distinct(claims: Sequence[str], how: str = "words") -> list[str]:
    """Claims once each, first spelling kept. ``case``: FActScore's rule (case ignored); ``words``: case, spacing
    and punctuation ignored.

    >>> distinct(["Paris is in France.", "paris is in  France", "Lyon is in France"])
    ['Paris is in France.', 'Lyon is in France']
    >>> distinct(["Paris is in France.", "paris is in France."], "case")
    ['Paris is in France.']
    """
    seen: dict[str, str] = {}
    for claim in claims:
        key = claim.strip().lower() if how == "case" else " ".join(re.findall(r"\w+", claim.lower()))
        seen.setdefault(key, claim)
    return list(seen.values())


def select_claims(
    claims: Sequence[str], question: str | None, title_text: str, sem: Semantics
) -> tuple[list[str], list[str]]:
    """(claims to verify, off-topic claims).

    >>> from reward_engine.semantics import semantics
    >>> select_claims(["The Eiffel Tower is in Paris.", "Tokyo is the capital of Japan.", "Paris."],
    ...               "In which city is the Eiffel Tower?", "Eiffel Tower", semantics("knowrl-robust"))
    (['The Eiffel Tower is in Paris.'], ['Tokyo is the capital of Japan.'])
    """
    kept = [c.strip() for c in claims if len(c.split()) >= sem.min_claim_words]
    kept = distinct(kept, sem.claim_dedupe)
    off_topic: list[str] = []
    if sem.relevance == "question":
        topic = Topic(question if isinstance(question, str) else "", title_text)
        covered = [topic.covers(c) for c in kept]
        off_topic = [c for c, ok in zip(kept, covered) if not ok]
        kept = [c for c, ok in zip(kept, covered) if ok]
    return (kept if sem.max_claims is None else kept[: sem.max_claims]), off_topic
