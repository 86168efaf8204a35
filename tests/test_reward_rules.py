"""Reward rules as named objects (reward_engine/rules): each preset names its rule, a new rule is a class and a
registration in a module of its own (this file is one: the config imports it as a plugin), and the engine holds
no reward arithmetic of its own. What each built-in rule pays is replayed in tests/test_rule_replay.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from reward_engine.completion import format_reward, parse
from reward_engine.config import ConfigError, parse_reward_config
from reward_engine.engine import RewardEngine, Sample
from reward_engine.labels import Label
from reward_engine.offline.gold import gold_problem
from reward_engine.rules import registry
from reward_engine.rules.base import Reward, RewardRule, Stages
from reward_engine.rules.grading import label_answer
from reward_engine.semantics import PRESETS, semantics

ROOT = Path(__file__).resolve().parents[1]
PAYS = {Label.CORRECT: 1.0, Label.NOT_ATTEMPTED: 0.25}


@registry.register("confidence")
class Confidence(RewardRule):
    """Right +1, abstaining +0.25, anything else -1 (no answer included); no fact term, the preset's format."""

    async def score(self, stages: Stages) -> Reward:
        if not stages.parsed.has_answer:
            return Reward(-1.0)
        problem = gold_problem(stages.sample.answers)
        if problem:
            return Reward.refused(problem)
        label = await label_answer(stages, self.sem)
        return Reward(PAYS.get(label, -1.0))


QUESTION = "What is the capital of France?"
COMPLETIONS = {
    "right": "<think>Paris is the capital and largest city of France.</think><answer>Paris</answer>",
    "abstain": "<think>Hmm.</think><answer>I don't know</answer>",
    "wrong": "<think>Paris lies on the river Seine.</think><answer>Lyon</answer>",
    "cut-off": "<think>Let me recall the capital of France. It is the city on the river",
}


def _config(**over):
    return parse_reward_config({"factuality": {"kb_path": "unused-kb-object-given"}, **over})


@pytest.mark.parametrize(
    "raw",
    [
        {"rule": "confidence", "plugins": ["tests.test_reward_rules"]},
        {"semantics": {"rule": "confidence"}, "plugins": ["tests.test_reward_rules"]},
    ],
    ids=["rule-key", "semantics-rule"],
)
async def test_a_rule_registered_in_a_test_file_scores_from_config(kb, raw) -> None:
    config = _config(**raw)
    rows = [Sample(QUESTION, text, "Paris", "Paris") for text in COMPLETIONS.values()]
    async with RewardEngine(config, kb=kb) as engine:
        assert isinstance(engine.rule, Confidence)
        results = await engine.score(rows)
    got = {name: (r.correctness, r.total, r.label, r.status) for name, r in zip(COMPLETIONS, results)}
    assert got == {
        "right": (1.0, 2.0, "CORRECT", "ok"),  # the preset's format term (knowrl: +1) beside the rule's pay
        "abstain": (0.25, 1.25, "NOT_ATTEMPTED", "ok"),
        "wrong": (-1.0, 0.0, "INCORRECT", "ok"),
        "cut-off": (-1.0, -2.0, None, "ok"),
    }
    assert all(r.factuality is None and not r.claims for r in results)  # it asked for no fact score


async def test_a_custom_rule_under_a_preset_without_format_term(kb) -> None:
    config = _config(preset="truthrl", rule="confidence", plugins=["tests.test_reward_rules"])
    async with RewardEngine(config, kb=kb) as engine:
        (right,) = await engine.score([Sample(QUESTION, COMPLETIONS["right"], "Paris", "Paris")])
    assert (right.format, right.total) == (0.0, 1.0)


def test_each_preset_names_its_rule() -> None:
    rules = {p: _config(preset=p, **({"threshold_t": 0.6} if p == "threshold" else {})) for p in PRESETS}
    assert {p: c.reward_semantics.rule for p, c in rules.items()} == {
        "knowrl": "graded",
        "knowrl-robust": "graded",
        "knowrl-june2025": "graded",
        "truthrl": "ternary",
        "truthrl-strict": "ternary",
        "threshold": "ternary",
        "binary-rar": "binary_rar",
    }
    assert set(registry.names()) >= {"graded", "ternary", "binary_rar"}


def test_an_unknown_rule_is_a_config_error_listing_the_registered_ones() -> None:
    with pytest.raises(ConfigError, match=r"reward rule 'nope' is not registered; registered: \[.*'graded'"):
        _config(rule="nope")


def test_a_rule_refuses_a_config_it_cannot_serve() -> None:
    with pytest.raises(ConfigError, match="rule 'ternary' pays the grader's label alone"):
        _config(preset="truthrl", semantics={"fact_weight": 1.0})
    with pytest.raises(ConfigError, match="Binary RAR needs three-way verdicts"):
        _config(preset="binary-rar", factuality={"kb_path": "unused", "enabled": False})


def test_a_rule_that_pays_the_same_keeps_the_fingerprint() -> None:
    """truthrl's rule is 'ternary' now; before the rules it was 'graded' with no fact term, paying the same: rows
    scored then still resume (the fingerprint is unchanged), while a rule that pays otherwise changes it."""
    truthrl = _config(preset="truthrl")
    assert truthrl.fingerprint() == _config(preset="truthrl", rule="graded").fingerprint()
    other = _config(preset="truthrl", rule="confidence", plugins=["tests.test_reward_rules"])
    assert truthrl.fingerprint() != other.fingerprint()


def test_one_format_arithmetic() -> None:
    """completion.format_reward and every rule's format term are semantics.format_term."""
    texts = list(COMPLETIONS.values()) + ["Paris", "<think>a</think><answer>b</answer> trailing"]
    for preset in ("knowrl", "truthrl", "binary-rar"):
        sem = semantics(preset)
        rule = registry.build(sem.rule, sem)
        assert format_reward(texts, sem) == [rule.format(parse(t)) for t in texts]
    assert format_reward(texts) == [1.0 if parse(t).well_formed else -1.0 for t in texts]


def test_the_engine_holds_no_reward_arithmetic() -> None:
    """engine.py orchestrates: no semantics import, no preset constant, no rule name or abstention mode in it."""
    source = (ROOT / "reward_engine" / "engine.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "reward_engine.semantics" not in imported
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} | {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
    }
    arithmetic = {"format_correct", "format_wrong", "combine", "no_answer_reward", "binary_rar", "uses_fact"}
    arithmetic |= {"fact_score", "abstention", "not_attempted", "fact_weight", "semantics"}
    assert not names & arithmetic, names & arithmetic
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert not strings & {"graded", "ternary", "binary_rar", "phrase", "phrase_strict"}
    for private in ("_factuality", "_fused_factuality", "_select", "_topic", "_grounded", "_shortcut", "_binary_rar"):
        assert f"def {private}(" not in source, private


def test_a_config_unpickled_in_another_process_finds_its_rule(tmp_path) -> None:
    """Ray actors and trainer workers get the config pickled, never validated there: the engine imports the
    config's plugins itself, so a plugin's rule (and stages) are registered where it scores."""
    import pickle
    import subprocess
    import sys

    config = _config(rule="confidence", plugins=["tests.test_reward_rules"])
    (tmp_path / "config.pkl").write_bytes(pickle.dumps(config))
    code = (
        "import pickle, sys; from reward_engine.engine import RewardEngine; "
        "print(type(RewardEngine(pickle.load(open(sys.argv[1], 'rb'))).rule).__name__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "config.pkl")], capture_output=True, text=True, cwd=ROOT
    )
    assert done.stdout.strip() == "Confidence", done.stderr[-2000:]
