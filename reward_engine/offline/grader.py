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
  for 120,000), a correct part of a multi-part gold that explicitly leaves the rest open ("one
  of them is Malia, but I'm not sure about the other"), or a refusal with a side remark that
  names no candidate and agrees with the gold. An empty answer too.

How: the answer is cut into clauses; refusals ("I don't know", "I'm not sure who won ...")
and hedges ("maybe", "I think", "my best guess is", "I'd have to double check") are set
aside, and what is left is the answer's committed content, in one or more *candidates* (a
new candidate starts after a refusal or hedge, or where a hedge introduces one: "Paris,
maybe Lyon" holds two). Each candidate is graded against the gold (dates, then numbers, then
text); any INCORRECT candidate makes the answer INCORRECT, else any CORRECT one makes it
CORRECT. Only an answer with nothing committed, or whose commitments are all too vague or
side remarks, is NOT_ATTEMPTED, so hedging never turns a wrong answer into a non-answer.

Conservative by design where rules cannot know better: a long answer that merely contains
the gold among many other words, a list, a negation, or a remark naming a new name is not
CORRECT (or NOT_ATTEMPTED), so the policy cannot win by saying more. Known limits: the
grader cannot tell a true remark from a false one beyond names and numbers, and a vague
*text* answer ("a city in France") reads as INCORRECT, not NOT_ATTEMPTED.
"""

from __future__ import annotations

import re
import string
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable

from reward_engine.labels import Label
from reward_engine.offline.answer_forms import (
    DateSpan,
    Quantity,
    date_spans,
    gold_date,
    gold_quantity,
    quantities,
    same_answer,
    without_titles,
)

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(f"[{re.escape(string.punctuation)}\u2018\u2019\u201c\u201d\u2013\u2014\u00b7]")
_SPACES = re.compile(r"\s+")
_DOTTED = re.compile(r"\b(?:[a-z]\.){2,}")
_MAX_CHARS = 4_000  # past this an answer is not a short answer: INCORRECT unless it is the gold itself

# Refusals: a clause holding one of these says "I cannot give the answer". A refusal and whatever
# it refuses ("I don't know who won the 1921 prize", "I'm not sure about the other") are set aside.
ABSTENTIONS = (
    r"\bi (?:do not|don't|dont|did not|didn't) (?:really |actually |honestly |exactly |definitively )?know\b",
    r"\bnot (?:entirely |completely |totally |quite |absolutely |really |too |that |very |fully |100% )?"
    r"(?:sure|certain|positive|confident)\b",
    r"\b(?:unsure|uncertain)\b",
    r"\bno (?:idea|clue)\b",
    r"\b(?:cannot|can not|can't|cant|could not|couldn't) be (?:determined|known|answered|said|confirmed|verified)\b",
    r"\bunknown to me\b",
    r"\bi (?:cannot|can not|can't|cant|could not|couldn't|am unable to|'m unable to|am not able to|'m not able to|"
    r"was unable to|do not|don't|did not|didn't) (?:answer|say|determine|tell|know|find|recall|remember|confirm|"
    r"verify|provide|identify|pinpoint|be sure|be certain|give)\b",
    r"\b(?:insufficient|not enough|lack of|need more|needs more|would need more|require more|requires more|"
    r"without more|without further|without additional|without sufficient|no further) "
    r"(?:information|data|context|details|research|specifics|clarification)\b",
    r"\bi (?:need|would need|'d need|require) (?:more |additional |further )?(?:context|information|details|"
    r"clarification|research)\b",
    r"\bunable to (?:answer|determine|say|confirm|verify|find|identify)\b",
    r"\bi (?:have no|lack|lack the|have no reliable) (?:information|knowledge|data|details)\b",
    r"\bno (?:reliable |verifiable |specific |definitive |clear |available )?(?:information|data|records?|details|"
    r"answer) (?:is |are |was |were )?(?:available|found|exists?|known)\b",
    r"\b(?:information|data|details|records?|the answer) (?:is |are |was |were )?(?:not available|unavailable|"
    r"lacking|not known|unknown)\b",
    r"\bi (?:do not|don't|did not|didn't) have (?:that|this|the|enough|any|sufficient|reliable|specific|"
    r"the relevant) (?:information|data|knowledge|details)\b",
    r"\bi (?:do not|don't) have access\b",
    r"\b(?:it is|it's|that is|that's|this is) (?:unclear|not clear|unknown|"
    r"impossible to (?:say|tell|know|determine))\b",
    r"\b(?:hard|difficult|impossible) to (?:say|tell|know|determine)\b",
    r"\bi (?:would|'d) (?:only )?be guessing\b",
    r"\bno way (?:of|to) (?:know|knowing|tell|telling)\b",
    r"\b(?:i am|i'm|im) not (?:aware|familiar)\b",
    r"\b(?:beyond|outside) (?:of )?(?:my|the scope of my) knowledge\b",
    r"\bi (?:would|'d) (?:need|have) to (?:research|look (?:it |this |that )?up|search)\b",
    r"\b(?:i (?:do not|don't) (?:want|wish) to|i (?:won't|will not|would rather not|'d rather not)|rather not) "
    r"(?:guess|speculate)\b",
    r"\b(?:idk|dunno)\b",
    r"\b(?:nobody|no one|no-one) (?:really |truly )?knows\b",
    r"^(?:unknown|unclear|not known|n/?a|no answer|cannot say|can't say|not available|pass|no comment)$",
)
_ABSTAIN = re.compile("|".join(ABSTENTIONS))

# Hedges: they qualify an answer without taking it back. One that opens a clause introduces a candidate.
_HEDGE = re.compile(
    r"\b(?:i think|i believe|i guess|i suppose|i suspect|i reckon|i assume|i imagine|i feel|i recall|i remember|"
    r"i would guess|i'd guess|i would say|i'd say|i want to say|i'd go with|i would go with|i'll go with|"
    r"i'm guessing|i am guessing|let's say)\b(?: that\b)?"
    r"|\b(?:i am|i'm|im) (?:fairly |pretty |quite |almost |reasonably |somewhat |mostly |kind of |sort of )?"
    r"(?:sure|certain|confident|positive)\b(?: that\b)?"
    r"|\bmy (?:best |first |only |honest |educated |wild )?(?:guess|bet|estimate|recollection|understanding|belief|"
    r"instinct|hunch)(?: would be| is| was|:)?(?: that\b)?"
    r"|\bif i (?:had|have) to (?:guess|bet|say)\b"
    r"|\bif (?:i (?:remember|recall)|memory serves)(?: me)?(?: correctly| rightly| right)?\b"
    r"|\b(?:as far as|from what) i (?:know|remember|recall|can tell|understand)\b"
    r"|\bto the best of my (?:knowledge|recollection|memory)\b"
    r"|\boff the top of my head\b"
    r"|\b(?:most|many|some) (?:people|sources|historians|experts|accounts) (?:would |might |will |may )?"
    r"(?:say|think|believe|suggest|claim|agree)\b(?: that\b)?"
    r"|\bi (?:could|might|may) be (?:wrong|mistaken|misremembering)\b"
    r"|\b(?:if|unless) i'm (?:not )?mistaken\b"
    r"|\b(?:don't|do not) quote me(?: on (?:that|this|it))?\b"
    r"|\b(?:i )?(?:would |'d |will |might )?(?:have|need) to (?:double[- ]?check|check|verify|confirm)"
    r"(?: (?:that|this|it))?\b"
    r"|\bmost likely\b|\bmore likely than not\b|\bat a guess\b|\bor something(?: like that)?\b"
    r"|\b(?:maybe|perhaps|possibly|probably|likely|presumably|supposedly|apparently|conceivably|potentially|"
    r"plausibly|allegedly|reportedly|definitely|certainly|surely|obviously|clearly)\b"
    r"|\b(?:it|this|that) (?:seems|appears|looks)(?: like| to be| that)?\b"
    r"|\b(?:is|would be|was) (?:my|the) (?:best )?(?:guess|bet)\b"
    r"|\?"
)
# Openers that introduce the answer itself ("it's Lyon", "the answer might be Lyon"), set aside at a clause start.
_INTRO = re.compile(
    r"(?:(?:the |my )?(?:correct |right |final |likely )?answer (?:is|was|would be|might be|could be|may be|"
    r"should be|:)|(?:it|that|this)(?:'s| is| was)|(?:it|that|this|the answer) (?:might|may|could|must|would|should|"
    r"will) (?:well )?(?:be|have been)|(?:could|might|may) be)\b\s*"
)
_FILLER = (
    "and but so also then well anyway though however yet still hmm um uh ok okay sure honestly frankly sorry "
    "unfortunately actually again just really oh ah alright now regardless nonetheless nevertheless personally "
    "truly simply"
)
_EDGE_FILLER = re.compile(rf"(?:(?:{'|'.join(_FILLER.split())}|hm+|u+m+|u+h+)\b[\s,]*)+")
_EDGE_FILLER_END = re.compile(rf"(?:[\s,]*\b(?:{'|'.join(_FILLER.split())}|either|too|though))+$")
_PREFIX_FILLER = frozenset(
    (
        _FILLER + " it there is are was i am i'm im i'd i've it's there's that's afraid to be honest that this as of "
        "now currently the moment sadly genuinely regret apologize apologise admit have must say being quite very "
        "rather me an a ai assistant language model"
    ).split()
)
# A clause of only these commits to nothing ("I'm sorry", "As an AI", "Answer:").
_ONLY_FILLER = _PREFIX_FILLER | {"either", "too", "on", "answer", "final", "my", "guess"}
_PREPOSITIONS = frozenset("without before from based given as at with in for after until unless".split())
# After a refusal phrase, these open what is refused ("... who won", "... the answer", "... about the other").
_REFUSED_OBJECT = re.compile(
    r"^(?:who|what|when|where|which|why|how|whose|whom|about|of|on|regarding|concerning|to|for|the|a|an|their|his|"
    r"her|its|my|your|our|this|that|these|those|it|them|him|any|anything|enough|exactly|offhand|right|now|at|in|"
    r"from|without|because|since|as|with|off|much|more|all|yet|here|there|precisely|personally|at all|either)\b"
)
_REFUSED_THEN_CLAIM = re.compile(
    r"^(?:(?:that|if|whether) )?(?:the|this|that|it|he|she|they|his|her|their|its)\b(?: [\w']+){0,6}?"
    r"(?:'s| is| was| are| were| would be| might be| could be| may be| will be)\s+(?P<rest>\S.*)$"
)
_PARTICIPLE = re.compile(
    r"^(?:\w+ed|born|built|written|made|held|won|given|taken|known|seen|done|sung|drawn|begun|run|found|"
    r"shown|sold|told|thought|brought|bought|set|put|cut|led|left|lost|kept|spent|sent|chosen|known)\b"
)
_REFUSED_IF = re.compile(r"^(?:if|whether|that)\s+(?P<rest>\S.*)$")
_BREAK_WORDS = re.compile(
    r"\b(?:but|however|although|though|whereas|nevertheless|nonetheless|otherwise)\b"
    r"|\band\s+(?=(?:maybe|perhaps|possibly|probably|likely|most likely)\b)"
)
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr st mt jr sr prof gen col lt capt sgt rev fr no vs etc approx ca c inc ltd co corp dept univ ft "
    "op vol ed eds fig".split()
)
_INCOMPLETE = re.compile(
    r"\b(?:one of (?:them|those|the \w+)|the others?|other one|others|the rest|at least|among (?:them|others)|"
    r"including|and more|etc|not all|one is|one was|another)\b"
)
_NEGATION_BEFORE = re.compile(
    r"\b(?:not|no|never|neither|nor|isn t|wasn t|aren t|weren t|don t|doesn t|didn t|hasn t|hadn t|won t|"
    r"cannot|can t|couldn t|wouldn t|nobody|none)\s+(?:\w+\s+){0,3}$"
)
_NEGATION_AFTER = re.compile(
    r"^\s*(?:is|was|are|were|has|had|does|did|do|can|could|would|will)(?:\s+not\b|\s+never\b|n\s+t\b)"
)
_ALTERNATIVES = re.compile(r"\b(?:or|either|and or|nor)\b")
_NOT_ALTERNATIVES = re.compile(r"\bor (?:so|thereabouts|something(?: like that)?)\b")
_ITEM_SPLIT = re.compile(r"[,;/&\n]|\band\b|\bas well as\b|\bplus\b")
_NON_CANDIDATE_START = frozenset(
    "the a an this that these those which who whom whose where when what in on at of for from with by to as is was "
    "are were has had have it its he she they his her their both each all who's which's born known also others other "
    "more etc many several some rest so".split()
)
_VERBS = frozenset(
    "is are was were be been being has have had does do did can could would will shall should may might must "
    "lived died married won wrote made became".split()
)
_STOP = frozenset(
    "the a an and or of in on at to for from by with is are was were be his her their its it he she they this that "
    "de la le von van der".split()
)


def normalize(text: str) -> str:
    """Lowercase, NFKC (NBSP -> space), strip punctuation and articles, squeeze spaces."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = _DOTTED.sub(lambda m: m.group().replace(".", ""), text)  # "u.s.a." is one word, not "u s" + article
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = _PUNCT.sub(" ", text)
    text = _ARTICLES.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def _multi_part(item: str) -> bool:
    """A gold target that lists several things: "X and Y", "X & Y", "X, Y, Z" (one comma is a qualifier)."""
    return bool(re.search(r"\band\b|&", item)) or item.count(",") >= 2


