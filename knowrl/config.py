"""One validated YAML per run: model, lora, data, knowledge base, reward, grpo/sft, output.

Every key is a declared field: a misspelt one is an error naming it with the closest valid
key (KnowRL's ``swanlab_experiment_name::`` typo silently disabled its logging). ``grpo``
and ``sft`` pass TRL's own ``GRPOConfig``/``SFTConfig`` fields through, checked against
those dataclasses. Paths are relative to the config file. ``--set a.b=value`` overrides.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import math
import types
import typing
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from knowrl.accelerator import import_unsloth_first
from knowrl.report_to import report_to_problem
from knowrl.reward_log import reward_log_problem
from knowrl.tasks.math_reward import MathRewardConfig
from knowrl.tasks.rg_reward import ReasoningGymRewardConfig
from knowrl_io.paths import expand_path
from reward_engine.config import (
    ConfigError,
    RewardEngineConfig,
    format_validation_error,
    load_yaml,
    parse_reward_config,
    yaml_value,
)


class ModelConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name_or_path: str = Field(..., description="local path or hub id; 'tiny' (test model) or 'smollm2' (bundled GGUF)")
    backend: Literal["auto", "unsloth", "transformers"] = Field("auto", description="auto: unsloth when CUDA + unsloth")
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = Field(
        "auto", description="weights' dtype on both backends; auto: bfloat16 where the GPU has it"
    )
    attn_implementation: Literal["eager", "sdpa", "flash_attention_2", "flash_attention_3"] | None = Field(
        None,
        description="transformers backend's attention (flash_* need flash-attn and a GPU; without CUDA, "
        "transformers' default is used). Unsloth picks its own kernels and drops this argument",
    )
    max_seq_length: int = Field(2048, gt=0, description="prompt + completion tokens (Unsloth, vLLM)")
    gpu_memory_utilization: float = Field(
        0.6,
        gt=0,
        le=1,
        description="vLLM's share of GPU memory (Unsloth fast_inference); grpo.vllm_gpu_memory_utilization "
        "sets it too when this is left out",
    )
    fast_inference: bool | None = Field(
        None,
        description="Unsloth generates with vLLM; None: when vllm is "
        "installed (without it, Unsloth's kernels still train, generation is HF's)",
    )
    adapter: str | None = Field(None, description="a LoRA adapter to start from (e.g. the cold-start SFT output)")


class LoraConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: list[str] = Field(
        default_factory=lambda: ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
    )


class DataConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    train: str | None = Field(
        None,
        description="JSON array, JSONL, or a local HF dataset file/folder (the task's "
        "row format); not needed for generated data",
    )
    eval: str | None = Field(None, description="held-out RL rows for --evaluate before/after")
    sft: str | None = Field(None, description="ShareGPT conversations for the cold-start stage")
    max_samples: int | None = Field(None, ge=1, description="use only the first N training rows")
    max_prompt_length: int | None = Field(
        None,
        gt=0,
        description="GRPO prompts longer than this many tokens are cut from the left, as TRL <= 0.27's "
        "GRPOConfig.max_prompt_length did (TRL 0.28 dropped the field); None: never cut",
    )
    prompt_template: Literal["knowrl"] = "knowrl"


class MathTaskConfig(BaseModel):
    """``task: math`` — boxed answers checked by rule (``knowrl.tasks.math_reward``)."""

    model_config = ConfigDict(extra="forbid")

    source: Literal["file", "gsm_symbolic"] = Field(
        "file", description="file: data.train/data.eval; gsm_symbolic: reasoning-gym's generator (offline)"
    )
    train_size: int = Field(256, ge=1, description="generated training rows (gsm_symbolic)")
    eval_size: int = Field(32, ge=1, description="generated held-out rows (gsm_symbolic, another seed)")
    reward: MathRewardConfig = Field(default_factory=MathRewardConfig)


class ReasoningGymTaskConfig(BaseModel):
    """``task: reasoning_gym`` — procedurally generated tasks scored by their own ``score_answer``."""

    model_config = ConfigDict(extra="forbid")

    train_tasks: dict[str, float] = Field(..., description="task name -> mixing weight")
    eval_tasks: list[str] | None = Field(None, description="default: the training tasks; may add unseen ones")
    train_size: int = Field(1000, ge=1)
    eval_size_per_task: int = Field(20, ge=1)
    task_configs: dict[str, dict[str, Any]] = Field(default_factory=dict, description="per-task generator options")
    reward: ReasoningGymRewardConfig = Field(default_factory=ReasoningGymRewardConfig)

    @model_validator(mode="after")
    def _known(self) -> "ReasoningGymTaskConfig":
        from knowrl.tasks.rg_data import check_tasks

        if not self.train_tasks or any(w <= 0 for w in self.train_tasks.values()):
            raise ValueError("reasoning_gym.train_tasks needs at least one task with a positive weight")
        check_tasks(list(self.train_tasks), "reasoning_gym.train_tasks")
        check_tasks(self.eval_tasks or [], "reasoning_gym.eval_tasks")
        check_tasks(list(self.task_configs), "reasoning_gym.task_configs")
        return self

    @property
    def evaluation_tasks(self) -> list[str]:
        return self.eval_tasks or list(self.train_tasks)


class PipelineConfig(BaseModel):
    """KnowRL's two stages end to end (the demo): data, SFT, GRPO, evaluation before and after."""

    model_config = ConfigDict(extra="forbid")

    demo_data: bool = Field(False, description="generate QA from the demo KB's sources (train/held-out/SFT)")
    demo_train_questions: int = 160
    demo_heldout_questions: int | None = Field(
        40, description="the first N of the fixed held-out set (knowrl.effect.demo_questions); null: all of it"
    )
    demo_cold_start: Literal["random", "boundary"] = Field(
        "random",
        description='which training questions get "I don\'t know" as their cold-start answer: boundary, those '
        "the model before SFT gets wrong (KnowRL, R-Tuning); random, demo_sft_unsure_share of them",
    )
    demo_sft_unsure_share: float = Field(
        0.0,
        ge=0.0,
        le=1.0,
        description="with demo_cold_start random: share of real training questions whose "
        'cold-start answer is "I don\'t know" (GRPO then sees abstentions)',
    )
    demo_design: Literal["hard", "gradient", "margin"] = Field(
        "hard",
        description="margin: questions the base policy's probe calls clearly known (right in >= 3 of 4) or "
        "clearly unknown (never right), balanced within each family, the middle kept out "
        "(knowrl.effect.margin); gradient: questions the base policy half-knows (famous vs obscure entities of one "
        "family, knowrl.effect.question_families, chosen from its probe by knowrl.effect.stratify); hard: the seven "
        "encyclopaedic templates of knowrl.effect.demo_questions",
    )
    demo_margin_ratio: float = Field(
        1.0, ge=1.0, description="margin: per family, at most this many of one side per one of the other"
    )
    demo_targets: Literal["short", "kb"] = Field(
        "short",
        description="margin: cold-start reasoning is one sentence, the answer or the admission (short), or the "
        "answer first then KB text (kb)",
    )
    demo_boundary_file: str | None = Field(
        None,
        description="gradient: the base policy's probe kept as a file (python -m knowrl.effect.probe_candidates); "
        "else probed",
    )
    demo_boundary_stand_in: bool = Field(
        False,
        description="take demo_boundary_file as this policy's probe although another model was probed (quick runs "
        "and tests with the tiny model: the plumbing, not the knowledge)",
    )
    demo_heldout_answerable: int = Field(240, ge=1, description="gradient: answerable held-out questions")
    demo_heldout_made_up: int = Field(60, ge=0, description="gradient: held-out questions about made-up countries")
    demo_known_share: float = Field(
        0.45, gt=0.0, lt=1.0, description="gradient: share of questions the base policy knows, held-out and training"
    )
    demo_answer_first: bool = Field(
        False, description="gradient: cold-start reasoning opens with the answer (or the admission), context after"
    )
    demo_min_correct: int | None = Field(
        None,
        ge=1,
        description="known: right in this many of the probe's k answers (default: gradient half, margin 3/4)",
    )
    forecast: bool = Field(
        True,
        description="with a probed design (gradient, margin), print the reward forecast before GRPO "
        "(knowrl.effect.forecast) and warn when the reward's optimum abstains on most training questions",
    )
    cold_start_sft: bool = Field(False, description="run the `sft` stage on data.sft first, merge, then GRPO")
    evaluate_before_after: bool = Field(False, description="evaluate data.eval before SFT and after GRPO")
    evaluate_base: bool = Field(
        True, description="with evaluate_before_after, also the base model (off when it cannot write the format)"
    )
    eval_max_new_tokens: int = 64
    eval_samples: int = Field(
        0,
        ge=0,
        description="also k sampled answers per held-out question (rates with 95 % "
        "intervals over k x questions); 0: greedy only",
    )
    report: str | None = Field(
        None,
        description="also write the pipeline's markdown report here (stage times, the table, whether GRPO moved "
        "the rates beyond their intervals), with its reward curve and inspector page beside it; never over an "
        "input or a file this project did not write; <output_dir>/report.md is always written",
    )
    sample_before: bool = Field(
        True,
        description="draw the k samples for the base model too (off when it cannot "
        "write the answer format: they would all be not attempted)",
    )
    eval_temperature: float | None = Field(
        None, description="sampling temperature (default: grpo.temperature, as in training)"
    )


