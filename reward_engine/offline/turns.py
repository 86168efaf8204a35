"""Ways an answer holds the right name or number and still says something else (hostile pass 6, issue #74).

The grader and Binary RAR's answer check both read these: "The father of Mozart" names Leopold, "Paris, I mean
Lyon" answers Lyon, "Paris vs. Lyon" offers two, "-1889" and "8,849 m below sea level" turn the sign, "Paris,
Texas" is another Paris. Plain text rules, no gold needed, so both readers share them.
"""

from __future__ import annotations

import re

from reward_engine.offline import places, questions
from reward_engine.offline.text_form import normalize
from reward_engine.offline.words import content_words

# a person or thing named by its relation to another ("the father of Mozart", "a moon of Jupiter")
RELATION = (
    r"(?:grand|great[- ]grand|step|half[- ]?)?(?:moons?|satellites?|neighbou?rs?|wife|wives|husbands?|widow(?:er)?s?|"
    r"sons?|daughters?|brothers?|sisters?|siblings?|fathers?|mothers?|parents?|child|children|cousins?|nephews?|"
    r"nieces?|uncles?|aunts?|friends?|rivals?|successors?|predecessors?|pupils?|students?|teachers?|mentors?|"
    r"partners?|colleagues?|assistants?|deputy|deputies|heirs?|twins?|ally|allies|spouses?|librettists?|patrons?|"
    r"biographers?|contemporar(?:y|ies)|disciples?|prot[eé]g[eé]e?s?|apprentices?|employers?|employees?|lovers?|"
    r"mistress(?:es)?|fianc[eé]e?s?|relatives?|descendants?|ancestors?|in-laws?|namesakes?|opponents?|enem(?:y|ies)|"
    r"servants?|imitators?|followers?|admirers?|critics?|collaborators?|co-?authors?|sidekicks?|companions?|"
    # another person standing in for someone ("Sam Elliott's stunt double" is not Sam Elliott: hostile pass 52)
    r"doubles?|stand-?ins?|understud(?:y|ies)|co-?stars?|look-?alikes?|impersonators?|replacements?|substitutes?|"
    r"ghost-?writers?|bodyguards?|managers?|agents?)"
)
_SUBJECT = r"(?:is|was|are|were|he|she|it|they|s|that|this|who|which)\b"  # a clause, not a noun phrase
_RELATION_OF = re.compile(rf"^(?:(?:one|some|any|each|all) of )?(?:(?!{_SUBJECT})[a-z]+ ){{0,2}}{RELATION} of $")
_RELATION_WORD = re.compile(rf"(?i)\b{RELATION}\b")


def written(name: str) -> str:
    """A regex for a normalised ``name`` as an answer may write it: its words apart by spaces or hyphens ("coat
    hanger" is "coat-hanger")."""
    return r"[\s-]+".join(re.escape(w) for w in name.split())


def relation_of(before: str, question: str | None = None) -> bool:
    """The normalised words before a name make the answer the other end of a relation ("father of", "largest moon
    of", "one of moons of"): a noun phrase naming someone or something else. Not with a subject ("He was the son
    of Leopold Mozart", "It's a moon of Jupiter" describe the question's subject), nor where the question asks
    for that relation ("Whose son was ...?").

    >>> relation_of("father of "), relation_of("largest moon of "), relation_of("composer ")
    (True, True, False)
    >>> relation_of("he was son of "), relation_of("it s moon of ")
    (False, False)
    >>> relation_of("son of ", "Whose son was Wolfgang Amadeus Mozart?")
    False
    """
    found = _RELATION_OF.match(before)
    if not found:
        return False
    said = {w.lower().rstrip("s") for w in _RELATION_WORD.findall(before)}
    asked = {w.lower().rstrip("s") for w in _RELATION_WORD.findall(question or "")}
    return not said & asked


# "Paris, I mean Lyon": what follows the last of these is the answer the response settles on
_CORRECTION = re.compile(
    r"(?i)(?:^|(?<=[\s,;:.!?(\u2013\u2014-]))\s*(?:\*\*|__)?(?:i mean|i meant|or rather|no,? wait|wait,? no|"
    r"correction(?=\s*[:\u2013\u2014-])|"
    r"(?:edit|update|updated answer|revised answer|new answer)(?=\s*:|\s+[\u2013\u2014-]\s)|"
    r"let me correct myself|scratch that|make that|i should (?:say|have said)|"
    r"(?:(?<=\w[.,;:!?]\s)|(?<=\w\s[\u2013\u2014-]\s))sorry(?=\s*[,:;\u2013\u2014-]+\s*(?:it'?s\s+|it is\s+)?"
    r"(?!(?:i|if|but|for|about|to|that|not|no|my|again)\b)(?-i:[A-Z0-9]))|"
    r"actually,? no|(?<!not )just kidding|on second thoughts?|on reflection|come to think of it|"
    r"(?:my )?final answer(?=(?:\*\*|__)?\s*:)|(?:my )?final answer is)\b(?:\*\*|__)?\s*[,:;\u2013\u2014-]?"
    r"(?:\*\*|__)?\s*(?:it'?s\s+|it is\s+)?(?=\S)"
)  # ... "Lyon. Final answer: Paris", "Lyon. Just kidding, it's Paris." (pass 21), "On second thought," (pass 24),
# "1974 - sorry, 1973." (pass 43): after an answer, before a name or a number (not "Sorry, I'm not sure.", "Paris.
# Sorry, it took me a while.", nor the title "Sorry, Wrong Number": review 44)
# "Lyon? No, Paris.": a guess asked and turned down, then a name (capitalised: "Paris? No, I'm sure." keeps Paris)
_TURNED_DOWN = re.compile(r"[?.!]\s*(?:[Nn]o|NO)\s*[,.!:;\u2013\u2014-]+\s*(?=(?!I\b)[A-Z0-9])")
_MEANT = re.compile(r"(?i)[,;]?\s*\bi mean (?:it|that|this)\b(?:,?\s*(?:really|seriously))?\s*[.!]*(?=\s|$)")
# ... "Lyon (edit: Paris)", "Lyon. Update: Paris." (hostile pass 26): only where a note opens (a sentence, a bracket,
# a line), not "Windows Update: ..." or "edit-distance"; a note about the writing ("edit: typo") changes no answer
_NOTE_MARKER = re.compile(r"(?i)\W*(?:\*\*|__)?\s*(?:edit|update|updated answer|revised answer|new answer)\b")
_OPENS = re.compile(r"(?:^|[.!?(\n\u2013\u2014]\s*|\s-\s*)$")
_EDIT_NOTE = re.compile(
    r"(?i)^\W*(?:fixed|fix|corrected|typos?|formatting|format|grammar|spelling|added|removed|clarified|clarity|"
    r"links?|sources?|wording|minor)\b(?!\s+(?:it\s+|this\s+|that\s+|the\s+answer\s+)?to\b)"
)
_NOT_BEFORE = re.compile(r"(?i)\bnot\s*[\"'\u201c\u2018]?\s*.?$")
# a marker inside a clause about the answer, not turning it: "Paris, which on reflection is obvious", "Paris is my
# final answer" (hostile pass 25)
_INSIDE_CLAUSE = re.compile(r"(?i)\b(?:which|that|who|is|was|be|been|being|my|his|her|its|their)\s*$")
# a denial in quotes: 'Lyon, not "final answer: Paris"' sets aside the quoted words, whatever they hold (pass 25)
_QUOTED_DENIAL = re.compile(r'(?i),\s*not\s+"[^"\n]*"')
# "the French one", "the one on the Seine": the answer given, pointed at again ("Paris, I mean the French one")
_SAME_ONE = re.compile(r"(?i)^\W*(?:the|that|this)\s+(?:[\w'-]+\s+){0,2}?one\b")
# what "I mean" may stand before and still add no answer: "I mean it.", "I mean, obviously." (hostile pass 23)
_EMPHASIS = frozenset("it that this really obviously seriously literally honestly so every word what i say".split())
_CLARIFYING = frozenset("the a an of everyone where obviously honestly like you which as in come".split())


def _clarifies(tail: str) -> bool:
    """What follows "I mean" says more about the answer, names no other: "the city itself", "of course", "everyone
    knows that" (hostile pass 25); not "lyon", "the capital is Lyon", "1887"."""
    words = re.findall(r"[A-Za-z']+|\d", tail)
    named = any(w[0].isupper() and w != "I" for w in words) or any(w.isdigit() for w in words)
    if re.search(r"(?i)\b(?:other|another|different)\b", tail):
        return False  # "Paris, I mean the other one": not the answer given
    return bool(words) and words[0].lower() in _CLARIFYING and not named or bool(_SAME_ONE.match(tail))


SETTLED_WORDS = 6  # what follows a correction is an answer when this short ("Paris, I mean Lyon")


def _emphasis_only(tail: str) -> bool:
    """Only words of emphasis after "I mean" ("it", "that, really"); a number is no emphasis ("2010, I mean 2011":
    hostile pass 42 read the empty set of words as emphasis and kept 2010)."""
    words = set(re.findall(r"[a-z']+", tail.lower()))
    return words <= _EMPHASIS and not re.search(r"\d", tail)


