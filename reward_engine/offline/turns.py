"""Ways an answer holds the right name or number and still says something else (hostile pass 6, issue #74).

The grader and Binary RAR's answer check both read these: "The father of Mozart" names Leopold, "Paris, I mean
Lyon" answers Lyon, "Paris vs. Lyon" offers two, "-1889" and "8,849 m below sea level" turn the sign, "Paris,
Texas" is another Paris. Plain text rules, no gold needed, so both readers share them.
"""

from __future__ import annotations

import re

from reward_engine.offline import places
from reward_engine.offline.text_form import normalize

# a person or thing named by its relation to another ("the father of Mozart", "a moon of Jupiter")
RELATION = (
    r"(?:grand|great[- ]grand|step|half[- ]?)?(?:moons?|satellites?|neighbou?rs?|wife|wives|husbands?|widow(?:er)?s?|"
    r"sons?|daughters?|brothers?|sisters?|siblings?|fathers?|mothers?|parents?|child|children|cousins?|nephews?|"
    r"nieces?|uncles?|aunts?|friends?|rivals?|successors?|predecessors?|pupils?|students?|teachers?|mentors?|"
    r"partners?|colleagues?|assistants?|deputy|deputies|heirs?|twins?|ally|allies|spouses?|librettists?|patrons?|"
    r"biographers?|contemporar(?:y|ies)|disciples?|prot[eé]g[eé]e?s?|apprentices?|employers?|employees?|lovers?|"
    r"mistress(?:es)?|fianc[eé]e?s?|relatives?|descendants?|ancestors?|in-laws?|namesakes?|opponents?|enem(?:y|ies)|"
    r"servants?|imitators?|followers?|admirers?|critics?|collaborators?|co-?authors?|sidekicks?|companions?)"
)
_RELATION_OF = re.compile(
    rf"^(?:(?:it|he|she|that|this|answer) (?:is|was|s|would be) )?(?:(?:one|some|any|each|all) of )?"
    rf"(?:[a-z]+ ){{0,2}}{RELATION} of $"
)


def relation_of(before: str) -> bool:
    """The normalised words before a name make it the other end of a relation ("father of", "largest moon of",
    "one of moons of"): the answer is the relation's other person or thing, not the name.

    >>> relation_of("father of "), relation_of("largest moon of "), relation_of("composer "), relation_of("")
    (True, True, False, False)
    """
    return bool(_RELATION_OF.match(before))


# "Paris, I mean Lyon": what follows the last of these is the answer the response settles on
_CORRECTION = re.compile(
    r"(?i)(?:^|[\s,;:.!?(\u2013\u2014-])\s*(?:i mean|i meant|or rather|no,? wait|wait,? no|sorry|correction|"
    r"scratch that|make (?:that|it)|i should (?:say|have said)|actually,? no)\b\s*[,:;\u2013\u2014-]?\s*(?=\S)"
)


def settled(text: str) -> str:
    """What the answer settles on after correcting itself ("Paris, I mean Lyon" -> "Lyon"); ``text`` unchanged
    when it does not.

    >>> settled("Paris, I mean Lyon"), settled("Lyon, or rather Paris."), settled("Paris")
    ('Lyon', 'Paris.', 'Paris')
    """
    found = list(_CORRECTION.finditer(text))
    return text[found[-1].end() :] if found else text


# "Yes, Mozart": an opener that agrees with nothing asked (the question asks who, not whether)
_OPENER = re.compile(
    r"(?i)^\W*(?:yes|yeah|yep|sure|indeed|ok|okay|of course|certainly|well)\b\s*[,!.:\u2013\u2014-]\s*(?=\w)"
)
_YES_NO = re.compile(
    r"(?i)^\W*(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|shall|may|might|must)\b"
)


def without_opener(text: str, question: str | None) -> str:
    """``text`` without a leading "Yes," or "Well," where the question is not a yes-or-no one: "Yes, Mozart"
    answers Mozart, not a list of two names.

    >>> without_opener("Yes, Mozart", "Who wrote it?"), without_opener("Yes, it is.", "Is it Paris?")
    ('Mozart', 'Yes, it is.')
    """
    if _YES_NO.match(question or ""):
        return text
    return _OPENER.sub("", text, count=1)


