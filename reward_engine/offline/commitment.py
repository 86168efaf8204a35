"""Whether an answer that says "I don't know" still commits to an answer: read without the gold.

SimpleQA grades a refusal with an aside ("Without researching the web, I cannot answer this question. However, I
can tell you that Barack Obama has two children.") NOT_ATTEMPTED, and a refusal with a guess ("I don't know. My best
guess is Lyon.", "Not sure. Lyon.") on the guess. ``commits`` tells them apart and ``offers`` says whether any answer
is offered at all. Both are decided without the gold, so a right and a wrong answer in the same words settle alike:
reading a refusal's aside as no answer can never pay a right guess where it would not pay a wrong one. The offline
grader and the grade guard (``stages.grade_guard``) both read refusals here.
"""

from __future__ import annotations

import re

from reward_engine.offline import answer_forms, questions, reading, topic, turns
from reward_engine.offline.memo import short_memo
from reward_engine.offline.text_form import is_statement
from reward_engine.offline.words import one_e_form

MAX_BARE_WORDS = 4  # "Lyon", "Rio de Janeiro", "Marie Curie": an answer form, not a remark


@short_memo(8192, reading.MAX_CHARS, lambda answer, question=None: len(answer or "") + len(question or ""))
def commits(answer: str, question: str | None = None) -> bool:
    """Whether ``answer`` commits to an answer that overrules a judge which found none in it: SimpleQA calls a
    refusal with an aside ("Without researching the web, I cannot answer this question. However, I can tell
    you that Barack Obama has two children.") NOT_ATTEMPTED, and a refusal with a guess ("I don't know. My best
    guess is Lyon.", "Not sure. Lyon.") is graded on the guess. So after a refusal phrase only what ``offers``
    an answer commits; an answer without a refusal phrase commits to whatever it says."""
    return _commits_after_refusal(answer, question, plainly=False)


@short_memo(8192, reading.MAX_CHARS, lambda answer, question=None: len(answer or "") + len(question or ""))
def offers(answer: str, question: str | None = None) -> bool:
    """Whether ``answer`` offers an answer to ``question``, whatever the gold: without a refusal, an answer
    form (a few words without a verb, in any case: "lyon", "the tibia") or anything naming a name or number the
    question does not ("The artist was Théodore Géricault."; not "It takes a very high temperature."); after a
    refusal only what ``commits`` (an answer form, a guess naming one thing, or a statement about what was
    asked: never an aside). Names are found by their capitals, so a lower-case statement offers none: an
    abstention whether right or wrong, which pays no more than saying "I don't know"."""
    text = reading.prepare(answer or "")
    read = reading.read(text)
    if read.refused and reading.has_refusal(text):
        return _offered(read, question)
    return any(_answer_form(c.text, question) or _new_names(c.text, question) for c in read.candidates)


@short_memo(8192, reading.MAX_CHARS, lambda answer, question=None: len(answer or "") + len(question or ""))
def says_its_guess(answer: str, question: str | None = None) -> bool:
    """Whether, after its refusal, ``answer`` gives its guess in a form no reader can take for an aside: an answer
    form ("Not sure. Lyon.", "No idea. France, maybe?"), a guess marked as one that names one thing ("My best guess
    is Lyon.", "maybe Michelangelo"), or the question answered in a sentence that says all its words ("I don't
    know. Lyon is the capital of France."). Another statement ("I don't know. Mozart wrote Figaro.") is not: asides
    are statements, and whether one answers the question is a reading the rules get wrong (issue #43: the asides
    the guard made INCORRECT in sets 14 and 15 were such statements). True for an answer without a refusal phrase."""
    return _commits_after_refusal(answer, question, plainly=True)


def _commits_after_refusal(answer: str, question: str | None, plainly: bool) -> bool:
    """True without a refusal phrase; after one, whether ``_offered`` finds an answer (``plainly``: said as a guess)."""
    text = reading.prepare(answer or "")
    if not reading.has_refusal(text):
        return True
    read = reading.read(text)
    return not read.refused or _offered(read, question, plainly)


def _restates(statement: str, question: str | None) -> bool:
    """The statement says every word of the question ("Lyon is the capital of France" for "What is the capital of
    France?"): the question answered in a sentence, not an aside about something near it."""
    asked = _stems(topic.content_words(question or ""))
    return bool(asked) and asked <= _stems(topic.content_words(statement))


