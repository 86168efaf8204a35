"""Is a claim about the question at all? Off-topic claims must not raise the fact score.

KnowRL's fact score is the share of supported claims with a length penalty for few
claims, so a policy can pad its reasoning with true but irrelevant facts ("Paris is in
France") and collect reward for a wrong answer. FActScore avoided this by verifying only
against the topic's own page; rows without a title search the whole KB, so here a claim
counts only when it names something the question or title names, or shares two content
words with them. Off-topic claims are left out of the score entirely (neither numerator nor denominator: counting
them in the denominator alone would still pay, through the length penalty, for padding
up to gamma claims) and are never sent to the verifier.
"""

from __future__ import annotations

from reward_engine.offline.topic import content_words, names

__all__ = ["Topic", "content_words", "names"]


class Topic:
    """What the question (and its title) is about."""

    def __init__(self, question: str | None, titles: str | None) -> None:
        text = f"{question or ''} {titles or ''}"
        self.words = content_words(text)
        self.names = names(text)

    def covers(self, claim: str) -> bool:
        """A shared name (France, 1889, Magic Flute), or two shared content words; no topic: all count.

        One shared common word is not enough: "Tokyo is the capital of Japan" shares only
        "capital" with "What is the capital of France?".
        """
        if not self.words:
            return True
        words = content_words(claim)
        return bool(words & self.names) or len(words & self.words) >= 2
