"""An answer rewritten into the form its gold is written in, where plain reading would miss the match (hostile
pass 16, issue #74): "Louis the Fourteenth" and "Louis 14" for the gold "Louis XIV"; "half" for "50%" and "25%"
for "one quarter".

Only a gold of that form asks for the rewrite (``regnal_gold``, ``share_gold``): "half" stays a word beside a
gold that is a name, and "Henry 8" stays as written beside a gold that is no regnal name.
"""

from __future__ import annotations

import re

from reward_engine.offline import turns
from reward_engine.offline.answer_forms import (
    NUMBER_PHRASE,
    ORDINAL_WORDS,
    initialisms,
    initials,
    numbers_in_words_to_digits,
    two_places,
)
from reward_engine.offline.reading import has_refusal
from reward_engine.offline.text_form import normalize

_NUMERALS = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
             (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))  # fmt: skip


def as_roman(n: int) -> str:
    """``n`` (1..3999) as a Roman numeral.

    >>> as_roman(14), as_roman(1889)
    ('XIV', 'MDCCCLXXXIX')
    """
    out = []
    for value, letters in _NUMERALS:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


# a monarch's or pope's name and its number: "Louis XIV", "Henry VIII", "Elizabeth II"
_REGNAL = re.compile(r"\b[A-Z][a-z]+\s+(?=[IVXL]+\b)")
# ... said another way: "Louis the Fourteenth", "Louis 14", "Louis 14th", "Louis the 14th"
_REGNAL_SAID = re.compile(
    r"\b(?P<name>[A-Z][a-z]+)\s+(?:the\s+)?(?P<n>\d{1,2}(?:st|nd|rd|th)?|(?i:[a-z-]+(?:st|nd|rd|th))|(?i:%s))\b"
    % NUMBER_PHRASE.pattern.replace(r"\b", "")
)  # "Super Bowl fifty-one" too (hostile pass 19)


def regnal_gold(golds: list[str]) -> bool:
    """A gold names a monarch by a Roman number ("Louis XIV")."""
    return any(_REGNAL.search(g) for g in golds)


def _ordinal_value(said: str) -> int | None:
    """ "Fourteenth", "14th", "14" -> 14; a word that is no ordinal ("best") -> None."""
    digits = numbers_in_words_to_digits(said.lower())
    return int(digits) if digits.isdigit() else None


def regnal(text: str) -> str:
    """A regnal number said in words or digits, written as the Roman numeral a regnal gold uses.

    >>> regnal("Louis the Fourteenth"), regnal("Louis 14"), regnal("It was Henry the 8th."), regnal("Louis XVI")
    ('Louis XIV', 'Louis XIV', 'It was Henry VIII.', 'Louis XVI')
    >>> regnal("Super Bowl fifty-one"), regnal("Super Bowl fifty one")
    ('Super Bowl LI', 'Super Bowl LI')
    """

    def roman(found: re.Match[str]) -> str:
        value = _ordinal_value(found["n"])
        return found.group() if not value or value > 99 else f"{found['name']} {as_roman(value)}"

    return _REGNAL_SAID.sub(roman, text)


# a name numbered in digits ("Apollo 11", "Super Bowl 51") and one numbered in Roman numerals ("Apollo XI")
_NUMBERED_IN_DIGITS = re.compile(r"\b[A-Z][\w'-]*\s+\d{1,3}\b(?![\d,.:])")
_NUMBERED_IN_ROMAN = re.compile(r"\b(?P<name>[A-Z][\w'-]*)\s+(?P<n>[IVXLC]{1,7})\b(?P<tail>\s+[a-z]|['\u2019])?")


def digits_gold(golds: list[str]) -> bool:
    """A gold numbers a name in digits ("Apollo 11", "Super Bowl 51")."""
    return any(_NUMBERED_IN_DIGITS.search(g) for g in golds)


def numbered_in_digits(text: str) -> str:
    """A name's Roman number written in digits, as a gold numbered in digits has it (hostile pass 19): "Apollo XI"
    for "Apollo 11". A lone "I" before a lower-case word or an apostrophe is the pronoun ("Apollo I think", "Yes
    I'm sure").

    >>> numbered_in_digits("Apollo XI"), numbered_in_digits("Super Bowl LI."), numbered_in_digits("Apollo I think")
    ('Apollo 11', 'Super Bowl 51.', 'Apollo I think')
    >>> numbered_in_digits("Yes I'm sure it was Apollo 11.")
    "Yes I'm sure it was Apollo 11."
    """

    def digits(found: re.Match[str]) -> str:
        if found["n"] == "I" and found["tail"]:
            return found.group()
        value = turns.numeral_value(found["n"])
        return found.group() if value is None else f"{found['name']} {value}{found['tail'] or ''}"

    return _NUMBERED_IN_ROMAN.sub(digits, text)


# a share of a whole said as a fraction: "half", "one third", "three quarters", "a fifth"
_DENOMINATORS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4,
                 "fourths": 4, "fifth": 5, "fifths": 5, "tenth": 10, "tenths": 10}  # fmt: skip
_SHARE = re.compile(
    r"(?i)(?<!first )(?<!second )(?<!last )(?<!other )(?<!latter )(?<!former )"
    r"\b(?:(?P<count>a|an|one|two|three|four|nine|\d)[\s-]+)?(?P<part>%s)\b"
    r"(?P<pct>\s+(?:of\s+)?(?:(?:a|one|1)\s*)?(?:per\s*cent\b|percent\b|%%))?"  # "half a percent", "half of 1%"
    r"(?![\s-]+(?:an?\s+)?(?:dozen|century|past|time|hour|way|brother|sister|life|moon|mast|board))"
    % "|".join(_DENOMINATORS)
)
_SHARE_OF = re.compile(r"(?i)\b(?:%s) of\b" % "|".join(_DENOMINATORS))
_PERCENT = re.compile(r"(?i)\d\s*(?:%|per\s*cent\b|percent\b)")


