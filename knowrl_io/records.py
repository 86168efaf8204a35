"""Line-numbered records from a JSON array or a JSONL file, for every job that reads user files.

A broken record is yielded as an error naming its line and the rest is still read, so
one bad row never sinks a batch. Linear in the file size (line numbers are counted
incrementally, not by rescanning).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator


@dataclass(frozen=True)
class Record:
    line: int
    value: Any  # the decoded JSON value; None when ``error`` is set
    error: str | None = None


_RESUME = re.compile(r",?\s*\n\s*(?=\{)")


class _Lines:
    """Line number of a position in ``text``; positions must not decrease."""

    def __init__(self, text: str) -> None:
        self.text, self.pos, self.line = text, 0, 1

    def at(self, pos: int) -> int:
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


def _array(text: str) -> Iterator[Record]:
    decoder = json.JSONDecoder()
    lines = _Lines(text)
    pos = text.index("[") + 1
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return
        line = lines.at(pos)
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            yield Record(lines.at(max(exc.pos, pos)), None, f"invalid JSON: {exc.msg}")
            nxt = _RESUME.search(text, exc.pos)
            if nxt is None:
                return
            pos = nxt.end()
            continue
        yield Record(line, value)
        pos = end


def iter_records(path: Path) -> Iterator[Record]:
    """Records of ``path``: a JSON array (element by element) or JSONL (line by line)."""
    raw = path.read_bytes()
    if raw.lstrip()[:1] == b"[":
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield Record(
                raw.count(b"\n", 0, exc.start) + 1,
                None,
                f"not valid UTF-8 (byte {exc.start}); the file was read with replacement characters",
            )
            text = raw.decode("utf-8", errors="replace")
        yield from _array(text)
        return
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            decoded = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield Record(number, None, f"not valid UTF-8 (byte {exc.start} of the line)")
            continue
        try:
            yield Record(number, json.loads(decoded))
        except json.JSONDecodeError as exc:
            yield Record(number, None, f"invalid JSON: {exc.msg} (column {exc.colno})")
