"""Whether a date or number answer holds the gold's value, at the gold's precision: the date and number rules of
the offline grader (``grader._grade_candidate`` tries them before the text rules; ``grader.value_grade`` alone).

Its own module because these rules read values, not names: a date's parts, a quantity's step, bounds and ranges,
approximate values and how much coarser than the gold they may be (``_VAGUE_FIGURES``).
"""

from __future__ import annotations

import dataclasses
import re

from reward_engine.labels import Label
from reward_engine.offline import qualifiers, questions, topic, turns
from reward_engine.offline.answer_forms import (
    MONTH_WORDS,
    ORDINAL_WORDS,
    DateSpan,
    Quantity,
    asked_step,
    counts_only_others,
    date_spans,
    gold_date,
    gold_quantity,
    in_asked_unit,
    numbers_in_words_to_digits,
    one_date,
    one_value,
    other_dimension,
    quantities,
    without_other_counts,
    without_other_measures,
    years_spanned,
)
from reward_engine.offline.reading import Candidate, Reading, has_refusal, lower, names_alternatives
from reward_engine.offline.text_form import normalize
from reward_engine.offline.words import stem

_STRICT_THAN = re.compile(r"\b(?:\w+er|more|less|fewer) than\s+[$€£¥]?\d")  # right before the number


def century(want: DateSpan) -> int:
    """The century a two-digit decade ("the 90s") in an answer falls in: the gold's."""
    return want.years[0] // 100 if want.years and want.years[0] > 0 else 19


def date_verdict(candidate: Candidate, seg: str, gold_raw: str, gold: str, reading: Reading) -> Label | None:
    """Dates: every part the gold gives must be there and agree. A part that disagrees is INCORRECT
    (June for May, the 1980s for 1992); a date that agrees but stops short of the gold's precision is
    NOT_ATTEMPTED ("May 2018" or "2018" for 10 May 2018, "the early 1990s" for 1992); a finer date
    inside the gold is CORRECT (10 May 1992 for 1992). Several different dates are a list: INCORRECT."""
    want = gold_date(gold_raw)
    if want is None:
        return None
    spans = date_spans(candidate.text, century(want))
    if not spans:
        return None
    if counted_from(candidate.text):
        return Label.INCORRECT  # "Exactly one year after Earth Day, April 22, 1998.": another date (hostile pass 54)
    if _MARGIN_SAID.search(candidate.text) and want.years is not None:
        # "1889 ± 5": a range of years, vague when it holds the gold's, wrong when not (hostile pass 8)
        ranges = [q for q in quantities(candidate.text) if q.kind == "range"]
        if ranges:
            holds = any(q.low <= want.years[0] and want.years[1] <= q.high for q in ranges)
            return Label.NOT_ATTEMPTED if holds else Label.INCORRECT
    said = None if len(spans) > 1 and names_alternatives(normalize(candidate.text)) else one_date(spans)
    spans_said = bool(_SPAN_GOLD.search(candidate.text))  # not "the 20th century" that holds it (review 41)
    if said is None and want.years is not None and want.years[0] < want.years[1] and want.months is None:
        said = years_spanned(candidate.text, century(want))  # "From November 1783 to August 1784" (pass 39)
        spans_said = said is not None
    if said is not None and _SPAN_GOLD.search(gold_raw) and spans_said and _is_span(said) and said.years != want.years:
        return Label.INCORRECT  # "1939-1944" or "1938-1945" for 1939-1945: another span of years (review 39)
    if said is not None and said.months is None and want.months is not None and said.years == want.years:
        season = qualifiers.months_of_a_season(candidate.text)
        if season and not season & set(range(want.months[0], want.months[1] + 1)):
            return Label.INCORRECT  # "In the autumn of 1981." for 17 January 1981 (hostile pass 47: NOT_ATTEMPTED)
    return Label.INCORRECT if said is None else _compare_dates(want, said)