# "Some say Lyon, but it's Paris.": what others say, set aside for the answer (hostile pass 27)
_HEARSAY_BUT = re.compile(
    r"(?i)^\W*(?:some|many|most|others|a few|people|folks)(?:\s+people)?\s+(?:say|think|believe|claim|guess|assume)"
    r"\b[^.;!?]*?,?\s*but\s+(?:it'?s|it\s+is|it\s+was|the\s+answer\s+is|in\s+fact|actually)\s+(?=[A-Z0-9])"
)


# a later sentence that opens by taking the answer back: "Actually, ...", "Thinking about it more, ..."
_TAKES_BACK = re.compile(
    r"(?i)^\W*(?:actually|in fact|thinking about it(?:\s+(?:more|again|further))?|now that i think (?:about|of) it|"
    r"on (?:second thoughts?|reflection|further thought)|come to think of it|wait|correction|scratch that|"
    r"no,? wait|my mistake|sorry)\b\s*[,:;\u2013\u2014-]*\s*"
)
# ... giving the asked thing to a name in so many words: "the role belongs to X", "it was X", "the answer is X"
_GIVEN_TO = re.compile(
    r"(?i)^(?:it(?:'s|\u2019s|\s+is|\s+was)|the\s+(?:correct\s+|right\s+|real\s+)?answer\s+is|"
    r"the\s+(?:role|part)\s+(?:belongs|belonged|goes|went)\s+to|(?:they|the\s+producers)\s+gave\s+the\s+(?:role|part)\s+to)"
    r"\s+(?P<name>(?-i:[A-Z][\w'-]*)(?:\s+(?-i:[A-Z][\w'-]*))*)"
)  # not "Actually, Charlotte Bronte wrote it.": "In fact, Samuel Clemens wrote it under that pen name" (review 49)


def taken_back_for_another(text: str, question: str | None, golds: list[str]) -> bool:
    """A later sentence takes the answer back for a name of its own: "Arianne Zucker. Thinking about it more, the role
    belongs to Alison Sweeney." (hostile pass 49: CORRECT, the tail too long for ``settled``): only a sentence that
    gives the asked thing to the name in so many words ("it was", "the answer is", "the role belongs to"), not one
    about the answer or its world ("Actually, Samuel Clemens was his real name.", "In fact, the Louvre is there":
    review 49), nor one that names the gold.

    >>> taken_back_for_another("Zucker. Actually, the role belongs to Alison Sweeney.", None, ["Zucker"])
    True
    >>> taken_back_for_another("Arianne Zucker. Actually, she also played Nicole.", None, ["Arianne Zucker"])
    False
    """
    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    asked = set(re.findall(r"\b[A-Z][a-z]+", question or ""))
    for sentence in sentences[1:]:
        opened = _TAKES_BACK.match(sentence)
        given = _GIVEN_TO.match(sentence[opened.end() :]) if opened else None
        name = given["name"] if given else ""
        if not name or any(g.lower() in name.lower() for g in golds if g):
            continue  # "Actually, Samuel Clemens was his real name." (review 49)
        if set(re.findall(r"\b[A-Z][a-z]+", name)) - asked:
            return True
    return False


# a figure naming an item: "the £5 note", "a $20 bill", "the 50p coin", "Apollo 11"-like names are not this
_FIGURED_ITEM = re.compile(
    r"(?i)(?P<figure>[£$€¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:p|c|pence|cents?|dollars?|pounds?|euros?))\s+(?P<item>[a-z]+)"
)


def another_figured_item(text: str, question: str | None) -> bool:
    """The question asks about an item by its figure ("Who is on the £5 note?") and the answer speaks only of another
    figure of that item: "Churchill is on the £10 note." (hostile pass 49: CORRECT for Churchill, the £5's answer).

    >>> q = "Who is on the back of the £5 note?"
    >>> another_figured_item("Churchill is on the £10 note.", q), another_figured_item("Churchill, since 2016.", q)
    (True, False)
    >>> another_figured_item("Churchill is on the £5 note; Austen is on the £10 note.", q)
    False
    >>> another_figured_item("Churchill (the £10 note has Jane Austen).", q)
    False
    """
    asked = {(_figure(m["figure"]), m["item"].lower()) for m in _FIGURED_ITEM.finditer(question or "")}
    if not asked:
        return False
    items = {item for _, item in asked}
    first = re.split(r"[;(\u2013\u2014]|(?<=[A-Za-z])[.!?](?:\s|$)", text, maxsplit=1)[0]  # the answer's own clause
    said = {(_figure(m["figure"]), m["item"].lower()) for m in _FIGURED_ITEM.finditer(first)}
    said = {pair for pair in said if pair[1] in items}
    return bool(said) and not said & asked


def _figure(figure: str) -> str:
    return re.sub(r"[\s,]", "", figure.lower())


_NAMED_RUN = r"(?-i:[A-Z][\w'\u00c0-\u024f-]*)(?:\s+(?-i:[A-Z][\w'\u00c0-\u024f-]*))*"
# another name held possible beside the answer: "..., though Ciarán Hinds is possible", "I'd give X a 40% chance"
_HELD_POSSIBLE = re.compile(
    rf"(?i)\b(?:though|although|but)\b[^.;]*?\bgive\s+(?P<odds>{_NAMED_RUN})\s+an?\s+\d{{1,2}}\s*%\s+chance|"
    rf"\b(?:though|although|but|or)\s+(?:maybe\s+|perhaps\s+)?(?P<held>{_NAMED_RUN})\s+(?:is|was|seems|remains)\s+"
    r"(?:also\s+|quite\s+|very\s+)?(?:possible|plausible|likely|an?\s+(?:option|possibility|contender))|"
    # "Possibly it was George W. Bush instead.", "Then again, John Adams might have been the first." (review 53)
    # the name ends the clause: "it was Poe's most famous work" names the work, not Poe (landing review)
    rf"\b(?:possibly|perhaps|maybe)\s*,?\s+it\s+(?:was|is|could\s+be|might\s+be|may\s+be)\s+(?P<maybe>{_NAMED_RUN})"
    r"(?:\s+instead)?\s*(?:[.;!?]|$)|"
    rf"\b(?:then\s+again|on\s+the\s+other\s+hand|or\s+else)\s*,?\s+(?P<again>{_NAMED_RUN})\s+(?:might|may|could)\s+"
    r"(?:well\s+|also\s+)?(?:have\s+been|be\s+the)\b"
)


def rival_held_possible(text: str, question: str | None, golds: list[str]) -> bool:
    """The answer holds another name possible beside its pick: "Probably Jonathan Pryce, though I'd give Ciarán Hinds
    a 40% chance." offers two candidates (hostile pass 50: CORRECT; "though it might be X" was already caught).

    >>> rival_held_possible("Jonathan Pryce, though Ciarán Hinds is possible.", None, ["Jonathan Pryce"])
    True
    >>> rival_held_possible("Jonathan Pryce, though a cameo by Hinds is possible.", None, ["Jonathan Pryce"])
    False
    >>> rival_held_possible("Barack Obama. Possibly it was George W. Bush instead.", None, ["Barack Obama"])
    True
    """
    asked = (question or "").lower()
    for found in _HELD_POSSIBLE.finditer(text):
        name = found["odds"] or found["held"] or found["maybe"] or found["again"]
        if name.lower() not in asked and not any(name.lower() in g.lower() or g.lower() in name.lower() for g in golds):
            return True
    return False


# a correction said in Chinese: "Spot。不对，应该是 Penry。" ("no, it should be Penry")
_CJK_CORRECTION = re.compile(r"\s*[。.!！]?\s*(?:不对|不是|错了|更正)\s*[，,:：]?\s*(?:应该是|应为|是)?\s*")


def corrections_in_english(text: str) -> str:
    """A correction marker of another language written as the English rules read it: "Spot。不对，应该是 Penry。" as
    "Spot, I mean Penry." (hostile pass 50: CORRECT for Spot; the English form was INCORRECT).

    >>> corrections_in_english("Spot。不对，应该是 Penry。")
    'Spot, I mean Penry。'
    """
    return _CJK_CORRECTION.sub(", I mean ", text)


