"""Offline decomposition and verification: no judge, deterministic, cheap.

Decompose: sentences, then clauses, minus questions, hedges, plans and fragments.
Verify: a claim is supported when one evidence passage holds nearly all its content
words and every number and name it states. Crude next to an NLI model or an LLM, but it never
calls out, and it is what the test judge server answers with.
"""

from __future__ import annotations

import functools
import re
from typing import Iterable

from retrieval.text import split_sentences
from reward_engine.offline.words import WORD, content_words, names, stem

_HEDGES = re.compile(
    r"\b(maybe|perhaps|possibly|might|i think|i believe|i guess|i recall|not sure|unsure|let me|let's|"
    r"i need to|i should|i will|i'll|we need|wait|hmm|probably|seems?|i'm|i am)\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r";\s+|,\s+(?:and|but|while|whereas)\s+|\s+but\s+")
_NUM = re.compile(r"\d+(?:[.,]\d+)*")
MIN_WORDS = 4


def decompose(reasoning: str) -> list[str]:
    """Atomic-ish claims from free text, in order, duplicates removed."""
    claims: list[str] = []
    for sentence in split_sentences(reasoning or ""):
        for clause in _CLAUSE.split(sentence):
            clause = clause.strip(" ,;:-")
            if not clause or clause.endswith("?") or _HEDGES.search(clause) or len(WORD.findall(clause)) < MIN_WORDS:
                continue
            claims.append(clause if clause[-1] in ".!" else clause + ".")
    return list(dict.fromkeys(claims))


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in _NUM.findall(text)}


@functools.lru_cache(maxsize=8192)
def _passage_features(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """A passage's content words and numbers: the same passages back many claims (pure, so memoised)."""
    return frozenset(content_words(text)), frozenset(_numbers(text))


def supported(claim: str, passages: Iterable[str], threshold: float = 0.75) -> bool:
    """True when one passage covers ``threshold`` of the claim's content words, all its numbers
    and all its names ("Lyon is the capital city of France" is not supported by a passage on
    Paris, though it covers three words in four)."""
    words = content_words(claim)
    numbers = _numbers(claim)
    claim_names = names(claim)
    if not words:
        return False
    for passage in passages:
        have, passage_numbers = _passage_features(passage)
        if numbers - passage_numbers or claim_names - have:
            continue
        if len(words & have) / len(words) >= threshold:
            return True
    return False


def contradicted(claim: str, passages: Iterable[str], threshold: float = 0.75) -> bool:
    """True when a passage is about what the claim is about (all its names, ``threshold`` of its other words)
    but gives other numbers than the claim's ("completed in 1901" against "completed in 1889"). The only
    contradiction these rules can see; an NLI model or an LLM finds the rest.

    >>> contradicted("The Eiffel Tower was completed in 1901.", ["The Eiffel Tower was completed in 1889."])
    True
    >>> contradicted("The Eiffel Tower was completed in 1889.", ["The Eiffel Tower was completed in 1889."])
    False
    """
    numbers = _numbers(claim)
    if not numbers:
        return False
    words = content_words(claim) - {stem(n) for n in numbers}
    claim_names = names(claim)
    for passage in passages:
        have, passage_numbers = _passage_features(passage)
        if not passage_numbers or numbers <= passage_numbers or claim_names - have:
            continue
        if words and len(words & have) / len(words) >= threshold:
            return True
    return False


_ASKING = frozenset("what which who whom whose when where how why name called named".split())


def answer_contradicted(question: str, response: str, passages: Iterable[str]) -> bool:
    """Binary RAR's question-and-response check without a model: True when evidence sentences answer the
    question (they hold all of its content words, or all but one of three or more) and none of them holds a
    content word of the response ("Lyon" for the capital of France against "Paris is the capital of
    France"), or when a claim of the response gives numbers the evidence contradicts (``contradicted``).

    >>> answer_contradicted("What is the capital of France?", "Lyon", ["Paris is the capital of France."])
    True
    >>> answer_contradicted("What is the capital of France?", "Paris", ["Paris is the capital of France."])
    False
    """
    from reward_engine.offline.reading import is_abstention

    if is_abstention(response):  # "I don't know" contradicts nothing
        return False
    passages = list(passages)
    if any(contradicted(claim, passages) for claim in decompose(response)):
        return True
    asked = content_words(question) - {stem(w) for w in _ASKING}
    said = content_words(response) - asked
    if not asked or not said:
        return False
    need = len(asked) - 1 if len(asked) >= 3 else len(asked)
    answering = [
        words
        for passage in passages
        for sentence in split_sentences(passage)
        if len((words := content_words(sentence)) & asked) >= need
    ]
    return bool(answering) and not any(words & said for words in answering)
