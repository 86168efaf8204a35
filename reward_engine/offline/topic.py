"""The words that tie a text to a question: its content words and names, without the generic ones.

Shared by the relevance filter (is a claim about the question?) and the offline reading of refusals (does what
follows "I don't know" say something new about what was asked?). Its own module, on ``words`` alone, so the
offline grader can use it without importing ``retrieval``.
"""

from __future__ import annotations

from reward_engine.offline import words
from reward_engine.offline.words import stem

# Question words and nouns so generic they tie any two sentences together (on top of the
# offline verifier's stop words).
_GENERIC = frozenset(
    stem(w)
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
    return {w for w in words.content_words(text) if w not in _GENERIC and (len(w) >= 3 or w.isdigit())}


def names(text: str) -> set[str]:
    """Capitalised words and numbers: the entities a text is about."""
    return (words.names(text) - _GENERIC) | {w for w in content_words(text) if w[:1].isdigit()}
