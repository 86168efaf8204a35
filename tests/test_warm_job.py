"""``python -m reward_engine.warm``: title coverage, cache hit rates before/after, idempotence."""

from __future__ import annotations

import json

import pytest

from reward_engine.config import parse_reward_config
from reward_engine.warm import warm
from tests.helpers import write_jsonl
from tests.test_score_job import ROWS


@pytest.mark.parametrize("chunk_rows", [1024, 2])  # 2: read, planned and scored a few rows at a time
async def test_warm_fills_every_stage_and_is_idempotent(tmp_path, kb, server, chunk_rows):
    data = tmp_path / "train.json"
    data.write_text(
        json.dumps(
            [
                {"question": "Capital of France?", "answers": "Paris", "title": "Paris;Tokyo"},
                {"question": "Highest mountain?", "answers": "Mount Everest", "title": "Mount Everest;Nowhere"},
                {"question": "Unknown?", "answers": "x", "title": "Not In KB"},
                {"question": "No title?", "answers": "x"},
                {"question": 5, "answers": "x"},
            ],
            indent=1,
        )
    )
    completions = tmp_path / "prev.jsonl"
    write_jsonl(completions, ROWS)
    judge = {"endpoints": [{"base_url": server.url, "model": "m"}], "cache_dir": str(tmp_path / "cache")}
    config = parse_reward_config(
        {"grader": "llm", "decomposer": "llm", "verifier": "llm", "judge": judge, "factuality": {"kb_path": "given"}}
    )
    first = await warm(config, data, completions, kb=kb, chunk_rows=chunk_rows)
    assert first["titles"] == {
        "rows": 4,
        "bad_rows": 1,
        "all_titles": 1,
        "some_titles": 1,
        "no_titles_in_kb": 1,
        "no_title_field": 1,
    }
    assert first["before"]["grader"] == 0.0 and first["after"]["grader"] == 1.0
    assert first["after"]["needed"] == {"grader": 3, "decomposition": 1, "verification": 1}
    assert first["after"]["decomposition"] == 1.0 and first["after"]["verification"] == 1.0
    assert first["judge_requests"] == 5  # 3 grades + 1 decomposition + 1 verification

    second = await warm(config, None, completions, kb=kb, chunk_rows=chunk_rows)
    assert second["before"]["grader"] == 1.0 and second["before"]["verification"] == 1.0
    assert second["judge_requests"] == 0


def test_warm_cli_with_offline_config(tmp_path, kb):
    import subprocess
    import sys

    import yaml

    data = tmp_path / "train.jsonl"
    data.write_text(json.dumps({"question": "Capital of France?", "answers": "Paris", "title": "Paris"}) + "\n")
    completions = tmp_path / "prev.jsonl"
    write_jsonl(completions, ROWS)
    cfg = tmp_path / "reward.yaml"
    cfg.write_text(yaml.safe_dump({"factuality": {"kb_path": str(kb.db_path)}}))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "reward_engine.warm",
            "--data",
            str(data),
            "--completions",
            str(completions),
            "--config",
            str(cfg),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(proc.stdout)
    assert report["titles"]["all_titles"] == 1 and report["judge_requests"] == 0


@pytest.mark.parametrize("chunk_rows", [1024, 1])  # 1: each identical request in its own chunk, counted once
async def test_warm_plans_exactly_what_the_engine_sends_when_inputs_are_cut(tmp_path, kb, server, chunk_rows):
    """Answers beyond max_answer_chars and reasoning beyond max_reasoning_chars are cut before the judge sees
    them; warm's plan must use the same cut text, or its hit rates describe calls the engine never makes."""
    reasoning = "The Eiffel Tower in Paris was completed in 1889 for the World's Fair. " + "Lyon is old. " * 30
    rows = [
        {
            "question": "Capital of France?",
            "answers": "Paris",
            "title": "Paris",
            "completion": f"<think>{reasoning}</think><answer>Lyon, a city of France, {i} times over</answer>",
        }
        for i in range(3)
    ]
    completions = tmp_path / "prev.jsonl"
    write_jsonl(completions, rows)
    judge = {"endpoints": [{"base_url": server.url, "model": "m"}], "cache_dir": str(tmp_path / "cache")}
    config = parse_reward_config(
        {
            "grader": "llm",
            "decomposer": "llm",
            "verifier": "llm",
            "judge": judge,
            "max_answer_chars": 12,
            "factuality": {"kb_path": "given", "max_reasoning_chars": 120},
        }
    )
    first = await warm(config, None, completions, kb=kb, chunk_rows=chunk_rows)
    # three completions whose cut answers and reasoning are identical: one request per stage is sent
    assert first["before"]["needed"]["grader"] == 1 and first["before"]["grader"] == 0.0
    assert first["after"] == {
        "grader": 1.0,
        "decomposition": 1.0,
        "verification": 1.0,
        "needed": {"grader": 1, "decomposition": 1, "verification": 1},
    }
    assert first["judge_requests"] == 3

    from reward_engine.engine import RewardEngine, Sample

    async with RewardEngine(config, kb=kb) as engine:
        await engine.ensure_retriever()
        plan = await engine.plan([Sample(r["question"], r["completion"], r["answers"], r["title"]) for r in rows])
        assert all(p.cached for p in plan.requests) and len(plan.requests) == 3
        assert all(p.key in engine.judge.cache for p in plan.requests)
        await engine.score([Sample(r["question"], r["completion"], r["answers"], r["title"]) for r in rows])
        assert engine.judge.metrics.requests == 0  # every planned hit was a hit
