"""KnowRL's published settings, key by key: configs/knowrl_grpo.yaml and configs/knowrl_sft.yaml hold them,
and the code path the trainers use carries them into TRL's GRPOConfig / SFTConfig (no model, no GPU).

The published values are written out here (CI has no checkout of KnowRL), each dict citing its file.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from knowrl.config import ConfigError, TrainConfig, load_train_config

CONFIGS = Path(__file__).resolve().parents[1] / "configs"

# github.com/zjunlp/KnowRL, commit f75b0bb, train/script/grpo.yaml: every key of the file, its value, and
# where our config holds it.
KNOWRL_GRPO = {
    "lora_r": (128, "lora.r"),
    "lora_alpha": (256, "lora.alpha"),
    "torch_dtype": ("bfloat16", "model.dtype"),
    "attn_implementation": ("flash_attention_2", "model.attn_implementation"),
    "bf16": (True, "grpo.bf16"),
    "tf32": (True, "grpo.tf32"),
    "max_steps": (150, "grpo.max_steps"),
    "per_device_train_batch_size": (20, "grpo.per_device_train_batch_size"),
    "gradient_accumulation_steps": (4, "grpo.gradient_accumulation_steps"),
    "gradient_checkpointing": (True, "grpo.gradient_checkpointing"),
    "gradient_checkpointing_kwargs": ({"use_reentrant": False}, "grpo.gradient_checkpointing_kwargs"),
    "learning_rate": (1.0e-5, "grpo.learning_rate"),
    "lr_scheduler_type": ("cosine", "grpo.lr_scheduler_type"),
    "warmup_ratio": (0.03, "grpo.warmup_steps"),  # transformers 5: a float < 1 is a ratio
    "seed": (42, "seed"),
    "beta": (0.001, "grpo.beta"),
    "optim": ("adamw_8bit", "grpo.optim"),
    "max_prompt_length": (256, "data.max_prompt_length"),  # TRL 0.28 dropped it from GRPOConfig
    "max_completion_length": (1024, "grpo.max_completion_length"),
    "num_generations": (10, "grpo.num_generations"),
    "use_vllm": (True, "grpo.use_vllm"),
    "vllm_gpu_memory_utilization": (0.5, "grpo.vllm_gpu_memory_utilization"),
    "logging_strategy": ("steps", "grpo.logging_strategy"),
    "logging_steps": (1, "grpo.logging_steps"),
    "save_strategy": ("steps", "grpo.save_strategy"),
    "save_steps": (50, "grpo.save_steps"),
}
# The same file's keys that are not training settings, and why they are not carried.
KNOWRL_GRPO_NOT_CARRIED = {
    "model_name_or_path": "a placeholder for their SFT output: ours is the hub id or the cold-start merge",
    "model_revision": "main, the hub's default revision",
    "output_dir": "a placeholder: ours is ../runs/knowrl_grpo",
    "dataset_id_or_path": "../data/rl/knowrl_RLdata.json: ours is data.train, the same file in ../shared",
    "report_to": "swanlab, an account: logging.report_to takes it",
    "swanlab_project": "a placeholder",
    "swanlab_experiment_name:": "a placeholder (the key ends in ':' in their file, a typo)",
    "resume_from_checkpoint": "false: our --resume flag, off unless given",
}
# github.com/zjunlp/KnowRL, commit f75b0bb, train/main.py: what its Unsloth calls set from that file.
KNOWRL_GRPO_MAIN = {
    "target_modules": (
        ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
        "lora.target_modules",
    ),
    "max_seq_length": (256 + 1024, "model.max_seq_length"),  # max_prompt_length + max_completion_length
    "gpu_memory_utilization": (0.5, "model.gpu_memory_utilization"),  # vllm_gpu_memory_utilization, to Unsloth
    "lora_dropout": (0.0, "lora.dropout"),  # not passed: Unsloth get_peft_model's default
}

# github.com/zjunlp/KnowRL, README.md at commit 538a4de (the last with the cold-start section; b14933a removed
# it): the LLaMA-Factory yaml "llama_factory_sft.yaml", every key, its value, and where our config holds it.
KNOWRL_SFT = {
    "finetuning_type": ("lora", "lora.enabled"),
    "lora_target": ("q_proj,v_proj", "lora.target_modules"),
    "lora_rank": (256, "lora.r"),
    "lora_alpha": (512, "lora.alpha"),
    "cutoff_len": (3072, "sft.max_length"),
    "logging_steps": (10, "sft.logging_steps"),
    "save_steps": (500, "sft.save_steps"),
    "save_strategy": ("no", "sft.save_strategy"),
    "per_device_train_batch_size": (2, "sft.per_device_train_batch_size"),
    "gradient_accumulation_steps": (1, "sft.gradient_accumulation_steps"),
    "learning_rate": (1.0e-4, "sft.learning_rate"),
    "num_train_epochs": (4.0, "sft.num_train_epochs"),
    "lr_scheduler_type": ("cosine", "sft.lr_scheduler_type"),
    "warmup_ratio": (0.1, "sft.warmup_steps"),  # transformers 5: a float < 1 is a ratio
    "fp16": (True, "sft.fp16"),
    "ddp_timeout": (180000000, "sft.ddp_timeout"),
}
KNOWRL_SFT_NOT_CARRIED = {
    "model_name_or_path": "a placeholder for the base model: ours is DeepSeek-R1-Distill-Qwen-7B's hub id",
    "deepspeed": "a placeholder ZeRO-3 json for their 4 GPUs: one GPU holds the 7B LoRA run",
    "stage": "sft: knowrl.sft is that stage",
    "do_train": "true: knowrl.sft trains",
    "dataset": "a placeholder name: ours is data.train, KnowRL's cold-start file in ../shared",
    "template": "qwen (LLaMA-Factory's ChatML): knowrl.sft renders with the model's own chat template",
    "overwrite_cache": "LLaMA-Factory's dataset cache",
    "preprocessing_num_workers": "16 tokenising processes: speed only",
    "output_dir": "a placeholder: ours is ../runs/knowrl_sft",
    "plot_loss": "LLaMA-Factory's loss plot",
    "overwrite_output_dir": "LLaMA-Factory's; knowrl.sft writes into output_dir",
}
# What the same yaml leaves to its tools' defaults, carried here too.
KNOWRL_SFT_IMPLIED = {
    "lora_dropout": (0.0, "lora.dropout"),  # LLaMA-Factory's default
    "bf16": (False, "sft.bf16"),  # fp16 instead
    "dtype": ("float16", "model.dtype"),  # LLaMA-Factory loads the weights in the fp16 compute dtype
    "max_seq_length": (3072, "model.max_seq_length"),  # cutoff_len, Unsloth's limit
}


@pytest.fixture
def judge_env(monkeypatch):
    monkeypatch.setenv("KNOWRL_JUDGE_BASE_URL", "http://127.0.0.1:8011/v1")
    monkeypatch.setenv("KNOWRL_JUDGE_MODEL", "gpt-4o-mini")
    monkeypatch.setenv("KNOWRL_JUDGE_API_KEY", "sk-PLANTED-in-the-environment-only")


@pytest.fixture
def gpu_packages(monkeypatch):
    """vLLM and bitsandbytes 'installed': the GPU config's arguments build here (nothing is loaded)."""
    import knowrl.grpo
    import knowrl.trl_args

    monkeypatch.setattr(knowrl.grpo, "is_available", lambda module: True)
    monkeypatch.setattr(knowrl.trl_args, "is_available", lambda module: True)