def share_gold(golds: list[str]) -> bool:
    """A gold is a share: a percentage ("50%") or a fraction in words ("one quarter")."""
    return any(_PERCENT.search(g) or _counted_share(g.strip(" .")) for g in golds)


def _counted_share(gold: str) -> bool:
    """ "one quarter", "a third", "half": a share; "third" or "fifth" alone is a rank (pass 18's review)."""
    found = _SHARE.fullmatch(gold)
    return bool(found) and (found["count"] is not None or found["part"].lower() == "half")


def shares_as_percent(text: str, of_only: bool = False) -> str:
    """Fractions in words as percentages (two decimals where they do not end), so "half", "50 %" and "one half"
    compare as one number.

    >>> shares_as_percent("half"), shares_as_percent("About a third of it."), shares_as_percent("three quarters")
    ('50%', 'About 33.33% of it.', '75%')
    >>> shares_as_percent("half a dozen"), shares_as_percent("one fifth"), shares_as_percent("half a percent")
    ('half a dozen', '20%', '0.5%')
    >>> shares_as_percent("a half percent"), shares_as_percent("half of 1%"), shares_as_percent("half, 1%")
    ('0.5%', '0.5%', '50%, 1%')

    ``of_only``: a share of something named after it ("half of its land", "a third of the votes"), as claims
    state one; "the fourth of July", "the French Quarter" and "the second half of the century" stay.

    >>> shares_as_percent("About half of its land; a third of the votes; the fourth of July", of_only=True)
    'About 50% of its land; 33.33% of the votes; the fourth of July'
    """

    if of_only and not _SHARE_OF.search(text):
        return text  # claims and passages pass here by the thousand: most name no share

    def percent(found: re.Match[str]) -> str:
        if of_only and (
            not text[found.end() :].startswith(" of ") or (found["count"] is None and found["part"].lower() != "half")
        ):
            return found.group()
        count = (found["count"] or "one").lower()
        if count in ("a", "an"):
            count = "one"
        value = int(numbers_in_words_to_digits(count))
        share = 100 * value / _DENOMINATORS[found["part"].lower()]
        if found["part"].lower() in ("half", "halves") and value > 1 and found["count"] is not None:
            return found.group()  # "two halves": the whole, not a share
        if found["pct"]:
            share /= 100  # "half a percent": 0.5 %, not 50 % (hostile pass 19)
        return f"{share:.{4 if found['pct'] else 2}f}".rstrip("0").rstrip(".") + "%"

    return _SHARE.sub(percent, text)


# a time of day: "3:30 pm", "15:30", "3.30 p.m.", "half past three in the afternoon", "three o'clock"
_MERIDIEM = r"(?P<m>[ap])\.?\s?m\b\.?"
_DAYTIME = r"(?:\s+(?:in\s+the\s+(?P<day{n}>morning|afternoon|evening)|at\s+(?P<night{n}>night)))?"
_CLOCK = re.compile(
    rf"(?i)\b(?P<h>\d{{1,2}})(?:[:.h](?P<min>\d{{2}}))?\s*{_MERIDIEM}"
    rf"|\b(?P<h2>\d{{1,2}})[:h](?P<min2>\d{{2}})\b{_DAYTIME.format(n=1)}"
    # a bare hour with its half of the day: "3 at night", "9 o'clock in the evening" (hostile pass 20)
    r"|\b(?P<h3>\d{1,2})\s+(?:o['\u2019]clock\s+)?(?:in\s+the\s+(?P<day3>morning|afternoon|evening)|at\s+(?P<night3>night))"
    r"|\b(?:12\s+)?(?P<noon>noon|midday|midnight)\b"  # "12 midnight" is midnight
)
_SPOKEN_CLOCK = re.compile(
    r"(?i)\b(?:(?P<part>half|quarter)\s+(?P<way>past|to)\s+)?(?P<h>one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve)(?P<oclock>\s+o['\u2019]clock)?(?:\s+(?:in\s+the\s+(?P<day>morning|afternoon|evening)|at\s+(?P<night>night)))?"
)
_HOURS = "one two three four five six seven eight nine ten eleven twelve".split()


def time_gold(golds: list[str]) -> bool:
    """A gold is a time of day ("3:30 pm", "15:30")."""
    return any(_CLOCK.search(g) for g in golds)


def _as_24h(hour: int, minute: int, meridiem: str | None) -> str:
    if meridiem == "p" and hour < 12:
        hour += 12
    elif meridiem == "a" and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}"


def _half_of_day(day: str, hour: int) -> str:
    """ "morning" -> am; "afternoon", "evening" -> pm; "night" -> pm from 5 to 11, am at 12 and from 1 to 4 ("3:30 at
    night", "twelve at night": hostile pass 19)."""
    if day == "morning":
        return "a"
    if day == "night" and (hour == 12 or hour < 5):
        return "a"
    return "p"


