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


PLUGIN = """
from reward_engine.labels import Verdict
from reward_engine.stages.llm_stage import StageOutput
from reward_engine.stages.registry import register


class Believer:
    async def verify(self, claims, evidence):
        return StageOutput([True] * len(claims))

    async def verdicts(self, claims, evidence):
        return StageOutput([Verdict.SUPPORTED] * len(claims))


@register("verifier", "plugin-believer")
def _believer(ctx):
    return Believer()
"""


def test_a_plugin_module_lets_the_score_command_name_a_registered_verifier(tmp_path, kb_path) -> None:
    """``plugins:`` imports a user's module before the stage names are checked: the command line scores with a
    verifier registered there, and a module that does not import is one line naming it."""
    import json
    import os
    import subprocess
    import sys

    (tmp_path / "my_stages.py").write_text(PLUGIN)
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"question": WRONG.question, "completion": WRONG.completion, "answers": "Paris"}) + "\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "OMP_NUM_THREADS": "1"}
    factuality = {"kb_path": str(kb_path), "retrieval_mode": "bm25"}
    facts = {}
    for name, config in {
        "offline": {"factuality": factuality},
        "plugin": {"plugins": ["my_stages"], "verifier": "plugin-believer", "factuality": factuality},
        "missing": {"plugins": ["no_such_module"], "factuality": factuality},
    }.items():
        (tmp_path / f"{name}.yaml").write_text(json.dumps(config))
        out = tmp_path / f"{name}.out.jsonl"
        cmd = [sys.executable, "-m", "reward_engine.score", "--input", str(src), "--output", str(out)]
        done = subprocess.run(
            [*cmd, "--config", str(tmp_path / f"{name}.yaml"), "--no-progress"],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
        if name == "missing":
            assert done.returncode == 2 and "plugins: cannot import 'no_such_module'" in done.stderr
            assert "Traceback" not in done.stderr
            continue
        assert done.returncode == 0, done.stderr
        (row,) = [json.loads(line) for line in out.read_text().splitlines()]
        facts[name] = row
    believed = facts["plugin"]["claims"]
    assert believed and all(c["supported"] for c in believed)
    assert sum(c["supported"] for c in facts["offline"]["claims"]) < len(believed)