def gold_aliases(answers: str | Iterable[str] | None) -> list[str]:
    """Gold targets: a list, or a string split on ';' or '|'; "X (Y)" and "X, Y" also accept X
    (unless the target lists several things, "Malia, Sasha, and Susan", or is a date, "May 10, 2018").

    >>> gold_aliases("Paris, France"), gold_aliases("Malia Obama, Sasha Obama and Susan Obama")
    (['Paris, France', 'Paris'], ['Malia Obama, Sasha Obama and Susan Obama'])
    """
    if answers is None:
        return []
    items = re.split(r"[;|]", answers) if isinstance(answers, str) else [a for a in answers if isinstance(a, str)]
    out: list[str] = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        out.append(item)
        head, sep = (re.split(r"\s*([(,])", item, maxsplit=1) + [""])[:2]
        head = head.strip()
        if head and head != item and not re.fullmatch(r"[-+]?[\d.,]+", head.replace(" ", "")):
            if not (sep == "," and (_multi_part(item) or gold_date(item) is not None)):
                out.append(head)
    return list(dict.fromkeys(out))


# --------------------------------------------------------------------------- reading the answer


@dataclass
class _Candidate:
    text: str  # raw text of what the answer commits to
    guessed: bool  # a hedge or opener introduced it ("maybe Lyon", "my best guess is Lyon")


