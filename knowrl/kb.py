"""The reward's knowledge base for a run: built from ``kb.build_from`` when it does not exist yet or that file
changed since it was built, then checked (whatever its kind) before the first step."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

from knowrl.config import ConfigError, TrainConfig
from reward_engine.knowledge import kb_path

log = logging.getLogger(__name__)


def ensure_kb(config: TrainConfig) -> None:
    """Build the reward's KB when it is missing, or again, as exactly the file's documents, when ``kb.build_from``
    changed since the KB was built from it (a run trained against the old text: hostile pass 54). Idempotent; DDP
    ranks wait for the one that builds."""
    reward = config.reward
    if reward is None or not reward.factuality.enabled or reward.factuality.source:
        return  # nothing to build: no facts, or a source the user runs
    from filelock import FileLock

    path = kb_path(reward.factuality.kb_path) or Path("")
    dense_index = reward.factuality.retrieval_mode != "bm25"  # BM25-only runs skip minutes of embedding
    given = config.kb.build_from
    stamp = _input_stamp(Path(given)) if given and given != "demo" else None
    if _current(path, dense_index, stamp) or (path.exists() and not given):
        return  # built (from this input), or a KB the user gave as-is (e.g. a documents-only FActScore DB)
    source = given or ("demo" if reward.factuality.kb_path == "demo" else None)
    if source is None:
        raise ConfigError(
            f"knowledge base {path} does not exist; build it (python -m retrieval.build) or set kb.build_from"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path) + ".lock"):  # DDP ranks start together: one builds, the others wait
        if _current(path, dense_index, stamp):
            return
        again = stamp is not None and path.exists()
        log.info(
            "%s the knowledge base %s from %s%s",
            "rebuilding" if again else "building",
            path,
            source,
            " (it changed since the KB was built, or the KB does not say what it was built from)"
            if again
            else " (once" + ("" if dense_index else "; BM25 only, as retrieval_mode is bm25") + ")",
        )
        build_kb(path, source, dense_index)
        if stamp is not None:
            _record_stamp(path, stamp)


_STAMP_KEY = "build_from_sha256"


def _input_stamp(source: Path) -> str:
    """The build input's content hash (a missing file is the build's to report)."""
    digest = hashlib.sha256()
    try:
        with source.open("rb") as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
    except OSError:
        return ""
    return digest.hexdigest()


def _current(path: Path, dense_index: bool, stamp: str | None) -> bool:
    """Built, and (with a stamp) built from the input whose content hash is ``stamp``."""
    from retrieval.build import is_built
    from retrieval.schema import connect, get_meta

    if not is_built(path, dense_index):
        return False
    if stamp is None:
        return True
    conn = connect(path, readonly=True)
    try:
        return get_meta(conn).get(_STAMP_KEY) == stamp
    finally:
        conn.close()


def _record_stamp(path: Path, stamp: str) -> None:
    from retrieval.schema import connect, set_meta

    conn = connect(path)
    try:
        with conn:
            set_meta(conn, _STAMP_KEY, stamp)
    finally:
        conn.close()


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
