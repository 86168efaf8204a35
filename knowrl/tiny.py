"""A tiny random causal LM with a locally trained tokenizer: fast tests, no download.

The tokenizer is a byte-level BPE trained on a few sentences plus the chat and
think/answer tags, and carries a minimal chat template, so the whole pipeline (chat
prompts, generation, rewards, GRPO, SFT) runs exactly as it would on a real model.
"""

from __future__ import annotations

from pathlib import Path

from knowrl_io.atomic_write import folder_put_in_place

CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
SPECIAL = ["<|pad|>", "<|eos|>", "<|system|>", "<|user|>", "<|assistant|>", "<|end|>"]
CORPUS = [
    "<think> Paris is the capital of France. </think> <answer> Paris </answer>",
    "<think> I am not sure. </think> <answer> I don't know </answer>",
    "What is the capital of France? Answer with think and answer tags.",
    "The Eiffel Tower was completed in 1889. Mount Everest is the highest mountain.",
    "Tokyo is the capital of Japan. Python was released in 1991 by Guido van Rossum.",
]


# name -> Llama shape. "vllm": vLLM's CPU attention takes head sizes 32, 64, 80, ... only (the default's is 8).
SHAPES = {
    "tiny": {"hidden_size": 32, "intermediate_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2},
    "tiny-vllm": {"hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 2, "num_key_value_heads": 2},
}


def build_tiny_model(out_dir: str | Path, seed: int = 0, vocab_size: int = 512, shape: str = "tiny") -> Path:
    """Write a ~0.2M-parameter Llama (``shape``: a key of SHAPES) and its tokenizer to ``out_dir`` (idempotent)."""
    out = Path(out_dir)
    if (out / "config.json").exists() and (out / "tokenizer.json").exists():
        return out
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=SPECIAL, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(CORPUS * 20, trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, pad_token="<|pad|>", eos_token="<|eos|>", bos_token=None, unk_token=None
    )
    fast.chat_template = CHAT_TEMPLATE
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(fast),
        **SHAPES[shape],
        num_hidden_layers=2,
        max_position_embeddings=512,
        pad_token_id=fast.pad_token_id,
        eos_token_id=fast.eos_token_id,
        bos_token_id=None,
        tie_word_embeddings=True,
    )
    model = LlamaForCausalLM(config)
    # Write aside and rename: another process (a second DDP rank) never sees half a model.
    with folder_put_in_place(out) as tmp:  # someone else may finish first: theirs is identical (same seed)
        model.save_pretrained(tmp)
        fast.save_pretrained(tmp)
    return out


def teach_tiny_model(model_dir: str | Path, pairs: list[tuple[str, str]], steps: int = 150, lr: float = 1e-2) -> Path:
    """Overfit the tiny model on (rendered prompt, completion) pairs so it emits the think/answer format.

    Tests then see real, varied completions (well-formed answers, refusals) in a few seconds
    instead of random tokens; written back in place.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model_dir = Path(model_dir)
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    texts = [prompt + completion + tokenizer.eos_token for prompt, completion in pairs]
    batch = tokenizer(texts, return_tensors="pt", padding=True)
    labels = batch["input_ids"].masked_fill(batch["attention_mask"] == 0, -100)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    for _ in range(steps):
        loss = model(**batch, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    model.save_pretrained(model_dir)
    return model_dir
