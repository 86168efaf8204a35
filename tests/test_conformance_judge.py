"""The second conformance table's set-up and arithmetic (the run itself needs the local 1.5B judge)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bench import conformance_judge as cj
from reward_engine.config import parse_reward_config
from reward_engine.samples import ClaimResult, RewardResult


def test_the_two_sides_differ_only_in_their_prompts(tmp_path):
    templates = {"grader": str(tmp_path / "g.txt"), "decompose": str(tmp_path / "d.txt")}
    for path in templates.values():
        (tmp_path / path).write_text("{question} {gold_answer} {predicted_answer}")
    sides = cj.side_configs(tmp_path, "http://127.0.0.1:9/v1", "judge", "nli-repo", tmp_path / "kb.db", templates)
    shipped, knowrl = sides["shipped"], sides["knowrl"]
    assert knowrl["prompts"] == templates and "prompts" not in shipped
    assert knowrl["judge"].pop("structured_output") == "off" and "structured_output" not in shipped["judge"]
    assert shipped["judge"].pop("cache_dir") != knowrl["judge"].pop("cache_dir")  # no reply shared
    knowrl.pop("prompts")
    assert shipped == knowrl
    shipped_section = cj.shipped_reward()
    assert (shipped["preset"], shipped["verifier"]) == (shipped_section["preset"], shipped_section["verifier"])
    assert shipped["factuality"]["evidence_k"] == shipped_section["factuality"]["evidence_k"]
    parse_reward_config({**shipped, "judge": {**shipped["judge"], "cache_dir": str(tmp_path / "c")}})


def _result(label, total, fact=None, claims=0):
    return RewardResult(
        label=label, total=total, fact_score=fact, claims=[ClaimResult(f"c{i}", True) for i in range(claims)]
    )


def test_the_comparison_counts_what_it_says():
    rows = [SimpleNamespace(id=i) for i in "abcd"]
    shipped = {
        "a": _result("CORRECT", 3.0),
        "b": _result("INCORRECT", 0.2, 0.2, 4),
        "c": _result("NOT_ATTEMPTED", 2.0),
        "d": _result(None, None),  # unscored on one side: left out of every figure
    }
    knowrl = {
        "a": _result("CORRECT", 3.0),
        "b": _result("INCORRECT", 0.0, 0.0, 2),
        "c": _result("INCORRECT", 0.0, 0.0, 0),
        "d": _result("CORRECT", 3.0),
    }
    s = cj.compare_sides(rows, shipped, knowrl)
    assert (s["scored_both"], s["graded_both"], s["same_label"]) == (3, 3, 2)
    assert s["unscored"] == {"shipped": 1, "knowrl": 0}
    assert s["label_pairs"] == {
        ("CORRECT", "CORRECT"): 1,
        ("INCORRECT", "INCORRECT"): 1,
        ("INCORRECT", "NOT_ATTEMPTED"): 1,
    }
    assert s["claims_rows"] == 1 and s["claims_mean"] == {"shipped": 4.0, "knowrl": 2.0}
    assert s["fact_mean_abs_diff"] == pytest.approx(0.2)
    assert s["reward_same"] == 1 and s["reward_mean_abs_diff"] == pytest.approx((0.2 + 2.0) / 3)
    lines = "\n".join(cj.table_lines(s, "qwen2.5-coder-1.5b", {"shipped": 60.0, "knowrl": 120.0}))
    assert "same label on **2 of 3**" in lines and "| INCORRECT | 0 | 1 | 1 |" in lines
