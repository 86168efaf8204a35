"""Parallel parts of one sentence: a pair of words ("western" and "eastern", "absorb" and "release"), each with
its own filler. A claim or answer that gives one word the other's filler is turned round however many words it
shares: every word of "The western terminus is Vladivostok" stands in "its western terminus is Moscow and its
eastern terminus is Vladivostok" (hostile pass 69).
"""

from __future__ import annotations

from reward_engine.offline.words import STOP, WORD, nfkc, stem


def _form(word: str) -> str:
    """One form of a word's inflections: "release", "released" and "releases" are "releas"; "emitted" is "emit"."""
    found = stem(word.lower())
    found = found[:-1] if found.endswith("e") and len(found) >= 5 else found
    return found[:-1] if len(found) > 3 and found[-1] == found[-2] and found[-1] not in "aeiouls" else found


def _stems(text: str) -> list[str]:
    return [_form(w) for w in WORD.findall(nfkc(text))]


# words that set up two parallel parts of a sentence, each with its own filler: "its western terminus is Moscow and
# its eastern terminus is Vladivostok", "plants absorb carbon dioxide ... and release oxygen"
_PARALLEL_PAIRS = (
    "western eastern, northern southern, west east, north south, upper lower, inner outer, left right, male female, "
    "first last, front back, absorb release, absorb emit, inhale exhale, import export, buy sell, gain lose, "
    "win lose, enter leave, produce consume, receive send, attack defend, home away, minimum maximum, lowest highest"
)


def _paired(text: str) -> dict[str, frozenset[str]]:
    """Each word's form of ``text``'s pairs ("western eastern, ...") with its partners."""
    pairs = [tuple(_form(w) for w in pair.split()) for pair in text.split(", ")]
    return {w: frozenset(b if w == a else a for a, b in pairs if w in (a, b)) for pair in pairs for w in pair}


_PARALLEL = _paired(_PARALLEL_PAIRS)


def _set_aside(words: list[str], at: int) -> bool:
    """``words[at]`` follows "not" (an article between): "the male, not the female"."""
    before = [w for w in words[max(0, at - 3) : at] if w not in ("the", "a", "an")]
    return bool(before) and before[-1] == "not"


def gold_given_the_other(question: str, answer: str, gold: str) -> bool:
    """The answer gives the gold to the other word of the question's parallel pair: "plants absorb oxygen ... and
    release carbon dioxide" to which gas plants absorb, gold carbon dioxide (hostile pass 69: CORRECT).

    >>> asked = "Which gas do plants absorb?"
    >>> gold_given_the_other(asked, "They absorb oxygen and release carbon dioxide.", "carbon dioxide")
    True
    >>> gold_given_the_other(asked, "They absorb carbon dioxide and release oxygen.", "carbon dioxide")
    False
    """
    asked, said, wanted = set(_stems(question)), _stems(answer), set(_stems(gold)) - STOP
    for word in asked & set(said):
        for other in _PARALLEL.get(word, ()):
            if other in asked or other not in said:
                continue
            mine, theirs = said.index(word), said.index(other)
            own = set(said[mine + 1 : theirs if theirs > mine else None])
            others = set(said[theirs + 1 : mine if mine > theirs else None])
            if wanted and wanted <= others and not wanted & own:
                return True
    return False


def filler_of_the_other(claim: str, sentence: str) -> bool:
    """The claim gives one of a pair of parallel words ("western", "absorb") what the sentence gives the other:
    "The western terminus ... is Vladivostok" where "its western terminus is Moscow and its eastern terminus is
    Vladivostok"; "Plants absorb oxygen" where they "absorb carbon dioxide ... and release oxygen" (hostile pass 69:
    supported, one sentence holding every word). Read after the word in both: "Lyon lies south of Paris" restates
    "Paris lies north of Lyon".

    >>> s = "Its western terminus is Moscow and its eastern terminus is Vladivostok."
    >>> filler_of_the_other("The western terminus is Vladivostok.", s)
    True
    >>> filler_of_the_other("The western terminus is Moscow.", s)
    False
    """
    said, there = _stems(claim), _stems(sentence)
    for at, word in enumerate(said):
        for other in _PARALLEL.get(word, ()):
            if word not in there or other not in there:
                continue
            mine, theirs = there.index(word), there.index(other)
            if _set_aside(there, theirs):
                continue  # "it is the male, not the female, that incubates the egg": no part of its own
            own = set(there[mine + 1 : theirs if theirs > mine else None])
            others = set(there[theirs + 1 : mine if mine > theirs else None])
            cut = next((i for i in range(at + 1, len(said)) if said[i] == other), None)
            after = set(said[at + 1 : cut]) - STOP  # up to the claim's own other word: its own filler
            if after & (others - own - STOP - {word, other}):
                return True
    return False