# an offset from a date: "a year after", "the day before", "on the eve of"
_OFFSET = re.compile(
    r"(?i)\b(?:(?:(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|"
    r"forty|fifty|sixty|seventy|eighty|ninety|(?:twenty|thirty|forty|fifty)[\s-]\w+|a few|several|\d+)\s+"
    r"(?:days?|weeks?|fortnights?|months?|years?|decades?|century|centuries)|the\s+(?:day|week|month|year))\s+"
    r"(?:after|before|later\s+than|earlier\s+than|prior\s+to|following|preceding)|on\s+the\s+eve\s+of)\b"
)
_DATE_START = re.compile(rf"(?i)\b(?:{MONTH_WORDS}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_WORDS}|\d{{4}})\b")
_NAMED_DAY = re.compile(r"(?:the\s+)?[A-Z][\w'-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\w'-]*)*")  # "Earth Day", "V-E Day"


def counted_from(text: str) -> bool:
    """An offset heads the answer and counts from a date it gives, so the answer is another date: "A day before
    April 22, 1998.", "Exactly one year after Earth Day, April 22, 1998." (the event's date in apposition: hostile
    pass 54). Not when the answer's own date is set apart after the event the offset counts from ("Four days after
    launch, on July 20, 1969.", "Four years after it began: November 11, 1918.": review 55), nor when a date comes
    before the offset ("in 1890, a year after it opened in 1889": review 40).

    >>> counted_from("Exactly one year after Earth Day, April 22, 1998."), counted_from("The day after July 20, 1969.")
    (True, True)
    >>> counted_from("Four days after launch, on July 20, 1969."), counted_from("Four years after it began, 1918.")
    (False, False)
    """
    offset = _OFFSET.search(text)
    if offset is None or _DATE_START.search(text[: offset.start()]):
        return False
    rest = text[offset.end() :]
    date = _DATE_START.search(rest)
    if date is None:
        return False
    between = rest[: date.start()].strip()
    # the date right after the offset, or after a named day in apposition ("Earth Day, April 22, 1998"); an event
    # said in words ("after it began, November 11, 1918": the reading turns a colon into a comma) sets it apart
    return not between or bool(between.endswith(",") and _NAMED_DAY.fullmatch(between.rstrip(" ,")))


_SPAN_GOLD = re.compile(r"\d{4}\s*(?:-|\u2013|\u2014|to|until|through)\s*\d{2,4}")  # a gold said as a span of years


# where a clause ends: its punctuation, or a word that opens another clause
_CLAUSE_END = re.compile(
    r"\s*[;()\u2013\u2014]\s*|,\s+|(?<=[.!?])\s+|\s+(?:and|but|while|whereas|after|before|when|until|since)\s+"
)
# a clause that does something: a verb in the past or present, or a copula
_DOES = re.compile(r"(?i)\b(?:[a-z]{3,}ed|began|begun|became|was|were|is|are|took|won|came|went|had|has)\b")


def _event(clause: str, lacked: set[str]) -> bool:
    """A statement of another event: how the thing began (review 40: any other verb may be the asked one in other
    words, "it was finished in 1890", "he passed away in 1851"), three words or more, none of the question's names
    the answer lacks, no word that weighs or takes back a value ("some say it began in 1890") and no copula before a
    bare date."""
    return (
        bool(_BEGAN.search(clause))
        and len(clause.split()) >= 3
        and not topic.content_words(clause) & lacked
        and not _WEIGHED.search(clause)
        and not _SAID_AGAIN.search(clause)
    )


# how something began: the one other event a date answer names that no asked verb means in other words
_BEGAN = re.compile(r"(?i)\b(?:began|begun|begins?|started|starts|commenced|broke ground|was laid|were laid)\b")
# a value weighed, reported or taken back: another answer, not another event
_WEIGHED = re.compile(
    r"(?i)\b(?:say|says|said|think|thinks|thought|believe|believes|claim|claims|argue|argues|actually|or|maybe|"
    r"perhaps|possibly|probably|likely|might|may|could|though|although|others?|some|sources?|wrong|sure|correct|"
    r"rather|mean|instead|really|either|unless|if)\b"
)
_SAID_AGAIN = re.compile(r"(?i)\b(?:was|is|were|are|be|been)\s+(?:in\s+|on\s+)?(?:the\s+year\s+)?\d")


