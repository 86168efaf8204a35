"""A town said with its US state ("Lebanon, Tennessee", "Lebanon, TN"): the state's postal code spelt out, and the
town put in another state or beside a compass word ("Portland, Oregon", "South Portland" for "Portland, Maine").

Hostile pass 34 and its review: "Lebanon, TN" was INCORRECT for "Lebanon, Tennessee", and a wrong state after the
right town was paid (the town alone was read). Only golds of the form "<town>, <state>" ask for these readings.
"""

from __future__ import annotations

import functools
import re

from reward_engine.offline import places
from reward_engine.offline.text_form import normalize

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
    return any(_after_a_comma().search(g) for g in golds)


@functools.cache
def _after_a_comma() -> re.Pattern[str]:
    return re.compile(rf",\s*(?:{_states_pattern()})\b")  # built once: every grade asks (the landing review)


@functools.lru_cache(maxsize=4096)
def _town_and_state(gold: str) -> re.Match[str] | None:
    """ "Lebanon, Tennessee": the town and the state of a gold of that form, else None."""
    return re.fullmatch(rf"\s*(?P<town>.+?),\s*(?P<state>{_states_pattern()})\s*", gold)


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


@functools.cache
def _states_pattern() -> str:
    return "|".join(re.escape(name) for name in sorted(state_codes().values(), key=len, reverse=True))


def other_state(text: str, golds: list[str]) -> bool:
    """The gold's town put in another state or country ("Portland, Oregon" or "Portland, OR" for "Portland, Maine",
    "York, England" for "York, Pennsylvania") or in the gold's and another ("Lebanon, TN/KY"): the review of pass 34
    found these paid, the town alone read. Each mention counts ("Portland, Maine -- actually, I think it's Portland,
    Oregon."), except one ruled out or named as a neighbour ("Portland, Maine (not Portland, Oregon)", "across the
    lagoon from West Palm Beach": the reviews of passes 35 and 36). Only the first place after the town says where it
    is ("Portland, Maine, New England" is one place).

    >>> other_state("Portland, OR", ["Portland, Maine"]), other_state("Portland, Maine, U.S.", ["Portland, Maine"])
    (True, False)
    >>> other_state("Lebanon, TN/KY", ["Lebanon, Tennessee"]), other_state("Lebanon, Tennessee", ["Lebanon, Tennessee"])
    (True, False)
    >>> other_state("Portland, Maine (not Portland, Oregon)", ["Portland, Maine"])
    False
    """

    states = _states_pattern()
    codes = state_codes()
    text = re.sub(r"\b([A-Z]{2})/([A-Z]{2})\b", lambda m: f"{codes.get(m[1], m[1])}/{codes.get(m[2], m[2])}", text)
    spelt = states_spelt(re.sub(r"(?<=[a-z])\s*/\s*(?=[A-Z])", ", ", text))
    for gold in golds:
        found = _town_and_state(gold)
        for mention in re.finditer(rf"(?i)\b{re.escape(found['town'])}\b", spelt) if found else ():
            if _SET_ASIDE.search(spelt[max(0, mention.start() - 40) : mention.start()]):
                continue
            named = re.match(r"((?:,\s*[A-Z][\w.'-]*(?:\s+(?:of\s+)?[A-Z][\w.'-]*)*)+)", spelt[mention.end() :])
            places_after = [p.strip().rstrip(".") for p in named[1].split(",")[1:]] if named else []
            for k, place in enumerate(places_after):
                if place.lower() == found["state"].lower() or place.replace(".", "") in _USA:
                    continue
                if re.fullmatch(states, place) or (k == 0 and places.level(place) >= places.REGION):
                    return True
                break  # a county, a region after the state: where the one place lies
    return False


# a mention set aside or named as a neighbour: "(not Portland, Oregon)", "across the lagoon from West Palm Beach"
_SET_ASIDE = re.compile(
    r"(?i)\b(?:not|rather than|instead of|unlike|next to|near|nearby|beside|opposite|neighbou?ring|confused with|"
    r"mistaken for|(?:far|away|way|miles|different|distinct|across(?: [a-z]+)*|coast) from)\b[^.;:!?]*$"
)
_USA = frozenset({"USA", "US", "United States", "America", "United States of America"})  # dots taken out
_COMPASS = r"(?:North|South|East|West|Northeast|Northwest|Southeast|Southwest|New|Upper|Lower)"


def another_town(text: str, golds: list[str]) -> bool:
    """A compass word the gold lacks before the gold's town where the answer first names it: "South Portland, ME",
    "West Palm Beach" are other towns (the review of pass 34 found them paid, the gold's words all said); "Palm
    Beach, Florida, across the lagoon from West Palm Beach" names the neighbour later (the review of pass 35).

    >>> another_town("South Portland, ME", ["Portland, Maine"]), another_town("Portland, ME", ["Portland, Maine"])
    (True, False)
    >>> another_town("South Portland", ["Portland"])  # a gold without its state: no town is known
    False
    """
    for gold in golds:
        found = _town_and_state(gold)
        pattern = rf"(?:\b(?P<compass>{_COMPASS})\s+)?\b{re.escape(found['town'])}\b" if found else None
        for mention in re.finditer(pattern, text) if pattern else ():
            if _SET_ASIDE.search(text[max(0, mention.start() - 40) : mention.start()]):
                continue
            if mention["compass"] and not found["town"].startswith(mention["compass"]):
                return True
    return False


