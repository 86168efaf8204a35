"""One trainer rank's reward calls under torchrun (a test helper, not a test): the TRL reward functions a GRPO
rank calls, each step's batch its own, with a gloo barrier between steps as the trainer's all-reduce has.

    torchrun --nproc_per_node 2 tests/scripts/rank_rewards.py CONFIG.json OUT_DIR STEPS

Rank r's step s grades 6 questions of its own and, from step 1 on, repeats 2 rows rank 0 graded the step
before (another node's paid answers: they must come from the shared cache). Writes OUT_DIR/rank{r}.jsonl.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import torch.distributed as dist

from reward_engine.config import parse_reward_config
from reward_engine.trl_rewards import KnowRLRewards


def rows(rank: int, step: int) -> list[dict]:
    own = [
        {
            "question": f"Capital of country {rank}-{step}-{i}?",
            "answers": ["Paris"],
            "completion": f"<think>Step {step}.</think><answer>{'Paris' if i % 2 else 'Lyon'}</answer>",
        }
        for i in range(6)
    ]
    repeated = [r for r in rows(0, step - 1)[:2]] if rank == 1 and step > 0 else []
    return own + repeated


def main() -> int:
    config_path, out_dir, steps = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    config = parse_reward_config(json.loads(config_path.read_text())).model_copy(update={"world_size": world})
    rewards = KnowRLRewards(config)
    _, correctness = rewards.functions()
    out = out_dir / f"rank{rank}.jsonl"
    with out.open("w") as f:
        for step in range(steps):
            batch = rows(rank, step)
            values = asyncio.run(
                correctness(
                    prompts=[r["question"] for r in batch],
                    completions=[r["completion"] for r in batch],
                    answers=[r["answers"] for r in batch],
                )
            )
            for row, value in zip(batch, values):
                f.write(json.dumps({**row, "reward": value, "rank": rank, "step": step}) + "\n")
            dist.barrier()
    asyncio.run(rewards.aclose())
    metrics = rewards.engine.judge.metrics.snapshot() if rewards.engine.judge is not None else {}
    (out_dir / f"rank{rank}.metrics.json").write_text(json.dumps(metrics))
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