class DynamicSamplingConfig(BaseModel):
    """GRPO groups without reward spread replaced by fresh draws (``knowrl.dynamic_sampling``)."""

    model_config = ConfigDict(extra="forbid")

    max_rounds: int = Field(
        0, ge=0, description="extra draws per step to refill groups without reward spread; 0: off (TRL as is)"
    )


class KBConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    build_from: str | None = Field(
        None,
        description="JSON/JSONL of {title, text} to build reward.factuality.kb_path "
        "from when it does not exist yet, and again (exactly its documents) when the file changed since; "
        "'demo' for the offline demo KB",
    )


class LoggingConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    report_to: list[str] = Field(
        default_factory=list,
        description="transformers' integrations: tensorboard, wandb, swanlab, ... (checked at load: installed)",
    )
    reward_log: str = Field(
        "rewards.jsonl",
        description="per-completion reward breakdown, appended each step: a .jsonl name in output_dir",
    )


# Keys of older TRL / transformers (KnowRL's TRL 0.23 and transformers 4.57) that the installed ones
# dropped, and where their meaning lives now.
RENAMED = {
    ("grpo", "max_prompt_length"): "data.max_prompt_length (TRL 0.28 dropped GRPOConfig.max_prompt_length)",
    ("grpo", "warmup_ratio"): "warmup_steps (transformers 5: a float below 1 is a ratio of the total steps)",
    ("sft", "warmup_ratio"): "warmup_steps (transformers 5: a float below 1 is a ratio of the total steps)",
}


