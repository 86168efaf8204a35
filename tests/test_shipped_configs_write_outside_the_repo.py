"""Running a shipped config leaves the checkout as it was: its report goes to its run folder, and regenerating a
committed results file is asked for explicitly (``--set pipeline.report=...``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_no_shipped_config_writes_a_report_into_the_repository(path: Path) -> None:
    pipeline = (yaml.safe_load(path.read_text()) or {}).get("pipeline") or {}
    assert pipeline.get("report") is None, f"{path.name}: pipeline.report writes into the checkout"


def test_the_demo_is_among_them() -> None:
    assert "demo.yaml" in {p.name for p in CONFIGS} and len(CONFIGS) > 5
