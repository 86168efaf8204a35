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
# a name that owns what follows it ("Jane Austen's novel", "Frank's neighbour"): whose, not what a claim says of it
_POSSESSOR = re.compile(r"\b[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*['\u2019]s\b")
_PERSON_OPENER = re.compile(r"^\W*(?:he|she|his|her|him)\b", re.IGNORECASE)
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
def units(passage: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Each sentence's own words, and those with the names it stands for: the passage's topic (its first
    sentence's first name), where the sentence opens on a pronoun or "the <noun>" the first name of the sentence
    before, and a family name's whole name said before ("Wren" after "Christopher Wren")."""
    sentences = split_sentences(passage)
    if not sentences:
        return ()
    topic = _subject(sentences[0])
    out = []
    for i, sentence in enumerate(sentences):
        own = frozenset(claim_words(sentence))
        words = set(own)
        if i and _PERSON_OPENER.match(sentence):  # "He wrote ...", "Her father ...": a person named before
            words |= _person(sentences[i - 1]) or topic
        else:
            words |= topic
            if i and _STANDS_FOR.match(sentence):
                words |= _subject(sentences[i - 1])
        named_here = {w for run in _runs(sentence) for w in run}  # capitalised: "the sonata's" names no Sonata
        for run in (run for before in sentences[:i] for run in _runs(before)):
            if len(run) > 1 and run[-1] in named_here:  # "Wren designed ..." after "Christopher Wren": the whole name
                words |= set(run)
        out.append((own, frozenset(words)))
    return tuple(out)


_BY_NAME = re.compile(r"\bby\s+((?:[A-Z][\w'-]*\s+)*[A-Z][\w'-]*)")


def _person(sentence: str) -> frozenset[str]:
    """Whom "he" or "her" after ``sentence`` stands for: the name it gives a work to ("Little Women is a novel by
    Louisa May Alcott": not the novel), else the name it opens on ("Barack Obama served as ..."); none for a
    sentence that opens on a pronoun itself (the topic then)."""
    found = _BY_NAME.search(sentence)
    if found and len(found[1].split()) > 1:
        return frozenset(stem(w) for w in found[1].split())
    return _subject(sentence)


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
    owners = names(" ".join(_POSSESSOR.findall(claim)))  # "Jane Austen's novel ... follows ...": whose, said anywhere
    if _held(words, named - ruled_out - owners, passage, threshold, extra):
        return True
    joined = _JOINED_NAMES.search(claim)  # "Dickens wrote Oliver Twist and A Christmas Carol": each its own
    if joined:
        sides = [claim[: joined.start()] + joined[side] + claim[joined.end() :] for side in ("a", "b")]
        if all(
            said_together(side, claim_words(side), names(side) & named, passage, threshold, extra) for side in sides
        ):
            return True
    pieces = [p for p in _PIECE.split(_RULED_OUT.sub(",", claim)) if claim_words(p)]
    if len(pieces) < 2:
        return False
    subject, held = _subject(claim), []
    for i, piece in enumerate(pieces):
        # "..., which follows Elizabeth Bennet": of the name before it, not of the claim's first
        about = _last_run(pieces[i - 1]) if i and _RELATIVE.match(piece) else subject
        held.append(_held(claim_words(piece) | about, (names(piece) & named) | about, passage, threshold, extra))
    return all(held)


_JOINED_NAMES = re.compile(
    r"(?P<a>(?:[A-Z][\w'-]*\s+)*[A-Z][\w'-]*)\s+and\s+(?P<b>(?:(?:A|An|The)\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)"
)
_RELATIVE = re.compile(r"(?i)^\W*(?:which|who|whose|that|where)\b")


def _last_run(text: str) -> frozenset[str]:
    runs = _runs(text)
    return frozenset(runs[-1]) if runs else frozenset()


def _held(words: set[str], named: set[str], passage: str, threshold: float, extra: frozenset[str]) -> bool:
    if not words:
        return False
    return any(
        named <= (have := whole | extra) and len(words & have) >= threshold * len(words) for _, whole in units(passage)
    )


# a response's clauses: not after an initial or a short title ("Donald A. Hall", "St. Louis")
_RESPONSE_CLAUSES = re.compile(
    r"(?<!\b[A-Z])(?<!\b(?:St|Mr|Dr|Jr|Sr|No|Mt))[.;!?]\s+|;|,\s*(?=(?:who|which|where|while|whereas|and|but)\b)"
)


def named_apart(
    asked: set[str],
    response: str,
    passages: list[str],
    threshold: float = 0.75,
    asked_names: frozenset[str] = frozenset(),
) -> bool:
    """A clause of the response that says the question's words puts forward a name the passages hold only apart
    from them, where a sentence holds the question's words with other names: "Jaws (1975) was directed by John
    Williams, who ..." where the film is "directed by Steven Spielberg" and "Its score ... was composed by John
    Williams" (hostile pass 69: not contradicted; the composer is in the passage). A name in a clause that leaves
    the question's words out is detail ("...; its score was by John Williams"). A sentence answers with every name
    the question asks of (``asked_names``): "Perseus, another Greek hero, killed the Gorgon" does not answer who
    killed the Minotaur."""
    if not asked:
        return False
    every = [(own, whole) for passage in passages for own, whole in units(passage)]
    found = [(own, whole) for own, whole in every if asked_names <= whole]
    all_units = [whole for _, whole in found]
    need = len(asked) - 1 if len(asked) >= 3 else len(asked)  # all the question's words but one of three or more
    if not any(len(asked & unit) >= need for unit in all_units):
        return False  # no sentence answers: nothing to say it is another's
    deed = asked - asked_names  # said by the sentence itself: "the interiors were completed by a team led by Peter
    # Hall" names the Opera House only as the passage's topic, and designs nothing (hostile pass 71)
    deed = {w.rstrip("e") for w in deed}  # "voice" is the passage's "voic" (its stem of "voices")
    answering = [
        whole
        for own, whole in found
        if len(asked & whole) >= need and 2 * len(deed & {w.rstrip("e") for w in own}) >= len(deed)
    ]
    for clause in _RESPONSE_CLAUSES.split(response):
        said = asked & claim_words(clause)
        if not said or len(said) < threshold * len(asked & claim_words(response)):
            continue
        put = [set(run) - asked for run in _runs(_POSSESSOR.sub(" ", clause))]  # "Frank's neighbour": no name put
        put = [name for name in put if name and any(name <= whole for _, whole in every)]  # not the question's own
        # the clause's first name is its answer: "Perseus killed the Minotaur in the Labyrinth of Crete" puts
        # Perseus forward, the Labyrinth is where; "Steven Spielberg directed Jaws, based on the novel by Peter
        # Benchley" puts Spielberg forward, Benchley is detail
        if put and not any(put[0] <= unit for unit in answering):
            return True
    return False
