"""Line-numbered JSONL input and crash-safe, resumable JSONL output for the standalone jobs."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from knowrl_io.records import iter_records


@dataclass
class Row:
    line: int
    data: dict[str, Any] | None  # None: the line is bad
    error: str | None = None


def read_rows(
    path: Path, required: dict[str, tuple[type, ...]], optional: dict[str, tuple[type, ...]]
) -> Iterator[Row]:
    """Every record of a JSONL file or JSON array; a bad one carries an error naming its line and field."""
    for record in iter_records(path):
        if record.error is not None:
            yield Row(record.line, None, f"{path}:{record.line}: {record.error}")
        elif not isinstance(record.value, dict):
            yield Row(record.line, None, f"{path}:{record.line}: expected an object, got {type(record.value).__name__}")
        else:
            problem = _check(record.value, required, optional)
            yield Row(
                record.line,
                record.value if problem is None else None,
                f"{path}:{record.line}: {problem}" if problem else None,
            )


def _check(
    data: dict[str, Any], required: dict[str, tuple[type, ...]], optional: dict[str, tuple[type, ...]]
) -> str | None:
    for name, types in required.items():
        if name not in data:
            return f"field '{name}' missing"
        if not isinstance(data[name], types):
            return f"field '{name}' must be {' or '.join(t.__name__ for t in types)}, got {type(data[name]).__name__}"
        if isinstance(data[name], str) and not data[name].strip():
            return f"field '{name}' is empty"
    for name, types in optional.items():
        if data.get(name) is not None and not isinstance(data[name], types):
            return f"field '{name}' must be {' or '.join(t.__name__ for t in types)}, got {type(data[name]).__name__}"
    return None


def index_rows(path: Path, keep: set[str]) -> dict[int, tuple[int, int]]:
    """Where each input line's row sits in an output file: ``{line: (offset, length)}``, the last row per
    line whose status is in ``keep``. Rows are parsed one at a time and dropped, so a 20,000-row file
    costs a few integers per row, never the rows themselves; a torn last line is skipped."""
    index: dict[int, tuple[int, int]] = {}
    if not path.exists():
        return index
    offset = 0
    with path.open("rb") as handle:
        for raw in handle:
            try:
                row = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                row = None
            if (
                isinstance(row, dict)
                and isinstance(row.get("line"), int)
                and row.get("status") in keep
                and raw.endswith(b"\n")
            ):
                index[row["line"]] = (offset, len(raw))
            offset += len(raw)
    return index


def rewrite_indexed(path: Path, index: dict[int, tuple[int, int]]) -> None:
    """Atomically replace ``path`` with the indexed rows in line order, copying their bytes one at a time."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as out:
        if path.exists():
            with path.open("rb") as src:
                for line in sorted(index):
                    offset, length = index[line]
                    src.seek(offset)
                    out.write(src.read(length))
        out.flush()
        os.fsync(out.fileno())
    tmp.replace(path)


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
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    tmp.replace(path)


class Appender:
    """Appends whole lines and fsyncs each batch, so a kill loses at most the batch in flight.

    An appender pickles as its path and reopens on its next write (a reward function that holds
    one can be sent to another process).
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle: Any = self.path.open("a", encoding="utf-8")

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "_handle": None}

    def write(self, rows: list[dict[str, Any]]) -> None:
        if self._handle is None:
            self._handle = self.path.open("a", encoding="utf-8")
        self._handle.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
