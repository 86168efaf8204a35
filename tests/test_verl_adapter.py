"""``reward_engine.verl.compute_score``: verl's batch reward-function contract, called as verl calls it (by
keyword, synchronously, batch after batch), through a real engine."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.helpers import write_offline_config

ROOT = Path(__file__).resolve().parents[1]


def test_verl_batches_score_through_one_engine_per_worker(tmp_path) -> None:
    config = tmp_path / "reward.yaml"
    write_offline_config(config)
    script = textwrap.dedent(
        f"""
        import importlib.util, json
        spec = importlib.util.spec_from_file_location("custom", {str(ROOT / "reward_engine" / "verl.py")!r})
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        kwargs = dict(config={str(config)!r})
        first = module.compute_score(
            data_sources=["capitals"] * 3,
            solution_strs=["<think>Paris.</think><answer>Paris</answer>", "<think>Lyon.</think><answer>Lyon</answer>",
                           "no format"],
            ground_truths=["Paris", ["Paris", "Paname"], "Paris"],
            extra_infos=[{{"question": "Capital of France?"}}] * 3,
            **kwargs,
        )
        second = module.compute_score(
            data_sources=["capitals"], solution_strs=["<think>I am unsure.</think><answer>I don't know</answer>"],
            ground_truths=["Paris"], extra_infos=[{{"question": "Capital of France?"}}], **kwargs,
        )
        print(json.dumps({{"first": first, "second": second, "engines": module._engine_for.cache_info().currsize}}))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert [r["score"] for r in out["first"]] == [3.0, 0.0, -2.0]  # KnowRL: right, wrong, no format
    assert out["first"][0]["correctness"] == 2.0 and out["first"][2]["format"] == -1.0
    assert [r["score"] for r in out["second"]] == [2.0] and out["engines"] == 1  # the second batch reused it


def test_without_a_config_it_says_how_to_give_one(monkeypatch) -> None:
    import pytest

    from reward_engine.verl import compute_score

    monkeypatch.delenv("KNOWRL_REWARD_CONFIG", raising=False)
    with pytest.raises(ValueError, match="reward_kwargs.config"):
        compute_score(["s"], ["x"], ["y"])