def _offered(read: reading.Reading, question: str | None, plainly: bool = False) -> bool:
    """After a refusal: an answer form, or what ``_answers`` (a passive such as "published in 1851" is read
    there: its verb decides), unless a later refusal disowns it; ``plainly``: only a statement marked as a guess
    or one that ``_restates`` the question."""
    return any(
        not _ruled_out(c.text)
        and (
            _answer_form(c.text, question)
            and not passive(c.text, read.low)
            and not _another_part(c.text, question, read.low)
        )
        or _offers_options(c.text, question)  # "Either Joshua Redman or Don Redman - I'm not sure which." (pass 36)
        or (
            (not plainly or c.guessed or _restates(c.text, question))
            and _answers(c, question, read.low)
            and not _disowned(i, c, read, question)
        )
        for i, c in enumerate(read.candidates)
    )


def _ruled_out(text: str) -> bool:
    """A candidate that only rules one out ("Not Henry Mancini.", "though it wasn't Henry Mancini"): after a refusal
    it commits to nothing (hostile pass 47: truthrl-strict paid -1 for "I don't know, though it wasn't ...")."""
    return bool(reading.RULED_OUT.match(text.strip()) or reading.RULED_OUT_SAID.match(text.strip()))


_WH = re.compile(r"(?i)\b(?:who|whom|whose|what|which|when|where|how)\b")
_NAME_OF = re.compile(r"\bnames? of (?:the |this |that |its |his |her )?(\w+)|\b(?:a|the|his|her|its|their) names?$")
_ANOTHER = re.compile(r"\b(?:else|other|others|another)\b")  # "who else painted it": not what was asked


def _disowned(index: int, candidate: reading.Candidate, read: reading.Reading, question: str | None) -> bool:
    """Whether a later refusal of the very thing asked disowns this unguessed statement: "Television has a long
    history ... I'm not sure who gave that demonstration in London" or "... I don't remember the name of the
    scientist who proposed it" is background the speaker says is not the answer (SimpleQA: NOT_ATTEMPTED). A
    bare hedge ("Lyon is the capital, but I'm not sure"), a refusal of something else ("... who else painted
    it", "the name of the museum"), a refusal sharing a word with the statement (the same claim, hedged: "The
    wall fell in 1991. I don't remember when exactly it fell") or a guess ("I think it was Camus") is not."""
    wh = _WH.search(question or "")
    if candidate.guessed or wh is None:
        return False
    asked = topic.content_words(question or "")
    said = topic.content_words(candidate.text)
    for before, what in read.refusals:
        if before <= index or _ANOTHER.search(what):
            continue
        name = _NAME_OF.search(what)
        asks = (
            what.startswith(wh.group(0).casefold() + " ")
            or _names_the_wh_noun(what, question or "", wh)
            or (name is not None and (name.group(1) is None or topic.content_words(name.group(1)) <= asked))
        )
        words = topic.content_words(what)
        if asks and (words & asked or name is not None) and not words & said:
            return True
    return False


# the work or place a question's subject is in, closing it: "... of Amber in Sofia the First?"
_SETTING = re.compile(r"\b(?:in|on|from)\s+(?:the\s+)?(?P<title>[A-Z][\w'-]*(?:\s+(?:the|of|and|a|[A-Z][\w'-]*))*)\W*$")


def _setting(question: str) -> frozenset[str]:
    """The words of the work or place the question's subject is in ("Sofia the First"): naming only those, a
    refusal is about the work, not what was asked of it.

    >>> sorted(_setting("Who does the voice of Amber in Sofia the First?")), _setting("Who wrote Hamlet?")
    (['sofia'], frozenset())
    """
    found = _SETTING.search(question)
    return topic.content_words(found["title"]) if found else frozenset()


def _names_the_wh_noun(what: str, question: str, wh: re.Match[str]) -> bool:
    """Whether a refusal's object is the noun the question asks for: "the pen name he used" for "Under what pen
    name did ...?", "the year" for "In which year ...?"."""
    asked = question[wh.end() :].casefold().split()
    refused = what.split()
    if refused[:1] in (["the"], ["his"], ["her"], ["its"], ["their"]):
        refused = refused[1:]
    return bool(asked and refused) and asked[0] == refused[0] and bool(topic.content_words(asked[0]))