@dataclass
class _Reading:
    candidates: list[_Candidate] = field(default_factory=list)
    refused: bool = False  # a refusal phrase somewhere
    low: str = ""  # the whole answer, lowercased


def _prepare(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = text.translate({0x2018: "'", 0x2019: "'", 0x201C: '"', 0x201D: '"', 0x200B: None, 0x200D: None})
    return "".join(c for c in text if c.isprintable() or c in "\n\t")


def _lower(text: str) -> str:
    """Lowercase with the same length as ``text`` (positions carry over)."""
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _clauses(text: str, protect: list[str]) -> list[tuple[str, bool]]:
    """(clause, ends a sentence) pieces: cut at sentence ends, commas, dashes, brackets and "but"-like words,
    never inside a gold target ("But Not for Me", "Yahoo! Inc.")."""
    low = _lower(text)
    keep = _protected(low, protect)
    cuts: list[tuple[int, int, bool]] = []
    for match in re.finditer(r"[.!?;:]+(?=\s|$)|,(?=\s|$)|\s[-\u2013\u2014]+\s|\u2014|\u2013(?!\d)|[()\[\]\n]", low):
        if match.group() == ".":
            word = re.search(r"(\S+)$", low[: match.start()])
            token = word.group(1) if word else ""
            if (len(token) == 1 and token.isalpha()) or token in _ABBREVIATIONS or "." in token:
                continue  # initials and abbreviations: "J. K.", "Jr.", "U.S."
        cuts.append((match.start(), match.end(), match.group()[0] in ".!?;"))
    for match in _BREAK_WORDS.finditer(low):
        cuts.append((match.start(), match.end(), False))
    cuts.sort()
    out, start = [], 0
    for a, b, sentence in cuts:
        if a < start or _inside(keep, a):
            continue
        out.append((text[start:a], sentence))
        start = b
    out.append((text[start:], True))
    return [(piece.strip(), sentence) for piece, sentence in out if piece.strip()]


_EDGE_PUNCT = re.compile(r"[\s,.;:!\"']*")


def _skip(low: str, pos: int, keep: list[tuple[int, int]]) -> int:
    """Past punctuation and filler words from ``pos`` (not into a gold target)."""
    pos = _EDGE_PUNCT.match(low, pos).end()
    lead = _EDGE_FILLER.match(low, pos)
    if not lead or _inside(keep, lead.start()):
        return pos
    return _EDGE_PUNCT.match(low, lead.end()).end()


def _trim(text: str, protect: list[str]) -> str:
    """``text`` without punctuation and filler words at either end (not those of a gold target)."""
    text = text.strip(" \t\n,.;:!\"'")
    low = _lower(text)
    keep = _protected(low, protect)
    lead = _EDGE_FILLER.match(low)
    if lead and not _inside(keep, lead.start()):
        text, low = text[lead.end() :], low[lead.end() :]
        keep = _protected(low, protect)
    tail = _EDGE_FILLER_END.search(low)
    if tail and tail.start() > 0 and not any(a < tail.end() and tail.start() < b for a, b in keep):
        text = text[: tail.start()]
    return text.strip(" \t\n,.;:!\"'")


def _empty(text: str) -> bool:
    words = re.findall(r"[\w']+", _lower(text))
    return all(w in _ONLY_FILLER for w in words)


def _strip_hedges(text: str, protect: list[str]) -> tuple[str, bool, bool]:
    """(text without hedges, a hedge or opener led it, any hedge found); hedge words inside a gold target
    ("Maybe Baby") stay."""
    led = found = False
    low = _lower(text)
    keep = _protected(low, protect)
    pos = _skip(low, 0, keep)
    while True:  # openers and hedges at the start introduce the candidate
        match = _INTRO.match(low, pos) or _HEDGE.match(low, pos)
        if not match or not match.group().strip() or _inside(keep, match.start()):
            break
        led = found = True
        pos = _skip(low, match.end(), keep)
    text = _trim(text[pos:], protect)
    low = _lower(text)
    keep = _protected(low, protect)
    pieces, last = [], 0
    for match in _HEDGE.finditer(low):
        if _inside(keep, match.start()):
            continue
        pieces.append(text[last : match.start()])
        last = match.end()
        found = True
    pieces.append(text[last:])
    return _trim(" ".join(p.strip() for p in pieces if p.strip()), protect), led, found


def _protected(low: str, protect: list[str]) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for g in protect if g for m in re.finditer(rf"(?<!\w){re.escape(g)}(?!\w)", low)]


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    return any(a <= at < b for a, b in spans)


