"""Hostile pass 59 (issue #74), jobs J4-J6: what a writer deleted or wrote over, and a rerun that kept stale rows.

J4: ``retrieval.build --no-dense`` deleted a user's ``papers.faiss`` (no manifest) beside a new KB, blaming "the KB's
old text"; a dense build replaced one; a lone foreign ``papers.faiss.json`` went too. Now a build touches only index
files its manifest marks as a build's, and refuses anything else up front, naming it (``retrieval/build.py``).
J5: ``knowrl.merge --base tiny --out <tiny's cache folder> --overwrite`` merged into the built-in base, exit 0; a
model id was never resolved to its folder. Now every writer given a model (merge, train, sft, evaluate, task_eval)
refuses an output in the folder that model loads from (``knowrl/model_folder.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
DATA = ROOT / "configs" / "data" / "smoke_rl.jsonl"
DOCS = [
    {"title": "Alpha", "text": "Alpha is the first letter of the Greek alphabet."},
    {"title": "Beta", "text": "Beta is the second letter of the Greek alphabet."},
]


def run(*args: str | Path, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, *map(str, args)]
    return subprocess.run(argv, cwd=ROOT, env=env or ENV, capture_output=True, text=True, timeout=300, check=False)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The refusal's single stderr line (exit 2, no traceback)."""
    line = done.stderr.strip()
    assert done.returncode == 2 and "\n" not in line and line.startswith("error: "), done.stderr[-3000:]
    return line


def tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def docs(tmp_path: Path) -> Path:
    path = tmp_path / "docs.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in DOCS), encoding="utf-8")
    return path


