"""Retrieved evidence on disk, keyed by the knowledge base's checksum (a rebuilt KB never serves
stale passages). Shares a directory with the judge cache by default, under keys of its own."""

from __future__ import annotations

import hashlib
import json

from retrieval.kb import Passage
from retrieval.version import search_version
from reward_engine.disk_cache import DiskCache
from reward_engine.judge.config import SharedCache
from reward_engine.shared_cache import RedisCache, expand_env


def evidence_key(kb_version: str, kind: str, k: int, mode: str, query: str, titles: str) -> str:
    """The key of one search: a claim's (``kind`` "claim"), a whole completion's pool ("pool") or a titles' every
    passage ("whole", query empty); keyed by the KB's content and the search code's version."""
    payload = json.dumps(
        ["evidence-v3", search_version(), kb_version, kind, k, mode, query, titles], ensure_ascii=False
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class EvidenceStore:
    """Passages by ``evidence_key``, stored as plain lists (readable whatever ``Passage`` becomes, and JSON
    for the shared cache); over a ``DiskCache`` or a ``RedisCache`` (their ``get`` and ``set``)."""

    async def apassages(self, key: str) -> list[Passage] | None:
        """The passages stored under ``key`` (``aget``: a shared cache reads Redis off the event loop)."""
        stored = await self.aget(key)  # type: ignore[attr-defined]
        return None if stored is None else [Passage(*p) for p in stored]

    def store(self, key: str, passages: list[Passage]) -> None:
        self.set(key, [(p.id, p.title, p.text) for p in passages])  # type: ignore[attr-defined]


class EvidenceCache(EvidenceStore, DiskCache):
    """Evidence on this node's disk."""


class SharedEvidenceCache(EvidenceStore, RedisCache):
    """Evidence in the shared Redis, this node's disk cache beside it."""


def evidence_cache(cache_dir: str | None, shared: SharedCache | None) -> EvidenceCache | SharedEvidenceCache | None:
    """The evidence cache the config names: none without a directory, shared when a Redis is named."""
    if not cache_dir:
        return None
    if shared is None:
        return EvidenceCache(cache_dir)
    return SharedEvidenceCache(expand_env(shared.url), DiskCache(cache_dir), "evidence", shared.ttl_s)
