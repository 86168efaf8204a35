"""A bench script's ``--work`` folder: the script's own, never a folder of someone's files.

    claim_work(args, __file__, clear=True)  # before the run: refused (exit 2), or claimed and emptied

``bench/reliability.py --work ~/mywork`` removed every file in the folder and trained into it (hostile pass 57).
A script now marks the folder it makes with a file (``WORK_MARK``) that says "Written by `bench/x.py`", the words
``check_results`` knows the script's results pages by; an existing folder that holds files and no such mark is
someone else's, refused before anything runs or is removed. A marked folder is the script's, cleared by its
next run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from knowrl_io.job_output import argument_paths, written_by

WORK_MARK = "knowrl-work.txt"


def claim_work(args: argparse.Namespace, script: str, clear: bool = False, flag: str = "--work") -> Path:
    """Claim ``args.work`` for bench script ``script``: a new or empty folder is made and marked; a marked one is
    the script's (emptied but for its mark when ``clear``); anything else, or a folder that holds one of the run's
    inputs (an argument naming a path inside it), is refused with one line naming ``flag`` and exit 2."""
    work, name = Path(args.work), f"bench/{Path(script).stem}.py"
    problem = work_problem(work, script, argument_paths(args, ("work", "out", "md")), flag)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        raise SystemExit(2)
    try:
        work.mkdir(parents=True, exist_ok=True)
        for entry in os.scandir(work) if clear else ():
            if entry.name != WORK_MARK:
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
        mark = f"Written by `{name}`: its {flag} folder, emptied by its next run. Keep nothing else here.\n"
        (work / WORK_MARK).write_text(mark, encoding="utf-8")
    except OSError as exc:
        print(f"error: cannot {'clear' if clear else 'make'} {flag} {work}: {exc.strerror}", file=sys.stderr)
        raise SystemExit(2) from None
    return work


def work_problem(work: Path, script: str, inputs: list[Path], flag: str = "--work") -> str | None:
    """Why ``work`` is not ``script``'s to use, or None (see ``claim_work``)."""
    if work.exists() and not work.is_dir():
        return f"{flag} {work} is not a folder; give a new folder, or one an earlier run of this script made"
    if work.is_dir() and any(work.iterdir()):
        mark = work / WORK_MARK
        if not (mark.is_file() and written_by(mark, script)):
            return (
                f"{flag} {work} holds files without bench/{Path(script).stem}.py's {WORK_MARK} (a run before marks "
                f"were written leaves none: remove it if that run made it); choose a new or empty {flag}"
            )
    where = os.path.realpath(work)
    for path in inputs:
        if os.path.commonpath([where, os.path.realpath(path)]) == where:
            return (
                f"{flag} {work} holds the input {path} (the run writes and removes files there); choose another {flag}"
            )
    return None
