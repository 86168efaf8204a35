"""Whether a claim's words are said together: in one sentence of the passage (with the name the sentence's pronoun
stands for and the passage's topic), not gathered from several.

Word coverage over a whole passage pays a claim built from the words of two facts: "Charlotte Brontë wrote
Wuthering Heights" where one sentence gives the novel to Emily Brontë and the next names Charlotte for Jane Eyre,
"Slavery was abolished by the Fourteenth Amendment" where the Thirteenth abolished it and the Fourteenth is
another sentence's (hostile pass 69: supported, every word in the passage).
"""

from __future__ import annotations

import functools
import re

from retrieval.text import split_sentences
from reward_engine.offline.polarity import claim_words
from reward_engine.offline.words import STOP, WORD, names, nfkc, stem

# a sentence that opens on a word standing for a name said before it: "He wrote ...", "Its summit is ..."
_STANDS_FOR = re.compile(r"^\W*(?:he|she|it|they|his|her|its|their|this|these|the\s+[a-z]+)\b", re.IGNORECASE)


def _subject(sentence: str) -> frozenset[str]:
    """The words of the name a sentence opens on (a run of capitalised words, small words between them, after
    small words only): what a pronoun after it may stand for ("Mount Everest", "Moments to Remember"; nothing of
    "Her elder sister Charlotte Brontë published ...")."""
    run: list[str] = []
    found = WORD.findall(nfkc(sentence))
    for i, word in enumerate(found):
        if word[:1].isupper() and word.lower() not in STOP:
            run.append(word)
        elif word.lower() in STOP and (not run or i + 1 < len(found) and found[i + 1][:1].isupper()):
            continue
        else:
            break
    return frozenset(stem(w) for w in run)


@functools.lru_cache(maxsize=8192)
def units(passage: str) -> tuple[frozenset[str], ...]:
    """Each sentence's words with those of the passage's topic (its first sentence's first name) and, where the
    sentence opens on a pronoun or "the <noun>", the first name of the sentence before."""
    sentences = split_sentences(passage)
    if not sentences:
        return ()
    topic = _subject(sentences[0])
    out = []
    for i, sentence in enumerate(sentences):
        words = set(claim_words(sentence)) | topic
        if i and _STANDS_FOR.match(sentence):
            words |= _subject(sentences[i - 1])
        for run in (run for before in sentences[:i] for run in _runs(before)):
            if len(run) > 1 and run[-1] in words:  # "Wren designed ..." after "Christopher Wren": the whole name
                words |= set(run)
        out.append(frozenset(words))
    return tuple(out)


def _runs(sentence: str) -> list[tuple[str, ...]]:
    """A sentence's names as runs of capitalised words (stemmed)."""
    found: list[tuple[str, ...]] = []
    run: list[str] = []
    for word in [*WORD.findall(nfkc(sentence)), ""]:
        if word[:1].isupper() and word.lower() not in STOP:
            run.append(stem(word))
        elif run:
            found.append(tuple(run))
            run = []
    return found


# an aside a claim sets off with commas: "Mozart, born in 1756, wrote ...": each part may come from its own sentence
_PIECE = re.compile(r"\s*[,;()]\s*")
_RULED_OUT = re.compile(r"(?i),\s*(?:and\s+|but\s+)?not\s+[^,]+,")  # "Paris, not Lyon, is ...": no name it says


def said_together(
    claim: str, words: set[str], named: set[str], passage: str, threshold: float, extra: frozenset[str] = frozenset()
) -> bool:
    """One sentence (``units``) holds ``threshold`` of the claim's ``words`` and every word of its names ``named``
    (both as the passage spells them), or each part of a claim with asides ("Mozart, born in 1756, wrote The Magic
    Flute") is so held with the claim's first name; ``extra``: words the claim may take from anywhere (a figure
    converted to the passage's unit)."""
    ruled_out = names(" ".join(_RULED_OUT.findall(claim))) - names(_RULED_OUT.sub(",", claim))
    if _held(words, named - ruled_out, passage, threshold, extra):
        return True
    pieces = [p for p in _PIECE.split(_RULED_OUT.sub(",", claim)) if claim_words(p)]
    if len(pieces) < 2:
        return False
    subject = _subject(claim)
    return all(_held(claim_words(p) | subject, (names(p) & named) | subject, passage, threshold, extra) for p in pieces)


def _held(words: set[str], named: set[str], passage: str, threshold: float, extra: frozenset[str]) -> bool:
    if not words:
        return False
    return any(
        named <= (have := unit | extra) and len(words & have) >= threshold * len(words) for unit in units(passage)
    )
