"""Hostile pass 55 (seed 55055, run at ba91e2c, issue #74): four command lines that ended in a traceback or
wrote a product out of nothing. Closed here (each test failed on ba91e2c):

- J2: ``knowrl.train --resume --set lora.r=8`` on a run trained with r 4 died in torch's "size mismatch"
  traceback, and ``--set 'lora.target_modules=[q_proj]'`` in an optimizer error naming no key; what a resume
  cannot change (``lora.r``, ``lora.alpha``, ``lora.target_modules``, ``lora.enabled``, the base model) is
  compared with the checkpoint's ``adapter_config.json`` before anything loads (``knowrl/resume.py``);
- J4: ``bench/ci_summary.py`` on a JUnit file cut short or empty was an XML ``ParseError`` traceback, and an HTML
  error page or an empty ``<testsuites/>`` wrote a CI page of 0 tests passed, exit 0 (``counts`` refuses each);
- J5: ``knowrl.effect.forecast --data`` with plain KnowRL rows was ``KeyError: 'qid'``, a folder without
  heldout.jsonl an ``InputError`` traceback, and rows the probe never asked a table of zeros (a set with none is
  refused, naming it; a set with some says how many were left out);
- J7: ``knowrl.effect.probe_candidates --k 0`` and ``--temperature -0.5`` probed and wrote a probe (every numeric
  flag is range-checked before the model loads; ``forecast`` checks ``--threshold-t`` and a probe's k).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from knowrl.config import ConfigError, load_train_config
from tests.helpers import tree_hashes
from tests.test_ci_summary import _junit

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"
PROBE = ROOT / "configs" / "data" / "boundary-smollm2-k8.json"  # a real probe: smollm2, k 8


def test_a_resume_that_changes_the_adapter_or_its_base_names_each_key(tmp_path: Path) -> None:
    out, kb = tmp_path / "run", tmp_path / "kb.db"
    sets = [f"output_dir={out}", f"reward.factuality.kb_path={kb}", "grpo.max_steps=1"]
    train = [sys.executable, "-m", "knowrl.train", "--config", str(SMOKE), *(f"--set={s}" for s in sets)]
    first = subprocess.run(train, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr[-3000:]
    before = tree_hashes(out)

    changed = ["--resume", "--set=lora.r=8", "--set=lora.target_modules=[q_proj]"]
    refused = subprocess.run([*train, *changed], capture_output=True, text=True)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr[-3000:]
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "lora.r is 4 in the checkpoint, 8 in the config" in refused.stderr
    assert "lora.target_modules is [q_proj, v_proj] in the checkpoint, [q_proj] in the config" in refused.stderr
    assert "checkpoint-1" in refused.stderr and "--overwrite" in refused.stderr
    assert tree_hashes(out) == before  # nothing trimmed, nothing written

    from knowrl.output_dir import claim_output_dir

    with pytest.raises(ConfigError, match=r"model.name_or_path is .*tiny-0 in the checkpoint, tiny \(built as tiny-1"):
        claim_output_dir(load_train_config(SMOKE, [*sets, "seed=1"]), resume=True, overwrite=False)
    with pytest.raises(ConfigError, match="lora.alpha is 8 in the checkpoint, 16 in the config"):
        claim_output_dir(load_train_config(SMOKE, [*sets, "lora.alpha=16"]), resume=True, overwrite=False)
    # a target the tiny model lacks is not in the checkpoint (the load refuses it: pass 60): not a resume change
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


def _data(folder: Path, train: list[dict], heldout: list[dict] | None) -> Path:
    folder.mkdir()
    for name, rows in (("train", train), ("heldout", heldout)):
        if rows is not None:
            (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


def _forecast_error(capsys, *argv: str) -> str:
    from knowrl.effect.forecast import main

    with pytest.raises(SystemExit) as stop:
        main([str(PROBE), *argv])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and len(err.strip().splitlines()) == 1, err
    return err


def test_forecast_names_data_that_carries_no_probed_question(tmp_path: Path, capsys) -> None:
    plain = [{"question": f"Who wrote book {i}?", "answers": [f"Author {i}"], "title": f"Book {i}"} for i in range(9)]
    folder = _data(tmp_path / "plain", plain[:6], plain[6:])
    err = _forecast_error(capsys, "--preset", "truthrl", "--data", str(folder))
    assert f"--data {folder / 'train.jsonl'}: row 1 has no 'qid'" in err

    lone = _data(tmp_path / "lone", [{"qid": "x:1"}], None)
    err = _forecast_error(capsys, "--preset", "truthrl", "--data", str(lone))
    assert f"--data {lone}: no heldout.jsonl in it" in err

    asked = list(json.loads(PROBE.read_text(encoding="utf-8"))["probe"])[:4]
    never = [{"qid": f"never:{i}", "answerable": True} for i in range(3)]
    folder = _data(tmp_path / "never", never, [{"qid": q, "answerable": True} for q in asked])
    err = _forecast_error(capsys, "--preset", "truthrl", "--data", str(folder))
    assert "nothing to forecast on train: none of its 3 rows has a qid the probe asked" in err
    assert str(folder / "train.jsonl") in err

    from knowrl.effect.forecast import main

    probed = [{"qid": q, "answerable": True} for q in asked]
    some = _data(tmp_path / "some", probed + never, never[:1] + probed[:1])
    assert main([str(PROBE), "--preset", "truthrl", "--data", str(some)]) == 0
    printed = capsys.readouterr().out
    assert "| train | 4 |" in printed and "| heldout | 1 |" in printed
    assert "left out: rows whose qid the probe never asked (train 3, heldout 1)" in printed


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--k", "0"], "--k must be at least 1"),
        (["--k", "-3"], "--k must be at least 1"),
        (["--k", "1", "--temperature", "-0.5"], "--temperature must be above 0"),
        (["--k", "1", "--temperature", "0"], "--temperature must be above 0"),
        (["--k", "1", "--temperature", "nan"], "--temperature must be above 0"),
    ],
)
def test_probe_candidates_range_checks_its_flags_before_the_model_loads(tmp_path: Path, capsys, flags, says) -> None:
    from knowrl.effect.probe_candidates import main

    out = tmp_path / "p.json"
    with pytest.raises(SystemExit) as stop:
        main(["--model", "tiny", *flags, "--out", str(out), "--cache", str(tmp_path / "cache")])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and len(err.strip().splitlines()) == 1 and says in err, err
    assert not out.exists() and not (tmp_path / "cache").exists()


def test_forecast_range_checks_threshold_t_and_a_probe_s_k(tmp_path: Path, capsys) -> None:
    err = _forecast_error(capsys, "--preset", "threshold", "--threshold-t", "1.5")
    assert "--threshold-t must be between 0 and 1" in err

    from knowrl.effect.boundary import write_probe_file

    empty = tmp_path / "k0.json"  # what probe_candidates --k 0 wrote: no answer, none right
    write_probe_file(empty, {"model": "tiny", "k": 0}, {"fam:1": {"answers": [], "correct": 0}})
    from knowrl.effect.forecast import main

    with pytest.raises(SystemExit) as stop:
        main([str(empty), "--preset", "truthrl"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and f"{empty}: k is 0" in err and len(err.strip().splitlines()) == 1
