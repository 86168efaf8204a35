"""TRL trainer arguments that must not depend on the backend.

Unsloth's trainer configs swap in their own defaults for some arguments (GRPO: gradient_accumulation_steps
2, so twice the completions and judge calls per step; learning_rate 5e-5; adamw_8bit; weight decay). The
same config must train the same way on either backend, so the arguments it leaves out keep TRL's defaults.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from knowrl.accelerator import cuda_available

TRAINING_ARGS = (
    "per_device_train_batch_size",
    "gradient_accumulation_steps",
    "num_generations",
    "learning_rate",
    "weight_decay",
    "optim",
)


def trl_defaults(config_class: type) -> dict[str, Any]:
    """TRL's own defaults for ``TRAINING_ARGS``, read from TRL's class even when a subclass changed them."""
    base = next((c for c in config_class.__mro__ if c.__module__.startswith("trl.")), config_class)
    fields = {f.name: f for f in dataclasses.fields(base)}
    return {
        name: fields[name].default
        for name in TRAINING_ARGS
        if name in fields and fields[name].default is not dataclasses.MISSING
    }


def trainer_args(config_class: type, ours: dict[str, Any], user: dict[str, Any]) -> Any:
    """``config_class`` (TRL's GRPOConfig / SFTConfig, or Unsloth's patch of it) from TRL's defaults, then
    ``ours`` (the run's output dir, seed, logging), CPU settings without a GPU, then the config's section."""
    values: dict[str, Any] = {**trl_defaults(config_class), **ours}
    if not cuda_available():
        values.update(use_cpu=True, bf16=False)
    values.update(user)
    return config_class(**values)
