"""The reward's knowledge base for a run: built from ``kb.build_from`` when it does not exist yet or that file
changed since it was built, then checked (whatever its kind) before the first step. A KB built from anything else
is refused, never rebuilt."""

from __future__ import annotations

import logging
from pathlib import Path

from knowrl.config import ConfigError, TrainConfig
from knowrl_io.job_output import same_file
from knowrl_io.paths import input_problem, is_pipe
from retrieval import build_stamp
from reward_engine.knowledge import kb_path

log = logging.getLogger(__name__)
KB_KEY = "reward.factuality.kb_path"


def ensure_kb(config: TrainConfig) -> None:
    """Build the reward's KB when it is missing, or again, as exactly the file's documents, when ``kb.build_from``
    changed since the KB was built from it (a run trained against the old text: hostile pass 54) or that build did
    not finish. A KB built from anything else is refused (``check_kb``), and so is a file with a bad row
    (``check_input``). Idempotent; DDP ranks wait for the one that
    builds. The file is compared by its stat first and hashed only when that differs (``retrieval.build_stamp``), by
    one rank at a time."""
    wanted = _wanted(config)
    if wanted is None:
        return
    path, dense_index, source, input_file = wanted
    if source is None:
        raise ConfigError(
            f"knowledge base {path} does not exist; build it (python -m retrieval.build) or set kb.build_from"
        )
    from retrieval.build import kb_lock

    _refuse_another_kb(path, source, input_file)  # before the lock file: nothing is written beside another's KB
    with kb_lock(path):  # DDP ranks start together: one hashes or builds, the others wait; so does retrieval.build
        if _current(path, dense_index, input_file, source == "demo", hash_it=True):
            return
        _refuse_another_kb(path, source, input_file)  # another config's run may have built it meanwhile
        again = input_file is not None and path.exists()
        log.info(
            "%s the knowledge base %s from %s%s",
            "rebuilding" if again else "building",
            path,
            source,
            " (it changed since the KB was built from it, or that build did not finish)"
            if again
            else " (once" + ("" if dense_index else "; BM25 only, as retrieval_mode is bm25") + ")",
        )
        stamp = build_stamp.take(input_file) if input_file is not None else None  # before the build reads it
        if input_file is not None:
            check_input(input_file)  # read by the rank that builds, as the build will read it
        build_kb(path, source, dense_index, stamp)


def check_kb(config: TrainConfig) -> None:
    """``ensure_kb``'s refusal of a KB built from something else than ``kb.build_from``, alone and cheap (a stat and
    a read of the KB's meta; a hash of the file only for a KB stamped from another path): a job calls it before it
    writes or removes anything (``--overwrite``)."""
    wanted = _wanted(config)
    if wanted is not None and wanted[2] is not None:
        _refuse_another_kb(wanted[0], wanted[2], wanted[3])
        if wanted[3] is not None:
            check_input(wanted[3])  # read whole, but only where a build follows: it reads the file too


def _wanted(config: TrainConfig) -> tuple[Path, bool, str | None, Path | None] | None:
    """The KB a run must build: its path, whether with a dense index, what from (None: nothing given, and it does
    not exist) and the input file; None when there is nothing to build: no facts, a source the user runs, a KB built
    from this input (by its stat), or one given without ``kb.build_from`` (used as it is)."""
    reward = config.reward
    if reward is None or not reward.factuality.enabled or reward.factuality.source:
        return None
    path = kb_path(reward.factuality.kb_path) or Path("")
    dense_index = reward.factuality.retrieval_mode != "bm25"  # BM25-only runs skip minutes of embedding
    given = config.kb.build_from
    input_file = Path(given) if given and given != "demo" else None
    if input_file is not None and same_file(path, input_file):  # read as JSONL, the KB emptied itself (pass 60)
        raise ConfigError(
            f"kb.build_from {input_file} is reward.factuality.kb_path itself: give the JSON/JSONL of {{title, text}} "
            "the KB is built from, or leave kb.build_from unset to use the KB as it is"
        )
    if _current(path, dense_index, input_file, given == "demo", hash_it=False) or (path.exists() and not given):
        return None  # built (from this input, by its stat), or a KB the user gave as-is (e.g. a documents-only DB)
    return path, dense_index, given or ("demo" if reward.factuality.kb_path == "demo" else None), input_file


