"""TRL trainer arguments that must not depend on the backend.

Unsloth's trainer configs swap in their own defaults for some arguments (GRPO: gradient_accumulation_steps
2, so twice the completions and judge calls per step; learning_rate 5e-5; adamw_8bit; weight decay). The
same config must train the same way on either backend, so the arguments it leaves out keep TRL's defaults.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from knowrl.accelerator import cuda_available, is_available

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


# transformers' optimizer names that build a bitsandbytes optimizer (transformers 5.17).
BITSANDBYTES_OPTIMIZERS = frozenset(
    {
        "adamw_8bit",
        "adamw_bnb_8bit",
        "ademamix",
        "ademamix_8bit",
        "lion_32bit",
        "lion_8bit",
        "paged_adamw_32bit",
        "paged_adamw_8bit",
        "paged_ademamix_32bit",
        "paged_ademamix_8bit",
        "paged_lion_32bit",
        "paged_lion_8bit",
        "rmsprop_bnb",
        "rmsprop_bnb_32bit",
        "rmsprop_bnb_8bit",
    }
)


def check_optimizer(optim: Any, section: str) -> None:
    """A bitsandbytes optimizer without bitsandbytes is a config error now, not an ImportError at the first step."""
    from knowrl.config import ConfigError

    name = str(getattr(optim, "value", optim))
    if name in BITSANDBYTES_OPTIMIZERS and not is_available("bitsandbytes"):
        raise ConfigError(
            f"{section}.optim: {name} is a bitsandbytes optimizer (pip install bitsandbytes; the gpu extra's "
            f"unsloth brings it); without it, --set {section}.optim=adamw_torch"
        )


def trainer_args(config_class: type, ours: dict[str, Any], user: dict[str, Any], section: str = "grpo") -> Any:
    """``config_class`` (TRL's GRPOConfig / SFTConfig, or Unsloth's patch of it) from TRL's defaults, then
    ``ours`` (the run's output dir, seed, logging), CPU settings without a GPU, then the config's section.

    Without CUDA, ``tf32`` (a matmul mode of Ampere+ GPUs, which transformers refuses elsewhere) is dropped;
    everything else in the section is kept, so a GPU config (bf16, adamw_8bit) means the same there.
    """
    values: dict[str, Any] = {**trl_defaults(config_class), **ours}
    if not cuda_available():
        values.update(use_cpu=True, bf16=False)
    values.update(user)
    if not cuda_available():
        values.pop("tf32", None)
    check_optimizer(values.get("optim"), section)
    return config_class(**values)
