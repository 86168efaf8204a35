"""A comparison the evidence's superlative settles: "Saturn is larger than Jupiter" against "Jupiter is the largest
planet" (hostile pass 16, issue #74). No sentence holds the claim's words, so the word-overlap rules of ``facts``
never see it; the superlative names the one thing nothing is larger than.
"""

from __future__ import annotations

import re

from reward_engine.offline.text_form import normalize

_SUPERLATIVE_OF = {
    "larger": "largest", "bigger": "largest", "smaller": "smallest", "higher": "highest", "taller": "highest",
    "lower": "lowest", "longer": "longest", "shorter": "shortest", "older": "oldest", "younger": "youngest",
    "deeper": "deepest", "hotter": "hottest", "colder": "coldest", "heavier": "heaviest", "lighter": "lightest",
    "faster": "fastest", "slower": "slowest", "brighter": "brightest", "richer": "richest",
    "more populous": "most populous", "less populous": "least populous",
}  # fmt: skip
_OPPOSITE = {
    "largest": "smallest", "highest": "lowest", "longest": "shortest", "oldest": "youngest", "hottest": "coldest",
    "heaviest": "lightest", "fastest": "slowest", "most populous": "least populous",
}  # fmt: skip
_OPPOSITE |= {v: k for k, v in _OPPOSITE.items()}
_SAME = {"biggest": "largest", "tallest": "highest"}
# any other comparative: "saltier", "more saline", "less salty" (hostile pass 44: "The Dead Sea is less salty than the
# Red Sea." was CORRECT for the saltier Dead Sea); not "rather than", "other than"
_ANY_COMP = (
    r"(?:more|less)\s+(?!than\b)[a-z]{3,}|(?!(?:rather|other|either|neither|whether|ever|never)\b)[a-z]{2,}(?:ier|er)"
)
_COMP = "|".join([*_SUPERLATIVE_OF, _ANY_COMP])


def _superlative(comp: str) -> str:
    """The dimension a comparative ranks by, as the superlative ``_SUPERLATIVE_OF`` names ("larger": "largest"), or
    for another adjective its base with a sign: "saltier" and "more salty" "+salty", "less salty" "-salty".

    >>> _superlative("Larger"), _superlative("saltier"), _superlative("less  salty"), _superlative("wetter")
    ('largest', '+salty', '-salty', '+wet')
    """
    comp = " ".join(comp.lower().split())
    if comp in _SUPERLATIVE_OF:
        return _SUPERLATIVE_OF[comp]
    if comp.startswith(("more ", "less ")):
        sign, adjective = "+" if comp[0] == "m" else "-", comp[5:]
    else:
        sign, adjective = "+", comp[:-3] + "y" if comp.endswith("ier") else comp[:-2]
    adjective = adjective.rstrip("e")
    if len(adjective) > 2 and adjective[-1] == adjective[-2]:
        adjective = adjective[:-1]  # "wetter": wet
    return sign + adjective


def _opposite(superlative: str) -> str | None:
    if superlative[:1] in "+-":
        return ("-" if superlative[0] == "+" else "+") + superlative[1:]
    return _OPPOSITE.get(superlative)


