"""Other names of a gold answer, read from the first sentence of its page in the knowledge base.

A small judge grades a true alias INCORRECT when it does not know it: Peking for Beijing, Samuel Langhorne
Clemens for Mark Twain, Wolfram for Tungsten (the local 1.5B: 40 of the 79 alias cases of held-out sets 1-8).
An encyclopaedia's first sentence names its subject's other names before its verb ("Beijing, previously
romanized as Peking, is ...", "Samuel Langhorne Clemens (...), known by the pen name Mark Twain, was ...",
"Tungsten (also called wolfram) is ..."). Those names, and only those, count as the gold's: the evidence is
the knowledge base, not the judge's memory. Other names on the page (a teacher, a rival, a country the city
is in) are never taken: they stand after the verb, or in a description ("the capital of ...") that starts
lower case and no cue introduces.
"""

from __future__ import annotations

import functools
import logging
import re
import sqlite3
import threading
from typing import Callable

from retrieval.source import KnowledgeSource
from reward_engine.labels import Label
from reward_engine.offline import grader as offline_grader

log = logging.getLogger(__name__)

MAX_SUBJECT_CHARS = 400  # a first sentence's subject longer than this is not one: no names are read
MAX_NAME_WORDS = 8
# pieces of a subject: brackets, commas, dashes, an "or" between names ("Tutankhamun or Tutankhamen") and an
# "and" before a cue; the separator is kept (a piece after "or" is another name whatever its case)
_PIECES = re.compile(
    r"([();\[\],]|\s[\u2013\u2014-]\s|(?<=\w)\s+or\s+(?=\w)|\s+and\s+(?=(?:also|formerly|previously|later|known"
    r"|called|sometimes|often|officially)\b)|\s+(?=(?:also|formerly|better|commonly) (?:known|called)\b))"
)
_VERB = re.compile(r"[()\[\]]|\b(?:is|was|are|were)\b|[a-z]{2}\.\s+(?=[A-Z])")
_ADVERBS = r"(?:(?:[a-z]+ly|also|more|most|better|once|often|sometimes|later|simply|still)\s+)"
# what introduces another name: a language label ("German:", "Portuguese pronunciation:"), "born", "or",
# "known in English as", "also known as", "federally designated as", "known by the pen name", "formerly"
_CUE = re.compile(
    r"^(?:[A-Z][\w\s]{1,30}:\s*"
    r"|(?:in [a-z]+(?: [a-z]+)? as|born|n[ée]e?|aka|a\.k\.a\.|or)\s+"
    rf"|{_ADVERBS}*(?:known|called|named|spelled|spelt|romani[sz]ed|transliterated|styled|nicknamed|referred to"
    r"|rendered|designated|written)\b\s*(?:in [a-z]+(?: [a-z]+)?\s+(?=as\b))?(?:(?:as|by)\b\s*)?"
    r"(?:(?:his|her|their|the|its)\s+)?(?:(?:pen|stage|ring|nick|birth|regnal|full|native|official|common|former)"
    r"\s*name\b\s*)?"
    rf"|(?P<adverbs>{_ADVERBS}+(?:as\s+)?))",
    re.IGNORECASE,
)
_NAMED = re.compile(r"(?:the\s+)?[A-Z\d]")
_PREPOSITION = re.compile(r"(?i)(?:in|on|at|during|from|for|with|within|among|since|after|before)\b")
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
            ends = token.endswith((" ", "\n", "\t")) or "." in token  # "things. Nothing": a sentence ended
            return "" if ends or match.start() > MAX_SUBJECT_CHARS else lead[: match.start()]
    return ""


def lead_names(lead: str) -> tuple[str, ...]:
    """The names a first sentence gives its subject: its head ("Samuel Langhorne Clemens"), and each
    bracketed or comma-set piece a cue introduces ("also called wolfram", "or wolfram") or that starts with a
    capital ("Myanmar, officially the Republic of the Union of Myanmar"); never a date or a pronunciation."""
    parts = _PIECES.split(subject(lead))
    found: list[str] = []
    for i in range(0, len(parts), 2):
        text = parts[i].strip(" \t\n\"'“”‘’")
        cued = i > 0 and parts[i - 1].strip() == "or"
        for _ in range(3):  # cues in a row: "or historically as ...", "also known colloquially as ..."
            cue = _CUE.match(text)
            if cue is None or not cue.group().strip():
                break
            text = text[cue.end() :].strip(" \t\n\"'“”‘’")
            # "formerly Bombay", "officially the Republic of ...": a name; "often shortened to ...": a remark
            cued = not cue.group("adverbs") or _NAMED.match(text) is not None
        if i == 0 and _PREPOSITION.match(text):
            continue  # "In chemistry, molecular orbital theory is ...": a setting, not a name
        if not text or _NOT_A_NAME.search(text) or len(text.split()) > MAX_NAME_WORDS:
            continue
        if cued or i == 0 or text[:1].isupper():
            found.append(text)
    return tuple(dict.fromkeys(found))


class LeadNames:
    """The gold's other names from its page in the knowledge source (``open_source`` opens it on first use;
    None or a missing page: no names). Remembers ``size`` golds."""

    def __init__(self, open_source: Callable[[], KnowledgeSource | None], size: int = 4096) -> None:
        self._open_source = open_source
        self._opened: tuple[KnowledgeSource | None] | None = None
        self._lock = threading.Lock()
        self.names = functools.lru_cache(maxsize=size)(self._names)

    def _source(self) -> KnowledgeSource | None:
        """The source, opened once (a failed open is tried again on the next gold)."""
        with self._lock:
            if self._opened is None:
                self._opened = (self._open_source(),)
            return self._opened[0]

    def _names(self, gold: str) -> tuple[str, ...]:
        if not gold.strip():
            return ()
        try:
            source = self._source()
            passages = source.title_passages([gold.strip()], limit=1_000_000) if source is not None else None
        except (OSError, sqlite3.Error, ValueError) as exc:  # no names is the judge's grade standing, not an error
            log.warning("grader_aliases: cannot read the page of %r: %s", gold, exc)
            return ()
        return lead_names(passages[0].text) if passages else ()

    def is_alias(self, span: str, gold: str, question: str | None = None) -> bool:
        """Whether ``span`` names the gold by one of the other names its page gives, by the offline rules that
        match an answer to a gold (spelling variants, a name without its middle names, what the question
        already says)."""
        names = self.names(gold)
        return bool(names) and offline_grader.grade(span, list(names), question) is Label.CORRECT
