"""A second knowledge source plugged in by config alone: the test KB served by ``python -m retrieval.serve`` (a
real process on 127.0.0.1) and read through ``retrieval.http_source.HttpSource`` scores rows exactly as the same
KB opened directly."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

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


class _SlowInfo:
    """A source whose version takes as long to ask as a knowledge server's ``info`` may (up to 2 s)."""

    modes = ("bm25",)

    def __init__(self) -> None:
        self.asked = 0

    @property
    def content_version(self) -> str:
        self.asked += 1
        time.sleep(0.6)
        return f"v{self.asked}"


async def test_a_slow_knowledge_server_never_holds_the_event_loop() -> None:
    """Each step asks the source whether its content changed; asked on the event loop, a slow ``info`` froze a
    reward server's other requests for as long as it took."""
    from reward_engine.stages.retrieve import EvidenceRetriever

    retriever = EvidenceRetriever(_SlowInfo(), mode="bm25")  # asked once at start-up
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.02)
            ticks += 1

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    changed = await retriever.refresh()
    task.cancel()
    assert changed  # v1 at start-up, v2 now: the memo is forgotten
    assert ticks >= 3  # the loop ran other work while the version was asked (blocked: 0)