_NAME = r"[A-Z][\w'-]*(?:\s+(?:of\s+)?[A-Z][\w'-]*)*"
_COMPARISON = (
    rf"(?:The\s+)?(?P<a>{_NAME})\s+(?:is|was|are|were)(?P<neg>n['\u2019]t|\s+not)?\s+"
    rf"(?P<degree>much\s+|far\s+|slightly\s+|a\s+bit\s+|any\s+)?(?P<comp>{_COMP})\s+than\s+"
    rf"(?:the\s+)?(?P<b>{_NAME})(?P<rest>[^.;!?]*)"
)
_COMPARED = re.compile(rf"^\W*{_COMPARISON}")  # a claim that is one comparison
# comparisons inside a passage ("..., the Dead Sea is far saltier than the Red Sea": hostile pass 44)
_COMPARES = re.compile(rf"(?:^|(?<=[\s(]))(?<![a-z] )(?:the\s+)?{_COMPARISON}")
_HOLDS = re.compile(
    # "Jupiter is the largest planet", "Jupiter is the fifth planet from the Sun and the largest" (not "Mars is
    # smaller than the largest planet")
    rf"(?P<name>{_NAME})\s+(?:is|was|are|were|remains)\s+(?:(?!\bthan\b)[^.;!?,])*?\bthe\s+"
    rf"(?P<sup>{'|'.join(sorted({*_OPPOSITE, *_SAME}, key=len, reverse=True))})\b"
    r"(?P<scope>(?:\s+[\w-]+)?\s+(?:in|of|on|among|within)\s+(?!%s)[\w\s'-]+)?"
    r"(?P<rest>[^.;!?]*)"
    % r"(?i:the\s+)?(?i:world|universe|known\s+universe|solar\s+system|galaxy|milky\s+way|earth)\b"
)  # a scope that holds everything a claim could compare with ("in the Solar System") is no limit (hostile pass 19)
# a superlative qualified so it ranks by something else ("the largest moon relative to the size of its planet")
_QUALIFIED = re.compile(
    r"(?i)\b(?:relative to|compared (?:to|with)|in proportion|proportionally|per capita|for (?:its|their|a|an)\b|"
    r"in terms of|by (?!far\b)[a-z]|in relation to)"
)
# what makes a comparison hold on one measure only, or turns it: "larger than Canada by population, but ...",
# "larger than Texas in population" (the review of hostile pass 19)
_LIMITED = re.compile(r"(?i)^\s*(?:in|by|on|when|for|at)\b|\b(?:but|though|although|while|whereas|yet)\b")
_RANKED = re.compile(
    rf"(?P<name>{_NAME})\s+(?:is|was|are|were|remains)\s+the\s+(?:(?P<rank>second|third|fourth|fifth|sixth|"
    r"seventh|eighth|ninth|tenth|2nd|3rd|[4-9]th|10th)[\s-]+)?(?P<sup>%s)\b"
    r"(?P<scope>(?:\s+[\w-]+)?\s+(?:in|of|on|among|within)\s+(?!%s)[\w\s'-]+)?(?P<rest>[^.;!?]*)"
    % ("|".join(sorted({*_OPPOSITE, *_SAME}, key=len, reverse=True)),
       r"(?i:the\s+)?(?i:world|universe|known\s+universe|solar\s+system|galaxy|milky\s+way|earth)\b")
)  # fmt: skip
_RANK_WORDS = {"2nd": "second", "3rd": "third", "4th": "fourth", "5th": "fifth", "6th": "sixth", "7th": "seventh",
               "8th": "eighth", "9th": "ninth", "10th": "tenth"}  # fmt: skip


def _holders(passage: str, other: str) -> dict[str, set[str]]:
    """Name (normalised) -> the superlatives a sentence gives it: "Jupiter is the largest planet" ->
    {"jupiter": {"largest"}}. A ranked one ("the second-largest") gives none: the pattern wants "the" right before.
    One limited to a place or group ("the largest city in Australia") counts only where the passage names the
    claim's ``other`` name too: Tokyo is not in Australia (pass 18's review)."""
    out: dict[str, set[str]] = {}
    named = f" {other} " in f" {normalize(passage)} "
    for found in _HOLDS.finditer(passage):
        if found["scope"] and (not named or f" {other} " in f" {normalize(found['scope'])} "):
            continue  # ... and "Titan is the largest moon of Saturn" ranks no Saturn (hostile pass 19)
        if _QUALIFIED.search(found["rest"] or ""):
            continue  # "the largest natural satellite relative to the size of its planet" (hostile pass 19)
        name = normalize(re.sub(r"^The\s+", "", found["name"]))
        out.setdefault(name, set()).add(_SAME.get(found["sup"].lower(), found["sup"].lower()))
    return out


def outranked(claim: str, passages: list[str]) -> bool:
    """The claim "A is <more> than B" where a passage gives B the matching superlative, or A the opposite one.

    >>> solar = ["Jupiter is the largest planet in the Solar System; Saturn is the second largest."]
    >>> outranked("Saturn is larger than Jupiter.", solar), outranked("Jupiter is larger than Saturn.", solar)
    (True, False)
    >>> outranked("Tokyo is larger than Sydney.", ["Sydney is the largest city in Australia."])  # not in Australia
    False
    >>> outranked("Saturn is larger than Jupiter.", ["Jupiter is the fifth planet from the Sun and the largest."])
    True
    >>> outranked("Mercury is larger than Jupiter.", ["Jupiter is the second largest planet."])
    False
    >>> outranked("Mars is larger than Venus.", ["Mars is smaller than the largest planet."])
    False
    """
    found = _COMPARED.match(claim)
    if not found:
        return False
    a, b = normalize(found["a"]), normalize(found["b"])
    superlative = _superlative(found["comp"])
    if a == b:
        return False
    if _negated(found):
        a, b = b, a  # "Jupiter is not larger than Saturn": wrong where Jupiter is the largest (hostile pass 19)
    for passage in passages:
        if superlative in _holders(passage, a).get(b, ()):
            return True
        if _opposite(superlative) in _holders(passage, b).get(a, ()):
            return True
    return False


