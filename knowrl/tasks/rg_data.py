"""reasoning-gym tasks as training and evaluation data.

Training mixes tasks by weight with a fixed seed (reasoning-gym's composite dataset);
evaluation draws each task separately, from a different seed, and may name tasks never
trained on (generalisation). Each row keeps its task name and the whole generated entry
(as JSON: entries differ in shape between tasks) for the task's own ``score_answer``.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

RG_INSTRUCTIONS = (
    "{question}\n\nFirst reason step by step inside <think> </think>. Then give only the final answer inside "
    "<answer> </answer>."
)
EVAL_SEED_OFFSET = 1_000_003  # evaluation entries come from another seed than training's


def known_tasks() -> list[str]:
    from reasoning_gym.factory import DATASETS

    return sorted(DATASETS)


def check_tasks(names: list[str], where: str) -> None:
    """An unknown task name is an error naming it, with the closest registered one."""
    known = known_tasks()
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise ValueError(f"{where}: unknown reasoning-gym task '{name}'{hint}")


def _row(entry: dict[str, Any], task: str) -> dict[str, str]:
    return {"question": entry["question"], "rg_task": task, "rg_entry": json.dumps(entry, default=str)}


def train_rows(
    weights: dict[str, float], size: int, seed: int, task_configs: dict[str, dict[str, Any]] | None = None
) -> list[dict[str, str]]:
    """``size`` entries mixed by ``weights`` (deterministic for a seed)."""
    from reasoning_gym.composite import CompositeConfig, CompositeDataset, DatasetSpec

    specs = [DatasetSpec(name, float(w), dict((task_configs or {}).get(name, {}))) for name, w in weights.items()]
    dataset = CompositeDataset(CompositeConfig(size=size, seed=seed, datasets=specs))
    return [_row(e, e["metadata"]["source_dataset"]) for e in dataset]


def eval_rows(
    tasks: list[str], per_task: int, seed: int, task_configs: dict[str, dict[str, Any]] | None = None
) -> list[dict[str, str]]:
    """``per_task`` entries of each task, from a seed training never uses."""
    import reasoning_gym

    rows = []
    for name in tasks:
        config = dict((task_configs or {}).get(name, {}))
        for entry in reasoning_gym.create_dataset(name, size=per_task, seed=seed + EVAL_SEED_OFFSET, **config):
            rows.append(_row(entry, name))
    return rows
