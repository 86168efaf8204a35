"""Knowledgeable RL with GRPO: ``python -m knowrl.train --config configs/X.yaml``.

    python -m knowrl.train --config configs/smoke.yaml [--set grpo.max_steps=5] [--resume]
    accelerate launch -m knowrl.train --config configs/X.yaml     # several GPUs (DDP / DeepSpeed)

The model loads first (Unsloth, when used, must be imported before TRL); the reward
engine's functions score every step; a per-completion reward breakdown is appended to
``<output_dir>/rewards.jsonl`` (append-only; ``--resume`` drops rows of steps it re-runs);
checkpoints follow TRL's ``save_steps``;
``--resume`` continues from the last checkpoint; the final LoRA adapter goes to
``<output_dir>/final``.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from knowrl.cli import config_parser, run_job
from knowrl.config import ConfigError, TrainConfig, load_train_config
from knowrl.models import cuda_available, load_policy
from reward_engine.engine import RewardResult, Sample
from reward_engine.jsonl import Appender


def ensure_kb(config: TrainConfig) -> None:
    """Build the reward's KB from ``kb.build_from`` when it does not exist yet (idempotent)."""
    reward = config.reward
    if reward is None or not reward.factuality.enabled:
        return
    from retrieval.dense import index_paths
    from retrieval.paths import demo_kb_path

    path = demo_kb_path() if reward.factuality.kb_path == "demo" else Path(reward.factuality.kb_path or "")
    built = index_paths(path)[1]  # the manifest is written last: it marks a finished build
    if built.exists() or (path.exists() and not config.kb.build_from):
        return  # built, or a KB the user gave as-is (e.g. a documents-only FActScore DB)
    source = config.kb.build_from or ("demo" if reward.factuality.kb_path == "demo" else None)
    if source is None:
        raise ConfigError(f"knowledge base {path} does not exist; build it (python -m retrieval.build) "
                          "or set kb.build_from")
    from filelock import FileLock

    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path) + ".lock"):  # DDP ranks start together: one builds, the others wait
        if built.exists():
            return
        print(f"building the knowledge base {path} from {source} (once)", file=sys.stderr)
        build_kb(path, source)


def build_kb(path: Path, source: str) -> None:
    """A KB at ``path`` from a JSON/JSONL of ``{title, text}`` (bad rows skipped), or 'demo'."""
    from retrieval.build import build
    from retrieval.sources import Document, demo_documents, read_documents

    documents = demo_documents() if source == "demo" else (r for _, r in read_documents(Path(source))
                                                           if isinstance(r, Document))
    build(path, documents)


def trim_reward_log(path: Path, step: int) -> None:
    """On resume from ``checkpoint-<step>``: drop rows of steps that will run again (and a torn last line),
    so the log holds each step once."""
    from reward_engine.jsonl import read_objects, rewrite

    if path.exists():
        rewrite(path, [row for row in read_objects(path) if isinstance(row.get("step"), int) and row["step"] < step])


class RewardLog:
    """Appends one JSON line per scored completion: step, inputs and every reward component."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._out = Appender(path)

    def __call__(self, step: int, samples: list[Sample], results: list[RewardResult]) -> None:
        self._out.write([
            {"step": step, "question": s.question, "answers": s.answers, "title": s.title,
             "completion": s.completion if isinstance(s.completion, str) else str(s.completion), **r.to_dict()}
            for s, r in zip(samples, results)
        ])

    def write_rows(self, step: int, rows: list[dict[str, Any]]) -> None:
        """Rows already shaped by a task reward (maths, reasoning-gym)."""
        self._out.write([{"step": step, **row} for row in rows])

    def close(self) -> None:
        self._out.close()


def grpo_args(config: TrainConfig) -> Any:
    from trl import GRPOConfig

    values: dict[str, Any] = {"output_dir": config.output_dir, "seed": config.seed,
                              "report_to": config.logging.report_to or "none", "logging_steps": 1,
                              "save_strategy": "steps", "save_steps": 50}
    if not cuda_available():
        values.update(use_cpu=True, bf16=False)
    values.update(config.grpo)
    return GRPOConfig(**values)


def _judge_rpm(rewards: Any) -> float | None:
    engine = getattr(rewards, "engine", None)
    judge = engine.config.judge_for_rank() if engine is not None else None
    return judge.requests_per_minute if judge else None


def _rank() -> tuple[int, int]:
    """(this process's index, number of processes), from the launcher (torchrun / accelerate set both)."""
    return int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))