def _refusal(clause: str, protect: list[str]) -> tuple[str, str] | None:
    """(what the clause still commits to before, after the refusal) when it holds one outside any gold
    target ("I Don't Know How to Love Him" is a title), else None."""
    low = _lower(clause)
    stripped = low.strip(" .!?,")
    offset = low.find(stripped)
    keep = _protected(stripped, protect)
    match = next((m for m in _ABSTAIN.finditer(stripped) if not _inside(keep, m.start())), None)
    if not match:
        return None
    start, end = match.start() + offset, match.end() + offset
    prefix, rest = clause[:start], clause[end:]
    words = re.findall(r"[\w']+", _lower(prefix))
    capital = re.search(r"(?<!^)\b[A-Z]", prefix.strip())
    if all(w in _PREFIX_FILLER for w in words) or (words and words[0] in _PREPOSITIONS and not capital):
        prefix = ""
    rest_low = _lower(rest).strip(" ,")
    claim = _REFUSED_THEN_CLAIM.match(rest_low)
    if claim and _PARTICIPLE.match(claim.group("rest")):  # "... the date the treaty was signed": what is refused
        claim = None
    claim = claim or _REFUSED_IF.match(rest_low)
    if claim:
        rest = rest.strip(" ,")[claim.start("rest") :]
    elif not rest_low or _REFUSED_OBJECT.match(rest_low):
        rest = ""
    return prefix, rest


