"""Sentence-aware passage chunking (~256 tokens), FActScore style.

FActScore and KnowRL cut documents into ~256 RoBERTa-token passages; any fast tokenizer
serves, so we count with the embedding model's own WordPiece tokenizer (what the dense
retriever truncates at) and record its name in the KB's meta table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

from retrieval.text import split_sentences

_WORD = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def _default_tokenizer_file() -> Path | None:
    from retrieval.models import bundled_model_dir

    model_dir = bundled_model_dir()
    if model_dir is None:
        return None
    path = model_dir / "tokenizer.json"
    return path if path.exists() else None


@dataclass
class Chunker:
    """Packs whole sentences into passages of at most ``max_tokens`` tokens.

    A sentence longer than ``max_tokens`` is cut on word boundaries, so no passage is
    ever longer than the limit (the dense encoder would silently truncate it).
    """

    max_tokens: int = 256
    tokenizer_file: Path | None = field(default_factory=_default_tokenizer_file)

    @cached_property
    def _count(self) -> Callable[[list[str]], list[int]]:
        if self.tokenizer_file is not None:
            from tokenizers import Tokenizer

            tok = Tokenizer.from_file(str(self.tokenizer_file))
            tok.no_truncation()
            tok.no_padding()
            return lambda texts: [len(e.ids) - 2 for e in tok.encode_batch(texts, add_special_tokens=True)]
        return lambda texts: [len(_WORD.findall(t)) for t in texts]

    @property
    def name(self) -> str:
        """What the token counts mean, for the KB's meta table."""
        if self.tokenizer_file is not None:
            return f"wordpiece:{self.tokenizer_file.parent.name}"
        return "regex-words"

    def chunk(self, text: str) -> list[str]:
        """Split ``text`` into passages; empty text gives no passage."""
        sentences = split_sentences(text)
        if not sentences:
            return []
        passages: list[str] = []
        run: list[tuple[str, int]] = []  # consecutive sentences that fit a passage each
        for sentence, n in zip(sentences, self._count(sentences)):
            if n <= self.max_tokens:
                run.append((sentence, n))
                continue
            passages += _pack(run, self.max_tokens)
            run = []
            # WordPiece pre-splits on whitespace, so per-word counts add up exactly.
            words = sentence.split()
            passages += _pack(list(zip(words, self._count(words))), self.max_tokens)
        return passages + _pack(run, self.max_tokens)


def _pack(units: list[tuple[str, int]], max_tokens: int) -> list[str]:
    """Greedy packing of (text, tokens) units, in order, into pieces of at most ``max_tokens``.

    >>> _pack([("a b", 2), ("c", 1), ("d e f", 3)], 3)
    ['a b c', 'd e f']
    """
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for unit, n in units:
        if current and size + n > max_tokens:
            pieces.append(" ".join(current))
            current, size = [], 0
        current.append(unit)
        size += n
    if current:
        pieces.append(" ".join(current))
    return pieces
