"""Cold-start SFT (one real step), merge, and evaluation metrics on sets with known rates."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from knowrl.config import load_train_config
from knowrl.evaluate import grade_completions, rate_intervals, simpleqa_metrics, wilson
from reward_engine.config import parse_reward_config


def test_simpleqa_metrics_on_known_rates():
    labels = ["CORRECT"] * 5 + ["INCORRECT"] * 3 + ["NOT_ATTEMPTED"] * 1 + [None]
    m = simpleqa_metrics(labels, [True] * 7 + [False] * 3)
    assert (m["correct"], m["incorrect"], m["not_attempted"]) == pytest.approx((0.5, 0.3, 0.2))
    assert m["accuracy_given_attempted"] == pytest.approx(5 / 8)
    assert m["f_score"] == pytest.approx(2 * 0.5 * 0.625 / 1.125)
    assert m["format_compliance"] == pytest.approx(0.7)
    empty = simpleqa_metrics([], [])
    assert empty["f_score"] == 0.0 and empty["n"] == 0


async def test_grading_a_hand_made_set():
    rows = [{"question": "Capital of France?", "answers": "Paris", "title": ""}] * 4
    completions = [
        "<think>It is Paris.</think><answer>Paris</answer>",
        "<think>Hmm.</think><answer>Lyon</answer>",
        "<think>Unsure.</think><answer>I don't know</answer>",
        "Paris",
    ]  # no answer tags: not attempted, not well-formed
    metrics, details = await grade_completions(
        rows, completions, parse_reward_config({"factuality": {"enabled": False}})
    )
    assert (metrics["correct"], metrics["incorrect"], metrics["not_attempted"]) == (0.25, 0.25, 0.5)
    assert metrics["format_compliance"] == 0.75 and [d["label"] for d in details] == [
        "CORRECT",
        "INCORRECT",
        "NOT_ATTEMPTED",
        None,
    ]


def test_one_sft_step_then_merge_then_evaluate(tmp_path):
    data = tmp_path / "cold.json"
    answer = "<think>Paris is the capital of France.</think><answer>Paris</answer>"
    data.write_text(
        json.dumps(
            [
                {
                    "id": str(i),
                    "conversations": [
                        {"from": "human", "value": "What is the capital of France?"},
                        {"from": "gpt", "value": answer},
                    ],
                }
                for i in range(4)
            ]
        )
    )
    cfg = tmp_path / "sft.yaml"
    cfg.write_text(
        f"model: {{name_or_path: tiny}}\nlora: {{r: 4, alpha: 8, target_modules: [q_proj, v_proj]}}\n"
        f"data: {{train: {data}}}\nsft: {{max_steps: 1, per_device_train_batch_size: 2, max_length: 128}}\n"
        f"output_dir: {tmp_path / 'sft'}\nseed: 0\n"
    )
    load_train_config(cfg)  # the sft section is checked against TRL's SFTConfig
    proc = subprocess.run([sys.executable, "-m", "knowrl.sft", "--config", str(cfg)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((tmp_path / "sft" / "summary.json").read_text())
    assert summary["global_step"] == 1 and summary["conversations"] == 4
    adapter = tmp_path / "sft" / "final"
    assert (adapter / "adapter_config.json").exists()

    merged = tmp_path / "merged"
    proc = subprocess.run(
        [sys.executable, "-m", "knowrl.merge", "--base", "tiny", "--adapter", str(adapter), "--out", str(merged)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (merged / "config.json").exists() and not (merged / "adapter_config.json").exists()

    heldout = tmp_path / "heldout.jsonl"
    heldout.write_text(json.dumps({"question": "What is the capital of France?", "answers": "Paris"}) + "\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "knowrl.evaluate",
            "--model",
            str(merged),
            "--data",
            str(heldout),
            "--max-new-tokens",
            "8",
            "--out",
            str(tmp_path / "eval"),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((tmp_path / "eval" / "report.json").read_text())
    assert report["metrics"]["n"] == 1 and report["details"][0]["completion"].startswith("<think>")
    assert (tmp_path / "eval" / "report.md").read_text().startswith("# Evaluation of")


def test_sft_config_rejects_unknown_trl_field(tmp_path):
    from knowrl.config import ConfigError

    cfg = tmp_path / "sft.yaml"
    cfg.write_text("model: {name_or_path: tiny}\ndata: {train: x.json}\nsft: {max_stepz: 1}\n")
    with pytest.raises(ConfigError, match="unknown key 'sft.max_stepz'.*did you mean 'max_steps'"):
        load_train_config(cfg)


def test_wilson_intervals_cover_the_rate_and_narrow_with_n():
    low, high = wilson(17, 40)
    assert 0.28 < low < 0.425 < high < 0.58  # 17/40: [0.285, 0.578]
    assert wilson(0, 40)[0] == 0.0 and wilson(40, 40)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)
    wide, narrow = wilson(17, 40), wilson(68, 160)
    assert narrow[1] - narrow[0] < 0.6 * (wide[1] - wide[0])  # 4x the samples: about half the width
    spans = rate_intervals(["CORRECT"] * 5 + ["INCORRECT"] * 3 + [None, "NOT_ATTEMPTED"])
    assert (
        spans["correct"][0] < 0.5 < spans["correct"][1] and spans["not_attempted"][0] < 0.2 < spans["not_attempted"][1]
    )


def _tiny_batch():
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from knowrl.data import INSTRUCTIONS, render_prompt
    from knowrl.models import resolve_model_path

    path = resolve_model_path("tiny")
    tokenizer = AutoTokenizer.from_pretrained(path)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(path).eval()
    torch.manual_seed(0)
    with torch.no_grad():  # the saved tiny model repeats one token; wider weights make each step differ
        for param in model.parameters():
            param.normal_(0.0, 0.5)
    questions = [
        "What is the capital of France?",
        "Which river flows through the capital city of Hungary, and why?",
        "Who wrote Hamlet?",
    ]
    batch = tokenizer(
        [render_prompt(tokenizer, q, INSTRUCTIONS) for q in questions],
        return_tensors="pt",
        padding=True,
        add_special_tokens=False,
    )
    assert batch["attention_mask"][0].sum() < batch["attention_mask"][1].sum()  # the first row is left-padded
    return model, tokenizer, batch


def test_decode_drops_finished_rows_and_gives_generates_greedy_tokens():
    """Greedy ``decode`` must give what ``model.generate`` gives, row for row, when rows end at different
    steps (the pruned cache, mask and positions stay in step with the rows still running), and k answers
    from one shared prefill must be the single answer repeated."""
    import torch

    from knowrl.decode import decode

    model, tokenizer, batch = _tiny_batch()
    with torch.inference_mode():
        free = model.generate(**batch, max_new_tokens=12, min_new_tokens=12, do_sample=False, pad_token_id=0)
        new = free[:, batch["input_ids"].shape[1] :]
        stop = int(new[0, 2])  # a token the first row emits third: make it the end token
        assert (new[1:] == stop).sum() < 2 * 12  # other rows do not all stop at once
        hf = model.generate(**batch, max_new_tokens=12, do_sample=False, eos_token_id=stop, pad_token_id=stop)
        ours = decode(model, batch["input_ids"], batch["attention_mask"], 12, {stop})
        shared = decode(model, batch["input_ids"], batch["attention_mask"], 12, {stop}, k=3)
    expected = [[t for t in row.tolist()] for row in hf[:, batch["input_ids"].shape[1] :]]
    expected = [row[: row.index(stop)] if stop in row else row for row in expected]
    assert len(ours[0]) == 2  # the first row ended early (its third token is the end token)
    assert any(len(row) > 2 for row in ours[1:])  # and another kept going after it was dropped
    assert ours == expected
    assert shared == [row for row in ours for _ in range(3)]


def test_decode_samples_are_seeded_and_follow_the_temperature():
    """Sampling: the same seed gives the same draws; a near-zero temperature gives the greedy answer;
    k draws per prompt at T = 1 are not all copies of one another."""
    import torch

    from knowrl.decode import decode

    model, _, batch = _tiny_batch()
    ids, mask = batch["input_ids"], batch["attention_mask"]
    with torch.inference_mode():
        greedy = decode(model, ids, mask, 8, {-1})
        torch.manual_seed(3)
        a = decode(model, ids, mask, 8, {-1}, temperature=1.0, k=4)
        torch.manual_seed(3)
        b = decode(model, ids, mask, 8, {-1}, temperature=1.0, k=4)
        cold = decode(model, ids, mask, 8, {-1}, temperature=1e-4, k=2)
    assert a == b
    assert cold == [row for row in greedy for _ in range(2)]
    assert len({tuple(row) for row in a[:4]}) > 1


async def test_evaluation_grades_every_answer_whatever_the_step_budget():
    """A training step's budget left 48 of 300 held-out answers unfinished through a slow judge, and they
    counted as not attempted. Evaluation grades every answer; the budget is a training step's, not its."""
    from judges.test_server import JudgeServer, ServerConfig

    srv = JudgeServer(ServerConfig(latency_ms=600, latency_dist="fixed"))
    await srv.start()
    try:
        config = parse_reward_config(
            {
                "grader": "llm",
                "step_timeout_s": 0.2,
                "factuality": {"enabled": False},
                "judge": {"endpoints": [{"base_url": srv.url, "model": "test", "api_key_env": None}]},
            }
        )
        rows = [{"question": "What is the capital of France?", "answers": "Paris", "title": ""}] * 2
        done = ["<think>x</think><answer>Paris</answer>", "<think>x</think><answer>Lyon</answer>"]
        metrics, details = await grade_completions(rows, done, config)
    finally:
        await srv.stop()
    assert [d["label"] for d in details] == ["CORRECT", "INCORRECT"]
    assert metrics["unscored"] == 0 and [d["status"] for d in details] == ["ok", "ok"]


def test_a_max_length_that_cuts_most_targets_is_an_error_naming_the_length(tmp_path):
    """Issue #73's first study run: sft.max_length 128 under a ~120-token prompt cut every target before its
    <answer>, and the SFT policy wrote no answer at all. Most targets cut: an error before training; a few: a
    warning."""
    from transformers import AutoTokenizer

    from knowrl.config import ConfigError
    from knowrl.models import resolve_model_path
    from knowrl.sft import check_lengths

    tokenizer = AutoTokenizer.from_pretrained(resolve_model_path("tiny", 0))
    short = [{"role": "user", "content": "Capital of France?"}, {"role": "assistant", "content": "Paris"}]
    long = [{"role": "user", "content": "Capital of France? " * 40}, {"role": "assistant", "content": "Paris"}]
    assert check_lengths([short, short], tokenizer, 1024, "cold.json") == 0
    assert check_lengths([short, short, long], tokenizer, 64, "cold.json") == 1  # a warning only
    with pytest.raises(ConfigError, match=r"cold.json: sft.max_length 64 cuts 2 of 3 .*raise sft.max_length"):
        check_lengths([short, long, long], tokenizer, 64, "cold.json")
