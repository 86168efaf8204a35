"""Is a claim about the question at all? Off-topic claims must not raise the fact score.

KnowRL's fact score is the share of supported claims with a length penalty for few
claims, so a policy can pad its reasoning with true but irrelevant facts ("Paris is in
France") and collect reward for a wrong answer. FActScore avoided this by verifying only
against the topic's own page; rows without a title search the whole KB, so here a claim
counts only when it names something the question or title names, or shares two content
words with them. Off-topic claims are left out of the score entirely (neither numerator nor denominator: counting
them in the denominator alone would still pay, through the length penalty, for padding
up to gamma claims) and are never sent to the verifier. So are echoes: a claim that says nothing the
question does not ("France has a capital.", "The question asks for the capital of France.") is true of every
answer and carries no knowledge (hostile pass 5).
"""

from __future__ import annotations

from reward_engine.offline.topic import content_words, names
from reward_engine.offline.words import content_words as all_content_words
from reward_engine.offline.words import stem

# Words that name no fact of their own: the kind of thing asked for, and talk about the question itself.
_GENERIC = frozenset(
    stem(w)
    for w in """question questions ask asks asked asking answer answers answered know known knowing sure think need
    recall remember wonder city town country place person people thing things name named called something someone
    one fact kind sort type""".split()
)

__all__ = ["Topic", "content_words", "names"]


class Topic:
    """What the question (and its title) is about."""

    def __init__(self, question: str | None, titles: str | None) -> None:
        text = f"{question or ''} {titles or ''}"
        self.words = content_words(text)
        self.names = names(text)
        self.said = (
            all_content_words(question or "") | _GENERIC
        )  # what an echo may repeat (the title may be the answer)

    def covers(self, claim: str) -> bool:
        """A shared name (France, 1889, Magic Flute), or two shared content words; no topic: all count.

        One shared common word is not enough: "Tokyo is the capital of Japan" shares only
        "capital" with "What is the capital of France?".
        """
        if not self.words:
            return True
        words = content_words(claim)
        return bool(words & self.names) or len(words & self.words) >= 2

    def echoes(self, claim: str) -> bool:
        """The claim's content words are all the question's (or generic): it restates what is asked.

        >>> topic = Topic("What is the capital of France?", "")
        >>> topic.echoes("France has a capital."), topic.echoes("The capital of France is a city.")
        (True, True)
        >>> topic.echoes("Paris is the capital of France."), topic.echoes("The capital is the largest city.")
        (False, False)
        """
        return bool(self.words) and not {w for w in all_content_words(claim) if len(w) > 2} - self.said
