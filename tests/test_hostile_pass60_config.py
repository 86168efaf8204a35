"""Hostile pass 60's config, fingerprint and cache-key findings, each failing at ddd6803 and shown on real files
(the score job and the train CLI as subprocesses where the finding was about what a user sees).

- J3: a custom source with no version kept its evidence in ``factuality.cache_dir`` under one key whatever corpus
  it read: switching corpora served the other corpus's passages. Now such a source is memoised only, and a
  source whose version never changes has its evidence keyed by the stats of its files too.
- J4: the job fingerprint left out ``factuality.source_options``: a rerun on another corpus kept the old rows as
  ``already_scored``; a corpus file edited under a source whose version never changes did too. The options are
  in the fingerprint and the stats of the files they name in the knowledge version; ``run_inputs`` lists them.
- J8: ``lora.target_modules: [q_proj, v_prj]`` trained q_proj alone, silently.
- J10: ``grpo.push_to_hub: true`` offline or without a token failed after the model loaded.
- ``reward.factuality.cache_dir`` that is a file failed at the first step's reward, after the model loaded.
- ``knowrl.report_to`` imported transformers' integrations on every config load, with nothing to check.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import one_error_line, run_job
from tests.test_jobs_keyed_by_content import DOCS, REPO, ROWS, SOURCE, jsonl, score

SMOKE = REPO / "configs" / "smoke.yaml"
# SOURCE's JsonlSource with no version (``KnowledgeSource.version`` None: nothing says what it holds)
NO_VERSION = SOURCE.replace('version = property(lambda self: "jsonl-1")', "version = property(lambda self: None)")
OTHER = [{"title": "Paris", "text": "Paris is a small village in Texas known for its replica of a tower."}]


def _source_module(tmp_path: Path, name: str, text: str) -> dict[str, str]:
    """``text`` written as module ``name`` in ``tmp_path``; the env a subprocess imports it with."""
    (tmp_path / f"{name}.py").write_text(text)
    return {"PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO), os.environ.get("PYTHONPATH", "")])}


# -- J3: a versionless source's evidence is never kept on disk -----------------------------------------------------
async def test_a_source_without_a_version_never_serves_another_corpus_evidence(tmp_path, monkeypatch):
    from reward_engine.stages.evidence_cache import EvidenceCache
    from reward_engine.stages.retrieve import EvidenceRetriever

    _source_module(tmp_path, "nover_source", NO_VERSION)
    monkeypatch.syspath_prepend(str(tmp_path))
    from nover_source import JsonlSource

    first = JsonlSource(jsonl(tmp_path / "a.jsonl", DOCS))
    second = JsonlSource(jsonl(tmp_path / "b.jsonl", OTHER))
    cache = EvidenceCache(str(tmp_path / "cache"))
    query = "When was the Eiffel Tower completed?"
    found = await EvidenceRetriever(first, mode="bm25", cache=cache).pool(query, "Paris", k=1)
    assert "1889" in found[0].text
    cache.flush()
    again = EvidenceRetriever(second, mode="bm25", cache=EvidenceCache(str(tmp_path / "cache")))
    got = await again.pool(query, "Paris", k=1)
    assert got[0].text == OTHER[0]["text"]  # looked up in its own corpus, not served from the first's


async def test_a_versioned_source_on_another_corpus_file_gets_its_own_evidence(tmp_path, monkeypatch):
    """SOURCE says version 'jsonl-1' whatever file it reads: the engine keys its evidence by the file too."""
    from reward_engine.config import parse_reward_config
    from reward_engine.engine import RewardEngine

    _source_module(tmp_path, "ver_source", SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    jsonl(tmp_path / "a.jsonl", DOCS), jsonl(tmp_path / "b.jsonl", OTHER)
    query = "When was the Eiffel Tower completed?"

    async def evidence(corpus: str) -> str:
        options = {"source": "ver_source:JsonlSource", "source_options": {"path": corpus}, "retrieval_mode": "bm25"}
        stages = {"grader": "offline", "decomposer": "offline", "verifier": "offline"}
        data = {**stages, "factuality": {**options, "cache_dir": "cache"}}
        async with RewardEngine(parse_reward_config(data, "reward.yaml", tmp_path)) as engine:
            retriever = await engine.ensure_retriever()
            found = await retriever.pool(query, "Paris", k=1)
            retriever.cache.flush()
        return found[0].text

    assert "1889" in await evidence("a.jsonl")
    assert await evidence("b.jsonl") == OTHER[0]["text"]


# -- J4: the options and the files they name key the job's rows ------------------------------------------------------
def test_the_fingerprint_holds_a_custom_sources_options(tmp_path):
    from reward_engine.config import parse_reward_config

    def fingerprint(options: dict) -> str:
        data = {"grader": "offline", "factuality": {"source": "my:Source", "source_options": options}}
        return parse_reward_config(data, "reward.yaml", tmp_path).fingerprint()

    assert fingerprint({"path": "a.jsonl"}) != fingerprint({"path": "b.jsonl"})
    assert fingerprint({"path": "a.jsonl"}) == fingerprint({"path": str(tmp_path / "a.jsonl")})  # the same file


@pytest.mark.parametrize("versioned", [True, False])
def test_a_rerun_on_another_or_an_edited_corpus_keeps_no_old_row(tmp_path, versioned):
    env = _source_module(tmp_path, "my_source", SOURCE if versioned else NO_VERSION)
    first, other = jsonl(tmp_path / "a.jsonl", DOCS), jsonl(tmp_path / "b.jsonl", OTHER)
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"

    def config(corpus: Path) -> Path:
        factuality = {"source": "my_source:JsonlSource", "source_options": {"path": corpus.name}}
        path = tmp_path / "reward.yaml"
        path.write_text(json.dumps({"grader": "offline", "factuality": {**factuality, "retrieval_mode": "bm25"}}))
        return path

    done = score(src, out, config(first), env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    switched = score(src, out, config(other), env=env)  # kept 3 rows as already_scored at ddd6803
    assert switched.returncode == 2 and "--overwrite" in switched.stderr, switched.stdout + switched.stderr
    jsonl(first, OTHER)  # the same path, other text: the source says the same version (or none)
    edited = score(src, out, config(first), env=env)
    assert edited.returncode == 2 and "another version of the knowledge base" in edited.stderr, edited.stderr


def test_run_inputs_lists_a_custom_sources_files(tmp_path):
    from knowrl.config import load_train_config
    from knowrl.output_dir import run_inputs

    corpus = jsonl(tmp_path / "corpus.jsonl", DOCS)
    sets = ["reward.factuality.source=my_source:JsonlSource", f"reward.factuality.source_options={{corpus: {corpus}}}"]
    config = load_train_config(SMOKE, sets)
    assert ("reward.factuality.source_options", str(corpus)) in run_inputs(config)


# -- J8: a typo in lora.target_modules -------------------------------------------------------------------------------
def _model():
    import torch

    class Attention(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.q_proj, self.v_proj = torch.nn.Linear(4, 4), torch.nn.Linear(4, 4)

    return Attention()


def test_a_target_module_the_model_lacks_is_one_error_naming_it():
    from knowrl.config import ConfigError, LoraConfig
    from knowrl.models import lora_targets

    with pytest.raises(ConfigError, match=r"lora.target_modules: no module named 'v_prj' .*did you mean 'v_proj'"):
        lora_targets(LoraConfig(target_modules=["q_proj", "v_prj"]), _model(), "tiny")
    assert lora_targets(LoraConfig(target_modules=["v_proj", "q_proj"]), _model(), "tiny") == ["v_proj", "q_proj"]
    assert lora_targets(LoraConfig(), _model(), "tiny") == ["q_proj", "v_proj"]  # the default: what it has


def test_train_with_a_typo_in_target_modules_is_one_line_before_any_step(tmp_path):
    done = _train(tmp_path, "lora.target_modules=[q_proj, v_prj]")
    line = one_error_line(done, "lora.target_modules")
    assert "'v_prj'" in line and not list((tmp_path / "run").glob("checkpoint-*"))


# -- J10 and the cache folders: before the model loads ---------------------------------------------------------------
def _train(tmp_path: Path, *sets: str) -> subprocess.CompletedProcess:
    out = f"output_dir={tmp_path / 'run'}"
    return run_job("-m", "knowrl.train", "--config", str(SMOKE), "--set", out, *[a for s in sets for a in ("--set", s)])


def test_push_to_hub_offline_is_one_line_before_the_model_loads(tmp_path):
    done = _train(tmp_path, "grpo.push_to_hub=true", "grpo.hub_model_id=me/run")
    assert "HF_HUB_OFFLINE" in one_error_line(done, "grpo.push_to_hub")
    assert not (tmp_path / "run").exists()


def test_push_to_hub_without_a_token_or_a_valid_repo_is_refused(tmp_path, monkeypatch):
    from knowrl.config import ConfigError
    from knowrl.start_checks import check_push_to_hub

    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr("huggingface_hub.get_token", lambda: None)  # no saved login on this machine either
    with pytest.raises(ConfigError, match="grpo.push_to_hub: no Hugging Face token"):
        check_push_to_hub({"push_to_hub": True}, "grpo")
    with pytest.raises(ConfigError, match="sft.push_to_hub: sft.hub_model_id 'me/a b' is no repo id"):
        check_push_to_hub({"push_to_hub": True, "hub_token": "x", "hub_model_id": "me/a b"}, "sft")
    check_push_to_hub({"push_to_hub": False}, "grpo")


def test_a_cache_dir_that_is_a_file_is_one_line_before_the_model_loads(tmp_path):
    taken = tmp_path / "notes.txt"
    taken.write_text("mine\n")
    done = _train(tmp_path, f"reward.factuality.cache_dir={taken}")
    one_error_line(done, "reward.factuality.cache_dir")
    assert taken.read_text() == "mine\n" and not (tmp_path / "run").exists()


# -- report_to: nothing named, nothing imported ----------------------------------------------------------------------
@pytest.mark.parametrize("values", [[], ["none"]])
def test_report_to_with_nothing_named_imports_no_integration(values):
    code = (
        "import sys; from knowrl.report_to import report_to_problem; "
        f"assert report_to_problem({values!r}) is None; print('transformers' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "False", done.stderr[-2000:]