def without_other_events(text: str, question: str | None) -> str:
    """``text`` without the clauses that date when the thing began, where another dates the asked event: "It was
    completed in 1889, two years after construction began in 1887" dates the completion (left in stop 86's note:
    several dates were a list, INCORRECT). A clause dates the asked event when it says a word of the question's
    predicate (its content words that are no names: "completed"), or it is a bare date first ("1889 (construction
    had begun in 1887)"); the clauses dropped each say how it began (``_event``), none of the predicate's words nor a
    name of the question the answer lacks. Unchanged unless both kinds are there, or after a refusal.

    >>> q = "When was the Eiffel Tower completed?"
    >>> without_other_events("It was completed in 1889, two years after construction began in 1887.", q)
    'It was completed in 1889, two years'
    >>> without_other_events("Construction began in 1887 and finished in 1889.", q)
    'Construction began in 1887 and finished in 1889.'
    >>> without_other_events("1889 (construction had begun in 1887).", q)
    '1889'
    >>> without_other_events("1993 (Miss USA came in 1994).", "What year was Kenya Moore crowned Miss USA?")
    '1993 (Miss USA came in 1994).'
    """
    predicate = topic.content_words(question or "") - topic.names(question or "")
    if not predicate or names_alternatives(normalize(text)) or one_date(date_spans(text)) is not None:
        return text  # one date, however said ("in 2014; it took effect on October 11"): nothing to choose
    if has_refusal(text) or _BEGAN.search(question or ""):
        return text  # "I don't know if it was completed in 1889; ..." (review 40); a question about the beginning
    cuts = [0] + [x for m in _CLAUSE_END.finditer(text) for x in (m.start(), m.end())] + [len(text)]
    spans = [(a, b) for a, b in zip(cuts[::2], cuts[1::2]) if text[a:b].strip(" .,;")]
    dated = [(a, b) for a, b in spans if date_spans(text[a:b])]
    if len(dated) < 2:
        return text
    asked = [(a, b) for a, b in dated if topic.content_words(text[a:b]) & predicate]
    first = dated[0]
    bare = not asked and first == spans[0] and not _DOES.search(text[first[0] : first[1]])
    answer = asked or ([first] if bare else [])
    others = [span for span in dated if span not in answer]
    # each other event a statement of its own ("construction began in 1887", not "started 1887"), naming none of
    # the question's names the answer lacks ("In 1993 she was crowned Miss Michigan; Miss USA came in 1994")
    lacked = topic.names(question or "") - {w for a, b in answer for w in topic.content_words(text[a:b])}
    if not answer or not others or not all(_event(text[a:b], lacked) for a, b in others):
        return text
    first_other = spans.index(others[0])
    if first_other == 0 or answer[-1][1] > others[0][0]:
        return text  # the asked event after another's: left as said
    return text[: spans[first_other - 1][1]]  # what follows the first other event goes with it


_MARGIN_SAID = re.compile(r"(?i)\u00b1|\+/-|\+-|\bplus or minus\b|\bplus/minus\b|\bgive or take\b")


def _compare_dates(gold: DateSpan, pred: DateSpan) -> Label:
    if _is_century(gold) and _is_century(pred) and gold.years != pred.years:
        return Label.INCORRECT  # the 15th century for the 14th: they share only their boundary year
    precise = True
    for g, p in ((gold.years, pred.years), (gold.months, pred.months)):
        if g is None:
            continue
        if p is None:
            precise = False
        elif p[1] < g[0] or p[0] > g[1]:
            return Label.INCORRECT
        elif not (g[0] <= p[0] and p[1] <= g[1]):
            if not (p[0] <= g[0] and g[1] <= p[1]):
                return Label.INCORRECT  # "2017-18" for the 2018-19 season: overlaps, neither holds the other (pass 31)
            precise = False
    if gold.day is not None:
        if pred.day is None:
            precise = False
        elif pred.day != gold.day:
            return Label.INCORRECT
    return Label.CORRECT if precise else Label.NOT_ATTEMPTED


def _is_span(span: DateSpan) -> bool:
    """Several years, said as a span ("1783-1784", "from 1939 to 1945"), not a month or day inside them."""
    return span.years is not None and span.years[0] < span.years[1] and span.months is None and span.day is None


def _is_century(span: DateSpan) -> bool:
    return span.years is not None and span.months is None and span.years[1] - span.years[0] == 100


