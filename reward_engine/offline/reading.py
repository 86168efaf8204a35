"""Reading an answer before grading it: what it commits to, and what it only hedges or refuses.

How: the answer is cut into clauses; refusals ("I don't know", "I'm not sure who won ...")
and hedges ("maybe", "I think", "my best guess is", "I'd have to double check") are set
aside, and what is left is the answer's committed content, in one or more *candidates* (a
new candidate starts after a refusal or hedge, or where a hedge introduces one: "Paris,
maybe Lyon" holds two). ``grader`` grades each candidate; only an answer with no candidate left
is NOT_ATTEMPTED, so hedging never turns a wrong answer into a non-answer.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Iterator

from reward_engine.offline.memo import short_memo
from reward_engine.offline.words import nfkc

MAX_CHARS = 4_000  # past this an answer is not a short answer: INCORRECT unless it is the gold itself


# Refusals: a clause holding one of these says "I cannot give the answer". A refusal and whatever
# it refuses ("I don't know who won the 1921 prize", "I'm not sure about the other") are set aside.
_I = r"\bi(?: |(?='))"  # "i " or "i" before a contraction ("i'm", "i'd")
# refusals whose subject is the thing refused ("the author's name won't come to me", "it escapes me")
_WONT_COME = r"(?:won't|will not|doesn't|does not|didn't|did not|can't|cannot) come to"
_ESCAPES = r"(?:escapes|escaped|eludes|eluded)"
_SLIPPED = r"(?:slipped|slips|has slipped|has escaped)"
_TO_MIND = r"(?:comes?|came|springs?|sprang|leaps?) to mind\b"  # a refusal after "nothing", a guess after a name
ABSTENTIONS = (
    _I + r"(?:do not|don't|dont|did not|didn't) (?:really |actually |honestly |exactly |definitively )?know\b",
    r"\bnot (?:entirely |completely |totally |quite |absolutely |really |too |that |very |fully |100% |"
    r"(?:a |one )?hundred (?:percent|per cent) |100 ?(?:percent|per cent) )?(?:sure|certain|positive|confident)\b",
    r"\b(?:unsure|uncertain)\b",
    r"\bno (?:idea|clue)\b",
    # "I'll pass on this one.", "Skipping this one." (hostile pass 56: INCORRECT, -3 under threshold t 0.75)
    _I + r"(?:'ll|will|'d|would|must|'m going to|am going to|have to|'ll have to|will have to) "
    r"(?:pass|skip|sit (?:this|that) one out)(?: (?:on )?(?:this|that|it)(?: one| question)?)?(?=\s*(?:[.!;,]|$))",
    r"\b(?:skipping|passing on|pass on|skip) (?:this|that) (?:one|question)\b",
    r"\b(?:cannot|can not|can't|cant|could not|couldn't) be (?:determined|known|answered|said|confirmed|verified)\b",
    r"\bunknown to me\b",
    _I + r"(?:cannot|can not|can't|cant|could not|couldn't|am unable to|'m unable to|am not able to|'m not able to|"
    r"was unable to|do not|don't|did not|didn't) (?:answer|say|determine|tell|know|find|recall|remember|confirm|"
    r"verify|provide|identify|pinpoint|be sure|be certain|give|name)\b(?: you\b)?",  # "give you the range"
    # "I can't think of what it's called" (not "I can't think of anyone other than Curie": that names one)
    _I + r"(?:cannot|can not|can't|cant|could not|couldn't) think of(?= what| its name| the (?:name|word|term))",
    r"\b(?:insufficient|not enough|lack of|need more|needs more|would need more|require more|requires more|"
    r"without more|without further|without additional|without sufficient|no further) "
    r"(?:information|data|context|details|research|specifics|clarification)\b",
    _I + r"(?:need|would need|'d need|require) (?:more |additional |further )?(?:context|information|details|"
    r"clarification|research)\b",
    r"\bunable to (?:answer|determine|say|confirm|verify|find|identify)\b",
    _I + r"(?:have no|lack|lack the|have no reliable) (?:information|knowledge|data|details)\b",
    r"\bno (?:reliable |verifiable |specific |definitive |clear |available )?(?:information|data|records?|details|"
    r"answer) (?:is |are |was |were )?(?:available|found|exists?|known)\b",
    r"\b(?:information|data|details|records?|the answer) (?:is |are |was |were )?(?:not available|unavailable|"
    r"lacking|not known|unknown)\b",
    _I + r"(?:do not|don't|did not|didn't) have (?:that|this|the|enough|any|sufficient|reliable|specific|"
    r"the relevant) (?:information|data|knowledge|details)\b",
    _I + r"(?:do not|don't) have access\b",
    r"\b(?:it is|it's|that is|that's|this is) (?:unclear|not clear|unknown|"
    r"impossible to (?:say|tell|know|determine))\b",
    r"\b(?:hard|difficult|impossible) to (?:say|tell|know|determine)\b",
    _I + r"(?:would|'d) (?:only )?be guessing\b",
    r"\bno way (?:of|to) (?:know|knowing|tell|telling)\b",
    r"\b(?:i am|i'm|im) not (?:aware|familiar)\b",
    r"\b(?:beyond|outside) (?:of )?(?:my|the scope of my) knowledge\b",
    # "That's outside what I can recall", "That one's beyond me": a pronoun as the subject of what is out of reach
    r"\b(?:it|that|this|that one|this one)(?:'s| is| was) (?:well |just |a bit |rather |simply |way |quite )?"
    r"(?:(?:beyond|outside) (?:of )?what i (?:can |could |am able to )?(?:reliably |confidently |accurately )?"
    r"(?:recall|remember|know|say|answer|tell)|"
    r"beyond me)\b",
    _I + r"(?:would|'d) (?:need|have) to (?:research|look (?:it |this |that )?up|search)\b",
    # "I can't help with that one" (held-out set 19's refusal, paid INCORRECT): not "I can't help but think ..."
    _I + r"(?:cannot|can not|can't|cant|could not|couldn't) help(?: you)? with (?:that|this)(?: one| question)?\b",
    _I + r"(?:would|'d|will|need to|have to) (?:need to |have to )?"
    r"(?:check|consult|look (?:it |this |that )?up in)"
    r" (?:a|an|the|some|my) (?:[\w-]+ )?(?:reference|source|book|encyclopedia|atlas|almanac|records?)\b",
    r"\b(?:i (?:do not|don't) (?:want|wish) to|i(?: |(?='))(?:won't|will not|would rather not|'d rather not)|"
    r"rather not) "
    r"(?:guess|speculate|answer|say|name)\b",
    r"\b(?:idk|dunno)\b",
    r"\bnot something (?:that )?i (?:(?:can|could) (?:answer|say|tell|confirm|name|recall|remember)|know|knew|"
    r"remember|recall|(?:am|'m) sure (?:of|about))\b",
    # the answer will not come: "the name won't come to me", "it escapes me", "I'm drawing a blank"
    r"\b" + _WONT_COME + r" (?:me|mind)\b",
    r"\b(?:nothing|none|nobody|no one|no-one|no (?:name|answer|[\w'’-]+ name)) (?:really |immediately |at all )?"
    + _TO_MIND,  # not "Bizet comes to mind": a guess (``_HEDGE``)
    r"\b" + _ESCAPES + r" me\b",
    r"\b" + _SLIPPED + r" my (?:mind|memory)\b",
    r"\b(?:drawing|draw|drew|drawn) (?:a|a complete|a total) blank\b",
    r"\b(?:i'm|i am|i'm a bit|i am a bit) (?:stumped|blanking|at a loss)\b",
    r"\bbeats me\b",
    r"\b(?:haven't|have not|don't have|do not have|not) (?:got )?(?:a|the (?:faintest|slightest|foggiest)) "
    r"(?:idea|clue)\b",
    r"\bno (?:recollection|memory) of\b",
    _I + r"(?:forget|forgot|have forgotten|'ve forgotten)\b",
    r"\brefrain from (?:guessing|speculating|answering|naming)\b",
    r"\b(?:nobody|no one|no-one) (?:really |truly )?knows\b",
)
# Refusals only where they stand at a clause's edges: a whole clause ("Unknown.", "Pass."), or a clause opening
# without its "I" ("Can't say.", "Cannot recall, sorry"; not "scientists couldn't tell whether ...", which is an
# answer's statement). Each as (words, whole clause).
_CLAUSE_ABSTENTIONS = (
    (r"(?:unknown|unclear|not known|n/?a|no answer|not available|pass|no comment|who knows)(?: to me)?", True),
    (
        r"(?:cannot|can not|can't|cant|could not|couldn't) (?:say|tell|recall|remember|answer|confirm|name|be sure"
        r"|be certain)",
        False,
    ),
)


_ABSTAIN = re.compile(
    "|".join((*ABSTENTIONS, *("^" + w + ("$" if whole else r"\b") for w, whole in _CLAUSE_ABSTENTIONS)))
)
# the refusals above whose subject is what is refused, and such a subject: a determiner and up to four words
_SUBJECT_REFUSED = re.compile("|".join((_WONT_COME, _ESCAPES, _SLIPPED)))
_REFUSED_SUBJECT = re.compile(r"(?:the|his|her|its|their|that|this|whose|which)(?: [a-z][\w'-]*){1,4}")
# ``_ABSTAIN`` without its clause-edge anchors: where it finds nothing, no clause holds a refusal
_ABSTAIN_ANYWHERE = re.compile("|".join((*ABSTENTIONS, *(rf"\b{w}\b" for w, _ in _CLAUSE_ABSTENTIONS))))


# Hedges: they qualify an answer without taking it back. One that opens a clause introduces a candidate.
_HEDGE = re.compile(
    r"\b(?:i think|i believe|i guess|i suppose|i suspect|i reckon|i assume|i imagine|i feel|i recall|i remember|"
    r"i would guess|i'd guess|i would say|i'd say|i want to say|i'd go with|i would go with|i'll go with|"
    r"i'm guessing|i am guessing|let's say|i'd lean|i would lean|i lean)\b"
    r"(?: (?:towards?|to))?(?: that\b)?"
    r"|\b(?:i am|i'm|im) (?:fairly |pretty |quite |almost |reasonably |somewhat |mostly |kind of |sort of )?"
    r"(?:sure|certain|confident|positive)\b(?: that\b)?"
    r"|\bmy (?:best |first |only |honest |educated |wild )?(?:guess|bet|estimate|recollection|understanding|belief|"
    r"instinct|hunch)(?: would be| is| was|:)?(?: that\b)?"
    r"|\bif i (?:had|have) to (?:guess|bet|say|pick|choose|name (?:one|someone|something))\b"
    # "my money's on Paul Young", "I'd bet on X": a guess, committed (hostile pass 56 read it as an abstention)
    r"|\bmy money(?:'s| is| would be| would go)? on\b|\bi(?:'d| would| will|'ll)? (?:bet|put my money) on\b"
    r"|\b" + _TO_MIND + r"|\bif (?:i (?:remember|recall)|memory serves)(?: me)?(?: correctly| rightly| right)?\b"
    r"|\b(?:as far as|from what) i (?:know|remember|recall|can tell|understand)\b"
    r"|\bto the best of my (?:knowledge|recollection|memory)\b"
    r"|\boff the top of my head\b"
    r"|\b(?:most|many|some)(?: (?:people|sources|historians|experts|accounts))? (?:would |might |will |may )?"
    r"(?:say|think|believe|suggest|claim|agree)\b(?: that\b)?"
    r"|\bi (?:could|might|may) be (?:wrong|mistaken|misremembering)\b"
    r"|\b(?:if|unless) i'm (?:not )?mistaken\b"
    r"|\b(?:don't|do not) quote me(?: on (?:that|this|it))?\b"
    r"|\b(?:i )?(?:would |'d |will |might )?(?:have|need|want) to (?:double[- ]?check|check|verify|confirm)"
    r"(?: (?:that|this|it))?\b"
    r"|\bmost likely\b|\bmore likely than not\b|\bat a guess\b|\bor something(?: like that)?\b"
    r"|\b(?:maybe|perhaps|possibly|probably|likely|presumably|supposedly|apparently|conceivably|potentially|"
    r"plausibly|allegedly|reportedly|definitely|certainly|surely|obviously|clearly|undoubtedly|unquestionably)\b"
    r"|\b(?:no|without(?: a| any)?) (?:doubt|question)(?: about it)?\b|\bfor (?:sure|certain)\b"
    r"|\b(?:it|this|that) (?:seems|appears|looks)(?: like| to be| that)?\b"
    r"|\b(?:seems?|sounds?|looks?|feels?)(?: about)? (?:right|correct|likely|plausible|familiar)\b"
    r"|\b(?:is|would be|was) (?:my|the) (?:best )?(?:guess|bet)\b"
    r"|\b(?:is|would be|was) what i(?:'d| would|'ll| will)? (?:go with|guess|pick|choose)\b"
    r"|\b(?:is|was) (?:all|the only (?:one|name|thing)) i can think of\b"
    r"|\?"
)


# Openers that introduce the answer itself ("it's Lyon", "the answer might be Lyon"), set aside at a clause start.
_INTRO = re.compile(
    r"(?:(?:the |my )?(?:correct |right |final |likely )?answer (?:is|was|would be|might be|could be|may be|"
    r"should be|:)|(?:it|that|this)(?:'s| is| was)|(?:it|that|this|the answer) (?:might|may|could|must|would|should|"
    r"will) (?:well )?(?:be|have been)|(?:could|might|may) be|(?:could|might|may|would|can) it (?:be|have been)|"
    r"(?:is|was) it)\b\s*"
)


_FILLER = (
    "and but so also then well anyway though however yet still hmm um uh ok okay sure honestly frankly sorry "
    "unfortunately actually again just really oh ah alright now regardless nonetheless nevertheless personally "
    "truly simply"
)


# "Just" before a name particle is a given name, not a filler: "Just van Rossum" is Guido's brother (hostile pass 5)
_NAME_PARTICLE_AFTER = r"(?!\s+(?:van|von|de|der|den|ter|ten)\s+\w)"
_FILLERS = "|".join(w for w in _FILLER.split() if w != "just")
_EDGE_FILLER = re.compile(rf"(?:(?:{_FILLERS}|just\b{_NAME_PARTICLE_AFTER}|hm+|u+m+|u+h+)\b[\s,]*)+")


_EDGE_FILLER_END = re.compile(rf"(?:[\s,]*\b(?:{'|'.join(_FILLER.split())}|either|too|though))+$")


_PREFIX_FILLER = frozenset(
    (
        _FILLER + " it there is are was i am i'm im i'd i've it's there's that's afraid to be honest that this as of "
        "now currently the moment sadly genuinely regret apologize apologise admit have must say being quite very i'll "
        "rather me an a ai assistant language model"
    ).split()
)


# A clause of only these commits to nothing ("I'm sorry", "As an AI", "Answer:").
_ONLY_FILLER = _PREFIX_FILLER | {"either", "too", "on", "answer", "final", "my", "guess"}


_PREPOSITIONS = frozenset("without before from based given as at with in for after until unless".split())


# After a refusal phrase, these open what is refused ("... who won", "... the answer", "... about the other").
_REFUSED_OBJECT = re.compile(
    r"^(?:who|what|when|where|which|why|how|whose|whom|about|of|on|regarding|concerning|to|for|than|the|a|an|their|his|"
    r"her|its|my|your|our|this|that|these|those|it|them|him|any|anything|enough|exactly|offhand|right|now|at|in|"
    r"from|without|because|since|as|with|off|much|more|all|yet|here|there|precisely|personally|at all|either|reliably|"
    r"confidently|accurately|definitively|for sure|for certain)\b"
)


# "'s" is "is" only after a pronoun ("it's Lyon"); after a noun it is a possessive ("the author's name").
_REFUSED_THEN_CLAIM = re.compile(
    r"^(?:(?:that|if|whether) )?(?:(?:it|that|this|he|she)'s|(?:the|this|that|it|he|she|they|his|her|their|its)\b"
    r"(?: [\w']+){0,6}?(?: is| was| are| were| would be| might be| could be| may be| will be))\s+(?P<rest>\S.*)$"
)


_PARTICIPLE = re.compile(
    r"^(?:\w+ed|born|built|written|made|held|won|given|taken|known|seen|done|sung|drawn|begun|run|found|"
    r"shown|sold|told|thought|brought|bought|set|put|cut|led|left|lost|kept|spent|sent|chosen|known)\b"
)


# "... that Lyon is right", "... if that is correct": only the subject is offered; the predicate doubts it
_TRUTH_OF = re.compile(
    r"^(?:(?:that|if|whether) )?(?P<subject>\S.*?) (?:is|was|are|were|would be|might be|could be|may be) "
    r"(?:right|correct|true|accurate|exact|the (?:right |correct )?answer|the one|the case)[.!?]*$"
)
# a subject that names nothing: the refusal doubts an answer given elsewhere, or none
_NO_SUBJECT = re.compile(
    r"(?:that|this|it|these|those|they|the answer|my answer|my guess|my memory|my recollection|the (?:figure|date|"
    r"name|number|year|detail|details|information))"
)


# "... that X is Y" holds a claim; "... that with confidence" / "... that offhand" is only what is refused
_REFUSED_IF = re.compile(
    r"^(?:if|whether|that)\s+(?!(?:with|without|for|offhand|exactly|precisely|now|right|here|confidently|reliably|"
    r"at all|yet|information|answer|one|name|date|detail|details|fact|figure|number|question|data|record|year|"
    r"person|title|part)\b)(?P<rest>\S.*)$"
)


# A clause that only rules something out ("not Venus", "never Lyon"), not a bound ("not more than 5") or a
# time ("not until 1990"): what follows it is another candidate ("Not Venus, but Mars": Mars alone).
# one ruled out in a clause: "though it wasn't Henry Mancini" (hostile pass 47: read as a guess after "I don't know")
RULED_OUT_SAID = re.compile(
    r"(?i)^(?:(?:though|although|but|yet)\s+)?(?:it|that|this|he|she)\s+(?:was|is)(?:n['\u2019]t|\s+not)\s+"
    r"(?!(?:more|less|fewer|until|before|after|only|just|quite|exactly|even|yet|sure|certain|much|many|far|long|so|"
    r"too|very|at|over|under|above|below|around|about|nearly|the\s+only)\b)[^,;]*$"
)
RULED_OUT = re.compile(
    r"(?i)^(?:not|never)\s+(?!(?:more|less|fewer|until|before|after|only|just|quite|exactly|even|yet|sure|certain|"
    r"much|many|far|long|so|too|very|at|over|under|above|below|around|about|nearly)\b)\D*$"
)


# A clause that only states a condition ("without researching the web", "before checking a source") commits
# to nothing; a capitalised word in it ("without Paris") keeps it.
_CONDITION = re.compile(
    r"^(?:without|before|unless|until|short of)\s+(?:\w+ing|access|more|further|additional|a|an|the)\b[^A-Z]*$"
)


_BREAK_WORDS = re.compile(
    r"\b(?:but|however|although|though|whereas|nevertheless|nonetheless|otherwise)\b"
    r"|\band\s+(?=(?:maybe|perhaps|possibly|probably|likely|most likely)\b)"
)


_BOTH_FIT = r"(?:possible|plausible|likely|candidates|options|correct|right)\b"
_ALTERNATIVES = re.compile(
    r"\b(?:or|either|and or|nor|if not|unless it ?(?:s|is|was))\b"  # "Lyon, if not Paris"
    # "Paris and Lyon are both possible" (hostile pass 5): two answers offered as one
    rf"|\bboth (?:are |is |seem |look |could be |might be )?{_BOTH_FIT}|\b(?:are|were|seem) both {_BOTH_FIT}"
    r"|\bone of (?:the two|these two|those two|both)\b"
)
_NOT_ALTERNATIVES = re.compile(
    r"\bor (?:so|thereabouts|something(?: like that)?)\b|\bgive or take\b|\bplus or minus\b|\beither way\b"
)


def names_alternatives(text: str) -> bool:
    """ "Lyon or Paris", "either ... or": a list of guesses (normalised text; "or so" is not one)."""
    return bool(_ALTERNATIVES.search(_NOT_ALTERNATIVES.sub(" ", text)))


# a possessive name and a plain noun of a word or three: "Sosa's assassin", "John Cusack's sister", "Frank's neighbour"
POSSESSIVE_DESCRIPTION = r"(?:[A-Z][\w-]*\s+)?[A-Z][\w-]*['\u2019]s\s+(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*"

# a section's label after the answer: "\n\n**Explanation:** ...", "Reason: ...": its words are read, not the label
SECTION_WORDS = (
    r"[ \t]*(?:\*\*|__)?(?:explanation|reason(?:ing)?|justification|rationale|notes?|details|context|sources?|evidence|"
    r"why|background)(?:\*\*|__)?\s*:(?:\*\*|__)?[ \t]*"
)
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr st mt jr sr prof gen col lt capt sgt rev fr no vs etc approx ca c inc ltd co corp dept univ ft "
    "op vol ed eds fig".split()
)
_MONTH_ABBREVIATIONS = frozenset("jan feb mar apr jun jul aug sep sept oct nov dec".split())


@dataclass
class Candidate:
    text: str  # raw text of what the answer commits to
    guessed: bool  # a hedge or opener introduced it ("maybe Lyon", "my best guess is Lyon")
    after_ruled_out: bool = False  # it follows a clause that rules one out ("Not Venus, but Mars, Jupiter")


@dataclass
class Reading:
    candidates: list[Candidate] = field(default_factory=list)
    refused: bool = False  # a refusal phrase somewhere
    # each refusal as (how many candidates came before it, what it refuses: "who gave that demonstration", or "")
    refusals: list[tuple[int, str]] = field(default_factory=list)
    low: str = ""  # the whole answer, lowercased
    asked: frozenset[str] = frozenset()  # the question's words (normalised), when the grader has it
    question: str = ""  # the question as asked (its precision: "to two decimal places")
    heads: frozenset[str] = frozenset()  # the gold names' head words ("college" of Boston College), when graded


# Markup around an answer, read as it renders: struck-through text is taken back ("~~Paris~~ Lyon", "<s>Paris</s>
# Lyon" answer Lyon), comments and tags are no text ('<span title="Paris">Lyon</span>' answers Lyon, not Paris):
# issue #74's hostile pass (H2) found each paid as the gold beside another name.
_STRUCK = re.compile(r"~~.*?~~|<(s|del|strike)\b[^<>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_COMBINING_STRUCK = re.compile(r"(?:\S[\u0335\u0336\u0337\u0338]+)+")
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
# markup: an HTML element's tag, or any tag with attributes ('<x-note lang="en">'); "<but really Lyon>" is words
_HTML = (
    "a abbr b big blockquote br caption cite code dd del div dl dt em font h1 h2 h3 h4 h5 h6 hr i img ins kbd li "
    "mark ol p pre q s samp small span strike strong sub sup table tbody td th thead tr tt u ul var wbr"
)
_TAG = re.compile(
    rf"</?(?:(?:{'|'.join(_HTML.split())})(?![\w:-])[^<>]*"
    r"|[A-Za-z][\w:-]*(?:\s+[\w:-]+\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'|[^\s<>]+))+\s*)/?>"
    r"|</[A-Za-z][\w:-]*\s*>",  # any element's closing tag
    re.IGNORECASE,
)

_ASIDE = re.compile(r"<([^<>]*)>")
CITATION = re.compile(r"\[\d{1,3}(?:[,\u2013-]\s*\d{1,3})*\]")
# "| Country | Capital |\n|---|---|": a header row and the rule under it
_TABLE_HEAD = re.compile(
    r"(?m)^[^\S\n]*\|?[^\n]*\|[^\n]*\n[^\S\n]*\|?[^\S\n]*:?-{3,}:?[^\S\n]*(?:\|[^\S\n]*:?-{3,}:?[^\S\n]*)*\|?[^\S\n]*(?:\n|$)"
)
APOSTROPHE_THOUSANDS = re.compile(r"(?<=\d)['\u2019](?=\d{3}(?!\d))")
_LATEX = re.compile(r"\\(?:boxed|text|textbf|textit|mathrm|mathbf|emph)\s*\{([^{}]*)\}")


def prepare(text: str) -> str:
    """The answer as the grader reads it: NFKC, curly quotes straight, invisible characters and markup dropped
    (struck-through text with its words: it is taken back).

    >>> prepare("~~Paris~~ Lyon").strip(), prepare('<span title="Paris">Lyon</span>').strip()
    ('Lyon', 'Lyon')
    >>> prepare("Paris <but really Lyon>")
    'Paris (but really Lyon)'

    """
    if "&" in text:
        text = html.unescape(text)  # "Paris&nbsp;", "&#80;aris": entities as the page would show them (pass 15)
    text = _COMBINING_STRUCK.sub(" ", nfkc(text))  # "P̶a̶r̶i̶s̶": struck through letter by letter (hostile pass 7)
    if "~~" in text or "<" in text:
        text = _TAG.sub(" ", _COMMENT.sub(" ", _STRUCK.sub(" ", text)))
        text = _ASIDE.sub(r"(\1)", text)  # "Paris <but really Lyon>": words in angle brackets, an aside
    if "[" in text or "\\" in text:  # "8,849 m [1]", "\\boxed{Paris}": a citation mark, LaTeX (hostile pass 10)
        text = CITATION.sub(" ", text)
        while (unwrapped := _LATEX.sub(r"\1", text)) != text:  # "\boxed{\text{Paris}}": nested (hostile pass 15)
            text = unwrapped
    if "|" in text:
        text = _TABLE_HEAD.sub("", text)  # a markdown table's header row and rule are labels, not answers (pass 15)
    text = APOSTROPHE_THOUSANDS.sub("", text)  # "8'849 m": Swiss thousands separator (hostile pass 15)
    text = text.translate({0x2018: "'", 0x2019: "'", 0x201C: '"', 0x201D: '"', 0x200B: None, 0x200D: None})
    return "".join(c for c in text if c.isprintable() or c in "\n\t")


def lower(text: str) -> str:
    """Lowercase with the same length as ``text`` (positions carry over).

    >>> lower("İSTANBUL, ΟΔΟΣ")  # İ lowercases to two characters: kept; Σ is σ wherever it stands
    'İstanbul, οδοσ'
    """
    low = text.lower()
    # str.lower is the per-character answer unless a character grew (İ) or a capital sigma took its
    # word-final form (the only context rule CPython applies): the character loop is ~30x slower.
    if len(low) == len(text) and "\u03a3" not in text:
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _clauses(text: str, protect: list[str]) -> list[tuple[str, bool]]:
    """(clause, ends a sentence) pieces: cut at sentence ends, commas, dashes, brackets and "but"-like words,
    never inside a gold target ("But Not for Me", "Yahoo! Inc.")."""
    low = lower(text)
    keep = _protected(low, protect)
    cuts: list[tuple[int, int, bool]] = []
    for match in re.finditer(r"[.!?;:]+(?=\s|$)|,(?=\s|$)|\s[-\u2013\u2014]+\s|\u2014|\u2013(?!\d)|[()\[\]\n]", low):
        if match.group() == ".":
            word = re.search(r"(\S+)$", low[: match.start()])
            token = word.group(1) if word else ""
            if (len(token) == 1 and token.isalpha()) or token in _ABBREVIATIONS or "." in token:
                continue  # initials and abbreviations: "J. K.", "Jr.", "U.S."
            if token in _MONTH_ABBREVIATIONS and re.match(r"\s*\d", low[match.end() :]):
                continue  # "Nov. 14, 2014": a month, not a sentence's end (hostile pass 39)
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
    low = lower(text)
    keep = _protected(low, protect)
    lead = _EDGE_FILLER.match(low)
    if lead and not _inside(keep, lead.start()):
        text, low = text[lead.end() :], low[lead.end() :]
        keep = _protected(low, protect)
    tail = _EDGE_FILLER_END.search(low)
    if tail and tail.start() > 0 and not any(a < tail.end() and tail.start() < b for a, b in keep):
        text = text[: tail.start()]
    return text.strip(" \t\n,.;:!\"'")


def empty(text: str) -> bool:
    words = re.findall(r"[\w']+", lower(text))
    return all(w in _ONLY_FILLER for w in words)


def _strip_hedges(text: str, protect: list[str]) -> tuple[str, bool, bool]:
    """(text without hedges, a hedge or opener led it, any hedge found); hedge words inside a gold target
    ("Maybe Baby") stay."""
    led = found = False
    low = lower(text)
    keep = _protected(low, protect)
    pos = _skip(low, 0, keep)
    while True:  # openers and hedges at the start introduce the candidate
        match = _INTRO.match(low, pos) or _HEDGE.match(low, pos)
        if not match or not match.group().strip() or _inside(keep, match.start()):
            break
        led = found = True
        pos = _skip(low, match.end(), keep)
    text = _trim(text[pos:], protect)
    low = lower(text)
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
    return [(at, at + len(g)) for g in protect if g for at in word_starts(low, g)]


def word_starts(haystack: str, needle: str) -> Iterator[int]:
    """Where ``needle`` occurs as whole words in ``haystack``, left to right, not overlapping: the matches of
    ``(?<!\\w)needle(?!\\w)``, found with ``str.find`` (compiling that regex for every new gold cost a cold
    step ~10 ms)."""
    if not needle:
        return
    at, size = haystack.find(needle), len(needle)
    while at >= 0:
        end = at + size
        if (at == 0 or not _word_char(haystack[at - 1])) and (end == len(haystack) or not _word_char(haystack[end])):
            yield at
            at = haystack.find(needle, end)
        else:
            at = haystack.find(needle, at + 1)


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"  # what a str pattern's \\w matches


def find_word(haystack: str, needle: str) -> int:
    """Where ``needle`` starts as whole words in ``haystack`` ("K" is not in "an alkali metal"), or -1."""
    return next(word_starts(haystack, needle), -1)


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    return any(a <= at < b for a, b in spans)


def _refusal(clause: str, protect: list[str]) -> tuple[str, str, str] | None:
    """(what the clause still commits to before, after the refusal, what the refusal refuses) when it holds one
    outside any gold target ("I Don't Know How to Love Him" is a title), else None."""
    low = lower(clause)
    stripped = low.strip(" .!?,")
    offset = low.find(stripped)
    keep = _protected(stripped, protect)
    match = next((m for m in _ABSTAIN.finditer(stripped) if not _inside(keep, m.start())), None)
    if not match:
        return None
    start, end = match.start() + offset, match.end() + offset
    prefix, rest = clause[:start], clause[end:]
    words = re.findall(r"[\w']+", lower(prefix))
    capital = re.search(r"(?<!^)\b[A-Z]", prefix.strip())
    if all(w in _PREFIX_FILLER for w in words) or (words and words[0] in _PREPOSITIONS and not capital):
        prefix = ""
    elif _SUBJECT_REFUSED.match(stripped, match.start()) and _REFUSED_SUBJECT.fullmatch(lower(prefix).strip(" ,")):
        prefix = ""  # "the author's name won't come to me": the prefix is what is refused, not a claim
    rest_low = lower(rest).strip(" ,")
    truth = _TRUTH_OF.match(rest_low)
    if truth and _NO_SUBJECT.fullmatch(truth.group("subject")):
        return prefix, "", rest_low
    if truth:
        return prefix, rest.strip(" ,")[truth.start("subject") : truth.end("subject")], ""
    claim = _REFUSED_THEN_CLAIM.match(rest_low)
    if claim and _PARTICIPLE.match(claim.group("rest")):  # "... the date the treaty was signed": what is refused
        claim = None
    claim = claim or _REFUSED_IF.match(rest_low)
    refused = ""
    if claim:
        rest = rest.strip(" ,")[claim.start("rest") :]
    elif not rest_low or _REFUSED_OBJECT.match(rest_low):
        rest, refused = "", rest_low
    return prefix, rest, refused


def has_refusal(text: str) -> bool:
    """Whether a refusal phrase occurs anywhere in ``text`` (``read`` finds none where this is False)."""
    return _ABSTAIN_ANYWHERE.search(lower(text)) is not None


def read(answer: str, protect: list[str] = ()) -> Reading:
    """Split an answer into its committed candidates, setting refusals and hedges aside."""
    reading = Reading(low=lower(answer))
    current: list[str] = []
    current_guessed = current_after = False

    def close() -> None:
        nonlocal current, current_guessed, current_after
        if current:
            reading.candidates.append(Candidate(", ".join(current), current_guessed, current_after))
        current, current_guessed, current_after = [], False, False

    protect = list(protect)
    queue = _clauses(answer, protect)  # a sentence end closes a candidate: "Paris. Lyon." holds two
    while queue:
        clause, sentence = queue.pop(0)
        refusal = _refusal(clause, protect)
        if refusal is not None:
            reading.refused = True
            close()
            prefix, rest, refused = refusal
            reading.refusals.append((len(reading.candidates), refused))
            queue[:0] = [(p, sentence) for p in (prefix, rest) if p.strip()]  # each is read again as a clause
            continue
        if _CONDITION.match(clause[:1].lower() + clause[1:]) and not _protected(lower(clause), protect):
            continue
        content, led, found = _strip_hedges(clause, protect)
        if content and (not empty(content) or _protected(lower(content), protect)):
            last = current[-1] if current else (reading.candidates[-1].text if reading.candidates else "")
            follows = RULED_OUT.match(last.strip()) is not None
            if led or (follows and current):
                close()
            current_guessed = current_guessed or led
            current_after = current_after or (follows and not current)
            current.append(content)
        elif found:
            close()
        if sentence:
            close()
    close()
    return reading


@short_memo(8192, MAX_CHARS, lambda answer: len(answer or ""))
def is_abstention(answer: str) -> bool:
    """True when the answer is a refusal and nothing else: a refusal phrase, hedges and filler only.
    "I don't know. My best guess is Lyon." is not one (it commits to Lyon)."""
    text = prepare(answer or "")
    if len(text) > MAX_CHARS:
        return False
    reading = read(text)
    return reading.refused and not reading.candidates
