"""Whether a row's gold answers can be graded against at all: checked before any grader sees an answer, so a
broken row is refused (status ``bad_input``), never paid as if its answer were wrong."""

from __future__ import annotations

from typing import Any

from reward_engine.offline.grader import gold_aliases

MAX_ALIASES = 256  # gold aliases per row; 100,000 took 116 s to grade one answer


def gold_problem(answers: Any) -> str | None:
    """Why ``answers`` cannot be graded against (a bad row), or None: empty or separator-only golds, or more
    aliases than any real question has (``MAX_ALIASES``; each costs grading time).

    >>> gold_problem("Paris"), gold_problem(" ; | ")
    (None, 'no gold answer to grade against (answers empty or only separators)')
    """
    aliases = gold_aliases(answers)
    if not aliases:
        return "no gold answer to grade against (answers empty or only separators)"
    if len(aliases) > MAX_ALIASES:
        return f"{len(aliases)} gold aliases (more than {MAX_ALIASES})"
    return None
