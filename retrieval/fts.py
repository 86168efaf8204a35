"""BM25 over the passages' FTS5 index, with any user string made a safe query.

FTS5 gives meaning to quotes, AND/OR/NOT/NEAR, ``*``, ``:``, ``-``, ``^`` and
parentheses. We never pass user text through: it is cut into word tokens, each one
double-quoted (a quoted string is always a plain phrase), and OR-ed, so BM25 ranks
passages by how many of the words they share.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Sequence

_TOKEN = re.compile(r"\w+", re.UNICODE)
# Words that match most passages: dropping them keeps OR queries cheap on big KBs
# without changing which passages rank first.
STOPWORDS = frozenset(
    "a an and are as at be but by did do does for from had has have he her his how i in is it its "
    "of on or she that the their them they this to was were what when where which who whom whose "
    "why with you".split()
)
MAX_TERMS = 32


def to_match_query(text: str) -> str | None:
    """An FTS5 MATCH expression for ``text``, or None when it holds no searchable word.

    Every word is quoted, so FTS5 syntax in user text is just text:

    >>> to_match_query('Who wrote "NEAR" OR col:x*?')
    '"wrote" OR "near" OR "col" OR "x"'
    """
    words = [w.lower() for w in _TOKEN.findall(text or "")]
    kept = [w for w in words if w not in STOPWORDS] or words
    unique = list(dict.fromkeys(kept))[:MAX_TERMS]
    if not unique:
        return None
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in unique)


def _runs(ids: Sequence[int]) -> list[tuple[int, int]]:
    """Contiguous id ranges: a document's passages are inserted together, so a title is one run."""
    runs: list[tuple[int, int]] = []
    for i in sorted(set(int(x) for x in ids)):
        if runs and i == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


_SELECT = "SELECT rowid, -bm25(passages_fts, 0.5, 1.0) FROM passages_fts WHERE passages_fts MATCH ?"
_ORDER = " ORDER BY bm25(passages_fts, 0.5, 1.0) LIMIT ?"
MAX_RUNS = 8


def search(
    conn: sqlite3.Connection,
    query: str,
    k: int,
    ids: Sequence[int] | None = None,
) -> list[tuple[int, float]]:
    """Top-``k`` ``(passage id, bm25 score)``, higher is better; ``ids`` restricts the pool.

    bm25() is lower-is-better; the title column counts half as much as the text. A pool
    is searched as rowid ranges (FTS5 seeks them; an ``IN`` list makes it scan every match).
    """
    match = to_match_query(query)
    if match is None or k <= 0:
        return []
    if ids is None:
        return [(int(r), float(s)) for r, s in conn.execute(_SELECT + _ORDER, (match, int(k)))]
    if not ids:
        return []
    runs = _runs(ids)
    if len(runs) > MAX_RUNS:
        sql = _SELECT + f" AND rowid IN ({','.join('?' * len(ids))})" + _ORDER
        return [(int(r), float(s)) for r, s in conn.execute(sql, [match, *map(int, ids), int(k)])]
    scored: list[tuple[int, float]] = []
    for lo, hi in runs:
        rows = conn.execute(_SELECT + " AND rowid BETWEEN ? AND ?" + _ORDER, (match, lo, hi, hi - lo + 1))
        scored.extend((int(r), float(s)) for r, s in rows)
    scored.sort(key=lambda rs: -rs[1])
    return scored[:k]
