"""The judge client against the real test judge server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

from judges.test_server import JudgeServer
from reward_engine import prompts
from reward_engine.judge.client import JudgeClient
from reward_engine.judge.config import Endpoint, JudgeConfig
from reward_engine.judge.errors import BreakerOpenError, JudgeError, JudgeTimeoutError
from tests.helpers import server_stats

SECRET = "sk-test-PLANTED-SECRET-4242"


def letter(reply) -> str:
    """The grade letter of a grader reply (grader-v4 replies JSON with the span graded)."""
    return {"CORRECT": "A", "INCORRECT": "B", "NOT_ATTEMPTED": "C"}.get(prompts.parse_grade(reply.text).value, "?")


def client_for(server: JudgeServer, **overrides) -> JudgeClient:
    cfg = {
        "endpoints": [Endpoint(base_url=server.url, model="test-judge")],
        "backoff_initial_s": 0.01,
        "backoff_max_s": 0.05,
        **overrides,
    }
    return JudgeClient(JudgeConfig(**cfg))


async def test_grader_prompt_answered_from_its_fields(server):
    async with client_for(server) as judge:
        cases = [
            ("Paris", "Paris", prompts.Label.CORRECT),
            ("Lyon", "Paris", prompts.Label.INCORRECT),
            ("I don't know", "Paris", prompts.Label.NOT_ATTEMPTED),
        ]
        for answer, gold, label in cases:
            reply = await judge.complete(
                prompts.grader_messages("Capital of France?", gold, answer), prompts.GRADER_VERSION
            )
            assert prompts.parse_grade(reply.text) is label


async def test_max_in_flight_is_observed_by_the_server(server):
    server.config.latency_ms = 60
    async with client_for(server, max_in_flight=4) as judge:
        msgs = [prompts.grader_messages(f"q{i}", "Paris", "Paris") for i in range(20)]
        await asyncio.gather(*(judge.complete(m, prompts.GRADER_VERSION) for m in msgs))
    s = await server_stats(server)
    assert s["requests"] == 20 and s["max_in_flight"] == 4


async def test_client_rpm_limit_keeps_the_server_from_refusing(server):
    # The server refuses a 6th request within 0.5 s; the client sends at most 5 per 1 s. The half second
    # of slack is for a busy machine, where requests paced 1 s apart can arrive closer together.
    server.config.rpm, server.config.window_s = 5, 0.5
    async with client_for(server, requests_per_minute=300, rate_window_s=1.0) as judge:  # 5 per 1 s
        started = time.perf_counter()
        msgs = [prompts.grader_messages(f"q{i}", "Paris", "Paris") for i in range(12)]
        await asyncio.gather(*(judge.complete(m, prompts.GRADER_VERSION) for m in msgs))
        elapsed = time.perf_counter() - started
    s = await server_stats(server)
    assert s["rate_limited"] == 0 and s["completed"] == 12
    assert elapsed >= 2.0  # 12 requests at 5 per second-window need three windows


async def test_429_retry_after_is_honoured(server):
    server.config.rpm, server.config.window_s = 1, 1.0
    async with client_for(server, max_attempts=5) as judge:
        started = time.perf_counter()
        replies = await asyncio.gather(
            *(
                judge.complete(prompts.grader_messages(f"q{i}", "Paris", "Paris"), prompts.GRADER_VERSION)
                for i in range(2)
            )
        )
        elapsed = time.perf_counter() - started
        assert judge.metrics.rate_limited >= 1 and judge.metrics.retries >= 1
    assert all(letter(r) == "A" for r in replies)
    assert elapsed >= 0.9  # waited for the window (Retry-After), not the 10-50 ms backoff
    s = await server_stats(server)
    assert s["rate_limited"] >= 1 and s["completed"] == 2


async def test_hang_is_cut_at_the_timeout(server):
    server.config.fault_rate, server.config.faults = 1.0, ("hang",)
    async with client_for(server, timeout_s=0.3, max_attempts=2) as judge:
        started = time.perf_counter()
        with pytest.raises(JudgeTimeoutError):
            await judge.complete(prompts.grader_messages("q", "Paris", "Paris"), prompts.GRADER_VERSION)
        assert time.perf_counter() - started < 1.5
        assert judge.metrics.timeouts == 2


async def test_malformed_and_500_are_retried_then_given_up(server):
    server.config.fault_rate, server.config.faults = 1.0, ("malformed", "500")
    async with client_for(server, max_attempts=3) as judge:
        with pytest.raises(JudgeError):
            await judge.complete(prompts.grader_messages("q", "Paris", "Paris"), prompts.GRADER_VERSION)
        assert judge.metrics.requests == 3 and judge.metrics.retries == 2
    server.config.fault_rate = 0.5
    async with client_for(server, max_attempts=8) as judge:
        replies = [
            await judge.complete(prompts.grader_messages(f"q{i}", "Paris", "Paris"), prompts.GRADER_VERSION)
            for i in range(10)
        ]
    assert all(letter(r) == "A" for r in replies)


async def test_breaker_opens_and_later_calls_cost_nothing(server):
    server.config.down = True
    async with client_for(server, max_attempts=1, breaker_failures=3, breaker_cooldown_s=60) as judge:
        for i in range(3):
            with pytest.raises(JudgeError):
                await judge.complete(prompts.grader_messages(f"q{i}", "Paris", "Paris"), prompts.GRADER_VERSION)
        before = (await server_stats(server))["requests"]
        counters = judge.metrics.snapshot()
        slots_taken = 0
        real_acquire = judge._slots.acquire

        async def counting_acquire(*args, **kwargs):
            nonlocal slots_taken
            slots_taken += 1
            return await real_acquire(*args, **kwargs)

        judge._slots.acquire = counting_acquire
        for i in range(20):
            with pytest.raises(BreakerOpenError):
                await judge.complete(prompts.grader_messages(f"z{i}", "Paris", "Paris"), prompts.GRADER_VERSION)
        # Counted, not timed: nothing reached the server, nothing was sent, retried (no backoff slept) or
        # waited for a concurrency slot; each call was refused by the breaker.
        assert (await server_stats(server))["requests"] == before
        spent = judge.metrics.since(counters)
        assert (spent["requests"], spent["retries"], spent["breaker_rejections"]) == (0, 0, 20)
        assert slots_taken == 0  # refused before queueing for a slot
        assert judge.breaker.state == "open"


async def test_breaker_recovers_after_cooldown_without_restart(server):
    server.config.down = True
    async with client_for(server, max_attempts=1, breaker_failures=2, breaker_cooldown_s=0.2) as judge:
        for i in range(2):
            with pytest.raises(JudgeError):
                await judge.complete(prompts.grader_messages(f"q{i}", "Paris", "Paris"), prompts.GRADER_VERSION)
        assert judge.breaker.state == "open"
        server.config.down = False
        await asyncio.sleep(0.25)
        reply = await judge.complete(prompts.grader_messages("back", "Paris", "Paris"), prompts.GRADER_VERSION)
        assert letter(reply) == "A" and judge.breaker.state == "closed"


@pytest.mark.parametrize("probe_ends", ["cancelled", "rate_limited"])
async def test_a_probe_without_a_verdict_does_not_wedge_the_breaker(server, probe_ends):
    """The half-open probe is cancelled (step budget) or paced by a 429: the next call may still probe.
    Found by bench/reliability.py: the breaker stayed open for good after the judge came back."""
    server.config.down = True
    async with client_for(server, max_attempts=1, breaker_failures=2, breaker_cooldown_s=0.2, timeout_s=5) as judge:
        for i in range(2):
            with pytest.raises(JudgeError):
                await judge.complete(prompts.grader_messages(f"q{i}", "Paris", "Paris"), prompts.GRADER_VERSION)
        await asyncio.sleep(0.25)
        server.config.down = False
        server.config.fault_rate = 1.0
        if probe_ends == "cancelled":
            server.config.faults = ("hang",)
            probe = asyncio.ensure_future(
                judge.complete(prompts.grader_messages("p", "Paris", "Paris"), prompts.GRADER_VERSION)
            )
            await asyncio.sleep(0.1)
            probe.cancel()
            await asyncio.gather(probe, return_exceptions=True)
        else:
            server.config.faults, server.config.retry_after_s = ("429",), 0.01
            with pytest.raises(JudgeError):
                await judge.complete(prompts.grader_messages("p", "Paris", "Paris"), prompts.GRADER_VERSION)
        server.config.fault_rate = 0.0
        reply = await judge.complete(prompts.grader_messages("after", "Paris", "Paris"), prompts.GRADER_VERSION)
        assert letter(reply) == "A" and judge.breaker.state == "closed"


async def test_repeated_calls_hit_the_cache_and_keys_hold_no_secret(server, tmp_path, monkeypatch):
    monkeypatch.setenv("KNOWRL_JUDGE_API_KEY", SECRET)
    msgs = [prompts.grader_messages(f"q{i}", "Paris", "Paris") for i in range(5)]
    async with client_for(server, cache_dir=str(tmp_path / "cache")) as judge:
        await asyncio.gather(*(judge.complete(m, prompts.GRADER_VERSION) for m in msgs))
        key_with_secret = judge.key_for(msgs[0], prompts.GRADER_VERSION)
    first = (await server_stats(server))["requests"]
    monkeypatch.setenv("KNOWRL_JUDGE_API_KEY", "another-key")
    async with client_for(server, cache_dir=str(tmp_path / "cache")) as judge:
        replies = await asyncio.gather(*(judge.complete(m, prompts.GRADER_VERSION) for m in msgs))
        assert judge.key_for(msgs[0], prompts.GRADER_VERSION) == key_with_secret
        assert all(r.cached for r in replies) and judge.metrics.cache_hits == 5
    assert (await server_stats(server))["requests"] == first == 5
    for path in (tmp_path / "cache").rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes()


async def test_template_version_is_part_of_the_key(server, tmp_path):
    async with client_for(server, cache_dir=str(tmp_path / "cache")) as judge:
        m = prompts.grader_messages("q", "Paris", "Paris")
        assert judge.key_for(m, "grader-v1") != judge.key_for(m, "grader-v2")


async def test_invalid_replies_are_retried_and_never_cached(server, tmp_path):
    server.config.fault_rate, server.config.faults = 1.0, ("wrong",)
    async with client_for(server, cache_dir=str(tmp_path / "c"), max_attempts=2) as judge:
        valid = lambda text: prompts.parse_grade(text) is not prompts.Label.UNPARSEABLE  # noqa: E731
        with pytest.raises(JudgeError):
            await judge.complete(prompts.grader_messages("q", "Paris", "Paris"), prompts.GRADER_VERSION, validate=valid)
        assert judge.metrics.invalid == 2 and len(judge.cache) == 0
        assert judge.metrics.parsed == {"other": {"never": 1}}
    # The retry is asked warmer: at temperature 0 a deterministic judge repeats the refused reply.
    assert (await server_stats(server))["temperatures"] == {"0.0": 1, "0.7": 1}


async def test_parse_outcomes_are_tallied_per_kind(server):
    """What real_judge.md reports: per kind of call, replies that parsed first time, after a retry, never."""
    valid = lambda text: prompts.parse_grade(text) is not prompts.Label.UNPARSEABLE  # noqa: E731
    async with client_for(server, max_attempts=2) as judge:
        for i in range(3):
            await judge.complete(
                prompts.grader_messages(f"q{i}", "Paris", "Paris"), prompts.GRADER_VERSION, validate=valid, kind="grade"
            )
        server.config.fault_rate, server.config.faults = 1.0, ("wrong",)
        with pytest.raises(JudgeError):
            await judge.complete(
                prompts.grader_messages("q9", "Paris", "Paris"), prompts.GRADER_VERSION, validate=valid, kind="grade"
            )
        server.config.fault_rate = 0.5  # some first replies refused, some retries pass
        outcomes = []
        for i in range(40):
            try:
                await judge.complete(
                    prompts.grader_messages(f"r{i}", "Paris", "Paris"),
                    prompts.GRADER_VERSION,
                    validate=valid,
                    kind="verify",
                )
                outcomes.append("ok")
            except JudgeError:
                outcomes.append("never")
        await judge.complete(prompts.grader_messages("no-check", "Paris", "Paris"), prompts.GRADER_VERSION)
    grade, verify = judge.metrics.parsed["grade"], judge.metrics.parsed["verify"]
    assert grade == {"first": 3, "never": 1}
    assert verify["first"] > 0 and verify["retry"] > 0 and sum(verify.values()) == 40
    assert verify["never"] == outcomes.count("never")
    assert set(judge.metrics.parsed) == {"grade", "verify"}  # a call without a validator is not a parse


async def test_api_key_is_sent_as_bearer(server, monkeypatch):
    seen = {}

    @aiohttp.web.middleware
    async def capture(request, handler):
        seen["auth"] = request.headers.get("Authorization")
        return await handler(request)

    monkeypatch.setenv("MY_JUDGE_KEY", SECRET)
    app_server = JudgeServer()
    app = app_server.app()
    app.middlewares.append(capture)
    runner = aiohttp.web.AppRunner(app)
    await runner.setup()
    site = aiohttp.web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    cfg = JudgeConfig(
        endpoints=[Endpoint(base_url=f"http://127.0.0.1:{port}/v1", model="m", api_key_env="MY_JUDGE_KEY")]
    )
    async with JudgeClient(cfg) as judge:
        await judge.complete(prompts.grader_messages("q", "Paris", "Paris"), prompts.GRADER_VERSION)
    await runner.cleanup()
    assert seen["auth"] == f"Bearer {SECRET}"


async def test_tokens_per_minute_limit_spreads_requests(server):
    # Each grader request is estimated at ~150 prompt tokens + 4: a 400-token window fits two.
    async with client_for(server, tokens_per_minute=400 * 60, rate_window_s=1.0) as judge:  # 400 per second
        started = time.perf_counter()
        await asyncio.gather(
            *(
                judge.complete(prompts.grader_messages(f"q{i}", "Paris", "Paris"), prompts.GRADER_VERSION)
                for i in range(6)
            )
        )
        elapsed = time.perf_counter() - started
    assert elapsed >= 2.0  # 6 requests at 2 per second-window


async def test_a_dead_endpoint_fails_over_to_the_next(server):
    dead = "http://127.0.0.1:9/v1"  # nothing listens on the discard port
    cfg = JudgeConfig(
        endpoints=[Endpoint(base_url=dead, model="m"), Endpoint(base_url=server.url, model="m")],
        backoff_initial_s=0.01,
        backoff_max_s=0.02,
        max_attempts=3,
        timeout_s=2,
    )
    async with JudgeClient(cfg) as judge:
        replies = [
            await judge.complete(prompts.grader_messages(f"q{i}", "Paris", "Paris"), prompts.GRADER_VERSION)
            for i in range(4)
        ]
    assert all(letter(r) == "A" for r in replies)
    assert (await server_stats(server))["completed"] == 4


async def test_no_secret_in_logs(server, tmp_path, monkeypatch, caplog):
    import logging

    monkeypatch.setenv("KNOWRL_JUDGE_API_KEY", SECRET)
    server.config.fault_rate, server.config.faults = 0.5, ("500", "malformed", "429")
    caplog.set_level(logging.DEBUG)
    async with client_for(server, cache_dir=str(tmp_path / "c"), max_attempts=6, max_retry_after_s=0.05) as judge:
        for i in range(6):
            try:
                await judge.complete(prompts.grader_messages(f"q{i}", "Paris", "Paris"), prompts.GRADER_VERSION)
            except JudgeError as exc:
                assert SECRET not in str(exc)
        assert SECRET not in repr(judge.config) and SECRET not in judge.config.model_dump_json()
    assert SECRET not in caplog.text


async def test_endpoints_serving_different_models_never_share_cached_answers(server, tmp_path):
    endpoints = [Endpoint(base_url=server.url, model="judge-a"), Endpoint(base_url=server.url, model="judge-b")]
    msgs = prompts.grader_messages("Capital of France?", "Paris", "Paris")
    async with client_for(server, endpoints=endpoints, cache_dir=str(tmp_path / "cache")) as judge:
        replies = [await judge.complete(msgs, prompts.GRADER_VERSION) for _ in range(4)]  # a, b, a, b
        assert await judge.cached(msgs, prompts.GRADER_VERSION) is not None  # both models answered: a sure hit
    assert [r.cached for r in replies] == [False, False, True, True]
    assert (await server_stats(server))["requests"] == 2  # each model asked once


async def test_a_cached_answer_of_one_model_is_not_a_planned_hit_for_a_pool_of_two(server, tmp_path):
    msgs = prompts.grader_messages("Capital of France?", "Paris", "Paris")
    async with client_for(
        server, cache_dir=str(tmp_path / "cache"), endpoints=[Endpoint(base_url=server.url, model="judge-a")]
    ) as judge:
        await judge.complete(msgs, prompts.GRADER_VERSION)
    two = [Endpoint(base_url=server.url, model="judge-a"), Endpoint(base_url=server.url, model="judge-b")]
    async with client_for(server, cache_dir=str(tmp_path / "cache"), endpoints=two) as judge:
        assert await judge.cached(msgs, prompts.GRADER_VERSION) is None


def test_a_new_event_loop_closes_the_session_of_the_old_one():
    from judges.test_server import serve_in_thread

    with serve_in_thread() as server:
        judge = client_for(server)
        msgs = prompts.grader_messages("Capital of France?", "Paris", "Paris")
        asyncio.run(judge.complete(msgs, prompts.GRADER_VERSION))  # first loop, then it is closed
        first = judge.wire.session
        assert first is not None and not first.closed
        asyncio.run(judge.complete(msgs, prompts.GRADER_VERSION))  # a second loop: a second session
        assert first.closed and judge.wire.session is not first

        async def close() -> None:
            await judge.close()

        asyncio.run(close())


async def test_breaker_transitions_and_retries_are_logged_as_warnings(server, caplog):
    import logging

    caplog.set_level(logging.WARNING, logger="reward_engine")
    server.config.fault_rate, server.config.faults = 1.0, ("500",)
    async with client_for(server, breaker_failures=2, breaker_cooldown_s=0.2, max_attempts=2) as judge:
        msgs = prompts.grader_messages("Capital of France?", "Paris", "Paris")
        with pytest.raises(JudgeError):
            await judge.complete(msgs, prompts.GRADER_VERSION)
        server.config.fault_rate = 0.0
        await asyncio.sleep(0.25)
        await judge.complete(msgs, prompts.GRADER_VERSION)
    text = caplog.text
    assert "judge retry 1/1 after RetryableError: HTTP 500" in text
    assert "breaker open after 2 consecutive failures" in text
    assert "half-open" in text and "breaker closed" in text


async def test_identical_calls_in_flight_are_sent_once(server):
    """GRPO's generations of one prompt often give the same answer: one grader request serves them all."""
    server.config.latency_ms = 100
    msgs = prompts.grader_messages("Capital of France?", "Paris", "Lyon")
    async with client_for(server) as judge:
        replies = await asyncio.gather(*(judge.complete(msgs, prompts.GRADER_VERSION) for _ in range(5)))
        assert {letter(r) for r in replies} == {"B"} and judge.metrics.deduplicated == 4
    assert (await server_stats(server))["requests"] == 1


