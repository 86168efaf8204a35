"""Claim policy: which decomposed claims the fact score counts.

KnowRL (FActScore's extraction): claims of at least 3 words, repeats differing only in
case counted once, all of them. ``knowrl-robust`` ignores spacing, punctuation, word order,
small words, discourse filler and attribution too ("Indeed, X.", "X, indeed." and "X, as everyone knows." are X
once: issue #74), leaves a supported claim that only restates another out of the fact score (``restatements``),
drops claims about something else and claims that only restate the question (see ``relevance``) and
verifies at most 24; those are reported but never verified. ``knowrl`` keeps FActScore's all: its judge
supports an echo ("France has a capital.") as it would any true sentence.
"""

from __future__ import annotations

import re
from typing import Sequence

from retrieval.text import split_sentences
from reward_engine.offline.words import STOP, content_words, stem
from reward_engine.semantics import Semantics
from reward_engine.stages.relevance import Topic

# Words and phrases that restate a claim without adding to it: one fact said again "indeed" is one fact.
_FILLER_PHRASES = re.compile(
    r"\b(?:of course|in fact|as a matter of fact|it is (?:(?:well |widely |generally )?known|true|a fact|certain|"
    r"clear|obvious|worth noting|important to note|confirmed|verified) that|needless to say|to be sure|once again|"
    r"as (?:i|we) (?:said|noted|mentioned|stated)|as (?:said|noted|mentioned|stated)(?: before| above| earlier)?|"
    r"(?:let me |to )?(?:repeat|reiterate)|in other words|that is to say|without (?:a|any) doubt|no doubt|"
    r"i (?:can )?confirm that)\b"
)
# Who vouches for a claim, not what it says: "as everyone knows", "according to the records", "film critics agree
# that", "it is a well-documented fact that" (hostile pass 41: ten fillers, three claims kept, 100x the reward). A
# frame's own words are never a negation or a number ("It is not true that X", "the 2010 census shows"), and
# "shows/says/believes that" introduce content, not a voucher (review 43).
_FREE = r"(?:(?!(?:not|no|never|nor|nobody|none|and|or|but)\b)[a-z][\w-]* )"  # "as a teacher and wrote": no frame
_VOUCHED = re.compile(
    r"\b(?:according to(?: the| its| their| most| many| some)? (?!\d)\w+"
    rf"|as (?:is |was )?{_FREE}{{0,3}}(?:knows?|known|notes?|noted|says|said|reports?|reported|agrees?|agreed|"
    r"confirms?|confirmed|recalls?|recalled|remembers?|relates?|related|tells?|told|writes?|wrote|stated|attests?|"
    r"observes?|observed|points? out|pointed out|acknowledges?|acknowledged|documented|recorded|established)"
    rf"|{_FREE}{{1,3}}(?:agree|agrees|concur|concurs|note|notes|confirm|confirms|attest|attests|acknowledge|"
    r"acknowledges|recognize|recognizes) that"
    rf"|it is (?:a |an )?{_FREE}{{0,3}}(?:fact|known|documented|established|accepted|agreed|recorded|true|clear|"
    r"certain|undeniable|reported|said|understood|acknowledged|recognized)(?: fact)? that"
    r"|famously|reportedly|historically|evidently|apparently|unquestionably|undeniably|admittedly|interestingly|"
    r"significantly|remarkably|of note)\b"
)
_FILLER_WORDS = frozenset(
    """indeed actually really certainly definitely clearly obviously truly surely undoubtedly basically essentially
    honestly literally simply again also yes well so thus therefore hence anyway furthermore moreover additionally
    notably importantly note remember recall""".split()
)
_KEEP = frozenset("not no never nor".split())  # a negation is never filler: "X is not Y" is another claim


def claim_key(claim: str, how: str = "words") -> str:
    """What two claims must share to be one: ``case``, the text without case (FActScore); ``words``, its words
    without case, punctuation, order, small words or discourse filler.

    >>> claim_key("Indeed, Paris is the capital of France.") == claim_key("The capital of France is Paris, indeed")
    True
    >>> claim_key("Paris is not the capital of France.") == claim_key("Paris is the capital of France.")
    False
    """
    if how == "case":
        return claim.strip().lower()
    text = _VOUCHED.sub(" ", _FILLER_PHRASES.sub(" ", " ".join(re.findall(r"\w+", claim.lower()))))
    words = [w for w in text.split() if len(w) > 1 or w.isdigit()]  # "France's": the "s" is no word
    kept = {stem(w) for w in words if w not in _FILLER_WORDS and (w not in STOP or w in _KEEP)}
    return " ".join(sorted(kept))


