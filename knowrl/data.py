"""Training data: KnowRL's RL rows and cold-start ShareGPT conversations, as TRL datasets.

RL rows are ``{"question", "answers", "title"}`` (a JSON array like KnowRL's, JSONL, or a
local HF dataset). The prompt asks for ``<think>…</think><answer>…</answer>``, allows an
honest "I don't know", and is rendered with the model's chat template ending inside the
assistant turn right after ``<think>`` (as KnowRL does), so generation starts reasoning.
``question``, ``answers`` and ``title`` stay as columns and reach the reward functions.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from knowrl_io.records import iter_records

INSTRUCTIONS = (
    "{question}\n\nAnswer this question using the following format strictly:\n"
    "1. First use <think> </think> tags to show your step-by-step reasoning, using only facts you are sure of.\n"
    "2. Then use <answer> </answer> tags for your final, short answer.\n"
    "If you do not know the answer, say so: <answer>I don't know</answer>."
)
ASSISTANT_PREFIX = "<think>"
log = logging.getLogger(__name__)


@dataclass
class LoadReport:
    rows: int
    bad: list[str]


def bad_row(path: Path, line: int | str, message: str, bad: list[str]) -> None:
    text = f"{path}:{line}: {message}"
    bad.append(text)
    log.warning("skipped %s", text)


Convert = Callable[[Any], "tuple[Any, str | None]"]


def load_rows(
    path: str | Path, convert: Convert, max_samples: int | None = None, what: str = "training data"
) -> tuple[list[Any], LoadReport]:
    """Rows of a JSON array, JSONL or local HF dataset, each through ``convert(value) -> (row, problem)``.

    Every loader shares this: a bad record is reported by file:line and the problem (naming the
    field) and skipped; the rest load.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{what} not found: {path}")
    if path.is_dir() or path.suffix in (".parquet", ".arrow"):
        from datasets import load_dataset, load_from_disk

        source = (
            load_from_disk(str(path))
            if path.is_dir()
            else load_dataset(path.suffix[1:], data_files=str(path), split="train")
        )
        records: Iterable[tuple[int | str, Any, str | None]] = ((i + 1, value, None) for i, value in enumerate(source))
    else:
        records = ((r.where, r.value, r.error) for r in iter_records(path))
    rows: list[Any] = []
    bad: list[str] = []
    for line, value, error in records:
        row, problem = (None, error) if error else convert(value)
        if row is None:
            bad_row(path, line, problem or "unreadable row", bad)
            continue
        rows.append(row)
        if max_samples is not None and len(rows) >= max_samples:
            break
    return rows, LoadReport(len(rows), bad)


def load_rl_rows(path: str | Path, max_samples: int | None = None) -> tuple[list[dict[str, Any]], LoadReport]:
    """Valid RL rows (question, answers as given, title or ""); bad rows reported by line and skipped."""
    return load_rows(path, rl_row, max_samples)


def rl_row(value: Any) -> tuple[dict[str, Any] | None, str | None]:
    """``{"question", "answers", "title"}`` or the problem, naming the field."""
    if not isinstance(value, dict):
        return None, f"expected an object, got {type(value).__name__}"
    question, answers, title = value.get("question"), value.get("answers"), value.get("title")
    if not isinstance(question, str) or not question.strip():
        return None, "field 'question' missing, empty or not a string"
    if isinstance(answers, list):
        if not answers or not all(isinstance(a, str) for a in answers):
            return None, "field 'answers' must be a string or a list of strings"
    elif not isinstance(answers, str) or not answers.strip():
        return None, "field 'answers' missing, empty or not a string"
    if title is not None and not isinstance(title, (str, list)):
        return None, f"field 'title' must be a string, got {type(title).__name__}"
    from reward_engine.offline.gold import gold_problem

    problem = gold_problem(answers)  # [""], ";", ["  "] went through and were counted as abstentions (pass 53)
    if problem:
        return None, f"field 'answers': {problem}"
    return {"question": question.strip(), "answers": answers, "title": title or ""}, None


