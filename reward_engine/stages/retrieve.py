"""Retrieval: evidence per claim from the knowledge base, titles first (FActScore style)."""

from __future__ import annotations

import asyncio
import copy
import logging
import threading
from typing import Sequence

from retrieval.kb import Passage
from retrieval.source import KnowledgeSource
from reward_engine.judge.errors import NotCachedError
from reward_engine.stages.evidence_cache import EvidenceStore, evidence_key

log = logging.getLogger(__name__)

# (kind, k, query, titles): one search, a claim's or a completion's pool
SearchKey = tuple[str, int, str, str]


def unserved_mode(kb: KnowledgeSource, mode: str, modes: Sequence[str]) -> str:
    """Why ``kb`` cannot retrieve in ``mode``: the modes it serves and the configured one, whatever the source (a
    custom source, an interrupted build or a --no-dense one); a KB file is named with the build that adds its dense
    index. ``job.check_knowledge`` says the same before the first row; this is the per-row fallback.

    >>> class Bm25Only:
    ...     modes = ("bm25",)
    >>> message = unserved_mode(Bm25Only(), "hybrid", ("bm25",))
    >>> message.startswith("factuality.retrieval_mode 'hybrid': the knowledge source Bm25Only serves only ['bm25']")
    True
    """
    db = getattr(kb, "db_path", None)
    what = f"the knowledge base {db}" if db else f"the knowledge source {type(kb).__name__}"
    fix = f", or add the KB's dense index: python -m retrieval.build --from-db {db}" if db else ""
    return (
        f"factuality.retrieval_mode {mode!r}: {what} serves only {list(modes)}; set factuality.retrieval_mode to "
        f"one of them{fix}"
    )


