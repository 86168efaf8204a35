"""The disk cache reads the keys a step's jobs ask for in one turn of the event loop with one SQLite query (issue
#75: a cold step read its cache keys one query each), and answers each caller as its own read would."""

from __future__ import annotations

import asyncio
import time

from reward_engine.disk_cache import DiskCache


def _selects(cache: DiskCache) -> list[str]:
    """Every SELECT on the Cache table the cache's connection runs from now on."""
    seen: list[str] = []
    cache._cache._con.set_trace_callback(  # noqa: SLF001 - the connection is the only place to count queries
        lambda sql: seen.append(sql) if sql.lstrip().upper().startswith("SELECT") and "FROM Cache" in sql else None
    )
    return seen


def _filled(path, n: int) -> None:
    cache = DiskCache(path)
    for i in range(n):
        cache.set(f"k{i}", {"reply": i})
    cache.flush()
    cache.close()


async def test_keys_asked_together_are_read_in_one_query(tmp_path) -> None:
    _filled(tmp_path, 40)
    cache = DiskCache(tmp_path)  # a new process's cache: nothing in memory
    seen = _selects(cache)
    keys = [f"k{i}" for i in range(40)] + ["missing-1", "missing-2", "k3"]
    got = await asyncio.gather(*(cache.aget(k) for k in keys))
    assert got == [{"reply": i} for i in range(40)] + [None, None, {"reply": 3}]
    assert len(seen) == 1
    assert await cache.aget("k7") == {"reply": 7} and len(seen) == 1  # now in memory: no query
    assert await cache.aget("missing-1") is None and len(seen) == 2  # a miss is asked again, alone
    cache.close()


async def test_a_batch_larger_than_sqlites_variable_limit_is_read_whole(tmp_path) -> None:
    _filled(tmp_path, 2_100)
    cache = DiskCache(tmp_path, memory_items=5_000)
    seen = _selects(cache)
    got = await asyncio.gather(*(cache.aget(f"k{i}") for i in range(2_100)))
    assert got == [{"reply": i} for i in range(2_100)]
    assert len(seen) == 3  # 900 keys a query


async def test_one_caller_cancelled_leaves_the_others_their_answer(tmp_path) -> None:
    _filled(tmp_path, 3)
    cache = DiskCache(tmp_path)
    first = asyncio.ensure_future(cache.aget("k1"))
    second = asyncio.ensure_future(cache.aget("k1"))
    await asyncio.sleep(0)
    first.cancel()
    assert await second == {"reply": 1}
    assert first.cancelled()
    cache.close()


async def test_an_expired_entry_is_a_miss_in_a_batch_as_alone(tmp_path) -> None:
    cache = DiskCache(tmp_path)
    cache._cache.set("old", "stale", expire=0.01)  # noqa: SLF001 - diskcache's own expiry, as another writer sets it
    cache._cache.set("new", "fresh")  # noqa: SLF001
    time.sleep(0.05)
    assert await asyncio.gather(cache.aget("old"), cache.aget("new")) == [None, "fresh"]
    assert cache.get("old") is None
    cache.close()


def test_get_many_answers_what_get_answers(tmp_path) -> None:
    _filled(tmp_path, 5)
    cache = DiskCache(tmp_path)
    many = cache.get_many(["k0", "k4", "nope", "k0"])
    assert many == {"k0": {"reply": 0}, "k4": {"reply": 4}}
    assert {k: cache.get(k) for k in ("k0", "k4", "nope")} == {**many, "nope": None}
    cache.close()
