"""QA data for the offline demo, generated from the demo KB's sources (never committed).

Questions whose gold answers sit in the KB: Factbook capitals and official names, and
Wikipedia articles named from their short description. Countries are split train /
held-out (held-out entities are never trained on). Questions about made-up countries,
absent from the KB, teach and test the honest "I don't know". Cold-start SFT examples
show the format with short reasoning grounded in the KB's own sentence.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from knowrl.data import INSTRUCTIONS
from retrieval.sources import FACTBOOK_SUFFIX, factbook_documents

NO_SUCH = "(no such country)"
SYLLABLES = ["va", "lo", "ri", "en", "dor", "mar", "que", "sil", "tor", "ben", "ka", "zu", "lin", "phe", "oru"]
FIELDS = {
    "capital - name": (
        "What is the capital of {c}?",
        "The capital of {c} is {a}.",
        "I am not sure what the capital of {c} is.",
    ),
    "country name - conventional long form": (
        "What is the official long-form name of {c}?",
        "The official long-form name of {c} is {a}.",
        "I am not sure of the official long-form name of {c}.",
    ),
}


def _country_fields(text: str, country: str) -> dict[str, str]:
    fields = {}
    for line in text.splitlines():
        prefix = f"{country} "
        if line.startswith(prefix) and ": " in line:
            label, value = line[len(prefix) :].split(": ", 1)
            fields[label] = value.rstrip(".")
    return fields


def _fictional(rng: random.Random, taken: set[str], n: int) -> list[str]:
    names: list[str] = []
    while len(names) < n:
        name = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize() + rng.choice(
            ["ia", "land", "stan", "a"]
        )
        if name.lower() not in taken and name not in names:
            names.append(name)
    return names


def build_demo_data(
    out_dir: Path, train_questions: int = 160, heldout_questions: int = 40, seed: int = 0, sft_unsure_share: float = 0.0
) -> dict[str, Path]:
    """Write train.jsonl, heldout.jsonl (RL format) and sft.json (ShareGPT) into ``out_dir``.

    ``sft_unsure_share`` of the real training questions (drawn at random) get "I don't know" as their
    cold-start answer: the SFT policy then abstains some of the time, so GRPO's groups hold abstentions
    next to answers and the reward can teach where each pays (an SFT policy that never abstains gives
    GRPO nothing to reinforce but its answers).
    """
    rng = random.Random(seed)
    items: list[dict[str, Any]] = []
    for doc in factbook_documents():
        country = doc.title[: -len(FACTBOOK_SUFFIX)]
        fields = _country_fields(doc.text, country)
        for label, (question, reason, unsure) in FIELDS.items():
            answer = fields.get(label, "").split(";")[0].strip()
            if answer and answer.lower() != "none" and len(answer) < 60 and answer.lower() != country.lower():
                items.append(
                    {
                        "entity": country,
                        "question": question.format(c=country),
                        "answers": answer,
                        "title": doc.title,
                        "reason": reason.format(c=country, a=answer),
                        "unsure": unsure.format(c=country),
                    }
                )
    entities = sorted({i["entity"] for i in items})
    rng.shuffle(entities)
    cut = int(len(entities) * 0.8)
    train_entities, heldout_entities = set(entities[:cut]), set(entities[cut:])
    train = [i for i in items if i["entity"] in train_entities]
    heldout = [i for i in items if i["entity"] in heldout_entities]
    rng.shuffle(train)
    rng.shuffle(heldout)
    taken = {e.lower() for e in entities}
    fake = _fictional(rng, taken, 40)
    unknown = [
        {
            "entity": f,
            "question": f"What is the capital of {f}?",
            "answers": NO_SUCH,
            "title": "",
            "reason": f"I have no reliable information about a country called {f}.",
        }
        for f in fake
    ]
    n_unknown_train, n_unknown_heldout = train_questions // 8, heldout_questions // 8
    train = train[: train_questions - n_unknown_train] + unknown[:n_unknown_train]
    heldout = heldout[: heldout_questions - n_unknown_heldout] + unknown[20 : 20 + n_unknown_heldout]
    rng.shuffle(train)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"train": out_dir / "train.jsonl", "heldout": out_dir / "heldout.jsonl", "sft": out_dir / "sft.json"}
    for key, rows in (("train", train), ("heldout", heldout)):
        paths[key].write_text(
            "".join(json.dumps({k: r[k] for k in ("question", "answers", "title")}) + "\n" for r in rows)
        )
    real = [i for i, row in enumerate(train) if row["answers"] != NO_SUCH]
    unsure = set(rng.sample(real, round(len(real) * sft_unsure_share)))
    sft = []
    for i, row in enumerate(train):
        reason, answer = row["reason"], row["answers"]
        if answer == NO_SUCH or i in unsure:
            reason, answer = row.get("unsure", reason), "I don't know"
        sft.append(
            {
                "id": f"demo-{i}",
                "conversations": [
                    {"from": "human", "value": INSTRUCTIONS.format(question=row["question"])},  # the RL prompt
                    {"from": "gpt", "value": f"<think>{reason}</think><answer>{answer}</answer>"},
                ],
            }
        )
    paths["sft"].write_text(json.dumps(sft, indent=1))
    return paths