# options set side by side: "Paris vs. Lyon", "Lyon -> Paris", "a. Paris b. Lyon"
_SIDE_BY_SIDE = re.compile(r"(?i)\s+(?:vs\.?|versus)\s+|\s*(?:->|=>|\u2192|\u27f6|\u2794|\u21d2)\s*")
_YEAR_SLASH = re.compile(r"\b(1\d{3}|20\d{2})\s*/\s*(\d{2}|\d{4})\b(?!\s*/)")
_LETTERED = re.compile(r"(?:^|(?<=\s))\(?([a-dA-D])[.)]\s+")


def as_options(text: str, gold: str = "") -> str:
    """Options set side by side written as alternatives ("Paris or Lyon"), so a list rule reads them; the gold's
    own "vs." ("Kramer vs. Kramer") is left alone.

    >>> as_options("Paris vs. Lyon"), as_options("Lyon → Paris"), as_options("a. Paris b. Lyon")
    ('Paris or Lyon', 'Lyon or Paris', 'Paris or Lyon')
    >>> as_options("1889/90"), as_options("31/03/1889")
    ('1889 or 1890', '31/03/1889')
    """
    if not _SIDE_BY_SIDE.search(gold):
        text = _SIDE_BY_SIDE.sub(" or ", text)
    if "/" not in gold:  # "1889/90": two years, not one
        text = _YEAR_SLASH.sub(lambda m: f"{m[1]} or {m[1][: 4 - len(m[2])]}{m[2]}", text)
    letters = list(_LETTERED.finditer(text))
    if len(letters) >= 2 and letters[0].start() == 0 and not _LETTERED.search(gold):
        pieces = [text[m.end() : n.start() if n else len(text)].strip() for m, n in zip(letters, letters[1:] + [None])]
        text = " or ".join(p for p in pieces if p)
    return text


# a number said below zero: "-1889", "−8,849 m", "minus 8,849 metres", "8,849 m below sea level"
_SIGNED = re.compile(
    r"(?i)(?:^|(?<=[\s(\[:=~]))(?:[-\u2212\u2013]|(?<!plus or )(?<!plus/)minus\s+|negative\s+)(?=\d)"
)  # "Not sure - 1992": a dash
_BELOW = re.compile(r"(?i)\bbelow (?:sea level|ground|zero|the surface|freezing)\b|\bunderground\b|\bbeneath the\b")
_ASKS_BELOW = re.compile(r"(?i)\b(?:below|beneath|under|deep|depth|deepest|lowest|low point|minus|negative|sink)")


def below_zero(text: str) -> bool:
    """``text`` says its number below zero (a sign, "minus", "below sea level").

    >>> below_zero("-1889"), below_zero("8,849 m below sea level"), below_zero("1889-03-31"), below_zero("8,849 m")
    (True, True, False, False)
    >>> below_zero("5,730 years, plus or minus 40"), below_zero("minus 40")
    (False, True)
    """
    return bool(_SIGNED.search(text) or _BELOW.search(text))


_SIGN_BEFORE = re.compile(r"(?i)(?:^|[\s(\[:=~])(?:[-\u2212\u2013]|(?<!plus or )(?<!plus/)minus\s+|negative\s+)$")


def negative_at(text: str, start: int, end: int) -> bool:
    """The number at ``start``..``end`` of ``text`` is said below zero: a sign or "minus" right before it, or
    "below sea level" after it and its unit, before any other number or clause."""
    after = re.split(r"[\d,;()]|\.\s", text[end : end + 40])[0]
    era = re.match(r"(?i)\s*(?:bce?|b\.\s?c\.?(?:e\.?)?|before christ)(?!\w)", after)  # "1889 BC"
    return bool(_SIGN_BEFORE.search(text[max(0, start - 10) : start]) or _BELOW.search(after) or era)


def sign_turned(text: str, gold: str, question: str | None = None) -> bool:
    """The answer puts the gold's number on the other side of zero ("-1889" for 1889, "8,849 m below sea level"
    for a height), unless the question asks for a depth or a low point, where "below" is how it is said."""
    if not re.search(r"\d", text) or below_zero(text) == below_zero(gold):
        return False
    return not (below_zero(text) and _ASKS_BELOW.search(question or ""))