def _check_trl_fields(values: dict[str, Any], cls: type, section: str) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    for key in values:
        if key not in names:
            if (section, key) in RENAMED:
                hint = f"; use {RENAMED[section, key]}"
            else:
                close = difflib.get_close_matches(key, sorted(names), n=1, cutoff=0.6)
                hint = f"; did you mean '{close[0]}'?" if close else ""
            raise ValueError(f"unknown key '{section}.{key}' (not a field of TRL's {cls.__name__}){hint}")
    # YAML reads a bare `no` as False: `save_strategy: no` means the string TRL expects.
    return {k: ("no" if v is False and k.endswith("_strategy") else v) for k, v in values.items()}


# TRL / transformers settings that count something, and their least value. ``max_steps`` may also be -1,
# transformers' default ("train num_train_epochs instead"); 0 and other negatives were taken the same way without
# a word (max_steps -5 trained the epochs' 24 steps), so they are refused.
LEAST = {
    "max_steps": 1,
    "num_generations": 2,  # GRPO's advantage compares completions within a group: one has nothing to compare
    "per_device_train_batch_size": 1,
    "gradient_accumulation_steps": 1,
    "max_completion_length": 1,
    "num_iterations": 1,
    "generation_batch_size": 1,
    "steps_per_generation": 1,
    "max_length": 1,
    "vllm_max_model_length": 1,
    "vllm_tensor_parallel_size": 1,
}
ALSO = {"max_steps": (-1, "train num_train_epochs instead"), "top_k": (-1, "no top-k filter, as vLLM writes it")}
# settings with a range of their own: (least, whether the least itself is allowed, most or None, whether the most
# itself is allowed). A negative learning rate or a temperature of 0 reached transformers or the sampler, which
# refused it after the model loaded without naming the key (hostile pass 53); so did a repetition_penalty of 0, a
# top_k of -5 and a min_p of 1.5, naming transformers' own argument (pass 57), and an adam_beta1 of 1.5, naming
# torch's "index 0" (pass 58). top_k 0 turns the filter off (TRL 1.16, vLLM alike)
RANGES: dict[str, tuple[float, bool, float | None, bool]] = {
    "learning_rate": (0.0, False, None, False),
    "temperature": (0.0, False, None, False),
    "top_p": (0.0, False, 1.0, True),
    "top_k": (0, True, None, False),
    "min_p": (0.0, True, 1.0, True),
    "repetition_penalty": (0.0, False, None, False),
    "vllm_gpu_memory_utilization": (0.0, False, 1.0, True),
    "beta": (0.0, True, None, False),
    "epsilon": (0.0, True, None, False),
    "weight_decay": (0.0, True, None, False),
    "max_grad_norm": (0.0, True, None, False),
    "warmup_steps": (0.0, True, None, False),
    "adam_beta1": (0.0, True, 1.0, False),  # torch's Adam/AdamW: 0 <= beta < 1
    "adam_beta2": (0.0, True, 1.0, False),
    "adam_epsilon": (0.0, False, None, False),  # torch takes 0, a division by zero at a zero second moment
}


