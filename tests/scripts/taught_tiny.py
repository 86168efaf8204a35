"""A tiny policy that answers in KnowRL's format (a test helper, not a test): the random tiny model, overfitted on
three answers per question, so that real GRPO sampling writes ``<answer>...</answer>`` and the grader is called.

    python tests/scripts/taught_tiny.py OUT_DIR RL.jsonl QUESTIONS [STEPS]

Teaches the first QUESTIONS rows of RL.jsonl (KnowRL's RL format) as ``knowrl.data.render_prompt`` renders them
for training, each with the gold answer, a wrong one (Lyon) and a refusal; writes the model to OUT_DIR.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from transformers import AutoTokenizer

from knowrl.data import render_prompt
from knowrl.tiny import build_tiny_model, teach_tiny_model


def main() -> int:
    out, data, questions = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    steps = int(sys.argv[4]) if len(sys.argv) > 4 else 150
    path = build_tiny_model(out)
    tokenizer = AutoTokenizer.from_pretrained(path)
    rows = [json.loads(line) for line in data.read_text().splitlines() if line.strip()][:questions]
    pairs = []
    for row in rows:
        prompt = render_prompt(tokenizer, row["question"])  # ends in the open <think> block
        gold = row["answers"] if isinstance(row["answers"], str) else row["answers"][0]
        pairs += [
            (prompt, f"I recall.</think><answer>{gold}</answer>"),
            (prompt, "I guess.</think><answer>Lyon</answer>"),
            (prompt, "Not sure.</think><answer>I don't know</answer>"),
        ]
    teach_tiny_model(path, pairs, steps=steps)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
