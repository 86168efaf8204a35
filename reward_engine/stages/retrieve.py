"""Retrieval: evidence per claim from the knowledge base, titles first (FActScore style)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from typing import Any, Sequence

from reward_engine.judge.cache import JudgeCache
from reward_engine.stages.prompts import EvidencePassage


class EvidenceRetriever:
    """Evidence per claim from the KB: the row's titles first, global hybrid search otherwise.

    A completion's claims are embedded in one batch and searched in the default executor
    (embedding, FAISS and FTS5 are CPU work, never on the loop). Results are memoised in
    memory and, with a cache, on disk keyed by the KB's checksum, so a warmed or repeated
    run does not search again and a rebuilt KB never serves stale evidence.
    """

    def __init__(self, kb: Any, k: int = 5, mode: str = "hybrid", cache: JudgeCache | None = None,
                 memo_size: int = 10_000) -> None:
        self.kb = kb
        self.k = k
        self.mode = mode
        self.cache = cache
        if mode not in getattr(kb, "modes", (mode,)):
            raise ValueError(f"factuality.retrieval_mode {mode!r}: {getattr(kb, 'db_path', 'the KB')} has no dense "
                             "index (built with --no-dense); use retrieval_mode 'bm25' or build the index")
        self._kb_version = getattr(kb, "version", None) or str(getattr(kb, "db_path", ""))
        self._memo: dict[tuple[str, str], list[EvidencePassage]] = {}
        self._memo_size = memo_size
        self._lock = threading.Lock()
        self._inflight: dict[tuple[str, str], asyncio.Future] = {}
        self.searches = 0

    def _key(self, claim: str, titles: str) -> str:
        payload = json.dumps(["evidence-v1", self._kb_version, self.k, self.mode, claim, titles])
        return hashlib.sha256(payload.encode()).hexdigest()

    def _lookup(self, claim: str, titles: str) -> list[EvidencePassage] | None:
        hit = self._memo.get((claim, titles))
        if hit is None and self.cache is not None:
            stored = self.cache.get(self._key(claim, titles))
            if stored is not None:
                hit = [EvidencePassage(*p) for p in stored]
                self._remember(claim, titles, hit)
        return hit

    def _remember(self, claim: str, titles: str, passages: list[EvidencePassage]) -> None:
        with self._lock:
            if len(self._memo) >= self._memo_size:
                self._memo.pop(next(iter(self._memo)))
            self._memo[(claim, titles)] = passages

    @staticmethod
    def _pool_key(query: str, k: int) -> str:
        return f"\0pool-v1\0{k}\0{query}"  # a memo/cache slot of its own, never a claim's

    def cached_pool(self, query: str, titles: str, k: int) -> list[EvidencePassage] | None:
        """``pool``'s answer if it is cached, else None (no search)."""
        return self._lookup(self._pool_key(query, k), titles or "")

    async def pool(self, query: str, titles: str, k: int) -> list[EvidencePassage]:
        """Up to ``k`` passages of evidence for a whole completion (fused factuality): every passage of the row's
        titles when they hold at most ``k``, else the best ``k`` for ``query`` (within the titles, or global)."""
        titles = titles or ""
        key = self._pool_key(query, k)
        hit = self._lookup(key, titles)
        if hit is not None:
            return hit

        def find() -> list[EvidencePassage]:
            found = self.kb.title_passages(titles, k)
            if found is None:
                found = [h.passage for h in self.kb.search(query, titles=titles, k=k, mode=self.mode).hits]
                self.searches += 1
            passages = [EvidencePassage(p.id, p.title, p.text) for p in found]
            self._store(key, titles, passages)
            return passages

        return await asyncio.get_running_loop().run_in_executor(None, find)

    def _store(self, query: str, titles: str, passages: list[EvidencePassage]) -> None:
        """In memory now, and in the disk cache (keyed by the KB's checksum) when there is one."""
        self._remember(query, titles, passages)
        if self.cache is not None:
            self.cache.set(self._key(query, titles), [(p.id, p.title, p.text) for p in passages])

    def cached(self, claims: Sequence[str], titles: str) -> list[list[EvidencePassage]] | None:
        """Evidence for every claim if all of it is cached, else None (no search)."""
        found = [self._lookup(c, titles) for c in claims]
        return None if any(f is None for f in found) else found  # type: ignore[return-value]

    def _search(self, claims: Sequence[str], titles: str) -> list[list[EvidencePassage]]:
        out = [self._lookup(c, titles) for c in claims]
        todo = [i for i, found in enumerate(out) if found is None]
        if todo:
            vectors = (self.kb.encode_queries([claims[i] for i in todo]) if self.mode != "bm25"
                       else [None] * len(todo))
            for i, vector in zip(todo, vectors):
                result = self.kb.search(claims[i], titles=titles, k=self.k, mode=self.mode, query_vector=vector)
                passages = [EvidencePassage(h.passage.id, h.passage.title, h.passage.text) for h in result.hits]
                self.searches += 1
                self._store(claims[i], titles, passages)
                out[i] = passages
        return out  # type: ignore[return-value]

    async def retrieve(self, claims: Sequence[str], titles: str) -> list[list[EvidencePassage]]:
        """Evidence for each claim. A claim another completion is already searching is awaited, not searched
        again (in GRPO the generations of one prompt repeat many facts)."""
        titles = titles or ""
        if not claims:
            return []
        hit = self.cached(claims, titles)
        if hit is not None:
            return hit
        loop = asyncio.get_running_loop()
        mine: list[str] = []
        pending: dict[str, asyncio.Future] = {}
        known: dict[str, list[EvidencePassage]] = {}
        for claim in dict.fromkeys(claims):
            found = self._lookup(claim, titles)
            if found is not None:
                known[claim] = found
                continue
            future = self._inflight.get((claim, titles))
            if future is None:
                future = loop.create_future()
                self._inflight[(claim, titles)] = future
                mine.append(claim)
            pending[claim] = future
        if mine:
            try:
                found_all = await loop.run_in_executor(None, self._search, mine, titles)
            except BaseException as exc:
                for claim in mine:
                    future = self._inflight.pop((claim, titles))
                    if not future.done():
                        future.set_exception(exc) if isinstance(exc, Exception) else future.cancel()
                raise
            for claim, evidence in zip(mine, found_all):
                self._inflight.pop((claim, titles)).set_result(evidence)
        for claim, future in pending.items():
            known[claim] = await asyncio.shield(future)
        return [known[c] for c in claims]