# TRL's text settings that take a few words, as TRL 1.15 and 1.16 spell them (the same words in both: read from
# their sources; the GPU extra takes 1.15). GRPOConfig declares plain ``str``, so there is nothing to read at runtime
# but where a field lists its own ``choices`` (SFTConfig's ``loss_type``), which win over this copy: the installed
# TRL's words. tests/test_hostile_pass58_config.py holds the copy to the installed TRL's source. TRL refused another
# word only in its trainer, after the model loaded (``loss_type``: after step 1 had generated; hostile pass 58).
# transformers' choices (``lr_scheduler_type``, ``optim``, ``*_strategy``) are its enums, read from the field's type.
CHOICES: dict[tuple[str, str], tuple[Any, ...]] = {
    ("grpo", "loss_type"): ("grpo", "dr_grpo", "dapo", "bnpo", "cispo", "sapo", "luspo", "vespo"),
    ("grpo", "importance_sampling_level"): ("token", "sequence"),
    ("grpo", "scale_rewards"): ("group", "batch", "none", True, False),  # TRL: True is group, False none
    ("grpo", "multi_objective_aggregation"): ("sum_then_normalize", "normalize_then_sum"),
    ("sft", "loss_type"): ("nll", "dft", "chunked_nll"),  # chunked_nll: deprecated, read as nll
}


def _choices(field: dataclasses.Field, section: str, key: str) -> tuple[Any, ...] | None:
    """The values a TRL text setting takes: for a ``CHOICES`` key the field's own declared ``choices`` (the
    installed TRL's words) else the copy; its enum's (transformers); None for a free one."""
    annotation = field.type
    if (section, key) in CHOICES:
        declared = field.metadata.get("choices")
        if isinstance(declared, (list, tuple)) and declared and all(isinstance(c, str) for c in declared):
            return (*declared, *(c for c in CHOICES[section, key] if isinstance(c, bool)))
        return CHOICES[section, key]
    union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    for kind in typing.get_args(annotation) if union else (annotation,):
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            return tuple(member.value for member in kind)
    return None


def _scalar_types(annotation: Any) -> tuple[Any, ...] | None:
    """The types a TRL field of plain numbers or flags takes (``int | None`` -> int, NoneType); None for others."""
    union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    kinds = typing.get_args(annotation) if union else (annotation,)
    return kinds if all(k in (int, float, bool, type(None)) for k in kinds) else None