def _read(answer: str, protect: list[str] = ()) -> _Reading:
    """Split an answer into its committed candidates, setting refusals and hedges aside."""
    reading = _Reading(low=_lower(answer))
    current: list[str] = []
    current_guessed = False

    def close() -> None:
        nonlocal current, current_guessed
        if current:
            reading.candidates.append(_Candidate(", ".join(current), current_guessed))
        current, current_guessed = [], False

    protect = list(protect)
    queue = _clauses(answer, protect)  # a sentence end closes a candidate: "Paris. Lyon." holds two
    while queue:
        clause, sentence = queue.pop(0)
        refusal = _refusal(clause, protect)
        if refusal is not None:
            reading.refused = True
            close()
            prefix, rest = refusal
            queue[:0] = [(p, sentence) for p in (prefix, rest) if p.strip()]  # each is read again as a clause
            continue
        content, led, found = _strip_hedges(clause, protect)
        if content and (not _empty(content) or _protected(_lower(content), protect)):
            if led:
                close()
                current_guessed = True
            current.append(content)
        elif found:
            close()
        if sentence:
            close()
    close()
    return reading


def is_abstention(answer: str) -> bool:
    """True when the answer is a refusal and nothing else: a refusal phrase, hedges and filler only.
    "I don't know. My best guess is Lyon." is not one (it commits to Lyon)."""
    text = _prepare(answer or "")
    if len(text) > _MAX_CHARS:
        return False
    reading = _read(text)
    return reading.refused and not reading.candidates


