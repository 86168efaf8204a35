"""The grader's verdicts, SimpleQA style."""

from __future__ import annotations

from enum import Enum


class Label(str, Enum):
    CORRECT = "CORRECT"
    INCORRECT = "INCORRECT"
    NOT_ATTEMPTED = "NOT_ATTEMPTED"
    UNPARSEABLE = "UNPARSEABLE"  # the LLM grader answered something we cannot read


class Verdict(str, Enum):
    """A claim against its evidence; CONTRADICTED is what Binary RAR's reward counts."""

    SUPPORTED = "SUPPORTED"
    CONTRADICTED = "CONTRADICTED"
    NOT_ENOUGH = "NOT_ENOUGH_EVIDENCE"


class Status(str, Enum):
    """How a reward was obtained; anything but ok/cached means the value may be None."""

    OK = "ok"
    CACHED = "cached"
    TIMEOUT = "timeout"
    ERROR = "error"
    BREAKER_OPEN = "breaker_open"
    BAD_INPUT = "bad_input"
