"""Stop GRPO at a wall-clock budget instead of losing the run to a lease that ends.

A rented GPU (or a CI job) gives minutes, not steps; steps per minute are unknown until the run starts. The
run stops at the end of the first step that ends past the budget, so the adapter saved is a whole step's and
the summary says how many steps fitted.
"""

from __future__ import annotations

import time
from typing import Any

from transformers import TrainerCallback


class StopAfterMinutes(TrainerCallback):
    """Sets ``should_training_stop`` once ``minutes`` have passed since training began."""

    def __init__(self, minutes: float) -> None:
        self.minutes = minutes
        self.started: float | None = None
        self.stopped_at: int | None = None

    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self.started = time.monotonic()

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        late = self.started is not None and time.monotonic() - self.started >= 60 * self.minutes
        if _agreed(late, getattr(args, "device", None)):
            control.should_training_stop = True
            control.should_save = True
            self.stopped_at = state.global_step


def _agreed(late: bool, device: Any) -> bool:
    """Rank 0's clock decides for every rank: ranks stopping at different steps would leave the others waiting
    in a collective for ever. One process: its own clock."""
    import torch.distributed as dist

    if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() == 1:
        return late
    import torch

    flag = torch.tensor([int(late)], device=device if device is not None else "cpu")
    dist.broadcast(flag, src=0)
    return bool(flag.item())