# One name or number ("Leonardo da Vinci", "Bay of Pigs", "522,250", "Émile Zola")
_CAP = "A-ZÀ-ÖØ-Þ"
_NAME_RUN = re.compile(
    rf"\b(?:\d[\d,.]*\d|\d|[{_CAP}][\w'’.-]*)"
    rf"(?:\s+(?:(?:of|de|da|du|di|von|van|la|le|del|der)\s+)*(?:\d[\d,.]*\d|\d|[{_CAP}][\w'’.-]*))*"
)
# names or numbers offered as options ("either X or Y", "maybe X or Y"): SimpleQA grades a hedge between candidates
# on its candidates (INCORRECT), whatever refusal stands beside it, not as an abstention
_OPTIONS = re.compile(
    rf"\W*(?i:(?:i think |i guess |i believe )?(?:it'?s |it is |it was )?(?:maybe |perhaps |possibly |probably )?)"
    rf"(?i:either\s+)?{_NAME_RUN.pattern}\s*,?\s+or\s+(?i:maybe |perhaps |possibly )?{_NAME_RUN.pattern}"
    r"(?=\s*(?:[.,;:!?\u2013\u2014-]|$))"  # the options end the clause: not "... if Paris or Lyon is bigger"
)


# "I'm torn between Lola Kirke and Hannah Dunne": two options weighed (hostile pass 51: a refusal tail after them,
# ", so I won't guess", hid both)
_TORN = re.compile(
    rf"\W*(?i:i'?m\s+|i\s+am\s+)?(?i:torn|undecided|choosing|deciding)\s+(?i:between)\s+"
    rf"{_NAME_RUN.pattern}\s*,?\s+(?i:and|or)\s+{_NAME_RUN.pattern}"
)


def _offers_options(text: str, question: str | None) -> bool:
    """Names offered as options, not the question's own options said back ("I don't know -- Los Angeles or Miami."
    to "... in Los Angeles or Miami?": the review of pass 36)."""
    found = _OPTIONS.match(text) or _TORN.match(text)
    if not found:
        return False
    named = [n for n in _NAME_RUN.findall(found[0]) if n.casefold() not in ("either", "maybe", "perhaps", "i", "i'm")]
    said_back = bool(questions.offered(question)) and all(
        re.search(rf"(?i)\b{re.escape(n)}\b", question or "") for n in named
    )
    return not said_back


_RELATIVE = re.compile(r",\s*(?:who|which|where|whose|when)\b")
# a second passive in another role: "developed by Starbreeze Studios and directed by Josef Fares" (hostile pass 31)
_SECOND_ROLE = re.compile(
    r",?\s+and\s+(?=(?:[a-z]+ly\s+)?[a-z]+(?:ed|en|wn)\s+by\b)|,\s*with\s+(?=[A-Z][\w'-]*\s+[a-z]+ing\b)"
)
_BY = re.compile(r"\b(?P<verb>[a-z]+(?:ed|en|wn)|made|built)\s+by\b")
_MADE = re.compile(r"(?i)\b(?:made|make|makes|created?|behind|responsible|produced?)\b")
_PASSIVE = re.compile(  # lower case only: "Sweden probably" or "Copenhagen I think" is a name, not a participle
    r"(?:[a-z]+ly |often |also |still |even |first |once |later )?(?P<verb>[a-z]+(?:ed|en|wn)|built|born|made|held|"
    r"sold|told|found|won|set|kept|left|lost|sent|spent|led|put|cut|run|begun|sung|drawn)\s+"
    # a preposition after it ("published in", "dedicated to"), not a noun ("controlled amounts"); "by": the agent
    r"(?=(?:in|at|on|to|for|from|with|alongside|after|as|during|near|into|inside|outside|off|under|over|across|"
    r"around|through|throughout|since|until|upon|among|between|within|about)\b)"
)


def _stems(stems: set[str]) -> set[str]:
    """Words cut to five letters, so "painter" meets "painted" and "dedicated" meets "dedication"; a closing "e"
    dropped, so "voice" meets "voices" (stemmed "voic": hostile pass 39).

    >>> sorted(_stems({"voice", "voic", "painter", "painted"}))
    ['paint', 'voic']
    """
    return {w[:5] for w in one_e_form(stems)}


