"""bench/ceiling.py end to end on the tiny random model: the held-out probe runs, is graded strictly, and the
report's tables carry the counts it found."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ceiling_reports_known_questions_per_model_and_template(tmp_path):
    out = tmp_path / "ceiling.md"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ceiling.py"), "--models", "tiny", "--heldout", "12"]
        + ["--work", str(tmp_path / "work"), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    md = out.read_text()
    assert md.startswith("# What each policy that ships offline knows")
    assert "Command: `python bench/ceiling.py --models tiny --heldout 12" in md
    kept = json.loads(next((tmp_path / "work" / "boundary").glob("*-k4-t0.9-s0.json")).read_text())
    answerable = len(kept)  # the probe asked exactly the answerable held-out questions, 4 answers each
    assert 0 < answerable <= 12 and all(len(v["answers"]) == 4 for v in kept.values())
    # A random tiny model knows none of them: 0 known, F ceiling 0.
    assert f"| tiny | 0 M | 0 of {answerable} (0.0%) | 0 | 0.000 |" in md
    templates = [
        line for line in md.split("## By template")[1].splitlines() if line.startswith("| ") and "---" not in line
    ]
    assert sum(int(line.split("|")[2]) for line in templates[1:]) == answerable  # every asked question, once
