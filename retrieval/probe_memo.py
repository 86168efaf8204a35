"""Which embedding-model folders were seen computing a dense index's probe, so a job's start check loads the model
only when its files changed.

Each job start on each rank loaded the sentence-transformers model to embed one sentence (``dense.check_model``).
A marker in the user cache now says "the folder with these files (``models.files_stamp``: path, sizes, mtimes,
inodes, ctimes) computes this probe", written by the build that embedded with it or by the check that loaded it.
Ranks sharing a cache take a lock: the first loads, the others then find its marker. A cache that cannot be written
only costs the load, as before. A marker names its folder and stamp, so writing one drops those that can never match
again (their folder gone or its files changed), then the oldest past ``MAX_MARKERS``: they were never pruned (hostile
pass 59).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from pathlib import Path
from typing import Iterator

from knowrl_io.atomic_write import write_atomically
from knowrl_io.paths import cache_dir
from retrieval.dense import probe_digest
from retrieval.models import files_stamp, resolve_model_path

MAX_MARKERS = 64  # one per (model files, probe) in use: a few; past this the oldest go (a model load each, at most)
LOCK_AGE_S = 3600  # a lock with no marker (a check that failed) this old is no load in progress


def _marker(stamp: str, probe: list[float]) -> Path:
    key = hashlib.sha256(f"{stamp}:{probe_digest(probe)}".encode()).hexdigest()[:32]
    return cache_dir() / "model-probes" / key


def vouched(stamp: str | None, probe: list[float] | None) -> bool:
    """Whether the model files of ``stamp`` were seen computing ``probe`` (within ``dense.PROBE_TOLERANCE``)."""
    return stamp is not None and probe is not None and _marker(stamp, probe).exists()


def vouch(stamp: str | None, probe: list[float] | None, model: str) -> None:
    """Record that the files of ``stamp`` (``model``'s folder) compute ``probe`` (nothing for a model without a
    stamp), after dropping the markers that can never match again (``prune``)."""
    if stamp is None or probe is None:
        return
    marker = _marker(stamp, probe)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        prune(marker.parent, keep=MAX_MARKERS - 1)
        said = json.dumps({"folder": resolve_model_path(model), "stamp": stamp})
        write_atomically(marker, said.encode("utf-8"), follow_link=False)
    except OSError:
        pass  # a read-only cache: the next check loads the model again


def prune(markers: Path, keep: int = MAX_MARKERS) -> None:
    """Remove from ``markers`` each marker whose folder is gone or whose files changed since (its stamp is not the
    folder's now: it never matches again; one from before markers named their folder likewise), then the oldest
    past ``keep``; with a marker its lock, and a lock with no marker older than ``LOCK_AGE_S``."""
    live: list[tuple[float, Path]] = []
    now = time.time()
    for path in markers.iterdir():
        try:
            if path.suffix == ".lock":
                if not path.with_suffix("").exists() and now - path.stat().st_mtime > LOCK_AGE_S:
                    path.unlink()
                continue
            # a marker before its rename (KEY.RANDOM.tmp; .KEY.PID before): another writer's, or one that died
            if path.suffix == ".tmp" or path.name.startswith("."):
                if now - path.stat().st_mtime > LOCK_AGE_S:
                    path.unlink()
                continue
            said = _named(path)
            if said is None or files_stamp(said[0]) != said[1]:
                _drop(path)
            else:
                live.append((path.stat().st_mtime, path))
        except OSError:
            continue  # removed by another process meanwhile
    live.sort()
    for _, path in live[: max(0, len(live) - keep)]:
        _drop(path)


def _named(marker: Path) -> tuple[str, str] | None:
    """(folder, stamp) a marker names, or None for one that names none (written before they did)."""
    try:
        said = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(said, dict) and isinstance(said.get("folder"), str) and isinstance(said.get("stamp"), str):
        return said["folder"], said["stamp"]
    return None


def _drop(marker: Path) -> None:
    for path in (marker, marker.with_name(marker.name + ".lock")):
        with contextlib.suppress(OSError):
            path.unlink()


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