def _negated(found: re.Match[str]) -> bool:
    """ "Jupiter is not larger than Saturn"; not "Venus is not much smaller than Earth" (it is smaller, a little)."""
    return bool(found["neg"]) and (found["degree"] or "").strip().lower() not in ("much", "far", "slightly", "a bit")


def _ordered(found: re.Match[str]) -> tuple[str, str, str]:
    """ "A is larger than B" -> (a, b, "largest"); "A is smaller than B" -> (b, a, "largest"): one direction per
    dimension, so two wordings of one comparison read the same."""
    a, b = normalize(found["a"]), normalize(found["b"])
    superlative = _superlative(found["comp"])
    other = _opposite(superlative)
    if other is not None and superlative > other:
        return b, a, other
    return a, b, superlative


def compared_the_other_way(claim: str, passages: list[str]) -> bool:
    """The claim "A is larger than B" where a passage says "B is larger than A" or "A is smaller than B" (hostile
    pass 19: word overlap alone called it supported). A negated claim ("A is not larger than B") is wrong where a
    passage says A is larger.

    >>> compared_the_other_way("Saturn is larger than Jupiter.", ["Jupiter is larger than Saturn."])
    True
    >>> compared_the_other_way("Saturn is smaller than Jupiter.", ["Jupiter is larger than Saturn."])
    False
    >>> compared_the_other_way("Jupiter isn't larger than Saturn.", ["Saturn is smaller than Jupiter."])
    True
    >>> compared_the_other_way("Texas is larger than California.", ["California is larger than Texas in population."])
    False
    """
    found = _COMPARED.match(said_with_a_verb(claim))
    if not found or _LIMITED.search(found["rest"]):
        return False
    passages = [said_with_a_verb(p) for p in passages]
    big, small, dimension = _ordered(found)
    if _negated(found):
        big, small = small, big
    return any(
        not said["neg"]
        and not _LIMITED.search(said["rest"])
        and not _limited_before(passage, said.start())
        and _ordered(said) == (small, big, dimension)
        for passage in passages
        for said in _COMPARES.finditer(passage)
    )


# "Arkansas produces more rice than California", "A does not grow fewer grapes than B": a comparison by a verb
_BY_A_VERB = re.compile(
    rf"(?P<a>{_NAME})\s+(?:(?:does|did|do)(?P<neg>n['\u2019]t|\s+not)\s+)?"
    r"(?P<verb>(?!(?:is|was|are|were|been|being|has|had|have|seems?|seemed|becomes?|became|remains?|remained)\b)"
    r"[a-z]{3,})\s+"
    r"(?P<dir>more|less|fewer)\s+(?P<noun>[a-z]{3,})\s+than\s+"
)


def said_with_a_verb(text: str) -> str:
    """A comparison made by a verb and a count, written as one the comparison rules read: "Arkansas produces more
    rice than California" as "Arkansas is more producrice than California" (hostile pass 48: "California produces
    more rice than Arkansas." was supported by the sentence that says the opposite).

    >>> said_with_a_verb("Arkansas does not produce more rice than California.")
    'Arkansas is not more producrice than California.'
    """

    def one_word(found: re.Match[str]) -> str:
        stem = re.sub(r"(?:es|ed|s|e|d)$", "", found["verb"])
        direction = "more" if found["dir"] == "more" else "less"
        return f"{found['a']} is{' not' if found['neg'] else ''} {direction} {stem}{found['noun']} than "

    return _BY_A_VERB.sub(one_word, text)