def check_trl_values(values: Any, cls: type, section: str) -> None:
    """Each number or flag in ``grpo``/``sft`` of the type TRL declares, counts at least ``LEAST``: a string
    ``max_steps`` or a ``num_generations`` of 0 was a traceback after the model loaded. Unknown keys are left to
    the field check that names them. Raises ``ValueError`` naming the key."""
    if not isinstance(values, dict):
        return
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key, value in values.items():
        field = fields.get(key) if isinstance(key, str) else None
        choices = _choices(field, section, key) if field is not None else None
        if choices is not None:
            value = "no" if value is False and key.endswith("_strategy") else value  # YAML reads a bare `no` as false
            if not any(value == c and type(value) is type(c) for c in choices):
                allowed = ", ".join(str(c).lower() if isinstance(c, bool) else c for c in choices)
                raise ValueError(f"{section}.{key} must be one of {allowed}; got {value!r}")
            continue
        kinds = _scalar_types(field.type) if field is not None else None
        if kinds is None or (value is None and type(None) in kinds):
            continue
        name = f"{section}.{key}"
        if bool in kinds:
            if not isinstance(value, bool):
                raise ValueError(f"{name}: {value!r} is not true or false")
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{name}: {value!r} is not a {'whole ' if float not in kinds else ''}number")
        if float not in kinds and not isinstance(value, int):
            raise ValueError(f"{name}: {value!r} is not a whole number")
        least, (also, meaning) = LEAST.get(key), ALSO.get(key, (None, ""))
        if least is not None and value < least and value != also:
            either = f"{also} ({meaning}) or " if also is not None else ""
            raise ValueError(f"{name} must be {either}at least {least}, got {value}")
        if key in RANGES and value != also:
            low, low_allowed, high, high_allowed = RANGES[key]
            below = value < low or (value == low and not low_allowed)
            above = high is not None and (value > high or (value == high and not high_allowed))
            if not math.isfinite(value) or below or above:
                within = f"{'at least' if low_allowed else 'above'} {low:g}"
                if high is not None:
                    within += f" and {'at most' if high_allowed else 'below'} {high:g}"
                raise ValueError(f"{name} must be {within}, got {value}")


def check_generation_batch(values: Any, cls: type, world_size: int) -> None:
    """TRL's rule (GRPOConfig.__post_init__, trl 1.16) with the config: the generation batch,
    ``per_device_train_batch_size`` x ``steps_per_generation`` (default ``gradient_accumulation_steps``) x processes,
    or ``generation_batch_size``, holds whole groups of ``num_generations``. TRL raised it after the model loaded,
    naming only its derived ``generation_batch_size`` (hostile pass 56). ``world_size`` is the GRPO launch's: the
    check belongs to its start (``knowrl.grpo.check_start``), not to every job that reads the config (``knowrl.sft``
    held a config to it at its own process count). Call after ``check_trl_values``."""
    if not isinstance(values, dict):
        return
    defaults = {f.name: f.default for f in dataclasses.fields(cls)}

    def value(key: str) -> Any:
        return values[key] if values.get(key) is not None else defaults.get(key)

    per_device, groups = value("per_device_train_batch_size"), value("num_generations")
    generation, steps = value("generation_batch_size"), value("steps_per_generation")
    processes = f" x {world_size} processes" if world_size > 1 else " x 1 process"  # the world size, named either way
    if generation is not None and steps is not None:
        raise ValueError("grpo.generation_batch_size and grpo.steps_per_generation: set one of them, not both")
    if generation is not None:
        if generation % (per_device * world_size):
            raise ValueError(
                f"grpo.generation_batch_size {generation} must be a multiple of grpo.per_device_train_batch_size "
                f"{per_device}{processes}"
            )
        batch = f"grpo.generation_batch_size {generation}"
    else:
        key = "steps_per_generation" if steps is not None else "gradient_accumulation_steps"
        steps = value(key)
        generation = per_device * steps * world_size
        batch = f"grpo.per_device_train_batch_size {per_device} x grpo.{key} {steps}{processes} = {generation}"
    if generation % groups:
        raise ValueError(
            f"grpo.num_generations {groups} must divide the generation batch ({batch}): each prompt's "
            "completions are one group in one batch"
        )