def ours(config: TrainConfig, path: str) -> Any:
    section, _, key = path.partition(".")
    if not key:
        return getattr(config, section)
    node = getattr(config, section)
    return node[key] if isinstance(node, dict) else getattr(node, key)


def published(value: Any, path: str) -> Any:
    """KnowRL's value in our terms (LLaMA-Factory's comma list, finetuning_type)."""
    if path == "lora.target_modules" and isinstance(value, str):
        return value.split(",")
    if path == "lora.enabled":
        return value == "lora"
    return value


@pytest.mark.parametrize(
    ("name", "settings"),
    [
        ("knowrl_grpo.yaml", {**KNOWRL_GRPO, **KNOWRL_GRPO_MAIN}),
        ("knowrl_sft.yaml", {**KNOWRL_SFT, **KNOWRL_SFT_IMPLIED}),
    ],
)
def test_the_config_holds_every_published_value(judge_env, name, settings):
    config = load_train_config(CONFIGS / name)
    wrong = {
        key: (value, path, ours(config, path))
        for key, (value, path) in settings.items()
        if ours(config, path) != published(value, path)
        or type(ours(config, path)) is not type(published(value, path))
        and not isinstance(value, float)
    }
    assert not wrong, f"{name}: KnowRL's value, our key, our value: {wrong}"