def build(tmp_path: Path, db: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return run("-m", "retrieval.build", "--input", docs(tmp_path), "--db", db, "--no-progress", *more)


# J4 ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dense", [False, True])
def test_a_build_refuses_a_foreign_faiss_beside_a_new_kb(tmp_path: Path, dense: bool) -> None:
    """J4 and its side probe: the --no-dense build deleted it, the dense build replaced it; now neither is run,
    nothing is written (the refusal comes before the embedding model loads), and the file is as it was."""
    mine = tmp_path / "papers.faiss"
    mine.write_bytes(b"my own faiss index v1\n")
    done = build(tmp_path, tmp_path / "papers.db", *([] if dense else ["--no-dense"]))
    line = one_line(done)
    assert f"{mine}:" in line and "papers.faiss.json" in line and "old text" not in line
    assert mine.read_bytes() == b"my own faiss index v1\n"
    assert not (tmp_path / "papers.db").exists() and not (tmp_path / "papers.faiss.json").exists()


def test_a_lone_foreign_manifest_is_refused_too(tmp_path: Path) -> None:
    mine = tmp_path / "b.faiss.json"
    mine.write_text('{"my": "settings"}\n')
    line = one_line(build(tmp_path, tmp_path / "b.db", "--no-dense"))
    assert f"{mine}:" in line and "manifest" in line
    assert mine.read_text() == '{"my": "settings"}\n' and not (tmp_path / "b.db").exists()


def test_a_foreign_faiss_that_appeared_beside_a_built_kb_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    assert build(tmp_path, db, "--no-dense").returncode == 0
    kb = db.read_bytes()
    (tmp_path / "c.faiss").write_bytes(b"mine\n")
    assert "c.faiss:" in one_line(build(tmp_path, db, "--no-dense"))
    assert (tmp_path / "c.faiss").read_bytes() == b"mine\n" and db.read_bytes() == kb


def test_from_db_refuses_before_it_copies(tmp_path: Path) -> None:
    source = tmp_path / "source.db"
    assert build(tmp_path, source, "--no-dense").returncode == 0
    (tmp_path / "copy.faiss").write_bytes(b"mine\n")
    line = one_line(run("-m", "retrieval.build", "--from-db", source, "--db", tmp_path / "copy.db", "--no-progress"))
    assert "copy.faiss:" in line and not (tmp_path / "copy.db").exists()


def test_a_builds_own_stale_index_is_still_removed(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Control (pass 48): an index whose manifest a build wrote, for other text, goes; a manifest alone too."""
    import logging

    from retrieval import dense
    from retrieval.build import build as build_kb
    from retrieval.sources import Document

    db = tmp_path / "kb.db"
    build_kb(db, [Document("Paris", "Paris is the capital of France.")], progress=False, dense_index=False)
    index, manifest = dense.index_paths(db)
    fields = dict(model="m", dim=4, normalize=True, metric="inner_product", index_type="Flat", count=9, max_id=9)
    dense.Manifest(**fields, checksum="0", faiss_version="1", built_at=0.0).write(manifest)
    index.write_bytes(b"an earlier build's index")
    with caplog.at_level(logging.WARNING, logger="retrieval.build"):
        build_kb(db, [Document("Lyon", "Lyon is in France.")], progress=False, dense_index=False, replace=True)
    assert not index.exists() and not manifest.exists() and "was removed" in caplog.text
    dense.Manifest(**fields, checksum="0", faiss_version="1", built_at=0.0).write(manifest)
    build_kb(db, [Document("Nice", "Nice is in France.")], progress=False, dense_index=False, replace=True)
    assert not manifest.exists()


# J5 ------------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A LoRA adapter on the tiny model whose B is not zero: merged, it changes the base's weights."""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    from knowrl.models import resolve_model_path

    base = AutoModelForCausalLM.from_pretrained(resolve_model_path("tiny"))
    lora = LoraConfig(r=4, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM", init_lora_weights=False)
    folder = tmp_path_factory.mktemp("run") / "final"
    get_peft_model(base, lora).save_pretrained(folder)
    return folder


def test_merge_never_writes_into_a_built_in_bases_folder(tmp_path: Path, adapter: Path) -> None:
    """J5: exit 0 and tiny's own weights rewritten; now one line naming --out, the base byte-identical. Inside it
    and around it are refused as a local base's folder is."""
    from knowrl.models import built_in_folder

    base = built_in_folder("tiny")
    assert base is not None and (base / "config.json").is_file()  # built by the fixture
    before = tree(base)
    for out in (base, base / "merged", base.parent):
        line = one_line(run("-m", "knowrl.merge", "--base", "tiny", "--adapter", adapter, "--out", out, "--overwrite"))
        assert line.startswith(f"error: --out {out} ") and f"--base folder tiny ({base})" in line
    assert tree(base) == before and not (base / "merged").exists()


def test_merge_never_writes_into_a_hub_cache_snapshot(tmp_path: Path, adapter: Path) -> None:
    """A hub id's cached snapshot links into its blobs: a merge there would write the blobs."""
    snapshot = tmp_path / "hub" / "models--someone--base" / "snapshots" / "0123"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text("{}")
    env = dict(ENV, HF_HUB_CACHE=str(tmp_path / "hub"))
    done = run("-m", "knowrl.merge", "--base", "someone/base", "--adapter", adapter, "--out", snapshot, "--overwrite",
               env=env)  # fmt: skip
    assert "--base folder someone/base" in one_line(done) and (snapshot / "config.json").read_text() == "{}"


def test_model_folder_resolves_without_building(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from knowrl.model_folder import model_folder, output_model_problem

    monkeypatch.setenv("KNOWRL_CACHE_DIR", str(tmp_path / "cache"))
    assert model_folder("tiny", 3) == tmp_path / "cache" / "models" / "tiny-3"
    assert not (tmp_path / "cache").exists()  # named, not built
    assert model_folder("nobody/not-downloaded") is None and model_folder(str(tmp_path)) == tmp_path
    inside = tmp_path / "cache" / "models" / "tiny-0" / "run"
    assert "is (or is inside)" in output_model_problem(inside, "output_dir", [("model.name_or_path", "tiny")], 0, False)
    assert output_model_problem(tmp_path / "cache", "output_dir", [("k", "tiny")], 0, holds=False) is None
    assert output_model_problem(tmp_path / "elsewhere", "--out", [("--base", "tiny"), ("--adapter", None)]) is None


@pytest.mark.parametrize("job", ["knowrl.train", "knowrl.sft"])
def test_a_run_never_trains_into_its_built_in_bases_folder(job: str, adapter: Path, capsys) -> None:
    """The same hole in ``output_dir``: a run trained into tiny's cache folder; now refused before anything."""
    import importlib

    from knowrl.models import built_in_folder

    base = built_in_folder("tiny")
    assert base is not None
    before = tree(base)
    sets = ["model.name_or_path=tiny", f"output_dir={base}", "grpo.max_steps=1"]
    argv = ["--config", str(ROOT / "configs" / "smoke.yaml"), *(f"--set={s}" for s in sets)]
    assert importlib.import_module(job).main(argv) == 2
    err = capsys.readouterr().err
    assert f"error: output_dir {base} is (or is inside) the model.name_or_path folder tiny" in err
    assert tree(base) == before


def test_evaluate_never_reports_into_its_models_folder(adapter: Path) -> None:
    from knowrl.models import built_in_folder

    base = built_in_folder("tiny")
    assert base is not None
    before = tree(base)
    for out, flag in ((base, "--model folder tiny"), (adapter, f"--adapter folder {adapter}")):
        done = run("-m", "knowrl.evaluate", "--model", "tiny", "--adapter", adapter, "--data", DATA, "--out", out,
                   "--max-samples", "1", "--max-new-tokens", "2")  # fmt: skip
        assert flag in one_line(done)
    assert tree(base) == before and not (adapter / "report.json").exists()
