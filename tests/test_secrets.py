"""A planted API key must never appear in anything a run writes: outputs, reward logs, caches,
cache keys, checkpoints, summaries, stdout/stderr. The key is really used (the judge sees an
Authorization header on every request), so the test would catch a leak on any of those paths."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import yaml

from judges.test_server import ServerConfig, serve_in_thread
from tests.helpers import write_jsonl

ROOT = Path(__file__).resolve().parents[1]


def _files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def test_planted_key_never_written(tmp_path, kb_path):
    key = f"sk-planted-{uuid.uuid4().hex}"
    env = {
        **os.environ,
        "KNOWRL_JUDGE_API_KEY": key,
        "KNOWRL_CACHE_DIR": str(tmp_path / "cache"),
        "XDG_CACHE_HOME": str(tmp_path / "xdg"),
        "OMP_NUM_THREADS": "1",
    }
    rows = [
        {
            "id": i,
            "question": "What is the capital of France?",
            "answers": "Paris",
            "title": "Paris",
            "completion": f"<think>Paris lies on the river Seine {i}.</think><answer>{a}</answer>",
        }
        for i, a in enumerate(["Paris", "Lyon", "Nice", "I don't know"])
    ]
    data = tmp_path / "in.jsonl"
    write_jsonl(data, rows)
    outputs: list[str] = []
    # 30 % faults: error paths (429 + Retry-After, 500, malformed) log and retry with the key in flight.
    with serve_in_thread(
        ServerConfig(fault_rate=0.3, faults=("429", "500", "malformed"), retry_after_s=0.01, seed=3)
    ) as server:
        judge = {
            "endpoints": [{"base_url": server.url, "model": "m", "api_key_env": "KNOWRL_JUDGE_API_KEY"}],
            "cache_dir": str(tmp_path / "judge-cache"),
            "backoff_initial_s": 0.01,
            "backoff_max_s": 0.05,
            "max_attempts": 8,
        }
        reward = {
            "grader": "llm",
            "decomposer": "llm",
            "verifier": "llm",
            "judge": judge,
            "factuality": {"kb_path": str(kb_path), "cache_dir": str(tmp_path / "evidence")},
        }
        config = tmp_path / "reward.yaml"
        config.write_text(yaml.safe_dump(reward))
        jobs = [
            [
                sys.executable,
                "-m",
                "reward_engine.score",
                "--input",
                str(data),
                "--output",
                str(tmp_path / "scored.jsonl"),
                "--config",
                str(config),
                "--no-progress",
            ],
            [sys.executable, "-m", "reward_engine.warm", "--completions", str(data), "--config", str(config)],
            [
                sys.executable,
                "-m",
                "knowrl.train",
                "--config",
                str(ROOT / "configs" / "smoke.yaml"),
                f"--set=output_dir={tmp_path / 'run'}",
                f"--set=reward.factuality.kb_path={tmp_path / 'kb.db'}",
                "--set=reward.grader=llm",
                "--set=reward.decomposer=llm",
                "--set=reward.verifier=llm",
                "--set=reward.judge=" + json.dumps(judge),
                "--set=grpo.max_steps=1",
            ],
        ]
        for job in jobs:
            proc = subprocess.run(job, capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
            assert proc.returncode == 0, (job, proc.stderr[-3000:])
            outputs += [proc.stdout, proc.stderr]
        stats = server.stats
    assert stats.requests > 0 and stats.authorized == stats.requests  # the key went out with every request
    assert sum(stats.faults.values()) > 0
    written = _files(tmp_path)
    assert any(p.suffix == ".jsonl" for p in written) and any("cache" in str(p) for p in written)
    leaks = [str(p) for p in written if key.encode() in p.read_bytes()]
    leaks += [f"process output {i}" for i, text in enumerate(outputs) if key in text]
    assert not leaks, leaks
