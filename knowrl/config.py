"""One validated YAML per run: model, lora, data, knowledge base, reward, grpo/sft, output.

Every key is a declared field: a misspelt one is an error naming it with the closest valid
key (KnowRL's ``swanlab_experiment_name::`` typo silently disabled its logging). ``grpo``
and ``sft`` pass TRL's own ``GRPOConfig``/``SFTConfig`` fields through, checked against
those dataclasses. Paths are relative to the config file. ``--set a.b=value`` overrides.
"""

from __future__ import annotations

import dataclasses
import difflib
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from reward_engine.config import ConfigError, RewardEngineConfig, format_validation_error, load_yaml, parse_reward_config


class ModelConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name_or_path: str = Field(..., description="local path or hub id; 'tiny' (test model) or 'smollm2' (bundled GGUF)")
    backend: Literal["auto", "unsloth", "transformers"] = Field("auto", description="auto: unsloth when CUDA + unsloth")
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = "auto"
    max_seq_length: int = Field(2048, description="prompt + completion tokens (Unsloth, vLLM)")
    gpu_memory_utilization: float = Field(0.6, description="vLLM's share of GPU memory (Unsloth fast_inference)")
    adapter: str | None = Field(None, description="a LoRA adapter to start from (e.g. the cold-start SFT output)")


class LoraConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: list[str] = Field(
        default_factory=lambda: ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"])


class DataConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    train: str = Field(..., description="KnowRL JSON array, JSONL, or a local HF dataset file/folder")
    eval: str | None = Field(None, description="held-out RL rows for --evaluate before/after")
    sft: str | None = Field(None, description="ShareGPT conversations for the cold-start stage")
    max_samples: int | None = Field(None, description="use only the first N training rows")
    prompt_template: Literal["knowrl"] = "knowrl"


class PipelineConfig(BaseModel):
    """KnowRL's two stages end to end (the demo): data, SFT, GRPO, evaluation before and after."""

    model_config = ConfigDict(extra="forbid")

    demo_data: bool = Field(False, description="generate QA from the demo KB's sources (train/held-out/SFT)")
    demo_train_questions: int = 160
    demo_heldout_questions: int = 40
    cold_start_sft: bool = Field(False, description="run the `sft` stage on data.sft first, merge, then GRPO")
    evaluate_before_after: bool = Field(False, description="evaluate data.eval before SFT and after GRPO")
    eval_max_new_tokens: int = 64


class KBConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    build_from: str | None = Field(None, description="JSON/JSONL of {title, text} to build reward.factuality.kb_path "
                                   "from when it does not exist yet; 'demo' for the offline demo KB")


class LoggingConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    report_to: list[str] = Field(default_factory=list, description="tensorboard, wandb, swanlab (when installed)")
    reward_log: str = Field("rewards.jsonl", description="per-completion reward breakdown, appended each step")


def _check_trl_fields(values: dict[str, Any], cls: type, section: str) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    for key in values:
        if key not in names:
            close = difflib.get_close_matches(key, sorted(names), n=1, cutoff=0.6)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise ValueError(f"unknown key '{section}.{key}' (not a field of TRL's {cls.__name__}){hint}")
    return values


class TrainConfig(BaseModel):
    """A GRPO (``knowrl.train``) or cold-start SFT (``knowrl.sft``) run."""

    model_config = ConfigDict(extra="forbid")

    model: ModelConfig
    lora: LoraConfig = Field(default_factory=LoraConfig)
    data: DataConfig
    kb: KBConfig = Field(default_factory=KBConfig)
    reward: RewardEngineConfig | None = None
    grpo: dict[str, Any] = Field(default_factory=dict, description="TRL GRPOConfig fields")
    sft: dict[str, Any] = Field(default_factory=dict, description="TRL SFTConfig fields")
    logging: LoggingConfig = Field(default_factory=LoggingConfig)
    pipeline: PipelineConfig = Field(default_factory=PipelineConfig)
    output_dir: str = "runs/knowrl"
    seed: int = 42

    @field_validator("grpo")
    @classmethod
    def _grpo_fields(cls, value: dict[str, Any]) -> dict[str, Any]:
        from trl import GRPOConfig

        return _check_trl_fields(value, GRPOConfig, "grpo")

    @field_validator("sft")
    @classmethod
    def _sft_fields(cls, value: dict[str, Any]) -> dict[str, Any]:
        from trl import SFTConfig

        return _check_trl_fields(value, SFTConfig, "sft")


def apply_overrides(data: dict[str, Any], overrides: list[str]) -> dict[str, Any]:
    """``a.b.c=value`` (value parsed as YAML) into the nested mapping."""
    for item in overrides:
        if "=" not in item:
            raise ConfigError(f"--set expects key=value, got {item!r}")
        key, raw = item.split("=", 1)
        node = data
        parts = key.strip().split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(f"--set {key}: '{part}' is not a section")
        node[parts[-1]] = yaml.safe_load(raw)
    return data


def _resolve(path: str | None, base: Path) -> str | None:
    if path is None or path in ("tiny", "smollm2", "demo") or "://" in path:
        return path
    candidate = Path(path).expanduser()
    if candidate.is_absolute():
        return str(candidate)
    local = (base / candidate).resolve()
    # A hub id such as "HuggingFaceTB/SmolLM2-135M-Instruct" stays as given unless it exists here.
    return str(local) if local.exists() or path.startswith(".") or "/" not in path else path


def load_train_config(path: str | Path, overrides: list[str] | None = None) -> TrainConfig:
    path = Path(path)
    data = apply_overrides(load_yaml(path), overrides or [])
    reward = data.pop("reward", None)
    try:
        config = TrainConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, str(path), TrainConfig)) from None
    except ValueError as exc:
        raise ConfigError(f"invalid config {path}: {exc}") from None
    base = path.parent.resolve()
    if reward is not None:
        if not isinstance(reward, dict):
            raise ConfigError(f"invalid config {path}: 'reward' must be a mapping")
        config.reward = parse_reward_config(reward, f"{path} (reward)", base)
    config.model.name_or_path = _resolve(config.model.name_or_path, base)  # type: ignore[assignment]
    config.model.adapter = _resolve(config.model.adapter, base)
    config.data.train = _resolve(config.data.train, base)  # type: ignore[assignment]
    config.data.eval = _resolve(config.data.eval, base)
    config.data.sft = _resolve(config.data.sft, base)
    config.kb.build_from = _resolve(config.kb.build_from, base)
    config.output_dir = str((base / config.output_dir).resolve()) if not Path(config.output_dir).is_absolute() \
        else config.output_dir
    return config


__all__ = ["ConfigError", "TrainConfig", "apply_overrides", "load_train_config"]
