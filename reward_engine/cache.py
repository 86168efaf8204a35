"""The judge-call cache: diskcache (SQLite, process-safe, survives kill -9).

The key is a sha256 of the canonical JSON of what determines the answer — model,
messages, temperature, max_tokens, seed, prompt-template version — and never the API key
or the endpoint URL (which may carry credentials).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import diskcache


def cache_key(
    model: str,
    messages: list[dict[str, Any]],
    temperature: float,
    max_tokens: int,
    seed: int | None,
    template_version: str,
) -> str:
    payload = {
        "model": model,
        "messages": messages,
        "temperature": temperature,
        "max_tokens": max_tokens,
        "seed": seed,
        "template": template_version,
    }
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class JudgeCache:
    """A namespaced view of one diskcache directory (several processes may share it)."""

    def __init__(self, directory: str | Path, size_limit_gb: float = 4.0) -> None:
        self.directory = Path(directory)
        self._cache = diskcache.Cache(str(self.directory), size_limit=int(size_limit_gb * 2**30))

    def get(self, key: str) -> Any | None:
        return self._cache.get(key)

    def set(self, key: str, value: Any) -> None:
        self._cache.set(key, value)

    def __contains__(self, key: str) -> bool:
        return key in self._cache

    def __len__(self) -> int:
        return len(self._cache)

    def close(self) -> None:
        self._cache.close()
