"""Hostile pass 55 (seed 55055, run at ba91e2c, issue #74): command lines that ended in a traceback or wrote
a product out of nothing. Closed here (each test failed on ba91e2c):

- J2: ``knowrl.train --resume --set lora.r=8`` on a run trained with r 4 died in torch's "size mismatch"
  traceback, and ``--set 'lora.target_modules=[q_proj]'`` in an optimizer error naming no key; what a resume
  cannot change (``lora.r``, ``lora.alpha``, ``lora.target_modules``, ``lora.enabled``, the base model) is
  compared with the checkpoint's ``adapter_config.json`` before anything loads (``knowrl/resume.py``);
- J4: ``bench/ci_summary.py`` on a JUnit file cut short or empty was an XML ``ParseError`` traceback, and an HTML
  error page or an empty ``<testsuites/>`` wrote a CI page of 0 tests passed, exit 0 (``counts`` refuses each).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl.config import ConfigError, load_train_config
from tests.test_ci_summary import _junit

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


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        ("cut.xml", None, "not JUnit XML (cut short or empty?"),
        ("empty.xml", "", "not JUnit XML (cut short or empty?"),
        ("page.xml", "<html><body>502 Bad Gateway</body></html>", "its root is <html>"),
        ("none.xml", "<testsuites></testsuites>", "no test in it"),
    ],
)
def test_ci_summary_refuses_a_junit_file_that_is_not_a_run(tmp_path: Path, capsys, name, text, says) -> None:
    from bench.ci_summary import main

    real = _junit(tmp_path).read_bytes()
    junit = tmp_path / name
    junit.write_bytes(real[: len(real) // 2] if text is None else text.encode())
    out = tmp_path / "ci.md"
    code = main([str(junit), "--install-s", "60", "--total-s", "600", "--exit-code", "0", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert err.strip().splitlines() == [err.strip()] and err.startswith(f"{junit}: ") and says in err
