"""Training data: KnowRL's RL rows and cold-start ShareGPT conversations, as TRL datasets.

RL rows are ``{"question", "answers", "title"}`` (a JSON array like KnowRL's, JSONL, or a
local HF dataset). The prompt asks for ``<think>…</think><answer>…</answer>``, allows an
honest "I don't know", and is rendered with the model's chat template ending inside the
assistant turn right after ``<think>`` (as KnowRL does), so generation starts reasoning.
``question``, ``answers`` and ``title`` stay as columns and reach the reward functions.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from retrieval.records import iter_records

INSTRUCTIONS = (
    "{question}\n\nAnswer this question using the following format strictly:\n"
    "1. First use <think> </think> tags to show your step-by-step reasoning, using only facts you are sure of.\n"
    "2. Then use <answer> </answer> tags for your final, short answer.\n"
    "If you do not know the answer, say so: <answer>I don't know</answer>."
)
ASSISTANT_PREFIX = "<think>"


@dataclass
class LoadReport:
    rows: int
    bad: list[str]


def bad_row(path: Path, line: int, message: str, bad: list[str]) -> None:
    text = f"{path}:{line}: {message}"
    bad.append(text)
    print(f"skipped {text}", file=sys.stderr)


def load_rl_rows(path: str | Path, max_samples: int | None = None) -> tuple[list[dict[str, Any]], LoadReport]:
    """Valid RL rows (question, answers as given, title or None); bad rows reported by line and skipped."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"training data not found: {path}")
    if path.is_dir() or path.suffix in (".parquet", ".arrow"):
        return _load_hf(path, max_samples)
    rows: list[dict[str, Any]] = []
    bad: list[str] = []
    for record in iter_records(path):
        if record.error is not None:
            bad_row(path, record.line, record.error, bad)
            continue
        value = record.value
        if not isinstance(value, dict):
            bad_row(path, record.line, f"expected an object, got {type(value).__name__}", bad)
            continue
        problem = _rl_problem(value)
        if problem:
            bad_row(path, record.line, problem, bad)
            continue
        rows.append({"question": value["question"].strip(), "answers": value["answers"],
                     "title": value.get("title") or ""})
        if max_samples is not None and len(rows) >= max_samples:
            break
    return rows, LoadReport(len(rows), bad)


def _rl_problem(value: dict[str, Any]) -> str | None:
    question, answers, title = value.get("question"), value.get("answers"), value.get("title")
    if not isinstance(question, str) or not question.strip():
        return "field 'question' missing, empty or not a string"
    if isinstance(answers, list):
        if not answers or not all(isinstance(a, str) for a in answers):
            return "field 'answers' must be a string or a list of strings"
    elif not isinstance(answers, str) or not answers.strip():
        return "field 'answers' missing, empty or not a string"
    if title is not None and not isinstance(title, (str, list)):
        return f"field 'title' must be a string, got {type(title).__name__}"
    return None


def _load_hf(path: Path, max_samples: int | None) -> tuple[list[dict[str, Any]], LoadReport]:
    from datasets import load_dataset, load_from_disk

    dataset = load_from_disk(str(path)) if path.is_dir() else load_dataset(path.suffix[1:], data_files=str(path),
                                                                           split="train")
    rows, bad = [], []
    for i, value in enumerate(dataset):
        problem = _rl_problem(value)
        if problem:
            bad_row(path, i + 1, problem, bad)
            continue
        rows.append({"question": value["question"], "answers": value["answers"], "title": value.get("title") or ""})
        if max_samples is not None and len(rows) >= max_samples:
            break
    return rows, LoadReport(len(rows), bad)


def render_prompt(tokenizer: Any, question: str, instructions: str = INSTRUCTIONS) -> str:
    """Chat-templated prompt ending inside the assistant turn, right after ``<think>``.

    ``instructions`` holds ``{question}`` (the maths and reasoning-gym tasks pass their own).
    """
    messages = [{"role": "user", "content": instructions.replace("{question}", question)},
                {"role": "assistant", "content": ASSISTANT_PREFIX}]
    return tokenizer.apply_chat_template(messages, tokenize=False, continue_final_message=True)


def rl_dataset(rows: list[dict[str, Any]], tokenizer: Any) -> Any:
    """A TRL-ready dataset: ``prompt`` plus the columns the rewards read."""
    from datasets import Dataset

    # answers may be a string or a list: store as text so Arrow sees one type; the grader splits on ';'/'|'.
    return Dataset.from_list([
        {"prompt": render_prompt(tokenizer, r["question"]), "question": r["question"],
         "answers": r["answers"] if isinstance(r["answers"], str) else "; ".join(r["answers"]),
         "title": r["title"] if isinstance(r["title"], str) else ";".join(r["title"])}
        for r in rows
    ])


def load_sharegpt(path: str | Path, max_samples: int | None = None) -> tuple[list[list[dict[str, str]]], LoadReport]:
    """KnowRL's cold-start format: ``{"conversations": [{"from": "human"|"gpt", "value": ...}]}`` -> chat messages."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"SFT data not found: {path}")
    roles = {"human": "user", "user": "user", "gpt": "assistant", "assistant": "assistant", "system": "system"}
    conversations: list[list[dict[str, str]]] = []
    bad: list[str] = []
    for record in iter_records(path):
        if record.error is not None:
            bad_row(path, record.line, record.error, bad)
            continue
        turns = record.value.get("conversations") if isinstance(record.value, dict) else None
        if not isinstance(turns, list) or not turns:
            bad_row(path, record.line, "field 'conversations' missing or empty", bad)
            continue
        messages = []
        for turn in turns:
            role = roles.get(turn.get("from")) if isinstance(turn, dict) else None
            if role is None or not isinstance(turn.get("value"), str):
                messages = []
                break
            messages.append({"role": role, "content": turn["value"]})
        if not messages or messages[-1]["role"] != "assistant":
            bad_row(path, record.line, "field 'conversations' needs from/value turns ending with the model's turn", bad)
            continue
        conversations.append(messages)
        if max_samples is not None and len(conversations) >= max_samples:
            break
    return conversations, LoadReport(len(conversations), bad)
