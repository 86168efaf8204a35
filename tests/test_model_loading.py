"""Loading models from several threads: once per engine, one at a time per process.

transformers' from_pretrained swaps PreTrainedModel.tie_weights for a no-op on the class while it
builds a model; two loads that overlap can leave the no-op in place for good, and every tied model
loaded afterwards gets an uninitialised output layer (this broke the two-stage pipeline test).
"""

from __future__ import annotations

import contextlib
import threading
import time

import transformers.initialization as hf_init

from reward_engine import knowledge
from reward_engine.config import parse_reward_config
from reward_engine.engine import RewardEngine, Sample
from tests.test_engine import WRONG_FALSE_FACTS, WRONG_TRUE_FACTS


async def test_a_batch_opens_the_knowledge_base_once(kb_path, monkeypatch):
    opened: list[str] = []
    real_open = knowledge.open_kb

    def slow_open(setting):
        opened.append(setting)
        time.sleep(0.3)  # the batch's other samples ask while the first is still opening it
        return real_open(setting)

    monkeypatch.setattr(knowledge, "open_kb", slow_open)
    config = parse_reward_config({"factuality": {"kb_path": str(kb_path)}})
    q = "What is the capital of France?"
    batch = [Sample(q, c, "Paris", "Paris") for c in (WRONG_TRUE_FACTS, WRONG_FALSE_FACTS) * 4]
    async with RewardEngine(config) as engine:
        rewards = await engine.score(batch)
        assert engine._kb is not None
    assert len(opened) == 1
    assert len(rewards) == 8 and all(r.factuality is not None for r in rewards)


def test_model_loads_in_threads_never_overlap(monkeypatch, tmp_path):
    from transformers import AutoModelForCausalLM, PreTrainedModel

    from knowrl.tiny import build_tiny_model
    from retrieval.embedder import Embedder
    from reward_engine.stages.nli import NLIConfig, NLIModel

    real_tie = PreTrainedModel.tie_weights
    inside: list[str] = []
    overlaps: list[tuple[str, ...]] = []
    real_ctx = hf_init.no_tie_weights

    @contextlib.contextmanager
    def watched():
        inside.append(threading.current_thread().name)
        if len(inside) > 1:
            overlaps.append(tuple(inside))
        try:
            with real_ctx():
                time.sleep(0.05)  # widen the window a real overlap needs
                yield
        finally:
            inside.remove(threading.current_thread().name)

    monkeypatch.setattr(hf_init, "no_tie_weights", watched)
    tiny = build_tiny_model(tmp_path / "tiny")
    from judges.tiny_nli import build_tiny_nli

    nli_dir = build_tiny_nli(tmp_path / "nli", ["Paris is the capital of France."])
    loaders = [
        lambda: Embedder().model,
        lambda: Embedder().model,
        lambda: NLIModel(NLIConfig(model=str(nli_dir)))._load(),
    ]
    threads = [threading.Thread(target=f, name=f"loader-{i}") for i, f in enumerate(loaders)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == []
    assert PreTrainedModel.tie_weights is real_tie
    model = AutoModelForCausalLM.from_pretrained(tiny)
    assert model.lm_head.weight is model.model.embed_tokens.weight
