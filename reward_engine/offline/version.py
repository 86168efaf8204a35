"""The reward code's version: a digest of the source that turns a completion into a reward, so a job's rows are
keyed to the code that scored them (hostile pass 7: an output scored before a grader fix resumed with its old
verdicts; pass 8: a fix in ``stages/claims.py`` was not in the digest either)."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from retrieval.version import search_version

# what decides a reward, relative to ``reward_engine/``: the offline rules, how an answer is read out, the reward
# rules and their arithmetic, the stages, the prompts and their parsers (a judge's reply is read by them), and how
# the offline verifier cuts evidence into sentences (``retrieval/text.py``: hostile pass 9)
# the engine, which sets the total and the statuses (hostile pass 12: an output scored by an older engine resumed)
_SCORING = ("offline/*.py", "rules/*.py", "stages/*.py", "prompts/*.py", "completion.py", "semantics.py",
            "stage_calls.py", "samples.py", "labels.py", "knowledge.py", "engine.py",
            "../retrieval/text.py")  # fmt: skip


@functools.cache
def rules_version() -> str:
    """16 hex digits over every module in ``_SCORING``, in path order: any change to a rule (or to its text) is
    another version."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(b"reward-code-v2\n")
    root = package.parent
    paths = sorted({p.resolve() for pattern in _SCORING for p in package.glob(pattern)})
    for path in paths:
        digest.update(path.relative_to(root).as_posix().encode() + b"\n" + path.read_bytes() + b"\n")
    digest.update(f"search {search_version()}\n".encode())  # what finds the evidence (hostile pass 12)
    return digest.hexdigest()[:16]
