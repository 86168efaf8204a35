"""Stop a run the moment its trainable weights stop being finite.

One NaN gradient turns every LoRA weight into NaN at the optimizer step; the trainer carries on, logs
loss 0, saves the adapter and the run "finishes". Seen on an H100 in all 10 cold-start SFT runs of
Qwen2.5-Coder-1.5B tried (5 seeds x 2 learning rates), each at a finite loss and, for a given seed, at the
same step whatever the learning rate (docs/dev/gpu-runbook.md). The likely cause, cuDNN's attention backward,
is now kept out of training (``knowrl.accelerator.training_attention``; reported from one H100 lease,
2026-11-27, in a hand-added section of docs/history/results/gpu.md whose output is not committed). The
damage showed up far away: a merged policy of NaN weights, then a CUDA device-side assert in the first
sampled evaluation. Stopping at the step, before anything is saved, names the cause where it happened.
"""

from __future__ import annotations

from typing import Any, Iterable

from transformers import TrainerCallback


class TrainingDiverged(RuntimeError):
    pass


def nonfinite(named: Iterable[tuple[str, Any]]) -> list[str]:
    """Names of the tensors with a NaN or infinite entry."""
    import torch

    return [name for name, t in named if t.is_floating_point() and not bool(torch.isfinite(t.detach()).all())]


def _total_is_finite(params: list[Any]) -> bool:
    """One reduction and one device sync per step, whatever the number of tensors (NaN and inf survive a sum
    of absolute values)."""
    import torch

    if not params:
        return True
    return bool(torch.isfinite(torch.stack([p.detach().float().abs().sum() for p in params]).sum()))


class StopOnNonFinite(TrainerCallback):
    """Raises ``TrainingDiverged`` at the end of the first step after which a trainable weight is NaN or
    infinite; ``section`` (``sft`` / ``grpo``) names the config section to change."""

    def __init__(self, section: str) -> None:
        self.section = section

    def on_step_end(self, args: Any, state: Any, control: Any, model: Any = None, **kwargs: Any) -> None:
        if model is None:
            return
        trainable = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
        if _total_is_finite([p for _, p in trainable]):
            return
        bad = nonfinite(trainable)
        logged = [e["grad_norm"] for e in state.log_history if "grad_norm" in e]
        raise TrainingDiverged(
            f"{self.section} step {state.global_step}: {len(bad)} of {len(trainable)} trainable tensors are no "
            f"longer finite (first: {bad[0] if bad else '?'}; grad norms logged before: {logged[-3:]}); stopped "
            f"before saving anything. Lower {self.section}.learning_rate; on a GPU try model.attn_implementation: "
            f"eager, or {self.section}.bf16: false."
        )