_QUALIFIER = re.compile(r"\s*(?:,|\(|\bin\b)\s*([^,()]+?)\s*(?=[,)]|$)")
_SAME_COUNTRY = {
    "usa": "united states", "united states of america": "united states", "america": "united states",
    "u s a": "united states", "u s": "united states", "us": "united states", "uk": "united kingdom",
    "great britain": "united kingdom", "britain": "united kingdom", "holland": "netherlands",
    "burma": "myanmar", "czechia": "czech republic", "turkiye": "turkey", "russian federation": "russia",
    "people s republic of china": "china", "ivory coast": "cote d ivoire", "swaziland": "eswatini",
}  # fmt: skip


def country(name: str) -> str | None:
    """The country a country's or region's name (any form) stands for, one name per country."""
    key = normalize(name)
    level = places.level(key)
    if level == places.COUNTRY:
        return _SAME_COUNTRY.get(key, key)
    if level == places.REGION:
        return places.country_of(key)
    return None


def countries(text: str) -> set[str]:
    """The countries ``text`` names, directly or by a region of theirs."""
    words = normalize(text).split()
    found: set[str] = set()
    for size in (4, 3, 2, 1):
        for i in range(len(words) - size + 1):
            named = country(" ".join(words[i : i + size]))
            if named:
                found.add(named)
    return found


def another_place(after: str, where: set[str]) -> bool:
    """The words after a place name put it in a country other than the one(s) ``where`` it should be ("Paris,
    Texas", "Paris (Kentucky)" for the capital of France): another place of that name. Nothing is known
    without ``where`` (the question and the evidence name no country).

    >>> another_place(", Texas", {"france"}), another_place(", France", {"france"}), another_place(", Texas", set())
    (True, False, False)
    """
    if not where:
        return False
    for found in _QUALIFIER.finditer(after):
        named = country(found.group(1))
        if named is not None and named not in where:
            return True
        if named is None:
            break
    return False


# -- hostile pass 7 ---------------------------------------------------------------------------------------------------

# the answer puts the name down: "I doubt it's Paris", "Paris? Unlikely.", "Paris is a common misconception"
_DISOWN = re.compile(
    r"(?i)\b(?:i doubt|doubtful|unlikely|improbable|(?:a |the )?myth\b|(?:a |the )?(?:common |popular )?"
    r"misconception|(?:is |that'?s |it'?s )?(?:not true|untrue|false|wrong|incorrect)\b)"
)
_NOT_DISOWNED = re.compile(r"(?i)\b(?:no doubt|don'?t doubt|do not doubt|without (?:a )?doubt|undoubtedly)\b")


# the sentence before is put down: "Most people would say Paris, but that's a myth."
_PUTS_DOWN_BEFORE = re.compile(
    r"(?i)\b(?:that|this|which|it)(?:'s| is| was) (?:(?:just |only |merely )?(?:a |an )?(?:common |popular )?"
    r"(?:myth|misconception|urban legend|mistake)|wrong|false|not true|untrue|incorrect)\b"
)


def puts_down_before(text: str) -> bool:
    """A clause that puts down what came before it ("..., but that's a myth", "which is not true")."""
    return bool(_PUTS_DOWN_BEFORE.search(text))


def disowned(text: str) -> bool:
    """The answer names something only to put it down ("I doubt it's Paris", "Paris - false.", "Most people say
    Paris, but that's a myth."): no answer is given to it.

    >>> disowned("I doubt it's Paris."), disowned("Paris? Unlikely."), disowned("No doubt: Paris."), disowned("Paris")
    (True, True, False, False)
    """
    return bool(_DISOWN.search(text)) and not _NOT_DISOWNED.search(text)


# the name as the measure of something else: "a city bigger than Paris", "higher than 8,849 m"
_COMPARED = re.compile(r"\b(?:\w+er|more|less|fewer|other|else|before|after|beyond|past|prior to)\s+(?:than\s+)?$")
_THAN = re.compile(r"\b(?:\w+er|more|less|fewer|other|else) than\s+$|\b(?:before|after|beyond|prior to)\s+$")