def passive(text: str, said: str) -> re.Match[str] | None:
    """``text`` opens with a participle that the whole answer ``said`` (lower case) gives an auxiliary ("it was
    published in ...", "it's often mentioned alongside ..."): a passive, not "red with white stripes"."""
    found = _PASSIVE.match(text)
    if found is None:
        return None
    verb = re.escape(found.group("verb"))
    auxiliary = rf"(?:\b(?:was|were|is|are|been|being|be)|'s)\s+(?:\w+\s+)?{verb}\b"
    return found if re.search(auxiliary, said) else None


def _passive_aside(statement: str, question: str, said: str) -> bool:
    """ "[It is] often mentioned alongside Beethoven's Ninth", "[It was] dedicated to Queen Elizabeth I" or
    "[It was] published in 1851" for who wrote it: a passive saying something of it that the question does not
    ask, not a guess naming it. Its agent ("written by Orwell"), a place when a place is asked ("located in
    Lyon" for where) or the question's own verb ("named after" for "named after whom?", "born in 1756" for when
    someone was born) still name the answer; a time after another verb ("built in 1961" for when the wall
    fell) does not."""
    found = passive(statement, said)
    if found is None:
        return False
    if questions.ASKS_PLACE.search(question) and _PLACE_AFTER.match(statement, found.end("verb")):
        return False
    return not _stems(topic.content_words(found.group("verb"))) & _stems(topic.content_words(question))


_PLACE_AFTER = re.compile(r"\s+(?:in|at|on|near|from|inside|outside|off)\s+(?!\d)")  # not "in 1793"


# after a refusal, what the speaker knows instead ("I do know", "although I know", "what I can tell you is that")
_KNOWN = re.compile(
    r"(?i)(?:what )?i (?:do |also |still |certainly |only )?(?:know|can tell you|can say)(?: is)?(?: that)?\b\s*"
)
_SAID = re.compile(r"(?i)(?:it|that|the answer)(?:['’]s| is| was| would be)\s+")  # "I know it was Cook"
# what "I know it was ..." says that is no answer: a negation ("not Lyon"), a passive ("first published by ...")
_NOT_NAMING = re.compile(
    r"(?i)(?:not\b|n['’]t\b|(?:[a-z]+ly |first |once |later |also |originally )?[a-z]+(?:ed|en|wn)\b)"
)
# "I know [the botanist] Joseph Banks sailed ...", "... a lack of vitamin C causes scurvy": the word after a name,
# the statement's verb when it is not a copula ("... the capital of France is Paris" states what was asked)
_NAME_DOES = re.compile(rf"(?:[{_CAP}][\w'’.-]*\s+)+(?P<verb>[a-z]+)\b")
_COPULAS = frozenset("is was are were has had have be been being of and or in on at to from by for with".split())


def _known_instead(statement: str, question: str) -> bool:
    """After a refusal, whether what the speaker says they know answers: "I know it was Cook" (an answer form
    after "it was") and "I know that France won" (a name doing what was asked) do; "I know it's not Lyon", "I know
    it was first published by Knopf", "I do know the botanist Joseph Banks sailed on that voyage" and "I do know that
    a lack of vitamin C causes scurvy" (a name doing something the question does not ask) are asides (SimpleQA:
    NOT_ATTEMPTED)."""
    said = _SAID.match(statement)
    if said:
        tail = statement[said.end() :]
        return not _NOT_NAMING.match(tail) and _answer_form(tail.rstrip(" .!"), question)
    does = _NAME_DOES.search(statement)
    verb = does.group("verb") if does else ""
    if verb and verb not in _COPULAS and not _stems({verb}) & _stems(topic.content_words(question)):
        return False
    return _answers(reading.Candidate(statement, False), question)


_INDEFINITE = re.compile(r"(?i)^(?:a|an|some|another|somewhere|someone|something|one of)\b")


def asked_term(text: str, question: str | None) -> bool:
    """ "a sett" for "What is a badger's burrow called?": a word asked for, said with its article (not "a kind of
    hammer", a description)."""
    return bool(question and questions.ASKS_TERM.search(question)) and len(text.split()) <= 2


