"""TRL trainer arguments that must not depend on the backend.

Unsloth's trainer configs swap in their own defaults for some arguments (GRPO: gradient_accumulation_steps
2, so twice the completions and judge calls per step; learning_rate 5e-5; adamw_8bit; weight decay; warmup_steps
0.1; vllm_importance_sampling_correction off; SFT: padding_free None; ...). It writes them into its config class's
``__init__`` signature only, leaving the dataclass fields at TRL's values. The same config must train the same way
on either backend, so every argument it leaves out keeps TRL's default.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

from knowrl.accelerator import cuda_available, is_available

# Always passed with TRL's default, even where a subclass's ``__init__`` hides its defaults (``**kwargs``).
TRAINING_ARGS = (
    "per_device_train_batch_size",
    "gradient_accumulation_steps",
    "num_generations",
    "learning_rate",
    "weight_decay",
    "optim",
)


def _differs(value: Any, trl_value: Any) -> bool:
    """Whether ``value`` is not TRL's default (anything not plainly equal counts: passing TRL's is harmless)."""
    try:
        return type(value) is not type(trl_value) or bool(value != trl_value)
    except Exception:
        return True


def trl_defaults(config_class: type) -> dict[str, Any]:
    """TRL's own defaults (its dataclass fields') for ``TRAINING_ARGS`` and for every ``__init__`` argument whose
    default in ``config_class`` (TRL's class, or a subclass such as Unsloth's patch) is not TRL's."""
    base = next((c for c in config_class.__mro__ if c.__module__.startswith("trl.")), config_class)
    params = inspect.signature(config_class.__init__).parameters
    base_params = inspect.signature(base.__init__).parameters
    values: dict[str, Any] = {}
    for field in dataclasses.fields(base):
        if not field.init:
            continue
        if field.default is not dataclasses.MISSING:
            trl_value = field.default
        elif field.default_factory is not dataclasses.MISSING:
            trl_value = field.default_factory()
        else:
            continue
        if field.name in TRAINING_ARGS:
            values[field.name] = trl_value
            continue
        param = params.get(field.name)
        if param is None or param.default is inspect.Parameter.empty:
            continue
        base_param = base_params.get(field.name)
        if base_param is not None and param.default is base_param.default:
            continue  # TRL's own __init__ default (also its ``<factory>`` marker): unchanged
        if _differs(param.default, trl_value):
            values[field.name] = trl_value
    return values


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