# --------------------------------------------------------------------------- grading one candidate


def grade(answer: str, answers: str | Iterable[str] | None) -> Label:
    """CORRECT / INCORRECT / NOT_ATTEMPTED for ``answer`` against the gold ``answers``.

    >>> grade("10 May 2018", "May 10, 2018"), grade("I don't know", "Paris"), grade("Lyon", "Paris")
    (<Label.CORRECT: 'CORRECT'>, <Label.NOT_ATTEMPTED: 'NOT_ATTEMPTED'>, <Label.INCORRECT: 'INCORRECT'>)
    >>> grade("Lyon, but I'm not sure", "Paris"), grade("maybe 1992", "1992"), grade("early 1990s", "1992")
    (<Label.INCORRECT: 'INCORRECT'>, <Label.CORRECT: 'CORRECT'>, <Label.NOT_ATTEMPTED: 'NOT_ATTEMPTED'>)
    """
    text = _prepare(answer or "")
    pred = normalize(text)
    if not pred:
        return Label.NOT_ATTEMPTED
    golds = [(raw, norm) for raw in gold_aliases(answers) if (norm := normalize(raw))]
    if any(pred == g or same_answer(pred, g) for _, g in golds):
        return Label.CORRECT
    if len(text) > _MAX_CHARS:
        return Label.INCORRECT
    reading = _read(text, [g for _, g in golds] + [_lower(raw) for raw, _ in golds])
    if not reading.candidates:
        return Label.NOT_ATTEMPTED
    if not golds:
        return Label.INCORRECT
    results = [_best(_grade_candidate(c, raw, g, reading) for raw, g in golds) for c in reading.candidates]
    labels = [label for label, _ in results]
    if Label.CORRECT in labels:
        # Beside a correct candidate, only a competing answer spoils it: a contradiction, or another short
        # answer-like candidate ("Paris. Maybe Lyon."); a remark ("Paris. It is in France.") does not.
        if any(label is Label.INCORRECT and competing for label, competing in results):
            return Label.INCORRECT
        said = sum(len(normalize(c.text).split()) for c in reading.candidates)
        longest = max(len(g.split()) for _, g in golds)
        return Label.INCORRECT if said - longest > max(6, longest) else Label.CORRECT
    return Label.INCORRECT if Label.INCORRECT in labels else Label.NOT_ATTEMPTED


_ORDER = {Label.CORRECT: 0, Label.NOT_ATTEMPTED: 1, Label.INCORRECT: 2}


def _best(results: Iterable[tuple[Label, bool]]) -> tuple[Label, bool]:
    """Over gold aliases: any alias the candidate matches wins, then any it is consistent with."""
    return min(results, key=lambda r: (_ORDER[r[0]], r[1]))


def _grade_candidate(candidate: _Candidate, gold_raw: str, gold: str, reading: _Reading) -> tuple[Label, bool]:
    """(label, competing): competing is True for an INCORRECT that contradicts the gold or reads as
    another answer, False for a remark that merely fails to match."""
    seg = normalize(candidate.text)
    if not seg:
        return Label.NOT_ATTEMPTED, False
    if seg == gold or same_answer(seg, gold):
        return Label.CORRECT, False
    for verdict in (_date_verdict, _number_verdict, _text_verdict):
        label = verdict(candidate, seg, gold_raw, gold, reading)
        if label is not None:
            return label, True
    if _side_remark(candidate, seg, gold_raw, gold, reading):
        return Label.NOT_ATTEMPTED, False
    return Label.INCORRECT, _candidate_item(candidate.text)