_NAMED_NUMBER = re.compile(r"\b([A-Z][\w-]*)\s+(\d+(?:\.\d+)?)\b")  # "Veyron 16.4", "Apollo 11": a name's number


def number_verdict(candidate: Candidate, seg: str, gold_raw: str, gold: str, reading: Reading) -> Label | None:
    """Numbers: right to the gold's last significant figure (see ``answer_forms.gold_quantity``): a
    value in [gold - step/2, gold + step/2) is CORRECT, the upper end left out (so for 120k, step 10k:
    115k and 124,999 are CORRECT, 125k is INCORRECT, like 113k and 126k). An approximate value ("about
    100k", "around a hundred thousand") coarser than the gold's step that the gold falls within is too
    vague: NOT_ATTEMPTED, when at most two figures coarser (``_VAGUE_FIGURES``; far coarser, "about 9,000" for
    8,849, it is a wrong value unless it is the gold's at the gold's precision); so is a bound or range that
    holds the gold ("over 100k", "hundreds of thousands"); one that excludes the gold is INCORRECT. Several
    different numbers are a list, unless each narrows the others (a bound, then a value inside it:
    ``one_value``)."""
    want = gold_quantity(gold_raw)
    if want is None:
        return None
    if abs(want[0]) < 1000 and _other_figures_only(candidate.text, reading.question):
        return None  # "Three members; they released two albums.", "...; the band formed in 1994.": detail (review 47)
    text = without_other_counts(candidate.text, reading.question)  # "eight legs, in four pairs": one count
    for name, number in _NAMED_NUMBER.findall(reading.question or ""):  # "The Veyron 16.4 has ...": its name
        text = re.sub(rf"\b({re.escape(name)})\s+{re.escape(number)}(?![\d.,]*\d)", r"\1", text)
    found = quantities(text, in_asked_unit(gold_raw, reading.question))
    if found and other_dimension(text, in_asked_unit(gold_raw, reading.question)):
        return Label.INCORRECT  # "8,849 m²" or "8,849 m/s" for 8,849 m: another measurement
    if found and (_younger_unit(text, gold_raw, reading.question) or _another_thing(text, gold_raw, reading.question)):
        return Label.INCORRECT  # "15 months." for an age of 15, "Four boys." for four girls (hostile pass 53)
    if found and (measured := without_other_measures(text, in_asked_unit(gold_raw, reading.question))) != text:
        text, found = measured, quantities(measured, in_asked_unit(gold_raw, reading.question))
    if found and turns.other_currency(text, gold_raw):
        return Label.INCORRECT  # "€5 million" for $5 million, "12‰" for 12 %
    if found and _STRICT_THAN.search(lower(text)) and not _STRICT_THAN.search(lower(gold_raw)):
        if any(abs(q.low - want[0]) <= want[1] / 2 for q in found if q.kind == "exact"):
            return Label.INCORRECT  # "higher than 8,849 m": a strict bound leaves the gold out
    if gold_date(gold_raw) is not None and not questions.ASKS_MEASURE.search(reading.question.lower()):
        # a year gold: only a number that could be that year ("1,000" for 1000); "how many metres": a count
        found = [q for q in found if q.kind == "exact" and q.low >= 1000]
    if not found:
        return None
    value = single_value(found, candidate.text, want[0], reading.asked)
    if value is None:
        return Label.INCORRECT
    if value.kind == "approx" and _APPROX_GOLD.match(gold_raw):
        value = dataclasses.replace(value, kind="exact")  # "Roughly 500,000" for "about 500,000 years ago" (pass 35)
    # A measurement written with decimals ("1.73 m"): SimpleQA takes 1.75 as right; counts stay exact.
    # ... unless the question asks the precision itself ("to three decimal places", "significant figures")
    exact = bool({"decimal", "significant"} & reading.asked)
    slack = _MEASURE_SLACK if re.search(r"\d\.\d", gold_raw) and not exact else 0.0
    # SimpleQA: precision the question does not ask for is not required ("to two decimal places": 1.41 for 1.41421)
    step = max(want[1], asked_step(reading.question, want[0]) or 0.0)
    return _compare_quantity(want[0], step, value, slack)


