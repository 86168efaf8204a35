"""What this machine offers (CUDA, optional packages such as Unsloth), asked without importing them.

Kept apart from ``knowrl.models`` so that loading a config can import Unsloth first (it patches TRL,
transformers and peft at import) without importing the model code.
"""

from __future__ import annotations

import importlib.util


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
