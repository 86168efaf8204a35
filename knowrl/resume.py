"""What ``--resume`` cannot change: the LoRA adapter's shape and the base model its checkpoint was trained on.

A checkpoint's adapter weights and optimizer state are sized by ``lora.r`` and ``lora.target_modules``; loaded
into an adapter built from another config they died in torch's "size mismatch" traceback, or in an optimizer
error naming no key (hostile pass 55). Compared here with the checkpoint's ``adapter_config.json``, before
anything loads, so the error names each key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from knowrl.adapters import folder_shapes, local_folder, read_adapter_config
from knowrl.config import ConfigError, TrainConfig
from knowrl.models import built_in_folder


def check_resume(config: TrainConfig, checkpoint: Path) -> None:
    """Raise a ``ConfigError`` naming every key the config changed that ``checkpoint`` cannot continue with."""
    saved = read_adapter_config(checkpoint)
    if saved is None and not (checkpoint / "config.json").is_file():
        return  # neither an adapter nor a full model (a save cut short?): nothing to compare, the trainer says
    changed = _adapter_changes(config, saved) + _base_changes(config, saved)
    if not changed:
        return
    raise ConfigError(
        f"--resume: {checkpoint} cannot continue with this config: {'; '.join(changed)}; set the checkpoint's "
        "values again (--set KEY=VALUE), or pass --overwrite to start again (removes the run's checkpoints)"
    )


def _adapter_changes(config: TrainConfig, saved: dict[str, Any] | None) -> list[str]:
    """'<key> is X in the checkpoint, Y in the config' for the adapter's shape: ``model.adapter``'s own config
    when one is given (it, not ``lora``, builds the adapter), else the ``lora`` section."""
    if not config.model.adapter and not config.lora.enabled:
        return [] if saved is None else ["lora.enabled is true in the checkpoint (a LoRA adapter), false in the config"]
    if saved is None:  # a full model's checkpoint: config.json, no adapter_config.json
        return ["lora.enabled is false in the checkpoint (a full model), true in the config (a LoRA adapter)"]
    if config.model.adapter:
        started = read_adapter_config(Path(config.model.adapter)) or {}
        keys = [(f"model.adapter's {key}", key, started.get(key)) for key in ("r", "lora_alpha", "target_modules")]
        names = None  # both lists were saved by peft: already only modules the model has
    else:
        keys = [
            ("lora.r", "r", config.lora.r),
            ("lora.alpha", "lora_alpha", config.lora.alpha),
            ("lora.target_modules", "target_modules", config.lora.target_modules),
        ]
        names = module_names(config)
    changes = []
    for name, key, ours in keys:
        theirs, ours = _value(saved.get(key), key, names), _value(ours, key, names)
        if theirs is not None and ours is not None and theirs != ours:
            changes.append(f"{name} is {_shown(theirs)} in the checkpoint, {_shown(ours)} in the config")
    return changes


def _value(value: Any, key: str, names: set[str] | None) -> Any:
    """A value as loading uses it: target modules as a set, without those the model lacks (``load_policy`` drops
    them, so the checkpoint never lists them); without the model's names, compared as given."""
    if key != "target_modules" or value is None:
        return value
    targets = {value} if isinstance(value, str) else set(value)
    return targets if names is None else targets & names


def _shown(value: Any) -> str:
    return f"[{', '.join(sorted(value))}]" if isinstance(value, (list, set)) else str(value)


def _base_changes(config: TrainConfig, saved: dict[str, Any] | None) -> list[str]:
    """The base model, where the checkpoint recorded one: the same folder name (a hub id and its local copy, or a
    built-in model's cache folder moved with ``KNOWRL_CACHE_DIR``, stay the same model). Only on the transformers
    backend: Unsloth loads many models from its own copy under another name, which peft records (landing review)."""
    base = (saved or {}).get("base_model_name_or_path")
    if not isinstance(base, str) or not base or config.model.backend != "transformers":
        return []  # Unsloth (and "auto", which may pick it) records its own copy's name ("unsloth/llama-3-8b-...")
    name = config.model.name_or_path
    folder = built_in_folder(name, config.seed)
    ours = folder.name if folder is not None else Path(name).name
    if Path(base).name == ours:
        return []
    shown = name if folder is None else f"{name} (built as {ours} for seed {config.seed})"
    return [f"model.name_or_path is {base} in the checkpoint, {shown} in the config"]


def module_names(config: TrainConfig) -> set[str] | None:
    """Every module name in the base model's weights (``model.layers.0.mlp.gate_proj.weight``: model, layers, 0,
    mlp, gate_proj), read from its safetensors headers without loading a tensor; None when the weights are not on
    this machine or not safetensors."""
    folder = local_folder(config.model.name_or_path, config.seed)
    shapes = folder_shapes(folder) if folder is not None else {}
    if not shapes:
        return None
    return {part for key in shapes for part in key.split(".")[:-1]}