def settled(text: str) -> str:
    """What the answer settles on after correcting itself ("Paris, I mean Lyon" -> "Lyon"); ``text`` unchanged
    when it does not.

    >>> settled("Paris, I mean Lyon"), settled("Lyon, or rather Paris."), settled("Paris")
    ('Lyon', 'Paris.', 'Paris')
    >>> settled("Lyon? No, Paris."), settled("Paris? No, I am sure."), settled("Marseille... correction: Paris")
    ('Paris.', 'Paris? No, I am sure.', 'Paris')
    >>> settled("Lyon. Final answer: Paris"), settled("Lyon. Just kidding, it's Paris."), settled("Lyon. I mean it.")
    ('Paris', 'Paris.', 'Lyon.')
    """
    text = _MEANT.sub("", text)  # "Lyon. I mean it. Paris.": emphasis, not a correction to "it" (hostile pass 25)
    text = _QUOTED_DENIAL.sub("", text)
    hearsay = _HEARSAY_BUT.match(text)
    if hearsay:
        text = text[hearsay.end() :]
    found = [
        m
        for m in (*_CORRECTION.finditer(text), *_TURNED_DOWN.finditer(text))
        if not _NOT_BEFORE.search(text[: m.start() + 1])
        and not _INSIDE_CLAUSE.search(text[: m.start()])
        and not (_NOTE_MARKER.match(m.group()) and not _OPENS.search(text[: m.start()]))
    ]
    last = max(found, key=lambda m: m.end(), default=None)
    if last is None:
        return text
    tail = text[last.end() :]
    meant = re.search(r"(?i)\bi mean", last.group())
    if (
        (meant and (_emphasis_only(tail) or _clarifies(tail)))
        or (re.search(r"\w", tail) and _CONFIRMING.match(tail))
        or (_NOTE_MARKER.match(last.group()) and _EDIT_NOTE.match(tail))
    ):
        # "Lyon. I mean it.", "Paris, I mean the city itself.", "Paris. On second thought, that's right.": no new
        # answer (hostile passes 23, 25)
        return text[: last.start()]
    if len(tail.split()) > SETTLED_WORDS or not re.search(r"\w", tail):
        return text  # "Paris, and I mean the city proper, ...": an aside; "Lyon. Just kidding.": nothing new
    return tail


# words after "not" that make it no denial of the value that follows: a bound ("not before 1889"), a time ("not
# completed until 1889"), a hedge ("not sure it is 1889", "don't know, 1889")
_NOT_A_DENIAL = re.compile(
    r"(?i)\b(?:more|less|fewer|until|till|before|after|only|just|quite|exactly|even|yet|sure|certain|positive|"
    r"confident|know|knowing|remember|recall|much|many|far|long|so|too|very|at|over|under|above|below|around|about|"
    r"nearly|later|earlier|sooner|least|most|older|younger|higher|lower|larger|smaller|bigger|greater|longer|shorter|"
    r"beyond|past|within|exceeding|since|prior|upwards?|downwards?)\b"
)
_NEGATOR = re.compile(r"(?i)\b(?:not|never)\b|n['\u2019]t\b")
# a value: digits ("1,889", "8.8") or a count in words ("two", "twenty-one"): "Not two.", "two moons, not one"
_ONES = "one|two|three|four|five|six|seven|eight|nine"
_SPELLED = (
    rf"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[\s-](?:{_ONES}))?|{_ONES}|zero|ten|eleven|"
    r"twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|a hundred|a thousand)"
)
_VALUE = rf"(?:\d(?:[\d,.']*\d)?|(?i:\b{_SPELLED}\b))"
_FIRST_VALUE = re.compile(rf"\d|(?i:\b{_SPELLED}\b)")
_TURN = re.compile(r"(?i)[,;:!?]|\.\s|\b(?:but|though|although|however|yet|instead|and|while|whereas)\b")
# "Not 1887 but 1889", "not in 1887, but in 1889": one value set aside for the one that follows
_NOT_THAT_AFTER = re.compile(
    rf"(?i),?\s+(?:and\s+|but\s+)?not\s+(?:in\s+|on\s+)?{_VALUE}(?:\s*(?:[a-z]+|%|\u00b0[CF]?)\.?)?(?=\s*(?:[.;!?]|$))"
    # ... or said "rather than" anywhere, or in brackets: "1889 rather than 1887", "1889 (not 1887, as is said)"
    rf"|,?\s+(?:rather\s+than|instead\s+of)\s+(?:in\s+|on\s+)?{_VALUE}(?:\s*(?:%|\u00b0[CF]?|[a-z]+(?=\s*(?:[.;!?),]|$))))?"
    rf"|\s*\((?:and\s+|but\s+)?(?:not|rather\s+than|instead\s+of)\s+(?:in\s+|on\s+)?{_VALUE}[^()]*\)"
)
_NOT_THIS_BUT = re.compile(
    r"(?i)(?:\bnot|n['\u2019]t)\s+(?:in\s+|on\s+)?[^,;!?]*?\d[^;!?]*?(?:,?\s+but\s+(?:rather\s+)?|,\s+(?=it\s+(?:was|is)\b))"
)


def value_denied(text: str) -> bool:
    """The clause that gives ``text``'s first number denies it: "Not 1889.", "It was not completed in 1889",
    "It isn't 8,849 m" (hostile pass 17: each was CORRECT for its gold). A bound, a time or a hedge after the
    "not" is no denial, nor a "not" that a "but" turns.

    >>> value_denied("It was not 1889."), value_denied("not completed until 1889"), value_denied("I'm not sure, 1889")
    (True, False, False)
    """
    first = _FIRST_VALUE.search(text)
    if first is None:
        return False
    text = re.sub(r"(?i)\banything but\b", "not", text)  # "Anything but 1889." (hostile pass 18)
    first = _FIRST_VALUE.search(text)  # "Not two." too (hostile pass 19)
    clause = _TURN.split(text[: first.start()])[-1]
    # the value within a few words of the "not": "was not completed in 1889", not "did not finish the Requiem ..."
    return any(
        not _NOT_A_DENIAL.search(clause[m.end() :]) and len(clause[m.end() :].split()) <= 4
        for m in _NEGATOR.finditer(clause)
    )


def without_value_set_aside(text: str) -> str:
    """ "Not 1887 but 1889" -> "1889": the value set aside dropped, so the one given is read alone.

    >>> without_value_set_aside("Not 1887 but 1889"), without_value_set_aside("It was not in 1887, but in 1889.")
    ('1889', 'It was in 1889.')
    >>> without_value_set_aside("1889, not 1887."), without_value_set_aside("8,849 m, not 8,848 m")
    ('1889.', '8,849 m')
    >>> without_value_set_aside("It wasn't in 1887 but in 1889."), without_value_set_aside("Not 1989, it was 1991.")
    ('It was in 1889.', 'it was 1991.')
    >>> without_value_set_aside("1889 rather than 1887"), without_value_set_aside("1889 (not 1887, as is often said)")
    ('1889', '1889')
    >>> without_value_set_aside("Mars has two moons, not one.")
    'Mars has two moons.'
    """
    if "but" in text.lower() or "," in text:
        text = re.sub(r"\s{2,}", " ", _NOT_THIS_BUT.sub(" ", text)).strip()
    after = _NOT_THAT_AFTER.search(text)
    if after and _FIRST_VALUE.search(text[: after.start()]):
        text = text[: after.start()] + text[after.end() :]  # "1889, not 1887": the value set aside after it
    return text


# a closing confirmation of the answer given: "Paris? Yes.", "Paris. Yes, definitely."
_SURE = (
    r"(?:yes|yep|yeah|indeed|definitely|certainly|absolutely|really|right|correct|exactly|for sure|seriously|"
    r"no,? seriously|no doubt|i mean it|i mean that)"
)
_CONFIRMATION = (
    rf"\s*(?:{_SURE}\b[\s,.!]*)?(?:(?:that'?s|that is|it'?s|it is)\s+{_SURE}\b|{_SURE}\b)"
    r"[\s,.!]*(?:definitely|certainly|absolutely)?[.!]?\s*$"
)
_CONFIRMED = re.compile(rf"(?i)(?<=[?.!]){_CONFIRMATION}")  # "Paris? Yes.", "1889. Yes, really." (passes 21, 23)
_CONFIRMING = re.compile(rf"(?i)^{_CONFIRMATION}")  # what follows "On second thought," confirms (hostile pass 25)
# "Paris, or at least that's my guess": a hedge on one answer, not a second one ("Paris, or at least I think it's
# Lyon" offers two: pass 22)
_OR_AT_LEAST = re.compile(
    r"(?i),?\s+or at least (?=(?:that'?s|that is|this is|so i (?:think|believe|guess)|i think so|i believe so)\b"
    r"[^,;]{0,30}$)"
)
# how sure, as a word, a share or a score: "high", "90%", "9/10", "8 out of 10" ("(confidence: 9/10)": pass 33)
_SURENESS = (
    r"(?:\d+(?:\.\d+)?\s*(?:%|/\s*(?:10|100|5)|out\s+of\s+(?:10|100|5|ten))?|very low|very high|low|medium|"
    r"moderate|high)"
)
# a closing word on the answer given, or on how sure it is: "..., and that's no mistake", "Confidence: low"
_VOUCHED = re.compile(
    r"(?i)[,;.]?\s*(?:and\s+)?(?:that'?s|that is|this is)\s+(?:no mistake|no joke|for sure|a fact|certain)\s*[.!]*\s*$"
    r"|[,;:]\s*(?:no doubt(?: about it)?|without (?:a )?doubt)\s*[.!]*\s*$|(?<=[.!?])\s*100\s*%\s*[.!]*\s*$"
    # "Paris. I'm sure.", "Paris, I am 100% certain." (hostile pass 25: "I" read as a name the evidence lacks)
    r"|(?<=[.!?,;])\s*i(?:'m| am)\s+(?:100\s*%\s*|absolutely\s+|completely\s+|totally\s+|very\s+|quite\s+|"
    r"pretty\s+|fairly\s+|dead\s+)?(?:sure|certain|positive|confident)(?:\s+(?:of|about)\s+(?:it|that|this))?"
    r"\s*[.!]*\s*$"
    rf"|(?:^|[\s.;,(])\(?confidence(?: level)?\s*[:=-]\s*{_SURENESS}\)?\s*[.!]?\s*$"
    rf"|^\s*\(?confidence(?: level)?\s*[:=-]\s*{_SURENESS}\)?"
    r"\s*[.;,:]\s*"  # "Confidence: high. Paris." (hostile pass 24)
)
_ONE_ITEM = re.compile(r"^\s*1[.)]\s+(?=\S)(?![\s\S]*(?:^|\s)2[.)]\s)")  # "1. 1889": a list of one (pass 22)