_ASKS_AGE = re.compile(r"(?i)\bage\b|\bhow old\b")
_SHORTER_THAN_YEARS = re.compile(
    r"(?i)\b(?:\d[\d,.]*|[a-z]+(?:-[a-z]+)?)\s*(?:seconds?|minutes?|hours?|days?|weeks?|months?)\b"
)


def _younger_unit(text: str, gold_raw: str, question: str) -> bool:
    """An age asked, a bare number as the gold (years), and the answer counts it in a shorter unit: "15 months." for
    the age of consent 15 (hostile pass 53: CORRECT, as were weeks, days and minutes).

    >>> _younger_unit("15 months.", "15", "What is the age of consent in Poland?")
    True
    >>> _younger_unit("15 years old.", "15", "What is the age of consent in Poland?")
    False
    """
    asked = question.lower()
    return (
        bool(_ASKS_AGE.search(asked))
        and re.fullmatch(r"\s*\d[\d,.]*\s*", gold_raw) is not None
        and bool(found := _SHORTER_THAN_YEARS.search(text))
        and found.group().split()[-1].lower().rstrip("s") not in asked
    )


_COUNT_AND_THING = re.compile(r"(?i)^\W*(?:the\s+)?(\w+(?:-\w+)?)\s+([a-z]+)\W*$")


def _another_thing(text: str, gold_raw: str, question: str) -> bool:
    """The gold counts a thing ("four girls") and the answer the same count of another thing the question does not
    name: "Four boys." (hostile pass 53: only the count was compared; "Four dogs." was CORRECT too).

    >>> _another_thing("Four boys.", "four girls", "Who dies in The Watsons Go to Birmingham?")
    True
    >>> _another_thing("4 girls.", "four girls", "Who dies?"), _another_thing("Four of them.", "four girls", "?")
    (False, False)
    """
    gold, said = _COUNT_AND_THING.match(gold_raw), _COUNT_AND_THING.match(text)
    if gold is None or said is None or not all(_a_count(m[1]) for m in (gold, said)):
        return False
    thing, other = stem(gold[2].lower()), stem(said[2].lower())
    asked = {stem(w) for w in re.findall(r"[a-z]+", question.lower())}
    # only the other of a pair: "Two kids." for 2 children, "13 LPs" for 13 albums are the gold (landing review)
    return other not in asked and _OPPOSITE.get(thing) == other


_PAIRS = "boy girl, son daughter, man woman, men women, brother sister, male female, husband wife, king queen"
_OPPOSITE = {stem(a): stem(b) for pair in _PAIRS.split(", ") for x, y in [pair.split()] for a, b in ((x, y), (y, x))}


def _a_count(word: str) -> bool:
    return bool(re.fullmatch(r"\d[\d,.]*", word)) or numbers_in_words_to_digits(word.lower()) != word.lower()


def _other_figures_only(text: str, question: str) -> bool:
    """A clause with a verb in the past whose figures are all years said as years ("the band formed in 1994") or
    counts of something else than the question's count ("they released two albums" for how many members): none
    answers the count."""
    if not _PAST_VERB.search(text) or re.search(r"(?i)\b(?:one|ones)\b", text):
        return False  # "one of whom is Malia": a part of the count
    if counts_only_others(text, question):
        return True
    years = list(_YEAR_SAID.finditer(lower(text)))
    return bool(years) and len(quantities(text)) == len(years)


_PAST_VERB = re.compile(r"(?i)(?<!-)\b(?:[a-z]{3,}ed|began|became|won|took|came|went|had|made|wrote|sold|gave|left)\b")


_APPROX_GOLD = re.compile(
    r"(?i)\s*(?:about|around|roughly|approximately|approx\.?|circa|c\.|~|some|nearly|almost)\s*\d"
)


def single_value(found: list[Quantity], text: str, gold: float, asked: frozenset[str] = frozenset()) -> Quantity | None:
    """``one_value``, or None when an "or" offers the numbers as alternatives ("either 99.9 or just under 100").
    Beside a count below 1000, years are detail ("56 games, from May to July 1941", "five times (1951, 1954,
    ...)"), not other guesses, when another number is said."""
    if len(found) > 1 and names_alternatives(normalize(text)):
        return None
    years = {
        int(m.group(1) or m.group(2) or m.group(3)) for m in _YEAR_SAID.finditer(lower(text))
    }  # where a year stands
    if abs(gold) < 1000 and years:
        counts = [
            q
            for q in found
            if not (q.kind == "exact" and q.low in years)
            and not (q.kind == "range" and q.low in years and 1000 <= q.high <= 2100)  # "from 2005 to 2010" (pass 32)
        ]
        found = counts or found
    said = {float(w) for w in (numbers_in_words_to_digits(w) for w in asked) if w.isdigit()}
    if said and len(found) > 1:  # "A double-six set has 28 tiles": the question's own number, restated
        found = [q for q in found if not (q.kind == "exact" and q.low in said)] or found
    return one_value(found)


