"""A bench script's ``--work`` folder: the script's own, never a folder of someone's files.

    claim_work(args, __file__, clear=True)  # before the run: refused (exit 2), or claimed and emptied
    renew_inside(work, "claims", __file__)  # one subfolder emptied, only inside a folder the script marked

``bench/reliability.py --work ~/mywork`` removed every file in the folder and trained into it (hostile pass 57);
``bench/effect.py --workers 2`` cleared ``claims/`` of any ``--work`` (pass 59). A script marks the folder it makes
with a file (``WORK_MARK``) that says "Written by `bench/x.py`", the words ``check_results`` knows the script's
results pages by; an existing folder that holds files and no such mark is someone else's, refused before anything
runs or is removed. A folder an earlier run made before marks were written is refused too (its files cannot be told
from a user's): the one line says how to remove it (a script that empties it) or mark it (one that keeps pieces).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

from knowrl_io.atomic_write import write_atomically
from knowrl_io.job_output import MARK_BYTES, OutputError, argument_paths, read_head
from knowrl_io.paths import remove_path

WORK_MARK = "knowrl-work.txt"


def _mark_line(script: str) -> str:
    return f"Written by `bench/{Path(script).stem}.py`"


def marked(work: Path, script: str) -> bool:
    """Whether ``work`` carries ``script``'s mark (``claim_work`` made or claimed it): a ``WORK_MARK`` file whose
    first line opens with the mark's own words. A file of that name that only quotes the script's command (a
    user's note on how they ran it) is no mark: hostile pass 62 had it taken for one, and the folder emptied."""
    mark = Path(work) / WORK_MARK
    try:
        head = read_head(mark, MARK_BYTES, flag="--work", why="whether it is the script's mark")
    except OutputError:
        return False
    return head.split(b"\n", 1)[0].startswith(_mark_line(script).encode())


def claim_work(args: argparse.Namespace, script: str, clear: bool = False, flag: str = "--work") -> Path:
    """Claim ``args.work`` for bench script ``script``: a new or empty folder is made and marked; a marked one is
    the script's (emptied but for its mark when ``clear``); anything else, or a folder that holds one of the run's
    inputs (an argument naming a path inside it), is refused with one line naming ``flag`` and exit 2."""
    work = Path(args.work)
    problem = work_problem(work, script, argument_paths(args, ("work", "out", "md")), flag, clear)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        raise SystemExit(2)
    try:
        work.mkdir(parents=True, exist_ok=True)
        for entry in os.scandir(work) if clear else ():
            if entry.name != WORK_MARK:
                remove_path(Path(entry.path))
        if not marked(work, script):  # written whole, once: a worker reading it meanwhile never sees it empty
            note = "emptied by its next run" if clear else "what it holds is rewritten or removed by its runs"
            text = f"{_mark_line(script)}: its {flag} folder, {note}. Keep nothing else here.\n"
            write_atomically(work / WORK_MARK, text.encode(), follow_link=False)  # a link there is replaced
    except OSError as exc:
        print(f"error: cannot {'clear' if clear else 'make'} {flag} {work}: {exc.strerror}", file=sys.stderr)
        raise SystemExit(2) from None
    return work


def renew_inside(work: Path, name: str, script: str, flag: str = "--work") -> Path:
    """``work/name`` removed and made again empty, only where ``work`` carries ``script``'s mark (else one line
    naming ``flag`` and exit 2): the one place a script clears a subfolder of a folder it keeps."""
    if not marked(work, script):
        print(
            f"error: {flag} {work} is not bench/{Path(script).stem}.py's (no {WORK_MARK}): not clearing {name}/",
            file=sys.stderr,
        )
        raise SystemExit(2)
    inside = Path(work) / name
    try:
        if inside.exists() or inside.is_symlink():
            remove_path(inside)
        inside.mkdir()
    except OSError as exc:
        print(f"error: cannot clear {flag} {inside}: {exc.strerror}", file=sys.stderr)
        raise SystemExit(2) from None
    return inside


def work_problem(work: Path, script: str, inputs: list[Path], flag: str = "--work", clear: bool = False) -> str | None:
    """Why ``work`` is not ``script``'s to use, or None (see ``claim_work``). A folder an earlier run made before
    marks existed is refused like any other: the line names what to do (``rm -r`` it where the script empties it
    anyway; where it keeps pieces, the command that writes the mark)."""
    name = f"bench/{Path(script).stem}.py"
    if work.exists() and not work.is_dir():
        return f"{flag} {work} is not a folder; give a new folder, or one an earlier run of {name} made"
    if work.is_dir() and any(work.iterdir()) and not marked(work, script):
        quoted = shlex.quote(str(work))
        if clear:
            fix = f"remove it by hand (rm -r {quoted}; the run would empty it anyway)"
        else:
            mark = shlex.quote(str(work / WORK_MARK))
            keeps = "its runs then reuse or replace what it holds"
            fix = f"mark it as {name}'s ({keeps}): echo '{_mark_line(script)}' > {mark}"
        return (
            f"{flag} {work} holds files without {name}'s {WORK_MARK}; if an earlier run of {name} made it "
            f"(runs before marks left none), {fix}; else choose a new or empty {flag}"
        )
    where = os.path.realpath(work)
    for path in inputs:
        if os.path.commonpath([where, os.path.realpath(path)]) == where:
            return (
                f"{flag} {work} holds the input {path} (the run writes and removes files there); choose another {flag}"
            )
    return None
