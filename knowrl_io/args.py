"""A command line's parser whose usage errors are one line, as the jobs' other errors are.

argparse prints its whole usage block before the error ("--max-error-share nan": five lines, hostile pass 45),
where the docs promise one line on stderr and exit 2; ``--help`` still shows the usage.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

EXIT_USAGE = 2  # a usage, config or input error: one line on stderr
EXIT_INTERRUPTED = 130  # what a shell reports for a command ended by Ctrl-C: every job exits so, saying what is kept


EXIT_TOO_MANY_ERRORS = 4  # more than --max-error-share of the rows failed (every row written): score, evaluate
MAX_ERROR_SHARE = 0.1  # --max-error-share's default: see docs/score-model-outputs.md


def share(text: str) -> float:
    """An argparse type: a share from 0 to 1 (``--max-error-share``); anything else is a one-line usage error."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a share from 0 to 1, got {text!r}")
    return value


def seconds(text: str) -> float:
    """An argparse type: a finite duration of zero seconds or more; "nan", "inf" or "-5" is a one-line usage error
    (hostile pass 63: ``ci_summary --install-s nan --total-s -5`` wrote "nan min" into the CI record, exit 0)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0.0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds, 0 or more, got {text!r}")
    return value


def interrupted(kept: str) -> int:
    """Say on stderr, on a line of its own, that the job was stopped and what it kept; return the exit status. The
    line opens with a newline: a progress bar cut off mid-line would otherwise swallow its start (pass 47's run:
    "Loading weightsinterrupted: ...")."""
    print(f"\ninterrupted: {kept}", file=sys.stderr)
    return EXIT_INTERRUPTED


class Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with one-line errors: "error: argument --x: ... (see --help)", exit 2.

    >>> import contextlib, io
    >>> parser = Parser(prog="job"); _ = parser.add_argument("--n", type=int)
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err), contextlib.suppress(SystemExit):
    ...     parser.parse_args(["--n", "x"])
    >>> err.getvalue()
    "job: error: argument --n: invalid int value: 'x' (see job --help)\\n"
    """

    def error(self, message: str) -> NoReturn:
        message = message.replace("\n", "\\n")  # a value holding a newline stays on the one line
        print(f"{self.prog}: error: {message} (see {self.prog} --help)", file=sys.stderr)
        sys.exit(2)
