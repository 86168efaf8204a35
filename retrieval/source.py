"""What the reward engine asks of a knowledge source, and loading one a user names in the config.

``retrieval.kb.KnowledgeBase`` (SQLite, FTS5, FAISS) is the first implementation and
``retrieval.http_source.HttpSource`` (a search service over HTTP, e.g. ``python -m retrieval.serve`` or an
adapter in front of Elasticsearch / a vector DB) the second. Another is named by ``factuality.source:
"package.module:Factory"`` and built with ``factuality.source_options`` as keyword arguments (the reward config
resolves the options named as paths, ``path``, ``*_file`` ..., against its own folder first:
``reward_engine.config.source_option_paths``).
"""

from __future__ import annotations

import importlib
from typing import Any, Iterable, Protocol, Sequence, runtime_checkable

from retrieval.kb import Passage, SearchResult


@runtime_checkable
class KnowledgeSource(Protocol):
    """Search by title and globally; what evidence retrieval, warm and the inspector call."""

    @property
    def version(self) -> str | None:
        """Changes whenever the passages change: part of every evidence cache key (None: not cached across runs)."""

    @property
    def modes(self) -> tuple[str, ...]:
        """The search modes served ('bm25', 'dense', 'hybrid')."""

    def search(
        self,
        query: str,
        titles: str | Iterable[str] | None = None,
        k: int = 5,
        mode: str = "hybrid",
        query_vector: Any = None,
    ) -> SearchResult:
        """Top-``k`` passages for ``query``, within ``titles`` when any of them exists, else global."""

    def title_passages(self, titles: str | Iterable[str] | None, limit: int) -> list[Passage] | None:
        """Every passage of ``titles`` when there are 1 to ``limit`` of them, else None."""

    def encode_queries(self, queries: Sequence[str]) -> Sequence[Any]:
        """Query vectors for ``search(query_vector=...)``, or one None per query (the source embeds itself)."""

    def title_passage_ids(self, titles: Sequence[str]) -> tuple[list[int], list[str], list[str]]:
        """(passage ids of the titles, titles found, titles missing)."""

    def get_passages(self, ids: Sequence[int]) -> dict[int, Passage]:
        """Passages by id."""

    def close(self) -> None: ...


def load_source(spec: str, options: dict[str, Any] | None = None) -> KnowledgeSource:
    """``"package.module:Factory"`` called with ``options``; a clear error when it cannot be found or is not a
    knowledge source."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"factuality.source {spec!r}: write it as 'package.module:Factory'")
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"factuality.source {spec!r} cannot be loaded: {exc}") from None
    source = factory(**(options or {}))
    if not isinstance(source, KnowledgeSource):
        raise ValueError(f"factuality.source {spec!r} made a {type(source).__name__}, not a knowledge source")
    return source
