"""Two real TRL GRPO steps (LoRA, CPU) with the engine's reward functions and the judge server."""

from __future__ import annotations

import asyncio
import json

import pytest

from judges.test_server import ServerConfig, serve_in_thread
from retrieval.build import build
from retrieval.kb import KnowledgeBase
from retrieval.sources import Document
from reward_engine.config import parse_reward_config
from reward_engine.trl_rewards import KnowRLRewards
from tests.helpers import CORPUS

QUESTION = "What is the capital of France?"
TAUGHT = [
    (QUESTION, "<think>Paris is the capital of France.</think><answer>Paris</answer>"),
    (QUESTION, "<think>The Eiffel Tower was completed in 1889.</think><answer>Lyon</answer>"),
    (QUESTION, "<think>I am not sure.</think><answer>I don't know</answer>"),
]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    from transformers import AutoTokenizer

    from knowrl.tiny import build_tiny_model, teach_tiny_model

    path = build_tiny_model(tmp_path_factory.mktemp("tiny"))
    tokenizer = AutoTokenizer.from_pretrained(path)
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": QUESTION}], tokenize=False, add_generation_prompt=True
    )
    return teach_tiny_model(path, [(prompt, completion) for _, completion in TAUGHT])


def test_two_grpo_steps_with_engine_rewards(tmp_path, tiny_model, embedder):
    import torch
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    torch.manual_seed(0)
    db = tmp_path / "kb.db"
    build(db, [Document(t, x) for t, x in CORPUS], progress=False, embedder=embedder)
    rows = [
        {"prompt": [{"role": "user", "content": QUESTION}], "question": QUESTION, "answers": "Paris", "title": "Paris"}
        for _ in range(4)
    ]
    dataset = Dataset.from_list(rows)
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    model = AutoModelForCausalLM.from_pretrained(tiny_model)
    args = GRPOConfig(
        output_dir=str(tmp_path / "out"),
        max_steps=2,
        per_device_train_batch_size=4,
        num_generations=4,
        max_completion_length=32,
        learning_rate=1e-3,
        temperature=1.0,
        logging_steps=1,
        report_to="none",
        use_cpu=True,
        save_strategy="no",
        bf16=False,
        seed=0,
        log_completions=False,
    )
    with serve_in_thread(ServerConfig(latency_ms=5)) as server, KnowledgeBase(db, embedder=embedder) as kb:
        config = parse_reward_config(
            {
                "grader": "llm",
                "decomposer": "llm",
                "verifier": "llm",
                "judge": {"endpoints": [{"base_url": server.url, "model": "test"}], "max_in_flight": 8},
                "factuality": {"kb_path": str(db)},
            }
        )
        rewards = KnowRLRewards(config, kb=kb)
        trainer = GRPOTrainer(
            model=model,
            reward_funcs=rewards.functions(),
            args=args,
            train_dataset=dataset,
            processing_class=tokenizer,
            peft_config=LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"]),
        )
        result = trainer.train()
        asyncio.run_coroutine_threadsafe(rewards.aclose(), trainer.async_loop).result(30)
        requests = server.stats.requests
    assert trainer.state.global_step == 2 and result.training_loss == result.training_loss  # not NaN
    logged = [h for h in trainer.state.log_history if "rewards/knowrl_format/mean" in h]
    assert len(logged) == 2
    # The taught model answers in format: the judge graded real answers in both steps.
    assert all(h["rewards/knowrl_format/mean"] > 0 for h in logged)
    assert all(h["reward_engine/coverage"] == 1.0 for h in logged)
    assert requests >= 2 and len(rewards.history) == 2
    labels = set().union(*(h["labels"] for h in rewards.history))
    assert labels & {"CORRECT", "INCORRECT", "NOT_ATTEMPTED"}
    json.dumps(trainer.state.log_history)  # everything logged is plain data