_NAMING_CUE = r"\b(?:named|called|known as|titled)"
_NAMES_IT = re.compile(rf"{_NAMING_CUE}\b|[,:(]\s*(?-i:[A-Z])")  # "a composer, Vivaldi"
_CUE_NAME = re.compile(rf"{_NAMING_CUE}\s+")
_SELF_DOUBT = re.compile(  # "I can't place it", "I'm not sure about the year", "we never learnt who"
    r"(?i)^(?:i|we)\s*(?:['’]m|['’]d|['’]ll|am|do|did|does|can|ca|could|would|wo|will)?\s*(?:not|n['’]t|cannot|never)"
    r"\s+(?:\w+\s+)?(?:place|say|recall|remember|know|knew|learn\w*|tell|confirm|pin|name|think of|find|be sure"
    r"|be certain|sure|certain)\b"
)
_FIRST_PERSON = re.compile(r"I(?:['’](?:m|d|ve|ll))?")  # "I'm drawing a blank": the speaker, not a name
_PERSONAL = re.compile(r"(?i)^(?:i|me|my|we|you|your)\b|^i['’]")  # talk to the reader ("you its composer")


def _owns_the_asked(text: str, run: str, question: str) -> bool:
    """``run`` is followed by "'s" and a word of the question ("Lin Beifong's father")."""
    base = re.sub(r"['\u2019]s$", "", run)
    found = re.search(rf"{re.escape(base)}['\u2019]s\s+([a-z]+)", text)
    return bool(found) and found[1] in question.lower().split()


def _new_names(text: str, question: str | None) -> list[str]:
    """The names and numbers in ``text`` the question does not hold, one entry per run of them. A capitalised word
    the question says in lower case ("Otters are ..." for an otter's den) names nothing new when it is all there
    is; beside another name it still counts (a second subject: "Radio grew out of work by Maxwell" is an aside)."""
    asked = topic.names(question or "") | _RESIDUE
    runs = [r for r in _NAME_RUN.findall(text) if not _FIRST_PERSON.fullmatch(r) and topic.names(r) - asked]
    # "Lin Beifong's father" for "Who is Lin's father?": the question's own person under a fuller name (pass 33)
    runs = [r for r in runs if not (topic.names(r) & asked and _owns_the_asked(text, r, question or ""))]
    said = _stems(topic.content_words(question or ""))

    def restates(run: str) -> bool:
        return bool(re.fullmatch(r"[^\W\d_][\w'’-]*", run)) and _stems(topic.content_words(run) or {"-"}) <= said

    restated = runs and is_statement(text) and all(restates(r) for r in runs)
    return [] if restated else runs