def _limited_before(passage: str, start: int) -> bool:
    """A comparison opened by what limits it: "In 2023, Yale was more selective than Harvard", "By volume, ..."
    (review 45: read as always true)."""
    opening = re.split(r"[.;!?]\s", passage[:start])[-1]
    return (
        re.search(r"(?i)\b(?:in|by|during|as of|since|until|at|for)\b[^,]{0,40},\s*(?:the\s+)?$", opening) is not None
    )


def misranked(claim: str, passages: list[str]) -> bool:
    """The claim gives a name a rank ("Jupiter is the second largest planet") where a passage gives it another
    ("Jupiter is the largest planet"); superlatives limited to a place or group are left alone (hostile pass 19).

    >>> solar = ["Jupiter is the largest planet. Saturn is the second largest planet."]
    >>> misranked("Jupiter is the second largest planet.", solar), misranked("Saturn is the second largest.", solar)
    (True, False)
    >>> misranked("Sydney is the second largest city.", ["Sydney is the largest city in Australia."])
    False
    """
    said = _RANKED.match(claim.strip())
    if not said or said["scope"] or _QUALIFIED.search(said["rest"] or ""):
        return False
    name, rank, head = normalize(re.sub(r"^The\s+", "", said["name"])), _rank(said), _head(said)
    superlative = _SAME.get(said["sup"].lower(), said["sup"].lower())
    for passage in passages:
        for found in _RANKED.finditer(passage):
            if found["scope"] or _QUALIFIED.search(found["rest"] or "") or _head(found) != head:
                continue  # "the largest freshwater lake" ranks among fewer lakes than "the second-largest lake"
            same = normalize(re.sub(r"^The\s+", "", found["name"])) == name
            if same and _SAME.get(found["sup"].lower(), found["sup"].lower()) == superlative and _rank(found) != rank:
                return True
    return False


def _head(found: re.Match[str]) -> str:
    """The word a superlative ranks by ("planet" in "the largest planet"), "" where none follows."""
    after = (found["scope"] or "") + (found["rest"] or "")
    words = after.split()
    return words[0].lower().rstrip("s") if words else ""


def _rank(found: re.Match[str]) -> str:
    rank = (found["rank"] or "first").lower()
    return _RANK_WORDS.get(rank, rank)


# "Which is larger, Jupiter or Saturn?", "Which is saltier: ...", "Is the Dead Sea saltier than the Red Sea?" (another
# adjective only before what a comparison is followed by: "Which number ..." compares nothing)
_COMPARING = re.compile(
    rf"(?i)\b({'|'.join(_SUPERLATIVE_OF)})\b|\b(?:is|are|was|were)\s+(?:the\s+)?(?:[a-z]+\s+)?({_ANY_COMP})(?=\s*[,:?]|\s+than\b)"
)
_SAID_AFTER = re.compile(rf"(?i)^\s*(?:is|was|are|were)\s+(?:much\s+|far\s+|slightly\s+|a\s+bit\s+)?({_COMP})\s+than\b")


_SAID_BEFORE = re.compile(
    rf"(?i)\b(?P<a>[\w'-]+)\s+(?:is|was|are|were)\s+(?:much\s+|far\s+|slightly\s+|a\s+bit\s+)?"
    rf"(?P<comp>{_COMP})\s+than\s+(?:the\s+)?$"
)


_ANSWER_COMPARES = re.compile(rf"^\W*(?P<opener>(?i:no|yes|well|actually|indeed)\W+)?{_COMPARISON}")