def times_as_24h(text: str, meridiem: str | None = None) -> str:
    """Times of day as "HH:MM" on a 24-hour clock; a time said without am/pm (and under 13) takes ``meridiem``,
    the gold's, as a reader would ("3:30" for a shop that opens at 3:30 pm).

    >>> times_as_24h("3:30 pm"), times_as_24h("15:30"), times_as_24h("3.30 p.m."), times_as_24h("3:30", "p")
    ('15:30', '15:30', '15:30', '15:30')
    >>> times_as_24h("half past three in the afternoon"), times_as_24h("a quarter to ten at night")
    ('15:30', 'a 21:45')
    >>> times_as_24h("03:30", "p"), times_as_24h("3:30 in the morning", "p"), times_as_24h("00:00", "p")
    ('03:30', '03:30', '00:00')
    >>> times_as_24h("3:30 at night", "p"), times_as_24h("12:30 at night", "p"), times_as_24h("9:30 at night")
    ('03:30', '00:30', '21:30')
    >>> times_as_24h("12 midnight", "p"), times_as_24h("12 at night", "p"), times_as_24h("3 in the afternoon")
    ('00:00', '00:00', '15:00')
    """

    def clock(found: re.Match[str]) -> str:
        if found["noon"]:
            return "00:00" if found["noon"].lower() == "midnight" else "12:00"
        hour, minute = int(found["h"] or found["h2"] or found["h3"]), int(found["min"] or found["min2"] or 0)
        day = (found["day1"] or found["night1"] or found["day3"] or found["night3"] or "").lower()
        if found["m"]:
            said = found["m"].lower()
        elif day:
            said = _half_of_day(day, hour)  # "3:30 in the afternoon"
        elif (found["h2"] or "").startswith("0") or hour == 0:
            said = None  # "03:30", "00:00": a 24-hour clock, no am/pm to assume (hostile pass 18)
        else:
            said = meridiem if hour <= 12 else None
        return found.group() if hour > 24 or minute > 59 else _as_24h(hour, minute, said)

    def spoken(found: re.Match[str]) -> str:
        if not (found["part"] or found["oclock"] or found["day"] or found["night"]):
            return found.group()  # "three": a count, not a time
        hour, minute = _HOURS.index(found["h"].lower()) + 1, 0
        if found["part"]:
            minute = 30 if found["part"].lower() == "half" else 15
            if found["way"].lower() == "to":
                hour, minute = (hour - 2) % 12 + 1, 60 - minute
        day = (found["day"] or found["night"] or "").lower()
        said = _half_of_day(day, hour) if day else meridiem
        return _as_24h(hour, minute, said)

    return _SPOKEN_CLOCK.sub(spoken, _CLOCK.sub(clock, text))


def gold_meridiem(golds: list[str]) -> str | None:
    """The gold's am/pm, read as "a" or "p"; None when it gives none."""
    found = next((m for g in golds for m in _CLOCK.finditer(g) if m["m"]), None)
    return found["m"].lower() if found else None


# "(AS 1 to AS 32)": a range of numbered labels beside a count, no second count (hostile pass 30)
_LABEL_RANGE = re.compile(r"\s*\(\s*([A-Z]{1,5})[\s-]?\d+\s*(?:to|through|-|\u2013)\s*\1[\s-]?\d+\s*\)")


def without_label_ranges(text: str) -> str:
    """``text`` without a bracketed range of numbered labels.

    >>> without_label_ranges("32 Accounting Standards (AS 1 to AS 32)")
    '32 Accounting Standards'
    """
    return _LABEL_RANGE.sub("", text)


_DATED = (
    r"(?:[A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}\s+[A-Z][a-z]+\s+\d{4}|[A-Z][a-z]+\s+\d{4}|\d{4})"
)
_REGIONAL = re.compile(
    rf"(?P<value>{_DATED})\s*(?:\(\s*|\s+(?:in|for)\s+(?:the\s+)?)(?P<place>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){{0,2}})\s*\)?"
)
_BETWEEN_REGIONS = re.compile(r"\s*[,;]?\s*(?:and\s+|while\s+|then\s+)?")


def one_region(text: str, golds: list[str], question: str | None = None) -> str:
    """A release date said for each of several places ("September 28, 2006 in Japan, and April 22, 2007 in North
    America"): each is its own place's, no second guess (hostile pass 30: INCORRECT for the first). Only for a
    question about a release; where it names a place, the run becomes that place's date, else the gold's date when
    it is the earliest (a first release). Otherwise, or for other questions ("1791 in Austria, 1792 in Germany" for
    when Mozart died: the review of pass 30), ``text`` as it is.

    >>> q = "When did Pokemon Diamond and Pearl come out?"
    >>> one_region("September 28, 2006 in Japan, and April 22, 2007 in North America.", ["September 28, 2006"], q)
    'September 28, 2006 in Japan.'
    >>> one_region("1791 in Austria, 1792 in Germany", ["1791"], "In what year did Mozart die?")
    '1791 in Austria, 1792 in Germany'
    """
    from reward_engine.offline import places
    from reward_engine.offline.answer_forms import date_spans
    from reward_engine.offline.text_form import normalize

    if not _RELEASED.search(question or ""):
        return text
    found = list(_REGIONAL.finditer(text))
    run = found[:1]
    for match in found[1:]:
        if not _BETWEEN_REGIONS.fullmatch(text[run[-1].end() : match.start()]):
            break
        run.append(match)
    named = [normalize(m["place"]) for m in run]
    if len(run) < 2 or len(set(named)) < len(named) or not all(places.level(m["place"]) for m in run):
        return text
    asked = f" {normalize(question or '')} "
    wanted = {normalize(g) for g in golds}
    in_asked = [m for m, n in zip(run, named) if f" {n} " in asked]
    if in_asked:
        keep = in_asked[0] if normalize(in_asked[0]["value"]) in wanted else None
    else:

        def when(m: re.Match[str]) -> tuple[int, int, int]:
            spans = date_spans(m["value"])
            span = spans[0] if spans else None
            if span is None or span.years is None:
                return (9999, 99, 99)
            return (span.years[0], span.months[0] if span.months else 0, span.day or 0)

        first = min(run, key=when)
        keep = first if normalize(first["value"]) in wanted else None
    if keep is None:
        return text
    return text[: run[0].start()] + keep.group(0).rstrip() + text[run[-1].end() :]


