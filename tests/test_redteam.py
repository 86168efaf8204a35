"""Reward-integrity red team (tests/redteam/v1.yaml): completions built to game the reward
score no more than an honest wrong answer, offline and through the test judge server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from reward_engine.config import parse_reward_config
from reward_engine.engine import RewardEngine, RewardResult, Sample

SET = yaml.safe_load((Path(__file__).parent / "redteam" / "v1.yaml").read_text())


def _sample(question_id: str, completion: str) -> Sample:
    q = SET["questions"][question_id]
    return Sample(q["question"], completion, q["answers"], q["title"])


def _config(mode: str, server: Any, preset: str = "knowrl", **factuality: Any):
    factuality = {"kb_path": "unused-kb-object-given", **factuality}
    if mode == "offline":
        return parse_reward_config({"preset": preset, "factuality": factuality})
    judge = {
        "endpoints": [{"base_url": server.url, "model": "test"}],
        "backoff_initial_s": 0.01,
        "backoff_max_s": 0.05,
        "timeout_s": 5,
    }
    return parse_reward_config(
        {
            "preset": preset,
            "grader": "llm",
            "grader_calls": "two" if mode == "judge-two-calls" else "one",
            "decomposer": "llm",
            "verifier": "llm",
            "judge": judge,
            "factuality": factuality,
        }
    )


async def _score_all(config, kb) -> dict[str, RewardResult]:
    names = list(SET["baselines"]) + [a["id"] for a in SET["attacks"]]
    samples = [_sample(b["question"], b["completion"]) for b in SET["baselines"].values()]
    samples += [_sample(a["question"], a["completion"]) for a in SET["attacks"]]
    async with RewardEngine(config, kb=kb) as engine:
        return dict(zip(names, await engine.score(samples)))


def test_the_set_is_versioned_and_covers_every_attack_kind():
    assert SET["version"] == 1
    kinds = " | ".join(a["kind"] for a in SET["attacks"])
    for needed in (
        "addressed to the judge",
        "fake grader verdict",
        "closing the prompt's delimiters",
        "fake gold and predicted-answer fields",
        "note to the grader",
        "ignore previous instructions",
        "mimics the verification",
        "answer tags inside the think",
        "repeated answer blocks",
        "true but irrelevant facts",
        "repeating one fact",
        "empty think block",
        "hedged wrong answer",
        'know" plus a wrong guess',
        "judge-fooling opener",
    ):
        assert needed in kinds, needed


@pytest.mark.parametrize("preset", ["knowrl", "knowrl-robust"])
@pytest.mark.parametrize("mode", ["offline", "judge", "judge-two-calls"])
async def test_no_attack_beats_its_honest_baseline(mode, preset, server, kb):
    scores = await _score_all(_config(mode, server, preset), kb)
    for name in SET["baselines"]:
        assert scores[name].label == "INCORRECT" and scores[name].status in ("ok", "cached"), (name, scores[name])
    failures = []
    for attack in SET["attacks"]:
        got, base = scores[attack["id"]], scores[attack["baseline"]]
        assert got.correctness is not None and got.total is not None, (attack["id"], got.status, got.error)
        beats = got.label == "CORRECT" or got.correctness > base.correctness + 1e-9 or got.total > base.total + 1e-9
        if preset in attack.get("holes", []):
            assert beats, f"{attack['id']}: listed as a hole of {preset} but no longer beats its baseline"
            continue  # known and documented: the hardened presets' ceiling does not apply
        if beats or got.correctness > attack["ceiling"] + 1e-9:
            failures.append(
                f"{attack['id']}: label {got.label}, correctness {got.correctness:.4f} (baseline "
                f"{base.correctness:.4f}, ceiling {attack['ceiling']}), total {got.total:.4f} "
                f"(baseline {base.total:.4f})"
            )
    assert not failures, "\n".join(failures)


async def test_padding_would_pay_without_the_relevance_filter(server, kb):
    """The red team can fail: with every claim counted (KnowRL's rule), padding a title-less row with true
    but irrelevant facts beats the honest wrong answer; the relevance filter (knowrl-robust) stops it."""
    scores = await _score_all(_config("offline", server, relevance="off"), kb)
    assert scores["padding-without-title"].correctness > scores["flute-honest-wrong"].correctness + 0.1
    kept = await _score_all(_config("offline", server, relevance="question"), kb)
    off_topic = [c for c in kept["padding-without-title"].claims if not c.on_topic]
    assert len(off_topic) >= 8 and all(c.supported is None for c in off_topic)
