"""Line-numbered records from a JSON array or a JSONL file, for every job that reads user files.

A broken record is yielded as an error naming its line and the rest is still read, so
one bad row never sinks a batch: invalid JSON, invalid UTF-8, a number too long to read, a
nesting too deep to decode, a lone surrogate. JSONL is read line by line from a stream (a
pipe works, memory does not grow with the file) with no cap on a line: a row of any length (a long chain of
thought) is one row and the line numbers are exact. A JSON array is streamed element by element, its elements
numbered 1, 2, ... (``Record.line``: elements that share a line, as ``json.dump`` writes them, stay separate
rows). A JSONL file whose first line is a list stays JSONL (that line is one row), whatever that line's length.
Which of the two a file is, the first non-blank line tells, and when it opens a list, the next non-blank byte:
the sniff reads a line in pieces and then starts again from the top (a file is sought back; what came from a
pipe is replayed from memory, or from a temporary file past 4 MiB, so a one-line array piped in is never held
in memory). Each record carries a digest of its bytes, so a job can tell whether the row at a line is still the
row it scored.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import re
import sys
import tempfile
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
    id: str | int | float | None = None  # a bad record's ``id``, when its bytes still hold it (``salvaged``)
    title: str | None = None  # and its ``title`` (a KB build keeps the old document a bad row may update)

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


# after an element whose end cannot be found (an unclosed string): the next object on a line of its own, or the
# next "}, {" on the same line (a one-line array)
_RESUME = re.compile(r",?\s*\n\s*(?=\{)|\}\s*,\s*(?=\{)")
DELIMITERS = ("", " ", "\t", "\r", "\n", ",", "]")  # what may follow a number, true, false or null


def _jsonl_line(number: int, raw: bytes) -> Iterator[Record]:
    line = raw.rstrip(b"\r\n")
    if line.startswith(BOM):  # the first line's, or a joined file's ("cat a.jsonl b.jsonl": hostile pass 7)
        line = line[len(BOM) :]
    if not line.strip():
        return
    try:
        decoded = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        problem = f"not valid UTF-8 (byte {exc.start} of the line)"
        yield Record(number, None, problem, digest(line), id=salvaged(line, "id"), title=_title(line))
        return
    try:
        yield Record(number, _decode(decoded), digest=digest(line))
    except ValueError as exc:
        problem = _problem(exc)
        if isinstance(exc, json.JSONDecodeError) and exc.msg == "Extra data" and decoded[exc.pos :].lstrip()[:1] == "{":
            problem = "two rows on one line (a file joined to another without its last newline?): " + problem
        if b"\r" in line:  # rows ended by a lone CR (classic Mac) read as one line: say so, not "Extra data"
            problem = (
                "rows end in lone carriage returns (\\r), not newlines: convert them (tr '\\r' '\\n' < IN > OUT); "
                + problem
            )
        yield Record(number, None, problem, digest(line), id=salvaged(line, "id"), title=_title(line))


def salvaged(line: bytes, key: str) -> str | int | float | None:
    """The ``key`` field of a row that is not valid JSON or UTF-8, read leniently (bad bytes replaced, raw control
    characters such as NUL allowed in strings), and kept only when the line holds it byte for byte, so a replaced
    byte never makes up a value (hostile pass 42: a row with a NUL in its completion lost the id that came first).

    >>> salvaged(b'{"id": "a", "completion": "x\\x00y"}', "id"), salvaged(b'{"id": 7, "q": "\\xff"}', "id")
    ('a', 7)
    >>> salvaged(b'{"id": "a\\xff", "q": "x"}', "id") is None, salvaged(b'{"id": "a", "q": ', "id") is None
    (True, True)
    """
    try:
        value = json.loads(line.decode("utf-8", "replace"), strict=False)
    except (ValueError, RecursionError):
        return None
    found = value.get(key) if isinstance(value, dict) else None
    if not isinstance(found, (str, int, float)) or isinstance(found, bool):
        return None
    spelt = {json.dumps(found, ensure_ascii=a).encode("utf-8", "replace") for a in (False, True)}
    return found if any(form in line for form in spelt) else None


_TITLE_FIELD = re.compile(rb'"title"\s*:\s*("(?:[^"\\]|\\.)*")')


def _title(line: bytes) -> str | None:
    """A bad row's ``title``: read leniently, or from a torn row's one ``"title": "..."`` (hostile pass 46: a row
    cut short kept every document a rebuild removes, its title unread).

    >>> _title(b'{"title": "New 2", "text": "cut sh'), _title(b'{"text": "a", "title": "B"'), _title(b'{"text": "x')
    ('New 2', 'B', None)
    """
    found = salvaged(line, "title")
    if isinstance(found, str):
        return found
    fields = _TITLE_FIELD.findall(line)
    if len(fields) != 1:
        return None
    try:
        title = json.loads(fields[0].decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return title if isinstance(title, str) else None


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
    """Records of ``path`` (``-``: standard input): a JSON array (element by element) or JSONL (line by line),
    both streamed: memory follows the largest record, not the file. A line of any length is one row."""
    handle = open_input(path)
    try:
        sniffed = _Sniffed(handle)
        try:
            array = _is_array(sniffed)
            source = sniffed.rewind()
            if array:
                yield from _array_stream(source)
                return
            for number, raw in enumerate(source, start=1):
                yield from _jsonl_line(number, raw)
        finally:
            sniffed.close()
    finally:
        if sys.stdin is None or handle is not sys.stdin.buffer:
            handle.close()  # fd 0 itself stays open (closefd=False)


PIECE = 1 << 16  # the sniff reads a line in pieces of at most this: a line of any length, never all at once


class _Sniffed:
    """The input as the sniff reads it, then read again from its start: a file is sought back; what was read
    from a pipe is kept (in memory up to 4 MiB, then in a temporary file) and replayed before the rest."""

    def __init__(self, handle: IO[bytes]) -> None:
        self.handle = handle
        try:
            self.start: int | None = handle.tell() if handle.seekable() else None
        except (AttributeError, OSError, ValueError):
            self.start = None
        self.kept = tempfile.SpooledTemporaryFile(max_size=1 << 22) if self.start is None else None
        self.read = 0  # bytes the sniff has read

    def piece(self) -> bytes:
        """The next piece of a line: up to its newline, at most ``PIECE`` bytes (a pipe is read no further)."""
        data = self.handle.readline(PIECE)
        if self.kept is not None:
            self.kept.write(data)
        self.read += len(data)
        return data

    def line_at(self, offset: int) -> bytes:
        """The whole line that starts ``offset`` bytes into what the sniff read."""
        if self.kept is not None:
            self.kept.seek(offset)
            line = self.kept.readline()
            self.kept.seek(0, 2)
            return line
        assert self.start is not None
        self.handle.seek(self.start + offset)
        line = self.handle.readline()
        self.handle.seek(self.start + self.read)
        return line

    def rewind(self) -> "IO[bytes] | _Replay":
        if self.kept is None:
            assert self.start is not None
            self.handle.seek(self.start)
            return self.handle
        self.kept.seek(0)
        return _Replay(self.kept, self.handle)

    def close(self) -> None:
        if self.kept is not None:
            self.kept.close()


def _is_array(sniffed: _Sniffed) -> bool:
    """One JSON array, unless the first non-blank line is a whole JSON value that another non-blank line follows
    (JSONL whose first row happens to be a list). Reads the first non-blank line, and when it opens a list, up to
    the next non-blank byte; no further (on a pipe, a row that has arrived is scored without waiting for the
    next). A long first line is read in pieces and held whole only when it may be a JSONL row: a one-line JSON
    array (``json.dump``'s output) with nothing after it is never held in memory."""
    piece = sniffed.piece().removeprefix(BOM)
    while piece and not piece.strip():
        piece = sniffed.piece()
    if not piece.lstrip().startswith(b"["):
        return False
    offset = sniffed.read - len(piece)  # where the first non-blank line starts (pieces of blank lines before)
    line, whole = piece, True
    while piece and not piece.endswith(b"\n"):
        piece = sniffed.piece()
        if whole and len(line) + len(piece) <= PIECE:
            line += piece
        else:
            whole = False
    piece = sniffed.piece()
    while piece and not piece.strip():
        piece = sniffed.piece()
    if not piece:  # nothing but blank lines follows: one array, however long its line
        return True
    try:
        _decode((line if whole else sniffed.line_at(offset)).removeprefix(BOM).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return True
    return False


class _Replay:
    """What the sniff read from a pipe, then the rest of the pipe: by ``read`` (a JSON array) or by line."""

    def __init__(self, kept: IO[bytes], handle: IO[bytes]) -> None:
        self.kept: IO[bytes] | None = kept
        self.handle = handle

    def read(self, size: int) -> bytes:
        if self.kept is not None:
            chunk = self.kept.read(size)
            if chunk:
                return chunk
            self.kept = None
        return self.handle.read(size)

    def __iter__(self) -> Iterator[bytes]:
        if self.kept is not None:
            kept, self.kept, partial = self.kept, None, b""
            for line in kept:
                if line.endswith(b"\n"):
                    yield line
                else:
                    partial = line
            if partial:  # the line the sniff stopped in goes on in the pipe
                yield partial + self.handle.readline()
        yield from self.handle


class _Text:
    """A JSON array's text read in growing chunks. ``buf[off:]`` is what is not yet consumed and starts on line
    ``line``; the consumed head is dropped only once it is most of the buffer (no copy per element). Bytes that
    are not UTF-8 become one error record and are read as replacement characters from there on."""

    def __init__(self, handle: "IO[bytes] | _Replay") -> None:
        self.handle, self.buf, self.off, self.line, self.eof = handle, "", 0, 1, False
        self.size, self.read_bytes, self.first = 1 << 16, 0, True
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.problems: list[Record] = []

    def more(self) -> bool:
        """Read the next chunk (twice the last, up to 4 MiB); False at the end of the file."""
        if self.eof:
            return False
        chunk = self.handle.read(self.size)
        self.size = min(self.size * 2, 1 << 22)
        if self.first:
            chunk, self.first = chunk.removeprefix(BOM), False
        if not chunk:
            self.eof = True
            try:
                self.buf += self.decoder.decode(b"", final=True)
            except UnicodeDecodeError:  # the file ends inside a character
                at = self.line + self.buf.count("\n", self.off)
                self.problems.append(Record(at, None, "not valid UTF-8 at the end of the file"))
                self.buf += "\ufffd"
            return False
        try:
            text = self.decoder.decode(chunk)
        except UnicodeDecodeError as exc:
            at = self.line + self.buf.count("\n", self.off) + chunk.count(b"\n", 0, max(0, exc.start))
            where = self.read_bytes + max(0, exc.start)
            self.problems.append(
                Record(at, None, f"not valid UTF-8 (byte {where}); the file was read with replacement characters")
            )
            self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
            text = self.decoder.decode(chunk)
        self.read_bytes += len(chunk)
        if self.off > len(self.buf) // 2:
            self.buf, self.off = self.buf[self.off :], 0
        self.buf += text
        return True

    def consume(self, end: int) -> None:
        """Everything before position ``end`` of ``buf`` is read."""
        self.line += self.buf.count("\n", self.off, end)
        self.off = end

    def skip(self, chars: str) -> None:
        """Read past ``chars`` (white space, separators), reading on until something else or the end shows."""
        while True:
            pos = self.off
            while pos < len(self.buf) and self.buf[pos] in chars:
                pos += 1
            self.consume(pos)
            if pos < len(self.buf) or not self.more():
                return

    def take_problems(self) -> list[Record]:
        problems, self.problems = self.problems, []
        return problems


_STRUCTURE = re.compile(r'\\[\s\S]|["{}\[\],]')


class _ElementEnd:
    """Where an array element that did not parse ends: the ``,`` or ``]`` after it at its own nesting level,
    strings skipped. Read on chunk by chunk with its state kept (positions relative to the element's start, which
    stay valid when the buffer is compacted); a closing bracket too many is ignored, so the search always moves on."""

    def __init__(self) -> None:
        self.rel, self.depth, self.in_string = 0, 0, False

    def find(self, buf: str, start: int) -> int | None:
        at = start + self.rel
        for match in _STRUCTURE.finditer(buf, at):
            char = match.group()
            if self.in_string:
                self.in_string = char != '"'
            elif char == '"':
                self.in_string = True
            elif char in "{[":
                self.depth += 1
            elif char in "}]":
                if self.depth == 0 and char == "]":
                    return match.start()  # the array's own end
                self.depth = max(0, self.depth - 1)
            elif char == "," and self.depth == 0 and match.start() > start:
                return match.start()
            at = match.end()
        self.rel = at - start  # a backslash at the end is read again with what follows it
        return None


CUT_SHORT = "the file ends inside the JSON array (no closing ']'): cut short? Rows after this one may be missing"


def _after_array(text: "_Text") -> str:
    """What follows an array's closing ``]``: "" at the end of the file, "[" for a second array (consumed), else
    the start of the text after it (objects appended to the array, or something else)."""
    text.consume(text.off + 1)
    text.skip(" \t\r\n")
    if text.off >= len(text.buf):
        return ""
    if text.buf[text.off] == "[":
        text.consume(text.off + 1)
        return "["
    return text.buf[text.off : text.off + 40]


def _array_stream(handle: "IO[bytes] | _Replay") -> Iterator[Record]:
    """The elements of a JSON array, each numbered (1, 2, ...) so that elements sharing a line stay apart;
    a value is accepted only when text follows it (a number cut at a chunk's end is read whole)."""
    decoder = json.JSONDecoder()
    text = _Text(handle)
    while "[" not in text.buf and text.more():
        pass
    yield from text.take_problems()
    if "[" not in text.buf:
        return
    text.consume(text.buf.index("[") + 1)
    element, closed_once = 0, False
    while True:
        text.skip(" \t\r\n,")
        yield from text.take_problems()
        if text.off >= len(text.buf):
            if not closed_once:  # "[{...}, {...}," and the file ends: an export cut short (hostile pass 10)
                yield Record(element + 1, None, CUT_SHORT, text_line=text.line)
            return
        if text.buf[text.off] == "]":
            closed_once = True
            after = _after_array(text)
            if after == "[" or after.startswith("{"):
                # "cat a.json b.json", rows appended with >>: read on, numbered after the array's (hostile pass 9)
                continue
            if after:
                yield Record(
                    element + 1,
                    None,
                    f"text after the JSON array's end (line {text.line}) was not "
                    f"read: {after!r}...; give one array, or JSON Lines",
                    text_line=text.line,
                )
            return
        element += 1
        line = text.line
        failure: ValueError | None = None
        while True:
            try:
                value, end = decoder.raw_decode(text.buf, text.off)
                whole = isinstance(value, (dict, list, str)) or text.buf[end : end + 1] in DELIMITERS
                if (end < len(text.buf) and whole) or not text.more():  # "1." at a chunk's end is not 1
                    break
            except json.JSONDecodeError as exc:
                cut = exc.pos >= len(text.buf) - 1 or exc.msg.startswith("Unterminated string")
                if cut and text.more():  # the element may go on in the next chunk
                    continue
                failure = exc
                break
            except (ValueError, RecursionError) as exc:  # a huge number, deep nesting: skip to the next object
                failure = exc if isinstance(exc, ValueError) else ValueError("nesting too deep")
                break
        yield from text.take_problems()
        if failure is None:
            raw = text.buf[text.off : end].encode("utf-8", "surrogatepass")
            yield Record(element, value, digest=digest(raw), text_line=line)
            text.consume(end)
            continue
        # resume at the next object on a line of its own, reading on until one shows (or the file ends)
        if isinstance(failure, json.JSONDecodeError):
            at = text.line + text.buf.count("\n", text.off, max(failure.pos, text.off))
            yield Record(element, None, f"invalid JSON: {failure.msg}", text_line=at)
            start = failure.pos
        else:
            yield Record(element, None, _problem(failure), text_line=line)
            start = text.off + 1
        # resume after the bad element: its end found by nesting and strings alone (a raw TAB in a string, a
        # missing comma), so a one-line array loses nothing else (hostile pass 8); an unclosed string falls back
        scan = _ElementEnd()
        while (delimiter := scan.find(text.buf, text.off)) is None and text.more():
            pass
        if delimiter is not None:
            yield from text.take_problems()
            text.consume(delimiter)
            continue
        rel = start - text.off  # positions kept relative to the unread text: reading on may compact the buffer
        while (nxt := _RESUME.search(text.buf, text.off + rel)) is None:
            searched = len(text.buf) - text.off
            if not text.more():
                break
            rel = max(rel, searched - 64)  # a match may straddle the old end
        yield from text.take_problems()
        if nxt is None:
            rest = text.buf[text.off + rel :].strip().rstrip("]").strip()
            if rest:  # nothing else could be read: said, never dropped in silence
                yield Record(
                    element,
                    None,
                    f"the rest of the array ({len(rest)} characters) could not be read after this element",
                    text_line=at if isinstance(failure, json.JSONDecodeError) else line,
                )
            return
        text.consume(nxt.end())