_RELEASED = re.compile(
    r"(?i)\b(?:releas\w*|come out|came out|comes out|premier\w*|debut\w*|air(?:ed|s)?|launch\w*|publish\w*|"
    r"hit (?:theaters|theatres|shelves|stores)|on sale|first (?:shown|broadcast))\b"
)


# a year that is part of a name: "the Local Government Act 1972", "the Treaty of Paris of 1763"
_NAMED_YEAR = re.compile(
    r"\b(?P<name>(?:[A-Z][\w'-]*\s+(?:of\s+(?:the\s+)?)?){1,6}(?:Act|Treaty|Convention|Accord|Agreement|Charter|"
    r"Declaration|Exhibition|Expo))(?:,?\s+of)?\s+(?:1\d{3}|20\d{2})\b"
)


def without_named_years(text: str, question: str | None) -> str:
    """``text`` with the year of a law's or treaty's name dropped, where the question does not name that law and a
    figure stays ("On 1 April 1974, under the Local Government Act 1972": 1974, hostile pass 31).

    >>> without_named_years("On 1 April 1974, under the Local Government Act 1972.", "When was it abolished?")
    'On 1 April 1974, under the Local Government Act.'
    >>> without_named_years("The Local Government Act 1972.", "When was the Local Government Act passed?")
    'The Local Government Act 1972.'
    """
    from reward_engine.offline.text_form import normalize

    asked = set(normalize(question or "").split())

    def drop(found: re.Match[str]) -> str:
        named = set(normalize(found["name"]).split()) - {"of", "the"}
        return found.group(0) if named <= asked else found["name"]

    kept = _NAMED_YEAR.sub(drop, text)
    # another year stays ("On 1 April 1974"): a day of the month is none (the review of pass 31)
    return kept if kept != text and re.search(r"\b(?:1\d{3}|20\d{2})\b", kept) else text


_YEAR = re.compile(r"(?<![\d.,])(?:1\d{3}|20\d{2})(?![\d.,]*\d)")
_DAY_MONTH = (
    r"(?i:\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?%(m)s\b|\b%(m)s\s+\d{1,2}(?:st|nd|rd|th)?\b)(?![\s,]*(?:of\s+)?\d{4})"
)


_ANOTHER_EVENTS_YEAR = re.compile(
    r"(?i)\b(?:since|born|founded|created|began|from|established|until|before|after)\s+(?:\w+\s+)?(?:1\d{3}|20\d{2})\b"
)


def one_date_said_apart(text: str) -> str:
    """A date said in two clauses, the year in one and the day and month in the other ("moved to Channel 5 in 2011;
    the first live show was on 18 August"), as one date (hostile pass 32: NOT_ATTEMPTED, the year alone read as
    vague). Only where the answer holds one year and one day of a month, no other.

    >>> one_date_said_apart("It moved in 2011; the first live show was on 18 August.")
    'It moved in 2011; the first live show was on 18 August 2011.'
    >>> one_date_said_apart("In 2011 and 2012, on 18 August.")
    'In 2011 and 2012, on 18 August.'
    """
    from reward_engine.offline.answer_forms import MONTH_WORDS

    years = _YEAR.findall(text)
    if _ANOTHER_EVENTS_YEAR.search(text):
        return text  # "... on March 25; the show had run since 1971": another event's year (the review of pass 32)
    days = list(re.finditer(_DAY_MONTH % {"m": MONTH_WORDS.replace("(?:", "(?:", 1)}, text))
    if len(set(years)) != 1 or len(years) != 1 or len(days) != 1:
        return text
    day = days[0]
    return f"{text[: day.end()]} {years[0]}{text[day.end() :]}"


# a measure said in two units, largest first: "16 years, 3 months", "5 feet 11 inches", "2 hours and 30 minutes"
_MEASURE_UNIT = (
    r"(?:years?|months?|weeks?|days?|hours?|minutes?|seconds?|feet|foot|inch(?:es)?|pounds?|ounces?|stones?|"
    r"metres?|meters?|centimetres?|centimeters?)"
)
_TWO_UNITS = re.compile(
    rf"(?i)\b(\d+(?:\.\d+)?[\s-]*{_MEASURE_UNIT})(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+)(?=\d+(?:\.\d+)?[\s-]*{_MEASURE_UNIT}\b)"
)


def two_units_gold(golds: list[str]) -> bool:
    """Whether a gold is one measure said in two units ("16 years, 3 months")."""
    return any(_TWO_UNITS.search(g) for g in golds)


def two_units_joined(text: str) -> str:
    """One measure said in two units, in one form whatever joins them: "16 years and 3 months" is the gold "16 years,
    3 months" (hostile pass 34: INCORRECT, "and" read as a second answer).

    >>> two_units_joined("At 16 years and 3 months old"), two_units_joined("5 feet 11 inches")
    ('At 16 years, 3 months old', '5 feet, 11 inches')
    """
    return _TWO_UNITS.sub(r"\1, ", text)


