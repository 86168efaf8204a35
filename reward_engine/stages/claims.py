"""Claim policy: which decomposed claims the fact score counts.

Distinct (repeating one fact must not count it twice), on topic (see ``relevance``), and
at most ``max_claims`` of them; off-topic claims are reported but never verified.
"""

from __future__ import annotations

import re
from typing import Sequence

from reward_engine.stages.relevance import Topic


def distinct(claims: Sequence[str]) -> list[str]:
    """Claims with case, spacing and punctuation ignored, first spelling kept.

    >>> distinct(["Paris is in France.", "paris is in  France", "Lyon is in France"])
    ['Paris is in France.', 'Lyon is in France']
    """
    seen: dict[str, str] = {}
    for claim in claims:
        seen.setdefault(" ".join(re.findall(r"\w+", claim.lower())), claim)
    return list(seen.values())


def select_claims(
    claims: Sequence[str], question: str | None, title_text: str, relevance: str = "question", max_claims: int = 24
) -> tuple[list[str], list[str]]:
    """(claims to verify, off-topic claims).

    >>> select_claims(["The Eiffel Tower is in Paris.", "Tokyo is the capital of Japan."],
    ...               "In which city is the Eiffel Tower?", "Eiffel Tower")
    (['The Eiffel Tower is in Paris.'], ['Tokyo is the capital of Japan.'])
    """
    kept = distinct(claims)
    off_topic: list[str] = []
    if relevance == "question":
        topic = Topic(question if isinstance(question, str) else "", title_text)
        covered = [topic.covers(c) for c in kept]
        off_topic = [c for c, ok in zip(kept, covered) if not ok]
        kept = [c for c, ok in zip(kept, covered) if ok]
    return kept[:max_claims], off_topic
