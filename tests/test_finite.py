"""A run whose weights stop being finite stops at that step, saves nothing, and its adapter is never merged."""

from __future__ import annotations

import json

import pytest

from knowrl.config import load_train_config
from knowrl.finite import TrainingDiverged


def _sft_config(tmp_path, learning_rate: str):
    data = tmp_path / "cold.json"
    answer = "<think>Paris is the capital of France.</think><answer>Paris</answer>"
    turns = [{"from": "human", "value": "What is the capital of France?"}, {"from": "gpt", "value": answer}]
    data.write_text(json.dumps([{"id": str(i), "conversations": turns} for i in range(8)]))
    cfg = tmp_path / "sft.yaml"
    cfg.write_text(
        f"model: {{name_or_path: tiny}}\nlora: {{r: 4, alpha: 8, target_modules: [q_proj, v_proj]}}\n"
        f"data: {{train: {data}}}\n"
        f"sft: {{max_steps: 4, per_device_train_batch_size: 2, max_length: 128, learning_rate: {learning_rate}, "
        f"max_grad_norm: 0}}\noutput_dir: {tmp_path / 'sft'}\nseed: 0\n"
    )
    return load_train_config(cfg)


def test_sft_that_diverges_stops_at_the_step_and_saves_nothing(tmp_path):
    from knowrl.sft import sft

    # Adam's first step moves each LoRA weight by ~lr: 1e30 makes them overflow on the second step. How many of
    # the 8 tensors turn inf/nan then depends on the CPU's float kernels (CI saw 4, this machine 8): any is a stop.
    with pytest.raises(TrainingDiverged, match=r"sft step 2: [1-8] of 8 trainable tensors.*sft.learning_rate"):
        sft(_sft_config(tmp_path, "1.0e30"))
    assert not (tmp_path / "sft" / "final").exists() and not (tmp_path / "sft" / "summary.json").exists()


def test_merge_refuses_an_adapter_with_nan_weights(tmp_path):
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    from knowrl.merge import merge
    from knowrl.models import resolve_model_path

    base = resolve_model_path("tiny")
    model = get_peft_model(
        AutoModelForCausalLM.from_pretrained(base), LoraConfig(r=4, target_modules=["q_proj"], task_type="CAUSAL_LM")
    )
    adapter = tmp_path / "adapter"
    model.save_pretrained(adapter)
    merge("tiny", str(adapter), tmp_path / "good")  # a finite adapter merges
    assert (tmp_path / "good" / "config.json").exists()

    name, weight = next((n, p) for n, p in model.named_parameters() if "lora_B" in n)
    with torch.no_grad():
        weight[0, 0] = float("nan")
    model.save_pretrained(adapter)
    with pytest.raises(ValueError, match=r"1 adapter tensors are not finite.*not merging"):
        merge("tiny", str(adapter), tmp_path / "bad")
    assert not (tmp_path / "bad").exists()


def test_training_keeps_cudnn_attention_out_and_restores_it_after(tmp_path):
    import torch
    from transformers import TrainerCallback

    from knowrl.sft import sft

    class Seen(TrainerCallback):
        def __init__(self) -> None:
            self.flags: list[bool] = []

        def on_step_end(self, args, state, control, **kwargs):
            self.flags.append(torch.backends.cuda.cudnn_sdp_enabled())

    before, seen = torch.backends.cuda.cudnn_sdp_enabled(), Seen()
    sft(_sft_config(tmp_path, "1.0e-4"), callbacks=[seen])
    # every step ran without cuDNN's attention (its backward gives NaN gradients on H100/H200 at some padded
    # lengths), and the process's setting is back as it was for what runs after training
    assert seen.flags == [False] * 4 and before is True and torch.backends.cuda.cudnn_sdp_enabled() is True
    assert (tmp_path / "sft" / "final" / "adapter_config.json").exists()
