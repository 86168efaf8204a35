"""Per-user cache locations (the demo KB, converted models), overridable by environment; what an input path is."""

from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path


def cache_dir() -> Path:
    """``$KNOWRL_CACHE_DIR``, else ``$XDG_CACHE_HOME/knowrl``, else ``~/.cache/knowrl``."""
    explicit = os.environ.get("KNOWRL_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "knowrl"


def demo_kb_path() -> Path:
    return cache_dir() / "kb" / "demo.db"


def input_problem(path: Path, flag: str = "--input", stdin: bool = True) -> str | None:
    """Why ``path`` cannot be read as an input file, naming ``flag``; None when it can. A pipe (``<(cmd)`` is
    ``/dev/fd/N``) or a FIFO is read like a file (``Path.is_file`` is False for it, which made the jobs call it
    "not found"); a directory says so. ``-`` is standard input where the job reads it (``stdin``)."""
    if str(path) == "-":
        return None if stdin else f"{flag} -: this job does not read standard input; give a file or <(command)"
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return f"{flag} {path}: file not found"
    except OSError as exc:
        return f"{flag} {path}: cannot be read ({exc.strerror})"
    if stat.S_ISDIR(info.st_mode):
        return f"{flag} {path} is a directory, not an input file"
    if not (stat.S_ISREG(info.st_mode) or stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode)):
        return f"{flag} {path} is not a file, a pipe or a terminal"
    if not os.access(path, os.R_OK):
        return f"{flag} {path}: cannot be read (permission denied)"
    return None


def is_pipe(path: Path) -> bool:
    """Whether ``path`` is read once only (standard input, a pipe, a FIFO, a terminal): a job that must read its
    input twice, or tell a rerun's input from the last one's by its path, cannot take it."""
    if str(path) == "-":
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


_LEFT_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


def expand_path(value: str) -> str:
    """``value`` with ``~`` and environment variables (``$VAR``, ``${VAR}``) expanded, as a shell would; a
    variable that is not set is a ``ValueError`` naming it (hostile pass 65: ``output_dir: ${UNSET}/runs`` and
    ``~/runs`` were folders named "${UNSET}" and "~" in the working folder).

    >>> expand_path("~/runs").startswith("/")
    True
    >>> expand_path("runs/$KNOWRL_NO_SUCH_TEST_VAR_")
    Traceback (most recent call last):
    ValueError: runs/$KNOWRL_NO_SUCH_TEST_VAR_: $KNOWRL_NO_SUCH_TEST_VAR_ is not set
    """
    if "KNOWRL_CACHE_DIR" in value and not os.environ.get("KNOWRL_CACHE_DIR"):  # unset: the user cache, as caches do
        value = re.sub(r"\$\{KNOWRL_CACHE_DIR\}|\$KNOWRL_CACHE_DIR\b", lambda _: str(cache_dir()), value)
    expanded = os.path.expandvars(os.path.expanduser(value))
    left = _LEFT_VARIABLE.search(expanded)
    if left:
        raise ValueError(f"{value}: ${left[1] or left[2]} is not set")
    return expanded


def remove_path(path: Path) -> None:
    """A folder with what it holds, or a file or link (a link's target is never followed)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        os.unlink(path)
