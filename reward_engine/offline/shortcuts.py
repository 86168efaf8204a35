"""Judge-free verdicts of published rewards, reproduced by behaviour: KnowRL's June 2025 shortcuts (preset
``knowrl-june2025``) and TruthRL's abstention phrase (preset ``truthrl``).

Before calling its grader, that release scored an answer -1 when it read as a refusal
(phrases like "I cannot answer", "as an AI, I can't", "more information would be needed";
"I don't know" was *not* among them and went to the grader), and when the gold target has
no digit and the answer contains none of the gold's keywords (as substrings, stop words and
one-letter words left out). Both are rules, not judgements: cheap, and easy for a policy to
learn around, which is one reason the released reward dropped them.
"""

from __future__ import annotations

import re


def _any(words: str) -> str:
    return "(?:" + "|".join(re.escape(w) for w in words.split(",")) + ")"


_CANT = _any("cannot,can't,unable to")
_AS_AI_CANT = _any("cannot,can't,am unable to,must decline,am not able to,don't have,won't")
_REFUSALS = [
    rf"\b{_CANT}\s+{_any('answer,respond,provide,give,tell,assist,help')}\b",
    rf"\b{_any('i must,i have to,i will have to,i need to')}\b.*?\b{_any('decline,refuse,refrain from,abstain from')}"
    rf"\b\s+{_any('answering,responding,providing,giving')}\b",
    rf"\b{_any('as an ai,as a language model,as an assistant')},?\s+i\s+{_AS_AI_CANT}\b",
    rf"\b{_any('ethical,moral,legal')}\b.*?\b{_any('concerns,issues,considerations,limitations,constraints')}\b"
    rf".*?\b{_any('prevent,stop,preclude,prohibit,disallow')}\b",
    rf"\b{_any('would need more,need more,require more,need additional,require additional')}\s+"
    rf"{_any('information,details,context,specifics,clarification')}\s+to\s+{_any('answer,respond,provide,help,assist')}\b",
    rf"\b{_any('insufficient information,lack of information,lack of context,lack of details,not enough information,not enough context,too vague')}"  # noqa: E501
    rf"\s+to\s+{_any('answer,respond,provide,give,help,assist')}\b",
    rf"\b{_any('more,additional')}\s+{_any('information,context,details')}\s+would\s+be\s+{_any('needed,required,necessary')}\b",
]
_REFUSAL = re.compile("|".join(_REFUSALS), re.IGNORECASE)
_STOP = frozenset(
    "the a an and or but is are was were in on at to for with by about like from of that this these those it "
    "they he she we you i me my your our their".split()
)


def is_refusal(answer: str) -> bool:
    """June 2025's refusal phrases (an empty answer never reaches here: it has no answer at all).

    >>> is_refusal("As an AI, I cannot browse."), is_refusal("I don't know"), is_refusal("Paris")
    (True, False, False)
    """
    return not answer.strip() or _REFUSAL.search(answer) is not None


def misses_gold_keywords(answer: str, gold: str) -> bool:
    """True when the grader need not be asked: the gold has no digit and none of its keywords is in the answer.

    >>> misses_gold_keywords("Lyon", "Paris"), misses_gold_keywords("Paris, France", "Paris"), \
misses_gold_keywords("1066", "1066")
    (True, False, False)
    """
    if not gold or re.search(r"\d", gold):
        return False
    low = answer.lower()
    keywords = {w.lower() for w in re.findall(r"\w+", gold) if w.lower() not in _STOP and len(w) > 1}
    return not any(word in low for word in keywords)


_ARTICLES = re.compile(r"\b(?:a|an|the)\b")


def says_i_dont_know(answer: str) -> bool:
    """TruthRL's abstention rule (``truthrl_qa.py``): the answer, lowercased with punctuation and articles
    removed, contains "i dont know". Nothing else abstains there: "I'm not sure" and "I do not know" go to
    the judge, which cannot call them right, so they score like a wrong answer.

    >>> says_i_dont_know("I don't know."), says_i_dont_know("Honestly, I DON'T KNOW"), says_i_dont_know("I do not know")
    (True, True, False)
    """
    low = "".join(c for c in answer.lower() if c.isalnum() or c.isspace())
    return "i dont know" in " ".join(_ARTICLES.sub(" ", low).split())