# a year where a date stands: after "in/since/from/until/to" or a month, or in a bracketed list of years
_YEAR_SAID = re.compile(
    rf"(?:\b(?:in|since|from|until|till|to|by|{MONTH_WORDS})\s+|\(\s*|(?<=\d),\s*|(?<=\d)\s+and\s+)"
    r"(1\d{3}|20\d{2})(?![\d.,]\d)(?!\s+(?!(?:and|to|through|until|till)\b)[a-z])"  # not "1941 games"
    r"|(?<![\d.,])(1\d{3}|20\d{2})(?=,\s*(?:1\d{3}|20\d{2})\b)"  # the first of a list of years
    r"|(?<![\d.,])(1\d{3}|20\d{2})(?=\s*[\u2013-]\s*(?:1\d{3}|20\d{2})\b)"  # a span of years: "2000\u20132005"
)


_VAGUE_FIGURES = 100  # an approximate value at most this many times coarser than the gold may be vague, not wrong
_MEASURE_SLACK = 0.015  # relative: 1.75 for 1.73 m (1.2 %) is right; 113k for 120k (5.8 %) is a count, exact


def _compare_quantity(value: float, step: float, q: Quantity, slack: float = 0.0) -> Label:
    eps = step * 1e-9
    half = max(step / 2, abs(value) * slack)
    lo, hi = value - half, value + half

    def within(x: float) -> bool:
        return lo - eps <= x < hi - eps

    if q.kind == "exact":
        return Label.CORRECT if within(q.low) else Label.INCORRECT
    if q.kind == "approx":
        if q.step <= step * (1 + 1e-9):
            return Label.CORRECT if within(q.low) else Label.INCORRECT
        vague_lo, vague_hi = q.low - q.step / 2, q.low + q.step / 2
        if not vague_lo - eps <= value < vague_hi - eps:
            return Label.INCORRECT
        # One or two figures coarser than the gold neither confirms nor contradicts it (SimpleQA: "around 100k" for
        # 120k; the held-out judge sets' hand labels: "Roughly 4,400 metres" for 4,421 m, seven such cases in sets
        # 12-20 that one figure paid INCORRECT).
        # Coarser still, a value that is not the gold's at the gold's precision names another number: "about
        # 9,000 metres" for 8,849 m is a committed wrong answer, not an abstention (issue #74).
        coarser = q.step / step
        # two figures coarser is vague only close to the gold: "About 100 rooms" for 98 (the review of pass 38), not
        # for 51 (the review of pass 37); "Roughly 4,400 metres" for 4,421 m
        close = abs(q.low - value) <= 0.2 * abs(value)
        if (coarser > _VAGUE_FIGURES * (1 + 1e-9) or (coarser > 10 * (1 + 1e-9) and not close)) and not within(q.low):
            return Label.INCORRECT
        return Label.NOT_ATTEMPTED
    inside = q.low < value < q.high if q.kind in ("above", "below") else q.low - eps <= value <= q.high + eps
    if not inside:
        return Label.INCORRECT
    if q.kind == "range" and within(q.low) and within(q.high):
        return Label.CORRECT
    return Label.NOT_ATTEMPTED


# a gold that is an order of magnitude and nothing more: "Thousands", "Millions of people"
_MAGNITUDES = r"(dozens|hundreds|thousands|millions|billions)"
_MAGNITUDE_GOLD = re.compile(rf"(?i)\W*(?:many\s+|several\s+)?{_MAGNITUDES}(?:\s+of\s+[a-z]+)?\W*")
# a magnitude multiplied, opening the answer: "hundreds of thousands", "tens of millions"
_TIMES_MAGNITUDE = re.compile(
    rf"(?i)\W*(?:(?:about|around|some|roughly|perhaps|maybe|probably|likely|several|many)\s+)*"
    rf"(?P<times>tens|{_MAGNITUDES[1:-1]})\s+of\s+(?P<of>{_MAGNITUDES[1:-1]})\b"
)


