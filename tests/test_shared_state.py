"""One judge cache and one judge budget for every process and node (``judge.cache.url``, ``judge.limits.url``):
a real redis-server and the real test judge server on 127.0.0.1, separate OS processes for the ranks."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import textwrap
import time
from pathlib import Path

import pytest
import redis
import redis.asyncio

from judges.ports import free_port
from judges.redis_local import LocalRedis, running_redis
from judges.test_server import JudgeServer, ServerConfig
from retrieval.kb import Passage
from reward_engine import prompts, shared_cache
from reward_engine.config import ConfigError, parse_reward_config
from reward_engine.disk_cache import DiskCache
from reward_engine.judge import shared_limits
from reward_engine.judge.client import JudgeClient
from reward_engine.judge.config import Endpoint, JudgeConfig
from reward_engine.shared_cache import QUIET_CONNECTION
from reward_engine.stages.evidence_cache import SharedEvidenceCache, evidence_cache
from tests.helpers import score_command, server_stats


@pytest.fixture
def redis_server():
    with running_redis() as server:
        yield server


def record_asks(shared: shared_limits.SharedBudget) -> list[float | None]:
    """The delays Redis's admission answers ``shared`` from now on (None: every slot taken), in order."""
    delays: list[float | None] = []
    real_ask = shared._ask

    async def recording_ask(*args, **kwargs):
        delays.append(await real_ask(*args, **kwargs))
        return delays[-1]

    shared._ask = recording_ask
    return delays


def judge_config(server: JudgeServer, cache_dir, redis_url: str, **overrides) -> JudgeConfig:
    return JudgeConfig(
        endpoints=[Endpoint(base_url=server.url, model="test-judge", api_key_env=None)],
        backoff_initial_s=0.01,
        backoff_max_s=0.05,
        cache_dir=str(cache_dir),
        cache={"url": redis_url},
        **overrides,
    )


def question(i: int) -> list[dict]:
    return prompts.grader_messages(f"Capital of country {i}?", "Paris", "Paris" if i % 2 else "Lyon")


async def test_a_second_node_pays_nothing_for_what_the_first_asked(server, redis_server, tmp_path):
    """Two nodes (two disk caches) sharing one Redis: the second one's calls are all cache hits."""
    calls = [question(i) for i in range(12)]
    async with JudgeClient(judge_config(server, tmp_path / "node-a", redis_server.url)) as node_a:
        first = [await node_a.complete(m, prompts.GRADER_VERSION) for m in calls]
    async with JudgeClient(judge_config(server, tmp_path / "node-b", redis_server.url)) as node_b:
        second = [await node_b.complete(m, prompts.GRADER_VERSION) for m in calls]
        assert node_b.metrics.cache_hits == 12 and node_b.metrics.requests == 0
    assert [r.text for r in first] == [r.text for r in second] and all(r.cached for r in second)
    assert (await server_stats(server))["requests"] == 12
    stored = redis.Redis.from_url(redis_server.url).keys("knowrl:judge:*")
    assert len(stored) == 12  # JSON strings under the disk cache's keys, nothing else
    assert all(json.loads(redis.Redis.from_url(redis_server.url).get(k)) for k in stored)


def budget_server() -> ServerConfig:
    """The judge the budget tests share: 6 requests a 0.8 s window, while ``shared_judge``'s budget books 6 a 1.1 s
    one: 0.3 s for a process descheduled on a busy 2-core machine (one 429 at 0.1 s in CI). Unshared budgets (6
    each) would still be refused at once."""
    return ServerConfig(rpm=6, window_s=0.8, latency_ms=20)


def shared_judge(url: str, redis_url: str, cache_dir: Path, name: str, key_env: str | None = None) -> dict:
    """A judge section whose cache and rate limit live in one Redis: what every process of a test shares."""
    return {
        "endpoints": [{"base_url": url, "model": "test-judge", "api_key_env": key_env}],
        "requests_per_minute": 360,  # 6 per 1 s window (counted over 2 s by the shared limits)
        "rate_window_s": 1.0,
        "cache_dir": str(cache_dir),
        "cache": {"url": redis_url},
        "limits": {"url": redis_url, "name": name},
    }


def test_evidence_is_shared_as_json_and_a_bad_url_is_refused(redis_server, tmp_path):
    shared = JudgeConfig(
        endpoints=[Endpoint(base_url="http://127.0.0.1:1/v1", model="m")],
        cache_dir=str(tmp_path),
        cache={"url": redis_server.url},
    ).cache
    one = evidence_cache(str(tmp_path / "a"), shared)
    assert isinstance(one, SharedEvidenceCache)
    one.store("k", [Passage(3, "Paris", "Paris is the capital of France.")])
    one.flush()
    other = evidence_cache(str(tmp_path / "b"), shared)
    assert asyncio.run(other.apassages("k")) == [Passage(3, "Paris", "Paris is the capital of France.")]
    with pytest.raises(ValueError, match="redis://"):
        JudgeConfig(endpoints=[{"base_url": "http://x/v1", "model": "m"}], cache_dir="c", cache={"url": "http://x"})
    with pytest.raises(ValueError, match="cache_dir"):
        JudgeConfig(endpoints=[{"base_url": "http://x/v1", "model": "m"}], cache={"url": redis_server.url})