async def test_a_caller_leaving_does_not_cancel_a_shared_call(server):
    server.config.latency_ms = 200
    msgs = prompts.grader_messages("Capital of France?", "Paris", "Lyon")
    async with client_for(server) as judge:
        leaving = asyncio.ensure_future(judge.complete(msgs, prompts.GRADER_VERSION))
        staying = asyncio.ensure_future(judge.complete(msgs, prompts.GRADER_VERSION))
        await asyncio.sleep(0.05)
        leaving.cancel()  # e.g. a dropped speculative call
        assert letter(await staying) == "B"
        alone = asyncio.ensure_future(
            judge.complete(prompts.grader_messages("q2", "Paris", "Lyon"), prompts.GRADER_VERSION)
        )
        await asyncio.sleep(0.05)
        alone.cancel()  # its only caller left: the request itself is cancelled
        await asyncio.gather(alone, return_exceptions=True)
        assert alone.cancelled() and not judge._inflight


async def test_a_probe_waiting_for_the_rate_limit_does_not_fail_the_other_calls(server):
    """The half-open probe is taken when a request is sent, not while it waits for a rate-limit window:
    otherwise every other call failed fast with 'breaker open' for up to a minute (the 20k-row soak)."""
    async with client_for(
        server, max_attempts=1, breaker_failures=1, breaker_cooldown_s=0.05, requests_per_minute=60, rate_window_s=1.0
    ) as judge:
        server.config.down = True
        with pytest.raises(JudgeError):
            await judge.complete(prompts.grader_messages("q0", "Paris", "Paris"), prompts.GRADER_VERSION)
        assert judge.breaker.state != "closed"
        server.config.down = False
        await asyncio.sleep(0.1)  # cooled down: half-open; the 1-per-second window still holds the 3 calls
        replies = await asyncio.gather(
            *(
                judge.complete(prompts.grader_messages(f"q{i}", "Paris", "Paris"), prompts.GRADER_VERSION)
                for i in range(1, 4)
            ),
            return_exceptions=True,
        )
    assert [letter(r) if hasattr(r, "text") else r for r in replies] == ["A", "A", "A"]
    assert judge.breaker.state == "closed" and judge.metrics.breaker_rejections == 0


