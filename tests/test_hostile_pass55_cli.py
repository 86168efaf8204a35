"""Hostile pass 55 (seed 55055, run at ba91e2c, issue #74): command lines that ended in a traceback or wrote
a product out of nothing. Closed here (each test failed on ba91e2c):

- J2: ``knowrl.train --resume --set lora.r=8`` on a run trained with r 4 died in torch's "size mismatch"
  traceback, and ``--set 'lora.target_modules=[q_proj]'`` in an optimizer error naming no key; what a resume
  cannot change (``lora.r``, ``lora.alpha``, ``lora.target_modules``, ``lora.enabled``, the base model) is
  compared with the checkpoint's ``adapter_config.json`` before anything loads (``knowrl/resume.py``).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl.config import ConfigError, load_train_config

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"


def _tree(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


def test_a_resume_that_changes_the_adapter_or_its_base_names_each_key(tmp_path: Path) -> None:
    out, kb = tmp_path / "run", tmp_path / "kb.db"
    sets = [f"output_dir={out}", f"reward.factuality.kb_path={kb}", "grpo.max_steps=1"]
    train = [sys.executable, "-m", "knowrl.train", "--config", str(SMOKE), *(f"--set={s}" for s in sets)]
    first = subprocess.run(train, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr[-3000:]
    before = _tree(out)

    changed = ["--resume", "--set=lora.r=8", "--set=lora.target_modules=[q_proj]"]
    refused = subprocess.run([*train, *changed], capture_output=True, text=True)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr[-3000:]
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "lora.r is 4 in the checkpoint, 8 in the config" in refused.stderr
    assert "lora.target_modules is [q_proj, v_proj] in the checkpoint, [q_proj] in the config" in refused.stderr
    assert "checkpoint-1" in refused.stderr and "--overwrite" in refused.stderr
    assert _tree(out) == before  # nothing trimmed, nothing written

    from knowrl.output_dir import claim_output_dir

    with pytest.raises(ConfigError, match=r"model.name_or_path is .*tiny-0 in the checkpoint, tiny \(built as tiny-1"):
        claim_output_dir(load_train_config(SMOKE, [*sets, "seed=1"]), resume=True, overwrite=False)
    with pytest.raises(ConfigError, match="lora.alpha is 8 in the checkpoint, 16 in the config"):
        claim_output_dir(load_train_config(SMOKE, [*sets, "lora.alpha=16"]), resume=True, overwrite=False)
    # a target the tiny model lacks is dropped when it loads, so the checkpoint never lists it: still the same
    same = load_train_config(SMOKE, [*sets, "lora.target_modules=[v_proj, q_proj, c_attn]"])
    claim_output_dir(same, resume=True, overwrite=False)
