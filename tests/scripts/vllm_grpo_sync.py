"""Two GRPO steps with vLLM generation on CPU (TRL colocate, knowrl.vllm_cpu), LoRA, a tiny vLLM-shaped model;
prints one JSON line: per step TRL's |trainer log-prob - vLLM log-prob| of the sampled tokens, and how far the
merged weights moved in step 1. ``--no-sync``: after the first push vLLM is never updated again (the negative
control: the same measure must then see the stale weights).

    python tests/scripts/vllm_grpo_sync.py OUT_DIR [--no-sync]
"""

from __future__ import annotations

import json
import sys


def main(out: str, sync: bool) -> None:
    import torch
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    from knowrl import vllm_cpu
    from knowrl.models import resolve_model_path

    vllm_cpu.prepare()
    path = resolve_model_path("tiny-vllm")
    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    prompts = ["What is the capital of France?", "Tokyo is the capital of", "Python was released in", "Paris"]
    args = GRPOConfig(
        output_dir=out,
        use_vllm=True,
        vllm_mode="colocate",
        per_device_train_batch_size=4,
        num_generations=4,
        max_completion_length=16,
        max_steps=2,
        learning_rate=1e-2,  # large: step 1 moves the weights far enough for stale ones to show
        bf16=False,
        use_cpu=True,
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        seed=0,
    )
    moved: list[float] = []

    class Moved(TrainerCallback):
        """How far step 1 moved the LoRA-merged function: the largest |lora_B| (zero at the start)."""

        def on_step_end(self, args, state, control, model=None, **kwargs):  # noqa: ANN001
            moved.append(max(p.abs().max().item() for n, p in model.named_parameters() if "lora_B" in n))

    trainer = GRPOTrainer(
        model=model,
        reward_funcs=lambda completions, **kw: [float(len(c)) for c in completions],  # always spread
        args=args,
        train_dataset=Dataset.from_dict({"prompt": prompts * 4}),
        processing_class=tokenizer,
        peft_config=LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "v_proj", "up_proj"]),
        callbacks=[Moved()],
    )
    if not sync:
        generation = trainer.vllm_generation
        first = generation.sync_weights

        def only_once() -> None:
            if not getattr(only_once, "done", False):
                first()
            only_once.done = True

        generation.sync_weights = only_once
    trainer.train()
    logs = [h for h in trainer.state.log_history if "sampling/sampling_logp_difference/max" in h]
    print(json.dumps({"logp_diff_max": [h["sampling/sampling_logp_difference/max"] for h in logs], "moved": moved}))


if __name__ == "__main__":
    main(sys.argv[1], "--no-sync" not in sys.argv[2:])