def _answers(candidate: reading.Candidate, question: str | None, said: str = "") -> bool:
    """After a refusal: a guess naming one thing ("I believe the artist was Delacroix"), or a statement about
    what was asked (it shares a word of the question other than its names) naming something new, with one of
    the question's names or else one new name only (a second is another subject: an aside)."""
    if not question:
        return False
    known = _KNOWN.match(candidate.text)
    if known:
        return _known_instead(candidate.text[known.end() :], question)
    # "Hubble went up in 1990, [but] I can't place Webb's launch reliably": the speaker's talk about what they
    # cannot say names the question's words without stating anything about them
    statement = ", ".join(c for c in candidate.text.split(", ") if not _SELF_DOUBT.match(c))
    if _INDEFINITE.match(statement) and not _NAMES_IT.search(statement) and not asked_term(statement, question):
        return False  # "[it's] a set of Baroque concertos": describes, names no answer (SimpleQA: vague at most)
    if questions.ASKS_FIGURE.search(question) and not answer_forms.quantities(statement):
        return False  # "[it's] very tall, taller than the buildings of Paris" for how tall: no figure offered
    if answer_forms.counts_something_else(statement, question):
        return False  # "The women's race is run over 100 metres" for how many hurdles: another measure
    if _another_part(statement, question, said):
        return False  # "[I don't know who voices Amber.] Ariel Winter voices Sofia." (hostile pass 39)
    new = _new_names(_RELATIVE.split(_first_role(statement, question))[0], question)  # "maybe Delacroix, who ..."
    cue = _CUE_NAME.search(statement)
    if candidate.guessed and cue and _INDEFINITE.match(statement):  # "perhaps a British officer named Baden-Powell"
        new = _new_names(statement[cue.end() :], question) or new
    agent = _BY.search(statement) if questions.ASKS_WHO.search(question) else None  # not "which song"
    if (
        candidate.guessed
        and len(new) > 1
        and agent
        and re.search(r"\b(?:is|was|are|were)\s+", statement[: agent.start()])
    ):
        # "I believe Snowbell is voiced by Nathan Lane": the agent is the guess, the subject what it is said of
        new = _new_names(_RELATIVE.split(_first_role(statement[agent.end() :], question))[0], question) or new
    numbers_only = new and all(re.fullmatch(r"[\d,.]+", n) for n in new)
    if numbers_only and not candidate.guessed and questions.ASKS_ONE_THING.match(question):
        if not (questions.ASKS_AMOUNT.search(question) or questions.ASKS_TIME.search(question)):  # AMOUNT: measures too
            return False  # "... The brain has 86 billion neurons" for which structure: a number answers no "which"
    aside = _passive_aside(statement, question, said or candidate.text.lower())
    guessed = (candidate.guessed or _modal_guess(statement, question)) and not aside
    amount = not aside and questions.ASKS_AMOUNT.search(question) and re.fullmatch(r"[\d,.]+", new[0]) if new else False
    if len(new) == 1 and (guessed or amount):
        return True  # "There are 8." for "How many planets ...?" (not "the 1889 World's Fair", "built in 1961")
    if questions.ASKS_MEASURE.search(question) and _bare_figure(statement):
        return True  # "[maybe] two", "about 300 metres": a figure in words or digits
    asked = topic.names(question)
    predicate = bool(_stems(topic.content_words(statement) - asked) & _stems(topic.content_words(question) - asked))
    return predicate and bool(new) and (bool(topic.names(statement) & asked) or len(new) == 1)


# who takes a part: "Ariel Winter voices Sofia", "Ben Stiller played Larry"
_TAKES_PART = re.compile(r"\b(?:plays|played|voices|voiced|portrays|portrayed)\s+(?P<part>[A-Z][\w'-]*)")


def _another_part(statement: str, question: str, whole: str = "") -> bool:
    """The statement gives someone a part the question does not ask about: one it names only as the work's title
    ("Sofia" of "Sofia the First" for who voices Amber) or not at all; an aside about a co-star.

    >>> q = "Who does the voice of Amber in Sofia the First?"
    >>> _another_part("Ariel Winter voices Sofia", q), _another_part("Ariel Winter voices Amber", q)
    (True, False)
    >>> _another_part("Darcy Rose Byrnes voices her", q)
    False
    """
    found = _TAKES_PART.search(statement)
    if found is None or not re.search(r"(?i)\b(?:play|voice|portray)", question):
        return False
    if re.search(r"[A-Z][\w-]*['\u2019]s\s+[a-z]+\b(?!\s+[A-Z])", question):
        return False  # "Simba's father": the part asked is described, so any name may be it (review 39)
    asked = topic.names(question) - _setting(question)
    if topic.names(statement[found.end() :]) - _setting(question):
        return False  # "Ariel Winter voices Sofia, Darcy Rose Byrnes", "... and also voices Amber": more named after it
    # "..., so probably she voices Amber too": a guess at the asked part in a clause of its own (reviews 39 and 41)
    clauses = re.split(r"[.;!?]", whole or statement)
    if any(_GUESSED_TOO.search(c) and topic.content_words(c) & asked and not reading.has_refusal(c) for c in clauses):
        return False
    return bool(asked) and not topic.content_words(found["part"]) & asked


_GUESSED_TOO = re.compile(r"(?i)\b(?:also|too|as well|probably|maybe|perhaps|might|may|could|possibly|likely)\b")


# a guess said inside the statement, its name right after: "Preeta might be played by Sriti Jha", "it could have been
# Lyon" (hostile pass 30: read as part of the refusal before it); not "it may have been filmed in Mexico"
_MODAL_GUESS = re.compile(
    r"\b(?:might|may|could)\s+(?:well\s+)?(?:be|have\s+been)\s+"
    r"(?:(?:played|voiced|portrayed|written|directed|sung|composed|painted|founded|invented)\s+by\s+)?(?:the\s+)?[A-Z]"
)


