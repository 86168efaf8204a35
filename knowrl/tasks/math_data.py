"""Maths training data: rows with a question and a gold answer, as a TRL dataset.

Accepted rows (JSON array, JSONL, or a local HF dataset file/folder):
``{"question", "ground_truth"}`` (the GRPO-math guide's format; a number is fine),
GSM8K's ``{"question", "answer": "… #### 72"}``, and MATH's ``{"problem", "solution"}``
(gold = the solution's last ``\\boxed{}``). Offline data: reasoning-gym's
``gsm_symbolic`` generator (:func:`gsm_symbolic_rows`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from knowrl.data import LoadReport, load_rows
from knowrl.tasks.boxed import gsm8k_answer, last_boxed

MATH_INSTRUCTIONS = (
    "{question}\n\nReason step by step inside <think> </think>. After </think>, give the final answer "
    "as \\boxed{answer}."
)


def math_row(value: Any) -> tuple[dict[str, str] | None, str | None]:
    """(``{"question", "ground_truth"}``, None) or (None, the problem, naming the field)."""
    if not isinstance(value, dict):
        return None, f"expected an object, got {type(value).__name__}"
    question = value.get("question", value.get("problem"))
    if not isinstance(question, str) or not question.strip():
        return None, "field 'question' (or 'problem') missing, empty or not a string"
    gold = value.get("ground_truth")
    if gold is None and isinstance(value.get("answer"), str):
        gold = gsm8k_answer(value["answer"]) or (value["answer"] if "####" not in value["answer"] else None)
        if gold is None:
            return None, "field 'answer' has a '####' marker with nothing after it"
    if gold is None and isinstance(value.get("solution"), str):
        gold = last_boxed(value["solution"])
        if gold is None:
            return None, "field 'solution' has no \\boxed{} answer"
    if isinstance(gold, bool) or not isinstance(gold, (str, int, float)) or not str(gold).strip():
        return None, "field 'ground_truth' (or 'answer' / 'solution') missing, empty or not a string/number"
    return {"question": question.strip(), "ground_truth": str(gold).strip()}, None


def load_math_rows(path: str | Path, max_samples: int | None = None) -> tuple[list[dict[str, str]], LoadReport]:
    """Valid rows; bad ones reported by file:line and field, and skipped."""
    return load_rows(path, math_row, max_samples)


def gsm_symbolic_rows(size: int, seed: int) -> list[dict[str, str]]:
    """Grade-school word problems from reasoning-gym's generator (offline, deterministic per seed)."""
    import reasoning_gym

    return [
        {"question": e["question"], "ground_truth": str(e["answer"])}
        for e in reasoning_gym.create_dataset("gsm_symbolic", size=size, seed=seed)
    ]
