"""Line-numbered records from a JSON array or a JSONL file, for every job that reads user files.

A broken record is yielded as an error naming its line and the rest is still read, so
one bad row never sinks a batch: invalid JSON, invalid UTF-8, a number too long to read, a
nesting too deep to decode, a lone surrogate. JSONL is read line by line from a stream (a
pipe works, memory does not grow with the file); a JSON array is read whole (KnowRL's data
files are arrays of a few MB), its elements numbered 1, 2, ... (``Record.line``: elements that
share a line, as ``json.dump`` writes them, stay separate rows). A JSONL file whose first line is
a list stays JSONL (that line is one bad row). Each record carries a digest of its bytes, so a job can tell
whether the row at a line is still the row it scored.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Record:
    line: int  # the record's position, unique in its file: its line (JSONL) or element number (JSON array)
    value: Any  # the decoded JSON value; None when ``error`` is set
    error: str | None = None
    digest: str = ""  # sha256 of the record's bytes (16 hex digits): which row this is
    text_line: int = 0  # where it starts in the file (an array's elements may share one line); 0: ``line``

    @property
    def where(self) -> str:
        """For messages: ``3`` (a JSONL line), ``element 3 (line 1)`` (a JSON array's element)."""
        return str(self.line) if not self.text_line else f"element {self.line} (line {self.text_line})"


def digest(data: bytes) -> str:
    """The digest a record carries.

    >>> len(digest(b'{"a": 1}')), digest(b"x") == digest(b"x"), digest(b"x") == digest(b"y")
    (16, True, False)
    """
    return hashlib.sha256(data).hexdigest()[:16]


def _decode(text: str) -> Any:
    """``json.loads`` that never lets a hostile value out as anything but ``ValueError``: a 5,000-digit
    integer (``ValueError`` from int()), 100,000 nested brackets (``RecursionError``)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nesting too deep") from None


def _problem(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON: {exc.msg} (column {exc.colno})"
    return f"unreadable JSON value: {str(exc).splitlines()[0][:120]}"


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
    """The elements of a JSON array, each numbered (1, 2, ...) so that elements sharing a line stay apart."""
    decoder = json.JSONDecoder()
    lines = _Lines(text)
    pos = text.index("[") + 1
    element = 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return
        element += 1
        line = lines.at(pos)
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            yield Record(element, None, f"invalid JSON: {exc.msg}", text_line=lines.at(max(exc.pos, pos)))
            nxt = _RESUME.search(text, exc.pos)
            if nxt is None:
                return
            pos = nxt.end()
            continue
        except (ValueError, RecursionError) as exc:  # a huge number, deep nesting: skip to the next object
            problem = _problem(exc if isinstance(exc, ValueError) else ValueError("nesting too deep"))
            yield Record(element, None, problem, text_line=line)
            nxt = _RESUME.search(text, pos + 1)
            if nxt is None:
                return
            pos = nxt.end()
            continue
        yield Record(element, value, digest=digest(text[pos:end].encode("utf-8", "surrogatepass")), text_line=line)
        pos = end


def _jsonl_line(number: int, raw: bytes) -> Iterator[Record]:
    line = raw.rstrip(b"\r\n")
    if number == 1 and line.startswith(BOM):
        line = line[len(BOM) :]
    if not line.strip():
        return
    try:
        decoded = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        yield Record(number, None, f"not valid UTF-8 (byte {exc.start} of the line)", digest(line))
        return
    try:
        yield Record(number, _decode(decoded), digest=digest(line))
    except ValueError as exc:
        yield Record(number, None, _problem(exc), digest(line))


class InputError(ValueError):
    """The input cannot be opened; the message names it and why."""


def open_input(path: Path) -> IO[bytes]:
    """The input as a binary stream; ``-`` is standard input (closed: an error, not a traceback)."""
    if str(path) == "-":
        if sys.stdin is None:
            raise InputError("--input -: standard input is closed")
        try:  # a reader of our own on fd 0: one blocked in a reading thread must not hold sys.stdin's lock,
            # which the interpreter takes on its way out after Ctrl-C (a fatal error otherwise)
            return open(sys.stdin.fileno(), "rb", closefd=False)
        except (AttributeError, OSError, ValueError):  # a stdin with no descriptor (embedded, tests)
            return sys.stdin.buffer
    if Path(path).is_dir():
        raise InputError(f"{path} is a directory, not an input file")
    try:
        return Path(path).open("rb")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


def iter_records(path: Path) -> Iterator[Record]:
    """Records of ``path`` (``-``: standard input): a JSON array (element by element) or JSONL (line by line)."""
    handle = open_input(path)
    try:
        head = handle.peek(1 << 16)[: 1 << 16] if hasattr(handle, "peek") else b""  # type: ignore[union-attr]
        if head.removeprefix(BOM).lstrip()[:1] == b"[":
            raw = handle.read().removeprefix(BOM)
            if not _jsonl_led_by_a_list(raw):
                yield from _array_records(raw)
                return
            for number, line in enumerate(raw.splitlines(keepends=True), start=1):
                yield from _jsonl_line(number, line)
            return
        for number, raw in enumerate(handle, start=1):
            yield from _jsonl_line(number, raw)
    finally:
        if sys.stdin is None or handle is not sys.stdin.buffer:
            handle.close()  # fd 0 itself stays open (closefd=False)


def _jsonl_led_by_a_list(raw: bytes) -> bool:
    """JSONL whose first line happens to be a list (``[1, 2]`` then objects), not one JSON array: the first
    non-blank line is a whole JSON value and more lines follow it."""
    lines = [line for line in raw.lstrip().splitlines() if line.strip()]
    if len(lines) < 2:
        return False
    try:
        _decode(lines[0].decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False
    return True


def _array_records(raw: bytes) -> Iterator[Record]:
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
