"""``JudgeClient(transport=...)``: the client's policy (retries, cache, breaker) over a transport a user hands
it, here one with no network at all."""

from __future__ import annotations

import pytest

from judges.test_server import answer_for
from reward_engine.config import parse_reward_config
from reward_engine.engine import RewardEngine, Sample
from reward_engine.judge.client import JudgeClient
from reward_engine.judge.config import Endpoint, JudgeConfig
from reward_engine.judge.errors import BreakerOpenError, JudgeError, RateLimitedError, RetryableError
from reward_engine.judge.memory import InMemoryTransport


def _config(tmp_path, **extra) -> JudgeConfig:
    return JudgeConfig(
        endpoints=[Endpoint(base_url="memory://judge", model="m")],
        cache_dir=str(tmp_path / "cache"),
        backoff_initial_s=0.01,
        backoff_max_s=0.02,
        **extra,
    )


async def test_retries_and_the_cache_sit_above_the_transport(tmp_path) -> None:
    replies = iter([RateLimitedError("HTTP 429", 0.01), "B"])

    def reply(endpoint, messages, schema):
        item = next(replies)
        if isinstance(item, Exception):
            raise item
        return item

    transport = InMemoryTransport(reply)
    messages = [{"role": "user", "content": "Grade: Lyon for Paris"}]
    async with JudgeClient(_config(tmp_path), transport=transport) as judge:
        first = await judge.complete(messages, "v1")
        again = await judge.complete(messages, "v1")  # deterministic: the cache answers, nothing is sent
    assert first.text == "B" and again.text == "B" and again.cached
    assert len(transport.sent) == 2 and judge.metrics.retries == 1  # the 429, then the answer; none for `again`


async def test_the_breaker_opens_on_a_transport_that_keeps_failing(tmp_path) -> None:
    def reply(endpoint, messages, schema):
        raise RetryableError("HTTP 500")  # a failing endpoint (a 429 is the budget, not a failure)

    config = _config(tmp_path, max_attempts=2, breaker_failures=2, breaker_cooldown_s=60)
    async with JudgeClient(config, transport=InMemoryTransport(reply)) as judge:
        for i in range(3):
            with pytest.raises(JudgeError):
                await judge.complete([{"role": "user", "content": f"q{i}"}], "v1")
        with pytest.raises(BreakerOpenError):
            await judge.complete([{"role": "user", "content": "q9"}], "v1")


async def test_an_engine_scores_through_an_injected_client(tmp_path) -> None:
    """What a user with their own gateway (a queue, a batch API, recorded replies) plugs in."""

    def reply(endpoint, messages, schema):  # the test server's answers, without its HTTP
        return answer_for("\n".join(m["content"] for m in messages), structured=schema is not None)[1]

    config = parse_reward_config(
        {"grader": "llm", "factuality": {"enabled": False}, "judge": _config(tmp_path).model_dump()}
    )
    transport = InMemoryTransport(reply)
    async with RewardEngine(config, judge=JudgeClient(config.judge, transport=transport)) as engine:
        right, wrong = await engine.score(
            [
                Sample("Capital of France?", "<think>France.</think><answer>Paris</answer>", "Paris"),
                Sample("Capital of France?", "<think>France.</think><answer>Lyon</answer>", "Paris"),
            ]
        )
    assert (right.label, wrong.label) == ("CORRECT", "INCORRECT")
    assert len(transport.sent) >= 2 and all(s["model"] == "m" for s in transport.sent)