def train(config: TrainConfig, resume: bool = False, callbacks: list[Any] | None = None) -> dict[str, Any]:
    """One GRPO run; ``callbacks`` are extra ``transformers.TrainerCallback`` objects (e.g. for benchmarks)."""
    started = time.perf_counter()
    ensure_kb(config)
    policy = load_policy(config.model, config.lora, config.seed)  # before importing trl's trainer
    from transformers.trainer_utils import get_last_checkpoint
    from trl import GRPOTrainer

    from knowrl import tasks

    rank, world = _rank()
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / config.logging.reward_log
    if world > 1:  # each rank scores its own completions: one log per rank
        log_path = log_path.with_name(f"{log_path.stem}.rank{rank}{log_path.suffix}")
    checkpoint = get_last_checkpoint(str(out)) if resume and out.exists() else None
    if checkpoint is not None:  # each process trims its own log
        trim_reward_log(log_path, int(Path(checkpoint).name.rsplit("-", 1)[-1]))
    log = RewardLog(log_path)
    task = tasks.setup(config, policy.tokenizer, knowrl_sink=log, rows_sink=log.write_rows, world_size=world)
    rewards = task.rewards
    args = grpo_args(config)
    trainer = GRPOTrainer(model=policy.model, reward_funcs=rewards.functions(), args=args, train_dataset=task.dataset,
                          processing_class=policy.tokenizer, peft_config=policy.peft_config, callbacks=callbacks)
    if resume and checkpoint is None:
        print(f"--resume: no checkpoint in {out}, starting fresh", file=sys.stderr)
    try:
        result = trainer.train(resume_from_checkpoint=checkpoint)
    finally:
        loop = getattr(trainer, "async_loop", None)
        if loop is not None:
            asyncio.run_coroutine_threadsafe(rewards.aclose(), loop).result(60)
        log.close()
    trainer.save_model(str(out / "final"))  # main process only, inside TRL
    summary = {
        "task": config.task, "backend": policy.backend, "global_step": trainer.state.global_step,
        "resumed_from": checkpoint, "train_rows": task.rows, "bad_rows": task.bad_rows,
        "training_loss": result.training_loss,
        "reward_log": str(log_path), "adapter": str(out / "final"), "world_size": world,
        "trainer_processes": trainer.accelerator.num_processes,
        "judge_rpm_per_rank": _judge_rpm(rewards),
        "wall_s": round(time.perf_counter() - started, 1),
    }
    if rank == 0:
        policy.tokenizer.save_pretrained(str(out / "final"))
        (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def run(config: TrainConfig, resume: bool) -> dict[str, Any] | None:
    """The two-stage pipeline when the config asks for it (prints its table), else one GRPO run."""
    from knowrl.models import check_model_path

    check_model_path(config.model.name_or_path)  # before any stage spends time
    p = config.pipeline
    if config.task != "knowrl" and p.evaluate_before_after:
        from knowrl.task_eval import run_task_pipeline

        result = run_task_pipeline(config, resume=resume)
        print("\n" + result["table"])
        return None
    if not (p.demo_data or p.cold_start_sft or p.evaluate_before_after):
        return train(config, resume=resume)
    from knowrl.pipeline import run_pipeline

    result = run_pipeline(config)
    if "table" in result:
        print("\n" + result["table"])
    print(f"\nreward log: {result['grpo']['reward_log']}\nreward curve: {result['reward_curve']}")
    return None


def main(argv: list[str] | None = None) -> int:
    parser = config_parser("python -m knowrl.train", __doc__)
    parser.add_argument("--resume", action="store_true", help="continue from the last checkpoint in output_dir")
    args = parser.parse_args(argv)
    return run_job(lambda: run(load_train_config(args.config, args.set), args.resume))


if __name__ == "__main__":
    sys.exit(main())