def without_vouching(text: str) -> str:
    """``text`` without a closing "..., and that's no mistake" or "Confidence: high": words on how sure it is, no
    fact (the fact checker's claims too: hostile pass 23)."""
    return _VOUCHED.sub("", text)


def without_confirmation(text: str, question: str | None) -> str:
    """``text`` without a closing "Yes." that confirms its answer, a closing "that's no mistake" or "Confidence: low",
    a list number before its only item ("1. 1889"), and with "or at least that's my guess" read as the hedge it is,
    where the question is not a yes-or-no one (hostile passes 21-22: each read as a second answer).

    >>> without_confirmation("Paris? Yes.", "What is the capital?"), without_confirmation("Paris? Yes.", "Is it?")
    ('Paris?', 'Paris? Yes.')
    >>> without_confirmation("Paris, or at least that's my guess.", "What is the capital?")
    "Paris, at least that's my guess."
    >>> without_confirmation("Answer: Paris\\nConfidence: low", "Where?"), without_confirmation("1. 1889", "When?")
    ('Answer: Paris', '1889')
    """
    if _YES_NO.match(question or ""):
        return text
    for _ in range(4):  # closers stack: "Paris. Yes, really. I mean it. Confidence: high" (hostile pass 24)
        text, before = _VOUCHED.sub("", _CONFIRMED.sub("", text)), text
        if text == before:
            break
    return _OR_AT_LEAST.sub(", at least ", _ONE_ITEM.sub("", text))


# "Yes, Mozart": an opener that agrees with nothing asked (the question asks who, not whether)
_OPENER = re.compile(
    r"(?i)^\W*(?:yes|yeah|yep|sure|indeed|ok|okay|of course|certainly|well|no kidding|no doubt)\b\s*[,!.:\u2013\u2014-]"
    r"\s*(?=\w)"
)
_YES_NO = re.compile(
    r"(?i)^\W*(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|shall|may|might|must)\b"
)


def asks_yes_no(question: str | None) -> bool:
    """The question asks whether, not what: "Is Paris the capital?".

    >>> asks_yes_no("Is Paris the capital of France?"), asks_yes_no("What is the capital of France?")
    (True, False)
    """
    return bool(_YES_NO.match(question or ""))


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
    in_order = all(m[1].lower() == "abcd"[i] for i, m in enumerate(letters))  # "B. B. King" is a name
    if len(letters) >= 2 and in_order and letters[0].start() == 0 and not _LETTERED.search(gold):
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


def same_country(a: str, b: str) -> bool:
    """Two names of one country ("usa", "united states"; both normalised), neither a region of it."""
    if a == b or places.level(a) != places.COUNTRY or places.level(b) != places.COUNTRY:
        return a == b
    return _SAME_COUNTRY.get(a, a) == _SAME_COUNTRY.get(b, b)


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


# a country by an older name stands for the countries that hold its land now ("Moscow, Russia" for the Soviet Union)
_SUCCESSORS = {
    "soviet union": {"russia", "ukraine", "belarus", "kazakhstan", "georgia", "armenia", "azerbaijan", "estonia",
                     "latvia", "lithuania", "moldova", "uzbekistan", "turkmenistan", "tajikistan", "kyrgyzstan"},
    "ussr": {"russia"}, "ottoman empire": {"turkey"}, "prussia": {"germany", "poland"}, "persia": {"iran"},
    "siam": {"thailand"}, "ceylon": {"sri lanka"}, "rhodesia": {"zimbabwe"},
    "zaire": {"democratic republic of congo"},
    "yugoslavia": {"serbia", "croatia", "slovenia", "bosnia and herzegovina", "montenegro", "north macedonia"},
    "czechoslovakia": {"czech republic", "slovakia"}, "east germany": {"germany"}, "west germany": {"germany"},
    "burma": {"myanmar"},
}  # fmt: skip


# a country that shares its name with a region of another: "Atlanta, Georgia, USA" answers "the capital of Georgia"
_SHARED_NAMES = {"georgia": {"united states"}}


def _with_successors(where: set[str]) -> set[str]:
    return where.union(*(_SUCCESSORS.get(w, set()) | _SHARED_NAMES.get(w, set()) for w in where))


def another_place(after: str, where: set[str]) -> bool:
    """The words after a place name put it in a country other than the one(s) ``where`` it should be ("Paris,
    Texas", "Paris (Kentucky)" for the capital of France): another place of that name. Nothing is known
    without ``where`` (the question and the evidence name no country).

    >>> another_place(", Texas", {"france"}), another_place(", France", {"france"}), another_place(", Texas", set())
    (True, False, False)
    """
    if not where:
        return False
    where = _with_successors(where)
    for found in _QUALIFIER.finditer(after):
        named = country(found.group(1))
        if named is not None and named not in where:
            return True
        if named is None:
            break
    return False


# -- hostile pass 7 ---------------------------------------------------------------------------------------------------

# the answer puts the name down: "I doubt it's Paris", "Paris? Unlikely.", "Paris is a common misconception",
# "Paris - false.": the put-down stands right before or right after the name (normalised text)
_DOUBT_BEFORE = re.compile(r"\b(?:i doubt|doubtful|unlikely)(?: that)?(?: it s| it is| it was| it would be)?\s+$")
_DOWN_AFTER = re.compile(
    r"^\s*(?:(?:is|was|s|that s|that is|seems)\s+)?(?:just\s+|only\s+)?(?:(?:common|popular)\s+)?"
    r"(?:myth|misconception|false|wrong|incorrect|untrue|not true|unlikely|doubtful|urban legend)\b"
    r"(?!\s+(?:is|was|says|holds|has it)\b)"  # "Paris - a common misconception is that it's Lyon" (pass 22)
    # hostile pass 20: "1889 is a mistake", "1889 is not right", "Paris (not really)"; the copula asked where a
    # bare word is read otherwise ("Paris (error-free)", "Paris, not?": the review of pass 20)
    r"|^\s*(?:is|was|s|that s|that is)\s+(?:(?:common|popular|big|clear)\s+)?"
    r"(?:mistake|error|mistaken|not right|not correct)\b"
)
# the answer taken back at its end: "Paris (not really)", "Paris, not.", "1889 - not really" (hostile pass 20); not a
# tag question ("Paris, not?") nor a hedge ("Paris, not really sure")
_RETRACTED = re.compile(r"(?i)[,(\u2013\u2014-]\s*not(?:\s+really)?\s*\)?\s*[.!]*\s*$")


def retracted(text: str) -> bool:
    """``text`` ends by taking its answer back ("Paris (not really)").

    >>> retracted("Paris (not really)"), retracted("Paris, not."), retracted("Paris, not?"), retracted("Paris, no")
    (True, True, False, False)
    """
    return _RETRACTED.search(text) is not None


def put_down(before: str, after: str) -> bool:
    """The normalised words around a name put it down ("i doubt it s " before, " unlikely" or " is common
    misconception" after): no answer is given to it.

    >>> put_down("i doubt it s ", ""), put_down("", " unlikely"), put_down("", " is common misconception")
    (True, True, True)
    >>> put_down("", " that s right not false"), put_down("", " is capital"), put_down("", " not lyon")
    (False, False, False)
    """
    return bool(_DOUBT_BEFORE.search(before) or _DOWN_AFTER.match(after))


def value_put_down(seg: str) -> bool:
    """A normalised answer that puts its first number down after giving it: "1889 is wrong", "1889 is a mistake"
    (hostile pass 20: only names were read this way).

    >>> value_put_down("1889 is wrong"), value_put_down("1889 is mistake"), value_put_down("1889 not 1887")
    (True, True, False)
    """
    found = re.search(r"\d[\d,.]*", seg)
    return bool(found) and bool(_DOWN_AFTER.match(seg[found.end() :]))


# "Most people would say Paris, but that's a myth.": the sentence's last clause puts down what came before it
_PUTS_DOWN_BEFORE = re.compile(
    r"(?i)[,;\u2013\u2014-]\s*(?:but |and )?(?:that|this|which)(?:'s| is| was) (?:just |only |merely )?(?:a |an )?"
    r"(?:common |popular )?(?:myth|misconception|urban legend|mistake|wrong|false|not true|untrue|incorrect)"
    r"\s*[.!]?\s*$"
)