def check_input(input_file: Path) -> None:
    """A ``ConfigError`` unless ``kb.build_from`` is a file of ``{title, text}`` documents without a bad row. A bad
    row was dropped without a word, and a rebuild then deleted the document it held (hostile pass 60, J6); a
    Markdown file was all bad rows and built an empty KB, exit 0 (J11). A pipe is refused: it is read twice (checked
    and hashed, then built), and the second read finds it empty."""
    from retrieval.sources import BadRow, read_documents

    problem = input_problem(input_file, "kb.build_from")
    if problem is None and is_pipe(input_file):
        problem = f"kb.build_from {input_file} is a pipe; a KB is built from a file (it is read more than once)"
    if problem:
        raise ConfigError(problem)
    bad: list[BadRow] = []
    good = 0
    try:
        for _, row in read_documents(input_file):
            if isinstance(row, BadRow):
                bad.append(row)
            else:
                good += 1
    except OSError as exc:
        raise ConfigError(f"kb.build_from {input_file}: cannot be read ({exc.strerror or exc})") from None
    if bad:
        shown = "; ".join(map(str, bad[:3])) + (f"; and {len(bad) - 3} more" if len(bad) > 3 else "")
        raise ConfigError(
            f"kb.build_from has {len(bad)} bad row(s), whose documents the KB would lack: {shown}; fix or remove "
            "them (retrieval.build --input lists them all)"
        )
    if not good:
        raise ConfigError(f"kb.build_from {input_file}: no documents to build (an empty file or JSON array)")


def _refuse_another_kb(path: Path, source: str, input_file: Path | None) -> None:
    """A ``ConfigError`` unless the KB at ``path`` may be (re)built from ``source``: none yet, or one this project
    built from this input (``retrieval.build.other_input``; a build of it that did not finish counts). Any other
    KB had every document deleted and replaced by ``kb.build_from``'s, before the policy loaded: FActScore's
    ``knowledge_base.db``, a KB built from another file, another config's (hostile pass 59). One that records
    another path but this file's content (a copy of it) is this input's."""
    from retrieval.build import build_source, other_input

    held = other_input(path, build_source(input_file, None if input_file is not None else "demo"))
    if held is None or (input_file is not None and _same_content(path, input_file)):
        return
    rebuild = f"python -m retrieval.build --{'input ' + str(input_file) if input_file else 'preset demo'}"
    raise ConfigError(
        f"reward.factuality.kb_path {path} holds {held}, not a build of kb.build_from {source}, and training would "
        f"replace its documents: set reward.factuality.kb_path to a new file to build there, leave kb.build_from "
        f"unset to use this KB as it is, or replace it on purpose ({rebuild} --db {path} --overwrite)"
    )


def _same_content(path: Path, input_file: Path) -> bool:
    """Whether the KB records a hash of what ``input_file`` holds now (a stamp taken under another path)."""
    sha, _ = build_stamp.recorded(path)
    now = build_stamp.take(input_file) if sha is not None else None
    return now is not None and now.sha256 == sha


def _current(path: Path, dense_index: bool, input_file: Path | None, demo: bool, hash_it: bool) -> bool:
    """Built, and (with an input file) built from that file as it is now: by its stat alone, or with ``hash_it``
    by its content where the stat differs (which refreshes the stamp); with ``demo``, built as the demo KB (a KB
    built from a file was taken as built, and the run trained on the file's KB: hostile pass 60, J5)."""
    from retrieval.build import build_source, is_built, other_input

    if not is_built(path, dense_index):
        return False
    if input_file is None:
        return not demo or other_input(path, build_source(preset="demo")) is None
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


def build_kb(path: Path, source: str, dense_index: bool = True, stamp: build_stamp.Stamp | None = None) -> None:
    """A KB at ``path`` from a JSON/JSONL of ``{title, text}``, or 'demo'. A bad row (``check_input`` refuses them;
    the file may change after) is logged, and the document it may be is kept, as ``retrieval.build`` keeps it.
    ``stamp``: the file's, taken before it is read, recorded with the documents."""
    from retrieval.build import Flags, build, good_documents
    from retrieval.sources import BadRow, demo_documents, read_documents

    bad: list[BadRow] = []
    documents = demo_documents() if source == "demo" else good_documents(read_documents(Path(source)), bad, source)
    try:
        build(
            path,
            documents,
            bad_rows=bad,
            dense_index=dense_index,
            replace=True,  # exactly the input: a removed document goes
            preset="demo" if source == "demo" else None,
            input_path=None if source == "demo" else Path(source),
            overwrite=True,  # ensure_kb refused a KB not built from this input: build() asked for a CLI flag
            flags=Flags(KB_KEY, "kb.build_from"),
            input_stamp=stamp,
        )
    except ValueError as exc:  # not a KB, someone's file where its index goes: one line naming the key
        message = str(exc)
        raise ConfigError(
            message
            if KB_KEY in message
            else f"{KB_KEY} {message}"
            if message.startswith(str(path))
            else f"{KB_KEY} {path}: {message}"
        ) from None
