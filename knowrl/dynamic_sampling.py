"""Dynamic sampling: a GRPO group whose completions all get the same reward teaches nothing, so replace it.

GRPO's advantage is a completion's reward minus its group's mean: a group without reward spread (four
"I don't know", four right answers) has advantage 0 everywhere and only dilutes the step. verl's DAPO
(``algorithm.filter_groups``) and OpenRLHF's dynamic filtering resample until the batch holds groups with
spread; TRL 1.16 has no such option. ``DynamicSampling`` wraps TRL's ``_generate_and_score_completions``:
after the step's draw, each flat group's slot is refilled from up to ``max_rounds`` fresh draws of other
training prompts (chosen with the run's seed); a slot that stays flat keeps its group (advantage 0, as
before). Advantages are normalised per group (``scale_rewards: group`` or ``none``), so groups from
different draws can share a batch; ``scale_rewards: batch`` and ``normalize_then_sum`` normalise over the
batch and are refused.

Every step's counts (groups, flat in the first draw, flat after resampling, draws) go to the trainer's
metrics (``dynamic_sampling/*``) and to ``stats`` (what the effect study reports as steps with spread).
One process only: a resampling round is a collective call in TRL (rewards are gathered across ranks).
"""

from __future__ import annotations

import random
from typing import Any


def flat_groups(advantages: Any, group: int) -> Any:
    """Per group of ``group`` consecutive completions: True when every advantage is 0 (no reward spread)."""
    import torch

    return torch.isclose(advantages.view(-1, group), torch.zeros(1, device=advantages.device)).all(dim=1)


def _pad_to(t: Any, width: int, value: float, left: bool) -> Any:
    import torch.nn.functional as F

    extra = width - t.shape[1]
    if extra <= 0:
        return t
    return F.pad(t, (extra, 0) if left else (0, extra), value=value)


def splice(
    batch: dict[str, Any], fresh: dict[str, Any], slots: list[int], picks: list[int], group: int, pad_id: int = 0
) -> None:
    """Put ``fresh``'s groups ``picks`` into ``batch``'s group slots ``slots`` (in place), padding the
    [rows, tokens] tensors of both to one width: prompts on the left, completions on the right. Unsloth's
    ``max_left_pad`` (one value for the batch, found on an H200: its loss slices by it) is counted again."""
    import torch

    fills = {"prompt_ids": pad_id, "completion_ids": pad_id}
    for key, value in list(batch.items()):
        if not torch.is_tensor(value) or value.dim() == 0 or key == "num_items_in_batch":
            continue
        other = fresh[key]
        if value.dim() == 2:
            width = max(value.shape[1], other.shape[1])
            left = key.startswith("prompt")
            fill = fills.get(key, 0)
            value, other = _pad_to(value, width, fill, left), _pad_to(other, width, fill, left)
        value = value.clone()
        for slot, pick in zip(slots, picks):
            value[slot * group : (slot + 1) * group] = other[pick * group : (pick + 1) * group]
        batch[key] = value
    if "max_left_pad" in batch:  # Unsloth's: the batch's most left padding, copied to every row
        pads = (batch["prompt_mask"] == 0).sum(dim=1).max()
        batch["max_left_pad"] = torch.full_like(batch["max_left_pad"], int(pads))


TEXT_KEYS = {
    "prompt_ids",
    "prompt_mask",
    "completion_ids",
    "completion_mask",
    "advantages",
    "num_items_in_batch",
    "old_per_token_logps",
    "sampling_per_token_logps",
    "ref_per_token_logps",
    "importance_sampling_ratio",
    "max_left_pad",  # Unsloth's GRPO trainer (recomputed after a splice: prompts are padded anew)
}


class DynamicSampling:
    """Mixed into TRL's ``GRPOTrainer`` (``trainer_class``): set ``max_rounds`` and ``seed`` before training."""

    max_rounds: int = 0
    seed: int = 0
    stats: list[dict[str, int]]

    def _generate_and_score_completions(self, inputs: list[dict[str, Any]]) -> dict[str, Any]:
        batch = super()._generate_and_score_completions(inputs)  # type: ignore[misc]
        if not self.model.training or self.max_rounds <= 0:  # type: ignore[attr-defined]
            return batch
        unknown = set(batch) - TEXT_KEYS
        if unknown:
            raise ValueError(f"dynamic sampling handles text batches only; got {sorted(unknown)}")
        group = self.num_generations  # type: ignore[attr-defined]
        flat = flat_groups(batch["advantages"], group).tolist()
        first = sum(flat)
        if not hasattr(self, "_ds_rng"):
            self._ds_rng = random.Random(self.seed)
        if not hasattr(self, "stats"):
            self.stats = []
        pad = getattr(getattr(self, "processing_class", None), "pad_token_id", None) or 0
        draws = 0
        data = self.train_dataset  # type: ignore[attr-defined]
        while any(flat) and draws < self.max_rounds:
            slots = [i for i, f in enumerate(flat) if f]
            rows = [data[i] for i in self._ds_rng.sample(range(len(data)), min(len(slots), len(data)))]
            fresh = super()._generate_and_score_completions([r for r in rows for _ in range(group)])  # type: ignore
            draws += 1
            spread = [i for i, f in enumerate(flat_groups(fresh["advantages"], group).tolist()) if not f]
            slots = slots[: len(spread)]
            splice(batch, fresh, slots, spread, group, pad)
            for slot in slots:
                flat[slot] = False
        if draws:
            import torch

            mask = batch["completion_mask"]
            batch["num_items_in_batch"] = torch.as_tensor(mask.sum(), device=mask.device)
        row = {"groups": len(flat), "flat_first": first, "flat_after": sum(flat), "draws": draws}
        self.stats.append(row)
        for key, value in row.items():
            self._metrics["train"][f"dynamic_sampling/{key}"].append(float(value))  # type: ignore[attr-defined]
        return batch


def trainer_class(base: type) -> type:
    """``base`` (TRL's GRPOTrainer, or Unsloth's patched one) with dynamic sampling mixed in."""
    return type(f"DynamicSampling{base.__name__}", (DynamicSampling, base), {})


def check(grpo: dict[str, Any], world_size: int) -> None:
    """Refuse settings under which groups from different draws cannot share a batch."""
    from knowrl.config import ConfigError

    if world_size > 1:
        raise ConfigError("dynamic_sampling runs in one process only (a resampling round is a collective call)")
    if grpo.get("scale_rewards") == "batch" or grpo.get("multi_objective_aggregation") == "normalize_then_sum":
        raise ConfigError(
            "dynamic_sampling needs advantages normalised per group (scale_rewards: group or none, "
            "multi_objective_aggregation: sum_then_normalize)"
        )
