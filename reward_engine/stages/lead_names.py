"""Other names of a gold answer, read from the first sentence of its page in the knowledge base.

A small judge grades a true alias INCORRECT when it does not know it: Peking for Beijing, Samuel Langhorne
Clemens for Mark Twain, Ceylon for Sri Lanka (the local 1.5B: 40 of the 79 alias cases of held-out sets 1-8).
An encyclopaedia's first sentence names its subject's other names before its verb ("Beijing, previously
romanized as Peking, is ...", "Samuel Langhorne Clemens (...), known by the pen name Mark Twain, was ...",
"Tungsten, or wolfram, is ..."). The names read are the sentence's head and what a cue ("also known as",
"formerly", "born", "or", a language label) introduces, or an initialism of the head ("(UN)"); not a date, a
pronunciation, a description ("a city in ..."), an uncued name ("(UK)", "London, England"), nor anything when
the words before the verb do not end in such a list ("Constantinople, the capital ..., fell to ...").
The rules misread some sentences: over 150 pages a reviewer read by eye, 4.7 % of the names read were not
names of the subject before the rules were tightened; ``is_alias`` therefore also asks the whole answer to
commit to one name only.
"""

from __future__ import annotations

import collections
import logging
import re
import threading
from typing import Callable

from retrieval.source import KnowledgeSource
from reward_engine.offline import answer_forms, reading
from reward_engine.offline import grader as offline_grader

log = logging.getLogger(__name__)

MAX_SUBJECT_CHARS = 400  # a first sentence's subject longer than this is not one: no names are read
MAX_NAME_WORDS = 8
_EDGE = " \t\n\"'“”‘’"
_MARKUP = re.compile(r"</?s>")  # FActScore's passages are wrapped in <s>...</s>
_ATTACHED = re.compile(r"(?<=\w)\(([^()\s]*)\)")  # "titanium(IV) oxide": brackets inside a name
# pieces of a subject: brackets, commas, dashes, an "or" between names ("Tutankhamun or Tutankhamen") and an
# "and" before a cue; the separator is kept (a piece after "or" is another name whatever its case)
_PIECES = re.compile(
    r"([();\[\],]|\s[\u2013\u2014-]\s|(?<=\w)\s+or\s+(?=\w)|\s+and\s+(?=(?:[a-z]+ly\s+)?(?:also|formerly|previously|later"
    r"|known|called|spelled|spelt|sometimes|often|officially)\b)"
    r"|\s+(?=(?:also|formerly|better|commonly) (?:known|called)\b))"
)
# the first verb (a copula), brackets around it, or a sentence ending first ("things. Nothing", "1976. The")
_VERB = re.compile(r"[()\[\]]|\b(?:is|was|are|were)\b|(?:[a-z]{2}|\d|\))\.\s+(?=[A-Z])")
_ADVERBS = r"(?:(?-i:[a-z]+ly)\s+|(?:also|more|most|better|once|often|sometimes|later|simply|still)\s+)"
# what introduces another name: a language label ("German:", "Portuguese pronunciation:"), "born", "or",
# "known in English as", "also known as", "federally designated as", "known by the pen name", "formerly"
_CUE = re.compile(
    r"^(?:(?-i:[A-Z])[\w\s]{1,30}:\s*"
    r"|(?:in [a-z]+(?: [a-z]+)? as|born|n[ée]e?|aka|a\.k\.a\.|or)\s+"
    rf"|{_ADVERBS}*(?:known|called|named|spelled|spelt|romani[sz]ed|transliterated|styled|nicknamed|referred to"
    r"|rendered|designated|written)\b\s*(?:in [a-z]+(?: [a-z]+)?\s+(?=as\b))?(?:(?:as|by)\b\s*)?"
    r"(?:(?:his|her|their|the|its)\s+)?(?:(?:pen|stage|ring|nick|birth|regnal|full|native|official|common|former)"
    r"\s*name\b\s*)?"
    rf"|(?P<adverbs>{_ADVERBS}+(?:as\s+)?))",
    re.IGNORECASE,
)
_NAMED = re.compile(r"(?:the\s+)?[A-Z\d]")
# a description or a place, not a name: "a dance", "in London", "of the Byzantine Empire"
_NOT_NAMED = re.compile(r"(?i)(?:a|an|in|on|at|during|from|for|with|within|among|since|after|before|of|by|near)\b")
_NOT_A_NAME = re.compile(r"[\d/\\ˈˌː]")  # dates, pronunciations


def subject(lead: str) -> str:
    """The first sentence's subject: the text before its first verb outside brackets ("" when the sentence
    ends first, or no verb comes within ``MAX_SUBJECT_CHARS``)."""
    depth = 0
    for match in _VERB.finditer(lead[: MAX_SUBJECT_CHARS + 8]):
        token = match.group()
        if token in "([":
            depth += 1
        elif token in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            ends = "." in token  # "things. Nothing": a sentence ended before any verb
            return "" if ends or match.start() > MAX_SUBJECT_CHARS else lead[: match.start()]
    return ""


def _name(piece: str, separator: str) -> tuple[str, bool]:
    """(the piece without its cues, whether a cue introduced it)."""
    text, cued = piece.strip(_EDGE), separator == "or"
    for _ in range(3):  # cues in a row: "or historically as ...", "also known colloquially as ..."
        cue = _CUE.match(text)
        if cue is None or not cue.group().strip():
            break
        text = text[cue.end() :].strip(_EDGE)
        # "formerly Bombay", "officially the Republic of ...": a name; "often shortened to ...": a remark
        cued = not cue.group("adverbs") or _NAMED.match(text) is not None
    return text, cued