def _first_role(statement: str, question: str) -> str:
    """The statement up to a second passive in another role, where the first names someone new in the role asked
    ("it was developed by Starbreeze Studios[ and directed by Josef Fares]" for who made it); else the whole of
    it: "the film was produced by X and directed by Y" for who composed the score is an aside, and "recorded by
    Garth Brooks and written by Tony Arata" names no one new first (the review of pass 31).

    >>> _first_role("it was developed by Starbreeze and directed by Josef Fares", "Who made Brothers?")
    'it was developed by Starbreeze'
    >>> _first_role("it was produced by Kathleen Kennedy and directed by Steven Spielberg", "Who composed it?")
    'it was produced by Kathleen Kennedy and directed by Steven Spielberg'
    """
    cut = _SECOND_ROLE.search(statement)
    if cut is None:
        return statement
    first = statement[: cut.start()]
    by = _BY.search(first)
    if by is None or not _new_names(first, question):
        return statement
    role = turns.role_of(by["verb"])
    if _MADE.search(question) or (role is not None and role in turns.question_roles(question)):
        return first
    return statement


def _modal_guess(statement: str, question: str) -> bool:
    """A guess said inside the statement (``_MODAL_GUESS``) whose subject is the answer ("it", "she") or the
    question's own name ("Preeta might be played by ..."), naming someone, not describing something: not "The show
    might be Kumkum Bhagya's spin-off" (the review of pass 30).

    >>> q = "What is the real name of Preeta from Kundali Bhagya?"
    >>> _modal_guess("Preeta might be played by Sriti Jha", q), _modal_guess("The show might be Kumkum's spin-off", q)
    (True, False)
    """
    found = _MODAL_GUESS.search(statement)
    if found is None:
        return False
    subject = statement[: found.start()].strip(" ,")
    named = set(re.findall(r"[A-Z][\w'-]*", subject))
    asked = set(re.findall(r"[A-Z][\w'-]*", question))
    if not (subject.lower() in _GUESS_SUBJECTS or (named and named <= asked and subject.istitle())):
        return False
    return not re.match(r"[\w'-]*(?:\s+[A-Z][\w'-]*)*['\u2019]s\b", statement[found.end() - 1 :])


_GUESS_SUBJECTS = frozenset(["it", "he", "she", "they", "that", "this", "the answer", "the actress", "the actor"])


def _bare_figure(statement: str) -> bool:
    """A figure and little else: "two", "about 300 metres"; not "Jupiter has 95" or "died 1791" (another
    subject, a year)."""
    figures = answer_forms.quantities(statement)
    return (
        len(statement.split()) <= 4
        and len(figures) == 1
        and not re.search(r"[A-Z]", statement)
        and not (figures[0].low == int(figures[0].low) and 1000 <= figures[0].low <= 2099)
    )


def _answer_form(text: str, question: str | None) -> bool:
    """A few words without a verb holding a word the question does not ("lyon", "the tibia", "1815"); not the
    rest of a refusal ("that date", "that one", "[tell] you its composer", "I'll leave it there")."""
    if len(text.split()) > MAX_BARE_WORDS or is_statement(text):
        return False
    named = bool(_new_names(text, question))
    if _INDEFINITE.match(text) and not _NAMES_IT.search(text) and not asked_term(text, question):
        return False  # "a different book", "a Baroque piece": a description (the fits question grades those)
    if _PERSONAL.match(text) and not named:
        return False  # "you", "[tell] you its composer": no answer
    if named or topic.content_words(text) - topic.content_words(question or "") - _RESIDUE:
        return True
    # one of a choice question's options, picked: "I don't know -- Los Angeles or Miami? I'd lean Miami." (review 37)
    picked = text.strip(" .!?").casefold()
    if re.search(r"\bor\b", picked):
        return False  # the options said back, not one picked
    said = (question or "").casefold()  # "Los Angeles", where ``offered`` reads the option as wide as the last one
    return any(
        picked == o.casefold() or (picked.endswith(o.casefold()) and picked in said)
        for o in questions.offered(question)
    )


# what a refusal leaves behind when the reading cuts it ("I don't remember that date", "Good question!")
_RESIDUE = frozenset(
    topic.content_words(
        "date year name answer question figure number detail fact one thing person place that this there "
        "good great sorry thanks escapes idea clue certain sure offhand memory information data details record"
    )
)