_PART = r"(?:season|series|episode|chapter|book|volume|part|round|stage|edition)"
_ORDINAL_WORDS = ORDINAL_WORDS
_ORDINAL_PART = re.compile(rf"(?i)\b(?:{'|'.join(_ORDINAL_WORDS)}|\d{{1,2}}(?:st|nd|rd|th))\s+(?P<part>{_PART})\b")
_PART_NUMBER = re.compile(rf"(?i)\b({_PART})\s+(\d{{1,2}}|{NUMBER_PHRASE.pattern})(?![\d-])(?!\s*[-\u2013:,.]\s*\d)")


def ordinal_part_gold(golds: list[str]) -> bool:
    """Whether a gold names a numbered part by its ordinal ("the first season")."""
    return any(_ORDINAL_PART.search(g) for g in golds)


_KINDS = {"series": "season", "volume": "book"}  # a British "series" is a season; a volume is a book


def _numbered_parts(text: str) -> list[tuple[str, int]]:
    """(kind, number) of each part ``text`` numbers by an ordinal ("the sixth episode": ("episode", 6))."""
    out = []
    for found in _ORDINAL_PART.finditer(parts_as_ordinals(text)):
        said = found[0].split()[0].lower()
        n = _ORDINAL_WORDS.index(said) + 1 if said in _ORDINAL_WORDS else int(re.sub(r"\D", "", said))
        kind = found["part"].lower()
        out.append((_KINDS.get(kind, kind), n))
    return out


def other_part(text: str, golds: list[str]) -> bool:
    """The answer numbers a part of another kind than the gold's and none of its kind ("Season 6" for "the sixth
    episode", the review of pass 34: the number alone was read), or numbers the gold's kind otherwise ("Episode 2 of
    Season 6": the review of pass 35). A "part" is of any kind.

    >>> other_part("Season 6", ["the sixth episode"]), other_part("Episode 6 of season 1", ["the sixth episode"])
    (True, False)
    >>> other_part("Episode 2 of Season 6", ["the sixth episode"]), other_part("Volume 6", ["the sixth book"])
    (True, False)
    """
    wanted = {part for g in golds for part in _numbered_parts(g)}
    said = [(kind, n) for kind, n in _numbered_parts(text) if kind != "part"]
    if not wanted or not said:
        return False
    kinds = {kind for kind, _ in wanted}
    of_the_kind = [(kind, n) for kind, n in said if kind in kinds]
    return not of_the_kind or not set(of_the_kind) & wanted


# a part named and nothing else: "the eighth season", "in Season 8", "or maybe the 8th season"
_BARE_PART = re.compile(
    rf"(?i)\W*(?:(?:or|maybe|perhaps|possibly|in|during|the|its|his|her|their|show's)\s+)*"
    rf"(?:(?:{'|'.join(ORDINAL_WORDS)}|\d{{1,2}}(?:st|nd|rd|th))\s+{_PART}|{_PART}\s+(?:\d{{1,2}}|{NUMBER_PHRASE.pattern}))\W*"
)


def another_numbered_part(text: str, gold: str) -> bool:
    """``text`` is a part of the gold's kind and nothing else, and not the gold's number: "the eighth season" for
    "Season 9" is another answer beside it ("Season 9; the eighth season." was CORRECT: "the ..." read as a remark).

    >>> another_numbered_part("the eighth season", "Season 9"), another_numbered_part("the ninth season", "Season 9")
    (True, False)
    >>> another_numbered_part("in episode 5", "Season 9"), another_numbered_part("in Season 12, he walks", "Season 9")
    (False, False)
    """
    if not _BARE_PART.fullmatch(text):
        return False  # "he stays in a wheelchair through Season 12": a detail of another season (review 44)
    wanted = set(_numbered_parts(gold))
    kinds = {kind for kind, _ in wanted}
    said = [(kind, n) for kind, n in _numbered_parts(text) if kind in kinds]
    return bool(said) and not set(said) & wanted


def parts_as_ordinals(text: str, golds: list[str] = ()) -> str:
    """ "season one", "Season 1" as "first season", the gold's form (hostile pass 34: "In season one (1992)." was
    INCORRECT for "the first season"); a part of the gold's kind in the gold's word ("Series 1", "Part 1" for "the
    first season", "Volume 6" for "the sixth book": the review of pass 35). "Season 1, episode 3" and "season 1.5"
    are left as written.

    >>> parts_as_ordinals("In season one (1992)."), parts_as_ordinals("Season 12"), parts_as_ordinals("season 1, 3")
    ('In first season (1992).', 'twelfth season', 'season 1, 3')
    >>> parts_as_ordinals("Volume 6", ["the sixth book"]), parts_as_ordinals("Season 6", ["the sixth episode"])
    ('sixth book', 'sixth season')
    """
    gold_words = {m["part"].lower() for g in golds for m in _ORDINAL_PART.finditer(g)}

    def ordinal(found: re.Match[str]) -> str:
        said = numbers_in_words_to_digits(found[2].lower())
        if not said.isdigit() or not 0 < int(said) <= 99:
            return found[0]
        n = int(said)
        word = _ORDINAL_WORDS[n - 1] if n <= len(_ORDINAL_WORDS) else f"{n}th"
        noun = found[1].lower()
        kind = _KINDS.get(noun, noun)
        same = [g for g in gold_words if noun == "part" or _KINDS.get(g, g) == kind]
        return f"{word} {same[0] if len(same) == 1 else noun}"

    return _PART_NUMBER.sub(ordinal, text)


