"""Which knowledge base the factuality stage reads, and opening it (path policy in one place)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from knowrl_io.file_key import file_key
from knowrl_io.paths import demo_kb_path


def kb_path(kb_path_setting: str | None) -> Path | None:
    """``factuality.kb_path`` as a file: ``demo`` is the offline demo KB in the user cache."""
    if not kb_path_setting:
        return None
    return demo_kb_path() if kb_path_setting == "demo" else Path(kb_path_setting)


def report_missing_kb(kb_path_setting: str | None, enabled: bool = True) -> bool:
    """For CLIs: print one line and return True when factuality needs a KB file that is not there (a
    missing KB is one line before a job starts, not an error on every row later)."""
    path = kb_path(kb_path_setting) if enabled else None
    if path is None or path.is_file():
        return False
    fix = "python -m retrieval.build --preset demo" if kb_path_setting == "demo" else "check factuality.kb_path"
    print(f"error: factuality.kb_path: knowledge base {path} not found ({fix})", file=sys.stderr)
    return True


def report_unusable_factuality(config: Any) -> bool:
    """For CLIs: one line and True when factuality's KB is missing or its evidence cache directory cannot be
    opened (found lazily, each would be an ``error`` on every row with exit 0)."""
    fc = config.factuality
    reads_kb = fc.enabled or getattr(config, "grader_aliases", "off") == "kb"  # aliases read the gold's page
    if fc.source is None and report_missing_kb(fc.kb_path, reads_kb):
        return True
    if not (fc.enabled and fc.cache_dir):
        return False
    from reward_engine.disk_cache import CacheError, DiskCache

    try:
        DiskCache(fc.cache_dir).close()
    except CacheError as exc:
        print(f"error: factuality.cache_dir: {exc}", file=sys.stderr)
        return True
    return False


def source_files_key(options: dict[str, Any]) -> str | None:
    """A digest of the stats (``knowrl_io.file_key``) of the files a custom source's options name
    (``source_options.source_option_files``; one that is not there counts as such), or None when they name none: part of
    the job's knowledge version and of the evidence cache's key, beside the source's own version."""
    from reward_engine.source_options import source_option_files

    paths = source_option_files(options)
    if not paths:
        return None
    keys = []
    for path in paths:
        try:
            keys.append(file_key(path.stat()))
        except (OSError, ValueError):  # not there, a NUL in the name: a state of its own
            keys.append("absent")
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()[:16]


def open_source(factuality: Any) -> Any:
    """The knowledge source a factuality config names: ``source`` when set, else the KB at ``kb_path``."""
    if factuality.source:
        from retrieval.source import load_source

        return load_source(factuality.source, factuality.source_options)
    return open_kb(factuality.kb_path)


def open_kb(kb_path_setting: str | None) -> Any:
    """The ``retrieval.KnowledgeBase`` (loads the embedding model); a clear error when it is missing."""
    from retrieval.kb import KnowledgeBase

    path = kb_path(kb_path_setting)
    if path is None:
        raise ValueError("factuality needs factuality.kb_path")
    if kb_path_setting == "demo" and not path.exists():
        raise FileNotFoundError("the demo KB is not built yet: python -m retrieval.build --preset demo")
    return KnowledgeBase(str(path))
