"""The reward's knowledge base for a run: built from ``kb.build_from`` when it does not exist yet."""

from __future__ import annotations

import logging
from pathlib import Path

from knowrl.config import ConfigError, TrainConfig
from reward_engine.knowledge import kb_path

log = logging.getLogger(__name__)


def ensure_kb(config: TrainConfig) -> None:
    """Build the reward's KB when it is missing (idempotent; DDP ranks wait for the one that builds)."""
    reward = config.reward
    if reward is None or not reward.factuality.enabled or reward.factuality.source:
        return  # nothing to build: no facts, or a source the user runs
    from filelock import FileLock

    from retrieval.build import is_built

    path = kb_path(reward.factuality.kb_path) or Path("")
    dense_index = reward.factuality.retrieval_mode != "bm25"  # BM25-only runs skip minutes of embedding
    if is_built(path, dense_index) or (path.exists() and not config.kb.build_from):
        return  # built, or a KB the user gave as-is (e.g. a documents-only FActScore DB)
    source = config.kb.build_from or ("demo" if reward.factuality.kb_path == "demo" else None)
    if source is None:
        raise ConfigError(
            f"knowledge base {path} does not exist; build it (python -m retrieval.build) or set kb.build_from"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path) + ".lock"):  # DDP ranks start together: one builds, the others wait
        if is_built(path, dense_index):
            return
        log.info(
            "building the knowledge base %s from %s (once%s)",
            path,
            source,
            "" if dense_index else "; BM25 only, as retrieval_mode is bm25",
        )
        build_kb(path, source, dense_index)


def build_kb(path: Path, source: str, dense_index: bool = True) -> None:
    """A KB at ``path`` from a JSON/JSONL of ``{title, text}`` (bad rows skipped), or 'demo'."""
    from retrieval.build import build
    from retrieval.sources import Document, demo_documents, read_documents

    documents = (
        demo_documents()
        if source == "demo"
        else (r for _, r in read_documents(Path(source)) if isinstance(r, Document))
    )
    build(path, documents, dense_index=dense_index)
