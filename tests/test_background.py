"""The caches' background threads: started on first use, writes run in order, flush waits for them."""

from __future__ import annotations

import threading
import time

import pytest

from reward_engine.background import LazyPool, OrderedWriter


def _threads(prefix: str) -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith(prefix))


def test_writer_starts_no_thread_until_used_and_runs_calls_in_order():
    writer = OrderedWriter("bg-test-order")
    assert _threads("bg-test-order") == 0
    seen: list[int] = []

    def slow_append(i: int) -> None:
        time.sleep(0.002 if i % 7 == 0 else 0)  # a slow call must not let a later one overtake it
        seen.append(i)

    for i in range(100):
        writer.submit(slow_append, i)
    writer.flush()
    assert seen == list(range(100))
    assert _threads("bg-test-order") == 1
    writer.shutdown()
    assert _threads("bg-test-order") == 0
    writer.submit(seen.append, 100)  # usable again after shutdown (a cache reopened by its owner)
    writer.shutdown()
    assert seen[-1] == 100


def test_flush_raises_the_last_calls_error():
    writer = OrderedWriter("bg-test-error")

    def fail() -> None:
        raise OSError("disk full")

    writer.submit(fail)
    with pytest.raises(OSError, match="disk full"):
        writer.flush()
    writer.submit(lambda: None)
    writer.flush()  # a later call that succeeds clears it
    writer.shutdown()


def test_pool_is_made_once_and_shared_by_concurrent_callers():
    pool = LazyPool(3, "bg-test-pool")
    got: list[object] = []
    callers = [threading.Thread(target=lambda: got.append(pool.get())) for _ in range(8)]
    for t in callers:
        t.start()
    for t in callers:
        t.join()
    assert len({id(p) for p in got}) == 1
    futures = [pool.get().submit(time.sleep, 0.05) for _ in range(3)]
    pool.shutdown()  # waits for work already handed to it
    assert all(f.done() for f in futures)
