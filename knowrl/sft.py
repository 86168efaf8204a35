"""Cold-start SFT (KnowRL stage 1): ``python -m knowrl.sft --config configs/Y.yaml``.

Trains a LoRA adapter with TRL's SFTTrainer on ShareGPT conversations (KnowRL's
cold-start format), loss on the model's answer; Unsloth on GPU when available. The
adapter goes to ``<output_dir>/final``; ``python -m knowrl.merge`` folds it into a full
model for the RL stage or vLLM.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from knowrl.accelerator import training_attention
from knowrl.cli import config_parser, run_job
from knowrl.config import ConfigError, TrainConfig, load_train_config
from knowrl.data import load_sharegpt
from knowrl.models import load_policy
from knowrl.output_dir import WRITES
from knowrl.run_mark import claim
from knowrl.trl_args import trainer_args

log = logging.getLogger(__name__)


def sft_args(config: TrainConfig) -> Any:
    import trl

    ours = {
        "output_dir": config.output_dir,
        "seed": config.seed,
        "logging_steps": 1,
        "report_to": config.logging.report_to or "none",
        "save_strategy": "no",
    }
    return trainer_args(trl.SFTConfig, ours, config.sft, "sft")


CUT_SHARE_LIMIT = 0.5  # more cold-start targets cut than this: an error, not a run that learns no answer


def check_lengths(
    conversations: list[list[dict[str, str]]], tokenizer: Any, max_length: int | None, source: Any
) -> int:
    """How many conversations ``sft.max_length`` cuts (the chat template's tokens included): a warning naming
    them; an error when more than half are cut, since a cut target never trains its ``<answer>`` (a 128-token
    limit under a 120-token prompt left a policy writing no answer at all)."""
    if not max_length or not conversations:
        return 0
    lengths = [len(tokenizer(tokenizer.apply_chat_template(c, tokenize=False))["input_ids"]) for c in conversations]
    cut = sum(n > max_length for n in lengths)
    if cut:
        message = (
            f"{source}: sft.max_length {max_length} cuts {cut} of {len(lengths)} conversations (the longest is "
            f"{max(lengths)} tokens with the chat template): their ends, where the answer is, are not trained"
        )
        if cut > CUT_SHARE_LIMIT * len(lengths):
            raise ConfigError(message + f"; raise sft.max_length to at least {max(lengths)}")
        log.warning(message)
    return cut


def sft(config: TrainConfig, callbacks: list[Any] | None = None) -> dict[str, Any]:
    """One cold-start SFT run; ``callbacks`` are extra ``transformers.TrainerCallback`` objects (as for ``train``)."""
    started = time.perf_counter()
    conversations, report = load_sharegpt(config.data.train, config.data.max_samples)
    if not conversations:  # before the policy loads: RL rows given to sft failed only after it (hostile pass 57)
        raise ConfigError(f"no usable conversations in {config.data.train} ({len(report.bad)} bad)")
    policy = load_policy(config.model, config.lora, config.seed)
    from datasets import Dataset
    from trl import SFTTrainer

    from knowrl.finite import StopOnNonFinite

    # Single-answer conversations become prompt/completion pairs: TRL then puts the loss on the
    # model's turn only (no chat-template generation markers needed). Multi-turn stay as messages.
    single = all(len(c) >= 2 and all(m["role"] != "assistant" for m in c[:-1]) for c in conversations)
    dataset = Dataset.from_list(
        [{"prompt": c[:-1], "completion": c[-1:]} for c in conversations]
        if single
        else [{"messages": c} for c in conversations]
    )
    check_lengths(conversations, policy.tokenizer, config.sft.get("max_length", 1024), config.data.train)
    claim(Path(config.output_dir), list(WRITES))  # the run's first write, after every check (audit 60)
    trainer = SFTTrainer(
        model=policy.model,
        args=sft_args(config),
        train_dataset=dataset,
        processing_class=policy.tokenizer,
        peft_config=policy.peft_config,
        callbacks=[StopOnNonFinite("sft"), *(callbacks or [])],
    )
    with training_attention():
        result = trainer.train()
    out = Path(config.output_dir) / "final"
    trainer.save_model(str(out))
    policy.tokenizer.save_pretrained(str(out))
    summary = {
        "backend": policy.backend,
        "global_step": trainer.state.global_step,
        "conversations": len(conversations),
        "bad_rows": len(report.bad),
        "training_loss": result.training_loss,
        "adapter": str(out),
        "wall_s": round(time.perf_counter() - started, 1),
    }
    (Path(config.output_dir) / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = config_parser("python -m knowrl.sft", __doc__)
    parser.add_argument(
        "--overwrite", action="store_true", help="start clean in an output_dir that holds an earlier run (removes it)"
    )
    args = parser.parse_args(argv)

    def job() -> dict[str, Any]:
        from knowrl.adapters import check_start_adapter
        from knowrl.output_dir import claimed
        from knowrl.start_checks import check_push_to_hub

        config = load_train_config(args.config, args.set)
        check_start_adapter(config.model, config.seed)  # one trained on another base: torch's "size mismatch"
        check_push_to_hub(config.sft, "sft")  # before the model loads, not when the trained adapter is pushed
        with claimed(config, resume=False, overwrite=args.overwrite, resumable=False):  # as knowrl.train owns it
            return sft(config)

    return run_job(args, job)


if __name__ == "__main__":
    sys.exit(main())
