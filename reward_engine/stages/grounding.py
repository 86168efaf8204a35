"""Is a supported claim's support about the question's topic? An LLM verifier's SUPPORTED must be grounded there.

A policy can prefix true facts about anything with a word of the question ("Magic Flute note: Mount Everest is
the highest mountain"): the relevance filter keeps them (they name the topic), a title-less row's global search
finds the Everest passage, and a language-model verifier calls them SUPPORTED (the local 1.5B did, and it knows
the fact anyway). FActScore avoided this by verifying against the topic's own page. Here a supported claim keeps
its support only when at least half of its content words beyond the question's and title's occur in the topic's
evidence: the title's passages the verifier saw, or, for a row without a title, the passages retrieved for the
question itself that name its topic. An ungrounded claim counts as unsupported, never as off-topic: dropping
it would remove its weight from the denominator and so pay for it (``fact_rule``), while counting it
unsupported can only lower a score.

A judge that extracts the claims (fused mode, an LLM decomposer) can also write one of its own: for a completion
naming Beethoven the local 1.5B returned "The Magic Flute is composed by Wolfgang Amadeus Mozart", supported. A
supported claim therefore also needs its names (capitalised words, numbers) in what the completion or the
question said (``stated``).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from retrieval.kb import Passage
from reward_engine.stages.relevance import Topic, content_words, names


def _words(passage: Passage) -> set[str]:
    return content_words(f"{passage.title} {passage.text}")


def evidence_words(passages: Iterable[Passage], topic: Topic | None = None) -> frozenset[str]:
    """The content words of some passages, their titles included; with ``topic``, only of the passages that share
    a content word with it (a search always returns its top k, and in a small KB those can be about anything)."""
    found: set[str] = set()
    for p in passages:
        words = _words(p)
        if topic is None or words & topic.words:
            found |= words
    return frozenset(found)


def keep_supported(
    flags: Sequence[bool],
    claims: Sequence[str],
    evidence: Sequence[Sequence[Passage]],
    reasoning: str,
    topic: Topic,
    search_hits: bool = False,
) -> list[bool]:
    """The verifier's flags with a supported claim kept only when ``stated`` and ``grounded``; ``evidence``: each
    claim's topic evidence (``search_hits``: a search's hits, of which only those naming the topic count)."""
    said = said_words(reasoning, topic)
    words: dict[tuple[int, ...], frozenset[str]] = {}
    out = []
    for claim, ok, passages in zip(claims, flags, evidence):
        ids = tuple(p.id for p in passages)
        if ok and ids not in words:
            words[ids] = evidence_words(passages, topic if search_hits else None)
        out.append(bool(ok) and stated(claim, said) and grounded(claim, topic, words[ids]))
    return out


def grounded(claim: str, topic: Topic, words: frozenset[str]) -> bool:
    """At least half of the claim's content words beyond the topic's occur in ``words``; a claim that only
    restates the topic's own words is grounded.

    >>> from retrieval.kb import Passage
    >>> topic = Topic("Who composed The Magic Flute?", "")
    >>> page = evidence_words([Passage(1, "The Magic Flute", "An opera by Mozart, premiered in Vienna in 1791.")])
    >>> grounded("Mozart composed The Magic Flute in 1791.", topic, page)
    True
    >>> grounded("Magic Flute note: Mount Everest is the highest mountain above sea level.", topic, page)
    False
    """
    extra = content_words(claim) - topic.words
    return not extra or 2 * len(extra & words) >= len(extra)


def said_words(reasoning: str, topic: Topic) -> frozenset[str]:
    """Every name and content word of the reasoning and the question/title: what a claim may be built from."""
    return frozenset(names(reasoning) | content_words(reasoning) | topic.words | topic.names)


def stated(claim: str, said: frozenset[str]) -> bool:
    """The claim's names all occur in ``said`` (``said_words``): the completion's claim, not the judge's.

    >>> topic = Topic("Who composed The Magic Flute?", "")
    >>> said = said_words("Beethoven composed The Magic Flute in Vienna.", topic)
    >>> stated("The Magic Flute is composed by Wolfgang Amadeus Mozart", said), stated("Beethoven wrote it.", said)
    (False, True)
    """
    return names(claim) <= said
