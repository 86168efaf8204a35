"""Grading an answer against gold targets without a judge, by SimpleQA's rules.

For users who pay for no judge, for the offline demo, and for the test judge server, which
answers grading prompts with ``grade``. The three verdicts, in this module's words:

* CORRECT: the answer states everything the gold target says and contradicts none of it.
  Wording does not matter (case, punctuation, articles, word order, titles and middle names
  left out, numbers in words; see ``answer_forms``), extra true detail does not matter, and
  neither does hedging: "maybe 1992", "Paris, but I'm not sure" are CORRECT for 1992 / Paris.
* INCORRECT: the answer commits to something that conflicts with the gold, however hedged:
  "Lyon, but I'm not sure", "I don't know. My best guess is Lyon." and "I think it might be
  Lyon" are all INCORRECT for Paris. So are a list of candidates even when one is right
  ("Paris or Lyon"), a part of a multi-part gold given as if it were all of it ("Malia" for
  "Malia Obama and Sasha Obama"), a negated gold ("not Paris") and a number or date off the
  gold at the gold's own precision.
* NOT_ATTEMPTED: the answer commits to nothing that can be checked: a refusal ("I don't know",
  "I need more context"), a vague answer that the gold falls inside but that is coarser than
  the gold ("the early 1990s" for 1992, "May 2018" for 10 May 2018, "over a hundred thousand"
  for 120,000; an approximate value at most two figures coarser, "around 100k" for 120k, "roughly 4,400
  metres" for 4,421 m: "about 9,000 metres", three figures coarser than 8,849 m, is INCORRECT), a correct
  part of a multi-part gold that explicitly leaves the rest open ("one of them is Malia, but I'm not sure
  about the other"), or a refusal
  whose rest offers no answer ("I don't know who composed it. Mozart wrote Figaro, though.": an aside,
  whatever it names; read without the gold by ``commitment``, so a right and a wrong aside settle alike), or
  one with a side remark that agrees with the gold. An empty answer too.

How an answer is read (refusals and hedges set aside, candidates kept) is ``reading``.
Each candidate is graded against the gold (dates, then numbers, then text); any INCORRECT
candidate makes the answer INCORRECT, else any CORRECT one makes it CORRECT.

With the question (``grade(..., question=...)``), SimpleQA's question-dependent rules apply too: only
what the question asks is needed ("1989" when it asks the year of 9 November 1989, either side of
"Season 7, Episode 20: White Wedding"), what it already names may be left out ("Michelle" for Michelle
Obama), a side remark about its subject beside a refusal commits to nothing, and a vague description
that names nothing new ("a city in France" when it asks France's capital) is NOT_ATTEMPTED. Typos in
a person's name (same consonants) and a measurement 1.5 % off ("1.75" for 1.73 m) are CORRECT.
tests/test_simpleqa_rules.py carries every example of SimpleQA's grader template.

Conservative by design where rules cannot know better: the gold among a run of other words that
neither join a sentence nor come from the question ("it is lyon marseille nice toulouse paris"), a
list, a second guess said as a clause ("It might also be Lyon"), a negation, or a remark naming a new
name is not CORRECT (or NOT_ATTEMPTED, unless it follows a refusal and offers no answer), so the policy cannot win
by saying more; a right answer in one
sentence with detail ("Finland gained independence from the Soviet Union in 1917") is CORRECT, as
SimpleQA grades it. Known limits: the grader cannot tell a true remark from a false one beyond names
and numbers (a false detail beside the gold is paid), and without the question a vague *text*
answer ("a city in France") reads as INCORRECT, not NOT_ATTEMPTED.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Iterable

from reward_engine.labels import Label
from reward_engine.offline import (
    kinds,
    parallel,
    places,
    qualifiers,
    questions,
    rewrites,
    slots,
    spelling,
    structured,
    swaps,
    titles,
    towns,
    turns,
    values,
)
from reward_engine.offline.answer_forms import (
    HEAD_WORDS,
    HONORIFICS,
    MONTH_WORDS,
    date_spans,
    eras,
    family_name,
    gold_date,
    gold_quantity,
    gold_value_at,
    numbers_in_words_to_digits,
    one_date,
    quantities,
    same_answer,
    same_head,
    without_days_of_month,
    without_other_counts,
    without_titles,
)
from reward_engine.offline.commitment import commits
from reward_engine.offline.comparatives import comparison_verdict, ranked_below, runner_up, said_the_other_way
from reward_engine.offline.memo import short_memo
from reward_engine.offline.reading import (
    ABSTENTIONS,  # noqa: F401 - re-exported: grader.ABSTENTIONS, grader.is_abstention
    MAX_CHARS,
    POSSESSIVE_DESCRIPTION,
    RULED_OUT,
    RULED_OUT_SAID,
    SECTION_WORDS,
    Candidate,
    Reading,
    empty,
    find_word,
    has_refusal,
    is_abstention,
    lower,
    names_alternatives,
    prepare,
    read,
)
from reward_engine.offline.text_form import VERBS as _VERBS
from reward_engine.offline.text_form import is_statement, normalize
from reward_engine.offline.turns import (
    RELATION,
    another_place,
    as_options,
    countries,
    relation_of,
    settled,
    sign_turned,
    without_opener,
)
from reward_engine.offline.words import STOP, stem

_INCOMPLETE = re.compile(
    r"\b(?:one of (?:them|those|the \w+)|the others?|other one|others|the rest|at least|among (?:them|others)|"
    r"including|and more|etc|not all|one is|one was|another)\b"
)
_NEGATION_BEFORE = re.compile(
    r"\b(?:not|no|never|neither|nor|isn t|wasn t|aren t|weren t|don t|doesn t|didn t|hasn t|hadn t|won t|"
    r"cannot|can t|couldn t|wouldn t|nobody|none|"
    # the gold as the option set aside: "Lyon rather than Paris", "Lyon instead of Paris" (hostile pass 4)
    r"rather than|instead of|as opposed to|in place of|in lieu of|unlike|"
    # the claim denied as a whole: "It is not true that it is Paris" ("not untrue" affirms it; hostile pass 16)
    r"not (?:true|correct|right|(?:the )?case)(?: to say)? that|(?<!not )(?:false|untrue|wrong)(?: to say)? that)"
    r"\s+(?:\w+\s+){0,3}$"
)
# the gold as what did not happen: "A world that narrowly avoided a nuclear holocaust" for Nuclear Holocaust (hostile
# pass 54); not where the question asks what was avoided ("Which war did the treaty avert?"). "Escaped" and "evaded"
# are left out: a place escaped from is often what is asked ("He escaped from Alcatraz": review 55); "prevent" only
# where the question asks no protection or treatment ("It prevents polio." for what a vaccine protects against)
_KEPT_OFF = re.compile(
    r"\b(?:avoid|avoids|avoided|avoiding|avert|averts|averted|averting|forestalled|narrowly missed|steered clear of|"
    r"staved off|warded off|headed off|(?P<prevent>prevent|prevents|prevented|preventing))\s+(?:\w+\s+){0,2}$"
)
_ASKS_KEPT_OFF = re.compile(
    r"(?i)\b(?:avoid|avert|prevent|forestall|stave|ward|head(?:ed)? off|steer)|"
    r"\b(?:against|protect|treat|cure|vaccin|stop|fight|reduce|lower)"
)
# an office under the gold's: "The Deputy Prime Minister." for Prime Minister, "the Vice President" (hostile pass 56)
_UNDER_OFFICE = re.compile(r"\b(?:deputy|vice|lieutenant|assistant|associate|acting|under secretary)[\s-]+$")
# golds that are offices: only there does "deputy", "vice" or "acting" name another one ("Lieutenant John Chard." for
# John Chard names him: landing review)
_OFFICE = re.compile(
    r"(?i)\b(?:minister|president|governor|secretary|chancellor|director|general|admiral|chair(?:man|woman|person)?|"
    r"mayor|premier|commander|chief|speaker|treasurer|manager|editor|principal|prime|head|leader|captain|marshal|"
    r"commissioner|ambassador|attorney|justice|sheriff|superintendent|dean|provost|rector|president)\b"
)
# the gold as the option passed over: "She chooses Raoul over the Phantom", "prefers Raoul to the Phantom", "Raoul
# over the Phantom" (hostile pass 55), only where the question asks for a choice (who is chosen, picked, married);
# "He chose to go to Harvard Law School" is no preference (review 55)
_PASSED_OVER = re.compile(
    r"(?:\b(?:choose|chooses|chose|chosen|choosing|pick|picks|picked|select|selects|selected|favou?rs?|favou?red|"
    r"opts? for|opted for|marries|married|ends up with|goes with|went with)\b(?:\s+\w+){1,4}?\s+(?:over|above|ahead of)"
    r"|\bprefer(?:s|red|ring)?\b(?:\s+\w+){1,4}?\s+(?:to|over))\s+(?:the\s+)?$"
)
# the gold as the one beaten: "Al Gore beat George W. Bush." to who won (review 55), or beating itself "Bush lost to
# Gore"; only where the question asks a winner (``swaps.asks_a_win``), so "Wellington defeated Napoleon." answers whom
# he defeated
_BEATEN = re.compile(
    r"\b(?:beat|beats|beat out|beats out|defeated|defeats|edged out|edges out|outpolled|overcame|upset|knocked out|"
    r"knocks out|eliminated|eliminates)\s+(?:the\s+)?$"
)
_LOST_TO = re.compile(
    r"^[\s,]+(?:who\s+|which\s+)?(?:lost to|loses to|lost out to|fell to|(?:(?:was|were|got)\s+)?(?:beaten|defeated|"
    r"knocked out|eliminated|upset|outscored|outpointed|edged out) by)\b"
)  # "Muhammad Ali was knocked out by George Foreman." for who won (review 57); after a comma too (review 59)
# the gold as the winner where the loser is asked: "Ali was knocked out by George Foreman." for who lost (review 59)
_WINNER_BEFORE = re.compile(
    r"\b(?:(?:was|were|got)\s+)?(?:beaten|defeated|knocked out|eliminated|upset|outscored|edged out)\s+by\s+"
    r"(?:the\s+)?$|\b(?:lost|loses|fell)\s+to\s+(?:the\s+)?$"
)
_BEAT_AFTER = re.compile(
    r"^\s+(?:beat|beats|defeated|defeats|knocked out|knocks out|eliminated|edged out|upset|overcame|outscored)\b"
)
# ... unless the answer then gives the gold a win: "Nadal was beaten by Federer in 2007 but won in 2008" (review 57)
_WON_AFTER = re.compile(
    r"\b(?:won|wins|win|winning|prevailed|triumphed|victorious|beat|beats|defeated|defeats|took|claimed|captured)\b"
)
_NAME_OVER = re.compile(r"^\W*[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}\s+over\s+(?:the\s+)?$")  # "Raoul over [the Phantom]"
# the gold as what the answer is taken for: "A Saint Bernard, often mistaken for an English Mastiff" (pass 31); not
# where the question asks what is mistaken ("Which planet is often mistaken for a star?": its review)
_MISTAKEN_FOR = re.compile(
    r"\b(?:mistaken for|mistook (?:it|him|her|them) for|confused with|confuses (?:it|him|her|them) with|"
    r"(?:mistakenly|wrongly|falsely|erroneously) (?:\w+ )?(?:think|thinks|thought|believe|believes|believed|say|says|"
    r"said|called|identified as|claim|claims|claimed)|some say|some think)\s+(?:\w+\s+){0,3}$"
)
_ASKS_A_MISTAKE = re.compile(r"(?i)\b(?:mistak|confus|think|thought|believ|wrong|say|said|claim)")
# the gold as the one left or passed over: "she finally divorces Jake", "she chooses him over Stefan"
_LEFT_BEHIND = re.compile(
    r"\b(?:divorces|divorced|dumps|dumped|dumping|jilts|jilted|jilting|rejects|rejected|rejecting|spurns|spurned|"
    r"spurning|leaves|(?:breaks|broke) up with|(?:turns|turned|turning) down|"
    r"(?:chooses|chose|picks|picked|prefers|preferred)(?: \w+){1,2} over)\s+$"
)
# a proposal or suitor refused: never the one married, even where a question about a spouse lets "divorced" stand
_REJECTED = re.compile(r"^(?:reject|spurn|jilt|turn|turning)")
# ... then taken: "She first turns down Mr. Darcy, then accepts him", "... she eventually weds him" (landing review)
_ACCEPTED_LATER = re.compile(r"(?i)\b(?:accept\w*|wed|weds|wedded|agree\w* to marry|says? yes)\b")
_ASKS_A_REJECTION = re.compile(r"(?i)\b(?:reject|spurn|jilt|turn(?:s|ed)? down|refuse)")
_ASKS_A_PARTING = re.compile(
    r"(?i)\b(?:divorc|leave(?!s? with)|left(?! with)|dump|reject|break up|broke up|split|jilt|turn(?:ed|s)? down|"
    r"husband|wife|spouse|marr|wed)"
)
# ... and back together after: "She finally divorces Jake, only to remarry him at the end."
_BACK_TOGETHER = re.compile(
    r"(?i)\b(?:remarr\w*|marries|married|back together|reunit\w*|end(?:s|ed)? up with|run off together|ran off "
    r"together|finally dat\w*|gets? back|got back|returns? to|stays? with|chooses|chose)\b"
)


# the gold ranked below the top the question asks for: "the Nile is second", "with the Nile second", "the Nile comes
# third", "the Nile, the second longest"
_RANKED_AFTER = re.compile(
    r"\s+(?:is|was|comes|came|ranks|ranked|finished|placed)\s+(?:only\s+)?(?:the\s+)?"
    r"(?:second|third|fourth|fifth|2nd|3rd|4th|5th|runner[\s-]up)(?!\s+to\s+none)"
    r"(?=\s*(?:[.;,)!]|$|(?:longest|largest|biggest|highest|tallest|most|place|to)\b|[a-z]+est\b))"
)  # a copula: not "Titan, second largest moon in the Solar System", "Djokovic, second to none"
_WITH_IT_AFTER = re.compile(r"\bwith\s+(?:the\s+)?$")  # "The Congo, with the Nile second."
_ASKS_THE_TOP = re.compile(
    r"(?i)\b(?:longest|largest|biggest|highest|tallest|oldest|youngest|deepest|fastest|smallest|shortest|greatest|"
    r"heaviest|lightest|earliest|latest|hottest|coldest|richest|most|first|top|best|worst|number one)\b"
)
# a question that asks for a rank below the top itself: "the second largest country", "Who finished second?"
_ASKS_A_RANK = re.compile(r"(?i)\b(?:second|third|fourth|fifth|2nd|3rd|4th|5th|runners?[\s-]up|next)\b")


_COMPANY_SUFFIXES = frozenset(
    """inc ltd corp co llc plc ag gmbh sa nv bv corporation company studios studio electronics group holdings motors
    airlines incorporated limited international entertainment technologies industries records pictures games labs
    software systems""".split()
)


def _one_name_goes_on(text: str, before: str, gold: str, known: str = "") -> bool:
    """A one-word gold that the answer runs on into a longer name: "Queen Latifah." for the band Queen (where a
    person is asked, the next word may be the gold's own family name: "Michelangelo Buonarroti"); not a place's
    kind or a place after it ("Amazon River", "Paris Texas" is the other rules'), nor a company's suffix ("Apple
    Inc."), nor a word of ``known`` (the gold as written and the question: "Outstanding Paper" for the asked
    award's "Outstanding Paper Award").

    >>> _one_name_goes_on("Queen Latifah.", "", "queen"), _one_name_goes_on("The Amazon River.", "the", "amazon")
    (True, False)
    """
    if " " in gold:
        return False
    following = normalize(spelling.next_word(text, before))
    if not following or following in HEAD_WORDS or following in _COMPANY_SUFFIXES or places.level(following):
        return False
    run = re.search(rf"(?i:\b{re.escape(gold)}\b)((?:\s+[A-Z][\w&.'-]*){{1,3}})", text)
    if run and _COMPANY_SUFFIXES & set(normalize(run[1]).split()):
        return False  # "Pixar Animation Studios.": the company's full name (the landing review of pass 63)
    if following in normalize(known).split():
        return False
    return spelling.another_name_after(text, before, gold)


_HYPHEN_SUFFIXES = frozenset("based born bred style like era made type esque class wide speaking language".split())


# a question that asks for a firm or a brand: its hyphened name is the firm's own ("Mercedes-Benz" for Mercedes)
_ASKS_A_FIRM = re.compile(
    r"(?i)\b(?:company|companies|brand|make\s+of|manufacturer|maker|carmaker|automaker|firm|marque|label)\b"
)


def _hyphened_to_another(text: str, variant: str, gold_raw: str, question: str = "") -> bool:
    """The gold is one part of a hyphened word whose other part the gold does not hold: another direction,
    another state or another thing ("North-west" for north, "Austria-Hungary" for Austria); not a description
    ("Paris-based", "Gothic-style"), nor a firm's full name where a firm is asked ("Mercedes-Benz." for the maker
    Mercedes: the landing review of pass 63).

    >>> _hyphened_to_another("North-west.", "north", "north"), _hyphened_to_another("Paris-based.", "paris", "Paris")
    (True, False)
    >>> _hyphened_to_another("Mercedes-Benz.", "mercedes", "Mercedes", "Which carmaker builds the S-Class?")
    False
    """
    if " " in variant or _ASKS_A_FIRM.search(question):
        return False
    gold_words = set(normalize(gold_raw).split())
    for found in re.finditer(rf"(?i)(?:\b([^\W\d_]+)-)?\b{re.escape(variant)}\b(?:-([^\W\d_]+)\b)?", text):
        for part in (found[1], found[2]):
            word = normalize(part).strip() if part else ""
            if len(word) > 1 and word not in gold_words and word not in _HYPHEN_SUFFIXES:
                return True
    return False


def _left_behind(before: str, text: str, reading: Reading) -> bool:
    """The gold as the one left or passed over ("she finally divorces Jake", "chooses him over Stefan"), where the
    question asks whom someone ends up with, not a spouse or a parting, and the answer does not bring them back
    together ("..., only to remarry him"), nor leaves a place ("The Mayflower leaves Plymouth"; the review of pass
    32)."""
    found = _LEFT_BEHIND.search(before)
    if found is None:
        return False
    if _REJECTED.search(found.group(0)):  # "She marries Darcy, turning down Mr. Collins." for whom she marries
        verb = re.search(rf"(?i)\b{re.escape(found.group(0).split()[0])}", text)
        later = text[verb.end() :] if verb else text  # "..., only to marry him later" brings them back together
        taken_back = _BACK_TOGETHER.search(later) or _ACCEPTED_LATER.search(later)
        return not _ASKS_A_REJECTION.search(reading.question) and not taken_back
    if _BACK_TOGETHER.search(text[-200:]) or _ASKS_A_PARTING.search(reading.question):
        return False
    return not found.group(0).startswith("leaves") or bool(questions.ASKS_WHO.search(reading.question))


_NEGATION_AFTER = re.compile(
    r"^\s*(?:is|was|are|were|has|had|does|did|do|can|could|would|will)(?:\s+not\b|\s+never\b|n\s+t\b)"
)
# The gold as a landmark for something else: "a city near Paris", "a suburb of Paris", "just north of Paris" name
# another place ("in the north of France", normalised without its article, is inside it and stays a match)
_RELATIVE_TO = re.compile(
    r"\b(?:near|nearby|outside(?: of)?|close to|next to|not far from|beside|suburbs? of|outskirts of|"
    r"(?<!in )(?:north|south|east|west|northeast|northwest|southeast|southwest) of)\s+$"
)
# a second guess said as a clause (normalised text): "[Paris.] It might also be Lyon.", "[paris] and so is lyon"
_ANOTHER_GUESS = re.compile(
    r"\b(?:(?:it|that|this|answer) )?(?:might|could|may|can) (?:also|equally|just as well|as well) be\b"
    r"(?! (?:\w+ed|called|known|seen|thought of|considered|regarded|described)\b)"  # "might also be called"
    r"|\bso (?:is|was|are|were|could|might|may)\b"
)
# a comma between digits that groups thousands ("299,792,458") separates no items
_ITEM_SPLIT = re.compile(r"(?<!\d),|,(?!\d{3}(?!\d))|[;/&\n]|\band\b|\bas well as\b|\bplus\b")
# a quotation of four words or more, closed or cut off by the sentence split ('the slogan "You press the button,
# we do the rest'): its commas are the quote's, not a list's (quoted single words stay items: '"A", "B"')
_QUOTED = re.compile(
    r'"(?=(?:[^"\s]+\s+){3}[^"\s])[^"]*(?:"|$)'
    r"|\u201c(?=(?:[^\u201d\s]+\s+){3}[^\u201d\s])[^\u201d]*(?:\u201d|$)"
)
_NON_CANDIDATE_START = frozenset(
    "the a an this that these those which who whom whose where when what in on at of for from with by to as is was "
    "are were has had have it its he she they his her their both each all who's which's born known also others other "
    "more etc many several some rest so".split()
    # an adverbial opener: "besides looking neat", "unlike animals" (a clause, no guess; not "unless", "if not")
    + "besides unlike because whereas either".split()
)
_PRONOUNS = frozenset("he she they it his her their its".split())
_STOP = frozenset(
    "the a an and or of in on at to for from by with is are was were be his her their its it he she they this that "
    "de la le von van der".split()
)


def _multi_part(item: str) -> bool:
    """A gold target that lists several things: "X and Y", "X & Y", "X, Y, Z" (one comma is a qualifier)."""
    return bool(re.search(r"\band\b|&", item)) or item.count(",") >= 2


def gold_aliases(answers: str | Iterable[str] | None, question: str | None = None) -> list[str]:
    """Gold targets: a list, or a string split on ';' or '|'; "X (Y)" and "X, Y" also accept X
    (unless the target lists several things, "Malia, Sasha, and Susan", or is a date, "May 10, 2018");
    a numbered "Season 7, Episode 20: White Wedding" accepts either side of its colon. With the question
    (SimpleQA: the answer needs only what the question asks), what the question already says may be left
    out ("Michelle" for "Michelle Obama" when it names Obama) and a year answers a date when it asks a year.

    >>> gold_aliases("Paris, France"), gold_aliases("Malia Obama, Sasha Obama and Susan Obama")
    (['Paris, France', 'Paris'], ['Malia Obama, Sasha Obama and Susan Obama'])
    >>> gold_aliases("Outstanding Paper Award", "Which award did it win?")
    ['Outstanding Paper Award', 'Outstanding Paper']
    """
    if answers is None:
        return []
    if not isinstance(answers, str):
        answers = tuple(answers)
    return list(_gold_aliases(answers, question))  # a copy: the memo's tuple stays as it is


def _chars(answers: str | tuple, question: str | None) -> int:
    texts = [answers] if isinstance(answers, str) else [a for a in answers if isinstance(a, str)]
    return sum(map(len, texts)) + len(question or "")


# a person's gold with the name they went by in brackets between given and family name
_INNER_NAME = re.compile(
    r"(?P<given>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?)\s+\((?P<other>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?)\)\s+"
    r"(?P<family>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)"
)


@short_memo(8_192, 4_096, _chars)
def _gold_aliases(answers: str | tuple[str, ...], question: str | None) -> tuple[str, ...]:
    items = re.split(r"[;|]", answers) if isinstance(answers, str) else [a for a in answers if isinstance(a, str)]
    out: list[str] = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        if year := year_of_title(item, question):
            out.append(year)
            continue
        out.append(item)
        inner = _INNER_NAME.fullmatch(item)
        if inner:  # "Angelina (Anne) Ramsey": Angelina Ramsey and Anne Ramsey, never "Angelina" alone (pass 59)
            out += [f"{inner['given']} {inner['family']}", f"{inner['other']} {inner['family']}"]
            out += _other_names(item, question) + titles.peer_names(item)
            continue
        head, sep = (re.split(r"\s*([(,])", item, maxsplit=1) + [""])[:2]
        head = head.strip()
        tail = item[len(head) :]
        # "Paris, France" also accepts Paris; "Athens, 1896" does not accept Athens (the number is a second part)
        if (
            head
            and head != item
            and not re.fullmatch(r"[-+]?[\d.,]+", head.replace(" ", ""))
            and not (sep == "," and re.search(r"\d", tail))
        ):
            pair = sep == "," and not _multi_part(item) and _two_of_a_kind(head, tail.lstrip(" ,"), question)
            if pair:
                out.append(f"{head} and {tail.lstrip(' ,')}")  # its parts, each to be named (``_parts_verdict``)
            elif not (sep == "," and (_multi_part(item) or gold_date(item) is not None)):
                out.append(head)
        label, colon, title = item.partition(":")
        if colon and re.search(r"\d", label) and label.strip() and title.strip():
            out += [label.strip(), title.strip()]
        out += _other_names(item, question) + titles.peer_names(item)  # "Lord Melbourne" (hostile pass 55)
        era = _ERA_GOLD.fullmatch(item)
        if era:  # "Rococo-era": the Rococo period, the Rococo (hostile pass 44: "In the Rococo period." INCORRECT)
            out += [era["name"], f"{era['name']} era", f"{era['name']} period"]
    if question:
        out += _asked_aliases(out, question)
    return tuple(dict.fromkeys(out))


_ERA_GOLD = re.compile(r"(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)[\s-]+(?:era|period)")
_REGNAL_OF = re.compile(r"(?P<name>[A-Z][a-z]+\s+[IVXL]+)\s+of\s+(?:the\s+)?(?P<where>[A-Z][\w\s'-]+)")
_BRACKETED_NAME = re.compile(r"[^()]+?\s*\((?P<name>[^()\d]+)\)")
# a bracket that qualifies rather than names: a party, a generation, an abbreviation ("Alister Jack (Conservative)")
_QUALIFYING = frozenset(
    "conservative labour democrat democratic republican liberal independent green socialist senior junior elder "
    "younger alien character film band song novel album".split()
)


def _other_names(item: str, question: str | None) -> list[str]:
    """The other name a gold gives its answer in brackets: a one-word name's full name ("Andrew (John Dye)": the
    actor who played him, paid wrong in hostile pass 30): two or three capitalised words, not all capitals, no
    place, no party, not the question's. A one-word bracket is left: it names a club, a party or a city as often
    as an alias ("Lionel Messi (Barcelona)", "Steel Serpent (Davos)": the review of pass 30).

    >>> _other_names("Johnny (Patrick Swayze)", None), _other_names("Lionel Messi (Barcelona)", None)
    (['Patrick Swayze'], [])
    >>> _other_names("Paris (France)", None), _other_names("Alister Jack (Conservative)", None)
    ([], [])
    >>> _other_names("Margrethe II of Denmark", None)  # a monarch's name without the realm
    ['Margrethe II']
    """
    regnal = _REGNAL_OF.fullmatch(item)
    if regnal and places.level(regnal["where"]):
        return [regnal["name"]]  # "Margrethe II of Denmark": "Queen Margrethe II" (hostile pass 31)
    bracketed = _BRACKETED_NAME.fullmatch(item)
    if bracketed is None:
        return []
    name = bracketed["name"].strip()
    words = name.split()
    head = item[: bracketed.start("name")].strip(" (")
    if len(head.split()) != 1 or not 2 <= len(words) <= 3:
        return []  # a full name for a one-word name only: "Lionel Messi (Barcelona)" names his club (pass 30's review)
    if not all(w[:1].isupper() and not w.isupper() for w in words):
        return []
    asked = set(normalize(question or "").split())
    known = set(normalize(name).split())
    if places.level(name) or known & _QUALIFYING or known <= asked:
        return []
    return [name]


_SEVERAL = re.compile(r"(?i)\b(?:two|three|four|five|both|pair|which (?:\w+ )?(?:countries|cities|states|people))\b")


def _two_of_a_kind(head: str, tail: str, question: str | None) -> bool:
    """ "Nepal, China": two places of one size, or a question that asks for several ("Which two countries ...?"):
    the gold lists both, and the first alone is half of it (hostile pass 8), not the gold without a qualifier."""
    if question and _SEVERAL.search(question):
        return True
    size = places.level(head)
    return bool(size) and size == places.level(tail)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def asked_periods(answers: str | Iterable[str] | None, question: str | None) -> frozenset[str]:
    """A one-year date gold's decade or century, normalised, when the question asks only that (SimpleQA:
    precision the question does not ask for is not required): "the 1860s", "the 18th century". Matched as
    text, not as dates (the date rules' centuries share their boundary year: 1700 is in both)."""
    low = (question or "").lower()
    decade, century = questions.ASKS_DECADE.search(low), questions.ASKS_CENTURY.search(low)
    if not (decade or century):
        return frozenset()
    out = set()
    for gold in [answers] if isinstance(answers, str) else list(answers or ()):
        when = gold_date(gold)
        if not (when and when.years and when.years[0] == when.years[1] and when.years[0] > 0):
            continue
        year = when.years[0]
        if decade:
            out.add(normalize(f"the {year // 10 * 10}s"))
        if century:
            out.add(normalize(f"the {_ordinal((year - 1) // 100 + 1)} century"))
    return frozenset(out)


@short_memo(8_192, 4_096, lambda question: len(question or ""))
def question_words(question: str | None) -> frozenset[str]:
    """The question's content words (normalised): what an answer may leave out or mention as known."""
    return frozenset(w for w in normalize(question or "").split() if w not in _STOP)


def asked_words(question: str | None, golds: Iterable[str] = ()) -> frozenset[str]:
    """The question's words an answer may repeat without naming another answer: ``question_words`` less the
    alternatives the question offers that no gold holds ("Is the capital of France Lyon or Paris?": "lyon" is
    another answer when the answer says it, issue #74's H1), ``golds`` normalised.

    >>> sorted(asked_words("Is the capital of France Lyon or Paris?", ["paris"]))
    ['capital', 'france', 'paris']
    """
    asked = question_words(question)
    options = questions.offered(question)
    if not options:
        return asked
    gold_words = {w for g in golds for w in g.split()}
    rivals = {w for o in options for w in normalize(o).split() if w not in gold_words}
    return asked - rivals


_DOZEN = re.compile(r"(?i)\bdozens?\b")
# "Capital: Paris", "Capital of France - Paris": a leading label made of the question's words
_LABEL = re.compile(r"^\W*([^\W\d][\w' ]{0,60}?)\s*(?::|\s[-\u2013\u2014]+\s|\|)\s*(?=\w)")
_SECTION_LABEL = re.compile(rf"(?im)(?:(?<=\n)|(?<=[.!?]\s)){SECTION_WORDS}")
_LINE_BEFORE_SECTION = re.compile(rf"(?im)(?<=\w)[ \t]*(?=\n\s*{SECTION_WORDS})")
_ASKED_BACK = re.compile(
    r"^\s*(?:Does|Do|Did|Is|Was|Are|Were|Could|Would|Will|Can|Has|Have|Had)\b[^.!?\n]*\?\s+(?P<rest>\S.*)$", re.DOTALL
)
_DENIES = re.compile(r"(?i)^\W*(?:no\b|nope\b|not\b|actually\b|hardly\b|wrong\b|in fact\b|never\b)")


def _without_asked_back(text: str) -> str:
    """``text`` without a yes/no question it opens with and then denies: "Does Andrea end up with Nate? Not quite:
    she ends up with Christian Thompson." names Nate only as asked (hostile pass 32: CORRECT); "Is it Paris? Yes."
    and "Does Andrea end up with Nate? She does; ..." keep it (the review of pass 32).

    >>> _without_asked_back("Does Andrea end up with Nate? Not quite: she ends up with Christian Thompson.")
    'Not quite: she ends up with Christian Thompson.'
    >>> _without_asked_back("Is it Paris? Yes.")
    'Is it Paris? Yes.'
    """
    found = _ASKED_BACK.match(text)
    return found["rest"] if found and _DENIES.match(found["rest"]) else text


_PARAGRAPH = re.compile(r"(?<=[^\s.!?:;,])[ \t]*\n[ \t]*\n\s*(?=(?P<next>[A-Z][^\n]*))")


def _paragraph_end(found: re.Match[str]) -> str:
    """A blank line before a statement ends the sentence before it; before a bare name ("Malia\n\nSasha") it
    stays a line break, as a list's lines are read (the review of pass 28)."""
    return ". " if is_statement(found["next"]) else found.group()


_LABEL_WORDS = frozenset("answer final short city name the of a an in".split())


def _without_label(text: str, question: str | None, golds: list[str]) -> str:
    """``text`` without a leading label whose words are all the question's ("Capital: Paris", hostile pass 15: the
    label was read as a second name, a right answer graded INCORRECT). A label naming a gold is left: "Paris:
    the capital" answers Paris."""
    found = _LABEL.match(text)
    if not found or not question:
        return text
    words = normalize(found.group(1)).split()
    asked = question_words(question)
    gold_words = {w for g in golds for w in normalize(g).split()}
    if words and all(w in asked or w in _LABEL_WORDS for w in words) and not gold_words & set(words):
        return text[found.end() :]
    return text


_EDGE_SMALL = frozenset("of the de von van in at".split())  # left at a name's edge once the asked words go


def _asked_aliases(golds: list[str], question: str) -> list[str]:
    """Gold forms the question makes enough: edge words it already says dropped, a date's year for a year. A name
    of the form "X of Y" cut at its "of" keeps two words at least ("King Nan" for "King Nan of Zhou" asked about the
    Zhou dynasty: hostile pass 36), never one ("Catherine" for "Catherine of Aragon" paid "Catherine Parr", "Battle"
    for "Battle of the Somme" any battle: the review of pass 36)."""
    asked, out = question_words(question), []
    # the one option the gold holds ("Mayweather" for Floyd Mayweather, asked "between Mayweather and Guerrero"); the
    # longest where one holds another ("New York", not "York", for New York City); none where the gold holds two
    # options ("Kansas or Missouri?" for Kansas City, Missouri: the reviews of passes 37 and 38)
    held = [o for o in _options(question) if any(set(normalize(o).split()) <= set(normalize(g).split()) for g in golds)]
    widest = [o for o in held if not any(set(normalize(o).split()) < set(normalize(p).split()) for p in held)]
    items = {normalize(item) for g in golds for item in g.split(",")}  # "Missouri" of "Kansas City, Missouri"
    whole = [o for o in widest if normalize(o) in items]
    widest = whole if len(whole) == 1 else widest
    if len(widest) == 1 and not any(normalize(widest[0]) == normalize(g) for g in golds):  # "Dumas" / "Dumas fils"
        out.append(widest[0])
    for gold in golds:
        when = gold_date(gold)
        if questions.ASKS_YEAR.search(question.lower()) and when and when.years and when.years[0] == when.years[1]:
            out.append(str(when.years[0]))
        words = gold.split()
        if _multi_part(gold) or re.search(r"\d", gold) or titles.a_title(gold):
            continue  # "Viscount Melbourne" is not cut to "Viscount" by a question that says Melbourne
        while words and normalize(words[-1]) in asked:
            words.pop()
        cut_small = False
        while len(words) < len(gold.split()) and words and words[-1].lower() in _EDGE_SMALL:
            words.pop()
            cut_small = True
        while words and normalize(words[0]) in asked:
            words.pop(0)
        content = [w for w in words if normalize(w) not in _STOP and w.lower() not in _EDGE_SMALL]
        if words and len(words) < len(gold.split()) and content and (len(content) >= 2 or not cut_small):
            cut = " ".join(words)
            state = places.level(cut) == places.REGION and not places.also_a_city(cut)  # "Kansas", not "New York"
            city = re.search(r"(?i)\bcity\b", gold) and not places.level(gold)  # not Vatican City, a country
            if (state or places.level(cut) >= places.COUNTRY) and city:
                continue  # "Kansas" of Kansas City, "Mexico" of Mexico City: the state or country (review 40)
            out.append(" ".join(words).strip(" ,"))
    return out


_BETWEEN = re.compile(
    r"(?i)\bbetween\s+(?:the\s+)?(?P<a>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)\s+and\s+(?:the\s+)?"
    r"(?P<b>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)"
)


def _options(question: str) -> tuple[str, ...]:
    """The names a question offers to choose from: "X or Y?" (``questions.offered``) or "between X and Y" (hostile
    pass 37: "Mayweather, by unanimous decision" was INCORRECT for Floyd Mayweather, the question's surname)."""
    between = _BETWEEN.search(question)
    return questions.offered(question) + ((between["a"], between["b"]) if between else ())


def year_of_title(gold: str, question: str | None) -> str | None:
    """The year of a gold that is a title the question names plus a year ("Miss USA 1993" to "What year was she
    crowned Miss USA?"): the gold the question asks for (hostile pass 36). It replaces the title, not joins it: as
    one more alias beside the title, "1993? No -- she was crowned in 1994." was paid (the review of pass 36)."""
    if not question or not questions.ASKS_YEAR.search(question.lower()) or _multi_part(gold):
        return None
    years = re.findall(r"\b(?:1\d{3}|20\d{2})\b", gold)
    rest = normalize(gold.replace(years[0], " ")).split() if len(years) == 1 else []
    return years[0] if rest and all(w in question_words(question) for w in rest) else None


# --------------------------------------------------------------------------- grading one candidate


def grade(answer: str, answers: str | Iterable[str] | None, question: str | None = None) -> Label:
    """CORRECT / INCORRECT / NOT_ATTEMPTED for ``answer`` against the gold ``answers``; with the ``question``,
    SimpleQA's question-dependent rules too (what it asks, what it already names; see ``gold_aliases``).

    Memoised: one step asks about the same answer several times (speculation, the grade guard, the fallback)
    and a GRPO group repeats answers; a warm step spent a third of its time here (#48's profile).

    >>> grade("10 May 2018", "May 10, 2018"), grade("I don't know", "Paris"), grade("Lyon", "Paris")
    (<Label.CORRECT: 'CORRECT'>, <Label.NOT_ATTEMPTED: 'NOT_ATTEMPTED'>, <Label.INCORRECT: 'INCORRECT'>)
    >>> grade("Lyon, but I'm not sure", "Paris"), grade("maybe 1992", "1992"), grade("early 1990s", "1992")
    (<Label.INCORRECT: 'INCORRECT'>, <Label.CORRECT: 'CORRECT'>, <Label.NOT_ATTEMPTED: 'NOT_ATTEMPTED'>)
    """
    golds = answers if answers is None or isinstance(answers, str) else tuple(answers)
    return _grade_memo(answer, golds, question)


@short_memo(8192, MAX_CHARS, lambda answer, answers, question: len(answer or ""))
def _grade_memo(answer: str, answers: str | tuple[str, ...] | None, question: str | None) -> Label:
    return _grade(answer, answers, question)


def _same_figures(text: str, gold_raw: str) -> bool:
    """Normalising drops "." and ",": "8.849 m" and "8,849 m" read alike, but one is 8.8 m and the other 8,849 m
    (hostile pass 4). The same text needs the same numbers too.

    >>> _same_figures("8,849 m", "8849 m"), _same_figures("8.849 m", "8,849 m"), _same_figures("Paris", "Paris")
    (True, False, True)
    """
    said, gold = quantities(text), quantities(gold_raw)
    return [(q.low, q.high) for q in said] == [(q.low, q.high) for q in gold]


def _in_gold_form(text: str, raw_golds: list[str], question: str | None) -> tuple[str, list[str]]:
    """The answer (and where both must change, the golds) rewritten into the form the gold is written in, each step
    gated on the gold's form and taken in this order: a value set aside dropped, a regnal or numbered name's
    number, times of day, shares, the question's own unit, Roman numerals as digits (the last gated on the golds
    as the earlier steps left them: a share gold in words is "25%" by then). One place, so a new form is one more
    step here."""
    numeric = any(re.search(r"\d", raw) for raw in raw_golds)
    if numeric:
        text = turns.without_value_set_aside(text)  # "Not 1887 but 1889" gives 1889 (hostile pass 17)
        text = turns.without_other_measure(text, question)  # "71% (29% is land)" (hostile pass 26)
        text = turns.without_reference_figures(text, question, raw_golds)  # "one more than the usual 365" (pass 29)
        text = rewrites.without_label_ranges(text)  # "32 Accounting Standards (AS 1 to AS 32)" (pass 30)
        if any(gold_date(g) is not None for g in raw_golds):
            text = rewrites.holidays_as_dates(text)  # "Boxing Day, 2013." is 26 December 2013 (hostile pass 56)
        if question and re.match(r"(?i)\s*how many\b", question) and not rewrites.asks_a_part(question):
            text = rewrites.without_included_part(text)  # "275, including his record 61 in 1961" (pass 34)
        text = rewrites.without_named_years(text, question)  # "under the Local Government Act 1972" (pass 31)
        text = rewrites.years_counted(text)  # "The year after 1911." is 1912 (hostile pass 63)
        # "<date> in Japan, and <date> in North America" (pass 30)
        text = rewrites.one_region(text, raw_golds, question)
        if question and questions.ASKS_YEAR.search(question) and any(re.fullmatch(r"\d{4}", g) for g in raw_golds):
            text = without_days_of_month(text)  # "... on April 14 and sank on April 15" beside 1912
        elif any((when := gold_date(g)) is not None and when.day is not None for g in raw_golds):
            text = rewrites.one_date_said_apart(text)  # "in 2011; the first show was on 18 August" (pass 32)
        if any((d := gold_date(g)) is not None and not (d.years and d.years[0] < d.years[1]) for g in raw_golds):
            # "completed in 1889, after work began in 1887"; not a range gold ("until she stepped down in 1999")
            text = values.without_other_events(text, question)
    if rewrites.regnal_gold(raw_golds):
        text = rewrites.regnal(text)  # "Louis the Fourteenth", "Louis 14" for Louis XIV (hostile pass 16)
    elif rewrites.digits_gold(raw_golds):
        text = rewrites.numbered_in_digits(text)  # "Apollo XI" for Apollo 11 (hostile pass 19)
    if rewrites.two_units_gold(raw_golds):  # "16 years and 3 months" for "16 years, 3 months" (hostile pass 34)
        text, raw_golds = rewrites.two_units_joined(text), [rewrites.two_units_joined(g) for g in raw_golds]
    if towns.state_gold(raw_golds):  # "Lebanon, TN" for "Lebanon, Tennessee" (hostile pass 34)
        text = towns.states_spelt(text)
    text = rewrites.hyphenated_as_written(text, raw_golds)  # "Spiderman" for Spider-Man (hostile pass 48)
    text = rewrites.names_as_gold(text, raw_golds)  # "The European Central Bank" for ECB, "Lao Tzu" for Laozi
    if rewrites.direction_gold(raw_golds):
        text = rewrites.headings_as_directions(text)  # "Northward." for north (the landing review of pass 63)
    if rewrites.place_gold(raw_golds):  # "Third runner-up." is fourth place (hostile pass 48); the gold's too
        text, raw_golds = rewrites.runners_up_as_places(text), [rewrites.runners_up_as_places(g) for g in raw_golds]
    if rewrites.ordinal_part_gold(raw_golds):  # "season one" for "the first season" (hostile pass 34)
        text = rewrites.parts_as_ordinals(text, raw_golds)
    if rewrites.time_gold(raw_golds):  # "15:30" for 3:30 pm (hostile pass 17)
        meridiem = rewrites.gold_meridiem(raw_golds)
        text, raw_golds = rewrites.times_as_24h(text, meridiem), [rewrites.times_as_24h(g) for g in raw_golds]
    if rewrites.share_gold(raw_golds):  # "half" for 50 %, "25%" for one quarter: one number (hostile pass 16)
        text, raw_golds = rewrites.shares_as_percent(text), [rewrites.shares_as_percent(g) for g in raw_golds]
    if any(_CENTURY_GOLD.search(raw) for raw in raw_golds):  # "the 1500s" is the 16th century (hostile pass 27)
        text = _HUNDREDS.sub(lambda m: f"the {_ordinal(int(m[1]) + 1)} century", text)
    if question and _DOZEN.search(question):
        text = _DOZEN.sub(" ", text)  # "How many dozen are in a gross? 12 dozen": the question's unit, said again
    numeric = any(re.search(r"\d", raw) for raw in raw_golds)  # a share gold in words is "25%" by now
    if not numeric:
        text = _LIKELIHOOD.sub(" ", text)  # "Paris 40%, Lyon 60%": two guesses, weighed (hostile pass 26)
    as_number = turns.roman(text)
    if as_number is not None and numeric:
        text = str(as_number)  # "MDCCCLXXXIX" for 1889 (hostile pass 7)
    elif numeric:
        if question and questions.HOW_MANY_UNITS.search(question.lower()):
            text = _NAME_NUMERAL.sub(r"\1", text)  # "Super Bowl XXXIV" for how many times: a name (pass 33)
        text = turns.romans_as_digits(text)  # "in MDCCCLXXXIX" (hostile pass 17)
    if any(g.strip() == "0" for g in raw_golds) and question and re.match(r"(?i)\s*how many\b", question):
        if not has_refusal(text):  # "None - I really have no idea": a refusal (the review of pass 33)
            text = _NONE_AS_ZERO.sub("0", text)  # "None — they lost Super Bowl XXXIV" for how many wins (pass 33)
    return text, raw_golds


# a numeral that is part of a name ("Super Bowl XXXIV", "World War II"): kept out of the count
_NAME_NUMERAL = re.compile(r"(\b[A-Z][a-z]+)\s+[IVXLC]{2,}\b")
_NONE_AS_ZERO = re.compile(r"(?i)^\W*(?:none|not once|no times|zero times)(?=\s*(?:[.!,;:\u2013\u2014-]|$))")


_CENTURY_GOLD = re.compile(r"(?i)\b\d{1,2}(?:st|nd|rd|th)\s+century\b")
_HUNDREDS = re.compile(r"(?i)\b(?:the\s+)?(\d{1,2})00'?s\b")
# a guess's weight beside it, where the gold is no number: "Paris (40%)", "Lyon 60% likely", "| Lyon | 60% |"
_LIKELIHOOD = re.compile(
    r"(?i)\(?\s*(?:p\s*=\s*)?\d{1,3}(?:\.\d+)?\s*%(?:\s*(?:likely|likelihood|chance|probability|confidence))?\s*\)?"
)
# "Cusco Region, Peru": a place, a comma and a country
_PLACE_THEN = re.compile(
    r"\s*(?:the\s+)?(?P<place>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,3}),\s*(?P<in>[^,;()]+?)\s*[.!]?\s*"
)


_YES_NO_GOLD = re.compile(r"(?:yes|no)(?=$|\s)")
_YES_NO_SAID = re.compile(r"(?i)\W*(yes|no)\s*[,.;:!\u2013\u2014-]")  # "No, it's Paris.", not "No idea."


def _one_verdict(pred: str, rest: str) -> bool:
    """The answer's opening yes or no is its only one and the rest is no refusal ("No, I don't know": no verdict)."""
    return (
        pred.split().count("yes") + pred.split().count("no") == 1 and not has_refusal(rest) and not is_abstention(rest)
    )


_WORKS = (
    r"(?:novels?|books?|plays?|poems?|works?|films?|songs?|albums?|symphon(?:y|ies)|operas?|paintings?|masterpieces?|"
    r"stor(?:y|ies)|debut|sonnets?|essays?|theor(?:y|ies)|discover(?:y|ies)|inventions?)"
)


def _owned_by_gold(text: str, golds: list[tuple[str, str]]) -> bool:
    """A statement about the gold person's work by the family name: "Pride and Prejudice is Austen's second novel."
    beside "Jane Austen" is detail, not a second answer (hostile pass 28)."""
    return is_statement(text) and any(
        len(raw.split()) >= 2
        and re.search(rf"(?i)\b{re.escape(raw.split()[-1])}['\u2019]s\s+(?:[a-z]+\s+){{0,2}}{_WORKS}\b", text)
        for raw, _ in golds
    )  # the name's work ("Austen's second novel"), not "in Austen's name" (the review of pass 28)


def _gives_another_value(text: str, question: str | None, golds: list[tuple[str, str]]) -> bool:
    """A clause gives the asked relation a value that is no gold ("the capital is Lyon"), or, for a question asking
    whether it holds of a name, a value the question does not name ("Is Paris the capital ...?" "Yes, but the
    capital is actually Lyon.")."""
    golds_raw = [raw for raw, _ in golds]
    if any(turns.outdone(text, question, raw) for raw in golds_raw):
        return True  # "The Amazon is longer than the Nile." for the longest river (hostile pass 28)
    if any(swaps.succession_turned(question or "", text, raw) for raw in golds_raw):
        return True  # "Tony Blair succeeded Gordon Brown." to who succeeded Blair (review 61)
    if any(turns.said_the_wrong_side(text, question, raw) for raw in golds_raw):
        return True  # "Black Lightning came after Static Shock." to which came first (hostile pass 59)
    values = turns.relation_values(text, question) + turns.role_given(text, question)
    if turns.named_in_another_role(text, question, golds_raw):  # "Brad Bird directed the film, but Edna Mode was
        values += turns.agents_in_role(text, question)  # voiced by Holly Hunter." (pass 31; its review: only so)
    if not values:
        return False
    if any(_YES_NO_GOLD.fullmatch(g) for _, g in golds):
        asked = normalize(question or "")
        return normalize(text).startswith("yes") and any(f" {normalize(v)} " not in f" {asked} " for v in values)
    return any(grade(v, golds_raw, question) is Label.INCORRECT for v in values)  # "Bishkeq" is Bishkek misspelt


# names that are also everyday words: written in lower case inside a capitalised answer, they are the word
_WORD_NAMES = frozenset(
    "will may can hope grace faith joy rose mark bill jack frank pat sue art dawn june april august summer bishop "
    "king queen prince major young little long white black brown green gray grey hunter baker cook miller".split()
)


def _common_word_not_the_name(text: str, golds: list[str]) -> str:
    """``text`` with a one-word name gold ("Will", "Hope", "Bishop") masked where it is written in lower case in an
    answer that capitalises its names: "I think she will end up with Micah." names Micah, not Will (hostile pass
    30: CORRECT). An answer all in lower case keeps it: there the case says nothing.

    >>> _common_word_not_the_name("I think she will end up with Micah.", ["Will"])
    'I think she _ end up with Micah.'
    >>> _common_word_not_the_name("She ends up with Will.", ["Will"]), _common_word_not_the_name("will", ["Will"])
    ('She ends up with Will.', 'will')
    """
    if text == text.lower():
        return text
    for gold in golds:
        word = gold.strip()
        if " " not in word and word[:1].isupper() and word.lower() in _WORD_NAMES:
            text = re.sub(rf"\b{re.escape(word.lower())}\b", "_", text)
    return text


def _in_its_country(text: str, gold_raw: str) -> bool:
    """The answer names a smaller place, then the gold country: "Cusco Region, Peru" (a city or region written
    with its country, as an address is), not "Bolivia, Peru" (two countries) nor "Texas, Peru" (a region of
    another country).

    >>> _in_its_country("Cusco Region, Peru", "Peru"), _in_its_country("Bolivia, Peru", "Peru")
    (True, False)
    """
    said = _PLACE_THEN.fullmatch(text)
    if (
        said is None
        or places.level(gold_raw) != places.COUNTRY
        or not same_answer(normalize(said["in"]), normalize(gold_raw))
    ):
        return False
    gold_country = turns.country(gold_raw)
    named = turns.countries(said["place"]) - {gold_country}
    if named and places.country_of(said["place"]) != gold_country or places.CONTINENT in places.levels(said["place"]):
        return False  # another country or a continent ("Probably Bolivia, Peru", "Southern Peru, Chile")
    held_by = places.country_of(said["place"])
    return held_by is None or turns.same_country(held_by, normalize(gold_raw))


# a guess asked, then denied: "Alec Gilroy? No -- she married Jack Duckworth." ("No doubt" affirms)
_DENIED_GUESS = re.compile(
    r"(?is)^\W*(?P<guess>[^?.!\n]{1,80}?)\?\s*(?:no|nope|wrong|not\s+(?:quite|really|exactly|so(?:\s+fast)?))"
    r"(?=\s*(?:[,.;:!\u2013\u2014-]|$))[\s,.;:!\u2013\u2014-]*(?P<rest>.*)$"  # not "No other city comes close"
)


def _without_denied_guess(text: str, golds: list[str]) -> str:
    """The answer after a gold it asks itself and denies: "Alec Gilroy? No -- she married Jack Duckworth." answers
    Jack Duckworth (hostile pass 40: the gold's name, then a statement, was paid CORRECT); "Paris? No." takes its
    only answer back.

    >>> _without_denied_guess("Alec Gilroy? No - she married Jack Duckworth.", ["Alec Gilroy"])
    'she married Jack Duckworth.'
    >>> _without_denied_guess("Alec Gilroy? No doubt about it.", ["Alec Gilroy"])
    'Alec Gilroy? No doubt about it.'
    """
    found = _DENIED_GUESS.match(text)
    if found is None or not any(find_word(normalize(found["guess"]), normalize(g)) >= 0 for g in golds if g):
        return text
    return found["rest"]


def _grade(answer: str, answers: str | Iterable[str] | None, question: str | None) -> Label:
    raw_golds = gold_aliases(answers, question)
    # "Paris, I mean Lyon" answers Lyon; "Paris vs. Lyon", "a. Paris b. Lyon" offer both (hostile pass 6)
    text = structured.json_answer(prepare(answer or ""), question)  # '{"answer": "Paris"}' (hostile pass 26)
    text = turns.without_other_tongue(text)  # "Paris (Parigi in Italian)" (hostile pass 27)
    text = turns.corrections_in_english(text)  # "Spot。不对，应该是 Penry。" (hostile pass 50)
    text = without_opener(settled(turns.without_confirmation(text, question)), question)
    text = as_options(text, " ".join(raw_golds))
    text = _without_label(text, question, raw_golds)
    text = qualifiers.without_taking_effect(text, question, raw_golds)  # "1994, effective 1997." (hostile pass 51)
    # "Answer: Paris\nExplanation: ...": the label no second answer (pass 28), the line before it a sentence of its
    # own ("Bubbles" was read with the explanation's first name as a list: hostile pass 36)
    text = _SECTION_LABEL.sub(" ", _LINE_BEFORE_SECTION.sub(".", text))
    text = _PARAGRAPH.sub(_paragraph_end, text)  # "Jane Austen\n\nPride and Prejudice is ...": two sentences
    text = _without_asked_back(text)  # "Does Andrea end up with Nate? Not quite: ..." (hostile pass 32)
    text = rewrites.subtitle_joined(text, question)  # "Night at the Museum: Secret of the Tomb" (hostile pass 39)
    text = _without_denied_guess(text, raw_golds)  # "Alec Gilroy? No -- she married Jack Duckworth." (pass 40)
    text, raw_golds = _in_gold_form(text, raw_golds, question)
    text = _common_word_not_the_name(text, raw_golds)  # "she will end up with Micah" names no "Will" (pass 30)
    pred = normalize(text)
    if not pred:
        return Label.NOT_ATTEMPTED
    golds = [(raw, norm) for raw in raw_golds if (norm := normalize(raw))]
    heads = gold_heads(raw_golds)
    periods = asked_periods(answers, question)
    if golds and all(_other_era(text, raw) or _era_dropped(text, raw, question) for raw, _ in golds):
        return Label.INCORRECT  # "1969 AH" for 1969: the reading would drop "ah" as a filler word
    if (
        towns.other_state(text, raw_golds)
        or towns.another_town(text, raw_golds)
        or towns.state_for_its_city(text, raw_golds)
        or towns.outside_the_asked_state(text, raw_golds, question)
    ):
        return Label.INCORRECT  # "Portland, Oregon" for "Portland, Maine" (the review of pass 34)
    if rewrites.other_part(text, raw_golds):
        return Label.INCORRECT  # "Season 6" for "the sixth episode" (the review of pass 34)
    if any(turns.counted_from_the_end(text, raw) for raw, _ in golds):
        return Label.INCORRECT  # "2nd to last" for "second" (hostile pass 27)
    if _gives_another_value(text, question, golds):
        return Label.INCORRECT  # "..., yet the capital is Lyon.", "Yes, but the capital is actually Lyon." (pass 27)
    yes_no = any(_YES_NO_GOLD.fullmatch(g) for _, g in golds)
    no_idea = re.match(r"(?i)\W*no\s+(?:idea|clue)\b", text)
    if yes_no and (is_abstention(text) or (no_idea and not re.search(r"(?i)\b(?:yes|no)\b", text[no_idea.end() :]))):
        return Label.NOT_ATTEMPTED  # "No idea." names no "No" (hostile pass 27's review)
    said = _YES_NO_SAID.match(text)
    if said and yes_no and _one_verdict(pred, text[said.end() :]):
        return Label.CORRECT if any(said[1].lower() == g for _, g in golds) else Label.INCORRECT  # "No, it's Paris."
    if any(turns.other_subject(text, question, raw) for raw, _ in golds):
        return Label.INCORRECT  # "The capital of Lyon is Paris." for the capital of France (hostile pass 26)
    if any(_in_its_country(text, raw) for raw, _ in golds):
        return Label.CORRECT  # "Cusco Region, Peru": a place, then the country asked for (hostile pass 26)
    first = re.split(r"(?<=[a-z\d)][.!?])\s+(?=[A-Z])", text.strip(), maxsplit=1)[0]
    said_generation = _generation(first)
    if golds and said_generation and not any(_generation(raw) == said_generation for raw, _ in golds):
        # in the answer's own sentence: "Martin Luther King Sr. was his father." after the gold is a remark (review 52);
        # another generation than the gold's: "Joseph P. Kennedy Jr." for Joseph P. Kennedy Sr. (review 61)
        return Label.INCORRECT  # "Mozart Sr." is Leopold, the father, for Wolfgang Amadeus (hostile pass 8)
    if golds and all(_heir_named(text, raw, question) or _state_school(text, raw, question) for raw, _ in golds):
        return Label.INCORRECT  # "Isaac Hayes III", "Kansas State" for Kansas's team (hostile pass 34)
    if turns.rival_held_possible(prepare(answer or ""), question, raw_golds):  # before hedges are read away
        return Label.INCORRECT  # "Jonathan Pryce, though I'd give Ciarán Hinds a 40% chance." (hostile pass 50)
    if any(parallel.gold_given_the_other(question or "", text, g) for g in raw_golds):
        return Label.INCORRECT  # "absorb oxygen ... and release carbon dioxide" to what plants absorb (pass 69)
    if turns.another_figured_item(text, question) and not any(
        turns.another_figured_item(g, question) for g in raw_golds
    ):
        return Label.INCORRECT  # "Churchill is on the £10 note." to "Who is on the £5 note?" (hostile pass 49)
    if slots.given_to_another(rewrites.names_as_gold(prepare(answer or ""), raw_golds), question, raw_golds) and any(
        find_word(pred, g) >= 0 or (len(g.split()) > 1 and find_word(pred, g.split()[-1]) >= 0) for _, g in golds
    ):  # the gold by its surname too ("Shakespeare's name is on it, but Marlowe wrote it": review 52)
        return Label.INCORRECT  # "Pete Seeger wrote it; Phil Ochs only recorded it." (hostile pass 51)
    if turns.taken_back_for_another(text, question, raw_golds) and any(find_word(pred, g) >= 0 for _, g in golds):
        return Label.INCORRECT  # "Arianne Zucker. Actually, the role belongs to Alison Sweeney." (hostile pass 49)
    if turns.premise_denied(text, question) and any(find_word(pred, g) >= 0 for _, g in golds):
        return Label.INCORRECT  # "Not on any one person, though Frank Mundus is often cited." (hostile pass 47)
    if (turns.puts_down_before(text) or turns.retracted(text)) and any(find_word(pred, g) >= 0 for _, g in golds):
        return Label.INCORRECT  # "Most people would say Paris, but that's a myth." (hostile pass 7)
    if golds and any(ranked_below(question, text, raw) for raw, _ in golds):
        return Label.INCORRECT  # "Nolan Ryan is second only to Sandy Koufax." for the most (hostile pass 44)
    if golds and any(_never_happened_after(text, raw, question) for raw, _ in golds):
        return Label.INCORRECT  # "Announced in 2014, but the merger never went through." (hostile pass 44)
    if golds and all(re.search(r"\d", raw) and _sign_turned(text, raw, question) for raw, _ in golds):
        return Label.INCORRECT  # "-1889" for 1889, "8,849 m below sea level" for a height
    if golds and any(
        kinds.another_animal(text, raw)
        or kinds.two_kinds(text, raw, question or "")
        or _the_district(text, raw, question)
        for raw, _ in golds
    ):
        return Label.INCORRECT  # "A sea lion." for lion; "Washington, D.C." for the state (review 55)
    if pred in periods or any(
        (pred == g or same_answer(pred, g))
        and _same_figures(text, raw)
        and not _head_added(pred, heads, [n for _, n in golds])
        and not _feature_of(pred, g, question or "")
        for raw, g in golds
    ):
        return Label.CORRECT
    if len(text) > MAX_CHARS:
        return Label.INCORRECT
    reading = read(text, [g for _, g in golds] + [lower(raw) for raw, _ in golds])
    reading.asked, reading.question = asked_words(question, [g for _, g in golds]), question or ""
    reading.heads = heads
    if not reading.candidates:
        return Label.NOT_ATTEMPTED
    if not golds:
        return Label.INCORRECT
    denied = any(
        (RULED_OUT.match(c.text.strip()) or RULED_OUT_SAID.match(c.text.strip()))
        and any(find_word(normalize(c.text), g) >= 0 for _, g in golds)
        for c in reading.candidates
    )  # "I don't know, though it wasn't Henry Mancini." denies the gold Henry Mancini: INCORRECT
    if any(titles.another_holder(text, raw) for raw, _ in golds):
        return Label.INCORRECT  # "The 1st Viscount Melbourne." for the 2nd: another holder of the title
    if question and reading.refused and not commits(answer, question) and not _miscounts(reading, golds) and not denied:
        # a refusal whose rest offers no answer: "I don't know who wrote it. Mozart wrote Figaro, though." is
        # NOT_ATTEMPTED whatever its aside names (SimpleQA), read without the gold so right and wrong asides alike
        return Label.NOT_ATTEMPTED
    results = [
        (Label.CORRECT, False)
        if _names_period(c.text, periods)
        else _best(_grade_candidate(c, raw, g, reading) for raw, g in golds)
        for c in reading.candidates
    ]
    labels = [label for label, _ in results]
    if Label.CORRECT in labels:
        # Beside a correct candidate, only a competing answer spoils it: a contradiction, or another short
        # answer-like candidate ("Paris. Maybe Lyon."); a remark ("Paris. It is in France.") does not.
        owned = [_owned_by_gold(c.text, golds) for c in reading.candidates]
        # a runner-up named after the right answer with a lower count is a comparison; named first, it is the pick
        # ("Germany, with 4. Brazil has 5." for the most: review 45)
        right = [label is Label.CORRECT for label, _ in results]
        owned = [
            own or any(right[j] and runner_up(question, reading.candidates[j].text, c.text) for j in range(i))
            for i, (c, own) in enumerate(zip(reading.candidates, owned))
        ]
        if any(label is Label.INCORRECT and competing and not own for (label, competing), own in zip(results, owned)):
            return Label.INCORRECT
        # Extra statements ("Malia was born in 1998") are true detail; extra bare words are a shotgun list.
        right_here = next(c for c, (label, _) in zip(reading.candidates, results) if label is Label.CORRECT)
        bare = [
            normalize(_described_away(c.text, golds, reading.asked))
            for c in reading.candidates
            if not is_statement(c.text)
            and not (right_here is not c and _told_in_the_past(c.text))
            and not any(comparison_verdict(reading.question, c.text, g, reading.low) for _, g in golds)
        ]  # "Brazil lost to Germany 7-1 in the 2014 World Cup semi-final": one sentence (hostile pass 32)
        longest = max(len(g.split()) for _, g in golds)
        raw = " ".join(c.text for c in reading.candidates)
        shotgun = _shotgun(sum(len(b.split()) for b in bare), longest) and _listlike(" ".join(bare), reading.asked, raw)
        return Label.INCORRECT if shotgun else Label.CORRECT
    return Label.INCORRECT if Label.INCORRECT in labels else Label.NOT_ATTEMPTED


_NEVER_HAPPENED = re.compile(
    r"(?i)\b(?:never|didn['\u2019]?t|did\s+not|was\s+never|were\s+never)\s+(?:actually\s+|really\s+)?(?:went\s+through|"
    r"go\s+through|happened|happen|took\s+place|take\s+place|occurred|occur|materiali[sz]ed|materiali[sz]e|went\s+ahead|"
    r"go\s+ahead|came\s+to\s+pass|come\s+to\s+pass|completed|complete|finali[sz]ed|finali[sz]e)\b"
    r"(?!\s+(?:until|till|before|by|in)\b)"  # "did not complete until 2015": it did, later
)


def _never_happened_after(text: str, gold_raw: str, question: str | None) -> bool:
    """The answer gives the gold, then says the event asked about never happened: "It was announced in 2014, but
    the merger never went through." to "When did ... merge ...?" answers that there was no merger (hostile pass
    44: CORRECT for 2014). The denial comes after the gold's last mention ("Planned for 2013, it never happened;
    they merged in 2014."), its subject is "it" or the question's own event ("the merger" for "merge"), and the
    question asks for no start, plan or announcement ("2014, though the stadium was never completed" for when its
    construction began; "the sequel never happened", "he never completed his degree": review 45).

    >>> q = "When did Tim Hortons merge with Burger King?"
    >>> _never_happened_after("Announced in 2014, but the merger never went through.", "2014", q)
    True
    >>> _never_happened_after("A 2013 deal never happened; they merged in 2014.", "2014", q)
    False
    >>> _never_happened_after("2014; the planned sequel never happened.", "2014", "When was the film released?")
    False
    """
    if _STARTS_ONLY.search(question or ""):
        return False
    at = text.lower().rfind(gold_raw.lower().strip())
    if at < 0:
        return False
    after = text[at + len(gold_raw.strip()) :]
    found = _NEVER_HAPPENED.search(after)
    if found is None:
        return False
    subject = re.findall(r"[a-z']+", after[: found.start()].lower())[-3:]
    asked = {w[:5] for w in re.findall(r"[a-z']+", (question or "").lower()) if len(w) >= 4}
    return bool(subject) and (
        subject[-1] in ("it", "this", "that") or any(w[:5] in asked for w in subject if len(w) >= 4)
    )


# a question about a start, a plan or an announcement: what followed may never have happened, and the answer is still
# right ("When did construction begin?")
_STARTS_ONLY = re.compile(
    r"(?i)\b(?:begin|began|begun|start|started|announc\w*|propos\w*|plan\w*|engag\w*|enrol\w*|found|founded|"
    r"first\s+(?:proposed|announced|planned))\b"
)


def _heir_named(text: str, gold_raw: str, question: str | None) -> bool:
    """A person's full name with a numeral the gold lacks: "Isaac Hayes III" is his son, for the gold Isaac Hayes
    asked by "Who ...?". Not a monarch's gold by a title ("King George": "George III"), nor a one-word gold.

    >>> _heir_named("Isaac Hayes III", "Isaac Hayes", "Who does Chef's voice?")
    True
    >>> _heir_named("George III", "King George", "Who was king?"), _heir_named("Isaac Hayes", "Isaac Hayes", "Who?")
    (False, False)
    """
    words = gold_raw.split()
    if len(words) < 2 or words[0].lower() in HONORIFICS or re.search(r"\b[IVX]+\b", gold_raw):
        return False
    if not questions.ASKS_WHO.search(question or ""):
        return False
    first = re.search(rf"(?i:{turns.written(normalize(gold_raw))})(?P<heir>\s+(?:II|III|IV)\b)?", text)
    return first is not None and first["heir"] is not None  # the first time the answer names him


_SCHOOL_SPORT = re.compile(
    r"(?i)\b(?:team|school|university|college|ncaa|football|basketball|baseball|hockey|tournament|conference|bowl|"
    r"league|championship|playoffs?)\b"
)


def _state_school(text: str, gold_raw: str, question: str | None) -> bool:
    """ "Kansas State" for the gold Kansas where the question is about a school or a team: another university (hostile
    pass 34: CORRECT, "state" read as a head word); "Washington State" for the state Washington stays the same place.

    >>> _state_school("Kansas State", "Kansas", "Who has the longest streak of NCAA Tournament appearances?")
    True
    >>> _state_school("Washington State", "Washington", "Which state is Seattle in?")
    False
    """
    if "state" in gold_raw.lower().split() or not _SCHOOL_SPORT.search(question or "") or not places.level(gold_raw):
        return False
    first = re.search(rf"(?i:{turns.written(normalize(gold_raw))})(?P<state>\s+State\b)?", text)
    return first is not None and first["state"] is not None  # the first time the answer names it


# a generation said after a name: another person of that name ("Mozart Sr.", "Pliny the Elder")
_GENERATION = re.compile(r"\b[A-Z][\w'-]+,?\s+(?:(?i:jr|sr|junior|senior)\b\.?|(?i:the (?:elder|younger))\b)")
_ELDER = frozenset({"sr", "senior", "the elder"})


def _generation(text: str) -> str | None:
    """ "elder" or "younger" for a name said with its generation ("Mozart Sr.", "Pliny the Younger"), else None."""
    found = _GENERATION.search(text)
    if not found:
        return None
    word = re.sub(r"^.*?,?\s+", "", found[0].lower(), count=1).rstrip(".")
    return "elder" if word in _ELDER else "younger"


def _sign_turned(text: str, gold_raw: str, question: str | None) -> bool:
    """``turns.sign_turned``, unless the gold's own number is said as the gold says it: "-60 °C" or "430 m below
    sea level" beside "8,849 m" is about something else (review 8)."""
    if not sign_turned(text, gold_raw, question):
        return False
    low, spans = gold_value_at(text, gold_raw)
    turned = not turns.below_zero(gold_raw)
    return not spans or all((minus or turns.negative_at(low, a, b)) == turned for a, b, minus in spans)


def _miscounts(reading: Reading, golds: list[tuple[str, str]]) -> bool:
    """A refusal's aside that counts what a several-part gold lists, wrongly: "I don't know their names, but he
    has three children" for "Malia and Sasha" contradicts the gold (SimpleQA: INCORRECT), "... two children"
    does not (nor does a year or another large number: "the band formed in 1962")."""
    parts = {len(_gold_parts(raw)) for raw, _ in golds} - {0}
    counts = {q.low for c in reading.candidates for q in quantities(c.text) if q.kind == "exact" and q.low < 100}
    return bool(parts and counts) and not counts & parts


def _names_period(text: str, periods: frozenset[str]) -> bool:
    """The candidate names the asked decade or century and no other date ("He was born in the 18th century")."""
    seg = normalize(text)
    return any(find_word(seg, p) >= 0 for p in periods) and len(date_spans(text)) == 1


def value_grade(span: str, gold: str, question: str | None = None) -> Label | None:
    """The grade of a short answer span by the date and number rules alone, or None when the gold is not a
    date or number or the span holds none. For the two-call judge grader: precision ("November 1989" for
    9 November 1989 is too vague, 9.81 for 9.8 is right) is a rule, not a judgement a small judge gets right.

    >>> value_grade("November 1989", "9 November 1989").value, value_grade("9.81 m/s²", "9.8 m/s²").value
    ('NOT_ATTEMPTED', 'CORRECT')
    >>> value_grade("Paris", "1992") is None, value_grade("1992", "Paris") is None
    (True, True)
    """
    text = prepare(span or "")
    if _other_era(text, gold):
        return Label.INCORRECT
    candidate = Candidate(text, False)
    seg, reading = normalize(text), Reading(low=lower(text))
    reading.asked, reading.question = question_words(question), question or ""  # its precision: "to 3 decimal places"
    for verdict in (values.date_verdict, values.number_verdict):
        label = verdict(candidate, seg, gold, normalize(gold), reading)
        if label is not None:
            return label
    return None


_ORDER = {Label.CORRECT: 0, Label.NOT_ATTEMPTED: 1, Label.INCORRECT: 2}


def _best(results: Iterable[tuple[Label, bool]]) -> tuple[Label, bool]:
    """Over gold aliases: any alias the candidate matches wins, then any it is consistent with; wrong against every
    alias, it competes when it competes with any ("one" against three and its alias "trio")."""
    results = list(results)
    best = min(results, key=lambda r: (_ORDER[r[0]], r[1]))
    if best[0] is Label.INCORRECT:
        return Label.INCORRECT, any(competing for _, competing in results)
    return best


def _grade_candidate(candidate: Candidate, gold_raw: str, gold: str, reading: Reading) -> tuple[Label, bool]:
    """(label, competing): competing is True for an INCORRECT that contradicts the gold or reads as
    another answer, False for a remark that merely fails to match."""
    seg = normalize(candidate.text)
    if not seg:
        return Label.NOT_ATTEMPTED, False
    if kinds.same_kind(candidate.text, gold_raw):
        return Label.CORRECT, False  # "An attorney." for lawyer, "A piglet." for pig (review 55)
    if kinds.family_members(candidate.text, gold_raw):
        return Label.CORRECT, False  # "The Shermans." for The Sherman Brothers (hostile pass 58)
    if (
        (seg == gold or same_answer(seg, gold))
        and _same_figures(candidate.text, gold_raw)
        and not _head_added(seg, reading.heads, [gold])
        and not _feature_of(seg, gold, reading.question)
    ):
        return Label.CORRECT, False
    if (compared := comparison_verdict(reading.question, candidate.text, gold, reading.low)) is not None:
        return (Label.CORRECT, False) if compared else (Label.INCORRECT, True)  # "Jupiter is not smaller than ..."
    # "Not two." names the gold 2: no abstention (hostile pass 19); "Not one person knows." rules out no number
    spelled = numbers_in_words_to_digits(seg) if len(seg.split()) <= 3 else seg
    ruled_out = RULED_OUT.match(candidate.text.strip()) or RULED_OUT_SAID.match(candidate.text.strip())
    family = family_name(gold_raw, gold, reading.asked) if ruled_out else None
    if ruled_out and find_word(spelled, gold) < 0 and find_word(gold, seg) < 0:
        if not (family and find_word(spelled, family) >= 0):  # "Definitely not Beethoven.": the gold denied (review 61)
            return Label.NOT_ATTEMPTED, False  # "not Venus": rules one out, names no answer ("Not guilty" is part)
    if _other_era(candidate.text, gold_raw):
        return Label.INCORRECT, True  # "1945 BC" for 1945: another year, not the gold's (issue #74's H6)
    if values.other_calendar_word(candidate.text, gold_raw):
        return Label.INCORRECT, True  # "The fourth Saturday of September." for its Sunday (hostile pass 55)
    if values.other_magnitude(candidate.text, gold_raw):
        return Label.INCORRECT, True  # "Hundreds of thousands." for Thousands (hostile pass 46)
    if rewrites.another_numbered_part(candidate.text, gold_raw):
        return Label.INCORRECT, True  # "Season 9; the eighth season." offers two seasons
    for verdict in (values.date_verdict, values.number_verdict, _text_verdict):
        label = verdict(candidate, seg, gold_raw, gold, reading)
        if label is not None and verdict is not _text_verdict and turns.value_denied(candidate.text):
            # "Not 1889." denies the gold; "1889, not 1887" sets another value aside (hostile pass 17)
            return (Label.INCORRECT, True) if label is Label.CORRECT else (Label.NOT_ATTEMPTED, False)
        if label is Label.CORRECT and verdict is not _text_verdict and turns.value_put_down(seg):
            return Label.INCORRECT, True  # "1889 is wrong.", "1889 (not really)" (hostile pass 20)
        if label is not None:
            return label, True
    if _side_remark(candidate, seg, gold_raw, gold, reading) or _vague(candidate, gold_raw, gold, reading):
        return Label.NOT_ATTEMPTED, False
    another = _ANOTHER_GUESS.match(seg)  # "It might also be Lyon": another answer, however long the clause
    competing = _candidate_item(seg[another.end() :] if another else candidate.text) or names_alternatives(seg)
    if competing and _remark(candidate.text, reading.asked):
        competing = False  # "Lyon is lovely. But the capital is Paris.": a word about Lyon, no answer (pass 18)
    competing = competing or _corrected_to_another(candidate.text, gold_raw, reading)
    competing = competing or _labelled_other_number(candidate.text, gold_raw, reading.question)
    return Label.INCORRECT, competing


# "actually, the lawyer", "really it is the lawyer who wins": a noun given as the answer after a word that corrects
_CORRECTION = re.compile(r"\b(?:actually|really|in truth|in fact|in reality|rather|instead|but)\b")
_KIND_RIVAL = re.compile(
    r"^\W*(?:(?:actually|really|in truth|in fact|in reality|rather|instead)\W+)?(?:(?:it|that)\s+(?:is|was)\s+)?"
    r"(?:the|a|an)\s+(?P<what>[a-z][\w-]*)(?:\s+(?:who|that|which)\b.*)?\W*$",
    re.IGNORECASE,
)


def _corrected_to_another(text: str, gold_raw: str, reading: Reading) -> bool:
    """For a gold that is a common noun the answer gives with its article ("the banker"), another noun given the
    same way after a correcting word is another answer, not a description: "The banker. Actually, the lawyer.", "It
    seems the banker, but really it is the lawyer." (hostile pass 41: paid as right; a name, "Actually, Lyon.",
    always competed).

    >>> r = read("The banker. Actually, the lawyer.", ["banker"])
    >>> _corrected_to_another(r.candidates[1].text, "banker", r)
    True
    """
    gold = gold_raw.strip().lower()
    if gold != gold_raw.strip() or not 1 <= len(gold.split()) <= 2:
        return False
    if not re.search(rf"\b(?:the|a|an)\s+{re.escape(gold)}\b", reading.low):
        return False
    found = _KIND_RIVAL.match(text)
    if found is None or set(found["what"].lower().split()) & set(gold.split()):
        return False
    at = reading.low.find(text.lower())
    return at >= 0 and bool(_CORRECTION.search(reading.low[max(0, at - 30) : at + len(text)]))


# "Lyon is lovely": a name and one plain word said of it
_NAME_IS_WORD = re.compile(
    r"^\W*[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*\s+(?:is|was|are|were)\s+(?:very\s+|so\s+|really\s+|quite\s+)?"
    r"(?:(?:the|a|an)\s+)?(?P<word>[a-z]+)\W*$"  # "Blossom is the redhead" beside Bubbles (hostile pass 36)
)


def _remark(text: str, asked: frozenset[str]) -> bool:
    """A remark about another name ("Lyon is lovely"), not an answer: what it says of it is one lower-case word
    the question does not ask ("Lyon is capital" would)."""
    found = _NAME_IS_WORD.match(text)
    word = found["word"] if found else ""
    superlative = any(word in group and asked & group for group in _SAME_SUPERLATIVE)  # "the biggest", "the largest"
    kin = superlative or any(w[:5] == word[:5] for w in asked if len(w) >= 4)  # "blond" to "blonde"
    return bool(found) and normalize(word) not in asked and word not in _STOP and word not in _ENDORSING and not kin


_SAME_SUPERLATIVE = tuple(
    frozenset(g.split())
    for g in (
        "largest biggest greatest hugest vastest",
        "tallest highest loftiest",
        "smallest tiniest littlest",
        "longest lengthiest",
        "shortest briefest",
        "oldest eldest earliest",
        "youngest newest latest",
        "fastest quickest swiftest speediest",
        "slowest",
        "hottest warmest",
        "coldest chilliest coolest",
        "deepest",
        "richest wealthiest",
        "heaviest",
        "brightest",
        "most",
    )
)
_ENDORSING = frozenset("correct right true accurate wrong incorrect false likelier likely better answer".split())


# "The capital is Lyon": the question's own words as the subject, a name as what it is
_LABELLED_NUMBER = re.compile(r"^(?P<label>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*)?)\s+(?P<n>\d+)$")
_WHEN_ASKED = re.compile(r"(?i)\bwhen\s+[^?,;]+")


def _labelled_other_number(text: str, gold_raw: str, question: str | None) -> bool:
    """ "A Category 4 when it hit Dominica" for "What category was Hurricane David when it hit Dominica?" (gold
    Category 5): the gold's label with another number, in a clause that says the question's own "when ..." word for
    word, answers the question another way (hostile pass 41: paid as right beside "it had been a Category 5 earlier
    that day"). Only then: other storms, seasons and missions said beside the gold are detail (review 43).

    >>> q = "What category was Hurricane David when it hit Dominica?"
    >>> _labelled_other_number("A Category 4 when it hit Dominica", "Category 5", q)
    True
    >>> _labelled_other_number("it was upgraded from Category 4 just before it hit Dominica", "Category 5", q)
    False
    """
    found = _LABELLED_NUMBER.match(gold_raw.strip())
    when = _WHEN_ASKED.search(question or "")
    if found is None or when is None or normalize(when.group()) not in normalize(text):
        return False
    said = re.findall(rf"(?i)\b{re.escape(found['label'])}\s+(\d+)\b", text)
    return any(int(n) != int(found["n"]) for n in said)


def _other_era(text: str, gold_raw: str) -> bool:
    """The answer dates a number in another era than the gold's ("1945 BC", "1969 AH" for 1945 / 1969; "753" for
    753 BC is not: it names no era). A gold without an era marker is in the common era."""
    said = eras(text)
    if not said or not re.search(r"\d", gold_raw):
        return False
    return bool(said - (eras(gold_raw) or {"ce"}))


_ASKS_BCE = re.compile(r"(?i)\b(?:bce?|b\.\s?c\.(?:e\.)?|before (?:christ|the common era))(?!\w)")


def _era_dropped(text: str, gold_raw: str, question: str | None) -> bool:
    """A year before the common era said without its era: "44" for 44 BC is AD 44 (hostile pass 5), unless the
    question already asks for a year BC. ("1945 BC" for 1945 is ``_other_era``.)

    >>> _era_dropped("44", "44 BC", None), _era_dropped("44 BCE", "44 BC", None)
    (True, False)
    >>> _era_dropped("44", "44 BC", "Which year BC?")
    False
    """
    return (
        "bce" in eras(gold_raw)
        and bool(re.search(r"\d", text))
        and not eras(text)
        and not _ASKS_BCE.search(question or "")
    )


_VAGUE = re.compile(r"^(?:a|an|some|a certain|one of (?:the|several|many)|somewhere|someone|somebody|something)\b")
# "several strings" for eight: a count without a figure (it contradicts a gold of one or two)
_FEW_OR_MANY = re.compile(r"^(?:several|a few|many|numerous|multiple|various|a handful of|a number of|lots of)\b")
_WHOEVER = re.compile(r"^(?:whoever|whatever|whichever|wherever|whenever)\b")


# small words that join a sentence's words; a list of guesses has none between its names
_JOINING = (
    _STOP
    | _VERBS
    | frozenset(
        "as that which who whom whose where when while during after before into onto over under about than then but "
        "not no so also often only very most more one two its been being still first later".split()
    )
    | {"s"}  # a possessive: "dudley s mustache twirling nemesis" is a phrase, not names in a row (hostile pass 32)
)
_PROSE_WORDS = frozenset(
    "him them us me through across behind beside between among against without within upon toward towards around "
    "along near past since until onto".split()
)
_PROSE_FORM = re.compile(r"[a-z]{3,}(?:ing|ed|ly)")
LIST_RUN = 4  # this many words in a row, none joining and none the question's: names in a row, not a sentence


def _listlike(words: str, asked: frozenset[str], raw: str = "") -> bool:
    """Whether normalised ``words`` (an answer without its gold) hold a run of ``LIST_RUN`` words that neither
    join a sentence nor come from the question: "lyon marseille nice toulouse [paris]" is a shotgun list, "the
    1960 film la dolce vita is directed by [federico fellini]" and "gained independence from the soviet union
    in [1917]" are sentences with detail (SimpleQA: CORRECT)."""
    known = {stem(w) for w in asked}
    named = {normalize(w) for w in re.findall(r"\b[A-Z][\w'-]*", raw)}  # words written as names
    run, formed = 0, False
    for word in words.split():
        joins = word in _JOINING or stem(word) in known or any(ch.isdigit() for ch in word)
        joins = joins or word in ("sir", "dame")  # "Sir Tim Berners-Lee, the English ...": his title (pass 66)
        # a verb or adverb written in lower case: "stabbing him through the arras" is prose (hostile pass 33); not
        # two such forms in a row ("reading harding kettering worthing": names, the review of pass 33)
        form = bool(_PROSE_FORM.fullmatch(word))
        prose = word in _PROSE_WORDS or (form and not formed)
        joins = joins or (bool(raw) and word not in named and prose)
        formed = form
        run = 0 if joins else run + 1
        if run >= LIST_RUN:
            return True
    return False


def _told_in_the_past(text: str) -> bool:
    """A sentence of five words or more with a past tense after its first word: "Joe Biden served as his vice
    president for both terms." after the answer is a remark, not five more guesses (review 52: INCORRECT, as
    "served" is no verb ``is_statement`` knows). Not for the answer's own sentence: "Tom Hanks voiced Buzz Lightyear."
    for Woody's voice stays a list of names (a pinned review case).

    >>> _told_in_the_past("Joe Biden served as his vice president"), _told_in_the_past("Lyon, Nice, Marseille")
    (True, False)
    """
    words = normalize(text).split()
    if "," in text:  # "Sydney, Melbourne, Perth ... listed." is a list with a verb at its end (landing review)
        return False
    return len(words) >= 5 and any(w.endswith("ed") and len(w) >= 6 and not w.endswith("eed") for w in words[1:])


def _shotgun(words: int, gold_words: int) -> bool:
    """More than max(6, gold words) words besides the gold's: a list of guesses, not one answer with detail."""
    return words - gold_words > max(6, gold_words)


_FEW_SCALE = {"dozen": 12.0, "hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def _few_holds(low: str, opener: re.Match[str], gold: str) -> bool:
    """ "a few" / "several" [scale] spans two to ten of its scale ("a few hundred": 200 to 999); True when the
    gold's number lies there, or the gold is no number, or the opener sets no upper end ("many", "lots of")."""
    want = gold_quantity(gold)
    if want is None or opener.group(0) not in ("a few", "several", "a handful of"):
        return True
    scale = re.match(r"\s*(dozen|hundred|thousand|million|billion|trillion)s?\b", low[opener.end() :])
    size = _FEW_SCALE[scale.group(1)] if scale else 1.0
    return 2 * size <= abs(want[0]) < 10 * size


def _vague(candidate: Candidate, gold_raw: str, gold: str, reading: Reading) -> bool:
    """ "a city in France" for Paris when the question names France: a description that names nothing the
    question and gold do not, so it neither confirms nor contradicts the gold (SimpleQA: NOT_ATTEMPTED)."""
    if _WHOEVER.match(lower(candidate.text)) and "," not in candidate.text:
        return True  # "Whoever was running the USSR then" says it does not say who ("Whoever it was, Lyon" does)
    opener = _FEW_OR_MANY.match(lower(candidate.text))
    if opener is not None and (gold_quantity(gold) or (3.0,))[0] < 3:
        return False  # "a few" for one heart
    if opener is not None and not _few_holds(lower(candidate.text), opener, gold):
        return False  # "a few hundred metres" for 8,849 m: a magnitude that leaves the gold out (hostile pass 9)
    opener = opener or _VAGUE.match(lower(candidate.text))
    if not reading.asked or not opener:
        return False
    if kinds.names_another_kind(candidate.text, gold_raw, reading.question, reading.low):
        return False  # "A cat." for bulldog: another kind offered, not a description (hostile pass 54)
    known = reading.asked | set(gold.split())
    names = re.findall(r"\b[A-Z][\w'-]*", candidate.text[opener.end() :])  # "A city ...": the article is no name
    return not quantities(candidate.text) and all(normalize(n) in known for n in names)


def _text_verdict(candidate: Candidate, seg: str, gold_raw: str, gold: str, reading: Reading) -> Label | None:
    """Text: the candidate holds the gold (or the gold without its titles) as whole words, with no
    negation on it, no alternative beside it ("or", a list of names, "it might also be ..."), and not in a run of
    other names (``_listlike``).
    A multi-part gold needs every part (given names suffice when the parts share a family name)."""
    respelt = spelling.one_letter_off(seg, gold, spelling.compound_part(gold_raw))
    if respelt is not None:  # "Bishkeq" for Bishkek: read as the gold, then every check below applies
        seg = seg.replace(respelt, gold)
        written = turns.written(respelt)  # "coat hanger" was "coat-hanger"
        text = re.sub(rf"(?i)\b{written}\b", gold_raw, candidate.text)
        candidate = dataclasses.replace(candidate, text=text)
    family = family_name(gold_raw, gold, reading.asked)
    for variant in dict.fromkeys((gold, without_titles(gold), family or gold, _noun_form(gold), _adverb_form(gold))):
        at = find_word(seg, variant)
        if at < 0 or (variant == family and spelling.another_given_name(candidate.text, seg[:at], gold)):
            continue
        if variant == family and spelling.another_name_after(candidate.text, seg[:at], gold):
            return Label.INCORRECT  # "King George VI." for William Lyon Mackenzie King (hostile pass 60)
        if (
            variant == gold
            and not reading.asked & questions.ASKS_PERSON
            and _one_name_goes_on(candidate.text, seg[:at], gold, f"{gold_raw} {reading.question}")
        ):
            return Label.INCORRECT  # "Queen Latifah." for the band Queen (review 61)
        if variant != family and _hyphened_to_another(candidate.text, variant, gold_raw, reading.question):
            return Label.INCORRECT  # "North-west." for north, "Austria-Hungary" for Austria (hostile pass 60)
        before, after = seg[:at], seg[at + len(variant) :]
        if _NEGATION_BEFORE.search(before + " ") or _NEGATION_AFTER.match(after) or _RELATIVE_TO.search(before):
            return Label.INCORRECT
        if _MISTAKEN_FOR.search(before + " ") and not _ASKS_A_MISTAKE.search(reading.question):
            return Label.INCORRECT
        passed_over = _PASSED_OVER.search(before + " ") or _NAME_OVER.match(_raw_before(candidate.text, variant))
        if passed_over and swaps.asks_a_choice(reading.question):
            return Label.INCORRECT  # "She chooses Raoul over the Phantom." for the Phantom (hostile pass 55)
        beaten = _BEATEN.search(before + " ") or _LOST_TO.match(after)
        if (
            beaten
            and swaps.asks_a_win(reading.question)
            and find_word(after, variant) < 0
            and not _WON_AFTER.search(after)
        ):
            # "Al Gore beat George W. Bush." for who won (review 55); not when the answer comes back to the gold
            # ("Athens beat Sparta at Pylos, but Sparta won the war": review 33)
            return Label.INCORRECT
        winner = _WINNER_BEFORE.search(before + " ") or _BEAT_AFTER.match(after)
        if winner and swaps.asks_a_loss(reading.question) and find_word(after, variant) < 0:
            return Label.INCORRECT  # "Ali was knocked out by George Foreman." for who lost (review 59)
        if _OFFICE.search(gold_raw) and _UNDER_OFFICE.search(before + " ") and not _UNDER_OFFICE.search(gold + " "):
            return Label.INCORRECT  # "The Deputy Prime Minister." for Prime Minister: another office (pass 56)
        if _KEPT_OFF.search(before + " ") and not _ASKS_KEPT_OFF.search(reading.question):
            return Label.INCORRECT  # "A world that narrowly avoided a nuclear holocaust" (hostile pass 54)
        if _left_behind(before, candidate.text, reading):
            return Label.INCORRECT  # "Andrew Hennings; she finally divorces Jake." for whom she ends up with (pass 32)
        if _named_in_a_clause_of_another(candidate.text, variant, reading):
            return Label.INCORRECT  # "The Gulf of Oman, which connects to the Persian Gulf ..." (hostile pass 32)
        if _longer_place(candidate.text, variant, reading.question) and not _said_bare(reading, variant):
            return Label.INCORRECT  # "In New Mexico." for Mexico, "the Gulf of Mexico": another place (pass 55)
        if kinds.modifies_another_noun(candidate.text, gold_raw, reading.question):
            return Label.INCORRECT  # "A bulldog ant." for bulldog: an ant (hostile pass 54)
        if _title_goes_on(candidate.text, variant, gold_raw, reading):
            return Label.INCORRECT  # "Mario Tennis Aces" for Mario Tennis: another title (hostile pass 32)
        if re.search(r"\b[ivxl]+$", variant) and re.match(r"\s+of\s+\w", after):
            return Label.INCORRECT  # "Philip II of France" for Philip II of Spain, by its alias (pass 31's review)
        if variant.split()[-1] not in HEAD_WORDS and _another_head(after, reading.heads):
            return Label.INCORRECT  # "Boston University" for Boston College, "Boston" its asked short form (pass 31)
        relation = relation_of(before, reading.question) and not _described(candidate, reading)
        if relation or _another_place(candidate.text, variant, gold_raw, reading.question):
            return Label.INCORRECT  # "The father of Mozart", "Paris, Texas": someone or somewhere else
        if turns.compared(before) or turns.marked_wrong(candidate.text, variant) or turns.put_down(before, after):
            return Label.INCORRECT  # "bigger than Paris", "Paris ❌", "I doubt it's Paris", "Paris? Unlikely."
        ranked = _RANKED_AFTER.match(after) or (
            _WITH_IT_AFTER.search(before) and re.match(r"\s+(?:second|third|2nd|3rd)\b(?!\s+to\s+none)", after)
        )
        if ranked and _ASKS_THE_TOP.search(reading.question) and not _ASKS_A_RANK.search(reading.question):
            return Label.INCORRECT  # "The Congo; the Nile is second." to the longest river in Africa (pass 63)
        if said_the_other_way(reading.question, after, before, reading.low):
            return Label.INCORRECT  # "Jupiter is smaller than Saturn" to "Which is larger?" (hostile passes 18-19)
        if turns.past_only(candidate.text, reading.question):
            return Label.INCORRECT  # "bigger than Paris", "Paris ❌", "I doubt it's Paris", "It used to be Paris"
        if after.startswith(" s ") and _possessor(candidate.text, variant, reading.asked):
            return Label.INCORRECT
        if _ANOTHER_GUESS.search(before + " | " + after):  # "paris is the answer and so is lyon"
            return Label.INCORRECT
        text = candidate.text
        if _named_as(before):  # "Malia Ann and Natasha Marian, known as Malia Obama and Sasha Obama"
            lead = _NAMED_AS.split(lower(candidate.text))[0].strip(" ,")
            named = set(normalize(lead).split()) - _STOP  # "the City of Light, known as ...": a description
            if named and not lead.startswith("the ") and not named & set(gold.split()) and not named <= reading.asked:
                return Label.INCORRECT  # "Lyon, also known as Paris": another name, said to be the gold's (pass 10)
            seg, raw_named = seg[at:], list(_NAMED_AS.finditer(lower(text)))  # the gold's other names before it
            text = text[raw_named[-1].end() :] if raw_named else text
        if (
            names_alternatives(seg.replace(variant, " "))
            or _is_list(
                text, gold_raw, variant, _known(candidate, gold_raw, reading.asked), reading.asked, reading.question
            )
            or _bare_list(text, gold_raw, variant, reading.asked, reading.question)
        ):
            return Label.INCORRECT
        # by the family name, the given names before it are the gold's own (``another_given_name`` read them):
        # "Sir Timothy John Berners-Lee, the English computer scientist, ..." is no run of names (hostile pass 66)
        own = " ".join(before.split()[:-3]) if variant == family and variant != gold else before
        if len(seg.split()) - len(variant.split()) > max(6, len(variant.split())) and _listlike(
            own + " " + after, reading.asked, candidate.text
        ):
            return Label.INCORRECT
        return Label.CORRECT
    if spelling.misspelt_name(seg, gold, gold_raw):
        return Label.CORRECT
    return _parts_verdict(candidate, seg, gold_raw, reading)


_ADVERB_BASES = ("ous", "ful", "ic", "al", "ive", "ent", "ant", "less", "ible", "able", "ate", "ary")


def _adverb_form(gold: str) -> str:
    """The adverb of a one-word adjective gold: "anonymous" -> "anonymously" (hostile pass 54: "Anonymously." was
    INCORRECT for the letter's writer "anonymous"), "tragic" -> "tragically", "probable" -> "probably"; only for
    adjective endings whose adverb means the same; the gold itself otherwise.

    >>> _adverb_form("anonymous"), _adverb_form("tragic"), _adverb_form("paris france")
    ('anonymously', 'tragically', 'paris france')
    """
    if " " in gold or len(gold) < 6 or not gold.isalpha() or not gold.endswith(_ADVERB_BASES):
        return gold  # "hardly", "deadly", "shortly", "nearly" mean other things (landing review)
    if gold.endswith("ic"):
        return gold + "ally"
    if gold.endswith(("ible", "able")):
        return gold[:-1] + "y"
    if gold.endswith("ary"):
        return gold[:-1] + "ily"
    return gold + "ly"


_TIC_NOUN = re.compile(r"^(?P<stem>[a-z]{4,}[eoy])tic$")


def _noun_form(gold: str) -> str:
    """The noun a one-word "-tic" gold names the state of: "electrokinetic" -> "electrokinesis", "hypnotic" ->
    "hypnosis", "analytic" -> "analysis" (hostile pass 41: "Electrokinesis: she can create and control lightning."
    was INCORRECT for the power "electrokinetic"); the gold itself otherwise.

    >>> _noun_form("electrokinetic"), _noun_form("paris")
    ('electrokinesis', 'paris')
    """
    found = _TIC_NOUN.match(gold)
    return f"{found['stem']}sis" if found else gold


_LEAD_THEN_CLAUSE = re.compile(
    r"^\W*(?:(?:He|She|They|It)\s+(?:is|was|plays|played|voices|voiced|portrays|portrayed)\s+)?(?:[Tt]he\s+)?"
    r"(?P<lead>[A-Z][\w'-]*(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z][\w'-]*)*)\s*,\s*"
    r"(?:(?:which|that|who|whose)\s+(?!(?:lies|lay|is\s+(?:in|located|situated|found)|was\s+(?:in|located|born)|sits|"
    r"stands)\b)|(?:the|a|an)\s+)"  # "He voices Red, the angry bird who idolizes the Mighty Eagle" (review 42)
)


def _named_in_a_clause_of_another(text: str, variant: str, reading: Reading) -> bool:
    """The answer leads with another name and says the gold only in a clause or description about it: "The Gulf of
    Oman, which connects to the Persian Gulf" for the sea around Dubai; "He plays Boromir, the son of Denethor who
    travels with Aragorn" for Aragorn (review 42). Not where the clause says where the lead lies ("Mount
    Everest, which lies in Nepal"), nor for a question asking where, nor a lead the question names.

    >>> r = Reading(question="What is the name of the sea surrounding Dubai?")
    >>> _named_in_a_clause_of_another("The Gulf of Oman, which connects to the Persian Gulf", "persian gulf", r)
    True
    >>> _named_in_a_clause_of_another("The Persian Gulf, which connects to the Gulf of Oman", "persian gulf", r)
    False
    """
    found = _LEAD_THEN_CLAUSE.match(text)
    if found is None or questions.ASKS_PLACE.search(reading.question):
        return False
    lead = normalize(found["lead"])
    if find_word(lead, variant) >= 0 or set(lead.split()) <= reading.asked | _STOP:
        return False
    rest = normalize(text[found.end() :])
    if re.search(rf"\b(?:as|is|was|called|named|alias)\s+{re.escape(variant)}\b", rest):
        return False  # "Strider, the ranger later revealed as Aragorn": the lead is the gold by another name
    return find_word(rest, variant) >= 0


def _title_goes_on(text: str, variant: str, gold_raw: str, reading: Reading) -> bool:
    """A work's title (the question asks for a game, film, book, song ...) that the answer goes on with another
    capitalised word, a number or a subtitle: "Mario Tennis Aces", "Toy Story 3", "Street Fighter II", "Mario
    Tennis: Ultra Smash" name other works than "Mario Tennis", "Toy Story", "Street Fighter". Not a platform or an
    abbreviation ("Mario Tennis N64"), a part ("Star Wars Episode IV"), a year, or a word the question says. Only
    for works: a club's, a place's or a person's name goes on with a suffix as often ("Real Madrid CF", "Seabrook
    Island SC": the review of pass 32).

    >>> r = Reading(question="What was the first game Waluigi was in?")
    >>> _title_goes_on("Mario Tennis Aces", "mario tennis", "Mario Tennis", r)
    True
    >>> _title_goes_on("Mario Tennis, in 2000", "mario tennis", "Mario Tennis", r)
    False
    """
    words = gold_raw.split()
    if not _ASKS_A_WORK.search(reading.question) or questions.ASKS_WHO.search(reading.question):
        return False
    if len(words) < 2 or not all(w[:1].isupper() or w.lower() in _TITLE_SMALL for w in words) or text == text.lower():
        return False
    found = re.search(rf"(?i:{turns.written(variant)})(?:[ \t]+|:[ \t]*)(?P<next>[A-Z0-9][\w'-]*)", text)
    if found is None:
        return False
    nxt = found["next"]
    low = normalize(nxt)
    if not low or low in HEAD_WORDS or low in reading.asked or low in _NOT_A_SEQUEL or places.level(nxt):
        return False
    return not (re.fullmatch(r"\d{4}", nxt) or (nxt.isupper() and not re.fullmatch(r"[IVXL]+", nxt)))


_ASKS_A_WORK = re.compile(
    r"(?i)\b(?:game|film|movie|book|novel|album|song|single|track|show|series|sitcom|play|musical|opera|episode|"
    r"comic|manga|anime|poem|painting|sequel)s?\b"
)
_NOT_A_SEQUEL = frozenset(
    "episode part chapter volume vol nintendo playstation xbox wii gamecube switch sega atari pc ds game boy "
    "edition version film movie series season".split()
)
_TITLE_SMALL = frozenset("of the a an and in on at to for de la le von van".split())


def gold_heads(raw_golds: list[str]) -> frozenset[str]:
    """The head words ("college", "lake", "mount") at the edges of the gold names, normalised; "mt" is "mount"."""
    out = set()
    for raw in raw_golds:
        words = normalize(raw).split()
        if len(words) > 1:
            out |= {w for w in words[:1] + words[-1:] if w in HEAD_WORDS}
    return frozenset(same_head(w) for w in out)


def _another_head(after: str, heads: frozenset[str]) -> bool:
    """The name goes on with a head word that is not the gold's own, where the gold has one: "boston university"
    for Boston College (its short form "Boston" allowed by a question that says "college"), "new york city" for
    New York State; not "pacific ocean" for Pacific, whose gold has no head word.

    >>> _another_head(" university", frozenset({"college"})), _another_head(" college", frozenset({"college"}))
    (True, False)
    """
    following = after.split()[:1]
    word = same_head(following[0]) if following else ""
    return bool(heads) and word in HEAD_WORDS and word not in heads


def _head_added(pred: str, heads: frozenset[str], golds: Iterable[str] = ()) -> bool:
    """``pred`` (normalised) begins or ends with a head word the gold, which has one of its own, does not hold;
    not a head stacked on a whole gold ("michigan state university" for Michigan State: the review of pass 30)."""
    words = pred.split()
    if any(pred.startswith(g + " ") and g.split()[-1] in HEAD_WORDS for g in golds):
        return False
    return len(words) > 1 and (_another_head(" " + words[-1], heads) or _another_head(" " + words[0], heads))


_RELATIONS = re.compile(rf"(?i)(?:{RELATION}|capital)")


_SUBJECT_BEFORE = re.compile(r"\b(?:it|he|she|they|this|that)(?:'s|\u2019s|\s+is|\s+was|\s+were|\s+are)\s*$")


def _described(candidate: Candidate, reading: Reading) -> bool:
    """The answer said the candidate of a subject ("It's a moon of Jupiter", "He was the son of Leopold Mozart"):
    it describes the question's subject, whose relation the gold is; the reading kept only the phrase."""
    at = reading.low.find(lower(candidate.text))
    return at > 0 and bool(_SUBJECT_BEFORE.search(reading.low[:at]))


def _another_place(text: str, variant: str, gold_raw: str, question: str) -> bool:
    """The gold's name put in a country the question and the gold do not ("Paris, Texas" for the capital of
    France; ``turns.another_place``)."""
    found = _first_mention(text, variant)
    if found is not None and towns.state_other_than_asked(text[found.end() :], question):
        return True  # "Charleston, South Carolina." for the capital of West Virginia (hostile pass 61)
    return found is not None and another_place(text[found.end() :], countries(question) | countries(gold_raw))


# words that open an answer before a place's name without being part of it ("In New Mexico", "At the Gulf of ...")
_PLACE_OPENER = re.compile(
    r"(?i)^(?:(?:in|at|on|from|near|to|off|outside|inside|across|within|somewhere|probably|maybe|perhaps|it|it's|"
    r"it was|it is|was|is|they|got|married|the)\s+)+"
)


_STATE_WORDS = frozenset(
    "republic state kingdom commonwealth island isle federation principality sultanate emirate duchy grand "
    "people's federal city of the".split()
)
# a division "of" the place that is the place itself: "the Province of Quebec", "the County of Kent"
_DIVISION_WORDS = _STATE_WORDS | frozenset(
    "province county town district region territory prefecture canton borough municipality islands isla".split()
)


# an institution, or a person's title where no person is asked, named "of" a place: "The Duke of Kent." names a
# duke, "The Bank of Italy." a bank, "Port of Spain." a city in Trinidad, none the place (review 57: CORRECT for Kent,
# Italy, Spain); "The Duke of Wellington." to who won at Waterloo is the gold's own title
_NAMED_AFTER = frozenset("bank port church mayor".split())
# a building "of" the place: in it where the question asks where ("In the Tower of London." for where Anne Boleyn
# died), another thing where it asks which city or country ("The Tower of London." to which city: review 59)
_BUILT_OF = frozenset("tower museum cathedral palace castle bridge".split())
_TITLES_OF = frozenset(
    """duke duchess earl count countess prince princess king queen emperor empress lord lady baron baroness marquess
    marquis viscount archduke archbishop bishop sultan""".split()
)


def _named_after(head: str, question: str, gold: str = "", text: str = "") -> bool:
    """``head`` before "of" and the gold names something after the place, not the place (``_NAMED_AFTER``); a
    title "of" a country or region is its ruler even where a person is asked ("The Queen of England." to who won
    the 1966 World Cup: review 59), but "He was King of France." says what the subject was (landing review 59)."""
    asked = {w.lower() for w in re.findall(r"[A-Za-z]+", question)}
    person = asked & questions.ASKS_PERSON and not places.level(gold)
    if head in _BUILT_OF:
        return not re.match(r"(?i)\W*(?:where|in\s+what\s+place)\b", question)
    return head in _NAMED_AFTER or (head in _TITLES_OF and not person and not is_statement(text))


def _said_bare(reading: Reading, variant: str) -> bool:
    """Some candidate names the gold as itself: a longer place in an aside after it is a remark ("Mexico; Texas also
    borders New Mexico": review 55)."""
    return any(
        _first_mention(c.text, variant) and not _longer_place(c.text, variant, reading.question)
        for c in reading.candidates
    )


_DISTRICT = re.compile(
    r"(?i)(?<!not )\b(?:washington,?\s+d\.?\s?c\b|district of columbia\b|washington,?\s+(?:the\s+)?(?:(?:u\.?s\.?|us|"
    r"american|nation'?s|federal)\s+)?capital\b)"
)
_THE_STATE = re.compile(
    r"(?i)(?<!not )\b(?:washington\s+state|state\s+of\s+washington|washington,?\s+the\s+evergreen\s+state)\b"
)


def _the_district(text: str, gold_raw: str, question: str) -> bool:
    """ "Washington, D.C." or "Washington, the U.S. capital." for the state of Washington, "Washington State." for
    the capital, "The District of Columbia." for South Carolina's capital: the other place (reviews 55 and 57).

    >>> _the_district("Washington, D.C.", "Washington", "In which US state is Seattle?")
    True
    >>> _the_district("Washington.", "Washington", "In which US state is Seattle?")
    False
    >>> _the_district("Washington State.", "Washington, D.C.", "What is the capital of the United States?")
    True
    >>> _the_district("The District of Columbia.", "Columbia", "What is the capital of South Carolina?")
    True
    """
    gold = normalize(gold_raw)
    capital = re.search(r"(?i)\bcapital\b", question or "")
    if gold in ("washington d c", "washington dc", "district of columbia") or (gold == "washington" and capital):
        return _answered(_THE_STATE, text)  # "Washington State." for the capital (review 59 too)
    if gold in ("columbia", "colombia"):
        return _answered(_DISTRICT, text)
    if gold.endswith(" washington") and gold != "washington state":
        return _answered(_THE_STATE, text)  # "Washington State." for George Washington (review 59)
    return (
        gold in ("washington", "washington state")
        and _said_not_set_aside(_DISTRICT, text)
        and bool(re.search(r"(?i)\bstate\b", question or ""))
    )


_SET_ASIDE = re.compile(r"(?i)\b(?:not|never|confused\s+with|rather\s+than|unlike|instead\s+of|as\s+opposed\s+to)\b")


def _said_not_set_aside(pattern: re.Pattern[str], text: str) -> bool:
    """``pattern`` found with no "not", "confused with" and the like in the words before it ("Washington, D.C., not
    to be confused with Washington State.": landing review 59)."""
    return any(not _SET_ASIDE.search(text[max(0, m.start() - 40) : m.start()]) for m in pattern.finditer(text))


def _answered(pattern: re.Pattern[str], text: str) -> bool:
    """``pattern`` is the answer itself, at its start ("Washington State.", "In the District of Columbia."), not a
    remark after another answer ("George Washington, after whom Washington State is named")."""
    found = pattern.search(text)
    return found is not None and bool(_ANSWER_LEAD.fullmatch(text[: found.start()]))


_ANSWER_LEAD = re.compile(r"(?i)\W*(?:(?:in|it's|it\s+is|it\s+was|probably|maybe|perhaps)\s+)*(?:the\s+)?")


def _feature_of(pred: str, gold: str, question: str) -> bool:
    """``pred`` (normalised) is a generic head "of" the gold that the question does not ask: "Gulf of Mexico" for
    Mexico names a gulf (review 55), where "University of Oxford" answers which university and "Republic of
    Ireland" is the country's long form.

    >>> _feature_of("gulf of mexico", "mexico", "Which country borders the US?")
    True
    >>> _feature_of("university of oxford", "oxford", "Which university did he attend?")
    False
    """
    found = re.fullmatch(rf"(?:the )?(\w+) of (?:the )?{re.escape(gold)}", pred)
    return (
        found is not None
        and (found[1] in HEAD_WORDS or _named_after(found[1], question, gold, pred))
        and found[1] not in _DIVISION_WORDS
        and same_head(found[1]) not in {same_head(w) for w in normalize(question).split()}
    )


def _first_mention(text: str, variant: str) -> re.Match[str] | None:
    """The gold's first mention in ``text`` as written (case aside), or None."""
    return re.search(rf"(?i)\b{turns.written(variant)}\b", text)


def _raw_before(text: str, variant: str) -> str:
    """``text`` as written before the gold's first mention ("" when it is not found as written)."""
    found = _first_mention(text, variant)
    return text[: found.start()] if found else ""


def _longer_place(text: str, variant: str, question: str = "") -> bool:
    """The gold's name as the end of a longer place name that is another place: "New Mexico" or "In New Mexico."
    for Mexico, "Papua New Guinea" for Guinea (a place the gazetteer knows), "the Gulf of Mexico" (a generic head
    and "of"). Bare "New Mexico." was caught only as a list of two names; after "In" it was paid (hostile pass 55).

    >>> _longer_place("In New Mexico.", "mexico"), _longer_place("In the Gulf of Mexico.", "mexico")
    (True, True)
    >>> _longer_place("In Mexico, near Cancun.", "mexico"), _longer_place("George Washington.", "washington")
    (False, False)
    >>> _longer_place("Mexico; to the west, Texas also borders New Mexico.", "mexico")
    False
    """
    first = _first_mention(text, variant)  # the answer's own mention, not an aside's ("...; Texas also borders New
    if first is None:  # Mexico": review 55)
        return False
    written = turns.written(variant)
    found = re.search(rf"((?:[A-Z][\w'-]*\s+(?:of\s+(?:the\s+)?)?)+)(?i:{written})\b", text[: first.end()])
    if found is None or found.end() != first.end():
        return False
    lead = _PLACE_OPENER.sub("", found.group(1)).strip()
    if not lead or set(lead.lower().split()) <= _STATE_WORDS:
        return False  # "the Republic of Ireland", "the State of Israel": the gold's own long form (landing review)
    first = lead.split()[0].lower()
    if (first in HEAD_WORDS or _named_after(first, question, variant, text)) and re.search(r"\bof\b", lead):
        # "Gulf of Mexico", "Bay of Bengal": a feature named after the place; not the head the question asks
        # ("University of Oxford." to which university)
        return first not in _DIVISION_WORDS and same_head(first) not in {
            same_head(w) for w in normalize(question).split()
        }
    whole = f"{lead} {text[found.end(1) : found.end()]}"
    if lead.lower() in ("new", "old") and not re.search(rf"(?i)\b{re.escape(lead)}\s+{written}\b", question):
        return True  # "New Berlin, Wisconsin." for Berlin: a town named after it (hostile pass 61)
    return normalize(whole) != variant and bool(places.level(whole))


def _possessor(text: str, variant: str, asked: frozenset[str]) -> bool:
    """The gold only as the owner of the answer: "Jupiter's moon Europa", "Jupiter's neighbour Saturn" for
    Jupiter name a moon and a planet, not Jupiter (hostile pass 5). A relation word or another name within
    the next few words; "Mozart's" or "Mozart's opera" still names Mozart."""
    written = turns.written(variant)
    found = re.search(rf"(?i)\b{written}['\u2019]s\s+(?P<rest>[^.,;:!?]*)", text)
    if found is None:
        return False
    words = found["rest"].split()[:4]
    if any(_RELATIONS.fullmatch(w) for w in words[:3]):
        return True
    return any(w[:1].isupper() and normalize(w) not in asked | set(variant.split()) for w in words)


_NAMED_AS = re.compile(r"\b(?:(?:known|referred to|called|named|nicknamed) as|aka|a\.?k\.?a\.?|nicknamed)(?!\w)")


def _named_as(text: str) -> bool:
    """``text`` (normalised or raw) ends with "known as", "aka" and the like: what follows names the same thing."""
    found = list(_NAMED_AS.finditer(text))
    return bool(found) and not text[found[-1].end() :].strip()


_SEMICOLON_LIST = re.compile(
    r"\s*[^;.!?\s]+(?:[ \t]+[^;.!?\s]+){0,3}(?:\s*;\s*[^;.!?\s]+(?:[ \t]+[^;.!?\s]+){0,3})+\s*\.?\s*"
)


# where the answer lies, said after it ("Paris, I think, close to the river"): a detail, not another answer
_WHERE_IT_LIES = re.compile(
    r"^(?:(?:just|right|directly|immediately|slightly|a little|a short way)\s+)?"  # "just east of the Forum" (pass 69)
    r"(?:near|nearby|close to|next to|beside|along|alongside|across|inside|outside|beyond|around|behind|opposite|"
    r"towards?|above|below|beneath|between|among|facing|not far from|"
    r"(?:north|south|east|west)(?:-?(?:east|west))? of)\b"
)


_SEASON_OF_YEAR = re.compile(
    rf"(?:early|late|mid|spring|summer|fall|autumn|winter|{MONTH_WORDS})\s+(?:of\s+)?(?:1\d{{3}}|20\d{{2}})"
)


def _candidate_item(item: str) -> bool:
    """A short item that reads as another answer ("Lyon", "Joe Biden"), not a description ("the capital", "close
    to the river")."""
    words = normalize(item).split()
    raw_words = re.findall(r"[\w']+", lower(item))
    if not raw_words or _WHERE_IT_LIES.match(" ".join(raw_words)) or _ABOUT_IT.match(item.strip()):
        return False  # "close to the river", "painted in 1889", "it was": a detail about the answer
    if _SEASON_OF_YEAR.fullmatch(" ".join(raw_words)):
        return False  # "Season 13 (fall 2011)": when, said beside a name (hostile pass 32)
    return 1 <= len(words) <= 3 and raw_words[0] not in _NON_CANDIDATE_START


@short_memo(
    8192, MAX_CHARS, lambda answer, gold, question=None: len(answer or "") + len(gold or "") + len(question or "")
)
def lists_guesses(answer: str, gold: str, question: str | None = None) -> bool:
    """The answer offers several guesses ("Lyon or Paris", "Lyon, Nice, Paris, Bordeaux", "lyon nice paris
    rennes"), not one answer (read as the grader reads it: hedges and refusals set aside first; words of the
    ``question`` are not other guesses).

    >>> lists_guesses("Lyon, Marseille, Nice, Paris", "Paris"), lists_guesses("Lyon, I think.", "Paris")
    (True, False)
    """
    norm_gold = normalize(gold)
    if names_alternatives(norm_gold):
        return False
    text = prepare(answer or "")
    if _SEMICOLON_LIST.fullmatch(text):  # "pack; herd; flock": the reading cuts sentences at ";", a list it is
        text = text.replace(";", ",")
    candidates = read(text, [norm_gold, lower(gold)]).candidates
    named = any(find_word(normalize(c.text), norm_gold) >= 0 for c in candidates)
    asked = asked_words(question, [norm_gold])
    return any(
        _lists(c, gold, norm_gold, asked, question) for c in candidates if not (named and _about_it(c.text, norm_gold))
    )


# True detail after the answer: a relative clause or a parenthesis ("Budapest, which was formed by merging Buda,
# Obuda and Pest"; "Oxygen (symbol O)"), and a sentence about it ("It was discovered by Scheele and Priestley").
_DETAIL = re.compile(r",\s*(?:which|who|whose|where|when)\b|,\s*(?:the|a|an)\s|\s\(")
_ABOUT_IT = re.compile(
    r"(?i)^(?:(?:it|he|she|they|this|its|his|her|their)\s+(?!could\b|might\b|may\b|must\b)\w+"
    r"|(?:\w+ed|born|built|written|made|known|named|found|given|won|held|drawn|taken|seen)\s+(?:\w+\s+)?"
    r"(?:by|in|on|at|as|with|alongside|opposite)\b)"  # "partnered with Cheryl Burke" (hostile pass 32)
)


# "He shared the prize ...": a subject pronoun and a lower-case word make a clause, whatever the verb ("She Loves
# You", capitalised, is a title)
_PRONOUN_CLAUSE = re.compile(r"(?:[Hh]e|[Ss]he|[Ii]t|[Tt]hey)\s+[a-z]")


def _about_it(text: str, gold: str) -> bool:
    """A sentence about the answer named elsewhere (a pronoun subject and a verb, or a passive "discovered by
    ..." after the reading dropped "It was"), not naming the gold: detail, not guesses."""
    return (
        bool(_ABOUT_IT.match(text))
        and (is_statement(text) or not text[:1].isupper() or bool(_PRONOUN_CLAUSE.match(text)))
        and find_word(normalize(text), gold) < 0
    )


def _before_detail(text: str, gold: str) -> str:
    """The text up to the first relative clause or parenthesis after the gold (the rest describes it)."""
    for m in _DETAIL.finditer(text):
        if find_word(normalize(text[: m.start()]), gold) >= 0:
            return text[: m.start()]
    return text


def _lists(candidate: Candidate, gold_raw: str, gold: str, asked: frozenset[str], question: str | None) -> bool:
    """One candidate offers several guesses. Against a date or number gold the values decide (several
    different dates or numbers), so "July 20, 1969" and "42,195 metres" are one answer, not a comma list."""
    want = gold_date(gold_raw)
    if want is not None:
        dates = date_spans(candidate.text, values.century(want))
        if dates:
            return one_date(dates) is None or (len(dates) > 1 and names_alternatives(normalize(candidate.text)))
    want_value = gold_quantity(gold_raw)
    if want_value is not None:
        found = quantities(without_other_counts(candidate.text, question), gold_raw)
        if found:
            return values.single_value(found, candidate.text, want_value[0], asked) is None
        # no figure against a number: "Several strings, arranged in pairs" guesses no number, let alone two
        return names_alternatives(normalize(candidate.text))
    return (
        names_alternatives(normalize(candidate.text))
        or _is_list(
            _before_detail(candidate.text, gold), gold_raw, gold, _known(candidate, gold_raw, asked), asked, question
        )
        or _run_of_names(candidate.text, gold)
        or _bare_list(candidate.text, gold_raw, gold, asked, question)
    )


# adjectives that describe one animal or thing without naming a kind of it
_PLAIN_ADJECTIVES = (
    "big|large|huge|small|little|tiny|young|old|adult|baby|male|female|wild|tame|fierce|friendly|cute|fat|hungry|"
    "talking|clever|wise|brave|shy|lazy|lonely|proud|grumpy|playful|fluffy|furry|stuffed|toy|teddy|cartoon|fictional|"
    "anthropomorphic"
)


def _prose_before(raw: str, gold: str) -> bool:
    """The words before the gold, after the first, are written in lower case and one of them is a verb ("The
    patient develops AIDS."): a sentence, not names in a row ("Lyon marseille paris" has no verb)."""
    tokens = raw.split()
    at = next((i for i, t in enumerate(tokens) if normalize(t) == gold.split()[0]), 0)
    before = tokens[1:at]
    return (
        raw != raw.lower()
        and bool(before)
        and all(t.islower() for t in before)
        and any(t in _VERBS or re.fullmatch(r"[a-z]{3,}(?:s|ed)", t) and not t.endswith("ss") for t in before)
    )


def _bare_list(text: str, gold_raw: str, gold: str, asked: frozenset[str], question: str | None = None) -> bool:
    """ "bratislava ljubljana zagreb budapest": the gold among bare words, without a separator, a verb or a
    small word, and two or more others the question does not hold (a head word such as "mount" is not one).
    With the question, one such word before the gold is enough ("Lyon Paris": a wrong name beside the right
    one, issue #74); one after it may qualify it ("Mount Everest Nepal", "Paris France") unless it is a rival
    (``_rival``: "Paris Berlin" for France's capital, "Mozart Beethoven" for a composer).
    When a person may be asked, a gold at the end may end a full name ("johann sebastian bach", "maria salomea
    sklodowska curie"): not a list then. Neither ``_is_list`` (separators) nor ``_run_of_names`` (capitals,
    over six more words) sees such a list; a 1.5B judge paid it CORRECT (held-out set 5's k104). Not for number
    or date golds: the value rules read those ("15 players per team")."""
    raw = text.strip(" .!?")
    words = normalize(raw).split()
    if len(words) < 2 or re.search(r"[,;:/()&]", raw) or is_statement(raw) or re.search(r"\d", gold_raw):
        return False
    if re.match(rf"(?i)an?\s+(?:{_PLAIN_ADJECTIVES})\s+\S+$", raw):
        return False  # "A big tiger.": one thing described, not two names; "A polar bear." names a kind (review 57)
    if words[0] in _NAMING:
        words = words[1 + (words[1:2] in (["after"], ["for"])) :]  # "[It's] called Tynwald Court", "named after X"
    if len(words) < 2 or any(len(w) < 3 or w in STOP for w in words):
        return False  # a small word: a phrase ("rio de janeiro", "the capital is"), not bare names
    joined = " ".join(words)
    at = find_word(joined, gold)
    if at < 0:
        return False
    before, after = joined[:at].split(), joined[at + len(gold) :].split()
    if _prose_before(raw, gold):
        return False  # "The patient develops AIDS.": a verb in lower case before it, prose, not names
    gold_words = set(gold.split())
    offered = {w for o in questions.offered(question) for w in normalize(o).split()} - gold_words
    if offered & set(before):
        return True  # "Beethoven Mozart" when the question asks "Beethoven or Mozart?": both of its options
    if not after and (not asked or asked & questions.ASKS_PERSON or _full_name_asked(question, raw, before)):
        return False  # "carl philipp emanuel bach": one name; "Roland Bishop" for Tupac's name in Juice (pass 30)
    known = {stem(w) for w in asked}
    extra = [w for w in before + after if stem(w) not in known and w not in HEAD_WORDS]
    named_before = bool(asked) and any(stem(w) not in known and w not in HEAD_WORDS for w in before)
    if len(extra) >= 2 or named_before:
        return True
    if not after:
        return False
    tokens = [(w, token) for token in raw.split() for w in normalize(token).split()]  # each word as written
    written = " ".join(dict.fromkeys(token for _, token in tokens[-len(after) :])) if len(tokens) >= len(after) else ""
    return _rival(written or " ".join(after), gold_raw, asked, question, raw == raw.lower())


_SOMEONES_NAME = re.compile(
    r"(?i)(?:['\u2019]s|\b(?:his|her|their))\s+(?:(?:real|full|first|last|character)\s+)?name\b"
)


def _full_name_asked(question: str | None, raw: str, before: list[str]) -> bool:
    """The question asks someone's name ("What was Tupac's name in Juice?") and the words before a one-word gold
    are capitalised and name no place: a given name ("Roland Bishop"), not a rival ("Lyon Paris")."""
    if not question or not _SOMEONES_NAME.search(question) or questions.ASKS_SETTLEMENT.search(question):
        return False
    if questions.ASKS_COUNTRY.search(question) or questions.ASKS_PLACE.search(question):
        return False
    if re.search(r"(?i)\b(?:first|given|christian|last|family|sur)\s*name\b", question):
        return False  # "Hunt's first name" "Owen": "Clive Owen" makes it a surname (the review of pass 30)
    tokens = raw.split()[: len(before)]
    if not tokens or tokens[0].lower() in ("the", "a", "an"):
        return False  # "The Swiss Family Robinson": a title, not a given name
    return all(t[:1].isupper() for t in tokens) and not any(places.level(w) for w in before)


# words that may follow an answer without naming anything ("paris, definitely", "mozart final answer")
_NOT_NAMES = frozenset(
    "answer final correct right sure yes indeed too certainly surely obviously clearly definitely course though "
    "again only exactly".split()
)


def _rival(item: str, gold_raw: str, asked: frozenset[str], question: str | None, lower_case: bool) -> bool:
    """Whether ``item``, said right after the gold ("Paris, Lyon", "Paris Berlin", "Mozart, Beethoven"), is another
    answer of the gold's kind rather than a qualifier ("Paris, France", "Mount Everest Nepal", "Mozart, Austria").

    The rule: a name (its words capitalised, small words such as "van" aside; any word but a filler in an
    all-lower-case answer; not an abbreviation or post-nominal such as "FRS", "ACT"; not a description such as
    "English playwright") that the question and the gold do not hold is a qualifier only when it names a larger
    place than the gold (``places.level``: a region, country or continent, "France" after Paris, "Asia" after
    Nepal). When the question says it asks for a place or a person (``questions.asks_a_kind``: "capital",
    "city", "country", "where", "who", "composer" ...), any other name is a second candidate of that kind:
    "Lyon" after Paris, "Beethoven" after Mozart, "China" after Nepal for a country. Otherwise (what is asked is
    no place or person the rules know: "the highest mountain", "which museum"), only a place as large as the
    gold is one ("France, Germany"): "The Louvre, Paris" keeps its qualifier, since no gazetteer of cities says
    Paris is larger than a museum."""
    if not _candidate_item(item) or RULED_OUT.match(item):
        return False  # "Paris, not Lyon" rules one out
    if _numbered_twin(item, gold_raw):
        return True  # "Season 13, Season 14": the gold's kind with another number (hostile pass 32)
    known = {stem(w) for w in asked} | {stem(w) for w in normalize(gold_raw).split()}
    new = [
        w
        for w in normalize(item).split()
        if len(w) > 1 and stem(w) not in known and w not in HEAD_WORDS and w not in HONORIFICS and w not in _STOP
    ]
    if not new:
        return False
    if lower_case:
        if all(w in _NOT_NAMES or w in _JOINING or w.endswith("ly") for w in new):
            return False
    else:
        tokens = [t for t in item.split() if normalize(t) and normalize(t) not in _STOP]
        if not tokens or not all(t[:1].isupper() for t in tokens):
            return False  # "Paris, definitely", "Shakespeare, English playwright": a description, no name
        if all(re.fullmatch(r"[A-Z]{2,4}\.?", t) for t in tokens):
            return False  # "Fleming, FRS", "Canberra, ACT": a post-nominal or an abbreviation
    gold_level, its_level = places.level(gold_raw), places.level(item)
    if places.also_a_city(item) and not gold_level:
        its_level = 0  # "Washington DC, New York", "Ottawa, Quebec": the city of that name, another guess
    if questions.asks_a_kind(question):
        return its_level <= gold_level
    return its_level >= places.REGION and its_level == gold_level


def _numbered_twin(item: str, gold_raw: str) -> bool:
    """``item`` is the gold's words with another number: "Season 14" beside "Season 13", "Apollo 12" beside "Apollo 11".

    >>> _numbered_twin("Season 14", "season 13"), _numbered_twin("Season 13", "season 13")
    (True, False)
    """
    said, gold = normalize(item).split(), normalize(gold_raw).split()
    words = [w for w in said if not w.isdigit()]
    numbers = [w for w in said if w.isdigit()]
    gold_numbers = [w for w in gold if w.isdigit()]
    return (
        bool(words and numbers and gold_numbers)
        and words == [w for w in gold if not w.isdigit()]
        and numbers != gold_numbers
    )


_NAMING = frozenset("called named nicknamed dubbed titled termed".split())


def _run_of_names(text: str, gold: str) -> bool:
    """ "Lyon Marseille Toulouse Nice Nantes Strasbourg Montpellier Bordeaux Lille Paris Rennes": the gold in a
    run of names with no separator, far longer than the gold (the grade's own shotgun rule: more than
    max(6, gold words) words besides it), most of them capitalised. Without separators ``_is_list`` sees one item."""
    words = text.split()
    if "," in text or not _shotgun(len(words), len(gold.split())) or find_word(normalize(text), gold) < 0:
        return False
    return sum(w[:1].isupper() for w in words) >= 0.7 * len(words)


def _known(candidate: Candidate, gold_raw: str, asked: frozenset[str]) -> frozenset[str] | None:
    """After a ruled-out clause, the words a qualifier may use (the question's and the gold's); else None."""
    return asked | frozenset(normalize(gold_raw).split()) if candidate.after_ruled_out else None


# after the answer, a clause that says of each what it holds ("..., each unit of salt holds one sodium ion and ..."),
# in lower case: its "and" joins no list of answers
_EXPLAINED = re.compile(r"\s*[,:]\s+(?:[Ee]ach|[Ee]very)\s+[a-z]+(?:\s+[a-z][\w'-]*){3,}")


def _is_list(
    answer: str,
    gold_raw: str,
    gold: str,
    known: frozenset[str] | None = None,
    asked: frozenset[str] = frozenset(),
    question: str | None = None,
) -> bool:
    """True for "Lyon, Nice, Paris", "Paris and Lyon", "Lyon, Paris": the gold among other short
    candidates. "Paris, France" (the gold first, one qualifier, no "and") stays one answer, unless the qualifier
    is a rival of the gold's kind (``_rival``: "Paris, Lyon" for France's capital); with ``known``
    (after "Not Venus, but ...") only a qualifier in those words does ("Mars, Jupiter" is a list)."""
    answer = _QUOTED.sub(lambda m: m.group(0).replace(",", " "), answer)
    answer = _without_description(answer, gold)
    explained = _EXPLAINED.search(answer)
    if explained and find_word(normalize(answer[: explained.start()]), gold) >= 0:
        answer = answer[: explained.start()]  # "Sodium and chlorine: each unit of salt holds ...": why (pass 69)
    items = [i for i in _ITEM_SPLIT.split(answer) if normalize(i)]
    if len(items) == 2 and _POSSESSIVE_NOUN.fullmatch(items[0].strip()) and find_word(normalize(items[1]), gold) >= 0:
        return False  # "Sosa's assassin, the Skull": who the gold is, then the gold (hostile pass 39)
    gold_items = [i for i in _ITEM_SPLIT.split(gold_raw) if normalize(i)]
    whole = _gold_as_one(items, gold_items)  # "Washington, D.C., USA": the gold's own comma splits nothing
    if len(whole) <= (1 if len(whole) < len(items) else max(1, len(gold_items))):
        return False
    items = whole
    others = [i for i in items if find_word(normalize(i), gold) < 0 and not empty(i)]
    if len(gold.split()) > 1 and asked & questions.ASKS_PERSON:  # "Austen — Jane Austen, in 1813." (pass 63)
        others = [i for i in others if normalize(i) != gold.split()[-1]]  # the family name, then the whole name
    # the question's own name beside the gold: "Hylda Baker and Arthur Mullard" to "Who sang it with Arthur
    # Mullard?" (hostile pass 55); not where the question offers the gold too ("between Mayweather and Guerrero")
    if asked and not set(gold.split()) <= asked and not re.search(r"(?i)\bor\b", question or ""):
        others = [i for i in others if not set(normalize(i).split()) <= asked]
    if not re.search(r"\d", gold) and not _ITS_PLACE.match(items[0]):
        others = [i for i in others if not _ITS_PLACE.match(i)]  # "The Last One (season 10, episode 17)": where it is
    if not any(_candidate_item(i) for i in others):
        return False
    # prose cut at its commas ("The days are long, the further you are ..., summer and winter daylight becomes"):
    # a list's items are short names (one long lead-in at most: "It could be Lyon, Nice, Paris"), prose's clauses
    short = [i for i in items if _candidate_item(i) or find_word(normalize(i), gold) >= 0 or len(i.split()) <= 3]
    if len(items) - len(short) > (1 if len(items) >= 3 else 0):
        return False
    joined_by_and = bool(re.search(r"\band\b|&|\bas well as\b|\bplus\b", lower(answer)))
    gold_first = find_word(normalize(items[0]), gold) >= 0
    unknown = known is not None and any(not set(normalize(i).split()) <= known for i in others)
    if gold_first and not joined_by_and and _places_around(items[1:], gold_raw, asked):
        return False  # "Atlanta, Georgia, USA": each name after the gold a larger place holding the one before
    if not re.search(r"\d", gold) and not joined_by_and and any(_MEASURE_ITEM.match(i) for i in others):
        # "154 lb (light middleweight, also called super welterweight)": a figure beside a gold that is no figure,
        # and the gold's other name (hostile pass 34)
        measures = [i for i in others if _MEASURE_ITEM.match(i)]  # "154 lb / 160 lb": two limits (review 35)
        if len(measures) == 1 and all(_MEASURE_ITEM.match(i) or _ALSO_CALLED.match(i) for i in others):
            return False
    lower_case = answer == answer.lower()
    if _town_in_the_gold(items, gold_raw, gold, question or "") and not joined_by_and:
        return False  # "Harrisville, Rhode Island." for Rhode Island: where in it (hostile pass 58)
    if joined_by_and or not gold_first or unknown:
        return True
    # after the gold, a figure qualifies it: "Kilimanjaro, in Tanzania (5,895 m)" is one answer (hostile pass 29); two
    # other items or more are a list
    named = [i for i in others if not _MEASURE_ITEM.match(i)]  # "paris, lyon, marseille" is a list in any case
    if len(items) >= 3 and any(_candidate_item(i) for i in named):
        return True  # "Jupiter, 143,000 km, Saturn" (the review of pass 29)
    return any(_rival(i.strip(), gold_raw, asked, question, lower_case) for i in named)


# a description after a name: "Jane Austen, an English novelist and satirist", "Paris, which is large and ...",
# "Brad Bird (writer and director)"
_POSSESSIVE_NOUN = re.compile(POSSESSIVE_DESCRIPTION + r"\s*(?:,|$)")  # "Sosa's assassin," beside the gold
_DESCRIPTION = re.compile(
    r",\s*(?:(?:a|an|the)\s+|(?P<clause>(?:who|which|whose|where|starring|featuring|"
    r"(?:directed|written|produced|composed|performed|sung)\s+by)\b))|\s*\((?=[a-z])"
    r"|(?P<said>\s*(?:[,;:]|\s[\u2013\u2014-]+|[\u2013\u2014])\s*(?:she|he|they)\s+(?=[a-z]{3,}(?:ed|s)\b|(?:can|could|will|would|must)\s+[a-z]{3,}\b))"
    r"|,\s*(?=%s)" % _POSSESSIVE_NOUN.pattern  # "The Skull, Sosa's assassin, shoots him" (hostile pass 39)
)
_NAME_JOINED = re.compile(r"(?:\band\b|\bor\b|&|,|\bnor\b)\s+(?:the\s+)?[A-Z]")


# a firm the answer's person works for, closing the answer: "David Childs of Skidmore, Owings & Merrill (SOM)"
_FIRM_AFTER = re.compile(
    r",?\s+of\s+(?:the\s+)?[A-Z][\w'.-]*(?:(?:,\s*|\s+)[A-Z][\w'.-]*)*"
    r"(?:,?\s*&\s*[A-Z][\w'.-]*(?:\s*\([A-Z]{2,6}\)|,\s*[A-Z]{2,6})?|\s*\([A-Z]{2,6}\))\s*[.!]?\s*$"
)


def _without_description(answer: str, gold: str) -> str:
    """``answer`` cut before a description of the gold that follows it, whose "and" joins words of the description,
    not names (hostile pass 31: "Jane Austen, an English novelist and satirist." read as a list, INCORRECT); one
    that goes on to a name ("Paris, the capital, and Lyon") is left whole.

    >>> _without_description("Jane Austen, an English novelist and satirist.", "jane austen")
    'Jane Austen'
    >>> _without_description("Paris, the capital, and Lyon", "paris")
    'Paris, the capital, and Lyon'
    >>> _without_description("Rachel Perkins \u2014 she directed Radiance and Bran Nue Dae.", "rachel perkins")
    'Rachel Perkins'
    >>> _without_description("Titanic, starring Leonardo DiCaprio and Kate Winslet.", "titanic")  # hostile pass 66
    'Titanic'
    """
    firm = _FIRM_AFTER.search(answer)
    if firm and find_word(normalize(answer[: firm.start()]), gold) >= 0:
        return answer[: firm.start()]  # hostile pass 32: its comma and "&" read as a list
    found = _DESCRIPTION.search(answer)
    if found is None or find_word(normalize(answer[: found.start()]), gold) < 0:
        return answer
    rest = answer[found.end() :]
    if found["clause"] or found["said"]:
        # a clause about the gold ("who directed Radiance and Bran Nue Dae", "-- she directed ..."): its verb's
        # objects are joined by a bare "and"; ", X", ", and X" or "or X" goes on to a rival (hostile pass 35)
        return (
            answer
            if re.search(r",\s*(?:(?:and|or|nor)\s+)?(?:the\s+)?[A-Z]|\bor\s+[A-Z]", rest)
            else answer[: found.start()]
        )
    return answer if _NAME_JOINED.search(rest) else answer[: found.start()]


def _described_away(text: str, golds: list[tuple[str, str]], asked: frozenset[str]) -> str:
    """``text`` without a description of the gold after it (``_without_description``), for counting an answer's
    words: "He plays the Mighty Eagle, the legendary protector of Bird Island." is one answer with detail, not a
    shotgun list (hostile pass 40). Where the words before the description, or the description itself, run names
    together ("Lyon Marseille Nice Paris, the capital of France") the whole is counted; after the bare gold too: the
    judge sets' hand labels split there by whether the description is true ("Louis Pasteur, the German chemist, ..."
    is INCORRECT), which no word count can read."""
    for _, gold in golds:
        cut = _without_description(text, gold)
        if cut != text and normalize(cut) != gold:
            rest = text[len(cut) :]
            listed = _listlike(normalize(cut), asked, cut) or _listlike(normalize(rest), asked, rest)
            return text if listed or _names_beside(cut, gold, asked) or _goes_on(rest) else cut
    return text


_LEAD_WORDS = frozenset("he she it they the a an his her its their this that i we".split())
_GOES_ON = re.compile(r"[,;]|\b(?:plus|or|alternatively|and|also|else|otherwise|maybe|perhaps)\s+(?:the\s+)?[A-Z]")


def _names_beside(cut: str, gold: str, asked: frozenset[str]) -> bool:
    """A name in ``cut`` that is neither the gold's nor the question's: "He voices Red and Mighty Eagle", "Tiberius
    Caligula Claudius" (review 42: rivals stuck to the gold before its description)."""
    words = re.findall(r"\b[A-Z][\w'-]*", cut)
    if words and words[0].lower() in _LEAD_WORDS:
        words = words[1:]
    own = set(gold.split()) | asked
    return any(normalize(w) not in own for w in words)


def _goes_on(rest: str) -> bool:
    """The description goes on past its phrase to another name or clause: ", plus Red", ", alternatively Red"."""
    return bool(_GOES_ON.search(rest.strip().rstrip(".!?")[1:]))


_ALSO_CALLED = re.compile(r"(?i)\s*(?:also\s+)?(?:called|known\s+as|a\.?k\.?a\.?)\s+\w")
# where a title sits in its series or when it came out: "season 10", "episode 17", "aired April 2", "2009"
_ITS_PLACE = re.compile(
    r"(?i)\s*(?:(?:season|series|episode|ep\.?|part|volume|vol\.|chapter|track|disc|issue)\s+\d+"
    r"|(?:aired|released|broadcast|published|first\s+shown)\b.*|\d{4})\s*[.)]?\s*$"
)
_MEASURE_ITEM = re.compile(r"\s*(?:about\s+|c\.\s*|~\s*)?[\d.,]+\s*(?:[a-zA-Z%\u00b0]{1,10}\.?)?\s*$")


_ASKS_A_REGION = re.compile(r"(?i)\b(?:state|country|province|region|territory|county|nation)\b|^\W*where\b")


@functools.cache
def _us_states() -> frozenset[str]:
    """The fifty states' names, normalised (read once, not per grade)."""
    return frozenset(normalize(state) for state in towns.state_codes().values())


def _town_in_the_gold(items: list[str], gold_raw: str, gold: str, question: str) -> bool:
    """Two items, a name no gazetteer level knows (a town) and then the gold, a US state or a country, to a question
    asking a region or where: the town said with the region holding it ("Hoboken, New Jersey." for New Jersey);
    two regions ("Connecticut, Rhode Island", "Umbria, Tuscany": the gazetteer lacks Umbria, landing review) stay a
    list, and so does a town beside the short form of a city or lake gold ("Seattle, Washington" for Washington,
    D.C.: review 32)."""
    return (
        bool(_ASKS_A_REGION.search(question))
        and len(items) == 2
        and normalize(re.sub(r"(?i)^\s*in\s+", "", items[1])) == normalize(gold_raw)
        and (places.level(gold_raw) >= 2 or normalize(gold_raw) in _us_states())
        and not places.levels(items[0])
        and bool(re.fullmatch(r"\s*(?:[Ii]n\s+)?[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}\s*", items[0]))
    )


def _places_around(items: list[str], gold_raw: str, asked: frozenset[str]) -> bool:
    """Every item a region, country or continent, each larger than the one before and the first larger than
    the gold: where the gold lies, said outward ("Georgia, USA", "Ile-de-France, France, Europe"). A name that
    is also a city's ("New York") counts only when the question holds it."""
    size = places.level(gold_raw)
    while len(items) > 1 and _WHERE_IT_LIES.match(" ".join(re.findall(r"[\w']+", lower(items[-1])))):
        items = items[:-1]  # "Rome, Italy, just east of the Roman Forum": where in it, after where it lies
    for item in items:
        if places.also_a_city(item) and not set(normalize(item).split()) <= asked:
            return False
        larger = [n for n in places.levels(item) if n > size]
        if not larger:
            return False
        size = min(larger)  # Georgia after Atlanta a state, so that "USA" after it may hold it
    return bool(items)


_LEADS_IN = frozenset("in at from is was to".split())  # "It was built in Lebanon, Tennessee"


def _gold_as_one(items: list[str], gold_items: list[str]) -> list[str]:
    """``items`` with each run that spells the gold's own items ("Washington", "D.C.") joined into one; the first
    may be led in by words ("In Lebanon", "Tennessee": hostile pass 34's probe, read as a list of two places)."""
    size, want = len(gold_items), [normalize(g).replace(" ", "") for g in gold_items]
    if size < 2:
        return items
    first = normalize(gold_items[0])

    def spells(run: list[str]) -> bool:
        said = [normalize(x) for x in run]
        lead = said[0][: -len(first)].split() if first and said[0].endswith(" " + first) else []
        led_in = said[0] == first or (lead and lead[-1] in _LEADS_IN)  # not "West Lebanon" (the review of pass 34)
        return len(run) == size and bool(led_in) and [x.replace(" ", "") for x in said[1:]] == want[1:]

    out, i = [], 0
    while i < len(items):
        if spells(items[i : i + size]):
            out.append(", ".join(items[i : i + size]))
            i += size
        else:
            out.append(items[i])
            i += 1
    return out


def _gold_parts(gold_raw: str) -> list[str]:
    if not _multi_part(gold_raw):
        return []
    parts = [normalize(p) for p in re.split(r",|&|\band\b", gold_raw)]
    parts = [p for p in parts if p]
    return parts if len(parts) >= 2 else []


def names_part(span: str, gold_raw: str) -> bool:
    """The span names some parts of a multi-part gold and not all ("skeletal and cardiac" for skeletal, smooth
    and cardiac): a part passed off as the whole (SimpleQA: INCORRECT)."""
    parts = _gold_parts(gold_raw)
    if len(parts) < 3 and "," not in gold_raw:  # "Harry Potter and the ...", "Health and Human Services"
        return False
    seg = normalize(span)
    named = [any(find_word(seg, f) >= 0 for f in options) for options in _part_forms(parts)]
    return any(named) and not all(named)


def _part_forms(parts: list[str]) -> list[list[str]]:
    """The ways each part may be named: itself, without titles, and without a family name all parts share."""
    shared = ""
    last = {p.split()[-1] for p in parts}
    if len(last) == 1 and all(len(p.split()) >= 2 for p in parts):
        shared = last.pop()
    forms = []
    for part in parts:
        options = [part, without_titles(part)]
        if shared:
            options.append(" ".join(without_titles(part).split()[:-1]))
        forms.append([o for o in dict.fromkeys(options) if o])
    return forms


def _parts_verdict(candidate: Candidate, seg: str, gold_raw: str, reading: Reading) -> Label | None:
    """A multi-part gold ("Malia Obama and Sasha Obama"): every part named and no other candidate is
    CORRECT; alternatives or an extra name are INCORRECT; some parts named, with the answer saying
    outright that it leaves the rest open ("one of them is Malia, not sure about the other") is
    NOT_ATTEMPTED, otherwise a part passed off as the whole is INCORRECT. None if no part is named."""
    parts = _gold_parts(gold_raw)
    if not parts:
        return None
    forms = _part_forms(parts)
    named = [any(find_word(seg, f) >= 0 for f in options) for options in forms]
    if not any(named):
        return None
    if names_alternatives(seg):
        return Label.INCORRECT
    all_forms = [f for options in forms for f in options]
    items = [i for i in _ITEM_SPLIT.split(candidate.text) if normalize(i)]
    extra = [i for i in items if not any(find_word(normalize(i), f) >= 0 for f in all_forms) and not empty(i)]
    if any(_candidate_item(i) for i in extra):
        return Label.INCORRECT
    if all(named):
        longest = max(len(o.split()) for o in all_forms)
        # the clause that names every part ("Water is made of oxygen and hydrogen: each molecule has ..." names
        # them before its colon: hostile pass 69, INCORRECT for its length)
        clauses = [normalize(c) for c in re.split(r"\s*[,:;]\s+|\.\s+", candidate.text)]
        naming = [c for c in clauses if all(any(find_word(c, f) >= 0 for f in options) for options in forms)]
        short = min((len(c.split()) for c in naming), default=len(seg.split()))
        return Label.INCORRECT if short > 2 * len(gold_raw.split()) + 6 + longest else Label.CORRECT
    return Label.NOT_ATTEMPTED if _INCOMPLETE.search(reading.low) else Label.INCORRECT


def _side_remark(candidate: Candidate, seg: str, gold_raw: str, gold: str, reading: Reading) -> bool:
    """A refusal's side remark that commits to no candidate: "I cannot answer without research;
    however Obama has two children" for the Obama daughters. It must follow a refusal, not be put
    forward as a guess, be a statement (a verb) about the gold's subject (a word of the gold), name
    no one new (no capitalised word outside the gold), negate nothing, list nothing, and any count it
    gives must match the number of parts of the gold ("three children" contradicts a two-part gold)."""
    if not reading.refused or candidate.guessed:
        return False
    words = seg.split()
    gold_words = set(gold.split()) | reading.asked
    content_gold = {w for w in gold_words if w not in _STOP and len(w) > 2}
    about = content_gold.intersection(words) or (reading.asked and words[0] in _PRONOUNS)
    if len(words) < 3 or not any(w in _VERBS for w in words) or not about:
        return False
    if _NEGATION_BEFORE.search(seg + " ") or re.search(r"\b(?:not|never|no)\b|n t\b", seg) or names_alternatives(seg):
        return False
    if re.search(r"\band\b|&|,", lower(candidate.text)):
        return False
    for name in re.findall(r"\b[A-Z][\w'-]*", candidate.text):
        low = normalize(name)
        if low and low not in gold_words and low not in _STOP and low not in _VERBS and low != "i":
            return False
    parts = len(_gold_parts(gold_raw)) or 1
    for q in quantities(candidate.text):
        if not (q.kind == "exact" and q.low == parts):
            return False
    return True
