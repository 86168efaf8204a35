"""A file or model flag given twice is refused before anything runs (hostile passes 17 and 18): argparse keeps the
last value silently, so ``score --input a.jsonl --input b.jsonl`` scored b.jsonl alone, exit 0. Every job's flag
that names a file, a folder or a model is listed here; a new one belongs in the table."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

TWICE = [
    ("reward_engine.score", ["--input", "a.jsonl", "--input", "b.jsonl", "--output", "o", "--config", "c"]),
    ("reward_engine.score", ["--input", "a.jsonl", "--output", "o", "--output", "p", "--config", "c"]),
    ("reward_engine.score", ["--input", "a.jsonl", "--output", "o", "--config", "c", "--config", "d"]),
    ("reward_engine.warm", ["--data", "a.json", "--data", "b.json", "--config", "c.yaml"]),
    ("reward_engine.warm", ["--completions", "a.jsonl", "--completions", "b.jsonl", "--config", "c.yaml"]),
    ("reward_engine.inspect", ["rows.jsonl", "-o", "a.html", "--output", "b.html"]),
    ("reward_engine.inspect", ["rows.jsonl", "--kb", "a.db", "--kb", "b.db", "-o", "page.html"]),
    ("reward_engine.inspect", ["rows.jsonl", "--input", "a.jsonl", "--input", "b.jsonl", "-o", "page.html"]),
    ("reward_engine.serve", ["--config", "a.yaml", "--config", "b.yaml"]),
    ("retrieval.build", ["--input", "a.jsonl", "--input", "b.jsonl", "--db", "kb.db"]),
    ("retrieval.build", ["--from-db", "a.db", "--from-db", "b.db", "--db", "c.db"]),
    ("retrieval.build", ["--input", "a.jsonl", "--db", "a.db", "--db", "b.db"]),
    ("retrieval.serve", ["--db", "a.db", "--db", "b.db"]),
    ("knowrl.train", ["--config", "a.yaml", "--config", "b.yaml"]),
    ("knowrl.sft", ["--config", "a.yaml", "--config", "b.yaml"]),
    ("knowrl.task_eval", ["--config", "a.yaml", "--adapter", "x", "--adapter", "y"]),
    ("knowrl.task_eval", ["--config", "a.yaml", "--out", "x", "--out", "y"]),
    ("knowrl.evaluate", ["--model", "tiny", "--model", "smollm2", "--data", "d.jsonl"]),
    ("knowrl.evaluate", ["--model", "tiny", "--data", "a.jsonl", "--data", "b.jsonl"]),
    ("knowrl.evaluate", ["--model", "tiny", "--data", "d.jsonl", "--adapter", "x", "--adapter", "y"]),
    ("knowrl.evaluate", ["--model", "tiny", "--data", "d.jsonl", "--config", "a.yaml", "--config", "b.yaml"]),
    ("knowrl.evaluate", ["--model", "tiny", "--data", "d.jsonl", "--out", "x", "--out", "y"]),
    ("knowrl.merge", ["--base", "tiny", "--base", "smollm2", "--adapter", "a", "--out", "o"]),
    ("knowrl.merge", ["--base", "tiny", "--adapter", "a", "--adapter", "b", "--out", "o"]),
    ("knowrl.merge", ["--base", "tiny", "--adapter", "a", "--out", "o", "--out", "p"]),
    ("knowrl.effect.forecast", ["probe.json", "--data", "a", "--data", "b"]),
    ("knowrl.effect.probe_candidates", ["--out", "a.json", "--out", "b.json"]),
    ("knowrl.effect.probe_candidates", ["--model", "tiny", "--model", "smollm2"]),
    ("knowrl.effect.probe_candidates", ["--regrade", "a.json", "--regrade", "b.json"]),
]


@pytest.mark.parametrize(("module", "argv"), TWICE, ids=[f"{m} {' '.join(a)}" for m, a in TWICE])
def test_a_file_flag_given_twice_is_refused_before_anything_runs(
    module: str, argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as done:
        importlib.import_module(module).main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "given twice" in err and "one per run" in err, err
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize(
    ("module", "argv"),
    [
        ("reward_engine.inspect", ["rows.jsonl", "-o", "a.html"]),
        ("knowrl.evaluate", ["--model", "tiny", "--data", "missing.jsonl"]),
    ],
)
def test_one_of_each_flag_is_not_refused_as_twice(
    module: str, argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        importlib.import_module(module).main(argv)
    except SystemExit:
        pass
    assert "given twice" not in capsys.readouterr().err