def comparison_verdict(question: str, answer: str, gold: str, whole: str = "") -> bool | None:
    """An answer that is one comparison, read as which of the two it says is the one asked for: "Jupiter is not
    smaller than Saturn" and "No, Saturn is not larger than Jupiter" say Jupiter to "Which is larger, Jupiter or
    Saturn?" (hostile pass 20: the "not" read as denying the gold). True where that one is ``gold`` (normalised),
    False where the other is, None where the answer is no such comparison or ``whole`` (the whole answer, whose
    words a reading may have set aside) reports it as said by others ("Many think Saturn is larger ...").

    >>> asked = "Which is larger, Jupiter or Saturn?"
    >>> comparison_verdict(asked, "Jupiter is not smaller than Saturn.", "jupiter")
    True
    >>> comparison_verdict(asked, "No, Saturn is not larger than Jupiter.", "jupiter")
    True
    >>> comparison_verdict(asked, "Jupiter isn't larger than Saturn.", "jupiter")
    False
    >>> comparison_verdict(asked, "Jupiter.", "jupiter") is None
    True
    """
    want = _wanted(question)
    if want is None:
        counted = _count_verdict(question, answer, gold, whole)
        return counted if counted is not None else _win_verdict(question, answer, gold, whole)
    found = _ANSWER_COMPARES.match(answer)
    if not found or _LIMITED.search(found["rest"]):
        return None
    if _HEARSAY.search(answer[found.end("opener") if found["opener"] else 0 : found.start("a")]):
        return None  # "Not even Saturn is larger than Jupiter": read as said elsewhere
    at = whole.lower().find(answer.strip().lower()[:40]) if whole else -1
    said = re.search(rf"(?i)\b{re.escape(found['a'])}\s+(?:is|was|are|were)\b", whole) if at < 0 else None
    end = at if at >= 0 else said.start() if said else 0  # before this comparison, not the answer's first "A is"
    if _reported(whole[:end], past_opener=True):
        return None
    big, small, dimension = _ordered(found)
    if _negated(found):
        big, small = small, big
    if dimension != want and _opposite(dimension) != want:
        return None
    options = [normalize(o) for o in _offered(question)]
    if options and not {big, small} <= set(options):
        return None  # "The Dead Sea is less salty than Don Juan Pond, but ...": a third thing (review 45)
    first = big if dimension == want else small
    if gold not in (big, small):
        return None
    return first == gold


# "Who has won more games, Mexico or USA?": a count compared between the two options the question offers
_COUNT_ASKED = re.compile(r"(?i)\b(?P<dir>more|fewer|less)\b(?:\s+[\w-]+){0,5}?\s*,?\s+[^,?]+\s+or\s+")
_COUNT_SAID = re.compile(
    rf"^\W*(?:(?i:no|yes|well|actually|indeed)\W+)?(?:The\s+)?(?P<a>{_NAME})"
    r"(?:,?\s+(?:with|has|have|had|holds?|won|scored|earned|got|leads?)"
    r"(?:\s+(?:won|scored|recorded|had|earned|played|claimed|collected|got))?)?"
    r"(?P<neg>\s+not|n['\u2019]t)?\s+(?:(?:slightly|far|many|a\s+few|significantly|considerably|much)\s+)?"
    r"(?P<dir>(?i:more|fewer|less))\s+(?P<noun>(?:[\w-]+\s+){0,5}?)than\s+(?:the\s+)?"
    rf"(?P<b>{_NAME})(?P<rest>[^.;!?]*)"
)
_COUNTED = re.compile(r"(?i)\b(?:more|fewer|less)\s+([^,?]*?)\s*(?:,|\?|\bthan\b|\bbetween\b|\bamong\b|$)")
# a comparison of a time gone by: "Jupiter had more moons than Saturn until 2019"
_THEN = re.compile(r"(?i)\b(?:until|till|before|as of|back in|at the time|in (?:1\d|20)\d\d)\b")


def _count_verdict(question: str, answer: str, gold: str, whole: str) -> bool | None:
    """ "The USA has won more games than Mexico." to "Who has won more soccer games, Mexico or USA?" says the
    USA (hostile pass 30: CORRECT for the gold Mexico, who is named). True where the one it says has more (or
    fewer, as asked) is ``gold``, False where the other is, None where the answer is no such comparison.

    >>> asked = "Who has won more soccer games, Mexico or USA?"
    >>> _count_verdict(asked, "The USA has won more games than Mexico.", "mexico", "")
    False
    >>> _count_verdict(asked, "Mexico has won more games than the USA.", "mexico", "")
    True
    >>> _count_verdict(asked, "The USA has won fewer games than Mexico.", "mexico", "")
    True
    >>> _count_verdict(asked, "The USA has won more trophies than Mexico.", "mexico", "") is None  # not games
    True
    """
    asked = _COUNT_ASKED.search(question or "")
    found = _COUNT_SAID.match(answer)
    if asked is None or found is None or _THEN.search(found["rest"]):
        return None
    counted = _COUNTED.search(question or "")
    if counted is None or not _stems(found["noun"]) & _stems(counted[1]):
        return None  # "Beyoncé has more Grammy awards than Rihanna" counts no number-one hits (pass 30's review)
    at = whole.lower().find(answer.strip().lower()[:40]) if whole else 0
    if at > 0 and re.sub(r"(?i)\W|\b(?:no|yes|well|actually|indeed)\b", "", whole[:at]):
        return None  # "Rihanna. Beyoncé has more Grammys than Rihanna.": said after the answer, about something else
    if _reported(whole[: whole.lower().find(found["a"].lower())] if whole else ""):
        return None  # "Many think the USA has won more games than Mexico, but ..."
    a, b = normalize(found["a"]), normalize(found["b"])
    if gold not in (a, b):
        return None
    more_asked = asked["dir"].lower() == "more"
    said_more = (found["dir"].lower() == "more") != bool(found["neg"])
    first = a if said_more == more_asked else b
    return first == gold