def test_every_published_key_is_carried_or_said_why_not():
    assert not set(KNOWRL_GRPO) & set(KNOWRL_GRPO_NOT_CARRIED)
    assert len(KNOWRL_GRPO) + len(KNOWRL_GRPO_NOT_CARRIED) == 34  # the keys of their grpo.yaml
    assert not set(KNOWRL_SFT) & set(KNOWRL_SFT_NOT_CARRIED)
    assert len(KNOWRL_SFT) + len(KNOWRL_SFT_NOT_CARRIED) == 27  # the keys of their llama_factory_sft.yaml


def test_the_grpo_arguments_carry_the_published_values(judge_env, gpu_packages):
    from knowrl.accelerator import cuda_available
    from knowrl.grpo import grpo_args

    config = load_train_config(CONFIGS / "knowrl_grpo.yaml")
    args = grpo_args(config)  # what knowrl.grpo.train hands GRPOTrainer
    for key, (value, path) in KNOWRL_GRPO.items():
        if path.startswith("grpo.") and key not in ("warmup_ratio", "tf32"):
            assert getattr(args, key) == value, key
    assert args.seed == 42
    # warmup_ratio 0.03 of 150 steps: transformers 4.57 (KnowRL's) took ceil(150 * 0.03) steps; 5.x the same.
    assert args.get_warmup_steps(150) == math.ceil(150 * 0.03) == 5
    assert args.tf32 is (True if cuda_available() else None)  # dropped without CUDA (transformers refuses it)
    # One optimizer step: 20 x 4 completions = 8 prompts x 10 generations, generated in one round.
    assert (args.generation_batch_size, args.steps_per_generation) == (80, 4)
    # KnowRL's TRL 0.23 summed the raw rewards, then normalised each group by its mean and std.
    assert (args.multi_objective_aggregation, args.scale_rewards) == ("sum_then_normalize", "group")


def test_the_sft_arguments_carry_the_published_values(gpu_packages):
    from knowrl.sft import sft_args

    config = load_train_config(CONFIGS / "knowrl_sft.yaml")
    args = sft_args(config)  # what knowrl.sft.sft hands SFTTrainer
    for key, (value, path) in {**KNOWRL_SFT, "bf16": KNOWRL_SFT_IMPLIED["bf16"]}.items():
        if path.startswith("sft."):
            assert getattr(args, path.removeprefix("sft.")) == value, key
    assert args.get_warmup_steps(900) == math.ceil(900 * 0.1)
    assert args.seed == 42


def test_knowrl_grpo_config_holds_the_reward_and_data(judge_env):
    config = load_train_config(CONFIGS / "knowrl_grpo.yaml")
    assert config.model.name_or_path == "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B"  # a hub id, left as given
    g = config.grpo
    assert g["per_device_train_batch_size"] % g["num_generations"] == 0  # TRL's group constraint
    reward = config.reward
    assert reward is not None and reward.preset == "knowrl" and reward.grader == "llm"
    assert reward.judge.endpoints[0].model == "gpt-4o-mini" and "PLANTED" not in config.model_dump_json()
    # KnowRL's factuality (train/reward_function/fact_reward.py, factscorer.py, retrieval.py at f75b0bb)
    fc = reward.factuality
    assert (reward.decomposer, reward.verifier) == ("llm", "nli")
    assert (fc.nli.model, fc.nli.entailment_threshold, fc.nli.max_length) == (
        "MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli",
        0.3,
        512,
    )
    assert (fc.evidence_k, fc.retrieval_query, fc.mode) == (5, "topic+claim", "staged")
    sem = reward.reward_semantics
    assert (sem.relevance, sem.max_claims, sem.min_claim_words, sem.fact_on_no_answer, sem.gamma) == (
        "off",
        None,
        3,
        True,
        10.0,
    )
    assert config.data.train.endswith("shared/data/knowrl/knowrl_RLdata.json")


def _data_or_skip(path: str) -> str:
    """The data file a config names, or a skip naming it: ../shared sits beside the checkout in CI, a bare
    clone may not have it, and then the test says so instead of passing having read nothing."""
    if not Path(path).is_file():
        pytest.skip(f"KnowRL's data is not beside this checkout: {Path(path).resolve()} is missing")
    return path


def test_knowrl_grpo_config_reads_the_rl_data(judge_env):
    from knowrl.data import load_rl_rows

    config = load_train_config(CONFIGS / "knowrl_grpo.yaml")
    rows, report = load_rl_rows(_data_or_skip(config.data.train))
    assert len(rows) == 3177 and not report.bad