class TrainConfig(BaseModel):
    """A GRPO (``knowrl.train``) or cold-start SFT (``knowrl.sft``) run."""

    model_config = ConfigDict(extra="forbid")

    task: Literal["knowrl", "math", "reasoning_gym"] = Field(
        "knowrl",
        description="knowrl: factual QA with the reward engine; math: boxed answers; reasoning_gym: generated tasks",
    )
    model: ModelConfig
    lora: LoraConfig = Field(default_factory=LoraConfig)
    data: DataConfig = Field(default_factory=DataConfig)
    math: MathTaskConfig | None = None
    reasoning_gym: ReasoningGymTaskConfig | None = None
    kb: KBConfig = Field(default_factory=KBConfig)
    reward: RewardEngineConfig | None = None
    grpo: dict[str, Any] = Field(default_factory=dict, description="TRL GRPOConfig fields")
    dynamic_sampling: DynamicSamplingConfig = Field(default_factory=DynamicSamplingConfig)
    sft: dict[str, Any] = Field(default_factory=dict, description="TRL SFTConfig fields")
    logging: LoggingConfig = Field(default_factory=LoggingConfig)
    pipeline: PipelineConfig = Field(default_factory=PipelineConfig)
    output_dir: str = "runs/knowrl"
    seed: int = Field(42, ge=0, le=2**32 - 1, description="numpy, torch and the tiny models take 0 to 2**32 - 1")
    time_budget_min: float | None = Field(
        None,
        gt=0,
        description="GRPO stops after the first step that ends past this many minutes of training and saves "
        "that step's adapter (a rented GPU's lease; None: max_steps alone)",
    )

    @field_validator("grpo")
    @classmethod
    def _grpo_fields(cls, value: dict[str, Any]) -> dict[str, Any]:
        from trl import GRPOConfig

        return _check_trl_fields(value, GRPOConfig, "grpo")

    @model_validator(mode="after")
    def _task_sections(self) -> "TrainConfig":
        for section in ("math", "reasoning_gym"):
            if getattr(self, section) is not None and self.task != section:
                raise ValueError(
                    f"section '{section}' is only read with task: {section} (this config has task: {self.task})"
                )
        if self.task == "math" and self.math is None:
            self.math = MathTaskConfig()
        if self.task == "reasoning_gym" and self.reasoning_gym is None:
            raise ValueError("task 'reasoning_gym' needs a 'reasoning_gym' section with train_tasks")
        needs_file = (
            self.task == "knowrl"
            and not self.pipeline.demo_data
            or self.task == "math"
            and self.math is not None
            and self.math.source == "file"
        )
        if needs_file and not self.data.train:
            raise ValueError(f"task '{self.task}' needs data.train")
        grpo = self.grpo
        if grpo.get("sync_ref_model"):
            if not grpo.get("beta"):
                raise ValueError("grpo.sync_ref_model needs grpo.beta > 0 (no reference model is used at beta 0)")
            if self.lora.enabled:
                raise ValueError(
                    "grpo.sync_ref_model is not supported by TRL with a LoRA (PEFT) policy; "
                    "set lora.enabled: false or sync_ref_model: false"
                )
        return self

    @model_validator(mode="after")
    def _shared_settings(self) -> "TrainConfig":
        """Settings that two libraries read: one value, or values that agree."""
        # Unsloth's in-process vLLM takes its share at model load (model.gpu_memory_utilization), TRL's own vLLM
        # from grpo.vllm_gpu_memory_utilization; KnowRL's main.py handed the latter to Unsloth, so it sets both.
        share = self.grpo.get("vllm_gpu_memory_utilization")
        if share is not None:
            if "gpu_memory_utilization" not in self.model.model_fields_set:
                self.model.gpu_memory_utilization = share
            elif self.model.gpu_memory_utilization != share:
                raise ValueError(
                    f"model.gpu_memory_utilization {self.model.gpu_memory_utilization} and "
                    f"grpo.vllm_gpu_memory_utilization {share} differ (the backends read one each); set one of them"
                )
        # Unsloth (and its vLLM) hold at most model.max_seq_length tokens: a cut prompt plus a full completion
        # must fit (KnowRL: 256 + 1024, the max_seq_length its main.py gave Unsloth).
        if self.data.max_prompt_length is not None:
            from trl import GRPOConfig

            default = next(f.default for f in dataclasses.fields(GRPOConfig) if f.name == "max_completion_length")
            completion = self.grpo.get("max_completion_length", default)
            if self.data.max_prompt_length + completion > self.model.max_seq_length:
                raise ValueError(
                    f"data.max_prompt_length {self.data.max_prompt_length} + grpo.max_completion_length "
                    f"{completion} exceeds model.max_seq_length {self.model.max_seq_length}"
                )
        max_length = self.sft.get("max_length")
        if isinstance(max_length, int) and max_length > self.model.max_seq_length:
            raise ValueError(
                f"sft.max_length {max_length} exceeds model.max_seq_length {self.model.max_seq_length} "
                "(Unsloth's limit); raise model.max_seq_length too"
            )
        return self

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
        try:
            node[parts[-1]] = yaml_value(raw)
        except yaml.YAMLError as exc:
            raise ConfigError(f"--set {key}: {raw[:80]!r} is not a YAML value ({str(exc).splitlines()[0]})") from None
        except RecursionError:
            raise ConfigError(f"--set {key}: the value is nested too deeply") from None
    return data


