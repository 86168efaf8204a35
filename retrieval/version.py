"""The search code's version: a digest of the modules that decide what a query returns, so cached evidence is
keyed to the code that found it (hostile pass 10: a cache filled before a ranking fix kept serving the old
passages to a job run after it)."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

# what turns a query into passages: the FTS5 query, the dense index and its encoder, their fusion, the KB's reads
_SEARCH = ("fts.py", "dense.py", "fusion.py", "search.py", "kb.py", "embedder.py", "onnx_encoder.py", "text.py",
           "models.py", "source.py", "http_source.py")  # fmt: skip


@functools.cache
def search_version() -> str:
    """This package's ``code_digest``, read once per process."""
    return code_digest(Path(__file__).resolve().parent)


def code_digest(package: Path) -> str:
    """16 hex digits over the modules in ``_SEARCH`` of ``package``, in that order: any change to one is another
    version."""
    digest = hashlib.sha256(b"search-code-v1\n")
    for name in _SEARCH:
        digest.update(name.encode() + b"\n" + (package / name).read_bytes() + b"\n")
    return digest.hexdigest()[:16]
