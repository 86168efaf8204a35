"""What a reward KB was built from: its input file's SHA-256 with the path, size, mtime, inode and ctime it had
when hashed, recorded by a training run's ``kb.build_from`` build and by ``retrieval.build --input`` alike (the CLI
build recorded none, so the next run built the KB again: hostile pass 60).

Every job start on every rank asked whether the file changed since the KB was built; hashing it each time read the
whole file (gigabytes for a real corpus) once per rank. The stat is compared first and the file hashed only when it
differs; an unchanged hash then just refreshes the stat. A stat recorded within ``SETTLE_NS`` of the file's mtime
is not trusted (an edit in the same clock tick keeps size and mtime: git's "racy" case), so that file is hashed again.
Size and mtime alone vouched for a same-size rewrite whose mtime was put back (``cp -p``, ``touch -r``: hostile pass
59); the inode and the ctime, which no user can set, are compared too. A stamp from before them (no inode) vouches
for nothing: its file is hashed once and stamped again, not rebuilt.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from knowrl_io.file_key import stat_fields
from retrieval.models import SETTLE_NS
from retrieval.schema import INPUT_STAMP_KEYS, connect, get_meta, set_meta

log = logging.getLogger(__name__)
KEY, LEGACY_KEY = INPUT_STAMP_KEYS  # the stamp; the hash alone, as KBs built before stamps recorded it


@dataclass(frozen=True)
class Stamp:
    """The input's content hash and the stat it was taken under (``checked_ns``: when it was hashed)."""

    sha256: str
    path: str
    size: int
    mtime_ns: int
    checked_ns: int
    ino: int = -1  # absent from stamps before hostile pass 59: never equal
    ctime_ns: int = -1

    def vouches_for(self, path: Path, stat: os.stat_result) -> bool:
        """The file is as it was when hashed: same path, size, mtime, inode and ctime, and the mtime was settled."""
        return (
            self.path == str(path)
            and (self.size, self.mtime_ns, self.ino, self.ctime_ns) == stat_fields(stat)
            and self.checked_ns - stat.st_mtime_ns >= SETTLE_NS
        )


def file_sha256(path: Path) -> str:
    """The file's content hash, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def take(path: Path) -> Stamp | None:
    """The file's stamp now (stat first: an edit while hashing changes the mtime, so the next check hashes again);
    None for a file that cannot be read (the build reports it)."""
    try:
        size, mtime_ns, ino, ctime_ns = stat_fields(path.stat())
        sha = file_sha256(path)
        return Stamp(sha, str(path), size, mtime_ns, time.time_ns(), ino, ctime_ns)
    except OSError:
        return None


def recorded(db: Path) -> tuple[str | None, Stamp | None]:
    """The hash the KB records for its input, and the stamp around it (None for a KB from before stamps, which
    recorded the hash alone, or for one built without ``kb.build_from``)."""
    conn = connect(db, readonly=True)
    try:
        meta = get_meta(conn)
    finally:
        conn.close()
    found = meta.get(KEY)
    if isinstance(found, dict):
        try:
            stamp = Stamp(**found)
            return stamp.sha256, stamp
        except TypeError:
            return None, None  # not ours: rebuilt as a KB that records nothing
    legacy = meta.get(LEGACY_KEY)
    return (legacy if isinstance(legacy, str) else None), None


def unchanged_by_stat(db: Path, source: Path) -> bool:
    """Whether the KB's recorded stamp vouches for ``source`` as it is now, without reading it."""
    _, stamp = recorded(db)
    try:
        return stamp is not None and stamp.vouches_for(source, source.stat())
    except OSError:
        return False


def unchanged(db: Path, source: Path) -> bool:
    """Whether ``source`` holds what the KB was built from: by stat, else by hash (a match refreshes the stamp, so
    the next job start reads the stat only; a KB from before stamps is hashed once and stamped, not rebuilt)."""
    sha, stamp = recorded(db)
    if sha is None:
        return False
    try:
        if stamp is not None and stamp.vouches_for(source, source.stat()):
            return True
    except OSError:
        return False
    now = take(source)
    if now is None or now.sha256 != sha:
        return False
    record(db, now)
    return True


def record(db: Path, stamp: Stamp) -> None:
    """Write ``stamp`` into the KB's meta (a read-only KB keeps its old one: hashed again next time)."""
    try:
        conn = connect(db)
    except ValueError:
        return
    try:
        with conn:
            set_meta(conn, KEY, asdict(stamp))
            conn.execute("DELETE FROM meta WHERE key = ?", (LEGACY_KEY,))
    except sqlite3.Error as exc:
        log.debug("%s: kb.build_from's stamp not refreshed (%s)", db, exc)
    finally:
        conn.close()