def test_only_the_probe_holder_frees_the_half_open_probe():
    """A call that never held the probe (sent before the breaker opened, or still waiting for a
    rate-limit window) ends without a verdict: the probe stays taken, so no second probe goes out."""
    from reward_engine.judge.breaker import CircuitBreaker

    now = [0.0]
    breaker = CircuitBreaker(failure_threshold=1, cooldown_s=10, clock=lambda: now[0])
    breaker.failure()
    now[0] = 11.0
    probe, other = object(), object()
    assert breaker.state == "half_open" and breaker.allow(probe)
    breaker.release(other)
    assert not breaker.allow(other)  # the probe is still out
    breaker.release(probe)  # the probe was cancelled: the next call may probe
    assert breaker.allow(other)
    breaker.success()
    assert breaker.state == "closed"


async def test_a_reply_over_the_size_limit_fails_the_attempt_without_holding_it():
    """A 20 MB reply (sent gzipped: 20 KB on the wire) is refused at max_reply_bytes and retried, never read whole."""
    import gzip
    import json as json_lib

    from aiohttp import web

    sizes = {"requests": 0}
    huge = json_lib.dumps({"choices": [{"message": {"content": "A" + " " * 20_000_000}}]}).encode()
    packed = gzip.compress(huge)

    async def reply(request):
        sizes["requests"] += 1
        return web.Response(body=packed, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"})

    app = web.Application()
    app.router.add_post("/v1/chat/completions", reply)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    try:
        cfg = JudgeConfig(
            endpoints=[Endpoint(base_url=f"http://127.0.0.1:{port}/v1", model="m")],
            max_attempts=2,
            backoff_initial_s=0.01,
            backoff_max_s=0.02,
            max_reply_bytes=1_000_000,
        )
        async with JudgeClient(cfg) as judge:
            with pytest.raises(JudgeError, match="over 1000000 bytes"):
                await judge.complete(prompts.grader_messages("q", "Paris", "Paris"), prompts.GRADER_VERSION)
        assert sizes["requests"] == 2 and judge.metrics.retries == 1
    finally:
        await runner.cleanup()


async def test_a_list_reply_cut_at_max_tokens_is_refused_not_parsed_short(server):
    """A decomposition cut at max_tokens would parse with claims missing: it is asked again (warmer) and,
    still cut, the engine gets a clear error instead of a short list."""
    from reward_engine.prompts import decompose_messages

    reasoning = " ".join(f"Claim number {i} is about the river Seine in Paris." for i in range(30))
    config = JudgeConfig(endpoints=[{"base_url": server.url, "model": "test"}], backoff_initial_s=0.01, max_attempts=2)
    async with JudgeClient(config) as judge:
        messages = decompose_messages(reasoning)
        with pytest.raises(JudgeError, match="cut at max_tokens"):
            await judge.complete(messages, "decompose-v1", max_tokens=20, kind="decompose", whole=True)
        cut = await judge.complete(messages, "decompose-v1", max_tokens=20, kind="grade")  # not a list: kept
        full = await judge.complete(messages, "decompose-v1", max_tokens=4000, kind="decompose", whole=True)
    assert len(cut.text) == 80 and full.text.count("\n- ") + 1 > 20
    stats = await server_stats(server)
    assert stats["truncated"] == 3 and stats["requests"] == 4  # the cut list was asked twice