def puts_down_before(text: str) -> bool:
    """A sentence ends in a clause that puts down what came before it ("..., but that's a myth.").

    >>> puts_down_before("Most people would say Paris, but that's a myth.")
    True
    >>> puts_down_before("Paris. It's a common misconception that Lyon is the capital.")
    False
    """
    return any(_PUTS_DOWN_BEFORE.search(s) for s in re.split(r"(?<=[.!?])\s+", text.strip()))


# the question's premise denied first: "Not on any one person", "No one in particular", "No real person"
_PREMISE_DENIED = re.compile(
    r"(?i)^\W*(?:(?:it\s+was|he\s+was|she\s+was|there\s+was|there\s+is)\s+)?(?:not\s+(?:(?:based\s+)?(?:on|by|from)\s+)?any\s+"
    r"(?:one|single|particular|real)\b|no\s+(?:one|body|single\s+\w+|real\s+\w+|particular\s+\w+)\s+in\s+particular\b|"
    r"no\s+(?:single|real|particular)\s+(?:person|one|individual|man|woman)\b|nobody\s+in\s+particular\b)"
)
# ... then a name only as what others say: "Frank Mundus is often cited", "some credit Frank Mundus"
_SAID_BY_OTHERS = re.compile(
    r"(?i)\b(?:(?:often|sometimes|commonly|frequently|widely|usually|popularly)\s+(?:cited|credited|named|mentioned|"
    r"suggested|said|claimed|linked|given)|is\s+said\s+to|some\s+(?:say|credit|cite|claim|point\s+to|name)|"
    r"reportedly|rumou?red|(?:has|have)\s+been\s+(?:cited|suggested|named|credited))\b"
)


def premise_denied(text: str, question: str | None = None) -> bool:
    """The answer denies what the question takes for granted, then names a candidate only as what others say: "Not on
    any one person, though Frank Mundus is often cited." to "Who was Quint based on?" commits to no one (hostile pass
    47: CORRECT for Frank Mundus); "Frank Mundus, though some say it was a composite." commits to him.

    >>> premise_denied("Not on any one person, though Frank Mundus is often cited.")
    True
    >>> premise_denied("No one in particular; Frank Mundus is often cited.")
    True
    >>> premise_denied("Frank Mundus, though some say no one in particular."), premise_denied("No one in particular.")
    (False, False)
    >>> premise_denied("Nobody knows for sure; Frank Mundus is often cited.")
    False
    >>> premise_denied("No one in particular, some say, but it was really Pattie Boyd.")
    False
    >>> premise_denied("There was no real person behind Quint, though some point to Frank Mundus.", "Who was Quint?")
    True
    """
    found = _PREMISE_DENIED.match(text)
    if found is None:
        return False
    # every clause after it that names someone names them only as what others say: "..., but Frank Mundus, as is
    # often cited, was the main model" and "some say, but it was really Pattie Boyd" commit to a name (review 47)
    clauses = [c for c in re.split(r"[,;:()]|\s[-\u2013\u2014]\s", text[found.end() :]) if c.strip()]
    asked = set(re.findall(r"\b[A-Z][a-z]+", question or ""))
    named = [c for c in clauses if set(re.findall(r"\b[A-Z][a-z]+", c)) - asked]  # not the question's own names
    return bool(named) and all(_SAID_BY_OTHERS.search(c) for c in named)


# the name as the measure of something else: "a city bigger than Paris" (the answer is that phrase)
_THAN = re.compile(
    r"^(?:(?:a|an|the|some|any|one)\s+)?(?:(?!is\b|was\b|are\b|were\b|none\b|no\b)[a-z]+\s+){0,2}"
    r"(?:(?!none\b)\w+er|more|less|fewer) than\s+$"
    r"|^(?:some\s?(?:time|one|where|thing)\s+)?(?:before|after|prior to)\s+$"
)


def compared(before: str) -> bool:
    """The normalised words before a name make the answer another thing measured by it ("city bigger than",
    "planet larger than", "after"): the answer is that other thing. Not a statement ("saturn is smaller than"),
    nor "none other than".

    >>> compared("city bigger than "), compared("after ")
    (True, True)
    >>> compared("saturn is smaller than "), compared("none other than ")
    (False, False)
    """
    return bool(_THAN.match(before))


# the name as what was once so: "It used to be Paris", "Paris is no longer the capital"
_PAST_ONLY = re.compile(r"(?i)\b(?:used to be|no longer|not any ?more)\b")
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
    # others by name: "15 million francs" is no "$15 million" (hostile pass 27)
    ("franc", r"\b(?:french |belgian )?francs?\b|\bfrf\b"),
    ("krona", r"\bkron(?:a|e|or|er)\b|\bsek\b|\bnok\b|\bdkk\b"),
    ("peso", r"\bpesos?\b|\bmxn\b"),
    ("lira", r"\blir(?:a|e|as)\b|₺|\btry\b"),
    ("mark", r"\bdeutsche? ?marks?\b|\bdeutschmarks?\b|\breichsmarks?\b"),
    ("guilder", r"\bguilders?\b|\bgulden\b"),
    ("peseta", r"\bpesetas?\b"),
    ("drachma", r"\bdrachm(?:a|ae|as)\b"),
    *(
        (name, rf"\b{name}s?\b")
        for name in "rand real baht dinar dirham shekel zloty forint koruna rupiah ringgit escudo".split()
    ),
    ("percent", r"%|\bper ?cent\b|\bpercent(?:age)?\b"),
    ("permille", r"‰|\bper ?mille\b|\bper ?mil\b"),
    ("basis points", r"‱|\bbasis points?\b|\bbps?\b|\bpermyriad\b"),  # 12 bp is 0.12 % (hostile pass 8)
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
    return bool(re.search(rf"(?i)\b{written(name)}\b\W{{0,4}}[{_MARKED_WRONG}]", text))


