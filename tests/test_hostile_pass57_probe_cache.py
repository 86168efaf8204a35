"""Hostile pass 57 (run at cb7647b, issue #74), finding J4: the boundary probe's cache handed back the right counts
an older grader had left, under a probe file's meta line naming today's grader (1,589 questions right instead of
0). A cached count is now sealed with the grader's version and what it graded; any other is graded again from the
kept answers, without asking the model again. Failed on 071011f."""

from __future__ import annotations

import json
from pathlib import Path

ROWS = [
    {"qid": "a", "question": "Dublin is the capital of which country?", "answers": ["Ireland"], "answerable": True},
    {"qid": "b", "question": "Oslo is the capital of which country?", "answers": ["Norway"], "answerable": True},
]
ANSWERS = {"a": ["Ireland", "Iceland"], "b": ["Sweden", "Denmark"]}  # today's grader: 1 right, 0 right


def _model(tmp_path: Path) -> str:
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    return str(model)


def _no_sampling(*args, **kwargs):
    raise AssertionError("the model was asked again: the kept answers are enough to grade")


def _older_grader_entries() -> dict[str, dict]:
    """Entries as a probe before pass 57 left them (no seal) and as one another grader version sealed."""
    return {
        "a": {"answers": ANSWERS["a"], "correct": 2},
        "b": {"answers": ANSWERS["b"], "correct": 2, "seal": "0123456789abcdef"},
    }


def test_a_cache_from_another_grader_is_graded_again_not_reused(tmp_path: Path, monkeypatch) -> None:
    from knowrl.effect import boundary

    model, cache = _model(tmp_path), tmp_path / "cache"
    path = boundary.probe_path(model, cache, 2, 0.9, 0)
    path.parent.mkdir()
    path.write_text(json.dumps(_older_grader_entries()))
    monkeypatch.setattr(boundary, "sample_answers", _no_sampling)
    got = boundary.probe(model, ROWS, cache, 2, 0.9, 0)
    assert {q: r["correct"] for q, r in got.items()} == {"a": 1, "b": 0}
    assert {q: r["answers"] for q, r in got.items()} == ANSWERS
    kept = json.loads(path.read_text())  # written back sealed by today's grader: the next run reuses it as is
    assert all(kept[q]["seal"] == boundary.seal(kept[q], row) for q, row in zip("ab", ROWS))
    monkeypatch.setattr(boundary, "right_count", _no_sampling)
    assert boundary.probe(model, ROWS, cache, 2, 0.9, 0) == got


def test_a_count_whose_gold_answers_changed_is_graded_again(tmp_path: Path, monkeypatch) -> None:
    """The golds decide a count as much as the grader does: a row whose aliases were fixed is graded again."""
    from knowrl.effect import boundary

    model, cache = _model(tmp_path), tmp_path / "cache"
    monkeypatch.setattr(boundary, "sample_answers", lambda *a, **k: [ANSWERS["a"]])
    assert boundary.probe(model, ROWS[:1], cache, 2, 0.9, 0)["a"]["correct"] == 1
    monkeypatch.setattr(boundary, "sample_answers", _no_sampling)
    fixed = [{**ROWS[0], "answers": ["Ireland", "Iceland"]}]
    assert boundary.probe(model, fixed, cache, 2, 0.9, 0)["a"]["correct"] == 2