# a part of the count said beside it: "275, including his record 61 in 1961", "275 (61 of them in 1961)"
_INCLUDED_PART = re.compile(
    r"(?i)(?<![\d,.])(?P<count>(?!(?:1\d|20)\d\d\b)\d(?:[\d,]*\d)?(?:\s+[a-z-]+){0,4}?)"  # a count, not a year
    r"(?:(?:\s*(?:[,;(\u2013\u2014]|\s-)\s*|\s+)(?:including|of which|among (?:them|those|these))\b"
    r"[^.;()]*\d[^.;()]*\)?"
    r"|\s*\(\s*\d[\d,]*\s+of\s+(?:them|which|those|these)\b[^()]*\))"
)


def without_included_part(text: str) -> str:
    """A count without a part of it said beside it: the part is no second answer (hostile pass 34: "275 --
    including his record 61 in 1961." was INCORRECT for 275). Only a clause that follows the count's own number.

    >>> without_included_part("275 \u2014 including his record 61 in 1961.")
    '275.'
    >>> without_included_part("275 (61 of them in 1961)")
    '275'
    >>> without_included_part("61, including 275 in his career")  # the clause follows the wrong count: kept wrong
    '61'
    >>> without_included_part("In 2004, including the playoffs, he scored 50 goals.")  # a year is no count
    'In 2004, including the playoffs, he scored 50 goals.'
    """
    return _INCLUDED_PART.sub(r"\g<count>", text)


def asks_a_part(question: str) -> bool:
    """ "How many of the 40 delegates were women?": the part is the answer, not an aside (the review of pass 34)."""
    return bool(re.search(r"(?i)\bhow many of\b|\bhow many\b.*\b(?:of them|of those|of these|of which)\b", question))


# a colon after two words or more, then a capitalised word: "Night at the Museum: Secret of the Tomb"
_COLON_TITLE = re.compile(r"(?P<head>(?:[\w'\u2019&-]+\s+){2,8}[\w'\u2019&-]+):\s+(?=[A-Z0-9])")


_GUESS_AFTER = re.compile(r"(?i)\?|\b(?:perhaps|maybe|possibly|probably|i think|i guess)\b")


def subtitle_joined(text: str, question: str | None) -> str:
    """A title the question names, then a colon and a subtitle ("Night at the Museum: Secret of the Tomb"), as one
    title: read at its colon, the sequel was three items, a list (hostile pass 39: CORRECT paid INCORRECT). A title
    opening its sentence is a label ("Sir Lancelot: Dan Stevens.") and keeps its colon.

    >>> q = "Who plays Sir Lancelot in Night at the Museum?"
    >>> subtitle_joined("Dan Stevens plays him in Night at the Museum: Secret of the Tomb (2014).", q)
    'Dan Stevens plays him in Night at the Museum Secret of the Tomb (2014).'
    >>> subtitle_joined("Night at the Museum: Ben Stiller.", q), subtitle_joined("Sir Lancelot: Dan Stevens.", q)
    ('Night at the Museum: Ben Stiller.', 'Sir Lancelot: Dan Stevens.')
    """
    if not question or ":" not in text:
        return text
    asked = " " + " ".join(re.findall(r"[\w'\u2019&-]+", question)) + " "

    def joined(found: re.Match[str]) -> str:
        after = text[found.end() :].split(".")[0]
        if has_refusal(text[: found.end()]) and _GUESS_AFTER.search(after):
            return found.group()  # "I'm not sure who plays him in <title>: Ben Stiller, perhaps?" (review 39)
        words = found["head"].split()
        for start in range(1, len(words) - 1):  # a word of the sentence before the title
            title = words[start:]
            if title[0][:1].isupper() and f" {' '.join(title)} " in asked:
                return found["head"] + " "
        return found.group()

    return _COLON_TITLE.sub(joined, text)


_PLACE_ORDINAL = re.compile(rf"(?i)\b(?:{'|'.join(ORDINAL_WORDS)}|\d{{1,2}}(?:st|nd|rd|th))\b")
_RUNNER_UP = re.compile(  # the answer itself: "Third runner-up.", "They finished as the runner-up"
    r"(?i)^(?P<lead>\W*(?:(?:they|he|she|it|we)\s+(?:were|was|finished|came|placed|ended)\s+(?:as\s+|up\s+as\s+)?)?)"
    rf"(?:the\s+)?(?:(?P<n>{'|'.join(ORDINAL_WORDS)}|\d{{1,2}}(?:st|nd|rd|th))[\s-]+)?runner[\s-]+up\b"
)


def place_gold(golds: list[str]) -> bool:
    """A gold that is a finishing place by its ordinal ("third place", "3rd")."""
    return any(_PLACE_ORDINAL.search(g) for g in golds)


def runners_up_as_places(text: str) -> str:
    """A runner-up as the place it is: the runner-up is second, the third runner-up fourth (hostile pass 48: "Third
    runner-up." was CORRECT for third place, the ordinal read and "runner-up" taken for detail). Only the answer itself:
    "First place; they had been runner-up the year before" keeps its detail (review 48).

    >>> runners_up_as_places("Third runner-up."), runners_up_as_places("The runner-up")
    ('fourth place.', 'second place')
    >>> runners_up_as_places("2nd runner up")
    'third place'
    """

    def place(found: re.Match[str]) -> str:
        said = (found["n"] or "").lower()
        n = ORDINAL_WORDS.index(said) + 1 if said in ORDINAL_WORDS else int(re.sub(r"\D", "", said) or 1)
        return f"{found['lead']}{ORDINAL_WORDS[n]} place" if n + 1 <= len(ORDINAL_WORDS) else found.group()

    return _RUNNER_UP.sub(place, text)


