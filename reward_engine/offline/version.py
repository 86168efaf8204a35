"""The offline rules' version: a digest of this package's source, so a job's rows are keyed to the rules that
scored them (hostile pass 7: an output scored before a grader fix resumed with its old verdicts)."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path


@functools.cache
def rules_version() -> str:
    """16 hex digits over every module of ``reward_engine.offline``, in name order, and ``completion`` (which
    reads the answer out): any change to a rule (or to its text) is another version."""
    digest = hashlib.sha256(b"offline-rules-v1\n")
    here = Path(__file__).parent
    for path in [*sorted(here.glob("*.py")), here.parent / "completion.py"]:  # how an answer is read out, too
        digest.update(path.name.encode() + b"\n" + path.read_bytes() + b"\n")
    return digest.hexdigest()[:16]
