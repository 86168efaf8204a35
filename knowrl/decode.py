"""Batched decoding that drops a row from the batch as soon as it ends.

``model.generate`` keeps every row of a batch until the longest one stops, so a batch whose answers are
mostly ~40 tokens pays for 96 tokens on every row when one row runs to the limit. On CPU the cost of a
step is proportional to the rows in it, so dropping finished rows (``DynamicCache.batch_select_indices``)
is 1.7x faster here on the demo's held-out questions at the same greedy tokens. k answers per prompt share
one prefill: the prompt runs once and its cache is repeated k times.
"""

from __future__ import annotations

from typing import Any


def eos_ids(model: Any, tokenizer: Any) -> set[int]:
    """The ids that end an answer: the generation config's (as ``generate`` uses), else the tokenizer's."""
    return eos_ids_of(getattr(model, "generation_config", None), tokenizer)


def eos_ids_of(generation_config: Any, tokenizer: Any) -> set[int]:
    """``eos_ids`` from a generation config (None: the tokenizer's end token), for a decoder without the model."""
    configured = getattr(generation_config, "eos_token_id", None)
    if configured is None:
        configured = tokenizer.eos_token_id
    return set(configured) if isinstance(configured, (list, tuple)) else {int(configured)}


def decode(
    model: Any,
    input_ids: Any,
    attention_mask: Any,
    max_new_tokens: int,
    eos: set[int],
    temperature: float | None = None,
    k: int = 1,
) -> list[list[int]]:
    """New tokens per row (prompt-major, k per prompt), without the end token: greedy when ``temperature``
    is None, else sampled from softmax(logits / temperature) (no top-k/top-p). Prompts are left-padded."""
    import torch

    device = model.device
    input_ids, attention_mask = input_ids.to(device), attention_mask.to(device)
    positions = (attention_mask.cumsum(-1) - 1).clamp(min=0)  # left padding: as generate() numbers them
    # logits_to_keep=1: only the last position's logits are used (as generate() does); the full
    # [batch, prompt, vocab] tensor is the prefill's largest allocation.
    out = model(
        input_ids=input_ids, attention_mask=attention_mask, position_ids=positions, use_cache=True, logits_to_keep=1
    )
    cache, logits = out.past_key_values, out.logits[:, -1, :]
    mask, step_pos = attention_mask, positions[:, -1:]
    if k > 1:
        cache.batch_repeat_interleave(k)
        logits, mask, step_pos = (t.repeat_interleave(k, 0) for t in (logits, mask, step_pos))
    tokens: list[list[int]] = [[] for _ in range(logits.shape[0])]
    alive = torch.arange(logits.shape[0], device=device)
    stop = torch.tensor(sorted(eos), device=device)
    for step in range(max_new_tokens):
        if temperature is None:
            chosen = logits.argmax(-1)
        else:
            chosen = torch.multinomial(torch.softmax(logits.float() / temperature, -1), 1)[:, 0]
        ended = torch.isin(chosen, stop)
        for row, token, done in zip(alive.tolist(), chosen.tolist(), ended.tolist()):
            if not done:
                tokens[row].append(token)
        keep = (~ended).nonzero()[:, 0]
        if len(keep) == 0 or step == max_new_tokens - 1:
            break
        if len(keep) < len(alive):
            alive, chosen, mask, step_pos = alive[keep], chosen[keep], mask[keep], step_pos[keep]
            cache.batch_select_indices(keep)
        mask = torch.cat([mask, mask.new_ones(len(alive), 1)], -1)
        step_pos = step_pos + 1
        out = model(
            input_ids=chosen[:, None], attention_mask=mask, position_ids=step_pos, past_key_values=cache, use_cache=True
        )
        cache, logits = out.past_key_values, out.logits[:, -1, :]
    return tokens


def complete_texts(
    model: Any,
    tokenizer: Any,
    prompts: list[str],
    max_new_tokens: int,
    batch_size: int,
    temperature: float | None = None,
    k: int = 1,
    seed: int = 0,
) -> list[str]:
    """The new text for each rendered prompt (prompt-major, k per prompt), ``batch_size`` prompts at a time
    (left-padded: the tokenizer's ``padding_side`` must be "left"). The torch seed is set to ``seed`` + the
    batch's first index before each batch, so a prompt's draws do not depend on what ran before it."""
    import torch

    eos = eos_ids(model, tokenizer)
    texts: list[str] = []
    for start in range(0, len(prompts), batch_size):
        batch = tokenizer(
            prompts[start : start + batch_size], return_tensors="pt", padding=True, add_special_tokens=False
        )
        torch.manual_seed(seed + start)
        with torch.inference_mode():
            rows = decode(
                model, batch["input_ids"], batch["attention_mask"], max_new_tokens, eos, temperature=temperature, k=k
            )
        texts += [tokenizer.decode(row, skip_special_tokens=True) for row in rows]
    return texts