_ASKS_WINNER = re.compile(r"(?i)\bwho\s+(?:won|wins|win|beat|defeated)\b|\bwinner\b")
_LOST_TO = re.compile(
    rf"^\W*(?:The\s+)?(?P<a>{_NAME})\s+(?:(?P<lost>lost|fell)\s+to|(?:was|were)\s+(?:beaten|defeated|routed)\s+by|"
    r"(?P<won>beat|defeated|routed|overcame|thrashed|won\s+against))\s+(?:the\s+)?"
    rf"(?P<b>{_NAME})"
)


def _win_verdict(question: str, answer: str, gold: str, whole: str = "") -> bool | None:
    """ "Brazil lost to Germany 7-1" to "Who won the match between Brazil and Germany?" says Germany (hostile pass
    32: INCORRECT, the loser read as a second answer). True where the winner it says is ``gold``, False where the
    other is, None where the answer is no such sentence.

    >>> q = "Who won the match between Brazil and Germany?"
    >>> _win_verdict(q, "Brazil lost to Germany 7-1.", "germany"), _win_verdict(q, "Brazil beat Germany.", "germany")
    (True, False)
    """
    found = _LOST_TO.match(answer)
    if not _ASKS_WINNER.search(question or "") or found is None:
        return None
    at = whole.find(answer.strip().lower()[:40]) if whole else -1
    rest = answer[found.end() :] + (whole[at + len(answer.strip()) :] if at >= 0 else "")
    if re.match(r"\s*(?:,\s*|\s+)(?:and|or|&)\s+[A-Z]", rest) or re.search(
        r"(?i)\b(?:but|however|though|yet|won|wins|beat|beats|defeated|lost|loses|went through)\b|;", rest
    ):
        return None  # "lost to Germany and Argentina"; "..., but Sparta won the war" (the review of pass 32)
    a, b = normalize(found["a"]), normalize(found["b"])
    if gold not in (a, b):
        return None
    return (a if found["won"] else b) == gold


def _stems(words: str) -> set[str]:
    return {w[:4] for w in normalize(words).split() if len(w) > 2}


_HEARSAY = re.compile(
    r"(?i)\b(?:not|no|never|nothing|none|even|think|thinks|thought|believe|believes|believed|claim|claims|claimed|"
    r"say|says|said|myth|assume|assumes|assumed|misconception)\b|n['\u2019]t\b"
)


def _reported(before: str, past_opener: bool = False) -> bool:
    """The clause ending ``before`` reports or denies what follows ("Many think ...", "Not even ..."); with
    ``past_opener``, a leading "No," or "Yes," is no such word."""
    clause = re.split(r"[.;:!?]|\bbut\b", before)[-1]
    if past_opener:
        clause = re.sub(r"(?i)^\W*(?:no|yes|well|actually|indeed)\W+", "", clause)
    return _HEARSAY.search(clause) is not None


def _wanted(question: str) -> str | None:
    """The superlative a "Which is larger ...?" question asks for ("largest"), None where it compares nothing."""
    asked = _COMPARING.search(question or "")
    if not asked:
        return None
    want = (asked.group(1) or asked.group(2)).lower()
    if want not in _SUPERLATIVE_OF and want not in _SAME and want not in _OPPOSITE:
        return _superlative(want)
    return _SAME.get(_SUPERLATIVE_OF.get(want, want), _SUPERLATIVE_OF.get(want, want))


