"""One knowrl run per ``output_dir`` at a time: a lock held from the claim of the folder to the job's end, so a
second launch into a running run's folder (a resubmitted job script, ``--overwrite`` or not) is refused before it
removes or writes anything (hostile pass 65: ``--overwrite`` emptied the running run's folder and trained into it).

The lock file lives in the user cache (``KNOWRL_CACHE_DIR/run-locks``), keyed on the folder's real path: nothing is
written in or beside ``output_dir`` before the run's first write, and two spellings of one folder share one lock.
The operating system releases it when the process ends, however it ends. Only the first process of a launch
(``RANK`` 0) takes it: the other ranks share their launch's folder.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from filelock import BaseFileLock, FileLock, Timeout

from knowrl.config import ConfigError
from knowrl_io.paths import cache_dir


def hold_output_dir(out: Path) -> BaseFileLock | None:
    """The lock of ``out`` for this process (keep it referenced for the run's length: dropped, it is released);
    ``ConfigError`` while another run holds it; None on ranks other than 0."""
    if int(os.environ.get("RANK", "0") or 0) != 0:
        return None
    folder = cache_dir() / "run-locks"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot make the run-lock folder {folder}: {exc.strerror}") from None
    key = hashlib.sha256(str(Path(out).resolve()).encode()).hexdigest()[:32]
    lock = FileLock(str(folder / f"{key}.lock"), timeout=0, is_singleton=True)
    try:
        lock.acquire()
    except Timeout:
        raise ConfigError(
            f"output_dir {out} is in use: another knowrl run is writing it now; wait for it to end, or choose "
            "another output_dir"
        ) from None
    return lock