_HYPHENATED = re.compile(r"\b([^\W\d_]{2,})-([^\W\d_]{2,})\b")
_CODE = re.compile(r"\b([A-Z]{1,3})-?(\d{1,4})\b")  # a model code: letters then a number ("V6", "B-52")


def hyphenated_as_written(text: str, golds: list[str]) -> str:
    """A gold's hyphenated word written joined or apart, as the gold writes it: "Spiderman", "Ant Man" for
    Spider-Man, Ant-Man (hostile pass 48: INCORRECT).

    >>> hyphenated_as_written("Spiderman.", ["Spider-Man"]), hyphenated_as_written("ant man", ["Ant-Man"])
    ('Spider-Man.', 'Ant-Man')
    >>> hyphenated_as_written("It's a V-6 engine.", ["V6"]), hyphenated_as_written("The F16.", ["F-16"])
    ("It's a V6 engine.", 'The F-16.')
    """
    for gold in golds:
        for found in _HYPHENATED.finditer(gold):
            # the whole answer only: "Spiderman, and later the Green Goblin", "Bride of Reanimator" (review 48)
            joined = re.compile(rf"(?i)^(\W*(?:the\s+)?){re.escape(found[1])}\s?{re.escape(found[2])}(\W*)$")
            text = joined.sub(lambda m, f=found: f"{m[1]}{f[0]}{m[2]}", text)
        for found in _CODE.finditer(gold):  # "V-6" for V6, "F16" for F-16 (hostile pass 57: INCORRECT)
            written = re.compile(rf"\b{re.escape(found[1])}-?{found[2]}\b")  # "a 1 in 5" is no A1 (landing review)
            text = written.sub(found[0], text)
    return text


# holidays on one fixed date everywhere they are kept (Independence Day, Thanksgiving and Easter are not)
_HOLIDAYS = {
    "christmas day": "25 December",
    "christmas eve": "24 December",
    "boxing day": "26 December",
    "new year's day": "1 January",
    "new year's eve": "31 December",
    "halloween": "31 October",
    "valentine's day": "14 February",
    "st patrick's day": "17 March",
    "st. patrick's day": "17 March",
    "bastille day": "14 July",
    "guy fawkes night": "5 November",
    "bonfire night": "5 November",
    "armistice day": "11 November",
    "anzac day": "25 April",
    "canada day": "1 July",
    "australia day": "26 January",
    # the season, not the day: "Christmas 1977" is December 1977 (hostile pass 57: the bare year left was vague)
    "christmas": "December",
    "christmastime": "December",
    "christmas time": "December",
    "xmas": "December",
}
_HOLIDAY = re.compile(
    r"(?i)(?P<on>\b(?:on|at)\s+)?\b(?P<day>"
    + "|".join(re.escape(h).replace("'", "['\u2019]") for h in sorted(_HOLIDAYS, key=len, reverse=True))
    + r")\b(?!\s+[A-Z][a-z])(?P<year>,?\s+(?:of\s+)?\d{4}\b)?"  # "Christmas Island" is a place
)


def holidays_as_dates(text: str) -> str:
    """A fixed-date holiday said as a day, with its year or after "on", as that date: "Boxing Day, 2013" is 26
    December 2013 (hostile pass 56: NOT_ATTEMPTED for 25 December 2013, and `supported` missed "on Christmas Day
    2013" against "25 December 2013"). A holiday named as a thing ("Halloween is celebrated ...") stays.

    >>> holidays_as_dates("Boxing Day, 2013."), holidays_as_dates("They met on Christmas Day.")
    ('26 December 2013.', 'They met on 25 December.')
    >>> holidays_as_dates("Halloween is celebrated in October.")
    'Halloween is celebrated in October.'
    >>> holidays_as_dates("At Christmas 1977."), holidays_as_dates("St Patrick\u2019s Day, 1977.")
    ('in December 1977.', '17 March 1977.')
    >>> holidays_as_dates("On Christmas 2004.")
    'On 25 December 2004.'
    """
    if not _HOLIDAY.search(text):
        return text

    def dated(found: re.Match[str]) -> str:
        if not (found["on"] or found["year"]) or re.search(r"(?i)\bnot\s*$", text[: found.start()]):
            return found.group()  # "26 December 2004, not on Christmas.": a day set aside (review 59)
        year = re.search(r"\d{4}", found["year"] or "")
        day = _HOLIDAYS[found["day"].lower().replace("\u2019", "'")]
        on = found["on"] or ""
        if on.lower().startswith("on") and found["day"].lower() in ("christmas", "xmas"):
            day = _HOLIDAYS["christmas day"]  # "on Christmas 2004" is a day: 25 December 2004 (review 57)
        if on and not day[:1].isdigit():
            on = "in "  # "at Christmas 1977": in December 1977
        elif on.lower().startswith("at"):
            on = "on "
        return f"{on}{day}{' ' + year.group() if year else ''}"

    return _HOLIDAY.sub(dated, text)


# a year told by the one next to it: "the year after 1911", "a year before 1913", "the year following 1911"
_NEXT_YEAR = re.compile(
    r"(?i)\b(?:the|a|one)\s+year\s+(?P<way>after|before|following|preceding|prior\s+to)\s+(?P<year>1\d{3}|20\d{2})\b"
)


def years_counted(text: str) -> str:
    """A year said as the one after or before another, written as that year (hostile pass 63: "The year after
    1911." was INCORRECT for 1912).

    >>> years_counted("The year after 1911."), years_counted("A year before 1913, I think.")
    ('1912.', '1912, I think.')
    """
    return _NEXT_YEAR.sub(
        lambda m: str(int(m["year"]) + (1 if m["way"].lower() in ("after", "following") else -1)), text
    )