def said_the_other_way(question: str, after: str, before: str = "", whole: str = "") -> bool:
    """The answer names the gold but says it is the opposite of what the question asks: "Jupiter is smaller than
    Saturn" (hostile pass 18) or "Saturn is larger than Jupiter" (pass 19) to "Which is larger, Jupiter or
    Saturn?". ``after`` and ``before``: the answer's text after and before the gold, normalised or not; ``whole``:
    the whole answer, whose words a reading may have set aside ("Many people think ...").

    >>> said_the_other_way("Which is larger, Jupiter or Saturn?", " is smaller than Saturn")
    True
    >>> said_the_other_way("Which is larger, Jupiter or Saturn?", " is larger than Saturn")
    False
    >>> said_the_other_way("Which is larger, Jupiter or Saturn?", ".", "saturn is larger than ")
    True
    >>> said_the_other_way("Which is larger, Jupiter or Saturn?", ".", "saturn is smaller than ")
    False
    """
    want = _wanted(question)
    if want is None:
        return False
    ahead = _SAID_BEFORE.search(before)
    if ahead:
        said = re.search(rf"(?i)\b{re.escape(ahead['comp'])}\s+than\b", whole)
        if _reported(before) or _reported(whole[: said.start()] if said else ""):
            return False  # "Not even Saturn is larger than Jupiter", "Many think Saturn is larger than Jupiter, but"
    if ahead and normalize(ahead["a"]) in normalize(question).split():
        return _superlative(ahead["comp"]) == want  # "Saturn is larger than <gold>": Saturn is
    asked, said = _COMPARING.search(question or ""), _SAID_AFTER.match(after)
    if not asked or not said:
        return False
    than = normalize(after[said.end() :]).split()[:1]
    if not than or than[0] not in normalize(question).split():
        return False  # "The Volga is shorter than the Nile but is the longest river in Europe": no Nile asked
    return _opposite(want) == _superlative(said.group(1))


# a question for the most or the fewest of something: "Which country has the largest number of time zones?"
_MOST = re.compile(r"(?i)\b(?:largest|biggest|highest|greatest|most|longest|tallest|oldest|heaviest)\b")
_FEWEST = re.compile(r"(?i)\b(?:smallest|fewest|least|lowest|shortest|youngest|lightest)\b")
_COUNT_IN = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)(?![\d.,]*\d)")
_ANOTHER_NAME = re.compile(r"^\W*(?:the\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*,?\s+(?:has|had|have|with|is|was|at)\b")


def runner_up(question: str | None, answer: str, other: str) -> bool:
    """``other`` names another thing with a count the question's superlative ranks below the ``answer``'s: "France,
    with 12 time zones; Russia has 11." for the most time zones gives France, with Russia for comparison (hostile
    pass 43: read as a second answer). One count each, the other clause opening with a name; a count past the
    answer's ("Russia has 13") is a rival, and so is anything with no count.

    >>> q = "Which country has the largest number of time zones?"
    >>> runner_up(q, "France, with 12 time zones", "Russia has 11"), runner_up(q, "France, with 12", "Russia has 13")
    (True, False)
    >>> runner_up("Which planet has the fewest moons?", "Mercury, with 0", "Venus has 0")
    False
    >>> runner_up(q, "France", "Russia")
    False
    """
    most, fewest = bool(_MOST.search(question or "")), bool(_FEWEST.search(question or ""))
    if most == fewest or not _ANOTHER_NAME.match(other):
        return False
    mine, theirs = _COUNT_IN.findall(answer), _COUNT_IN.findall(other)
    if len(mine) != 1 or len(theirs) != 1:
        return False
    a, b = (float(n.replace(",", "")) for n in (mine[0], theirs[0]))
    return b < a if most else b > a