_CITY_GOLD = re.compile(r"^\s*(?:the\s+)?(?P<name>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)\s+City\b")


def state_for_its_city(text: str, golds: list[str]) -> bool:
    """The answer names the state or country a city gold is named after, never the city: "Kansas" or "in Oklahoma"
    for Kansas City or Oklahoma City (an alias cut from the gold's words, paid right: noted in the note of stop 86).
    Not where the region's name is also the city's ("New York", "Mexico", "Panama": ``places.also_a_city``).

    >>> state_for_its_city("Kansas", ["Kansas City, Missouri"]), state_for_its_city("Kansas City", ["Kansas City"])
    (True, False)
    >>> state_for_its_city("New York", ["New York City"]), state_for_its_city("Paris", ["Kansas City"])
    (False, False)
    """
    found = [m for m in (_CITY_GOLD.match(g) for g in golds) if m]
    if not found or len(found) < len(golds):
        return False
    said = f" {normalize(text)} "
    for match in found:
        name = normalize(match["name"])
        if not places.level(name) or places.also_a_city(name):
            return False
        if f" {name} " not in said or f" {name} city " in said:
            return False
    return True


def outside_the_asked_state(text: str, golds: list[str], question: str | None) -> bool:
    """The gold town put in another state than the one the question places it in: "Montgomery County, Maryland."
    to "Where is the Air Force Base in Alabama?" (gold Montgomery; hostile pass 44: CORRECT). Only a question that
    says "in <State>", only the state said right after the gold's town (or its county).

    >>> q = "Where is the Air Force Base in Alabama?"
    >>> outside_the_asked_state("Montgomery County, Maryland.", ["Montgomery"], q)
    True
    >>> outside_the_asked_state("Montgomery, Alabama.", ["Montgomery"], q)
    False
    """
    # the state of what is asked, in the question's main clause: "Where is the Air Force Base in Alabama?", not
    # "Born in Mississippi, Elvis died in which city?" nor "Where did Truman Capote, who grew up in Alabama, die?"
    # (review 45); "Washington" may be the city
    main = re.split(r",", question or "", maxsplit=1)[0]
    if not re.match(r"(?i)\s*(?:where|what|which|in\s+which|in\s+what)\b", main):
        return False
    asked = re.search(rf"\bin\s+(?:the\s+state\s+of\s+)?({_states_pattern()})\b(?!\s+and\b)", main)
    if not asked or asked[1] == "Washington":
        return False
    spelt = states_spelt(text)
    for gold in golds:
        town = gold.split(",")[0].strip()
        if not town or re.fullmatch(_states_pattern(), town):
            continue
        pattern = rf"(?i)\b{re.escape(town)}(?:\s+(?:County|Parish|City|Township))?,\s*({_states_pattern()})\b"
        for found in re.finditer(pattern, spelt):
            if found[1].lower() != asked[1].lower():
                return True
    return False


def state_other_than_asked(after: str, question: str) -> bool:
    """The words after the gold's town put it in a US state other than the one the question names: "Charleston,
    South Carolina." for the capital of West Virginia (hostile pass 61: CORRECT, the town alone read).

    >>> q = "What is the capital of the US state of West Virginia?"
    >>> state_other_than_asked(", South Carolina.", q), state_other_than_asked(", West Virginia.", q)
    (True, False)
    >>> state_other_than_asked(", SC", q), state_other_than_asked(", South Carolina.", "What is Charleston?")
    (True, False)

    Only a state the asked place lies in ("the capital of", "which city in"), not one the question names for
    something else ("Born in Mississippi, Elvis died in which city?": review 45).

    >>> state_other_than_asked(", Tennessee.", "Born in Mississippi, Elvis Presley died in which city?")
    False
    """
    asked = {found["state"] for found in _asked_within().finditer(question or "")}
    if not asked:
        return False
    found = re.match(rf"\s*,\s*({_states_pattern()})\b", states_spelt(f"Town{after}")[4:])
    return found is not None and found[1] not in asked


@functools.cache
def _asked_within() -> re.Pattern[str]:
    """A state the asked place lies in: "the capital of (the US state of) Illinois", "which city in Ohio",
    "Ohio's capital"."""
    within = (
        r"(?i:\b(?:capital|city|town|county|seat|cities|towns)\s+(?:of|in)\s+"
        r"(?:the\s+(?:u\.?s\.?\s+)?state\s+of\s+)?)"
    )
    return re.compile(
        rf"(?:{within}|\b(?=(?:{_states_pattern()})['\u2019]s\s+(?i:capital|largest\s+city)\b))"
        rf"(?P<state>{_states_pattern()})\b"
    )
