"""A file replaced whole or not at all, from a temporary file no one else can have opened.

    write_atomically(path, data)          # bytes
    with atomic_file(path) as handle:     # a writer that takes a handle (faiss.write_index)
        ...

The temporary file is created exclusively beside the target under an unpredictable name (``tempfile.mkstemp``),
fsynced, then renamed over it. A fixed ``NAME.tmp`` (or ``.NAME.PID``) was opened for writing wherever it pointed:
a link planted there had its target overwritten (hostile pass 59).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator


def through_link(path: Path) -> Path:
    """The file a symbolic link ``path`` names (``path`` itself otherwise): an output the user linked elsewhere is
    written there and the link kept, as a shell's ">" does (hostile pass 35: the rename replaced the link and the
    linked file was never written)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


@contextmanager
def atomic_file(path: Path, follow_link: bool = True) -> Iterator[IO[bytes]]:
    """A binary handle whose bytes replace ``path`` when the block ends without error (removed, and ``path`` left
    as it was, when it raises). ``follow_link``: a link at ``path`` is written through (``through_link``); False
    for a file the code owns in its own folder (a marker), where a link planted there is replaced, never followed."""
    path = through_link(Path(path)) if follow_link else Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name[:200] + ".", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; an output is as readable as any file the user makes
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def write_atomically(path: Path, data: bytes, follow_link: bool = True) -> None:
    """Replace ``path`` with ``data`` (see ``atomic_file``)."""
    with atomic_file(path, follow_link) as handle:
        handle.write(data)


@contextmanager
def folder_put_in_place(out: Path) -> Iterator[Path]:
    """A fresh empty folder beside ``out`` (``tempfile.mkdtemp``: no one else's name, no planted link) to save into;
    renamed to ``out`` when the block ends, or removed where another process put ``out`` there first (two DDP
    ranks converting one model: both wrote the same files). A fixed ``OUT.tmp-PID`` was written through a link
    planted there (the landing review of pass 63)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=out.name[:200] + ".", suffix=".tmp"))
    try:
        yield tmp
        tmp.chmod(0o777 & ~_umask())  # mkdtemp makes 0700; a model folder is as readable as any the user makes
        tmp.rename(out)
    except OSError:
        if not out.is_dir():
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