async def test_a_redis_that_never_answers_does_not_stall_the_event_loop(tmp_path):
    """A Redis that accepts and stays silent (a hung node, a dropped route): the lookup waits on a worker thread
    while other calls on the loop go on; a read on the loop would hold every call and the step's deadline."""
    with socket.socket() as hole:
        hole.bind(("127.0.0.1", 0))
        hole.listen(8)  # connections complete in the kernel's backlog; nothing ever replies
        url = f"redis://127.0.0.1:{hole.getsockname()[1]}/0"
        cache = SharedEvidenceCache(url, DiskCache(tmp_path), "evidence", timeout_s=60.0)
        lookup = asyncio.ensure_future(cache.apassages("some-key"))
        ticks = 0
        for _ in range(5):
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 5 and not lookup.done()  # the loop ran other work while the read waited
    # The silent Redis goes away (its pending connections reset): the lookup is a miss, counted as a fallback.
    assert await asyncio.wait_for(lookup, 30) is None
    assert cache.fallbacks == 1


async def test_a_shared_cache_read_does_not_queue_behind_work_on_the_default_executor(redis_server, tmp_path):
    """On a cold step the reward stages fill the loop's default executor with CPU work (KB searches, offline
    grading); a Redis read sent there would wait for all of it. The cache reads on its own threads."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    writer = SharedEvidenceCache(redis_server.url, DiskCache(tmp_path / "a"), "evidence")
    writer.store("k", [Passage(1, "Oslo", "Oslo is the capital of Norway.")])
    writer.flush()
    reader = SharedEvidenceCache(redis_server.url, DiskCache(tmp_path / "b"), "evidence")  # empty disk: asks Redis
    loop = asyncio.get_running_loop()
    busy, release = ThreadPoolExecutor(max_workers=1), threading.Event()
    loop.set_default_executor(busy)
    blocker = loop.run_in_executor(None, release.wait)  # the default executor's only thread, held
    try:
        found = await asyncio.wait_for(reader.apassages("k"), 30)
        assert found == [Passage(1, "Oslo", "Oslo is the capital of Norway.")] and not blocker.done()
    finally:
        release.set()
        await blocker
        writer.close()
        reader.close()


def test_shared_limits_replace_the_static_split_and_keep_it_as_the_fallback():
    config = parse_reward_config(
        {
            "grader": "llm",
            "world_size": 4,
            "factuality": {"enabled": False},
            "judge": {
                "endpoints": [{"base_url": "http://127.0.0.1:1/v1", "model": "m"}],
                "requests_per_minute": 400,
                "limits": {"url": "redis://:hunter2@127.0.0.1:1/0"},
            },
        }
    )
    rank = config.judge_for_rank()
    assert rank.requests_per_minute == 400 and rank.limits.fallback_share == 0.25
    assert "hunter2" not in repr(rank) and "hunter2" not in shared_cache.redact(rank.limits.url)


def commands_processed(url: str) -> int:
    return int(redis.Redis.from_url(url, **QUIET_CONNECTION).info("stats")["total_commands_processed"])


def asks(url: str) -> int:
    """Admissions asked and waits begun: EVALSHA and BLPOP calls so far."""
    stats = redis.Redis.from_url(url, **QUIET_CONNECTION).info("commandstats")
    return sum(int(stats.get(f"cmdstat_{c}", {}).get("calls", 0)) for c in ("evalsha", "eval", "blpop"))


def blocking_waits(url: str) -> int:
    """Waits begun on the wake list so far (BLPOP calls)."""
    stats = redis.Redis.from_url(url, **QUIET_CONNECTION).info("commandstats")
    return int(stats.get("cmdstat_blpop", {}).get("calls", 0))


def connection_setup(url: str) -> int:
    """HELLO and CLIENT commands so far: what a redis-py connection sends before its first command by default."""
    stats = redis.Redis.from_url(url, **QUIET_CONNECTION).info("commandstats")
    return sum(int(stats.get(f"cmdstat_{c}", {}).get("calls", 0)) for c in ("hello", "client"))


def round_trips(url: str) -> int:
    """Commands clients sent (an EVALSHA once, not the calls its script makes inside Redis)."""
    return shared_limits.round_trips(redis.Redis.from_url(url, **QUIET_CONNECTION).info("commandstats"))


async def test_requests_waiting_for_a_slot_queue_in_their_process_and_one_asks_redis(redis_server):
    """100 requests of one process wait for the only slot, held by another process: one of them blocks on the
    wake list (a command a second at most), none polls; when slots come back each is taken, one in flight at a
    time, nothing lost."""
    budget = shared_limits.Budget(None, None, max_in_flight=1)
    other = shared_limits.SharedBudget(redis_server.url, "queue", budget, lease_s=60, fallback_share=1.0)
    mine = shared_limits.SharedBudget(redis_server.url, "queue", budget, lease_s=60, fallback_share=1.0)
    held = await other.acquire(100)
    assert held is not None
    in_flight, most, done = 0, 0, 0

    async def request() -> None:
        nonlocal in_flight, most, done
        lease = await mine.acquire(100)
        assert lease is not None  # the shared budget, not the local fallback
        in_flight += 1
        most = max(most, in_flight)
        await asyncio.sleep(0.002)
        in_flight -= 1
        await mine.release(lease)
        done += 1

    tasks = [asyncio.ensure_future(request()) for _ in range(100)]
    await asyncio.sleep(0.2)  # all queued
    before = commands_processed(redis_server.url)
    await asyncio.sleep(2.0)
    asked = commands_processed(redis_server.url) - before  # the scripts' inner calls included
    assert done == 0
    assert asked <= 16  # a BLPOP that times out each second and the ask after it (the old polling: ~160)
    await other.release(held)  # the release wakes the blocked waiter at once
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    assert done == 100 and most == 1 and mine.fallbacks == 0
    await mine.close()
    await other.close()


async def test_a_waiter_is_woken_when_a_dead_process_lease_expires_and_someone_asks(redis_server):
    """Both slots held by a process that died (leases expiring in 0.5 s), a live process waiting: a third
    process's admission after the expiry frees both, takes one and wakes the waiter for the other at once (its
    own timeout is a minute)."""
    budget = shared_limits.Budget(None, None, max_in_flight=2)
    waiter = shared_limits.SharedBudget(redis_server.url, "dead", budget, lease_s=30, fallback_share=1.0)
    asker = shared_limits.SharedBudget(redis_server.url, "dead", budget, lease_s=30, fallback_share=1.0)
    slots = redis.asyncio.Redis.from_url(redis_server.url)
    gone = time.time() + 0.5
    await slots.zadd(waiter._slots_key, {"dead-1": gone, "dead-2": gone})
    waiting = asyncio.ensure_future(waiter.acquire(10))
    await asyncio.sleep(1.0)
    assert not waiting.done()  # every slot taken: it blocks on the wake list
    started = time.monotonic()
    taken = await asker.acquire(10)
    lease = await asyncio.wait_for(waiting, 10)
    assert time.monotonic() - started < 2.0 and lease is not None and taken is not None
    for budget_, lease_ in ((waiter, lease), (asker, taken)):
        await budget_.release(lease_)
        await budget_.close()
    await slots.aclose()


async def test_a_full_window_books_the_request_a_time_and_a_cancelled_one_gives_its_place_back(redis_server):
    """Two requests per 2 s window: the third is admitted at once with a booked time one window after the first,
    sleeps until then and is asked about no more; its lease counts from that time. One booked later and cancelled
    while it sleeps gives its slot and its place in the window back."""
    budget = shared_limits.Budget(requests_per_minute=60, tokens_per_minute=None, max_in_flight=4, window_s=2.0)
    shared = shared_limits.SharedBudget(redis_server.url, "order", budget, lease_s=30, fallback_share=1.0)
    slots = redis.asyncio.Redis.from_url(redis_server.url)

    async def redis_now() -> float:
        seconds, micros = await slots.time()
        return seconds + micros / 1e6

    # What Redis booked and the delays it gave, read back, not wall-clock bounds (a busy machine stretches those).
    delays = record_asks(shared)
    waits = blocking_waits(redis_server.url)
    first, second = await shared.acquire(10), await shared.acquire(10)
    assert delays == [0.0, 0.0]  # both admitted to go at once
    assert blocking_waits(redis_server.url) == waits  # neither waited on the wake list
    first_at = await slots.zscore(shared._keys[1], first.id)
    third_at = asyncio.ensure_future(shared.acquire(10))
    while len(delays) < 3:  # until Redis has answered its admission (however long a busy machine takes)
        await asyncio.sleep(0.01)
    assert delays[2] > 0  # admitted, to go later
    assert not third_at.done() and await slots.zcard(shared._slots_key) == 3  # booked: its slot is taken
    before = asks(redis_server.url)
    third = await asyncio.wait_for(third_at, 30)
    booked = await slots.zscore(shared._keys[1], third.id)
    assert booked >= first_at + shared._window_s  # one window (2 s x 1.01, at least + 0.1 s) after the first
    assert await redis_now() >= booked  # and it went no earlier than that
    # it slept: nobody asked Redis meanwhile, but for booking again when it woke late (a loaded machine)
    assert asks(redis_server.url) == before + shared.rebooked
    expires = await slots.zscore(shared._slots_key, third.id)
    assert expires - booked == pytest.approx(30, abs=1e-3)  # its lease counts from its booked time
    for lease in (first, second):
        await shared.release(lease)
    fourth = await shared.acquire(10)  # the window holds the third alone: at once
    fifth = asyncio.ensure_future(shared.acquire(10))  # booked a window after the third
    await asyncio.sleep(0.3)
    assert not fifth.done() and await slots.zcard(shared._keys[1]) == 3 and await slots.zcard(shared._slots_key) == 3
    fifth.cancel()
    with pytest.raises(asyncio.CancelledError):
        await fifth
    assert await slots.zcard(shared._keys[1]) == 2 and await slots.zcard(shared._slots_key) == 2
    for lease in (third, fourth):
        await shared.release(lease)
    assert await slots.zcard(shared._slots_key) == 0
    await slots.aclose()
    await shared.close()


async def test_a_request_that_wakes_late_books_its_window_place_again_before_it_goes(redis_server):
    """Sent long after its booked time (a busy machine), a request would arrive among the next window's requests
    (the server counts it when it arrives): it books its place again from when it woke, keeping its slot."""
    budget = shared_limits.Budget(requests_per_minute=60, tokens_per_minute=None, max_in_flight=4, window_s=2.0)
    shared = shared_limits.SharedBudget(redis_server.url, "late", budget, lease_s=30, fallback_share=1.0)
    slots = redis.asyncio.Redis.from_url(redis_server.url)
    await shared.acquire(10), await shared.acquire(10)
    started = time.monotonic()
    third_at = asyncio.ensure_future(shared.acquire(10))  # booked one window (2.1 s) after the first two
    await asyncio.sleep(0.3)
    members = await slots.zrange(shared._keys[1], 0, -1, withscores=True)
    booked = max(score for _, score in members)
    await asyncio.sleep(max(0.0, 1.9 - (time.monotonic() - started)))
    time.sleep(0.7)  # the loop is held past the third's booked time, as a descheduled process is
    third = await asyncio.wait_for(third_at, 10)
    assert shared.rebooked == 1
    moved = await slots.zscore(shared._keys[1], third.id)
    assert moved - booked > 0.3  # its place now counts from when it really went, not from 2.1 s
    assert await slots.zcard(shared._slots_key) == 3  # it kept its slot (one lease, not two)
    await slots.aclose()
    await shared.close()


BUDGET_RANK = textwrap.dedent(
    """
    import asyncio, json, sys, time
    from reward_engine.judge.shared_limits import Budget, SharedBudget

    url, name, workers, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    start_at = float(sys.argv[5])
    weight = int(sys.argv[6]) if len(sys.argv) > 6 else 1

    async def main():
        budget = SharedBudget(
            url, name, Budget(None, None, max_in_flight=4), lease_s=60, fallback_share=0.25, weight=weight
        )
        admitted = 0
        await asyncio.sleep(max(0.0, start_at - time.time()))
        stop = time.time() + seconds

        async def worker():
            nonlocal admitted
            while time.time() < stop:
                lease = await budget.acquire(10)
                assert lease is not None
                await asyncio.sleep(0.02)  # the request
                await budget.release(lease)
                admitted += 1

        await asyncio.gather(*(worker() for _ in range(workers)))
        await budget.close()
        print(json.dumps({"admitted": admitted, "fallbacks": budget.fallbacks}))

    asyncio.run(main())
    """
)


def _budget_ranks(
    url: str, name: str, workers: list[int], seconds: float, weights: list[int] | None = None
) -> list[dict]:
    import subprocess

    start_at = time.time() + 3.0  # after every process has imported redis
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", BUDGET_RANK, url, name, str(w), str(seconds), str(start_at), str(weight)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for w, weight in zip(workers, weights or [1] * len(workers))
    ]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    return [json.loads(out.strip().splitlines()[-1]) for out in outs]


def test_redis_commands_per_admitted_request_stay_flat_from_1_to_16_processes(redis_server):
    """Four slots, every process backlogged (8 workers each): the round trips to Redis per admitted request do not
    grow with the processes (the polling it replaced: 20, 55, 91 commands per request at 1, 2, 4 processes)."""
    per_request = {}
    for n in (1, 4, 16):
        before, setup = round_trips(redis_server.url), connection_setup(redis_server.url)
        ranks = _budget_ranks(redis_server.url, f"flat-{n}", [8] * n, seconds=3.0)
        commands = round_trips(redis_server.url) - before
        # the ranks' connections (and the stats reader's) send no HELLO or CLIENT SETINFO
        assert connection_setup(redis_server.url) == setup
        admitted = sum(r["admitted"] for r in ranks)
        assert admitted > 100 and sum(r["fallbacks"] for r in ranks) == 0
        per_request[n] = commands / admitted
    assert max(per_request.values()) <= 5, per_request
    assert per_request[16] <= 1.5 * per_request[1] + 0.5, per_request


def test_backlogged_ranks_share_the_slots_equally_whatever_they_ask(redis_server):
    """3:1:1:1 load (12 workers in one rank, 4 in each other), all backlogged on four slots: a freed slot goes to
    the ranks in turn, so each gets a quarter within 10 % (first come first served gave 133 / 52 / 60 / 55)."""
    ranks = _budget_ranks(redis_server.url, "fair", [12, 4, 4, 4], seconds=8.0)
    counts = [r["admitted"] for r in ranks]
    mean = sum(counts) / len(counts)
    assert all(abs(c - mean) <= 0.1 * mean for c in counts), counts


def test_backlogged_ranks_share_the_slots_by_their_weights(redis_server):
    """Weights 2:1:1, equal load, all backlogged on four slots: the first rank gets half the requests, the
    others a quarter each, within 10 %; with no weights the shares were equal (the test above)."""
    ranks = _budget_ranks(redis_server.url, "weighted", [8, 8, 8], seconds=8.0, weights=[2, 1, 1])
    counts = [r["admitted"] for r in ranks]
    total = sum(counts)
    for count, want in zip(counts, (0.5, 0.25, 0.25)):
        assert abs(count - want * total) <= 0.1 * want * total, counts


def test_the_trainer_gives_each_rank_its_weight_and_refuses_a_list_of_the_wrong_length():
    base = {
        "judge": {"endpoints": [{"base_url": "http://127.0.0.1:1/v1", "model": "m"}]},
        "factuality": {"enabled": False},
    }
    limits = {"url": "redis://127.0.0.1:1/0", "rank_weights": [3, 1, 1, 1]}
    config = parse_reward_config({**base, "judge": {**base["judge"], "limits": limits}, "world_size": 4, "rank": 0})
    assert config.judge_for_rank().limits.weight == 3
    assert config.model_copy(update={"rank": 2}).judge_for_rank().limits.weight == 1
    with pytest.raises(ValueError, match="4 weights for 2 ranks"):
        config.model_copy(update={"world_size": 2}).judge_for_rank()
    with pytest.raises(ConfigError, match="rank_weights"):
        parse_reward_config({**base, "judge": {**base["judge"], "limits": {**limits, "rank_weights": [0, 1]}}})
    config.check_world_size(4)
    config.check_world_size(1)  # one process ignores the weights
    with pytest.raises(ConfigError, match="judge.limits.rank_weights has 4 weights for 2 processes"):
        config.check_world_size(2)


def test_train_refuses_rank_weights_that_do_not_fit_the_launch_before_loading_anything(tmp_path, monkeypatch, capsys):
    from knowrl.train import main

    config = tmp_path / "c.yaml"
    config.write_text(
        "model: {name_or_path: /nonexistent-model-is-never-read}\ndata: {train: /nonexistent-data.jsonl}\n"
        "reward:\n  judge:\n    endpoints: [{base_url: 'http://127.0.0.1:1/v1', model: m}]\n"
        "    limits: {url: 'redis://127.0.0.1:1/0', rank_weights: [3, 1, 1, 1]}\n"
        "  factuality: {enabled: false}\n"
    )
    monkeypatch.setenv("WORLD_SIZE", "2")
    assert main(["--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "judge.limits.rank_weights has 4 weights for 2 processes" in err, err  # not the model path


async def test_a_call_cancelled_while_it_waits_for_the_window_gives_its_slot_back_before_the_client_closes(
    server, redis_server, tmp_path
):
    """A call holding a shared slot while it waits for room in the requests window, its caller gone and the
    client closed at once (a rank stopping): the slot is back in Redis, not held for lease_s (600 s) from every
    other process, and nothing fails on a closed connection."""
    config = judge_config(
        server,
        tmp_path / "cache",
        redis_server.url,
        requests_per_minute=60,  # 2 per 2 s window, counted over ceil(2.02 s) = 3 s
        rate_window_s=2.0,
        max_in_flight=4,
        limits={"url": redis_server.url, "name": "closing"},
    )
    client = JudgeClient(config)
    await client.complete(question(0), prompts.GRADER_VERSION)
    await client.complete(question(1), prompts.GRADER_VERSION)
    waiting = asyncio.ensure_future(client.complete(question(2), prompts.GRADER_VERSION))
    await asyncio.sleep(0.3)
    slots = redis.Redis.from_url(redis_server.url)
    assert slots.zcard("{knowrl:limits:closing}:in-flight") == 1  # taken, the window full
    waiting.cancel()
    await client.close()
    assert slots.zcard("{knowrl:limits:closing}:in-flight") == 0
    assert (await server_stats(server))["requests"] == 2


RANK = textwrap.dedent(
    """
    import asyncio, json, sys
    from reward_engine import prompts
    from reward_engine.judge.client import JudgeClient
    from reward_engine.judge.config import JudgeConfig

    config = JudgeConfig.model_validate_json(sys.stdin.read())  # not in argv: the URL may hold a password
    first, count = int(sys.argv[1]), int(sys.argv[2])

    async def main():
        async with JudgeClient(config) as judge:
            questions = [f"Capital of country {i}?" for i in range(first, first + count)]
            calls = [prompts.grader_messages(q, "Paris", "Lyon") for q in questions]
            await asyncio.gather(*(judge.complete(m, prompts.GRADER_VERSION) for m in calls))
            print(json.dumps(judge.metrics.snapshot()))

    asyncio.run(main())
    """
)


async def run_ranks(config: JudgeConfig, loads: list[tuple[int, int]]) -> list[dict]:
    """One OS process per (first question, count), all at once; their metrics."""
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            RANK,
            str(first),
            str(count),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for first, count in loads
    ]
    outs = await asyncio.gather(*(p.communicate(config.model_dump_json().encode()) for p in procs))
    assert all(p.returncode == 0 for p in procs)
    return [json.loads(out.decode().strip().splitlines()[-1]) for out, _ in outs]


async def test_ranks_under_uneven_load_share_one_budget_and_one_cache(redis_server, tmp_path):
    """Three processes, one with three times the others' calls and overlapping them: the judge's own RPM limit
    is never exceeded (no 429), at most max_in_flight requests reach it at once across all of them, and it
    answers each distinct call once."""
    server = JudgeServer(ServerConfig(rpm=12, window_s=1.0, latency_ms=40))
    await server.start()
    try:
        config = judge_config(
            server,
            tmp_path / "cache",
            redis_server.url,
            requests_per_minute=720,  # 12 per 1 s window, which the shared limits count over ceil(1.01 s) = 2 s
            rate_window_s=1.0,
            max_in_flight=3,
            limits={"url": redis_server.url, "name": "test-budget"},
        )
        metrics = await run_ranks(config, [(0, 30), (20, 10), (25, 10)])  # 50 calls, 35 distinct
        stats = await server_stats(server)
    finally:
        await server.stop()
    assert stats["rate_limited"] == 0 and stats["max_in_flight"] <= 3
    # a call cached by another rank while this one waited for the budget is not paid again; only two ranks
    # sending the same call within one judge latency both pay it. Without the re-check up to 15 of the 50 are
    # paid twice; with it a few, more on a busy machine (CI once saw 4: the bound was 3)
    assert stats["distinct"] == 35 and stats["requests"] <= 35 + 6
    assert sum(m["calls"] for m in metrics) == 50 and sum(m["failures"] for m in metrics) == 0
    assert sum(m["limit_fallbacks"] for m in metrics) == 0


async def test_redis_killed_mid_run_loses_nothing_and_is_used_again_when_back(server, tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(shared_cache, "RETRY_AFTER_S", 0.2)
    monkeypatch.setattr(shared_limits, "RETRY_AFTER_S", 0.2)
    store = LocalRedis(password="hunter2").start()
    try:
        config = judge_config(
            server, tmp_path / "cache", store.url, requests_per_minute=6000, limits={"url": store.url}
        )
        async with JudgeClient(config) as judge:
            before = [await judge.complete(question(i), prompts.GRADER_VERSION) for i in range(5)]
            store.kill()
            during = [await judge.complete(question(i), prompts.GRADER_VERSION) for i in range(5, 10)]
            down = judge.metrics.snapshot()
            store.start()
            await asyncio.sleep(0.6)  # 3x the retry window: a busy machine must not read as "still down"
            after = [await judge.complete(question(i), prompts.GRADER_VERSION) for i in range(10, 15)]
            judge.cache.flush()
            up = judge.metrics.snapshot()
        stored = redis.Redis.from_url(store.url).keys("knowrl:judge:*")
    finally:
        store.stop()
    assert all(r.text for r in before + during + after)
    assert down["limit_fallbacks"] >= 5 and down["cache_fallbacks"] > 0 and down["failures"] == 0
    assert up["limit_fallbacks"] <= down["limit_fallbacks"] + 1  # back on the shared budget
    # the restarted Redis started empty: it holds the 5 answers stored during the outage (copied when it
    # came back) and the 5 after it, plus any of the first 5 whose write was still queued when it died
    assert 10 <= len(stored) <= 15
    assert any("unreachable" in r.getMessage() for r in caplog.records)
    assert all("hunter2" not in r.getMessage() for r in caplog.records)


def test_two_trainer_ranks_and_a_score_job_share_one_budget_and_one_cache(redis_server, tmp_path):
    """torchrun, 2 CPU ranks calling the TRL reward functions with the LLM grader, as GRPO ranks do, against a
    judge that refuses more than 6 requests a second; both share one Redis budget (6 a second in all, not 3
    each) and one cache: no 429, every distinct call paid once (rank 1 repeats rows rank 0 paid for). Then a
    score job on another "node" (its own disk cache) scores every row the ranks graded: nothing paid."""
    import os
    import subprocess

    from judges.test_server import serve_in_thread

    script = Path(__file__).parent / "scripts" / "rank_rewards.py"
    with serve_in_thread(budget_server()) as server:

        def reward_config(node: str) -> dict:
            judge = shared_judge(server.url, redis_server.url, tmp_path / node, "torchrun-test")
            return {"grader": "llm", "factuality": {"enabled": False}, "judge": judge}

        (tmp_path / "ranks.json").write_text(json.dumps(reward_config("node-a")))
        port = str(free_port())
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "torch.distributed.run",
                "--nproc_per_node",
                "2",
                "--master_port",
                port,
                str(script),
                str(tmp_path / "ranks.json"),
                str(tmp_path),
                "3",
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
            timeout=600,
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        trained = (server.stats.requests, server.stats.distinct, server.stats.rate_limited)
        graded = [
            json.loads(line) for rank in (0, 1) for line in (tmp_path / f"rank{rank}.jsonl").read_text().splitlines()
        ]
        src = tmp_path / "graded.jsonl"
        src.write_text(
            "".join(json.dumps({k: r[k] for k in ("question", "completion", "answers")}) + "\n" for r in graded)
        )
        (tmp_path / "score.yaml").write_text(json.dumps(reward_config("node-b")))
        job = subprocess.run(
            score_command(src, tmp_path / "s.jsonl", tmp_path / "score.yaml"),
            capture_output=True,
            text=True,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
            timeout=300,
        )
        after = server.stats.requests
    assert job.returncode == 0, job.stderr[-3000:]
    requests, distinct, limited = trained
    assert len(graded) == 6 * 3 * 2 + 2 * 2 and all(r["reward"] in (2.0, -1.0) for r in graded)
    assert limited == 0 and requests == distinct == 36  # 36 distinct rows; rank 1's 4 repeats were not paid
    summary = json.loads(job.stdout[job.stdout.index("{") :])
    assert after == requests and summary["judge_requests"] == 0 and summary["cache_hits"] >= 36


ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"
SMOKE_RL = ROOT / "configs" / "data" / "smoke_rl.jsonl"
SCRIPTS = Path(__file__).parent / "scripts"


def test_grpo_ranks_under_torchrun_and_a_score_job_share_one_budget_and_one_cache(redis_server, tmp_path):
    """``python -m knowrl.train`` itself under torchrun (2 CPU ranks, gloo: real TRL GRPO steps on the tiny policy,
    taught first to answer in format so that its sampled completions reach the LLM grader) against a judge that
    refuses more than 6 requests a second, while a ``python -m reward_engine.score`` job on another "node" (its own
    disk cache) grades rows of its own: one Redis holds the budget and the cache of all three processes. No 429,
    every distinct call paid once, the ranks' reward logs hold the judge's grades; then a score job over the rows
    the ranks graded pays nothing and gives the same labels."""
    import os
    import subprocess
    import time

    from judges.test_server import serve_in_thread
    from reward_engine.completion import parse

    env = {**os.environ, "OMP_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    env.pop("KNOWRL_SCORE_NODE_KEY", None)
    questions, steps = 4, 4
    policy = tmp_path / "policy"
    taught = subprocess.run(
        [sys.executable, str(SCRIPTS / "taught_tiny.py"), str(policy), str(SMOKE_RL), str(questions)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert taught.returncode == 0, taught.stderr[-3000:]
    out = tmp_path / "run"
    own = [  # the score job's rows: questions the policy is never asked (no call is both theirs and the ranks')
        {
            "id": f"own-{i}",
            "question": f"Capital of country {i}?",
            "answers": "Paris",
            "completion": f"<think>Country {i}.</think><answer>{'Paris' if i % 2 else 'Lyon'}</answer>",
        }
        for i in range(20)
    ]
    with serve_in_thread(budget_server()) as server:

        def judge(node: str, key_env: str | None) -> dict:
            # the score job sends a key, the ranks none: the server's `authorized` count tells them apart
            return shared_judge(server.url, redis_server.url, tmp_path / node, "grpo-torchrun-test", key_env)

        score_config = {
            "preset": "knowrl",  # the grader's settings as the smoke config's reward section has them
            "grader": "llm",
            "decomposer": "offline",
            "verifier": "offline",
            "factuality": {"enabled": False},
            "judge": judge("node-b", "KNOWRL_SCORE_NODE_KEY"),
        }
        (tmp_path / "score.yaml").write_text(json.dumps(score_config))

        def score_job(source: str, output: str) -> subprocess.Popen:
            with (tmp_path / f"{output}.summary").open("w") as summary, (tmp_path / f"{output}.log").open("w") as log:
                return subprocess.Popen(
                    score_command(source, tmp_path / output, tmp_path / "score.yaml", "--batch-size", "4"),
                    stdin=subprocess.PIPE if source == "-" else subprocess.DEVNULL,
                    stdout=summary,
                    stderr=log,
                    text=True,
                    env={**env, "KNOWRL_SCORE_NODE_KEY": "node-b-key"},
                )

        with (tmp_path / "train.log").open("w") as train_log:
            # started now, it reads its rows from stdin: they are sent when the ranks' first grader call arrives
            score = score_job("-", "own.jsonl")
            train = subprocess.Popen(
                [
                    *(sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2"),
                    *("--master_port", str(free_port()), "-m", "knowrl.train", "--config", str(SMOKE)),
                    f"--set=output_dir={out}",
                    f"--set=model.name_or_path={policy}",
                    f"--set=data.max_samples={questions}",
                    f"--set=grpo.max_steps={steps}",
                    "--set=grpo.max_completion_length=32",  # the taught answers are 14-25 tokens
                    "--set=grpo.save_steps=1000",
                    "--set=reward.grader=llm",
                    "--set=reward.factuality.enabled=false",
                    "--set=reward.judge=" + json.dumps(judge("node-a", None)),
                ],
                stdout=train_log,
                stderr=subprocess.STDOUT,
                env=env,
            )
            timeline = []  # (paid by the ranks, paid by the score job), as the server saw them
            deadline = time.monotonic() + 540
            while train.poll() is None and time.monotonic() < deadline:
                seen = (server.stats.requests - server.stats.authorized, server.stats.authorized)
                if not timeline or seen != timeline[-1]:
                    timeline.append(seen)
                if seen[0] and not score.stdin.closed:
                    score.stdin.write("".join(json.dumps(r) + "\n" for r in own))
                    score.stdin.close()
                time.sleep(0.01)
            if train.poll() is None:
                train.kill()
            if not score.stdin.closed:
                score.stdin.close()
            score.wait(timeout=300)
            trained = (server.stats.requests - server.stats.authorized, server.stats.authorized)
        assert train.wait() == 0, (tmp_path / "train.log").read_text()[-3000:]
        assert score.returncode == 0, (tmp_path / "own.jsonl.log").read_text()[-3000:]
        by_rank = [
            [json.loads(line) for line in (out / f"rewards.rank{k}.jsonl").read_text().splitlines()] for k in (0, 1)
        ]
        graded = by_rank[0] + by_rank[1]
        (tmp_path / "graded.jsonl").write_text(
            "".join(json.dumps({k: r[k] for k in ("question", "completion", "answers")}) + "\n" for r in graded)
        )
        again = score_job(str(tmp_path / "graded.jsonl"), "again.jsonl")
        again.wait(timeout=300)
        stats = server.stats
    assert again.returncode == 0, (tmp_path / "again.jsonl.log").read_text()[-3000:]

    # one budget: the judge never refused a request; one cache: no call was paid twice, by any process
    assert stats.rate_limited == 0 and stats.requests == stats.distinct
    # the ranks ran real GRPO steps and graded what the policy wrote with the judge
    summary = json.loads((out / "summary.json").read_text())
    assert summary["world_size"] == summary["trainer_processes"] == 2 and summary["global_step"] == steps
    assert len(graded) == 2 * steps * 4  # 2 ranks x steps x 4 completions
    judged = {(r["question"], parse(r["completion"]).answer) for r in graded if r["label"] is not None}
    assert all(any(r["label"] and r["status"] in ("ok", "cached") for r in rows) for rows in by_rank)
    ranks_paid, score_paid = trained
    assert ranks_paid >= len(judged) >= 4, (ranks_paid, judged)  # a judge call for each distinct answer graded
    # the two spent the one budget at the same time: the score job's rows went in at the ranks' first call, and the
    # ranks still had calls to pay after the score job's first one
    began = next((t for t in timeline if t[1]), trained)  # (ranks' calls, score job's calls) at its first
    assert 0 < began[0] < ranks_paid, timeline
    rows = [json.loads(line) for line in (tmp_path / "own.jsonl").read_text().splitlines()]
    assert [r["id"] for r in rows] == [r["id"] for r in own] and score_paid == len(own)
    assert [r["label"] for r in rows] == ["INCORRECT", "CORRECT"] * (len(own) // 2)
    # another node pays nothing for what the ranks graded (their answers are in Redis) and reads the same grades
    rescored = [json.loads(line) for line in (tmp_path / "again.jsonl").read_text().splitlines()]
    assert stats.requests == sum(trained) and stats.authorized == len(own)
    assert [(r["label"], r["correctness"]) for r in rescored] == [(r["label"], r["correctness"]) for r in graded]
    assert all(r["status"] == "cached" for r in rescored if r["label"] is not None)


async def test_a_score_job_loses_nothing_when_redis_dies_mid_run(redis_server, tmp_path, monkeypatch):
    from reward_engine.score import score_file

    monkeypatch.setattr(shared_cache, "RETRY_AFTER_S", 0.2)
    monkeypatch.setattr(shared_limits, "RETRY_AFTER_S", 0.2)
    server = JudgeServer(ServerConfig(latency_ms=30))
    await server.start()
    try:
        src = tmp_path / "in.jsonl"
        src.write_text(
            "".join(
                json.dumps(
                    {
                        "id": i,
                        "question": f"Capital of France ({i})?",
                        "answers": "Paris",
                        "completion": f"<think>{i}</think><answer>{'Paris' if i % 2 else 'Lyon'}</answer>",
                    }
                )
                + "\n"
                for i in range(40)
            )
        )
        config = parse_reward_config(
            {
                "grader": "llm",
                "factuality": {"enabled": False},
                "judge": {
                    "endpoints": [{"base_url": server.url, "model": "test-judge", "api_key_env": None}],
                    "cache_dir": str(tmp_path / "cache"),
                    "cache": {"url": redis_server.url},
                    "limits": {"url": redis_server.url},
                    "requests_per_minute": 60000,
                    "max_in_flight": 4,
                },
            }
        )

        async def kill_when_under_way() -> None:
            while (await server_stats(server))["requests"] < 10:
                await asyncio.sleep(0.01)
            redis_server.kill()

        killer = asyncio.create_task(kill_when_under_way())
        summary = await score_file(src, tmp_path / "out.jsonl", config, batch_size=4, progress=False)
        await killer
    finally:
        await server.stop()
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["line"] for r in rows] == list(range(1, 41)) and all(r["status"] == "ok" for r in rows)
    assert summary["shared_state_fallbacks"]["limit_fallbacks"] > 0


async def test_an_outage_fallback_counts_what_redis_admitted_this_window(monkeypatch):
    """Redis killed mid-window: the local share (half of 4 requests per 3 s) already holds the 2 requests the shared
    budget admitted for this process, so a third waits for the window instead of going at once on top of them
    (bench/scale.py's outage row: shares counting from zero let the judge answer 196 requests 429)."""
    monkeypatch.setattr(shared_limits, "RETRY_AFTER_S", 60.0)  # stays on the fallback for the whole test
    budget = shared_limits.Budget(requests_per_minute=80, tokens_per_minute=None, max_in_flight=4, window_s=3.0)
    store = LocalRedis().start()
    try:
        shared = shared_limits.SharedBudget(store.url, "outage", budget, lease_s=30, fallback_share=0.5)
        leases = [await shared.acquire(10), await shared.acquire(10)]
        assert all(lease is not None for lease in leases) and shared.fallbacks == 0  # both by Redis
        store.kill()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(shared.acquire(10), 1.0)  # the share's window is full until ~3 s after them
        assert shared.fallbacks == 1
        assert await asyncio.wait_for(shared.acquire(10), 30) is None  # the window passed: the share admits it
        idle = shared_limits.SharedBudget(store.url, "outage-idle", budget, lease_s=30, fallback_share=0.5)
        assert await asyncio.wait_for(idle.acquire(10), 1.0) is None  # admitted nothing before: its share is free
        await shared.close()
        await idle.close()
    finally:
        store.stop()


def ranks_on_a_killed_redis(monkeypatch, name: str, n: int) -> tuple[LocalRedis, list[shared_limits.SharedBudget]]:
    """A Redis started and killed, and ``n`` processes' budgets on it (half of 4 requests per 3 s each), retrying
    Redis 0.05 s after a failure."""
    monkeypatch.setattr(shared_limits, "RETRY_AFTER_S", 0.05)
    budget = shared_limits.Budget(requests_per_minute=80, tokens_per_minute=None, max_in_flight=8, window_s=3.0)
    store = LocalRedis().start()
    store.kill()
    return store, [
        shared_limits.SharedBudget(store.url, name, budget, lease_s=30, fallback_share=0.5) for _ in range(n)
    ]


async def test_when_redis_is_back_it_counts_what_the_local_share_admitted(monkeypatch):
    """A killed Redis restarts empty: the 2 requests one process's local share (half of 4 per 3 s) let go during the
    outage are booked into its window when that process is back, so a process that asks Redis next is admitted 2
    at once and its third is booked a window later (before: 4 at once on top of the 2)."""
    store, (shared, other) = ranks_on_a_killed_redis(monkeypatch, "back", 2)
    try:
        assert [await shared.acquire(10), await shared.acquire(10)] == [None, None]  # the local share's 2
        assert shared.fallbacks == 2
        store.start()
        await asyncio.sleep(0.1)  # past RETRY_AFTER_S: the next request asks Redis
        back = asyncio.ensure_future(shared.acquire(10))  # books the 2, then waits on its probation (below)
        while not redis.Redis.from_url(store.url).exists("{knowrl:limits:back}:requests"):
            await asyncio.sleep(0.01)
        delays = record_asks(other)
        first, second = await other.acquire(10), await other.acquire(10)
        assert first is not None and second is not None and delays == [0.0, 0.0]
        third = asyncio.ensure_future(other.acquire(10))
        while len(delays) < 3:
            await asyncio.sleep(0.01)
        assert delays[2] > 1.0  # the window holds 2 local + 2 shared: the third goes when the first local ages out
        for task in (third, back):
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        await shared.close()
        await other.close()
    finally:
        store.stop()


async def test_the_first_process_back_keeps_to_its_share_while_another_is_still_on_its_own(monkeypatch):
    """Two processes, each with half of 4 requests per 3 s, spend their local shares while Redis is away (4 in the
    window: the whole budget). Redis comes back; the first to retry must not take another 2 from the restarted
    Redis while the second, not retried yet, still counts on its own 2 (bench/scale.py's outage row: 86 requests
    answered 429 by the judge). For a window after it is back, its local share admits too."""
    store, (first, second) = ranks_on_a_killed_redis(monkeypatch, "probation", 2)
    try:
        for rank in (first, second):
            assert [await rank.acquire(10), await rank.acquire(10)] == [None, None]
        second._down_until = time.monotonic() + 60  # it retries Redis later than this test lasts
        store.start()
        await asyncio.sleep(0.1)
        with pytest.raises(TimeoutError):  # Redis alone would admit it at once: its window holds only 2
            await asyncio.wait_for(first.acquire(10), 1.0)
        lease = await asyncio.wait_for(first.acquire(10), 30)  # the local window passed: admitted, by both
        assert lease is not None and lease.local and first.fallbacks == 2
        await first.release(lease)
        await first.close()
        await second.close()
    finally:
        store.stop()
