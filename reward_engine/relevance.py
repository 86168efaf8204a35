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

import re
import unicodedata

# Question words, function words and nouns so generic they tie any two sentences together.
_GENERIC = frozenset("""
a an the and or but nor not no yes of in on at to for from by with about as into onto over under
than then that this these those there here it its is are was were be been being am do does did
has have had having will would can could shall should may might must what which who whom whose
when where why how all any some each every both either neither many much more most few less least
one two first last also only very just such same other another own his her their our your my
he she they we you i me him them us name named called known city country year years people person
place thing type kind part largest biggest smallest highest lowest main famous following answer
question true false following located born died based made used
""".split())
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def content_words(text: str) -> set[str]:
    """Lower-cased, accent-folded words of 3+ characters (and all numbers), minus generic ones."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    words = set()
    for word in _WORD.findall(folded):
        if word in _GENERIC or (len(word) < 3 and not word.isdigit()):
            continue
        words.add(word[:-1] if len(word) > 4 and word.endswith("s") else word)  # crude plural folding
    return words


def names(text: str) -> set[str]:
    """Content words written capitalised or as numbers: the entities a text is about."""
    caps = " ".join(w for w in _WORD.findall(text) if w[:1].isupper() or w[:1].isdigit())
    return content_words(caps)


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
