"""Line-numbered JSONL input and crash-safe, resumable JSONL output for the standalone jobs."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from knowrl_io.atomic_write import atomic_file, write_atomically
from knowrl_io.job_output import OutputError
from knowrl_io.records import iter_records
from knowrl_io.row_index import Span


@dataclass
class Row:
    line: int
    data: dict[str, Any] | None  # None: the line is bad
    error: str | None = None
    digest: str = ""  # of the input record's bytes: resume tells a changed row from the one it scored
    id: str | int | float | None = None  # the row's id, read even when the row is bad


def read_rows(
    path: Path,
    required: dict[str, tuple[type, ...]],
    optional: dict[str, tuple[type, ...]],
    may_be_blank: frozenset[str] = frozenset({"completion"}),
) -> Iterator[Row]:
    """Every record of a JSONL file or JSON array; a bad one carries an error naming its line and field. A required
    text field must not be blank, except those in ``may_be_blank``: an empty completion is what the policy wrote,
    scored as no answer (what training pays it), not a bad row left out of the job's mean (issue #74)."""
    for record in iter_records(path):
        if record.error is not None:
            yield Row(record.line, None, f"{path}:{record.where}: {record.error}", record.digest, record.id)
        elif not isinstance(record.value, dict):
            yield Row(record.line, None, f"{path}:{record.where}: {_not_an_object(record.value)}", record.digest)
        else:
            problem = fields_problem(record.value, required, optional, may_be_blank)
            error = f"{path}:{record.where}: {problem}" if problem else None
            yield Row(
                record.line, record.value if problem is None else None, error, record.digest, _row_id(record.value)
            )


def _not_an_object(value: Any) -> str:
    """Why a record is no row, with the likely cause when it is a list of rows: a one-line array (``json.dump``'s
    output) with lines after it is read as JSONL, that line one record (hostile pass 10)."""
    problem = f"expected an object, got {type(value).__name__}"
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        problem += (
            f" of {len(value)} objects: a one-line JSON array with more lines after it is read as JSONL; write one "
            "object per line, or the whole file as one array"
        )
    return problem


def _row_id(value: dict[str, Any]) -> str | int | float | None:
    """The row's ``id`` when it can be read, even from a row that fails validation."""
    found = value.get("id")
    return found if isinstance(found, (str, int, float)) and not isinstance(found, bool) else None


def fields_problem(
    data: dict[str, Any],
    required: dict[str, tuple[type, ...]],
    optional: dict[str, tuple[type, ...]],
    may_be_blank: frozenset[str] = frozenset(),
) -> str | None:
    """Why ``data``'s fields are not what a row holds (naming the field), or None: how every job reads a row, so
    another reader of the same fields (the reward server's label) refuses what they refuse.

    >>> fields_problem({"title": 3}, {}, {"title": (str, list)}), fields_problem({"title": ["A"]}, {}, {})
    ("field 'title' must be str or list, got int", None)
    """
    for name, types in required.items():
        if name not in data:
            return f"field '{name}' missing"
        if not isinstance(data[name], types):
            return f"field '{name}' must be {' or '.join(t.__name__ for t in types)}, got {type(data[name]).__name__}"
        if isinstance(data[name], str) and not data[name].strip() and name not in may_be_blank:
            return f"field '{name}' is empty"
        if _non_finite(data[name]):
            return f"field '{name}' holds NaN or Infinity"  # "answers": [NaN] was graded against "nan" (pass 27)
    for name, types in optional.items():
        if data.get(name) is not None and not isinstance(data[name], types):
            return f"field '{name}' must be {' or '.join(t.__name__ for t in types)}, got {type(data[name]).__name__}"
        if _non_finite(data.get(name)):
            return f"field '{name}' holds NaN or Infinity"
    return None


def _non_finite(value: Any) -> bool:
    """A list holding NaN or an infinity (JSON's reader takes both)."""
    return isinstance(value, list) and any(isinstance(v, float) and not math.isfinite(v) for v in value)


def rewrite_indexed(path: Path, index: dict[int, Span], lines: Callable[[int], bool] = lambda _: True) -> None:
    """Atomically replace ``path`` with the indexed rows whose line passes ``lines``, in line order, copying
    their bytes one at a time (a temporary file created exclusively: a planted link is never followed)."""
    with atomic_file(path) as out:
        if path.exists():
            with path.open("rb") as src:
                for line in sorted(index):
                    if lines(line):
                        src.seek(index[line].offset)
                        out.write(src.read(index[line].length))


def read_objects(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of an output file this project wrote, skipping a torn last line (a killed
    writer) and anything that is not an object; nothing when the file does not exist."""
    if not path.exists():
        return
    with path.open("rb") as handle:
        for raw in handle:
            try:
                row = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                continue
            if isinstance(row, dict):
                yield row


def rewrite(path: Path, rows: list[dict[str, Any]]) -> None:
    """Atomically replace ``path`` with ``rows`` (a reader never sees half a file)."""
    write_atomically(path, "".join(dumps(row) for row in rows).encode("utf-8", "backslashreplace"))


def finite(value: Any) -> Any:
    """``value`` with every NaN or infinite float as None: ``json.dumps`` writes them as ``NaN`` and
    ``Infinity``, which no JSON reader but Python's accepts."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def dumps(row: dict[str, Any]) -> str:
    """One output line. A lone surrogate (from ``\\ud800`` in an input) is written as that escape again:
    still valid JSON, where UTF-8 has no way to write it; a non-finite number is null."""
    return json.dumps(finite(row), ensure_ascii=False, allow_nan=False) + "\n"


class Appender:
    """Appends whole lines and fsyncs each batch, so a kill loses at most the batch in flight; a batch the
    disk cannot take (full, quota) is taken back whole and raised as ``OutputError``: the file ends on a
    complete line, ready to resume.

    An appender pickles as its path and reopens on its next write (a reward function that holds
    one can be sent to another process).
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle: Any = self._open()

    def _open(self) -> Any:
        return self.path.open("ab", buffering=0)  # unbuffered: nothing is left to flush after a failed write

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "_handle": None}

    def write(self, rows: list[dict[str, Any]]) -> None:
        if self._handle is None:
            self._handle = self._open()
        data = memoryview("".join(dumps(r) for r in rows).encode("utf-8", "backslashreplace"))
        fd = self._handle.fileno()
        before = os.lseek(fd, 0, os.SEEK_END)
        try:
            while data:
                data = data[os.write(fd, data) :]
            os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, before)  # no torn line left behind
            except OSError:
                pass
            raise OutputError(
                f"cannot write {self.path}: {exc.strerror or exc}; the rows written before this batch are kept "
                "(free the space and run the same command again to resume)"
            ) from None

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
