"""Hostile pass 60's config, fingerprint and cache-key findings, each failing at ddd6803 and shown on real files
(the score job and the train CLI as subprocesses where the finding was about what a user sees).

- J3: a custom source with no version kept its evidence in ``factuality.cache_dir`` under one key whatever corpus
  it read: switching corpora served the other corpus's passages. Now such a source is memoised only.
- J4: the job fingerprint left out ``factuality.source_options``: a rerun on another corpus kept the old rows as
  ``already_scored``; a corpus file edited under a source whose version never changes did too. The options are
  in the fingerprint and the stats of the files they name in the knowledge version; ``run_inputs`` lists them.
- J8: ``lora.target_modules: [q_proj, v_prj]`` trained q_proj alone, silently.
- J10: ``grpo.push_to_hub: true`` offline or without a token failed after the model loaded.
- ``reward.factuality.cache_dir`` that is a file failed at the first step's reward, after the model loaded.
- ``knowrl.report_to`` imported transformers' integrations on every config load, with nothing to check.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_jobs_keyed_by_content import DOCS, REPO, SOURCE, jsonl

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


# -- report_to: nothing named, nothing imported ----------------------------------------------------------------------
@pytest.mark.parametrize("values", [[], ["none"]])
def test_report_to_with_nothing_named_imports_no_integration(values):
    code = (
        "import sys; from knowrl.report_to import report_to_problem; "
        f"assert report_to_problem({values!r}) is None; print('transformers' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "False", done.stderr[-2000:]
