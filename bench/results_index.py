"""The index of bench/results: what each file measures, the command that made it, when and at which commit.

    python bench/results_index.py      # -> bench/results/README.md

Read from each file's own title and command line, and from git (the last commit that changed the file), so the
index says only what the files and the history say.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
_COMMAND = re.compile(r"`((?:python|CUDA_VISIBLE_DEVICES=\S+ python)[^`]*)`")
_MADE_AT = re.compile(r"\bat commit ([0-9a-f]{7,40}(?:\+changes)?)|\bEngine: commit `([0-9a-f]{7})[0-9a-f]*`")


def made_at(path: Path) -> str:
    """The commit a results file says it measured (``bench/provenance.py`` writes it at the top), or ''."""
    if path.suffix != ".md":
        return ""
    head = "\n".join(path.read_text(encoding="utf-8").splitlines()[:25])
    found = _MADE_AT.search(head)
    return (found.group(1) or found.group(2)) if found else ""


def last_change(path: Path) -> tuple[str, str]:
    """(short commit, date) of the last commit that changed ``path``; ("uncommitted", "") when none has."""
    out = subprocess.run(
        ["git", "log", "-1", "--format=%h %cs", "--", str(path.relative_to(ROOT))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    ).stdout.split()
    return (out[0], out[1]) if len(out) == 2 else ("uncommitted", "")


def describe(path: Path) -> tuple[str, str]:
    """(title, command) of a results file: its first heading and the first ``python ...`` in its first lines."""
    if path.suffix != ".md":
        return ("a figure" if path.suffix == ".png" else "data") + " (see the .md of the same run)", ""
    head = path.read_text(encoding="utf-8").splitlines()[:12]
    title = next((line.lstrip("# ").strip() for line in head if line.startswith("#")), path.stem)
    command = next((m.group(1) for line in head for m in [_COMMAND.search(line)] if m), "")
    if not command:  # a command in a code block (conformance.md: install and checkout lines before it)
        command = next((line.strip() for line in head if line.startswith("python ")), "")
    return re.sub(r":\s*`[^`]*`", "", title), command


def index() -> str:
    lines = [
        "# bench/results",
        "",
        "Every results file, what it measures, the command at its top, the commit it says it measured (files"
        " regenerated since 2026-11-26 state it at their top; '+changes': the tree differed from that commit) and"
        " the last commit that changed the file (from git; made by `python bench/results_index.py`). Each number"
        " in these files is what that command gave on this project's 2-core CPU machine unless the file says"
        " otherwise (gpu.md: a lent GPU).",
        "",
        "| file | what it measures | command | measured at | last changed |",
        "|---|---|---|---|---|",
    ]
    for path in sorted(p for p in RESULTS.iterdir() if p.is_file() and p.name != "README.md"):
        title, command = describe(path)
        commit, date = last_change(path)
        shown = f"`{command}`" if command else ""
        measured = made_at(path) or "(not stated)"
        lines.append(f"| [{path.name}]({path.name}) | {title} | {shown} | {measured} | {date} {commit} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    (RESULTS / "README.md").write_text(index(), encoding="utf-8")
    print((RESULTS / "README.md").read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
