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
        if self.started is not None and time.monotonic() - self.started >= 60 * self.minutes:
            control.should_training_stop = True
            control.should_save = True
            self.stopped_at = state.global_step