def test_knowrl_grpo_config_needs_the_judge_from_the_environment(monkeypatch):
    monkeypatch.delenv("KNOWRL_JUDGE_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="KNOWRL_JUDGE_BASE_URL"):
        load_train_config(CONFIGS / "knowrl_grpo.yaml")


def test_knowrl_sft_config_reads_the_cold_start_data():
    from knowrl.data import load_sharegpt

    config = load_train_config(CONFIGS / "knowrl_sft.yaml")
    assert config.data.train.endswith("shared/data/knowrl/knowrl_coldstart.json")
    conversations, report = load_sharegpt(_data_or_skip(config.data.train))
    assert len(conversations) == 1798 and not report.bad


def test_the_gpu_config_without_its_gpu_packages_stops_before_training(judge_env, monkeypatch):
    """On a machine without bitsandbytes, adamw_8bit is a config error naming the way out, not a late ImportError."""
    import knowrl.grpo
    import knowrl.trl_args
    from knowrl.grpo import grpo_args

    monkeypatch.setattr(knowrl.grpo, "is_available", lambda module: True)
    monkeypatch.setattr(knowrl.trl_args, "is_available", lambda module: module != "bitsandbytes")
    config = load_train_config(CONFIGS / "knowrl_grpo.yaml")
    with pytest.raises(ConfigError, match="grpo.optim=adamw_torch"):
        grpo_args(config)
    assert grpo_args(load_train_config(CONFIGS / "knowrl_grpo.yaml", ["grpo.optim=adamw_torch"])).optim == "adamw_torch"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["grpo.max_prompt_length=256"], "use data.max_prompt_length"),
        (["grpo.warmup_ratio=0.03"], "use warmup_steps"),
        (["data.max_prompt_length=512"], r"512 \+ grpo.max_completion_length 1024 exceeds model.max_seq_length 1280"),
        (["model.gpu_memory_utilization=0.6"], "grpo.vllm_gpu_memory_utilization 0.5 differ"),
        (["model.attn_implementation=flash"], "attn_implementation"),
    ],
)
def test_published_keys_in_older_spellings_or_out_of_step_are_config_errors(judge_env, overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_train_config(CONFIGS / "knowrl_grpo.yaml", overrides)


def test_sft_max_length_must_fit_the_model():
    with pytest.raises(ConfigError, match="sft.max_length 4096 exceeds model.max_seq_length 3072"):
        load_train_config(CONFIGS / "knowrl_sft.yaml", ["sft.max_length=4096"])


def test_long_prompts_are_cut_from_the_left_as_trl_0_23_did(judge_env, tmp_path):
    """data.max_prompt_length reaches the dataset GRPOTrainer gets: a long prompt keeps its last tokens
    (the start of the chat template goes first), a short one is left byte-for-byte."""
    from transformers import AutoTokenizer

    from knowrl import task_registry
    from knowrl.models import resolve_model_path

    rows = [
        {"question": "Where is Paris?", "answers": "France", "title": "Paris"},
        {"question": "Tokyo is the capital of Japan. " * 12 + "Which city?", "answers": "Tokyo", "title": "Tokyo"},
    ]
    data = tmp_path / "rows.json"
    data.write_text(json.dumps(rows))
    tokenizer = AutoTokenizer.from_pretrained(resolve_model_path("tiny"))
    full = task_registry.setup(load_train_config(CONFIGS / "knowrl_grpo.yaml", [f"data.train={data}"]), tokenizer)
    lengths = [len(tokenizer(p, add_special_tokens=False)["input_ids"]) for p in full.dataset["prompt"]]
    limit = (lengths[0] + lengths[1]) // 2  # between the short prompt and the long one
    config = load_train_config(CONFIGS / "knowrl_grpo.yaml", [f"data.train={data}", f"data.max_prompt_length={limit}"])
    cut = task_registry.setup(config, tokenizer).dataset
    assert cut["prompt"][0] == full.dataset["prompt"][0]
    long_ids = tokenizer(full.dataset["prompt"][1], add_special_tokens=False)["input_ids"]
    assert cut["prompt"][1] == tokenizer.decode(long_ids[-limit:], skip_special_tokens=False)
    assert cut["prompt"][1].endswith(full.dataset["prompt"][1][-20:])
    assert cut["question"] == [r["question"] for r in rows]  # the reward columns are untouched
