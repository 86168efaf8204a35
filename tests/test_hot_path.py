"""The reward step's hot path: work done once, short CPU work kept on the event loop, disk writes batched.

bench/results/reward_throughput.md measures what these buy; here, that each holds and loses nothing.
"""

from __future__ import annotations

import asyncio
import threading

from reward_engine import prompts
from reward_engine.disk_cache import DiskCache
from reward_engine.judge import client as client_module
from reward_engine.judge.client import JudgeClient
from reward_engine.judge.config import Endpoint, JudgeConfig
from reward_engine.offline.reading import lower
from reward_engine.stages.offload import INLINE_MAX_CHARS, off_loop


async def test_a_cold_call_works_out_its_cache_key_once(server, tmp_path, monkeypatch):
    made: list[str] = []
    real = client_module.cache_key

    def counted(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(client_module, "cache_key", counted)
    config = JudgeConfig(endpoints=[Endpoint(base_url=server.url, model="m")], cache_dir=str(tmp_path))
    async with JudgeClient(config) as judge:
        messages = prompts.grader_messages("Capital of France?", "Paris", "Lyon")
        cold = await judge.complete(messages, prompts.GRADER_VERSION)
        assert not cold.cached and len(made) == 1  # looked up and stored under one key, worked out once
        warm = await judge.complete(messages, prompts.GRADER_VERSION)
    assert warm.cached and warm.text == cold.text and len(set(made)) == 1


async def test_short_offline_work_stays_on_the_loop_and_long_work_leaves_it():
    here = threading.get_ident()
    assert await off_loop(threading.get_ident, chars=INLINE_MAX_CHARS) == here
    assert await off_loop(threading.get_ident, chars=INLINE_MAX_CHARS + 1) != here


async def test_a_long_read_off_the_loop_lets_the_loop_keep_time():
    """A long input's work runs on a thread: the loop's timers (the step budget's among them) still fire."""
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.ensure_future(tick())
    await asyncio.sleep(0)
    await off_loop(threading.Event().wait, 0.3, chars=10_000)
    ticker.cancel()
    assert ticks >= 10


def test_disk_writes_made_while_a_batch_is_written_all_land_and_the_last_value_wins(tmp_path):
    cache = DiskCache(tmp_path)

    def writer(name: str) -> None:
        for i in range(400):
            cache.set(f"{name}:{i % 50}", {"i": i})  # each key written 8 times: the last must stay

    threads = [threading.Thread(target=writer, args=(n,)) for n in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cache.flush()
    cache.close()
    again = DiskCache(tmp_path)  # a new process's view: disk only
    try:
        assert len(again) == 100
        assert all(again.get(f"{n}:{k}") == {"i": 350 + k} for n in "ab" for k in range(50))
    finally:
        again.close()


def test_lowercasing_keeps_every_position_whatever_the_script():
    def by_character(text: str) -> str:
        return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)

    for text in [
        "Paris",
        "İSTANBUL",
        "ΟΔΟΣ ΣΟΦΟΚΛΕΟΥΣ",
        "Straße STRASSE",
        "ǅemal",
        "K (Kelvin sign)",
        "ﬁ ligature",
        "",
    ]:
        assert lower(text) == by_character(text) and len(lower(text)) == len(text)