def _date_verdict(candidate: _Candidate, seg: str, gold_raw: str, gold: str, reading: _Reading) -> Label | None:
    """Dates: every part the gold gives must be there and agree. A part that disagrees is INCORRECT
    (June for May, the 1980s for 1992); a date that agrees but stops short of the gold's precision is
    NOT_ATTEMPTED ("May 2018" or "2018" for 10 May 2018, "the early 1990s" for 1992); a finer date
    inside the gold is CORRECT (10 May 1992 for 1992). Several different dates are a list: INCORRECT."""
    want = gold_date(gold_raw)
    if want is None:
        return None
    century = want.years[0] // 100 if want.years and want.years[0] > 0 else 19
    spans = list(dict.fromkeys(date_spans(candidate.text, century)))
    if not spans:
        return None
    if len(spans) > 1:
        return Label.INCORRECT
    return _compare_dates(want, spans[0])


def _compare_dates(gold: DateSpan, pred: DateSpan) -> Label:
    precise = True
    for g, p in ((gold.years, pred.years), (gold.months, pred.months)):
        if g is None:
            continue
        if p is None:
            precise = False
        elif p[1] < g[0] or p[0] > g[1]:
            return Label.INCORRECT
        elif not (g[0] <= p[0] and p[1] <= g[1]):
            precise = False
    if gold.day is not None:
        if pred.day is None:
            precise = False
        elif pred.day != gold.day:
            return Label.INCORRECT
    return Label.CORRECT if precise else Label.NOT_ATTEMPTED


def _number_verdict(candidate: _Candidate, seg: str, gold_raw: str, gold: str, reading: _Reading) -> Label | None:
    """Numbers: right to the gold's last significant figure (see ``answer_forms.gold_quantity``): a
    value in [gold - step/2, gold + step/2) is CORRECT, the upper end left out (so for 120k, step 10k:
    115k and 124,999 are CORRECT, 125k is INCORRECT, like 113k and 126k). An approximate value ("about
    100k", "around a hundred thousand") coarser than the gold's step that the gold falls within is too
    vague: NOT_ATTEMPTED; so is a bound or range that holds the gold ("over 100k", "hundreds of
    thousands"); one that excludes the gold is INCORRECT. Several different numbers are a list."""
    want = gold_quantity(gold_raw)
    if want is None:
        return None
    found = quantities(candidate.text)
    if gold_date(gold_raw) is not None:  # a year gold: only a number that could be that year ("1,000" for 1000)
        found = [q for q in found if q.kind == "exact" and q.low >= 1000]
    if not found:
        return None
    distinct = {(q.low, q.high, q.kind) for q in found}
    if len(distinct) > 1:
        return Label.INCORRECT
    return _compare_quantity(want[0], want[1], found[0])


def _compare_quantity(value: float, step: float, q: Quantity) -> Label:
    eps = step * 1e-9
    lo, hi = value - step / 2, value + step / 2

    def within(x: float) -> bool:
        return lo - eps <= x < hi - eps

    if q.kind == "exact":
        return Label.CORRECT if within(q.low) else Label.INCORRECT
    if q.kind == "approx":
        if q.step <= step * (1 + 1e-9):
            return Label.CORRECT if within(q.low) else Label.INCORRECT
        vague_lo, vague_hi = q.low - q.step / 2, q.low + q.step / 2
        return Label.NOT_ATTEMPTED if vague_lo - eps <= value < vague_hi - eps else Label.INCORRECT
    inside = q.low < value < q.high if q.kind in ("above", "below") else q.low - eps <= value <= q.high + eps
    if not inside:
        return Label.INCORRECT
    if q.kind == "range" and within(q.low) and within(q.high):
        return Label.CORRECT
    return Label.NOT_ATTEMPTED


def _contains(haystack: str, needle: str) -> int:
    """Where ``needle`` starts as whole words in ``haystack``, or -1."""
    if not needle:
        return -1
    match = re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", haystack)
    return match.start() if match else -1


def _text_verdict(candidate: _Candidate, seg: str, gold_raw: str, gold: str, reading: _Reading) -> Label | None:
    """Text: the candidate holds the gold (or the gold without its titles) as whole words, with no
    negation on it, no alternative beside it ("or", a list of names), and not buried in a long answer.
    A multi-part gold needs every part (given names suffice when the parts share a family name)."""
    for variant in dict.fromkeys((gold, without_titles(gold))):
        at = _contains(seg, variant)
        if at < 0:
            continue
        before, after = seg[:at], seg[at + len(variant) :]
        if _NEGATION_BEFORE.search(before + " ") or _NEGATION_AFTER.match(after):
            return Label.INCORRECT
        if _alternatives(seg.replace(variant, " ")) or _is_list(candidate.text, gold_raw, variant):
            return Label.INCORRECT
        if len(seg.split()) - len(variant.split()) > max(6, len(variant.split())):
            return Label.INCORRECT
        return Label.CORRECT
    return _parts_verdict(candidate, seg, gold_raw, reading)


