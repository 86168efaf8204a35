"""Where each scored row sits in a job's output file: read by resume and by the moved-input check, so it depends on
nothing that writes outputs (jsonl and job_output both import it)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Span:
    """Where one output row sits in its file, and the digest of the input row it scored."""

    offset: int
    length: int
    digest: str = ""


def index_rows(path: Path, keep: set[str] | None) -> dict[int, Span]:
    """Where each input line's row sits in an output file, with the digest of the input row it scored: the
    last row per line whose status is in ``keep`` (None: any status). Rows are parsed one at a time and dropped,
    so a large file costs a few integers per row, never the rows themselves; a torn last line is skipped."""
    index: dict[int, Span] = {}
    if not path.exists():
        return index
    offset = 0
    with path.open("rb") as handle:
        for raw in handle:
            try:
                row = json.loads(raw)
            except (ValueError, RecursionError):
                row = None
            if (
                isinstance(row, dict)
                and isinstance(row.get("line"), int)
                and (keep is None or row.get("status") in keep)
                and raw.endswith(b"\n")
            ):
                found = row.get("input_digest")
                index[row["line"]] = Span(offset, len(raw), found if isinstance(found, str) else "")
            offset += len(raw)
    return index
