"""Dynamic sampling: groups without reward spread are refilled from fresh draws (real TRL steps, tiny model)."""

from __future__ import annotations

import pytest
import torch

from knowrl.config import ConfigError
from knowrl.dynamic_sampling import check, flat_groups, splice, trainer_class


def test_flat_groups_are_groups_without_any_advantage():
    adv = torch.tensor([0.0, 0.0, 0.0, 0.0, 1.0, -1.0, 0.0, 0.0])
    assert flat_groups(adv, 4).tolist() == [True, False]


def test_splice_puts_fresh_groups_in_the_flat_slots_and_pads_each_side():
    batch = {
        "prompt_ids": torch.tensor([[1, 2], [1, 2], [3, 4], [3, 4]]),
        "prompt_mask": torch.ones(4, 2, dtype=torch.long),
        "completion_ids": torch.tensor([[5], [5], [6], [7]]),
        "completion_mask": torch.ones(4, 1, dtype=torch.long),
        "advantages": torch.tensor([0.0, 0.0, 1.0, -1.0]),
        "num_items_in_batch": torch.tensor(4),
    }
    fresh = {
        "prompt_ids": torch.tensor([[8, 8, 8], [8, 8, 8], [9, 9, 9], [9, 9, 9]]),
        "prompt_mask": torch.ones(4, 3, dtype=torch.long),
        "completion_ids": torch.tensor([[1, 1], [1, 1], [2, 2], [2, 3]]),
        "completion_mask": torch.ones(4, 2, dtype=torch.long),
        "advantages": torch.tensor([0.0, 0.0, 0.5, -0.5]),
        "num_items_in_batch": torch.tensor(8),
    }
    splice(batch, fresh, slots=[0], picks=[1], group=2, pad_id=0)
    # slot 0 now holds fresh group 1; the kept group is padded: prompts on the left, completions on the right
    assert batch["prompt_ids"].tolist() == [[9, 9, 9], [9, 9, 9], [0, 3, 4], [0, 3, 4]]
    assert batch["prompt_mask"].tolist() == [[1, 1, 1], [1, 1, 1], [0, 1, 1], [0, 1, 1]]
    assert batch["completion_ids"].tolist() == [[2, 2], [2, 3], [6, 0], [7, 0]]
    assert batch["completion_mask"].tolist() == [[1, 1], [1, 1], [1, 0], [1, 0]]
    assert batch["advantages"].tolist() == [0.5, -0.5, 1.0, -1.0]


def test_unsloths_max_left_pad_is_counted_again_after_a_splice():
    # Unsloth's GRPO trainer adds max_left_pad ([rows, 1], the batch's largest left padding); a spliced batch
    # pads its prompts anew, so the value must follow the new prompts, not either draw's.
    batch = {
        "prompt_ids": torch.tensor([[0, 1, 2], [0, 1, 2], [3, 4, 5], [3, 4, 5]]),
        "prompt_mask": torch.tensor([[0, 1, 1], [0, 1, 1], [1, 1, 1], [1, 1, 1]]),
        "completion_ids": torch.tensor([[5], [5], [6], [7]]),
        "completion_mask": torch.ones(4, 1, dtype=torch.long),
        "advantages": torch.tensor([0.0, 0.0, 1.0, -1.0]),
        "max_left_pad": torch.tensor([[1], [1], [1], [1]]),
    }
    fresh = {
        "prompt_ids": torch.tensor([[9, 9, 9, 9, 9]] * 4),
        "prompt_mask": torch.ones(4, 5, dtype=torch.long),
        "completion_ids": torch.tensor([[1], [1], [2], [3]]),
        "completion_mask": torch.ones(4, 1, dtype=torch.long),
        "advantages": torch.tensor([0.0, 0.0, 0.5, -0.5]),
        "max_left_pad": torch.tensor([[0], [0], [0], [0]]),
    }
    splice(batch, fresh, slots=[0], picks=[1], group=2, pad_id=0)
    assert batch["prompt_mask"].tolist()[2] == [0, 0, 1, 1, 1]  # the kept group: 2 pads now, not 0
    assert batch["max_left_pad"].tolist() == [[2], [2], [2], [2]]


def test_settings_that_normalise_over_the_batch_are_refused():
    check({"scale_rewards": "group"}, 1)
    with pytest.raises(ConfigError, match="per group"):
        check({"scale_rewards": "batch"}, 1)
    with pytest.raises(ConfigError, match="one process"):
        check({}, 2)


def _spread_reward(completions, kind, **_):
    """Rows of kind "flat" score 1.0 whatever is written; "spread" rows score the completion's length."""
    return [1.0 if k == "flat" else float(len(str(c))) for c, k in zip(completions, kind)]


def test_grpo_steps_refill_flat_groups_from_fresh_draws(tmp_path):
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from knowrl.tiny import build_tiny_model

    torch.manual_seed(0)
    path = build_tiny_model(tmp_path / "tiny")
    rows = [{"prompt": [{"role": "user", "content": f"q{i}"}], "kind": "flat"} for i in range(6)]
    rows += [{"prompt": [{"role": "user", "content": f"s{i}"}], "kind": "spread"} for i in range(6)]
    args = GRPOConfig(
        output_dir=str(tmp_path / "out"),
        max_steps=3,
        per_device_train_batch_size=8,  # 2 groups of 4
        num_generations=4,
        max_completion_length=8,
        learning_rate=1e-3,
        logging_steps=1,
        report_to="none",
        use_cpu=True,
        save_strategy="no",
        seed=0,
    )
    cls = trainer_class(GRPOTrainer)
    trainer = cls(
        model=AutoModelForCausalLM.from_pretrained(path),
        reward_funcs=[_spread_reward],
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=AutoTokenizer.from_pretrained(path),
        peft_config=LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"]),
    )
    trainer.max_rounds, trainer.seed, trainer.stats = 4, 0, []
    trainer.train()
    stats = trainer.stats
    assert len(stats) == 3 and all(s["groups"] == 2 for s in stats)
    # every flat group of the first draw was replaced: fresh draws hold "spread" rows half the time
    assert sum(s["flat_first"] for s in stats) > 0
    assert all(s["flat_after"] <= s["flat_first"] for s in stats)
    assert sum(s["flat_after"] for s in stats) < sum(s["flat_first"] for s in stats)
    assert all(s["draws"] == 0 for s in stats if s["flat_first"] == 0)
    logged = [h for h in trainer.state.log_history if "dynamic_sampling/flat_after" in h]
    assert len(logged) == 3