_ROMAN = re.compile(r"M{0,4}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def roman(text: str) -> int | None:
    """A whole answer written as a Roman numeral of two or more letters ("MDCCCLXXXIX": 1889), else None.

    >>> roman("MDCCCLXXXIX"), roman(" XIV. "), roman("Paris"), roman("I")
    (1889, 14, None, None)
    """
    word = text.strip().strip(".").strip()
    return numeral_value(word) if len(word) >= 2 else None


def numeral_value(word: str) -> int | None:
    """A well-formed Roman numeral's value, one letter too ("XI": 11, "I": 1); None for any other word ("IC").

    >>> numeral_value("XI"), numeral_value("I"), numeral_value("IC")
    (11, 1, None)
    """
    if not word or not _ROMAN.fullmatch(word):
        return None
    values = [_ROMAN_VALUES[c] for c in word]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


_ROMAN_WORD = re.compile(r"\b[MDCLXVI]{4,}\b")


def romans_as_digits(text: str) -> str:
    """Roman numerals of four letters or more inside an answer as digits ("in MDCCCLXXXIX" -> "in 1889"); shorter
    ones stay, as they are mostly words or names ("MIX", "DC", "Louis XIV").

    >>> romans_as_digits("Completed in MDCCCLXXXIX."), romans_as_digits("Louis XIV in DC")
    ('Completed in 1889.', 'Louis XIV in DC')
    """
    return _ROMAN_WORD.sub(lambda m: str(roman(m.group())) if roman(m.group()) is not None else m.group(), text)


# "the capital of France": what a question asks of which thing (its relation and the thing's name)
_OF_NAME = r"(?:the\s+)?(?P<of>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)"
_ASKED_OF = re.compile(rf"\bthe\s+(?P<rel>[a-z]+(?:\s+[a-z]+)?)\s+of\s+{_OF_NAME}")


def other_subject(text: str, question: str | None, gold: str) -> bool:
    """The answer gives the gold what the question asks of one country as another country's ("Paris is the capital
    of Germany", "The capital of Germany is Paris", "Paris, capital of Germany") or makes the gold the thing the
    relation is of ("Lyon is the capital of Paris") (hostile pass 26: each was CORRECT, the gold being said). Only
    the gazetteer's countries compare: "Deutschland", "the FRG", "the U.S. state of Georgia", "Prussia" (a country
    before the asked one), a continent or a region may name the same place or say something true besides ("the
    fashion capital of Europe"); "also the capital of ..." adds a fact; "just as Berlin is the capital of Germany"
    is said of another subject (the review of pass 26: 23 true answers paid wrong by a broader rule).

    >>> q = "What is the capital of France?"
    >>> other_subject("Paris is the capital of Germany.", q, "Paris")
    True
    >>> other_subject("Lyon is the capital of Paris", q, "Paris")
    True
    >>> other_subject("Paris is the capital of France, just as Berlin is the capital of Germany.", q, "Paris")
    False
    >>> other_subject("Paris, often called the fashion capital of Europe.", q, "Paris")
    False
    """
    asked = _ASKED_OF.search(question or "")
    if asked is None or not gold.strip():
        return False
    rel = r"\s+".join(map(re.escape, asked["rel"].split()))
    said = written(normalize(gold))
    where = normalize(asked["of"])
    if places.COUNTRY not in places.levels(where):
        return False  # "the highest mountain of Africa": Tanzania lies in it (the review of pass 26)
    home = _with_successors({country(where) or where})
    for found in re.finditer(
        rf"(?i:\b{said}\s*,?\s+(?:(?:is|was|remains|became)\s+)?(?:the\s+)?{rel}\s+of)\s+{_OF_NAME}", text
    ):
        besides = re.match(r"(?i)[^.;]*?\b(?:as well|too|also|and of)\b", text[found.end() :])
        if _is_other_country(normalize(found["of"]), home) and not besides:
            return True  # not "German, the official language of Germany as well" (the review of pass 26)
    for found in re.finditer(rf"(?i:\bthe\s+{rel}\s+of)\s+{_OF_NAME}\s+(?i:is|was)\s+(?i:{said})\b", text):
        if _is_other_country(normalize(found["of"]), home):
            return True
    return bool(re.search(rf"(?i:\b{rel}\s+of\s+(?:the\s+)?{said})\b", text))  # "Lyon is the capital of Paris"


def _is_other_country(other: str, home: set[str]) -> bool:
    """``other`` (normalised) is a country that is none of ``home`` nor held one of them."""
    levels = places.levels(other)
    if places.COUNTRY not in levels and not (places.REGION in levels and places.country_of(other)):
        return False  # "Paris is the capital of Texas" too: a region the gazetteer places in another country
    named = country(other) or other
    return named not in home and not _with_successors({named}) & home


# another figure said of another part, in brackets or after the answer: "71% (29% is land)", "(land: 29%)", "; the
# other 29% is land"
_OTHER_MEASURE = re.compile(
    r"(?i)\s*\((?:the\s+(?:other|remaining|rest)\s+)?\d[\d.,]*\s*%?\s+(?:is|are|was|were)\s+(?:the\s+)?(?P<a>[a-z]+)[^()]*\)"
    r"|\s*\((?P<b>[a-z]+)\s*:\s*\d[\d.,]*\s*%?\s*\)"
    r"|\s*[;,]\s*(?:and\s+|while\s+)?the\s+(?:other|remaining|rest)\s+\d[\d.,]*\s*%?\s+(?:is|are|was|were)\s+"
    r"(?:the\s+)?(?:mostly\s+|mainly\s+|largely\s+|chiefly\s+)?(?P<c>[a-z]+)[^.;]*"
    # "19 years old (18 for military members)": the figure for another group (hostile pass 31)
    r"|\s*\((?:or\s+|but\s+)?\d[\d.,]*\s*%?\s+for\s+(?:(?:active|retired|current|former)\s+)?(?P<d>[a-z]+)[^()]*\)"
)


def _names(sentence: str, gold: str) -> bool:
    return f" {normalize(gold)} " in f" {normalize(sentence)} "


def without_other_measure(text: str, question: str | None) -> str:
    """``text`` without a figure it gives another part than the one asked, where a figure stays: "71% (29% is
    land)" for the share covered by water is 71% (hostile pass 26: read as two guesses).

    >>> q = "What percentage of the Earth's surface is covered by water?"
    >>> without_other_measure("71% (29% is land)", q), without_other_measure("About 71%; the other 29% is land.", q)
    ('71%', 'About 71%.')
    >>> without_other_measure("71% (29% is water)", q)
    '71% (29% is water)'
    """
    asked = {w.rstrip("s")[:5] for w in re.findall(r"[a-z]+", (question or "").lower())}

    def drop(found: re.Match[str]) -> str:
        noun = (found["a"] or found["b"] or found["c"] or found["d"]).lower()
        return found.group() if noun.rstrip("s")[:5] in asked else ""

    kept = _OTHER_MEASURE.sub(drop, text)
    return kept if kept != text and _FIRST_VALUE.search(kept) else text


_ORDINAL_GOLD = re.compile(
    r"(?i)^\W*(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th))\W*$"
)
_FROM_THE_END = re.compile(
    r"(?i)\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))[\s-]+"
    r"(?:to|from)[\s-]+(?:the[\s-]+)?(?:last|bottom|end)\b|\bpenultimate\b|\blast[\s-]+but[\s-]+one\b"
)  # next to the ordinal: not "holding on to the last minute" (the review of pass 27)


def counted_from_the_end(text: str, gold: str) -> bool:
    """An ordinal answer counted from the other end of the gold's: "2nd to last", "second from bottom" for the gold
    "second" (hostile pass 27: CORRECT).

    >>> counted_from_the_end("2nd to last", "second"), counted_from_the_end("second", "second")
    (True, False)
    """
    return bool(_ORDINAL_GOLD.match(gold) and _FROM_THE_END.search(text) and not _FROM_THE_END.search(gold))


def relation_values(text: str, question: str | None) -> list[str]:
    """The names a clause gives as the value the question asks for, in the question's own words: "the capital is
    Lyon" for "What is the capital of France?" or "Is Paris the capital of France?" (hostile pass 27: "..., yet the
    capital is Lyon." and "Yes, but the capital is actually Lyon." were CORRECT for Paris / Yes).

    >>> relation_values("Many think of Paris first, yet the capital is Lyon.", "What is the capital of France?")
    ['Lyon']
    """
    asked = _ASKED_OF.search(question or "")
    if asked is None:
        return []
    rel = r"\s+".join(map(re.escape, asked["rel"].split()))
    past = bool(re.search(r"(?i)\b(?:was|were)\b", question or ""))
    verb = "was" if past else r"(?:is|has\s+been|remains)"  # "Today the capital is Tokyo" answers no past question
    cue = (
        r"(?:\A\W*|(?<=[.!?\n])[ \t]*(?:\W{0,4}\s*)?|\b(?:yet|but|however|though|although|whereas|in fact|in reality|"
        r"actually|and|i believe|i think|i'd say|i would say|i guess|i'm (?:fairly |pretty |quite )?sure)"
        r"(?:\s+that)?,?\s+)"
    )  # the start of the answer or of a sentence, a contrast, "and", "I think"
    of = rf"(?:\s+of\s+(?:the\s+)?(?P<of>{_PARTICLED}))?"
    forward = re.finditer(
        rf"(?i:{cue}the\s+{rel}){of}(?i:\s+{verb}\s+(?:actually\s+|really\s+|in\s+fact\s+)?)"
        rf"(?P<name>{_PARTICLED})(?=\s*(?:[.;,!)]|$))",
        text,
    )
    backward = re.finditer(  # "Sydney is the capital." (the review of pass 28: a Rationale line saying it)
        rf"(?i:{cue})(?!The\s)(?P<name>{_PARTICLED})(?i:\s+{verb}\s+(?:actually\s+|really\s+)?the\s+{rel})"
        rf"{of}(?=\s*(?:[.;!]|$|(?i:since|from)\b))",
        text,
    )
    said = [*forward, *backward]
    where = normalize(asked["of"])

    def hearsay(at: int) -> bool:  # "..., but the capital is Sydney, a common myth": said of others
        return bool(_HEARSAY.search(text[at : _sentence_around(text, at)[1]]))

    return [
        m["name"].rstrip(".")
        for m in said
        if (not m["of"] or normalize(m["of"]) == where)
        and not hearsay(m.start())
        and m["name"] not in _PRONOUNS
        and not re.search(r"-[a-z]", m["name"])  # "The capital is French-speaking": a description
    ]  # the answer's own clause (first, after a contrast or "I think"), not "In Italy the capital is Rome"


def _sentence_around(text: str, at: int) -> tuple[int, int]:
    """The span of the sentence (or clause ended by ";") that holds position ``at``."""
    start = max(text.rfind(c, 0, at) for c in ".!?;") + 1
    ends = [e for e in (text.find(c, at) for c in ".!?;") if e >= 0]
    return start, min(ends, default=len(text))


# a name with its particles: "Rio de Janeiro", "Miguel de Cervantes", "Ludwig van Beethoven"
_PARTICLED = (
    r"(?:[A-Z]\.|[A-Z][\w'-]*)(?:[ \t]+(?:(?:de|da|do|dos|das|del|della|di|du|van|von|der|den|la|le|of|the|y)[ \t]+)*"
    r"(?:[A-Z]\.|[A-Z][\w'-]*))*"
)


_SUPERLATIVE = re.compile(r"(?i)\bthe\s+(?P<k>first|last|most\s+[a-z]+|[a-z]{2,}est)\b")
_WORD = r"(?:[A-Z]\.|[A-Z][\w'-]*)"  # "J." or "Armstrong": a name never runs on past a sentence's full stop
_NAME = rf"(?P<name>{_WORD}(?:[ \t]+(?:of[ \t]+|de[ \t]+|van[ \t]+)?{_WORD})*)"
_PRONOUNS = frozenset("He She It They This That These Those There We You I".split())


def role_given(text: str, question: str | None) -> list[str]:
    """The names a clause gives the superlative or rank the question asks for: "Buzz Aldrin was the first" for "Who
    was the first person to walk on the Moon?" (hostile pass 28: CORRECT beside "with Neil Armstrong following").

    >>> role_given("Buzz Aldrin was the first, with Neil Armstrong following him.", "Who was the first person?")
    ['Buzz Aldrin']
    """
    asked = _SUPERLATIVE.search(question or "")
    if asked is None:
        return []
    k = r"\s+".join(map(re.escape, asked["k"].lower().split()))
    head = re.match(r"\s+([A-Za-z]+)", (question or "")[asked.end() :])
    noun = (
        rf"\s+{re.escape(head[1])}\b" if head and head[1].lower() not in ("to", "in", "of", "on", "at", "for") else ""
    )
    # "Buzz Aldrin was the first." or "... the first person ...", not "the first in space", "the last Tsarina"
    after = rf"(?:(?i:{noun})|(?=\s*(?:[,.;!]|$)))" if noun else r"(?=\s*(?:[,.;!]|$))"
    said = re.finditer(rf"{_NAME}[ \t]+(?:is|was)[ \t]+(?i:(?:the\s+)?{k}){after}", text)
    return [
        m["name"]
        for m in said
        if m["name"] not in _PRONOUNS and not _HEARSAY.search(text[slice(*_sentence_around(text, m.start()))])
    ]


# verbs of one role, any of which the question's verb may be said with ("Who plays ...?": "voiced by")
_ROLE_VERBS = ("play voic portray star perform", "wrot writ written author", "direct", "compos", "sang sing sung",
               "paint", "design", "found", "invent", "discover", "built build", "develop", "produc")  # fmt: skip
_ROLE_OF = {w: i for i, group in enumerate(_ROLE_VERBS) for w in group.split()}
_AGENT = re.compile(
    r"\b(?:is|was|are|were|been|be)\s+(?:[a-z]+ly\s+)?(?P<verb>[a-z]+(?:ed|en|wn)|sung|built|made)\s+by\s+"
    # a description before the name: "the film's director,", "American comedian", "English author"
    r"(?:the\s+[\w']+(?:\s+[a-z]+)?,?\s+|(?:[A-Z][a-z]+\s+)?[a-z]+(?:\s+[a-z]+)?\s+(?=[A-Z]))?"
    rf"(?P<name>{_PARTICLED})"
)
# a question asking who did it, or which person or maker
_ASKS_MAKER = re.compile(
    r"(?i)\b(?:which|what)\s+(?:actor|actress|person|author|writer|director|composer|singer|"
    r"artist|painter|architect|company|studio|band)\b"
)
_ACTIVE_ROLE = re.compile(
    rf"{_NAME}[ \t]+(?:also[ \t]+|later[ \t]+)?(?P<verb>[a-z]+(?:ed|s)|sang|wrote|did[ \t]+the[ \t]+voice[ \t]+of)"
    r"[ \t]+(?:the[ \t]+(?:voice|role|part)[ \t]+of[ \t]+)?(?P<obj>[A-Z][\w'-]*(?:[ \t]+[A-Z][\w'-]*)*)"
    # the whole object: not "Toy Story 3's Woody"; a clause may follow ("..., and X voiced Ira": hostile pass 36)
    r"(?=\s*(?:[.,;:!?)]|$|\s(?:in|on|for|from|and|but|while|whereas)\b))"
)  # "Holly Hunter voiced Edna Mode", "Holly Hunter did the voice of Edna"


def role_of(word: str) -> int | None:
    """The role group of a word or its stem ("voice", "voic", "directed"), None for none ("start" is no "star")."""
    word = next(iter(content_words(word)), word.lower())
    if word.startswith("start"):
        return None
    return next((i for stem, i in _ROLE_OF.items() if word == stem or (len(stem) >= 4 and word.startswith(stem))), None)


def question_roles(question: str | None) -> set[int]:
    """The roles a question's words ask about ("Who voiced ...?", "Who did the voice of ...?")."""
    return {r for w in content_words(question or "") if (r := role_of(w)) is not None}


def named_in_another_role(text: str, question: str | None, golds: list[str]) -> bool:
    """A gold named as the doer of a role the question does not ask: "Brad Bird directed the film" to "Who did the
    voice of Edna Mode?" (hostile pass 31: with "..., but Edna Mode was voiced by Holly Hunter." paid right).

    >>> named_in_another_role("Brad Bird directed the film.", "Who voiced Edna Mode?", ["Brad Bird"])
    True
    >>> named_in_another_role("Brad Bird. He also directed it.", "Who voiced Edna Mode?", ["Brad Bird"])
    False
    >>> named_in_another_role("Gandolfini voiced Alexander.", "Who voices Carol?", ["Gandolfini"])
    True
    """
    roles = question_roles(question)
    for gold in golds:
        said = re.finditer(
            rf"(?i:\b{re.escape(gold)})\s+(?:also\s+|later\s+)?(?P<verb>[a-z]+ed|wrote|sang|made)\b", text
        )
        if any((r := role_of(m["verb"])) is not None and r not in roles for m in said):
            return True
    # the asked role, of another part: "Paul Dano voiced Carol; James Gandolfini voiced Alexander." (hostile pass 36)
    topic = content_words(question or "")
    for found in _ACTIVE_ROLE.finditer(text):
        verb = found["verb"] if " " not in found["verb"] else "voice"
        mine = any(found["name"].casefold() == gold.casefold() for gold in golds)
        # a part that shares no word with the question: "Rose DeWitt Bukater" is the asked Rose (review of pass 36)
        # a part sharing the question's first name-word, not only a family name: "Rose DeWitt Bukater" is the asked
        # Rose; "Vito Corleone" is not Michael Corleone (the reviews of passes 36 and 37)
        first = next(iter(content_words(found["obj"].split()[0])), "") if found["obj"].split() else ""
        other = not _the_asked(found["obj"], topic) and first not in topic
        if mine and role_of(verb) in roles and other:
            return True
    return False


_VERSION = re.compile(
    r"(?i)\b(?:1\d{3}|20\d{2}|original(?:ly)?|remake|version|production|broadway|stage|sequel|prequel|reboot|"
    r"musical|series|physically|later|earlier|first|subsequently)\b"
)


def _another_version(sentence: str, question: str) -> bool:
    """The sentence is about another version of the work or a part of the role ("In the 1989 Batman", "on
    Broadway", "physically played by"): a word of that kind the question does not say (the review of pass 31)."""
    asked = set(question.lower().split())
    return any(m.group(0).lower() not in asked for m in _VERSION.finditer(sentence))


def _the_asked(subject: str, topic: set[str]) -> bool:
    """The subject is what the question asks about and nothing more: its content words all the question's ("In Toy
    Story 3, Buzz"), or a bare pronoun; not "The older Rose", "her fiance Cal", "The Dark Knight's Batman"."""
    said = content_words(re.sub(r"(?i)^\s*in\s+", "", subject))
    if not said:
        return bool(re.fullmatch(r"(?i)\s*(?:he|she|it|they)\s*", subject))
    return said <= topic and not re.search(r"(?i)\b(?:his|her|their|its)\s", subject)


def agents_in_role(text: str, question: str | None) -> list[str]:
    """The agents of passives in the role the question asks about, said of its subject: "Holly Hunter" in "Brad
    Bird directed the film, but Edna Mode was voiced by Holly Hunter." for "Who did the voice of Edna Mode?" (hostile
    pass 31: CORRECT for Brad Bird, named in another role). "The film was directed by Lee Unkrich" (another role)
    gives none.

    >>> agents_in_role("Brad Bird directed it, but Edna Mode was voiced by Holly Hunter.", "Who voiced Edna Mode?")
    ['Holly Hunter']
    >>> agents_in_role("Tim Allen. The film was directed by Lee Unkrich.", "Who plays Buzz Lightyear?")
    []
    """
    roles = question_roles(question)
    if not roles or not (questions.ASKS_WHO.search(question or "") or _ASKS_MAKER.search(question or "")):
        return []  # "When was Hamlet written? ...; it was written by Shakespeare" (the review of pass 30)
    topic = content_words(question or "")
    out = []
    for found in _AGENT.finditer(text):
        subject = re.split(r"[.;!?,]|\b(?:and|while|but|whereas|though|although)\b", text[: found.start()])[-1]
        sentence = text[slice(*_sentence_around(text, found.start()))]
        if _another_version(sentence, question or ""):
            continue
        if role_of(found["verb"]) in roles and _the_asked(subject, topic) and found["name"] not in _PRONOUNS:
            if not _HEARSAY.search(text[slice(*_sentence_around(text, found.start()))]):
                out.append(found["name"])
    for found in _ACTIVE_ROLE.finditer(text):
        if _another_version(text[slice(*_sentence_around(text, found.start()))], question or ""):
            continue
        verb = found["verb"] if " " not in found["verb"] else "voice"
        if role_of(verb) in roles and _the_asked(found["obj"], topic) and found["name"] not in _PRONOUNS:
            if not _HEARSAY.search(text[slice(*_sentence_around(text, found.start()))]):
                out.append(found["name"])
    return out


def outdone(text: str, question: str | None, gold: str) -> bool:
    """The answer says something outdoes the gold in what the question asks the most of: "The Amazon is longer
    than the Nile." for the longest river (hostile pass 28: CORRECT, the gold being named).

    >>> outdone("The Amazon River, which is slightly longer than the Nile.", "What is the longest river?", "Nile")
    True
    >>> outdone("The Nile is longer than the Amazon.", "What is the longest river?", "Nile")
    False
    """
    asked = _SUPERLATIVE.search(question or "")
    if asked is None or asked["k"].lower() in ("first", "last"):
        return False
    k = asked["k"].lower()
    more = rf"more\s+{re.escape(k.split()[1])}" if k.startswith("most") else re.escape(k[:-3]) + r"(?:er|r)"
    said = written(normalize(gold))
    sentences = re.split(r"(?<=[.!?;])\s+", text)
    pattern = (
        rf"(?:^|\bthe\s+|[,;]\s*|\b(?:say|think|believe|but|though|although|while|whereas)\s+(?:the\s+)?)"
        rf"(?P<subj>{_WORD}(?:[ \t]+{_WORD})*)"
        rf"(?:[ \t]+(?:river|lake|mountain|planet|city|country|building|tower))?,?\s+(?:which\s+)?(?:is|was)\s+"
        rf"(?:(?:slightly|much|a\s+bit|far|even|somewhat|considerably)\s+)?(?i:{more})\s+than\s+(?:the\s+)?"
        rf"(?i:{said})\b(?!['\u2019]s)"
    )
    return any(
        (found := re.search(pattern, x))
        and found["subj"].split()[0] not in _NOT_A_SUBJECT
        and not _HEARSAY.search(x)
        and not _NOT_NOW.search(x)
        for x in sentences
    )  # not "No planet is larger than Jupiter", "Some argue the Amazon is longer", "was more populous until 2023"


# a question asking which of them came first (or last), and a clause putting the gold after (or before) another name
_ASKS_FIRST = re.compile(r"(?i)\b(?:first|earliest|earlier|oldest|older)\b")
_ASKS_LAST = re.compile(r"(?i)\b(?:last|latest|later|most\s+recent|newest|newer|youngest|younger)\b")
# a succession says the order too: "David Lewis took over the role from Les Tremayne" puts Lewis after (pass 60)
_AFTER = (
    r"after|later\s+than|newer\s+than|more\s+recently\s+than|more\s+recent\s+than|younger\s+than|following|"
    r"succeeded|replaced|(?:took|takes)\s+over\s+(?:[a-z]+\s+){0,3}?from"
)
_BEFORE = (
    r"before|earlier\s+than|older\s+than|sooner\s+than|preceding|ahead\s+of|preceded|"
    r"(?:was|were)\s+(?:succeeded|replaced)\s+by|handed\s+(?:[a-z]+\s+){0,3}?(?:over\s+)?to"
)


def said_the_wrong_side(text: str, question: str | None, gold: str) -> bool:
    """The answer puts the gold after another name where the question asks which came first ("Black Lightning came
    after Static Shock." to "Who came first, Black Lightning or Static Shock?"), or before one where it asks which
    came last (hostile pass 59: CORRECT, the gold being named).

    >>> asked = "Which came first, Black Lightning or Static Shock?"
    >>> said_the_wrong_side("Black Lightning came after Static Shock.", asked, "Black Lightning")
    True
    >>> said_the_wrong_side("Black Lightning, years before Static Shock.", asked, "Black Lightning")
    False
    >>> said_the_wrong_side("Mozart came first, after the war.", "Who came first?", "Mozart")
    False
    """
    first, last = _ASKS_FIRST.search(question or ""), _ASKS_LAST.search(question or "")
    if bool(first) == bool(last):
        return False  # neither, or both ("Who came first and who came last?")
    side, other_side = (_AFTER, _BEFORE) if first else (_BEFORE, _AFTER)
    said = written(normalize(gold))
    gold_words = set(normalize(gold).split())
    # the question's other options ("Black Lightning or Static Shock"), never any name it holds: "Andrew Johnson, who
    # came after Lincoln." answers "the first president after Lincoln" (landing review 59)
    options = " ".join(questions.offered(question)).lower()
    asked = set(re.findall(r"[a-z0-9][\w'-]*", options)) - gold_words
    name = r"(?:the\s+)?(?P<other>[A-Z0-9][\w'-]*(?:\s+[A-Z0-9][\w'-]*){0,2})"
    for sentence in re.split(r"(?<=[.!?;])\s+", text):
        if _HEARSAY.search(sentence):
            continue
        # the gold after the other option ("Black Lightning came after Static Shock"), or the other option before
        # the gold ("Beethoven was born before Mozart": review 59)
        found = re.search(rf"(?i:\b{said})\b(?P<between>[^.;!?]{{0,60}}?)\b(?i:{side})\s+{name}", sentence)
        mirror = re.search(
            rf"{name}\b(?P<between>[^.;!?]{{0,60}}?)\b(?i:{other_side})\s+(?:the\s+)?(?i:{said})\b", sentence
        )
        for hit in (found, mirror):
            words = set(hit["other"].lower().split()) - gold_words if hit else set()
            if hit and words & asked and not re.search(r"(?i)\b(?:first|last|earliest|latest)\b", hit["between"]):
                return True  # the question's other option, not a third name ("after Bach")
    return False


_NOT_A_SUBJECT = frozenset("No Nothing None Nobody Only Everything Every Some Many It This That He She They".split())
_NOT_NOW = re.compile(
    r"(?i)\b(?:until|planned|plans?|will|would|could|might|used to|once|formerly|from base|except|only|apart from|"
    r"other than|besides|but for)\b"
)  # ... nor "Only the Sun is larger than Jupiter", "Nothing except the Sun is larger than Jupiter"


_HEARSAY = re.compile(
    r"(?i)\b(?:some|many|most|others|a few|critics|scholars|people|tourists|visitors)\s+(?:\w+\s+)?"
    r"(?:argue|say|claim|believe|think|suggest|assume|guess|expect)"
    r"|\b(?:according to|it is (?:sometimes |often |commonly )?(?:said|argued|claimed|assumed|believed))\b"
    r"|\b(?:misconception|myth|mistakenly|wrongly|if you said|if you say|you'?d be wrong)\b"
)


# "(Parigi in Italian)", "(Paname in slang)": the answer's name in another tongue, no second answer (hostile pass 27)
_LANGUAGES = (
    "Italian|German|French|Spanish|Portuguese|Dutch|Russian|Chinese|Mandarin|Cantonese|Japanese|Korean|Arabic|Latin|"
    "Greek|English|Polish|Czech|Swedish|Norwegian|Danish|Finnish|Hungarian|Turkish|Hindi|Welsh|Irish|Gaelic|Catalan|"
    "Basque|Hebrew|Persian|Ukrainian|Romanian|Serbian|Croatian|Thai|Vietnamese|Indonesian|Malay|Swahili|slang"
)
_IN_ANOTHER_TONGUE = re.compile(
    rf"\s*\((?:also\s+|or\s+)?[^()]{{1,40}}?\s+in\s+(?:the\s+local\s+language|(?:{_LANGUAGES}))\)"
)  # only a language: "(a convent in Milan)" is a place (the review of pass 27)


def without_other_tongue(text: str) -> str:
    """``text`` without a bracketed name of its answer in another language.

    >>> without_other_tongue("Paris (Parigi in Italian)"), without_other_tongue("Munich (München in German).")
    ('Paris', 'Munich.')
    """
    return _IN_ANOTHER_TONGUE.sub("", text)


# a figure said as the measure of another: "366 days, one more than the usual 365", "instead of the usual 365"
_REFERENCE = re.compile(
    r"(?i),?\s*(?:(?:one|two|three|a few|a|\d+)\s+)?(?:more|less|fewer|longer|shorter|higher|lower|greater)\s+than\s+"
    r"(?:the\s+|a\s+|an\s+)?(?:usual|normal|common|standard|regular|typical|ordinary)\b[^,.;]*"
    r"|,?\s*instead\s+of\s+(?:the\s+)?(?:usual|normal|common|standard|regular|typical)\s+\d[\d,.]*(?:\s+[a-z]+)?"
)


def without_reference_figures(text: str, question: str | None, golds: list[str] = ()) -> str:
    """``text`` without figures said as another's measure ("one more than the usual 365") or that the question
    names ("the novel 1984" asked, "set in 1984" said), where a figure stays (hostile pass 29).

    >>> without_reference_figures("366 days, one more than the usual 365.", "How many days are in a leap year?")
    '366 days.'
    >>> without_reference_figures("Published in 1949, though set in 1984.", "When was the novel 1984 published?")
    'Published in 1949, though .'
    """
    kept = _REFERENCE.sub("", text)
    gold_numbers = {n for g in golds for n in re.findall(r"\d[\d,.]*\d|\d", g)}
    for named in set(re.findall(r"\b\d[\d,.]*\d\b|\b\d\b", question or "")) - gold_numbers:
        # the question's own name said again ("set in 1984"), never a figure the answer gives or hedges with
        kept = re.sub(rf"(?i)\b(?:set\s+in|called|titled|named)\s+{re.escape(named)}(?![\d.,]*\d)", "", kept)
    return kept if kept != text and _FIRST_VALUE.search(kept) else text