def render_prompt(tokenizer: Any, question: str, instructions: str = INSTRUCTIONS) -> str:
    """Chat-templated prompt ending inside the assistant turn, right after ``<think>``.

    ``instructions`` holds ``{question}`` (the maths and reasoning-gym tasks pass their own).
    """
    messages = [
        {"role": "user", "content": instructions.replace("{question}", question)},
        {"role": "assistant", "content": ASSISTANT_PREFIX},
    ]
    return tokenizer.apply_chat_template(messages, tokenize=False, continue_final_message=True)


def prompt_dataset(rows: list[dict[str, Any]], tokenizer: Any, instructions: str) -> Any:
    """A TRL-ready dataset: ``prompt`` plus every column of the rows (the rewards read them)."""
    from datasets import Dataset

    return Dataset.from_list([{"prompt": render_prompt(tokenizer, r["question"], instructions), **r} for r in rows])


def truncate_prompts(dataset: Any, tokenizer: Any, max_tokens: int) -> tuple[Any, int]:
    """Prompts longer than ``max_tokens`` keep their last ``max_tokens`` tokens, decoded back to text.

    What TRL <= 0.27 did with ``GRPOConfig.max_prompt_length`` (tokenised without added special tokens,
    cut from the left, decoded keeping special tokens); TRL 0.28 dropped the field, so the dataset is cut
    once here. Prompts that fit are left byte-for-byte as they were. Returns the dataset and how many were cut.
    """
    prompts = list(dataset["prompt"])
    ids = tokenizer(prompts, add_special_tokens=False)["input_ids"]
    cut = {
        i: tokenizer.decode(x[-max_tokens:], skip_special_tokens=False, clean_up_tokenization_spaces=False)
        for i, x in enumerate(ids)
        if len(x) > max_tokens
    }
    if not cut:
        return dataset, 0
    log.warning("%d of %d prompts are longer than %d tokens: cut from the left", len(cut), len(prompts), max_tokens)
    return dataset.map(lambda row, i: {"prompt": cut.get(i, row["prompt"])}, with_indices=True), len(cut)


def rl_dataset(rows: list[dict[str, Any]], tokenizer: Any) -> Any:
    """KnowRL rows as :func:`prompt_dataset`, with list-valued fields joined into text."""
    # answers may be a string or a list: store as text so Arrow sees one type; the grader splits on ';'/'|'.
    return prompt_dataset(
        [
            {
                "question": r["question"],
                "answers": r["answers"] if isinstance(r["answers"], str) else "; ".join(r["answers"]),
                "title": r["title"] if isinstance(r["title"], str) else ";".join(r["title"]),
            }
            for r in rows
        ],
        tokenizer,
        INSTRUCTIONS,
    )


_ROLES = {"human": "user", "user": "user", "gpt": "assistant", "assistant": "assistant", "system": "system"}


def load_sharegpt(path: str | Path, max_samples: int | None = None) -> tuple[list[list[dict[str, str]]], LoadReport]:
    """KnowRL's cold-start format: ``{"conversations": [{"from": "human"|"gpt", "value": ...}]}`` -> chat messages."""
    return load_rows(path, sharegpt_messages, max_samples, what="SFT data")


def sharegpt_messages(value: Any) -> tuple[list[dict[str, str]] | None, str | None]:
    turns = value.get("conversations") if isinstance(value, dict) else None
    if not isinstance(turns, list) or not turns:
        return None, "field 'conversations' missing or empty"
    messages = []
    for turn in turns:
        role = _ROLES.get(turn.get("from")) if isinstance(turn, dict) else None
        if role is None or not isinstance(turn.get("value"), str):
            messages = []
            break
        messages.append({"role": role, "content": turn["value"]})
    if not messages or messages[-1]["role"] != "assistant":
        return None, "field 'conversations' needs from/value turns ending with the model's turn"
    return messages, None
