"""The reward's knowledge base for a run: built from ``kb.build_from`` when it does not exist yet or that file
changed since it was built, then checked (whatever its kind) before the first step."""

from __future__ import annotations

import logging
from pathlib import Path

from knowrl import build_stamp
from knowrl.config import ConfigError, TrainConfig
from reward_engine.knowledge import kb_path

log = logging.getLogger(__name__)


def ensure_kb(config: TrainConfig) -> None:
    """Build the reward's KB when it is missing, or again, as exactly the file's documents, when ``kb.build_from``
    changed since the KB was built from it (a run trained against the old text: hostile pass 54). Idempotent; DDP
    ranks wait for the one that builds. The file is compared by its stat first and hashed only when that differs
    (``knowrl.build_stamp``), by one rank at a time."""
    reward = config.reward
    if reward is None or not reward.factuality.enabled or reward.factuality.source:
        return  # nothing to build: no facts, or a source the user runs
    from filelock import FileLock

    path = kb_path(reward.factuality.kb_path) or Path("")
    dense_index = reward.factuality.retrieval_mode != "bm25"  # BM25-only runs skip minutes of embedding
    given = config.kb.build_from
    input_file = Path(given) if given and given != "demo" else None
    if _current(path, dense_index, input_file, hash_it=False) or (path.exists() and not given):
        return  # built (from this input, by its stat), or a KB the user gave as-is (e.g. a documents-only DB)
    source = given or ("demo" if reward.factuality.kb_path == "demo" else None)
    if source is None:
        raise ConfigError(
            f"knowledge base {path} does not exist; build it (python -m retrieval.build) or set kb.build_from"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path) + ".lock"):  # DDP ranks start together: one hashes or builds, the others wait
        if _current(path, dense_index, input_file, hash_it=True):
            return
        again = input_file is not None and path.exists()
        log.info(
            "%s the knowledge base %s from %s%s",
            "rebuilding" if again else "building",
            path,
            source,
            " (it changed since the KB was built, or the KB does not say what it was built from)"
            if again
            else " (once" + ("" if dense_index else "; BM25 only, as retrieval_mode is bm25") + ")",
        )
        stamp = build_stamp.take(input_file) if input_file is not None else None  # before the build reads it
        build_kb(path, source, dense_index)
        if stamp is not None:
            build_stamp.record(path, stamp)


def _current(path: Path, dense_index: bool, input_file: Path | None, hash_it: bool) -> bool:
    """Built, and (with an input file) built from that file as it is now: by its stat alone, or with ``hash_it``
    by its content where the stat differs (which refreshes the stamp)."""
    from retrieval.build import is_built

    if not is_built(path, dense_index):
        return False
    if input_file is None:
        return True
    if hash_it:
        return build_stamp.unchanged(path, input_file)
    return build_stamp.unchanged_by_stat(path, input_file)


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
    build(
        path, documents, dense_index=dense_index, replace=True, preset="demo" if source == "demo" else None
    )  # exactly the input: a removed document goes