_TRAILING_NOUNS = re.compile(r"(?:\s+(?-i:[a-z])[\w-]*)+$")


def _shared_noun(name: str, after: str) -> str:
    """ "Latin" of "Latin or Neo-Latin languages": one capitalised word before an "or" shares the lower-case
    noun that ends the next name ("Latin languages"), not a name of its own."""
    shared = _TRAILING_NOUNS.search(after)
    if len(name.split()) != 1 or not name[:1].isupper() or shared is None or shared.start() == 0:
        return name
    return name + shared.group()


def _plain(text: str) -> bool:
    """A name as written: no date, pronunciation or description, at most ``MAX_NAME_WORDS`` words."""
    return bool(text) and not _NOT_A_NAME.search(text) and len(text.split()) <= MAX_NAME_WORDS


def lead_names(lead: str) -> tuple[str, ...]:
    """The names a first sentence gives its subject: its head and each bracketed or comma-set piece a cue
    introduces or that is the head's initialism, when the words before the verb are such a list and nothing
    else (see the module's docstring)."""
    text = _ATTACHED.sub(lambda m: "\u27e8" + m.group(1) + "\u27e9", _MARKUP.sub("", lead).strip())
    subj = subject(text)
    if not subj or _NOT_NAMED.match(subj.strip()):
        return ()  # "In chemistry, molecular orbital theory is ...": a setting opens the sentence
    parts = [p.replace("\u27e8", "(").replace("\u27e9", ")") for p in _PIECES.split(subj)]
    head = parts[0].strip(_EDGE)
    if not _plain(head):
        return ()
    found = [head]
    short = answer_forms.initials(offline_grader.normalize(head))
    for i in range(2, len(parts), 2):
        name, cued = _name(parts[i], parts[i - 1].strip())
        if not name:
            continue
        if i + 2 < len(parts) and parts[i + 1].strip() == "or":
            name = _shared_noun(name, _name(parts[i + 2], "or")[0])
        initialism = bool(short) and name.isupper() and offline_grader.normalize(name) == short
        if _plain(name) and not _NOT_NAMED.match(name) and (cued or initialism):
            found.append(name)
        elif i == len(parts) - 1:
            return ()  # the words before the verb end in a clause ("..., fell to the Ottomans in 1453 ... was")
    return tuple(dict.fromkeys(found))


class LeadNames:
    """The gold's other names from its page in the knowledge source (``open_source`` opens it on first use;
    None, a failed open or a missing page: no names). Remembers ``size`` golds; a failed lookup is not
    remembered, so the next asks again."""

    def __init__(self, open_source: Callable[[], KnowledgeSource | None], size: int = 4096) -> None:
        self._open_source = open_source
        self._opened: tuple[KnowledgeSource | None] | None = None
        self._lock = threading.Lock()
        self._size = size
        self._seen: collections.OrderedDict[str, tuple[str, ...]] = collections.OrderedDict()

    def _source(self) -> KnowledgeSource | None:
        """The source, opened once; an open that fails is logged once and leaves no names for the run."""
        with self._lock:
            if self._opened is None:
                try:
                    self._opened = (self._open_source(),)
                except Exception as exc:  # a grade stands without aliases; the run goes on
                    log.error("grader_aliases: cannot open the knowledge source: %s", exc)
                    self._opened = (None,)
            return self._opened[0]

    def names(self, gold: str) -> tuple[str, ...]:
        """The names the first sentence of the page titled ``gold`` gives its subject."""
        with self._lock:
            if gold in self._seen:
                self._seen.move_to_end(gold)
                return self._seen[gold]
        source = self._source()
        if source is None or not gold.strip():
            return ()
        try:
            lead = _first_passage(source, gold.strip())
        except Exception as exc:  # a lookup that failed this time: the judge's grade stands, not remembered
            log.warning("grader_aliases: cannot read the page of %r: %s", gold, exc)
            return ()
        found = lead_names(lead) if lead else ()
        with self._lock:
            self._seen[gold] = found
            if len(self._seen) > self._size:
                self._seen.popitem(last=False)
        return found

    def is_alias(self, answer: str, gold: str) -> bool:
        """Whether ``answer`` commits to one thing only and that is one of the other names the gold's page
        gives (the offline rules' ways of writing one name: titles, a head word, an initialism)."""
        names = self.names(gold)
        if not names:
            return False
        candidates = reading.read(reading.prepare(answer)).candidates
        if len(candidates) != 1 or offline_grader.lists_guesses(answer, gold):
            return False
        said = offline_grader.normalize(candidates[0].text)
        return bool(said) and any(answer_forms.same_answer(said, offline_grader.normalize(n)) for n in names)


def _first_passage(source: KnowledgeSource, title: str) -> str | None:
    """The first passage of ``title``: one passage read where the source indexes passages, else its pages'."""
    if getattr(source, "indexed", True):
        ids, _, _ = source.title_passage_ids([title])
        if not ids:
            return None
        first = min(ids)  # passages are numbered in document order
        return passage.text if (passage := source.get_passages([first]).get(first)) else None
    passages = source.title_passages([title], limit=1_000_000)
    return passages[0].text if passages else None
