"""``judges.<stage>``: a judge of its own for a stage, as KnowRL's scripts split them (one endpoint and key for
grading, another for FActScore's decomposition): each stage's requests reach its own server only, with its own
cache, and the plan and the counters cover both."""

from __future__ import annotations

import pytest

from judges.test_server import JudgeServer, ServerConfig
from reward_engine.config import ConfigError, parse_reward_config
from reward_engine.engine import RewardEngine, Sample

WRONG = "<think>The capital of France is Lyon. Paris is a city in France.</think><answer>Lyon</answer>"
RIGHT = "<think>The capital of France is Paris.</think><answer>Paris</answer>"


@pytest.fixture
async def second_server():
    srv = JudgeServer(ServerConfig())
    await srv.start()
    yield srv
    await srv.stop()


def _judge(url: str, cache: str) -> dict:
    return {"endpoints": [{"base_url": url, "model": "m"}], "cache_dir": cache}


async def test_grading_and_factuality_go_to_their_own_judges(tmp_path, kb, server, second_server) -> None:
    config = parse_reward_config(
        {
            "grader": "llm",
            "decomposer": "llm",
            "verifier": "llm",
            "judge": _judge(server.url, str(tmp_path / "grading")),
            "judges": {
                "decompose": _judge(second_server.url, str(tmp_path / "facts")),
                "verify": _judge(second_server.url, str(tmp_path / "facts")),
            },
            "factuality": {"kb_path": "given"},
        }
    )
    samples = [Sample("Capital of France?", c, "Paris", "Paris") for c in (WRONG, RIGHT)]
    async with RewardEngine(config, kb=kb) as engine:
        assert len(engine.judges) == 3  # the shared one (grading) and one per named stage
        wrong, right = await engine.score(samples)
        counters = engine.judge_counters()
        plan = (await engine.plan(samples)).summary()
    assert (wrong.label, right.label) == ("INCORRECT", "CORRECT") and wrong.factuality is not None
    assert set(server.stats.by_kind) == {"grader"}  # grading went to the first server only
    assert set(second_server.stats.by_kind) == {"decompose", "verify"}  # the facts to the second
    assert counters["requests"] == server.stats.requests + second_server.stats.requests
    assert plan["needed"] == {"grader": 2, "decomposition": 1, "verification": 1}  # each stage's own cache
    assert plan["grader"] == plan["decomposition"] == plan["verification"] == 1.0


def test_a_judged_stage_needs_a_judge_of_some_kind() -> None:
    judge = _judge("http://127.0.0.1:9/v1", "/tmp/x")
    parse_reward_config({"grader": "llm", "judges": {"grade": judge}, "factuality": {"enabled": False}})  # enough
    with pytest.raises(ConfigError, match="decomposer 'llm' needs a 'judge' section \\(or judges.decompose\\)"):
        parse_reward_config({"decomposer": "llm", "judges": {"grade": judge}, "factuality": {"kb_path": "x"}})
    with pytest.raises(ConfigError, match="judges.grader"):
        parse_reward_config({"grader": "llm", "judges": {"grader": judge}, "factuality": {"enabled": False}})


def test_the_fingerprint_follows_a_stage_judges_model() -> None:
    base = {"grader": "llm", "judge": _judge("http://a/v1", "/tmp/x"), "factuality": {"enabled": False}}
    one = parse_reward_config(base).fingerprint()
    other = {
        **base,
        "judges": {
            "grade": {**_judge("http://b/v1", "/tmp/y"), "endpoints": [{"base_url": "http://b/v1", "model": "n"}]}
        },
    }
    assert parse_reward_config(other).fingerprint() != one


def test_the_fingerprint_follows_how_the_grade_is_reached_and_what_a_verifier_is_shown() -> None:
    base = {"grader": "llm", "judge": _judge("http://a/v1", "/tmp/x"), "factuality": {"kb_path": "kb.db"}}
    one = parse_reward_config(base).fingerprint()
    assert parse_reward_config({**base, "grader_calls": "two"}).fingerprint() != one
    assert parse_reward_config({**base, "grader_aliases": "kb"}).fingerprint() != one
    split = {"kb_path": "kb.db", "claims_per_call": 4}
    assert parse_reward_config({**base, "factuality": split}).fingerprint() == one  # offline verifier: unused
    llm = {**base, "decomposer": "llm", "verifier": "llm"}
    assert parse_reward_config({**llm, "factuality": split}).fingerprint() != parse_reward_config(llm).fingerprint()
