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

from reward_engine.offline import facts as offline_facts

# Question words and nouns so generic they tie any two sentences together (on top of the
# offline verifier's stop words).
_GENERIC = frozenset(
    offline_facts.stem(w)
    for w in """
yes nor onto about then here am do does did having will would can could shall should may might must
why all every both either neither many much few less least one two first last only just same
another own our your my we you i me him them us name named called known city country year years
people person place thing type kind part largest biggest smallest highest lowest main famous
following answer question true false located born died based made used
""".split()
)


def content_words(text: str) -> set[str]:
    """The offline verifier's content words (stemmed, accent-folded), minus generic ones and
    words under 3 characters (numbers stay)."""
    return {w for w in offline_facts.content_words(text) if w not in _GENERIC and (len(w) >= 3 or w.isdigit())}


def names(text: str) -> set[str]:
    """Capitalised words and numbers: the entities a text is about."""
    return (offline_facts.names(text) - _GENERIC) | {w for w in content_words(text) if w[:1].isdigit()}


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