def compared(before: str) -> bool:
    """The normalised words before a name make it the measure of another thing ("bigger than", "more than",
    "other than", "before", "after"): the answer is that other thing.

    >>> compared("city bigger than "), compared("after "), compared("later "), compared("the answer is ")
    (True, True, False, False)
    """
    return bool(_THAN.search(before))


# the name as what was once so: "It used to be Paris", "Paris is no longer the capital"
_PAST_ONLY = re.compile(r"(?i)\b(?:used to be|no longer|not any ?more|once was|was once|formerly was)\b")
_ASKS_PAST = re.compile(
    r"(?i)\b(?:was|were|did|had|used to|former|formerly|originally|once|first|until|before|in \d{3,4})\b"
)


def past_only(text: str, question: str | None) -> bool:
    """The answer says its name was so once and is no more, where the question asks what is so now.

    >>> past_only("It used to be Paris.", "What is the capital of France?"), past_only("Paris", None)
    (True, False)
    >>> past_only("It used to be Paris.", "What was the capital of France in 1800?")
    False
    """
    return bool(_PAST_ONLY.search(text)) and not _ASKS_PAST.search(question or "")


# a number marked with a currency or a per-mille sign: "€5 million" is not "$5 million"
_CURRENCIES = (
    ("usd", r"us\$|\$|\busd\b|\b(?:us |american )?dollars?\b"),
    ("eur", r"€|\beur\b|\beuros?\b"),
    ("gbp", r"£|\bgbp\b|\bpounds? sterling\b|\bpounds?\b"),
    ("jpy", r"¥|\bjpy\b|\byen\b"),
    ("cny", r"\bcny\b|\byuan\b|\brenminbi\b|\brmb\b"),
    ("inr", r"₹|\binr\b|\brupees?\b"),
    ("chf", r"\bchf\b|\bswiss francs?\b"),
    ("rub", r"₽|\brub\b|\broubles?\b|\brubles?\b"),
    ("percent", r"%|\bper ?cent\b|\bpercent(?:age)?\b"),
    ("permille", r"‰|\bper ?mille\b|\bper ?mil\b"),
)
_CURRENCY_RES = tuple((name, re.compile(rf"(?i){pattern}")) for name, pattern in _CURRENCIES)


def currencies(text: str) -> frozenset[str]:
    """The currencies (and percent or per-mille signs) ``text`` names.

    >>> sorted(currencies("€5 million")), sorted(currencies("$5 million")), sorted(currencies("12‰"))
    (['eur'], ['usd'], ['permille'])
    """
    return frozenset(name for name, found in _CURRENCY_RES if found.search(text))


def other_currency(text: str, gold: str) -> bool:
    """The gold is an amount in one currency (or a percentage) and the answer names only others.

    >>> other_currency("€5 million", "$5 million"), other_currency("5 million dollars", "$5 million")
    (True, False)
    """
    want, said = currencies(gold), currencies(text)
    return bool(want and said) and not want & said


# a mark that takes the name before it back: "Paris ❌ Lyon ✅"
_MARKED_WRONG = "\u274c\u2717\u2718\u2716\U0001f6ab\u26d4"


def marked_wrong(text: str, name: str) -> bool:
    """``name`` (as written in ``text``, any case) is followed by a cross mark.

    >>> marked_wrong("Paris ❌ Lyon ✅", "Paris"), marked_wrong("Paris ✅", "Paris")
    (True, False)
    """
    written = r"[\s-]+".join(re.escape(w) for w in name.split())
    return bool(re.search(rf"(?i)\b{written}\b\W{{0,4}}[{_MARKED_WRONG}]", text))


_ROMAN = re.compile(r"M{0,4}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def roman(text: str) -> int | None:
    """A whole answer written as a Roman numeral of two or more letters ("MDCCCLXXXIX": 1889), else None.

    >>> roman("MDCCCLXXXIX"), roman(" XIV. "), roman("Paris"), roman("I")
    (1889, 14, None, None)
    """
    word = text.strip().strip(".").strip()
    if len(word) < 2 or not _ROMAN.fullmatch(word):
        return None
    values = [_ROMAN_VALUES[c] for c in word]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
