"""The judge-call cache: the reply to a deterministic call, on disk (see ``disk_cache``).

The key is a sha256 of the canonical JSON of what determines the answer — model,
messages, temperature, max_tokens, seed, prompt-template version — and never the API key
or the endpoint URL (which may carry credentials).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from reward_engine.disk_cache import DiskCache
from reward_engine.judge.config import JudgeConfig
from reward_engine.shared_cache import RedisCache, expand_env


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


class JudgeCache(DiskCache):
    """Judge replies (text) by ``cache_key``."""


def judge_cache(config: JudgeConfig) -> JudgeCache | RedisCache | None:
    """The cache ``config`` names: none without ``cache_dir``; shared through Redis when ``cache.url`` is set."""
    if not config.cache_dir:
        return None
    local = JudgeCache(config.cache_dir)
    if config.cache is None:
        return local
    return RedisCache(expand_env(config.cache.url), local, "judge", config.cache.ttl_s)
