"""A peer named with the title: "William Lamb, 2nd Viscount Melbourne" is also William Lamb, Viscount Melbourne and
Lord Melbourne; the ordinal numbers the title's holders, it is no figure to match.

Hostile pass 55: every short form was INCORRECT ("William Lamb.", "Lord Melbourne."), since the gold's "2nd" made it
a number the answer lacked. Another holder of the title ("The 1st Viscount Melbourne.") is another person.
"""

from __future__ import annotations

import re

from reward_engine.offline.answer_forms import ORDINAL_WORDS
from reward_engine.offline.words import stem

_ORDINAL = rf"(?:\d{{1,2}}(?:st|nd|rd|th)|{'|'.join(ORDINAL_WORDS)})"
_RANKS = r"(?:Baron|Baroness|Viscount|Viscountess|Earl|Countess|Marquess|Marquis|Marchioness|Duke|Duchess|Lord|Lady)"
_PEER = re.compile(
    rf"^(?P<name>[^,]+?),\s+(?:the\s+)?(?P<nth>{_ORDINAL})\s+(?P<rank>{_RANKS})\s+"
    rf"(?P<of>of\s+)?(?P<place>[A-Z][\w' -]+)$",
    re.IGNORECASE,
)
_LORD_OR_LADY = {
    "baroness": "Lady",
    "viscountess": "Lady",
    "countess": "Lady",
    "marchioness": "Lady",
    "duchess": "Lady",
}


def peer_names(gold: str) -> list[str]:
    """The peer's other names: the person's own name, the title without its ordinal, Lord (Lady) and the place.

    >>> peer_names("William Lamb, 2nd Viscount Melbourne")
    ['William Lamb', '2nd Viscount Melbourne', 'Viscount Melbourne', 'Lord Melbourne']
    >>> peer_names("Paris, France")
    []
    """
    found = _PEER.match(gold.strip())
    if found is None:
        return []
    rank, place = found["rank"].capitalize(), found["place"].strip()
    of = "of " if found["of"] else ""
    lord = _LORD_OR_LADY.get(rank.lower(), "Lord")  # "Lord Salisbury" for the Marquess of Salisbury (review 55)
    names = [found["name"].strip(), f"{found['nth']} {rank} {of}{place}", f"{rank} {of}{place}", f"{lord} {place}"]
    return list(dict.fromkeys(names))


def a_title(name: str) -> bool:
    """``name`` is a rank and a place ("Viscount Melbourne", "Lord of the Isles"): one name, not a word and a place.

    >>> a_title("Viscount Melbourne"), a_title("Boston College")
    (True, False)
    """
    return re.fullmatch(rf"(?i){_RANKS}\s+(?:of\s+)?[A-Z][\w' -]+", name.strip()) is not None


def another_holder(answer: str, gold: str) -> bool:
    """The answer gives the gold's title with another ordinal: another holder ("The 1st Viscount Melbourne.").

    >>> another_holder("The 1st Viscount Melbourne.", "William Lamb, 2nd Viscount Melbourne")
    True
    >>> another_holder("The second Viscount Melbourne.", "William Lamb, 2nd Viscount Melbourne")
    False
    >>> peer_names("Robert Gascoyne-Cecil, 3rd Marquess of Salisbury")[-1]
    'Lord Salisbury'

    """
    found = _PEER.match(gold.strip())
    if found is None or re.search(rf"(?i)\b{re.escape(found['name'].strip())}\b", answer):
        return False  # "William Lamb. His father was the 1st Viscount Melbourne.": the gold, then an aside
    said = [m["nth"] for m in re.finditer(rf"(?i)\b(?P<nth>{_ORDINAL})\s+{re.escape(found['rank'])}\b", answer)]
    # the gold's own holder beside another ("8th Earl Spencer; her brother is the 9th": review 55) is the gold
    return bool(said) and all(_number(n) != _number(found["nth"]) for n in said)


def _number(ordinal: str) -> int:
    digits = re.match(r"\d+", ordinal)
    if digits:
        return int(digits.group())
    words = [w.lower() for w in ORDINAL_WORDS]
    return words.index(ordinal.lower()) + 1 if ordinal.lower() in words else -1


def ranks_restated(claim: str, passage: str) -> set[str]:
    """The claim's rank words (stemmed, as ``names`` gives them) before a place the passage titles with some rank:
    "Lord Melbourne" where it says "2nd Viscount Melbourne" is the same peer, so "Lord" is no name it lacks.

    >>> ranks_restated("Named after Lord Melbourne.", "Named after William Lamb, 2nd Viscount Melbourne.")
    {'lord'}
    """
    out = set()
    for found in re.finditer(rf"\b({_RANKS})\s+(?:of\s+)?([A-Z][\w'-]+)", claim):
        if re.search(rf"\b{_RANKS}\s+(?:of\s+)?{re.escape(found[2])}\b", passage):
            out.add(stem(found[1]))
    return out
