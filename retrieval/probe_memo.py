"""Which embedding-model folders were seen computing a dense index's probe, so a job's start check loads the model
only when its files changed.

Each job start on each rank loaded the sentence-transformers model to embed one sentence (``dense.check_model``).
A marker in the user cache now says "the folder with these files (``models.files_stamp``: path, sizes, mtimes,
inodes, ctimes) computes this probe", written by the build that embedded with it or by the check that loaded it.
Ranks sharing a cache take a lock: the first loads, the others then find its marker. A cache that cannot be written
only costs the load, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path
from typing import Iterator

from knowrl_io.paths import cache_dir
from retrieval.dense import probe_digest


def _marker(stamp: str, probe: list[float]) -> Path:
    key = hashlib.sha256(f"{stamp}:{probe_digest(probe)}".encode()).hexdigest()[:32]
    return cache_dir() / "model-probes" / key


def vouched(stamp: str | None, probe: list[float] | None) -> bool:
    """Whether the model files of ``stamp`` were seen computing ``probe`` (within ``dense.PROBE_TOLERANCE``)."""
    return stamp is not None and probe is not None and _marker(stamp, probe).exists()


def vouch(stamp: str | None, probe: list[float] | None) -> None:
    """Record that the files of ``stamp`` compute ``probe`` (nothing for a model without a stamp)."""
    if stamp is None or probe is None:
        return
    marker = _marker(stamp, probe)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # a read-only cache: the next check loads the model again


@contextlib.contextmanager
def one_at_a_time(stamp: str | None, probe: list[float]) -> Iterator[None]:
    """Held by one process at a time per (files, probe): DDP ranks wait for the one that loads the model, then find
    its marker. Without a stamp or a writable cache there is nothing to wait for."""
    if stamp is None:
        yield
        return
    from filelock import FileLock

    marker = _marker(stamp, probe)
    lock: FileLock | None = None
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(marker) + ".lock")
        lock.acquire()
    except OSError:
        lock = None
    try:
        yield
    finally:
        if lock is not None:
            lock.release()
