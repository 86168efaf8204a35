"""What a LoRA adapter folder says about itself and its base, read from JSON and safetensors headers, never a tensor.

``--resume`` compares a checkpoint's adapter with the config (``knowrl.resume``); ``evaluate``, ``merge`` and
``task_eval`` check that an ``--adapter`` fits the base they were given: one trained on another base died in
torch's "size mismatch for ...lora_B..." traceback after the model loaded (hostile pass 56).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from knowrl.config import ConfigError, ModelConfig
from knowrl.models import built_in_folder, choose_backend, resolve_model_path

ADAPTER_CONFIG = "adapter_config.json"  # what peft saves beside a LoRA adapter's weights
ADAPTER_WEIGHTS = "adapter_model.safetensors"


def read_adapter_config(folder: Path, flag: str = "--resume") -> dict[str, Any] | None:
    """A LoRA folder's ``adapter_config.json``; None when there is none (a full-model checkpoint). ``flag``: who
    gave the folder, for the error."""
    path = folder / ADAPTER_CONFIG
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"{flag}: cannot read {path}: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{flag}: {path} is not a JSON object")
    return data


def local_folder(name: str, seed: int) -> Path | None:
    """The model's folder on this machine: a built-in model's cache folder, a local path, or a hub id's
    snapshot already in the Hugging Face cache (never downloaded here)."""
    folder = built_in_folder(name, seed) or Path(name).expanduser()
    if folder.is_dir():
        return folder
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(name, local_files_only=True))
    except (ImportError, OSError, ValueError):
        return None


def tensor_shapes(file: Path) -> dict[str, tuple[str, list[int]]]:
    """Each tensor's (dtype, shape) in a safetensors file's header (an 8-byte length, then JSON); empty when the
    file is missing or not safetensors."""
    try:
        with file.open("rb") as f:
            size = int.from_bytes(f.read(8), "little")
            if size > file.stat().st_size - 8:
                return {}  # a length past the file's end: not a safetensors header (never read gigabytes)
            header = json.loads(f.read(size))
    except (OSError, UnicodeDecodeError, ValueError, MemoryError, OverflowError):
        return {}  # not a safetensors file (a random 8-byte length overflows a read): peft reports it
    if not isinstance(header, dict):
        return {}
    return {
        key: (str(value.get("dtype")), list(value.get("shape") or []))
        for key, value in header.items()
        if key != "__metadata__" and isinstance(value, dict)
    }


def folder_shapes(folder: Path) -> dict[str, tuple[str, list[int]]]:
    """Every tensor's (dtype, shape) in a model folder's safetensors files."""
    shapes: dict[str, tuple[str, list[int]]] = {}
    for file in sorted(folder.glob("*.safetensors")):
        shapes.update(tensor_shapes(file))
    return shapes


def adapter_base_problem(adapter: str, base: str, seed: int, flags: tuple[str, str]) -> str | None:
    """Why ``adapter`` cannot load onto ``base`` (one line naming both ``flags``, the adapter's and the base's, and
    the base the adapter records), or None: the layers it adapts have other sizes in the base.

    Names are not compared: Unsloth records its own copy's name, and a hub id, its local copy and a built-in
    model's cache folder are one model. What peft would refuse is compared instead: each adapted layer's size
    (lora_A's inputs, lora_B's outputs) against the base's weight of that name. Layers the base's files do not
    name (renamed on load, tied, quantized) and weights that are not safetensors are not judged: peft says."""
    try:
        config = read_adapter_config(Path(adapter), flags[0]) or {}
    except ConfigError as exc:
        return str(exc)
    try:  # a built-in base is built (or converted) now, as loading would; one that cannot be is the loader's to say
        folder = Path(resolve_model_path(base, seed)) if built_in_folder(base, seed) else local_folder(base, seed)
    except (RuntimeError, OSError, ValueError):
        return None
    if folder is None:
        return None
    misfit = _misfit(_lora_sizes(Path(adapter)), folder_shapes(folder), bool(config.get("fan_in_fan_out")))
    if misfit is None:
        return None
    recorded = config.get("base_model_name_or_path") or "a base its adapter_config.json does not name"
    return (
        f"{flags[0]} {adapter} was trained on {recorded}, not on {flags[1]} {base}: {misfit}; give {flags[1]} the "
        "base it was trained on"
    )


def check_start_adapter(model: ModelConfig, seed: int) -> None:
    """A run that starts from ``model.adapter`` (train, sft): a ``ConfigError`` when it does not fit
    ``model.name_or_path``. On the transformers backend only: Unsloth loads the adapter onto the base it records."""
    if not model.adapter or choose_backend(model) != "transformers":
        return
    flags = ("model.adapter", "model.name_or_path")
    problem = adapter_base_problem(model.adapter, model.name_or_path, seed, flags)
    if problem:
        raise ConfigError(problem)


def _lora_sizes(adapter: Path) -> dict[str, list[int | None]]:
    """Adapted layer -> [inputs, outputs], from lora_A's and lora_B's shapes (peft's key ``<layer>.lora_A.weight``)."""
    sizes: dict[str, list[int | None]] = {}
    for key, (_, shape) in tensor_shapes(adapter / ADAPTER_WEIGHTS).items():
        layer, _, part = key.partition(".lora_")
        if part in ("A.weight", "B.weight") and len(shape) == 2:
            size = sizes.setdefault(layer.removeprefix("base_model.model."), [None, None])
            size[0 if part == "A.weight" else 1] = shape[1] if part == "A.weight" else shape[0]
    return sizes


def _misfit(lora: dict[str, list[int | None]], base: dict[str, tuple[str, list[int]]], fan_in_out: bool) -> str | None:
    """The first adapted layer whose size the base's weight of that name does not have, as a phrase."""
    for layer, (inputs, outputs) in sorted(lora.items()):
        dtype, shape = base.get(f"{layer}.weight", ("", []))
        if len(shape) != 2 or not dtype.startswith(("F", "BF")):  # absent, or packed by a quantizer
            continue
        theirs = shape if fan_in_out else shape[::-1]  # [inputs, outputs]: Conv1D stores it so, Linear reversed
        if inputs not in (None, theirs[0]) or outputs not in (None, theirs[1]):
            return f"its {layer} maps {inputs} -> {outputs} features, the base's {theirs[0]} -> {theirs[1]}"
    return None