def distinct(claims: Sequence[str], how: str = "words") -> list[str]:
    """Claims once each, first spelling kept (see ``claim_key``). ``case``: FActScore's rule (case ignored);
    ``words``: case, spacing, punctuation, word order, small words and filler ignored.

    >>> distinct(["Paris is in France.", "paris is in  France", "Lyon is in France"])
    ['Paris is in France.', 'Lyon is in France']
    >>> distinct(["Paris is in France.", "paris is in France."], "case")
    ['Paris is in France.']
    >>> distinct(["Paris is in France.", "Paris is in France, indeed.", "Indeed, Paris is in France."])
    ['Paris is in France.']
    >>> distinct(["France's capital is Paris.", "The capital city of France is Paris.",
    ...           "Paris is the largest city of France."])
    ["France's capital is Paris.", 'Paris is the largest city of France.']
    """
    seen: dict[str, str] = {}
    for claim in claims:
        key = claim_key(claim, how)
        if key in seen or (how == "words" and any(_reworded(key, other) for other in seen)):
            continue
        seen[key] = claim
    return list(seen.values())


def _reworded(key: str, other: str) -> bool:
    """Two ``words`` keys one word apart, sharing three or more, the word neither a number nor a negation: the
    same fact said again in other words ("The capital city of France is Paris" after "France's capital is
    Paris"; hostile pass 8: four rewordings of one fact counted as four supported claims). (A key holding all of
    another's and up to three words more merged distinct facts, "... in Liverpool" and "... in Liverpool by John
    Lennon": review 43.)"""
    a, b = set(key.split()), set(other.split())
    apart = a ^ b
    return len(a & b) >= 3 and len(apart) <= 1 and not any(w.isdigit() or w in _KEEP for w in apart)


def restatements(claims: Sequence[str], flags: Sequence[bool], evidence: Sequence[Sequence[str]]) -> list[bool]:
    """Which supported claims only restate another: ``claim_dedupe: words`` counts a supported claim when it says
    a word of its evidence sentence (the one sharing most words with it) that no larger supported claim on that
    sentence said. Paraphrases and weakenings of one fact hold no such word ("The state of California received
    Hearst Castle as a donation in 1957." after "Hearst Castle was donated to the state of California in 1957.";
    "Orr was the bassist." after "Benjamin Orr was the bassist of The Cars."): hostile passes 42 and 43 found
    seven of them counted as up to five claims, 60-100x the reward of the fact said once. Two facts of one sentence
    each hold words of their own; larger claims are read first, so the order of the padding does not matter. A
    claim shares at least half of its words with the sentence it restates (a claim about something else is the
    verifier's and grounding's to judge).
    ``evidence``: each claim's passages' texts.

    >>> page = ["Benjamin Orr was the bassist and a lead singer of The Cars. He died on October 3, 2000."]
    >>> restatements(["Orr was the bassist.", "Benjamin Orr was the bassist of The Cars.",
    ...               "Benjamin Orr was a lead singer of The Cars.", "Orr died on October 3, 2000."],
    ...              [True, True, True, True], [page] * 4)
    [True, False, False, False]
    """
    found: list[tuple[str, frozenset[str]] | None] = []
    read: dict[tuple[str, ...], list[tuple[str, frozenset[str]]]] = {}  # claims share their title's passages
    for claim, ok, passages in zip(claims, flags, evidence):
        if not ok:
            found.append(None)
            continue
        words = content_words(claim)
        key = tuple(passages)
        if key not in read:
            read[key] = [sentence for text in key for sentence in _sentences(text)]
        best = max(
            ((len(words & held), sentence, held) for sentence, held in read[key]),
            key=lambda hit: hit[0],
            default=(0, "", frozenset()),
        )
        # a claim the sentence holds half of is about it; one it barely touches is no restatement of it
        found.append((best[1], frozenset(words & best[2])) if best[0] and 2 * best[0] >= len(words) else None)
    said: dict[str, set[str]] = {}
    out = [False] * len(claims)
    for i in sorted((i for i, hit in enumerate(found) if hit), key=lambda i: -len(found[i][1])):  # type: ignore[index]
        sentence, words = found[i]  # type: ignore[misc]
        out[i] = words <= said.get(sentence, set())
        said.setdefault(sentence, set()).update(words)
    return out


def _sentences(text: str) -> list[tuple[str, frozenset[str]]]:
    """A passage's sentences with their words; one opening with a pronoun also holds the words of the sentence
    before it ("It was donated ... in 1957" is about the Hearst Castle of the sentence before)."""
    out: list[tuple[str, frozenset[str]]] = []
    before: frozenset[str] = frozenset()
    for sentence in split_sentences(text):
        words = frozenset(content_words(sentence))
        out.append((sentence, words | before if _PRONOUN.match(sentence) else words))
        before = words
    return out


_PRONOUN = re.compile(r"(?i)\s*(?:it|its|he|his|she|her|they|their|this|these)\b")


def select_claims(
    claims: Sequence[str], question: str | None, title_text: str, sem: Semantics
) -> tuple[list[str], list[str]]:
    """(claims to verify, claims left out: off-topic or an echo of the question).

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
        covered = [topic.covers(c) and not topic.echoes(c) for c in kept]
        off_topic = [c for c, ok in zip(kept, covered) if not ok]
        kept = [c for c, ok in zip(kept, covered) if ok]
    return (kept if sem.max_claims is None else kept[: sem.max_claims]), off_topic
