"""Text clean-up and sentence splitting shared by chunking and the demo sources."""

from __future__ import annotations

import html
import re
import unicodedata

_TAG = re.compile(r"<[^>]+>")
_BR = re.compile(r"<\s*(br|/p|p|/li|li)\s*/?\s*>", re.IGNORECASE)
_SPACE = re.compile(r"[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]+")
# A sentence ends at . ! ? (optionally closed by a quote or bracket) followed by
# whitespace and something that can open a sentence. Initials such as "J. R. R."
# and common abbreviations are protected below, so chunk borders rarely cut a name.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9\u00c0-\u024f])")
_ABBREV = re.compile(
    r"(?:\b(?:[A-Z]|Mr|Mrs|Ms|Dr|Prof|St|Sr|Jr|Mt|Ft|Gen|Col|Lt|Sgt|Capt|Gov|Rep|Sen|Rev|"
    r"vs|etc|e\.g|i\.e|approx|est|No|Vol|Inc|Ltd|Co|Corp|Jan|Feb|Mar|Apr|Aug|Sep|Sept|Oct|Nov|Dec)\.)$"
)


def clean_html(text: str) -> str:
    """Strip tags and entities so HTML-flavoured sources (the Factbook) index as prose."""
    text = _BR.sub("\n", text)
    text = _TAG.sub("", text)
    text = html.unescape(text)
    return normalize_space(text)


def normalize_space(text: str) -> str:
    """NFC-normalise, collapse runs of spaces (NBSP included) and trim each line."""
    text = unicodedata.normalize("NFC", text)
    lines = (_SPACE.sub(" ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences; newlines always end a sentence."""
    sentences: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        start = 0
        for match in _SENTENCE_END.finditer(line):
            candidate = line[start : match.start()].rstrip()
            # Keep "Dr. Smith" and "J. Smith" together.
            # Only the last few characters matter: searching the whole prefix made long lines quadratic.
            if _ABBREV.search(line[max(0, match.start() - 16) : match.start()].rstrip("\"')] ")):
                continue
            if candidate:
                sentences.append(line[start : match.end()].strip())
                start = match.end()
        tail = line[start:].strip()
        if tail:
            sentences.append(tail)
    return sentences


def bindable(text: str) -> str:
    """``text`` as SQLite can bind it: a lone surrogate (valid in JSON, never in UTF-8 or in a KB) becomes '?'."""
    return text if text.isascii() else text.encode("utf-8", "replace").decode("utf-8")
