"""vLLM decoding (knowrl.vllm_decode) against the transformers path (knowrl.decode) on one model; prints one JSON
line: greedy rows equal, and at each row where they part the logit gap between the two chosen tokens (a tie is
float32 noise); sampled draws repeatable and independent of the other prompts of the call.

    python tests/scripts/vllm_decode_check.py MODEL [N_PROMPTS]
"""

from __future__ import annotations

import json
import sys


def main(model_name: str, n: int) -> None:
    import torch

    from knowrl import vllm_decode
    from knowrl.decode import decode, eos_ids
    from knowrl.evaluate import load_for_generation
    from knowrl.models import resolve_model_path

    torch.set_num_threads(1)
    path = resolve_model_path(model_name)
    model, tokenizer = load_for_generation(path, None)
    words = ["capital", "river", "element", "language", "currency", "symbol", "mountain", "author"]
    prompts = [
        tokenizer.apply_chat_template(
            [{"role": "user", "content": f"What is the {words[i % 8]} of thing {i}?"}],
            tokenize=False,
            add_generation_prompt=True,
        )
        for i in range(n)
    ]
    batch = tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
    with torch.inference_mode():
        ours = decode(model, batch["input_ids"], batch["attention_mask"], 24, eos_ids(model, tokenizer))
    theirs = vllm_decode.new_tokens(path, tokenizer, prompts, 24)
    gaps = []
    for prompt, a, b in zip(prompts, ours, theirs):
        cut = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        if cut is None:
            continue
        ids = tokenizer(prompt, add_special_tokens=False, return_tensors="pt")["input_ids"]
        ids = torch.cat([ids, torch.tensor([a[:cut]], dtype=ids.dtype)], -1)
        with torch.inference_mode():
            logits = model(input_ids=ids).logits[0, -1].float()
        gaps.append(abs(float(logits[a[cut]] - logits[b[cut]])))
    drawn = vllm_decode.new_tokens(path, tokenizer, prompts, 16, temperature=0.9, k=3, seed=5)
    again = vllm_decode.new_tokens(path, tokenizer, prompts, 16, temperature=0.9, k=3, seed=5)
    alone = vllm_decode.new_tokens(path, tokenizer, prompts[:4], 16, temperature=0.9, k=3, seed=5)
    texts = vllm_decode.complete_texts(path, None, tokenizer, prompts[:2], 24)
    adapted = _adapter_agreement(path, prompts[:6], tokenizer)
    print(
        json.dumps(
            {
                "rows": len(ours),
                "greedy_equal": sum(a == b for a, b in zip(ours, theirs)),
                "lengths_equal": sum(len(a) == len(b) for a, b in zip(ours, theirs)),
                "gaps_where_parted": gaps,
                "sampled_rows": len(drawn),
                "sampled_repeat_equal": drawn == again,
                "sampled_alone_equal": alone == drawn[:12],
                "sampled_distinct": len({tuple(r) for r in drawn}),
                "texts_equal_decoded": texts == [tokenizer.decode(r, skip_special_tokens=True) for r in ours[:2]],
                **adapted,
            }
        )
    )


def _adapter_agreement(path: str, prompts: list[str], tokenizer) -> dict:
    """A LoRA adapter that changes the model (random B, not zero): vLLM's merged copy decodes what the
    transformers path decodes with the adapter merged in memory."""
    import tempfile

    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    from knowrl import vllm_decode
    from knowrl.decode import complete_texts
    from knowrl.evaluate import load_for_generation

    torch.manual_seed(0)
    with tempfile.TemporaryDirectory() as adapter:
        base = AutoModelForCausalLM.from_pretrained(path)
        lora = LoraConfig(r=4, lora_alpha=16, target_modules=["q_proj", "v_proj"], init_lora_weights=False)
        get_peft_model(base, lora).save_pretrained(adapter)
        merged, tok = load_for_generation(path, adapter)
        plain, _ = load_for_generation(path, None)
        ours = complete_texts(merged, tok, prompts, 16, 8)
        without = complete_texts(plain, tok, prompts, 16, 8)
        theirs = vllm_decode.complete_texts(path, adapter, tokenizer, prompts, 16)
    return {
        "adapter_rows": len(ours),
        "adapter_equal": sum(a == b for a, b in zip(ours, theirs)),
        "adapter_changed": sum(a != b for a, b in zip(ours, without)),
    }


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 12)
