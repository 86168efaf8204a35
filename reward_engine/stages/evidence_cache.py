"""Retrieved evidence on disk, keyed by the knowledge base's checksum (a rebuilt KB never serves
stale passages). Shares a directory with the judge cache by default, under keys of its own."""

from __future__ import annotations

import hashlib
import json

from retrieval.kb import Passage
from reward_engine.disk_cache import DiskCache


def evidence_key(kb_version: str, kind: str, k: int, mode: str, query: str, titles: str) -> str:
    """The key of one search: a claim's (``kind`` "claim") or a whole completion's pool ("pool")."""
    payload = json.dumps(["evidence-v2", kb_version, kind, k, mode, query, titles], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class EvidenceCache(DiskCache):
    """Passages by ``evidence_key``, stored as plain tuples (readable whatever ``Passage`` becomes)."""

    def passages(self, key: str) -> list[Passage] | None:
        stored = self.get(key)
        return None if stored is None else [Passage(*p) for p in stored]

    def store(self, key: str, passages: list[Passage]) -> None:
        self.set(key, [(p.id, p.title, p.text) for p in passages])