def _alternatives(text: str) -> bool:
    return bool(_ALTERNATIVES.search(_NOT_ALTERNATIVES.sub(" ", text)))


def _candidate_item(item: str) -> bool:
    """A short item that reads as another answer ("Lyon", "Joe Biden"), not a description ("the capital")."""
    words = normalize(item).split()
    raw_words = re.findall(r"[\w']+", _lower(item))
    return 1 <= len(words) <= 3 and bool(raw_words) and raw_words[0] not in _NON_CANDIDATE_START


def _is_list(answer: str, gold_raw: str, gold: str) -> bool:
    """True for "Lyon, Nice, Paris", "Paris and Lyon", "Lyon, Paris": the gold among other short
    candidates. "Paris, France" (the gold first, one qualifier, no "and") stays one answer."""
    items = [i for i in _ITEM_SPLIT.split(answer) if normalize(i)]
    gold_items = [i for i in _ITEM_SPLIT.split(gold_raw) if normalize(i)]
    if len(items) <= max(1, len(gold_items)):
        return False
    others = [i for i in items if _contains(normalize(i), gold) < 0 and not _empty(i)]
    if not any(_candidate_item(i) for i in others):
        return False
    joined_by_and = bool(re.search(r"\band\b|&|\bas well as\b|\bplus\b", _lower(answer)))
    gold_first = _contains(normalize(items[0]), gold) >= 0
    return len(items) >= 3 or joined_by_and or not gold_first


def _gold_parts(gold_raw: str) -> list[str]:
    if not _multi_part(gold_raw):
        return []
    parts = [normalize(p) for p in re.split(r",|&|\band\b", gold_raw)]
    parts = [p for p in parts if p]
    return parts if len(parts) >= 2 else []


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


def _parts_verdict(candidate: _Candidate, seg: str, gold_raw: str, reading: _Reading) -> Label | None:
    """A multi-part gold ("Malia Obama and Sasha Obama"): every part named and no other candidate is
    CORRECT; alternatives or an extra name are INCORRECT; some parts named, with the answer saying
    outright that it leaves the rest open ("one of them is Malia, not sure about the other") is
    NOT_ATTEMPTED, otherwise a part passed off as the whole is INCORRECT. None if no part is named."""
    parts = _gold_parts(gold_raw)
    if not parts:
        return None
    forms = _part_forms(parts)
    named = [any(_contains(seg, f) >= 0 for f in options) for options in forms]
    if not any(named):
        return None
    if _alternatives(seg):
        return Label.INCORRECT
    all_forms = [f for options in forms for f in options]
    items = [i for i in _ITEM_SPLIT.split(candidate.text) if normalize(i)]
    extra = [i for i in items if not any(_contains(normalize(i), f) >= 0 for f in all_forms) and not _empty(i)]
    if any(_candidate_item(i) for i in extra):
        return Label.INCORRECT
    if all(named):
        longest = max(len(o.split()) for o in all_forms)
        return Label.INCORRECT if len(seg.split()) > 2 * len(gold_raw.split()) + 6 + longest else Label.CORRECT
    return Label.NOT_ATTEMPTED if _INCOMPLETE.search(reading.low) else Label.INCORRECT


def _side_remark(candidate: _Candidate, seg: str, gold_raw: str, gold: str, reading: _Reading) -> bool:
    """A refusal's side remark that commits to no candidate: "I cannot answer without research;
    however Obama has two children" for the Obama daughters. It must follow a refusal, not be put
    forward as a guess, be a statement (a verb) about the gold's subject (a word of the gold), name
    no one new (no capitalised word outside the gold), negate nothing, list nothing, and any count it
    gives must match the number of parts of the gold ("three children" contradicts a two-part gold)."""
    if not reading.refused or candidate.guessed:
        return False
    words = seg.split()
    gold_words = set(gold.split())
    content_gold = {w for w in gold_words if w not in _STOP and len(w) > 2}
    if len(words) < 3 or not any(w in _VERBS for w in words) or not content_gold.intersection(words):
        return False
    if _NEGATION_BEFORE.search(seg + " ") or re.search(r"\b(?:not|never|no)\b|n t\b", seg) or _alternatives(seg):
        return False
    if re.search(r"\band\b|&|,", _lower(candidate.text)):
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
