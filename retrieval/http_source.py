"""A knowledge source behind HTTP: ``python -m retrieval.serve`` (one KB for every training node, no local copy
and no embedding model per node), or a small adapter a user puts in front of their own search service.

The protocol, JSON both ways, each a POST to ``{url}/<name>``:

- ``info`` ``{}`` -> ``{"version": str | null, "modes": [...]}``
- ``search`` ``{"query", "titles", "k", "mode"}`` -> ``{"hits": [{"id", "title", "text", "score"}], "mode", "scope"}``
- ``title_passages`` ``{"titles", "limit"}`` -> ``{"passages": [{"id", "title", "text"}] | null}``
- ``title_passage_ids`` ``{"titles"}`` -> ``{"ids", "found", "missing"}``
- ``passages`` ``{"ids"}`` -> ``{"passages": [{"id", "title", "text"}]}``

Calls are synchronous: the engine runs retrieval on worker threads, never on its event loop.
"""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from typing import Any, Iterable, Sequence

from retrieval.kb import Hit, Passage, SearchResult

log = logging.getLogger(__name__)


class SourceError(RuntimeError):
    pass


def _passage(p: Any) -> Passage:
    try:
        return Passage(int(p["id"]), str(p["title"]), str(p["text"]))
    except (KeyError, TypeError, ValueError):
        raise SourceError(f"a passage needs 'id', 'title' and 'text': got {str(p)[:200]}") from None


class HttpSource:
    """A ``KnowledgeSource`` over the protocol above at ``url``."""

    def __init__(self, url: str, timeout_s: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.timeout_s = timeout_s
        info = self._post("info", {})
        self._version, self._modes = info.get("version"), tuple(info.get("modes") or ("bm25",))

    def _post(self, name: str, body: dict[str, Any], timeout_s: float | None = None) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.url}/{name}", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout_s or self.timeout_s) as reply:
                body = json.loads(reply.read())
        except urllib.error.HTTPError as exc:  # the service said why: keep it
            raise SourceError(f"knowledge source {self.url}/{name}: HTTP {exc.code}: {exc.read()[:300]!r}") from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise SourceError(f"knowledge source {self.url}/{name}: {exc}") from None
        if not isinstance(body, dict):
            raise SourceError(f"knowledge source {self.url}/{name}: the reply is not a JSON object")
        return body

    @property
    def version(self) -> str | None:
        """The served version as it was at open (``content_version`` asks again)."""
        return self._version

    @property
    def content_version(self) -> str | None:
        """The served version now: the engine reads it at each step, so a KB rebuilt or edited under the server
        is searched again, not answered from evidence found before (hostile pass 10). A server that does not
        answer within 2 s keeps the last version: a slow ``info`` never holds a step up for long."""
        try:
            self._version = self._post("info", {}, timeout_s=min(self.timeout_s, 2.0)).get("version")
        except SourceError as exc:
            log.warning("%s; evidence stays keyed to version %s", exc, self._version)
        return self._version

    @property
    def modes(self) -> tuple[str, ...]:
        return self._modes

    def search(
        self,
        query: str,
        titles: str | Iterable[str] | None = None,
        k: int = 5,
        mode: str = "hybrid",
        query_vector: Any = None,
    ) -> SearchResult:
        titles = titles if titles is None or isinstance(titles, str) else list(titles)
        reply = self._post("search", {"query": query, "titles": titles, "k": k, "mode": mode})
        hits = [Hit(_passage(h), float(h.get("score", 0.0)), {}) for h in reply.get("hits", [])]
        return SearchResult(hits, reply.get("mode", mode), reply.get("scope", "global"))

    def title_passages(self, titles: str | Iterable[str] | None, limit: int) -> list[Passage] | None:
        titles = titles if titles is None or isinstance(titles, str) else list(titles)
        found = self._post("title_passages", {"titles": titles, "limit": limit}).get("passages")
        return None if found is None else [_passage(p) for p in found]

    def encode_queries(self, queries: Sequence[str]) -> list[None]:
        return [None] * len(queries)  # the service embeds its queries itself

    def title_passage_ids(self, titles: Sequence[str]) -> tuple[list[int], list[str], list[str]]:
        reply = self._post("title_passage_ids", {"titles": list(titles)})
        return [int(i) for i in reply["ids"]], list(reply["found"]), list(reply["missing"])

    def get_passages(self, ids: Sequence[int]) -> dict[int, Passage]:
        found = self._post("passages", {"ids": [int(i) for i in ids]}).get("passages", [])
        return {p.id: p for p in map(_passage, found)}

    def close(self) -> None:
        pass
