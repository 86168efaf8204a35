"""Stages by registry: a verifier a user registers is chosen by the config alone and scores end to end; an
unknown name is a config error that lists the registered ones."""

from __future__ import annotations

import pytest

from reward_engine.config import ConfigError, parse_reward_config
from reward_engine.engine import RewardEngine, Sample
from reward_engine.labels import Verdict
from reward_engine.stages.llm_stage import StageOutput
from reward_engine.stages.registry import StageContext, names, register


class EverythingSupported:
    """A verifier that believes every claim (what a reward hack would love): easy to see in the fact score."""

    async def verify(self, claims, evidence) -> StageOutput:
        return StageOutput([True] * len(claims))

    async def verdicts(self, claims, evidence) -> StageOutput:
        return StageOutput([Verdict.SUPPORTED] * len(claims))


@register("verifier", "test-everything-supported")
def _everything_supported(ctx: StageContext) -> EverythingSupported:
    return EverythingSupported()


WRONG = Sample(
    "Capital of France?",
    "<think>The capital of France is Lyon. Lyon is on the Moon.</think><answer>Lyon</answer>",
    "Paris",
    "Paris",
)


async def test_a_registered_verifier_is_chosen_by_name(kb) -> None:
    scored = {}
    for verifier in ("offline", "test-everything-supported"):
        config = parse_reward_config(
            {"verifier": verifier, "factuality": {"kb_path": "given", "retrieval_mode": "bm25"}}
        )
        async with RewardEngine(config, kb=kb) as engine:
            (scored[verifier],) = await engine.score([WRONG])
    believed = scored["test-everything-supported"]
    assert believed.claims and all(c.supported for c in believed.claims)
    offline = scored["offline"]  # the offline rules do not believe "Lyon is on the Moon"
    assert sum(c.supported for c in offline.claims) < len(believed.claims)
    assert believed.factuality != offline.factuality


def test_an_unknown_stage_name_lists_the_registered_ones() -> None:
    assert {"offline", "llm", "nli"} <= set(names("verifier"))
    with pytest.raises(ConfigError, match=r"verifier 'nil' is not registered; registered: \[.*'nli'"):
        parse_reward_config({"verifier": "nil", "factuality": {"enabled": False}})
