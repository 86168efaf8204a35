"""What this machine offers (CUDA, optional packages such as Unsloth), asked without importing them.

Kept apart from ``knowrl.models`` so that loading a config can import Unsloth first (it patches TRL,
transformers and peft at import) without importing the model code.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from contextlib import AbstractContextManager


def is_available(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


def unsloth_usable() -> bool:
    """What ``model.backend: auto`` asks: Unsloth installed and a GPU to run it on."""
    return is_available("unsloth") and cuda_available()


def import_unsloth_first(backend: object) -> None:
    """Import Unsloth now if the run will use it: it must come before TRL / transformers / peft, and
    validating a config already imports TRL. ``backend``: the config's raw ``model.backend``."""
    if backend == "unsloth" and is_available("unsloth") or backend in (None, "auto") and unsloth_usable():
        import unsloth  # noqa: F401


def training_attention() -> AbstractContextManager[None]:
    """A context for ``trainer.train()``: scaled-dot-product attention may use every backend but cuDNN's.

    cuDNN's SDPA backward returns NaN gradients on H100/H200 when a padding mask is passed and the padded
    length is 64 past a multiple of 128 (pytorch/pytorch#196678, regression since torch 2.11; TRL reports the
    same on 2.13, huggingface/trl#7181). That is what a padded SFT or GRPO batch is, and it fits what our
    H100 runs showed (a NaN grad_norm at a finite loss, at the same steps of a seed whatever the learning
    rate; the same first step was finite on CPU). Reported from one H100 lease (2026-11-27; a hand-added
    section of docs/history/results/gpu.md, its output not committed, not rerun): the 1.5B's SFT batches padded
    to 192 or 320 gave NaN at step 1 with PyTorch's default choice, and finite gradients inside this context.
    Flash / memory-efficient / math attention take over at about the same speed; the backend
    is chosen at the forward pass, so the backward follows. On a CPU nothing changes (cuDNN is CUDA's)."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    return sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH])


@functools.cache  # torch's registry is the process's: once is enough
def cpu_rank_loads() -> None:
    """Let ``torch.load`` map a checkpoint onto an indexed CPU device (``cpu:0``), as it does onto ``cpu``.

    Under several CPU processes (gloo), accelerate gives each rank the device ``cpu:<local index>`` and transformers'
    Trainer loads a checkpoint's optimizer state with ``map_location=args.device`` when ``world_size > 1``; torch's
    CPU deserializer takes only the tag ``cpu``, so every ``--resume`` under torchrun on CPU died in "don't know how
    to restore data location of torch.storage.UntypedStorage (tagged with cpu:0)" (hostile pass 56). Registered
    after torch's own CPU entry (priority 10), it answers that tag only.
    """
    import torch

    def deserialize(storage: torch.UntypedStorage, location: str) -> torch.UntypedStorage | None:
        return storage if re.fullmatch(r"cpu:\d+", location) and storage.device.type == "cpu" else None

    torch.serialization.register_package(11, lambda storage: None, deserialize)