def _resolve(path: str | None, base: Path, key: str, hub_id: bool = False) -> str | None:
    """A path relative to the config file's folder, ``~`` and environment variables expanded (an unset one is a
    ``ConfigError`` naming ``key``); with ``hub_id``, a name that is not a local folder (``gpt2``, ``org/name``)
    stays as given for the hub loader."""
    from knowrl.tiny import SHAPES  # the tiny test models, built locally
    from knowrl_io.gguf_models import PART_MODELS  # bundled GGUFs a policy can be converted from

    if path is None or path in (*SHAPES, "smollm2", "demo", *PART_MODELS) or "://" in path:
        return path
    try:
        candidate = Path(expand_path(path))
    except ValueError as exc:
        raise ConfigError(f"{key}: {exc}") from None
    if candidate.is_absolute():
        return str(candidate)
    local = (base / candidate).resolve()
    if local.exists() or path.startswith(".") or not hub_id:
        return str(local)
    return path


def load_train_config(path: str | Path, overrides: list[str] | None = None) -> TrainConfig:
    path = Path(path)
    data = apply_overrides(load_yaml(path), overrides or [])
    reward = data.pop("reward", None)
    model = data.get("model")
    import_unsloth_first(model.get("backend", "auto") if isinstance(model, dict) else None)
    try:
        from trl import GRPOConfig, SFTConfig

        check_trl_values(data.get("grpo"), GRPOConfig, "grpo")  # before the validators that add these numbers
        check_trl_values(data.get("sft"), SFTConfig, "sft")
        for section in ("grpo", "sft"):
            if isinstance(data.get(section), dict) and data[section].get("top_k") == -1:
                data[section]["top_k"] = 0  # vLLM's "no filter"; transformers' top-k refuses -1 (landing review)
    except ValueError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    try:
        config = TrainConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, str(path), TrainConfig)) from None
    except ValueError as exc:
        raise ConfigError(f"invalid config {path}: {exc}") from None
    base = path.parent.resolve()
    if reward is not None:
        if config.task != "knowrl":
            raise ConfigError(
                f"invalid config {path}: the 'reward' section is the reward engine's (task: knowrl); "
                f"task: {config.task} is rewarded by its '{config.task}.reward' section"
            )
        if not isinstance(reward, dict):
            raise ConfigError(f"invalid config {path}: 'reward' must be a mapping")
        config.reward = parse_reward_config(reward, f"{path} (reward)", base)
    config.model.name_or_path = _resolve(config.model.name_or_path, base, "model.name_or_path", hub_id=True)  # type: ignore[assignment]
    config.model.adapter = _resolve(config.model.adapter, base, "model.adapter", hub_id=True)
    config.data.train = _resolve(config.data.train, base, "data.train")  # type: ignore[assignment]
    config.data.eval = _resolve(config.data.eval, base, "data.eval")
    config.data.sft = _resolve(config.data.sft, base, "data.sft")
    config.kb.build_from = _resolve(config.kb.build_from, base, "kb.build_from")
    config.pipeline.report = _resolve(config.pipeline.report, base, "pipeline.report")
    config.pipeline.demo_boundary_file = _resolve(
        config.pipeline.demo_boundary_file, base, "pipeline.demo_boundary_file"
    )
    if not config.output_dir.strip():  # "" resolved to the config's own folder: a run trained into configs/
        raise ConfigError(f"{path}: output_dir is empty: name the folder the run writes to (e.g. runs/my-run)")
    try:  # "~/runs/a" and "$SCRATCH/runs/a" as a shell reads them, not folders named "~" (hostile pass 65)
        config.output_dir = expand_path(config.output_dir)
    except ValueError as exc:
        raise ConfigError(f"{path}: output_dir: {exc}") from None
    config.output_dir = (
        str((base / config.output_dir).resolve()) if not Path(config.output_dir).is_absolute() else config.output_dir
    )
    taken = next((p for p in (Path(config.output_dir), *Path(config.output_dir).parents) if p.exists()), None)
    if taken is not None and not taken.is_dir():  # found at the first save otherwise: a traceback after setup
        raise ConfigError(f"{path}: output_dir: {taken} exists and is not a folder")
    problem = reward_log_problem(config.logging.reward_log) or report_to_problem(config.logging.report_to)
    if problem:  # the log over the run's own data, a tracker missing after the model loaded (hostile pass 59)
        raise ConfigError(f"{path}: {problem}")
    return config


__all__ = ["ConfigError", "TrainConfig", "apply_overrides", "load_train_config"]
