"""The LLM verifier splits a long completion's claims over several calls (the real test judge on 127.0.0.1)."""

from __future__ import annotations

import asyncio

import pytest

from judges.test_server import JudgeServer, answer_for
from retrieval.kb import Passage
from reward_engine.judge.client import JudgeClient
from reward_engine.judge.config import Endpoint, JudgeConfig
from reward_engine.judge.errors import JudgeError
from reward_engine.judge.memory import InMemoryTransport
from reward_engine.labels import Verdict
from reward_engine.stages.verify import LLMVerifier
from tests.helpers import server_stats

CITIES = "Paris Rome Madrid Berlin Vienna Lisbon Athens Dublin Oslo Bern Prague Warsaw Budapest".split()
COUNTRIES = "France Italy Spain Germany Austria Portugal Greece Ireland Norway Switzerland Czechia Poland Hungary"


def _claims() -> tuple[list[str], list[list[Passage]], list[bool]]:
    """13 claims (a padded completion's count); every third has a passage naming another city: not supported."""
    claims, evidence, truth = [], [], []
    for i, (city, country) in enumerate(zip(CITIES, COUNTRIES.split())):
        true = i % 3 != 1
        claims.append(f"{city} is the capital of {country}.")
        named = city if true else CITIES[(i + 1) % len(CITIES)]
        evidence.append([Passage(i, country, f"{named} is the capital of {country}.")])
        truth.append(true)
    return claims, evidence, truth


def _client(server: JudgeServer, cache_dir: str | None = None) -> JudgeClient:
    return JudgeClient(JudgeConfig(endpoints=[Endpoint(base_url=server.url, model="test-judge")], cache_dir=cache_dir))


async def test_claims_go_eight_to_a_call_and_come_back_in_order(server):
    claims, evidence, truth = _claims()
    async with _client(server) as judge:
        split = await LLMVerifier(judge, claims_per_call=8).verify(claims, evidence)
        calls_split = (await server_stats(server))["by_kind"]["verify"]
        whole = await LLMVerifier(judge, claims_per_call=64).verify(claims, evidence)
        calls_whole = (await server_stats(server))["by_kind"]["verify"] - calls_split
        verdicts = await LLMVerifier(judge, claims_per_call=5).verdicts(claims, evidence)
    assert (calls_split, calls_whole) == (2, 1)
    assert split.value == whole.value == truth
    assert [v is Verdict.SUPPORTED for v in verdicts.value] == truth


async def test_a_split_completion_is_cached_only_when_every_call_was(server, tmp_path):
    claims, evidence, truth = _claims()
    async with _client(server, str(tmp_path / "cache")) as judge:
        verifier = LLMVerifier(judge, claims_per_call=8)
        first = await verifier.verify(claims[:8], evidence[:8])  # the first call's claims, alone
        again = await verifier.verify(claims, evidence)  # its first call cached, its second not
        third = await verifier.verify(claims, evidence)
    assert (first.cached, again.cached, third.cached) == (False, False, True)
    assert again.value == third.value == truth


class _SlowAndBroken(InMemoryTransport):
    """The call holding Paris's claim never parses; the one holding Oslo's answers late."""

    def __init__(self) -> None:
        super().__init__(lambda endpoint, messages, schema: self._reply(messages))
        self.answered: list[str] = []

    def _reply(self, messages) -> str:
        content = "\n".join(m["content"] for m in messages)
        return "not json" if "Paris is" in content else answer_for(content, structured=True)[1]

    async def post(self, endpoint, messages, max_tokens, temperature, schema):
        content = "\n".join(m["content"] for m in messages)
        if "Oslo is" in content:
            await asyncio.sleep(0.3)
        reply = await super().post(endpoint, messages, max_tokens, temperature, schema)
        self.answered.append("slow" if "Oslo is" in content else "fast")
        return reply


async def test_a_failed_call_fails_the_completion_after_its_siblings_are_done():
    """No partial verdicts, and no call left running into the next step (holding a judge slot)."""
    claims, evidence, _ = _claims()
    transport = _SlowAndBroken()
    config = JudgeConfig(endpoints=[Endpoint(base_url="memory://j", model="m")], max_attempts=1)
    async with JudgeClient(config, transport=transport) as judge:
        with pytest.raises(JudgeError):
            await LLMVerifier(judge, claims_per_call=8).verify(claims, evidence)
        assert "slow" in transport.answered  # Oslo's call (claims 9-13) finished before the error came back
