"""Hostile input, round 2 (issue #44): what a policy can write never stalls a step, and gold answers that
cannot be graded are bad rows, not silent wrong rewards."""

from __future__ import annotations

import random
import re
import time

import pytest

from reward_engine.completion import FORMAT_RE, _blocks, _well_formed, parse, with_think
from reward_engine.config import parse_reward_config
from reward_engine.engine import RewardEngine, Sample


def test_linear_parse_reads_every_completion_as_the_format_regex_does() -> None:
    """The string-search parser agrees with KnowRL's format regex (and the answer-block regex) on tag soup."""
    pieces = ["<think>", "</think>", "<answer>", "</answer>", " ", "x", "\n", "a b", "<THINK>", "\u00a0"]
    rng = random.Random(0)
    for _ in range(50_000):
        text = with_think("".join(rng.choice(pieces) for _ in range(rng.randint(1, 10))).strip())
        match = FORMAT_RE.match(text)
        assert _well_formed(text) == ((match.group(1).strip(), match.group(2).strip()) if match else None), text
        assert _blocks(text) == re.findall(r"<answer>(.*?)</answer>", text, re.DOTALL), text


HOSTILE = {
    "20k-answer-openers": "<think>x</think>" + "<answer>" * 20_000,
    "200k-newlines-in-answer": "<think>Hmm.</think><answer>Lyon" + "\n" * 200_000 + "x</answer>",
    "100k-newlines-in-think": "<think>The tower." + "\n" * 100_000 + "</think><answer>Lyon</answer>",
    "10MB-reasoning": "<think>" + "Lyon is a city. " * 600_000 + "</think><answer>Lyon</answer>",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
async def test_a_hostile_completion_is_scored_inside_the_step_budget(kb, name: str) -> None:
    """These took 21-51 s against a 5 s budget (quadratic regexes in parse, run on the event loop)."""
    budget = 5.0
    config = parse_reward_config(
        {"factuality": {"kb_path": "given", "retrieval_mode": "bm25"}, "step_timeout_s": budget}
    )
    async with RewardEngine(config, kb=kb) as engine:
        started = time.perf_counter()
        (result,) = await engine.score([Sample("What is the capital of France?", HOSTILE[name], "Paris", "Paris")])
        elapsed = time.perf_counter() - started
    assert elapsed < budget + 1.0
    assert result.status == "ok" and result.total is not None


@pytest.mark.parametrize(
    ("answers", "status", "label"),
    [
        ([2], "ok", "CORRECT"),  # a number is the gold "2" (was graded against no gold: INCORRECT)
        (2, "ok", "CORRECT"),
        (["", " "], "bad_input", None),
        ("; |", "bad_input", None),
        (";".join(f"alias {i}" for i in range(300)), "bad_input", None),
    ],
)
async def test_gold_answers_are_validated(answers, status: str, label: str | None) -> None:
    config = parse_reward_config({"factuality": {"enabled": False}})
    async with RewardEngine(config) as engine:
        (result,) = await engine.score(
            [Sample("How many moons does Mars have?", "<think>Two.</think><answer>2</answer>", answers)]
        )
    assert (result.status, result.label) == (status, label)
    if status == "bad_input":
        assert result.total is None and "gold" in result.error
    assert parse("<think>Two.</think><answer>2</answer>").answer == "2"


class _Planted:
    """What an attacker with write access to a shared cache directory plants: unpickling runs a command."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        import os

        return (os.system, (f"touch {self.marker}",))


def test_a_planted_pickle_in_the_judge_cache_never_runs(tmp_path) -> None:
    """The judge's disk cache stores JSON; an entry pickled into its directory reads as a miss, unrun."""
    import diskcache

    from reward_engine.judge.cache import JudgeCache

    marker = tmp_path / "ran"
    with diskcache.Cache(str(tmp_path / "cache")) as raw:  # diskcache's default disk pickles objects
        raw.set("planted", _Planted(str(marker)))
        raw.set("old-text", "a reply cached as raw text by an older version")
    cache = JudgeCache(tmp_path / "cache")
    try:
        assert cache.get("planted") is None and not marker.exists()
        assert cache.get("old-text") is None
        cache.set("reply", {"text": "B", "tokens": [1, 2]})
        cache.flush()
    finally:
        cache.close()
    again = JudgeCache(tmp_path / "cache")
    try:
        assert again.get("reply") == {"text": "B", "tokens": [1, 2]}
    finally:
        again.close()
