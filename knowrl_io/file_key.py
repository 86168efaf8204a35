"""A file's version by its stat, for the markers that spare reading it again (a KB's build input, an embedding
model's probe, an ONNX export, a boundary probe, a KB's content digest).

Size and mtime alone vouched for a same-size rewrite whose mtime was put back (``cp -p``, ``touch -r``: hostile pass
59). The inode (a replaced file is another one) and the ctime (set by the kernel on every write, rename or chmod;
no user can set it) are part of the key too.
"""

from __future__ import annotations

import os


def file_key(stat: os.stat_result) -> str:
    """``size:mtime_ns:inode:ctime_ns`` of a ``stat`` result."""
    return ":".join(str(part) for part in stat_fields(stat))


def stat_fields(stat: os.stat_result) -> tuple[int, int, int, int]:
    """``(size, mtime_ns, inode, ctime_ns)``: what ``file_key`` joins, for a record that keeps them as its own
    fields (``retrieval.build_stamp``'s stamp in a KB's meta)."""
    return (stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns)
