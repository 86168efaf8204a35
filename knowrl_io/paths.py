"""Per-user cache locations (the demo KB, converted models); overridable by environment."""

from __future__ import annotations

import os
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