def other_magnitude(text: str, gold_raw: str) -> bool:
    """A gold that is an order of magnitude ("Thousands") and an answer that multiplies it ("Hundreds of
    thousands"): another order of magnitude, though it holds the gold's word (hostile pass 46: CORRECT).

    >>> other_magnitude("Hundreds of thousands.", "Thousands"), other_magnitude("Thousands of homes.", "Thousands")
    (True, False)
    >>> other_magnitude("Hundreds of thousands", "Hundreds of thousands"), other_magnitude("Hundreds of it", "Hundreds")
    (False, False)
    >>> other_magnitude("Hundreds of thousands.", "Hundreds")
    True
    >>> other_magnitude("Thousands, in a city of hundreds of thousands.", "Thousands")
    False
    """
    gold = _MAGNITUDE_GOLD.fullmatch(gold_raw)
    said = _TIMES_MAGNITUDE.match(text)
    if gold is None or said is None or _PAST_VERB.search(text):
        return False  # "Thousands, in a city of hundreds of thousands", "tens of thousands more watched": detail
    if times := _TIMES_MAGNITUDE.match(gold_raw):  # "Hundreds of thousands": that magnitude and no other
        return (times["times"].lower(), times["of"].lower()) != (said["times"].lower(), said["of"].lower())
    return gold[1].lower() in (said["times"].lower(), said["of"].lower())


_CALENDAR_CLASSES = (
    frozenset("monday tuesday wednesday thursday friday saturday sunday weekend weekday".split()),
    frozenset("january february march april may june july august september october november december".split()),
)


# a month's or weekday's short form, written with its point, before a number or at the end ("Jun.", "Oct 5", "Thu."):
# "Mar" or "Jan" inside a sentence may be a word or a name
_IN_FULL = {
    **{m[:3]: m for m in "january february march april june july august september october november december".split()},
    "sept": "september",
    **{d[:3]: d for d in "monday tuesday wednesday thursday friday saturday sunday".split()},
    "tues": "tuesday",
    "thur": "thursday",
    "thurs": "thursday",
}
_ABBREVIATED = re.compile(rf"(?i)\b({'|'.join(sorted(_IN_FULL, key=len, reverse=True))})(?:\.|(?=\s*\d)|\s*$)")


def other_calendar_word(text: str, gold_raw: str) -> bool:
    """The gold names a weekday or a month beside its number and the answer names another: "The fourth Saturday of
    September." for Fourth Sunday of September (hostile pass 55: only the ordinal was compared, so another weekday or
    month was paid). "May" is read as the month only in a gold that names it.

    >>> other_calendar_word("The fourth Saturday of September.", "Fourth Sunday of September")
    True
    >>> other_calendar_word("The fourth Sunday in September.", "Fourth Sunday of September")
    False
    >>> other_calendar_word("The fourth Sunday of September or October.", "Fourth Sunday of September")
    True
    >>> other_calendar_word("The second Sunday in Jun.", "Second Sunday of May")
    True
    """
    if not re.search(rf"(?i)\d|\b(?:{'|'.join(ORDINAL_WORDS)}|last)\b", gold_raw):
        return False  # no number beside: "August Wilson" names no month (landing review)
    text = _ABBREVIATED.sub(lambda m: _IN_FULL[m[1].lower()], text)  # "The second Sunday in Jun." (review 55)
    gold_words, said = set(re.findall(r"[a-z]+", gold_raw.lower())), set(re.findall(r"[a-z]+", text.lower()))
    for words in _CALENDAR_CLASSES:
        wanted, others = gold_words & words, (said & words) - gold_words
        if wanted and others and not said & wanted:
            return True
        pair = rf"(?:{'|'.join(wanted | others)})"
        if wanted and others and re.search(rf"(?i)\b{pair}\s*(?:,\s*)?(?:or|/)\s*{pair}\b", text):
            return True  # "the fourth Sunday of September or October": two months offered
    return False
