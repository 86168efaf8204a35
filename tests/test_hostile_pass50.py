"""Hostile pass 50 (seed 50050, run at 0039593, issue #74): 30 cases written before they were run; 21 held. Each
assertion here failed on 0039593. Closed:

- a silent failure: ``knowrl.evaluate`` with a binary-rar config failed every row (an AttributeError per row) and
  blamed the judge: Binary RAR grades no answer, so evaluation grades with the config's grader under the graded rule;
- wrong answers paid: "Probably Jonathan Pryce, though I'd give Ciarán Hinds a 40% chance." and "..., though Ciarán
  Hinds is possible." CORRECT (a rival held possible); "Spot。不对，应该是 Penry。" CORRECT for Spot (a correction in
  Chinese; the English one was INCORRECT).

Left (in the issue's note): G1 "In season 2, episode 23" for "season two" (a part's number in digits beside an
episode), G9 a date per format ("DVD and Blu-ray: August 22, 2017" beside the digital date), G12 "Tyler Perry (born
Emmitt Perry Jr.)." (a birth name read as a guess), F4 ``supported`` refuses claims that copy a passage's figures
when the passage gives two units ("664-foot (202 m)": ``facts._crossed``), R4 a role table's "I don't know" row
(INCORRECT, debatable), G14 ("Will Smith plays Joel Edgerton's partner" for Joel Edgerton; unsure).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowrl import evaluate
from retrieval.build import build
from retrieval.sources import Document
from reward_engine.offline.grader import Label, grade

HIGH_SPARROW = "Who played High Sparrow in Game of Thrones?"


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Probably Jonathan Pryce, though I'd give Ciarán Hinds a 40% chance.", Label.INCORRECT),
        ("Jonathan Pryce, though Ciarán Hinds is possible.", Label.INCORRECT),
        ("Jonathan Pryce, though a cameo by Hinds is possible.", Label.CORRECT),
        ("Jonathan Pryce (I'd give it 90%).", Label.CORRECT),
    ],
)
def test_a_rival_held_possible(answer: str, label: Label) -> None:
    assert grade(answer, "Jonathan Pryce", HIGH_SPARROW) is label


@pytest.mark.parametrize(
    ("answer", "label"),
    [("Spot。不对，应该是 Penry。", Label.INCORRECT), ("Penry。不对，应该是 Spot。", Label.CORRECT)],
)
def test_a_correction_in_chinese(answer: str, label: Label) -> None:
    assert grade(answer, "Spot", "Name of the cat in Hong Kong Phooey") is label


def test_evaluate_under_a_binary_rar_config_grades_the_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "kb.db"
    build(db, [Document("Paris", "Paris is the capital of France.")], progress=False, dense_index=False)
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        "".join(json.dumps({"question": "What is the capital of France?", "answers": "Paris"}) + "\n" for _ in range(3))
    )
    answers = [f"<think>\nFrance.\n</think>\n<answer>\n{a}\n</answer>" for a in ("Paris", "Paris", "Lyon")]
    monkeypatch.setattr(evaluate, "generation_passes", lambda model, adapter, questions, *a, **k: (answers, None))
    config = tmp_path / "cfg.json"
    knowledge = {"enabled": True, "kb_path": str(db), "retrieval_mode": "bm25"}
    config.write_text(json.dumps({"preset": "binary-rar", "verifier": "offline", "factuality": knowledge}))
    argv = ["--model", "tiny", "--data", str(rows), "--config", str(config), "--out", str(tmp_path / "ev")]
    assert evaluate.main(argv) == 0
    metrics = json.loads((tmp_path / "ev" / "report.json").read_text())["metrics"]
    assert metrics["unscored"] == 0 and metrics["correct"] == pytest.approx(2 / 3)
