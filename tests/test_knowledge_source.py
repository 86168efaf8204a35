"""A second knowledge source plugged in by config alone: the test KB served by ``python -m retrieval.serve`` (a
real process on 127.0.0.1) and read through ``retrieval.http_source.HttpSource`` scores rows exactly as the same
KB opened directly."""

from __future__ import annotations

import subprocess
import sys

import pytest

from retrieval.source import KnowledgeSource, load_source
from reward_engine.config import parse_reward_config
from reward_engine.engine import RewardEngine, Sample

ROWS = [
    Sample(
        "Capital of France?",
        "<think>Paris is the capital of France. The Eiffel Tower is in Lyon.</think><answer>Lyon</answer>",
        "Paris",
        "Paris",
    ),
    Sample("Highest mountain?", "<think>Everest is the highest mountain.</think><answer>K2</answer>", "Everest", None),
]


@pytest.fixture
def served_kb(kb_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "retrieval.serve", "--db", str(kb_path), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert "served on" in line, proc.stderr.read()[-2000:]
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _facts(results) -> list:
    return [(r.label, r.factuality, [(c.text, c.supported, c.evidence_ids) for c in r.claims]) for r in results]


async def test_a_search_service_scores_rows_as_the_kb_itself(tmp_path, kb_path, served_kb) -> None:
    common = {"grader": "offline", "decomposer": "offline", "verifier": "offline"}
    direct = parse_reward_config({**common, "factuality": {"kb_path": str(kb_path), "retrieval_mode": "bm25"}})
    remote = parse_reward_config(
        {
            **common,
            "factuality": {
                "source": "retrieval.http_source:HttpSource",
                "source_options": {"url": served_kb},
                "retrieval_mode": "bm25",
            },
        }
    )
    async with RewardEngine(direct) as engine:
        want = await engine.score(ROWS)
    async with RewardEngine(remote) as engine:
        got = await engine.score(ROWS)
        assert isinstance(engine._kb, KnowledgeSource) and type(engine._kb).__name__ == "HttpSource"
    assert _facts(got) == _facts(want) and any(c[1] for r in _facts(got) for c in r[2])  # evidence was found
    assert remote.fingerprint() != direct.fingerprint()


def test_the_sqlite_kb_is_a_knowledge_source_too(kb) -> None:
    assert isinstance(kb, KnowledgeSource)


def test_a_source_that_cannot_be_loaded_says_why() -> None:
    with pytest.raises(ValueError, match="write it as 'package.module:Factory'"):
        load_source("retrieval.http_source")
    with pytest.raises(ValueError, match="cannot be loaded"):
        load_source("retrieval.nowhere:Thing")
    with pytest.raises(ValueError, match="made a dict, not a knowledge source"):
        load_source("builtins:dict")
