"""knowrl.train: config validation, data loaders, and the smoke run through real TRL GRPO steps."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl.config import ConfigError, load_train_config
from knowrl.data import load_rl_rows, load_sharegpt, render_prompt

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"
SHARED = ROOT.parent / "shared" / "data" / "knowrl"


def write(tmp_path, text, name="cfg.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


BASE = "model: {name_or_path: tiny}\ndata: {train: data.jsonl}\n"


@pytest.mark.parametrize(
    "extra,message",
    [
        ("outptu_dir: x\n", "unknown key 'outptu_dir'; did you mean 'output_dir'"),
        ("lora: {rank: 4}\n", "unknown key 'lora.rank'"),
        (
            "grpo: {lossy_type: dapo}\n",
            "unknown key 'grpo.lossy_type' (not a field of TRL's GRPOConfig); did you mean 'loss_type'",
        ),
        ("lora: {r: many}\n", "lora.r: Input should be a valid integer"),
        ("reward: {grder: offline, factuality: {enabled: false}}\n", "unknown key 'grder'; did you mean 'grader'"),
    ],
)
def test_config_errors_name_the_key(tmp_path, extra, message):
    with pytest.raises(ConfigError) as err:
        load_train_config(write(tmp_path, BASE + extra))
    assert message in str(err.value) and "cfg.yaml" in str(err.value)


@pytest.mark.parametrize("where", ["out", "out/run"])
def test_an_output_dir_that_is_a_file_is_a_config_error(tmp_path, where):
    """It was found at the first save: a FileExistsError traceback after the model and data had loaded."""
    (tmp_path / "out").write_text("a file")
    with pytest.raises(ConfigError, match=f"output_dir: {tmp_path / 'out'} exists and is not a folder"):
        load_train_config(write(tmp_path, BASE + f"output_dir: {tmp_path / where}\n"))


def test_missing_config_file_is_clear(tmp_path):
    with pytest.raises(ConfigError, match="config file not found"):
        load_train_config(tmp_path / "nope.yaml")


@pytest.mark.parametrize("name", ["gpt2", "HuggingFaceTB/SmolLM2-135M-Instruct"])
def test_hub_ids_stay_as_given(tmp_path, name):
    config = load_train_config(write(tmp_path, BASE.replace("tiny", name)))
    assert config.model.name_or_path == name


def test_a_local_folder_named_like_a_hub_id_wins(tmp_path):
    (tmp_path / "gpt2").mkdir()
    config = load_train_config(write(tmp_path, BASE.replace("tiny", "gpt2")))
    assert config.model.name_or_path == str(tmp_path / "gpt2")


def test_reward_curve_skips_a_torn_last_line(tmp_path):
    from knowrl.reward_log import reward_curve

    log = tmp_path / "rewards.jsonl"
    rows = [{"step": s, "total": 1.0 + s, "format": 1.0} for s in range(3)]
    log.write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"step": 3, "tot')  # killed mid-write
    assert reward_curve(log, tmp_path / "curve.png") == tmp_path / "curve.png"
    assert (tmp_path / "curve.png").stat().st_size > 1000


def test_overrides_and_relative_paths(tmp_path):
    config = load_train_config(
        write(tmp_path, BASE), ["grpo.beta=0.05", "lora.r=8", "data.max_samples=3", "grpo.loss_type=dr_grpo"]
    )
    assert config.grpo == {"beta": 0.05, "loss_type": "dr_grpo"} and config.lora.r == 8
    assert config.data.max_samples == 3 and config.data.train == str(tmp_path / "data.jsonl")
    assert config.output_dir == str((tmp_path / "runs/knowrl").resolve())
    with pytest.raises(ConfigError, match="key=value"):
        load_train_config(write(tmp_path, BASE), ["grpo.beta"])
    # YAML 1.1 reads 3e-4 as a string; a learning rate must arrive as a number (text fails inside torch)
    config = load_train_config(
        write(tmp_path, BASE), ["grpo.learning_rate=3e-4", "grpo.beta=1E-2", "grpo.run_name=1e3x"]
    )  # (a negative beta is refused since the range checks: hostile pass 53)
    assert config.grpo == {"learning_rate": 3e-4, "beta": 0.01, "run_name": "1e3x"}
    (tmp_path / "lr.yaml").write_text(BASE + "sft: {learning_rate: 1e-4}\n")  # the same in a config file
    assert load_train_config(tmp_path / "lr.yaml").sft == {"learning_rate": 1e-4}


def test_rl_rows_skip_bad_lines_by_number(tmp_path, caplog):
    data = tmp_path / "rl.jsonl"
    data.write_text(
        "\n".join(
            [
                json.dumps({"question": "Q1?", "answers": "A", "title": "T"}),
                "{broken",
                json.dumps({"question": "", "answers": "A"}),
                json.dumps({"question": "Q4?", "answers": ["A", 3]}),
                json.dumps({"question": "Q5?", "answers": ["A", "B"]}),
                json.dumps({"question": "Q6?", "answers": "A", "title": 7}),
            ]
        )
        + "\n"
    )
    rows, report = load_rl_rows(data)
    assert [r["question"] for r in rows] == ["Q1?", "Q5?"] and rows[1]["title"] == ""
    assert [b.split(":")[1] for b in report.bad] == ["2", "3", "4", "6"]
    assert "field 'answers'" in report.bad[2] and "rl.jsonl:6" in caplog.text


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/data/knowrl is not beside this checkout")
def test_knowrl_released_files_load():
    rows, report = load_rl_rows(SHARED / "knowrl_RLdata.json")
    assert len(rows) == 3177 and not report.bad
    assert all(isinstance(r["title"], str) for r in rows) and any(";" in r["title"] for r in rows)
    conversations, report = load_sharegpt(SHARED / "knowrl_coldstart.json")
    assert len(conversations) == 1798 and not report.bad
    assert conversations[0][0]["role"] == "user" and "<answer>" in conversations[0][-1]["content"]


def test_sharegpt_malformed_rows_are_reported(tmp_path):
    path = tmp_path / "cold.json"
    path.write_text(
        json.dumps(
            [
                {
                    "conversations": [
                        {"from": "human", "value": "Q"},
                        {"from": "gpt", "value": "<think>x</think><answer>y</answer>"},
                    ]
                },
                {"conversations": [{"from": "human", "value": "Q"}]},
                {"conversations": [{"from": "robot", "value": "Q"}, {"from": "gpt", "value": "A"}]},
                {"id": "no conversations"},
            ],
            indent=1,
        )
    )
    conversations, report = load_sharegpt(path)
    assert len(conversations) == 1 and len(report.bad) == 3


def test_prompt_ends_in_the_open_think_block(tmp_path):
    from transformers import AutoTokenizer

    from knowrl.tiny import build_tiny_model

    tokenizer = AutoTokenizer.from_pretrained(build_tiny_model(tmp_path / "tiny"))
    prompt = render_prompt(tokenizer, "What is the capital of France?")
    assert prompt.endswith("<|assistant|><think>") and "What is the capital of France?" in prompt
    assert "I don't know" in prompt


def run_train(*args):
    return subprocess.run(
        [sys.executable, "-m", "knowrl.train", "--config", str(SMOKE), *args], capture_output=True, text=True
    )


def test_smoke_run_trains_logs_rewards_and_resumes(tmp_path):
    out, kb = tmp_path / "run", tmp_path / "kb.db"
    common = [f"--set=output_dir={out}", f"--set=reward.factuality.kb_path={kb}"]
    first = run_train(*common)
    assert first.returncode == 0, first.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["global_step"] == 2 and summary["backend"] == "transformers"
    log = (out / "rewards.jsonl").read_text().splitlines()
    assert len(log) == 8  # 2 steps x 4 completions
    row = json.loads(log[0])
    assert {"step", "question", "completion", "total", "format", "correctness", "status"} <= set(row)
    assert (out / "final" / "adapter_config.json").exists() and (out / "checkpoint-2").exists()

    second = run_train(*common, "--resume", "--set", "grpo.max_steps=3")
    assert second.returncode == 0, second.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["global_step"] == 3 and summary["resumed_from"].endswith("checkpoint-2")
    after = (out / "rewards.jsonl").read_text().splitlines()
    assert after[:8] == log and len(after) == 12  # appended, never rewritten

    refused = run_train(*common, "--set", "grpo.max_steps=1")  # a new run into the folder: neither flag, refused
    assert refused.returncode == 2 and "--resume" in refused.stderr and "--overwrite" in refused.stderr
    assert (out / "rewards.jsonl").read_text().splitlines() == after and (out / "checkpoint-3").is_dir()
    fresh = run_train(*common, "--overwrite", "--set", "grpo.max_steps=1")  # a new run into the same folder
    assert fresh.returncode == 0, fresh.stderr[-3000:]
    assert sorted(p.name for p in out.glob("checkpoint-*")) == ["checkpoint-1"]  # the old run's are gone
    rows = [json.loads(line) for line in (out / "rewards.jsonl").read_text().splitlines()]
    assert len(rows) == 4 and {r["step"] for r in rows} == {0}  # its own step only, never the old run's
    moved = [p for p in out.glob("rewards.*.jsonl")]
    assert len(moved) == 1 and moved[0].read_text().splitlines() == after and "moved to" in fresh.stderr


def test_a_time_budget_stops_after_the_step_that_crosses_it_and_saves_it(tmp_path):
    out, kb = tmp_path / "run", tmp_path / "kb.db"
    done = run_train(
        f"--set=output_dir={out}",
        f"--set=reward.factuality.kb_path={kb}",
        "--set=grpo.max_steps=5",
        "--set=time_budget_min=0.0001",  # 6 ms: the first step always ends past it
    )
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["global_step"] == 1 and summary["stopped_by_time_budget_at_step"] == 1
    assert len((out / "rewards.jsonl").read_text().splitlines()) == 4  # one step's completions, not five
    assert (out / "final" / "adapter_config.json").exists()


def test_train_bad_config_exits_2_with_the_message(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "knowrl.train", "--config", str(write(tmp_path, BASE + "sedd: 1\n"))],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "unknown key 'sedd'; did you mean 'seed'" in proc.stderr


def test_two_stage_pipeline_prints_a_before_after_table(tmp_path):
    out, kb = tmp_path / "run", tmp_path / "kb.db"
    data = ROOT / "configs" / "data"
    proc = run_train(
        f"--set=output_dir={out}",
        f"--set=reward.factuality.kb_path={kb}",
        f"--set=data.eval={data / 'smoke_rl.jsonl'}",
        f"--set=data.sft={data / 'smoke_sft.json'}",
        "--set=pipeline.cold_start_sft=true",
        "--set=pipeline.evaluate_before_after=true",
        "--set=pipeline.eval_max_new_tokens=8",
        "--set=sft.max_steps=1",
        "--set=sft.max_length=128",
        "--set=pipeline.eval_samples=2",
        "--set=pipeline.sample_before=false",
        f"--set=pipeline.report={tmp_path / 'results' / 'demo.md'}",
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| held-out (strict grader) | before | after SFT | after GRPO |" in proc.stdout
    assert (
        "| f_score (greedy, 8 questions) |" in proc.stdout and "| incorrect (sampled, 8 questions x 2) |" in proc.stdout
    )
    result = json.loads((out / "pipeline.json").read_text())
    assert all(result[k]["greedy"]["n_questions"] == 8 for k in ("before", "after_sft", "after"))
    sampled = result["after"]["sampled"]
    rates = sampled["rates"]
    assert abs(rates["correct"] + rates["incorrect"] + rates["not_attempted"] + rates["malformed"] - 1) < 1e-9
    low, high = sampled["intervals"]["malformed"]
    assert low <= rates["malformed"] <= high
    assert set(result["paired"]) == {"greedy", "sampled", "selectivity"}
    kept = json.loads((out / "heldout_after.json").read_text())
    assert len(kept["sampled"]["details"]) == 16 and kept["sampled"]["k"] == 2  # every answer kept, per question
    assert (out / "sft-merged" / "config.json").exists() and (out / "reward_curve.png").exists()
    # the completions behind the table, as the reward inspector shows them, beside the report and in the run
    pages = [out / "rewards.html", tmp_path / "results" / "demo-rewards.html"]
    assert result["inspector"] == [str(p) for p in pages]
    logged = (out / "rewards.jsonl").read_text().count("\n")
    for page in pages:
        html = page.read_text()
        assert html.count('"n": ') == logged and "reward inspector" in html
    assert "[demo-rewards.html](demo-rewards.html)" in (tmp_path / "results" / "demo.md").read_text()
    assert "[rewards.html](rewards.html)" in (out / "report.md").read_text()
    assert "sampled" not in result["before"] and "| incorrect (sampled, 8 questions x 2) | - |" in proc.stdout
    report = (tmp_path / "results" / "demo.md").read_text()
    assert report.split("![")[0] == (out / "report.md").read_text().split("![")[0] and report.startswith(
        "# Pipeline run: `python -m knowrl.train"
    )
    stages = [line for line in report.splitlines() if line.startswith("| ") and " min " in line]
    assert [s.split(" | ")[0] for s in stages] == [
        "| knowledge base",
        "| policy model",
        "| evaluating the base model on the held-out split",
        "| cold-start SFT",
        "| evaluating after cold-start SFT",
        "| GRPO with the reward engine",
        "| evaluating after GRPO",
    ]
    assert (
        "- sampled incorrect: " in report
        and "paired bootstrap" in report
        and "Strict grader vs the training grader" in report
    )
    assert (tmp_path / "results" / "demo_reward_curve.png").exists()
    assert "The user cache ($KNOWRL_CACHE_DIR) " in report.split("| stage |")[0]  # says what its times include


def test_report_says_whether_the_user_cache_was_empty(tmp_path, monkeypatch):
    from knowrl.pipeline import cached_at_start
    from knowrl.pipeline_report import cache_note

    monkeypatch.setenv("KNOWRL_CACHE_DIR", str(tmp_path / "cache"))
    assert cached_at_start() == [] and "was empty at the start" in cache_note([])
    (tmp_path / "cache" / "boundary").mkdir(parents=True)  # an empty folder holds nothing
    (tmp_path / "cache" / "models" / "smollm2").mkdir(parents=True)
    (tmp_path / "cache" / "kb").mkdir()
    (tmp_path / "cache" / "kb" / "demo.db").write_bytes(b"")
    assert cached_at_start() == ["kb", "models"]
    assert "already held kb, models" in cache_note(["kb", "models"])


def test_rank_comes_from_the_launcher(monkeypatch):
    from knowrl.grpo import _rank

    monkeypatch.delenv("RANK", raising=False)
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    assert _rank() == (0, 1)
    monkeypatch.setenv("RANK", "3")
    monkeypatch.setenv("WORLD_SIZE", "4")
    assert _rank() == (3, 4)


def test_two_ddp_processes_on_cpu_share_the_run(tmp_path):
    """torchrun, 2 CPU ranks (gloo): one DDP run, each rank with half the judge budget and its own reward log."""
    out, kb = tmp_path / "run", tmp_path / "kb.db"
    judge = "--set=reward.judge={endpoints: [{base_url: 'http://127.0.0.1:9/v1', model: m}], requests_per_minute: 600}"
    from judges.ports import free_port

    port = str(free_port())
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--nproc_per_node",
            "2",
            "--master_port",
            port,
            "-m",
            "knowrl.train",
            "--config",
            str(SMOKE),
            f"--set=output_dir={out}",
            f"--set=reward.factuality.kb_path={kb}",
            judge,
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["world_size"] == summary["trainer_processes"] == 2
    assert summary["judge_rpm_per_rank"] == 300 and summary["global_step"] == 2
    logs = sorted(p.name for p in out.glob("rewards.rank*.jsonl"))
    assert logs == ["rewards.rank0.jsonl", "rewards.rank1.jsonl"]
    assert all(len((out / name).read_text().splitlines()) == 8 for name in logs)  # 2 steps x 4 completions