class EvidenceRetriever:
    """Evidence per claim from the KB: the row's titles first, global hybrid search otherwise.

    A completion's claims are embedded in one batch and searched in the default executor
    (embedding, FAISS and FTS5 are CPU work, never on the loop). Results are memoised in
    memory and, with a cache, on disk keyed by the KB's checksum, so a warmed or repeated
    run does not search again and a rebuilt KB never serves stale evidence (a source with no version is memoised
    only: nothing would tell its corpora apart on disk). A cache-only
    view (``cache_only()``, for dry runs) answers from those and raises ``NotCachedError``
    instead of searching.
    """

    def __init__(
        self,
        kb: KnowledgeSource,
        k: int = 5,
        mode: str = "hybrid",
        cache: EvidenceStore | None = None,
        memo_size: int = 10_000,
        scope: str = "",
    ) -> None:
        self.kb = kb
        self.k = k
        self.mode = mode
        self.cache = cache
        self.scope = scope  # beside the version in the disk key: the stats of a custom source's files
        modes = tuple(getattr(kb, "modes", (mode,)))
        if mode not in modes:
            raise ValueError(unserved_mode(kb, mode, modes))
        # the evidence cache's key: what the KB's text is (an UPDATE in place keeps every passage id: pass 9)
        self._kb_content = getattr(kb, "content_version", None)  # re-read each step: a rebuild under a server
        # None: a source that does not say what it holds (``KnowledgeSource.version``) is never cached on disk: keyed
        # by nothing, two corpora shared their evidence (hostile pass 60); a path or the options are no content
        self._kb_version: str | None = self._kb_content or getattr(kb, "version", None)
        if self._kb_version is None and cache is not None:
            log.warning(
                "the knowledge source %s gives no version: its evidence is searched each run, never kept in "
                "factuality.cache_dir (give the source a version that changes with its passages to cache it)",
                type(kb).__name__,
            )
        self._memo: dict[SearchKey, list[Passage]] = {}
        self._memo_size = memo_size
        self._lock = threading.Lock()
        self._inflight: dict[tuple[str, str], asyncio.Future] = {}  # (claim, titles) -> its batch's search
        self._wholes: dict[SearchKey, asyncio.Future] = {}  # a titles' passages being looked up
        self._searching = True
        self.searches = 0

    async def refresh(self) -> bool:
        """Forget what was looked up when the KB's content changed since (rebuilt under a running engine: hostile
        pass 8's S04 cited a passage the new KB no longer holds). A stat of the file per call, or an ``info``
        request to a knowledge server (up to 2 s), asked on a worker thread so the event loop (and a reward
        server's other requests) never waits on it; the disk cache is keyed by the new content from then on. True
        when it changed."""
        content = await asyncio.to_thread(getattr, self.kb, "content_version", None)
        if content == self._kb_content:
            return False
        log.warning("the knowledge base changed under a running engine: evidence is looked up again")
        reopen = getattr(self.kb, "reopen", None)
        if callable(reopen):
            reopen()  # a file moved over the path: read the new one
        with self._lock:
            self._memo.clear()
        self._wholes.clear()
        self._kb_content = self._kb_version = content
        return True

    def cache_only(self) -> "EvidenceRetriever":
        """A view sharing this retriever's memo and cache that never searches."""
        view = copy.copy(self)
        view._searching = False
        return view

    # -- memo and disk cache -----------------------------------------------------------------
    async def _lookup(self, key: SearchKey) -> list[Passage] | None:
        hit = self._memo.get(key)
        if hit is None and self._on_disk():
            hit = await self.cache.apassages(self._disk_key(key))  # type: ignore[union-attr]
            if hit is not None:
                self._remember(key, hit)
        return hit

    def _on_disk(self) -> bool:
        """Whether evidence goes to the disk cache: there is one, and the source says which content it holds."""
        return self.cache is not None and bool(self._kb_version)

    def _disk_key(self, key: SearchKey) -> str:
        kind, k, query, titles = key
        version = f"{self._kb_version}+files:{self.scope}" if self.scope else str(self._kb_version)
        return evidence_key(version, kind, k, self.mode, query, titles)

    def _remember(self, key: SearchKey, passages: list[Passage]) -> None:
        with self._lock:
            if len(self._memo) >= self._memo_size:
                self._memo.pop(next(iter(self._memo)))
            self._memo[key] = passages

    def _store(self, key: SearchKey, passages: list[Passage]) -> None:
        """In memory now, and in the disk cache when there is one."""
        self._remember(key, passages)
        if self._on_disk():
            self.cache.store(self._disk_key(key), passages)  # type: ignore[union-attr]

    def _claim_key(self, query: str, titles: str) -> SearchKey:
        return ("claim", self.k, query, titles)

    def _must_search(self, what: str) -> None:
        if not self._searching:
            raise NotCachedError(f"evidence for {what} is not cached")

    # -- a completion's pool (fused factuality) ----------------------------------------------
    async def pool(self, query: str, titles: str, k: int) -> list[Passage]:
        """Up to ``k`` passages of evidence for a whole completion (fused factuality): every passage of the row's
        titles when they hold at most ``k``, else the best ``k`` for ``query`` (within the titles, or global)."""
        titles = titles or ""
        whole = await self._whole(titles, k)
        if whole:
            return list(whole)
        key: SearchKey = ("pool", k, query, titles)
        hit = await self._lookup(key)
        if hit is not None:
            return hit
        self._must_search("the completion")
        return await asyncio.get_running_loop().run_in_executor(None, self._search_pool, key)

    async def _whole(self, titles: str, k: int) -> list[Passage]:
        """Every passage of ``titles`` when 1 to ``k`` of them exist, else []: kept per titles, not per query (the
        query does not change it), and looked up once for all the completions of a prompt that ask together
        (eight executor hops and cache writes per prompt were a tenth of a cold fused step's CPU)."""
        if not titles:
            return []
        key: SearchKey = ("whole", k, "", titles)
        hit = await self._lookup(key)
        if hit is not None:
            return hit
        if not self._searching:
            return []  # a cache-only view: the query's own entry decides
        running = self._wholes.get(key)
        if running is None:
            running = asyncio.get_running_loop().run_in_executor(None, self._title_passages, key)
            self._wholes[key] = running
            running.add_done_callback(lambda _f: self._wholes.pop(key, None))
        return await asyncio.shield(running)

    def _title_passages(self, key: SearchKey) -> list[Passage]:
        _, k, _, titles = key
        found = self.kb.title_passages(titles, k) or []
        self._store(key, found)
        return found

    def _search_pool(self, key: SearchKey) -> list[Passage]:
        _, k, query, titles = key
        found = [h.passage for h in self.kb.search(query, titles=titles, k=k, mode=self.mode).hits]
        self.searches += 1
        self._store(key, found)
        return list(found)

    # -- evidence per claim (staged factuality) ----------------------------------------------
    async def retrieve(self, claims: Sequence[str], titles: str, topic: str | None = None) -> list[list[Passage]]:
        """Evidence for each claim, searched with ``topic + " " + claim`` (FActScore's query) or the claim alone.
        A query another completion is already searching is awaited, not searched again (in GRPO the generations
        of one prompt repeat many facts)."""
        titles = titles or ""
        queries = [f"{topic} {c.strip()}" if topic else c for c in claims]
        unique = list(dict.fromkeys(queries))
        hits = await asyncio.gather(*(self._lookup(self._claim_key(q, titles)) for q in unique))  # misses: one wait
        found = dict(zip(unique, hits))
        missing = [q for q, hit in found.items() if hit is None]
        if missing:
            self._must_search(f"{len(missing)} claim(s)")
            found.update(await self._search_shared(missing, titles))
        return [found[q] for q in queries]  # type: ignore[misc]

    async def _search_shared(self, queries: list[str], titles: str) -> dict[str, list[Passage]]:
        """Queries not in flight are searched in one batch on the executor; every query's batch is awaited
        (shielded: a cancelled completion does not cancel a search another one waits for)."""
        mine = [q for q in queries if (q, titles) not in self._inflight]
        if mine:
            batch = asyncio.get_running_loop().run_in_executor(None, self._search_claims, mine, titles)
            for query in mine:
                self._inflight[(query, titles)] = batch
            batch.add_done_callback(lambda _f: self._forget(mine, titles, batch))
        batches = {id(b): b for b in (self._inflight.get((q, titles)) for q in queries) if b is not None}
        found: dict[str, list[Passage]] = {}
        for batch in batches.values():
            found.update(await asyncio.shield(batch))
        return found

    def _forget(self, queries: list[str], titles: str, batch: asyncio.Future) -> None:
        for query in queries:
            if self._inflight.get((query, titles)) is batch:
                del self._inflight[(query, titles)]

    def _search_claims(self, queries: Sequence[str], titles: str) -> dict[str, list[Passage]]:
        """One batch: the queries embedded together (dense and hybrid modes), then one search each."""
        vectors = self.kb.encode_queries(list(queries)) if self.mode != "bm25" else [None] * len(queries)
        found: dict[str, list[Passage]] = {}
        for query, vector in zip(queries, vectors):
            result = self.kb.search(query, titles=titles, k=self.k, mode=self.mode, query_vector=vector)
            found[query] = [h.passage for h in result.hits]
            self.searches += 1
            self._store(self._claim_key(query, titles), found[query])
        return found
