"""Hostile pass 59 (issue #74), jobs J4-J6: what a writer deleted or wrote over, and a rerun that kept stale rows.

J4: ``retrieval.build --no-dense`` deleted a user's ``papers.faiss`` (no manifest) beside a new KB, blaming "the KB's
old text"; a dense build replaced one; a lone foreign ``papers.faiss.json`` went too. Now a build touches only index
files its manifest marks as a build's, and refuses anything else up front, naming it (``retrieval/build.py``).
J5: ``knowrl.merge --base tiny --out <tiny's cache folder> --overwrite`` merged into the built-in base, exit 0; a
model id was never resolved to its folder. Now every writer given a model (merge, train, sft, evaluate, task_eval)
refuses an output in the folder that model loads from (``knowrl/model_folder.py``).
J6: a score rerun after a plugin's helper module changed kept the old rows, exit 0: the fingerprint hashed the named
module's file alone. Now it covers the plugin's package and the modules beside it that it imports
(``reward_engine/plugin_code.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

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
        build_kb(
            db,
            [Document("Lyon", "Lyon is in France.")],
            progress=False,
            dense_index=False,
            replace=True,
            overwrite=True,
        )
    assert not index.exists() and not manifest.exists() and "was removed" in caplog.text
    dense.Manifest(**fields, checksum="0", faiss_version="1", built_at=0.0).write(manifest)
    build_kb(
        db, [Document("Nice", "Nice is in France.")], progress=False, dense_index=False, replace=True, overwrite=True
    )
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


# J6 ------------------------------------------------------------------------------------------------------------

STAGES = """from reward_engine.labels import Label
from reward_engine.stages.llm_stage import StageOutput
from reward_engine.stages.registry import register

from mypl.logic import LABEL


class _Grader:
    async def grade(self, question, gold, answer):
        return StageOutput(Label[LABEL])


@register("grader", "pass59-grader")
def _factory(ctx):
    return _Grader()
"""


def _plugin(folder: Path) -> Path:
    package = folder / "mypl"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "stages.py").write_text(STAGES)
    (package / "logic.py").write_text('LABEL = "CORRECT"\n')
    return package


def test_a_score_rerun_after_a_plugin_helper_changed_is_refused(tmp_path: Path) -> None:
    """J6: the second run kept [3.0, 3.0], exit 0; now it is another job's output: one line saying what changed."""
    package = _plugin(tmp_path / "plug")
    config = tmp_path / "reward.json"
    plugin = {"preset": "knowrl", "grader": "pass59-grader", "plugins": ["mypl.stages"]}
    config.write_text(json.dumps({**plugin, "factuality": {"enabled": False}}))
    completion = "<think>\nIt is Paris.\n</think>\n<answer>\nParis\n</answer>"
    rows = [{"id": str(i), "question": "What is the capital of France?", "answers": ["Paris"], "completion": completion}
            for i in range(2)]  # fmt: skip
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    env = dict(ENV, PYTHONPATH=f"{ROOT}{os.pathsep}{tmp_path / 'plug'}")
    argv = ["-m", "reward_engine.score", "--input", tmp_path / "in.jsonl", "--output", out, "--config", config]
    first = run(*argv, "--no-progress", env=env)
    assert first.returncode == 0, first.stderr[-2000:]
    assert [json.loads(x)["reward"] for x in out.read_text().splitlines()] == [3.0, 3.0]
    kept = out.read_bytes()
    (package / "logic.py").write_text('LABEL = "INCORRECT"\n')
    line = one_line(run(*argv, "--no-progress", env=env))
    assert "other settings" in line and "a plugin's code" in line and "moved or copied" not in line
    assert out.read_bytes() == kept
    rescored = run(*argv, "--no-progress", "--overwrite", env=env)
    assert rescored.returncode == 0 and [json.loads(x)["reward"] for x in out.read_text().splitlines()] == [0.0, 0.0]


def _fingerprint(plugins: list[str]) -> str:
    from reward_engine.config import parse_reward_config

    return parse_reward_config({"plugins": plugins, "factuality": {"enabled": False}}).fingerprint()


@pytest.fixture
def syspath(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path for the plugins a test writes; what they import and register is gone afterwards."""
    from reward_engine.stages import registry

    folder = tmp_path / "plug"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    for name in [m for m in sys.modules if m.split(".")[0] in ("mypl", "pk59", "single59", "helper59")]:
        del sys.modules[name]
    registry._FACTORIES["grader"].pop("pass59-grader", None)


def test_the_fingerprint_covers_a_plugins_package(syspath: Path) -> None:
    package = _plugin(syspath)
    before = _fingerprint(["mypl.stages"])
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "logic.cpython-311.pyc").write_bytes(b"compiled")
    (syspath / "unrelated.py").write_text("X = 1\n")  # beside it, but never imported
    assert _fingerprint(["mypl.stages"]) == before
    (package / "logic.py").write_text('LABEL = "INCORRECT"\n')
    assert _fingerprint(["mypl.stages"]) != before
    (package / "logic.py").write_text('LABEL = "CORRECT"\n')
    assert _fingerprint(["mypl.stages"]) == before  # the content, not when it changed


def test_the_package_form_is_covered(syspath: Path) -> None:
    """Side probe: ``plugins: [pk]`` whose ``__init__`` imports the stage module."""
    package = syspath / "pk59"
    package.mkdir()
    (package / "__init__.py").write_text("from . import stages\n")
    (package / "stages.py").write_text("LABEL = 'CORRECT'\n")
    before = _fingerprint(["pk59"])
    (package / "stages.py").write_text("LABEL = 'INCORRECT'\n")
    assert _fingerprint(["pk59"]) != before


def test_a_single_file_plugin_covers_the_helpers_it_imports_beside_it(syspath: Path) -> None:
    (syspath / "single59.py").write_text("import json, helper59 as h\nfrom helper59 import LABEL\n")
    (syspath / "helper59.py").write_text("LABEL = 'CORRECT'\n")
    before = _fingerprint(["single59"])
    (syspath / "helper59.py").write_text("LABEL = 'INCORRECT'\n")
    assert _fingerprint(["single59"]) != before


def test_the_plugin_digest_does_not_depend_on_where_the_plugin_lies(tmp_path: Path) -> None:
    from reward_engine.plugin_code import plugin_digest

    digests = []
    for where in ("a", "b"):
        _plugin(tmp_path / where)
        found = subprocess.run(
            [sys.executable, "-c", "import sys; from reward_engine.plugin_code import plugin_digest as d; "
             "print(d(sys.argv[1]))", "mypl.stages"],
            env=dict(ENV, PYTHONPATH=f"{ROOT}{os.pathsep}{tmp_path / where}"), capture_output=True, text=True,
            check=True,
        )  # fmt: skip
        digests.append(found.stdout.strip())
    assert digests[0] == digests[1] != "None"
    assert plugin_digest("no_such_plugin_59") is None