_COMPASS = r"(?:north|south)(?:[\s-]?(?:east|west))?|east|west"
_DIRECTION_GOLD = re.compile(rf"(?i)\s*(?:the\s+)?(?:{_COMPASS})\s*")
_HEADING = re.compile(rf"(?i)\b({_COMPASS})wards?\b")


def direction_gold(golds: list[str]) -> bool:
    """Some gold is a compass direction ("north", "the southeast")."""
    return any(_DIRECTION_GOLD.fullmatch(g) for g in golds)


def headings_as_directions(text: str) -> str:
    """ "Northward" and "northwards" as the direction they head (the landing review of pass 63: "Northward." was
    INCORRECT for north); "North-westward" stays north-west.

    >>> headings_as_directions("Northwards, to the Mediterranean."), headings_as_directions("north-westward")
    ('North, to the Mediterranean.', 'north-west')
    """
    return _HEADING.sub(lambda m: m[1], text)


_CAPS = re.compile(r"\b[A-Z]{2,6}\b")
_PHRASE = re.compile(r"\b[A-Z][\w'-]*(?:\s+(?:(?:of|the|and|for|de|du|des|la|le)\s+)*[A-Z][\w'-]*){1,6}")


_CAPS_DIGITS = re.compile(r"\b[A-Z](?:[A-Z]|[2-4](?=[A-Z]))+\b")


def initialisms_as_gold(text: str, golds: list[str]) -> str:
    """A name the gold gives as its initialism said in full, or the other way round, written as the gold: "The
    European Central Bank, headquartered in Frankfurt." for ECB (hostile pass 67: INCORRECT; the whole answer had
    to be the one or the other); "AIDS" takes its D from inside a word (``initialisms``).

    >>> initialisms_as_gold("The European Central Bank, in Frankfurt.", ["ECB"])
    'ECB, in Frankfurt.'
    >>> initialisms_as_gold("It was run by NASA.", ["National Aeronautics and Space Administration"])
    'It was run by National Aeronautics and Space Administration.'
    """
    for gold in golds:
        short = gold.strip()
        if _CAPS.fullmatch(short):
            text = _PHRASE.sub(lambda m, g=short: g if _spells(m[0], g) else m[0], text)
            continue
        forms = {w for w in initialisms(normalize(short)) if len(w) >= 2 and w.isalpha()}
        if forms:  # "W3C" is World Wide Web Consortium (hostile pass 68)
            text = _CAPS_DIGITS.sub(lambda m, g=short, w=forms: g if _spelt_out(m[0]) in w else m[0], text)
    return text


def _spells(phrase: str, short: str) -> bool:
    """``phrase`` is ``short`` spelt out, and not two places joined ("The United States and Australia" is no USA)."""
    return short.lower() in initialisms(normalize(phrase)) and not two_places(normalize(phrase))


def _spelt_out(short: str) -> str:
    """An initialism's letters, a digit repeating the letter before it: "W3C" -> "wwwc"."""
    return re.sub(r"([a-z])([2-4])", lambda m: m[1] * int(m[2]), short.lower())


def initialisms_as_passage(claim: str, passage: str) -> str:
    """A claim's initialisms written as the names the passage spells out: "The UN General Assembly adopted the UDHR"
    against "... was adopted by the United Nations General Assembly" (hostile pass 68: not supported).

    >>> initialisms_as_passage("The UN adopted it.", "It was adopted by the United Nations in Paris.")
    'The United Nations adopted it.'
    """
    if not _CAPS_DIGITS.search(claim):
        return claim
    spelt: dict[str, str] = {}
    for found in _PHRASE.finditer(passage):  # each run of its words: "United Nations" in "... General Assembly"
        words = found[0].split()
        for i, j in ((i, j) for i in range(len(words)) for j in range(i + 2, len(words) + 1)):
            if words[i][:1].isupper() and words[i] != "The" and words[j - 1][:1].isupper():
                spelt.setdefault(initials(normalize(" ".join(words[i:j]))), " ".join(words[i:j]))
    return _CAPS_DIGITS.sub(lambda m: spelt.get(_spelt_out(m[0]), m[0]), claim)


def names_as_gold(text: str, golds: list[str]) -> str:
    """The gold's names written as the gold writes them: its initialism or its spelt-out name (``initialisms_as_gold``),
    a "Tzu" as its "zi" (``tzu_as_gold``); before a rule reads the names in ``text`` as another's (pass 67)."""
    return tzu_as_gold(initialisms_as_gold(text, golds), golds)


_TZU = re.compile(r"\b([A-Z][a-z]+)[\s-](?:[Tt]zu|[Tt]ze|[Tt]se)\b")


def tzu_as_gold(text: str, golds: list[str]) -> str:
    """A Chinese name's Wade-Giles "Tzu" written as the gold's pinyin "zi": "attributed to Lao Tzu." for Laozi
    (hostile pass 67: INCORRECT in a sentence; ``same_answer`` reads the bare name).

    >>> tzu_as_gold("It is attributed to Lao Tzu.", ["Laozi"])
    'It is attributed to Laozi.'
    """
    for gold in golds:
        plain = normalize(gold).replace(" ", "")
        if plain.endswith("zi"):
            text = _TZU.sub(lambda m, g=gold, p=plain: g if m[1].lower() + "zi" == p else m[0], text)
        elif found := _TZU.fullmatch(gold.strip()):  # the gold in Wade-Giles, the answer in pinyin ("Laozi")
            text = re.sub(rf"\b{found[1]}zi\b", gold.strip(), text, flags=re.IGNORECASE)
    return text
