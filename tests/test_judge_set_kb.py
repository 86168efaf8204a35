"""bench/judge_set.py refuses to measure a config whose grader reads the KB's aliases when that KB cannot be opened:
judge set 23's first record ran on with a warning and no aliases, and reported another grader's accuracy."""

import json
import sys
from pathlib import Path

import pytest

from tests.helpers import write_jsonl

ROOT = Path(__file__).resolve().parents[1]


def _config(path: Path, kb: Path) -> Path:
    judge = {"endpoints": [{"base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key_env": None}]}  # never called
    cfg = {
        "grader": "llm",
        "judge": judge,
        "grader_aliases": "kb",
        "factuality": {"kb_path": str(kb), "retrieval_mode": "bm25"},
    }
    path.write_text(json.dumps(cfg), encoding="utf-8")
    return path


def test_a_missing_kb_ends_the_measurement_before_any_case(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import judge_set

    config = _config(tmp_path / "aliases.json", tmp_path / "absent.db")
    with pytest.raises(SystemExit) as stop:
        judge_set.config_names(config)
    message = str(stop.value)
    assert str(config) in message and "grader_aliases: kb" in message and "absent.db" in message


def test_a_kb_that_opens_gives_the_names(tmp_path: Path) -> None:
    import subprocess

    sys.path.insert(0, str(ROOT / "bench"))
    import judge_set

    kb = tmp_path / "kb.db"
    src = write_jsonl(tmp_path / "docs.jsonl")
    subprocess.run(
        [sys.executable, "-m", "retrieval.build", "--input", str(src), "--db", str(kb), "--no-dense", "-q"], check=True
    )
    names = judge_set.config_names(_config(tmp_path / "aliases.json", kb))
    assert names is not None
