"""The reward's knowledge base for a run: built from ``kb.build_from`` when it does not exist yet, then checked
(whatever its kind) before the first step."""

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


def check_reward_knowledge(config: TrainConfig) -> None:
    """The reward's knowledge base or source opened and checked once, before the policy loads and the first step
    (``reward_engine.job.check_knowledge``, the score job's check): a ``factuality.source`` whose factory fails
    with its ``source_options`` (a missing file) or does not serve ``retrieval_mode``, a KB without the index the
    mode needs, is one ``ConfigError`` naming the ``reward.factuality`` key, not an error on every completion.
    Call it after ``ensure_kb``. The source opened here is closed again: the reward engine opens its own on the
    trainer's event loop."""
    if config.reward is None:
        return
    from reward_engine.job import JobCheckError, check_knowledge

    try:
        found = check_knowledge(config.reward)
    except JobCheckError as exc:
        message = str(exc)
        raise ConfigError(f"reward.{message}" if message.startswith("factuality") else f"reward: {message}") from None
    if found.source is not None:
        found.source.close()


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