def picks_the_lesser(question: str | None, response: str, passages: list[str]) -> bool:
    """A "Which is saltier, the Dead Sea or the Red Sea?" response that names only the option a passage ranks below
    the other on what is asked ("The Red Sea." where it says "the Dead Sea is far saltier than the Red Sea": hostile
    pass 44 paid it 1 under Binary RAR).

    >>> q, sea = "Which is saltier, Dead Sea or Red Sea?", ["The Dead Sea is far saltier than the Red Sea."]
    >>> picks_the_lesser(q, "The Red Sea.", sea), picks_the_lesser(q, "The Dead Sea.", sea)
    (True, False)
    >>> picks_the_lesser(q, "The Red Sea.", ["The Red Sea is less salty than the Dead Sea."])
    True
    """
    want, options = _wanted(question or ""), [normalize(o) for o in _offered(question)]
    if want is None or len(options) != 2:
        return False
    if re.search(r"(?i)\b(?:not|no|never)\b|n['\u2019]t\b", response) or re.search(rf"(?i)\b(?:{_COMP})\b", response):
        return False  # "Not the Red Sea.", "The Red Sea is less salty.": a denial or a comparison of its own
    said = normalize(response).split()
    named = [o for o in options if _holds(said, o.split())]
    if len(named) != 1:
        return False
    for passage in passages:
        for found in _COMPARES.finditer(passage):
            if found["neg"] or _LIMITED.search(found["rest"]) or _limited_before(passage, found.start()):
                continue
            big, small, dimension = _ordered(found)
            winner, loser = (
                (big, small) if dimension == want else (small, big) if _opposite(dimension) == want else ("", "")
            )
            if {_name_of(winner, options), _name_of(loser, options)} == set(options):
                return _name_of(loser, options) == named[0]
    return False


def _holds(words: list[str], part: list[str]) -> bool:
    return any(words[i : i + len(part)] == part for i in range(len(words) - len(part) + 1))


def _name_of(said: str, options: list[str]) -> str:
    """The option a comparison's side names ("the dead sea" -> "dead sea"), "" for none."""
    words = said.split()
    return next((o for o in options if _holds(words, o.split())), "")


# the rank said of the gold: a verb right after it ("Ryan came a distant second"), or a rank tied to someone above it
# ("Ryan, second only to Koufax"); not "second to none", "a second time", "; second is Nadal", "the second largest
# moon in the Solar System" (a rank in a wider group: review 45)
_RANK = r"(?:(?:a|the)\s+)?(?:distant\s+|close\s+)?(?:second|third|2nd|3rd|runner[\s-]up)\b"
_BELOW = re.compile(
    rf"(?i)^\s+(?:is|was|ranks?|ranked|comes?|came|finished|sits?|stands?|placed|places?)\s+{_RANK}"
    r"(?!\s+(?:time|largest|biggest|highest|longest|tallest|oldest|most|best|greatest)\b)"
    r"(?!\s+to\s+(?:none|no\s*one|nobody)\b)"
    rf"|^[\s,(\u2013\u2014-]+(?:(?:is|was)\s+)?{_RANK}(?:\s+only)?\s+(?:to|behind|after)\s+(?!(?:none|no\s*one|nobody)\b)"
)
_WIDER = re.compile(r"(?i)\b(?:worldwide|in the world|on earth|globally|overall|of all time|in history)\b")
_FIRST_ASKED = re.compile(r"(?i)\b(?:first|most|largest|biggest|highest|greatest|best|top|record)\b")


def ranked_below(question: str | None, answer: str, gold: str) -> bool:
    """The answer names the gold only to rank it below the top the question asks for: "Nolan Ryan is second only to
    Sandy Koufax." to "Who has the most no-hitters?" (hostile pass 44: CORRECT for Nolan Ryan), "Ryan came a
    distant second". Not "second to none" (the best), nor a question that asks for no top.

    >>> q = "Who has the most no-hitters in Major League Baseball?"
    >>> ranked_below(q, "Nolan Ryan is second only to Sandy Koufax.", "Nolan Ryan")
    True
    >>> ranked_below(q, "Nolan Ryan, second to none.", "Nolan Ryan"), ranked_below(q, "Nolan Ryan, with 7.", "Ryan")
    (False, False)
    """
    if not _FIRST_ASKED.search(question or "") or re.search(r"(?i)\b(?:second|third|2nd|3rd)\b", question or ""):
        return False
    low, name = answer.lower(), gold.lower().strip()
    at = low.find(name)
    if not name or at < 0:
        return False
    after = answer[at + len(name) :]
    clause = re.split(r"[.;!?]", after, maxsplit=1)[0]
    if _WIDER.search(clause) and re.search(r"(?i)\b(?:in|of|on|among)\b", question or ""):
        return False  # "K2, second only to Everest worldwide" for the highest in the Karakoram (review 45)
    return _BELOW.match(after) is not None


def _offered(question: str | None) -> tuple[str, ...]:
    from reward_engine.offline.questions import offered  # questions imports this module

    return offered(question)
