"""Which code a results file measured: the commit, marked when the working tree differed from it.

Each results file states this at its top (issue #47), beside the command that made it, so a reader can check
out exactly what was measured; ``bench/results_index.py`` lists it. The demo's report (knowrl.pipeline_report)
states it too, so it lives here, below every package.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def commit(root: Path = ROOT) -> str:
    """The short commit of ``root``, with '+changes' when tracked files differ from it; 'unknown' outside git."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            # a results file being rewritten by the run that measures is not a change to what it measured
            ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/results"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")
