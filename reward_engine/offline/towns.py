"""A town said with its US state ("Lebanon, Tennessee", "Lebanon, TN"): the state's postal code spelt out, and the
town put in another state or beside a compass word ("Portland, Oregon", "South Portland" for "Portland, Maine").

Hostile pass 34 and its review: "Lebanon, TN" was INCORRECT for "Lebanon, Tennessee", and a wrong state after the
right town was paid (the town alone was read). Only golds of the form "<town>, <state>" ask for these readings.
"""

from __future__ import annotations

import functools
import re

# the postal codes of the states, said after a city ("Lebanon, TN")
_STATE_CODES = """AL Alabama; AK Alaska; AZ Arizona; AR Arkansas; CA California; CO Colorado; CT Connecticut;
DE Delaware; FL Florida; GA Georgia; HI Hawaii; ID Idaho; IL Illinois; IN Indiana; IA Iowa; KS Kansas; KY Kentucky;
LA Louisiana;
ME Maine; MD Maryland; MA Massachusetts; MI Michigan; MN Minnesota; MS Mississippi; MO Missouri; MT Montana;
NE Nebraska; NV Nevada; NH New Hampshire; NJ New Jersey; NM New Mexico; NY New York; NC North Carolina;
ND North Dakota; OH Ohio; OK Oklahoma; OR Oregon; PA Pennsylvania; RI Rhode Island; SC South Carolina; SD South Dakota;
TN Tennessee; TX Texas; UT Utah; VT Vermont; VA Virginia; WA Washington; WV West Virginia; WI Wisconsin; WY Wyoming;
DC District of Columbia"""


@functools.cache
def state_codes() -> dict[str, str]:
    """US postal code -> the state's name ("TN" -> "Tennessee")."""
    return dict(item.strip().split(" ", 1) for item in _STATE_CODES.split(";"))


_AFTER_A_PLACE = re.compile(
    r"(?<=[a-z]),\s*(?P<code>[A-Z]\.?[A-Z]\.?)(?![\w.?!])|(?<=[a-z]),\s*(?P<dotted>[A-Z]\.[A-Z]\.)"
)


def state_gold(golds: list[str]) -> bool:
    """Whether a gold is a place said with its US state after a comma ("Lebanon, Tennessee")."""
    names = "|".join(re.escape(name) for name in state_codes().values())
    return any(re.search(rf",\s*(?:{names})\b", g) for g in golds)


def states_spelt(text: str) -> str:
    """A state's postal code after a place, spelt out: "Lebanon, TN" is the gold "Lebanon, Tennessee" (hostile pass
    34: INCORRECT); "Lebanon, KY" stays another Lebanon. Only the codes of states, only after a place and a comma,
    and not a question's "OK?".

    >>> states_spelt("**Lebanon, TN** (1969)"), states_spelt("Lebanon, KY"), states_spelt("Paris, OK?")
    ('**Lebanon, Tennessee** (1969)', 'Lebanon, Kentucky', 'Paris, OK?')
    """
    codes = state_codes()

    def spelt(found: re.Match[str]) -> str:
        code = (found["code"] or found["dotted"] or "").replace(".", "")
        return f", {codes[code]}" if code in codes else found[0]

    return _AFTER_A_PLACE.sub(spelt, text)


def _states_pattern() -> str:
    return "|".join(re.escape(name) for name in sorted(state_codes().values(), key=len, reverse=True))


def other_state(text: str, golds: list[str]) -> bool:
    """The gold's town put in another state ("Portland, Oregon" or "Portland, OR" for "Portland, Maine"), or in the
    gold's and another ("Lebanon, TN/KY"): the review of pass 34 found both paid, the town alone read.

    >>> other_state("Portland, OR", ["Portland, Maine"]), other_state("Portland, Maine, USA", ["Portland, Maine"])
    (True, False)
    >>> other_state("Lebanon, TN/KY", ["Lebanon, Tennessee"]), other_state("Lebanon, Tennessee", ["Lebanon, Tennessee"])
    (True, False)
    """
    states = _states_pattern()
    codes = state_codes()
    text = re.sub(r"\b([A-Z]{2})/([A-Z]{2})\b", lambda m: f"{codes.get(m[1], m[1])}/{codes.get(m[2], m[2])}", text)
    spelt = states_spelt(re.sub(r"(?<=[a-z])\s*/\s*(?=[A-Z])", ", ", text))
    for gold in golds:
        found = re.fullmatch(rf"\s*(?P<town>.+?),\s*(?P<state>{states})\s*", gold)
        if not found:
            continue
        named = re.findall(rf"(?i)\b{re.escape(found['town'])},\s*((?:{states})(?:,\s*(?:{states}))*)\b", spelt)
        for said in named:
            given = [s.strip().lower() for s in said.split(",")]
            if any(s != found["state"].lower() for s in given):
                return True
    return False


_COMPASS = r"(?:North|South|East|West|Northeast|Northwest|Southeast|Southwest|New|Upper|Lower)"


def another_town(text: str, golds: list[str]) -> bool:
    """A compass word the gold lacks before the gold's town: "South Portland, ME", "West Palm Beach" are other towns
    (the review of pass 34 found them paid, the gold's words all said).

    >>> another_town("South Portland, ME", ["Portland, Maine"]), another_town("Portland, ME", ["Portland, Maine"])
    (True, False)
    >>> another_town("South Portland", ["Portland"])  # a gold without its state: no town is known
    False
    """
    states = _states_pattern()
    for gold in golds:
        found = re.fullmatch(rf"\s*(?P<town>.+?),\s*(?:{states})\s*", gold)
        if found and re.search(rf"\b{_COMPASS}\s+{re.escape(found['town'])}\b", text):
            return True
    return False
