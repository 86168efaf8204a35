"""Hostile pass 56 (issue #74), job finding J5: ``--resume`` under torchrun on CPU. Every resume with two CPU ranks
died on both ranks in "don't know how to restore data location of torch.storage.UntypedStorage (tagged with
cpu:0)" while loading the optimizer state (1 -> 2 ranks, and a 2-rank run continuing its own checkpoint); and a
1 -> 2 resume would have kept the killed step's rows in ``rewards.jsonl`` beside the ranks' new ones.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from judges.ports import free_port

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")


def _steps(log: Path) -> list[int]:
    return [json.loads(line)["step"] for line in log.read_text().splitlines()]


def test_two_cpu_ranks_resume_a_one_process_run(tmp_path: Path) -> None:
    """A one-process run killed after step 2's work (its checkpoint-2, final and summary gone) continues from
    checkpoint-1 on two ranks: step 2 runs once, in the ranks' logs only."""
    out = tmp_path / "run"
    train = ("-m", "knowrl.train", "--config", str(ROOT / "configs" / "smoke.yaml"), f"--set=output_dir={out}")
    train += (f"--set=reward.factuality.kb_path={tmp_path / 'kb.db'}", "-q")
    first = subprocess.run([sys.executable, *train], env=ENV, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr[-3000:]
    assert _steps(out / "rewards.jsonl") == [0] * 4 + [1] * 4
    shutil.rmtree(out / "checkpoint-2")  # killed during step 2's save
    shutil.rmtree(out / "final")
    (out / "summary.json").unlink()
    launch = (sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_port", str(free_port()))
    again = subprocess.run([*launch, *train, "--resume"], env=ENV, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["resumed_from"] == str(out / "checkpoint-1") and summary["global_step"] == 2
    assert summary["trainer_processes"] == 2
    logs = {name: _steps(out / name) for name in ("rewards.jsonl", "rewards.rank0.jsonl", "rewards.rank1.jsonl")}
    assert logs == {"rewards.jsonl": [0] * 4, "rewards.rank0.jsonl": [1] * 4, "rewards.rank1.jsonl": [1] * 4}
