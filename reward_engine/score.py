"""Score a JSONL of model outputs: ``python -m reward_engine.score``.

    python -m reward_engine.score --input OUT.jsonl --output SCORED.jsonl --config configs/reward_offline.yaml

Input rows: ``{"id", "question", "completion", "answers", "title"}`` (``answers`` a string
or list, ``title`` optional). One output row per input row, ``id`` and ``line`` kept, with
``reward`` and every component (``RewardResult``'s keys: ``fact_score`` is already inside ``correctness``,
never to be added to it; null where not computed). A bad line becomes a ``bad_input`` row naming the line and
field; the rest is scored. Re-running with the same output resumes: rows already scored
are kept, rows that timed out or failed are scored again, and the file ends with exactly
one row per input line, in input order. Memory stays flat however many rows there are.

A job is keyed by content: the reward config, the content version of the knowledge base it reads (a KB rebuilt
with other text is another job: its rows are not mixed with the old ones), and for ``--input -`` the content
read from standard input (another stdin is another input, as another file is). What the job needs (the KB and
its index, a custom source, the judges) is checked before the first row. Rows that still fail after the passes
are written; above ``--max-error-share`` of them the exit code says so.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import hashlib
import json
import logging
import math
import os
import stat
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from tqdm.auto import tqdm

from knowrl_io.args import EXIT_TOO_MANY_ERRORS, EXIT_USAGE, MAX_ERROR_SHARE, Parser, interrupted, share
from knowrl_io.job_output import OutputError, own_output, sidecar, write_atomically
from knowrl_io.jsonl import Appender, Row, finite, read_objects, read_rows, rewrite_indexed
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.once import Once
from knowrl_io.paths import input_problem
from knowrl_io.records import CUT_SHORT, InputError, open_input
from knowrl_io.row_index import Span, index_rows
from knowrl_io.threaded import in_daemon_thread
from retrieval.source import KnowledgeSource
from reward_engine import knowledge
from reward_engine.config import RewardEngineConfig, load_reward_config_or_report, warn_training_only
from reward_engine.disk_cache import CacheError
from reward_engine.engine import RewardResult
from reward_engine.job import (
    OPTIONAL,
    REQUIRED,
    RETRY,
    JobCheckError,
    Knowledge,
    ScoreJob,
    check_judges,
    check_knowledge,
    job_fingerprint,
    knowledge_version,
    reads_knowledge,
)
from reward_engine.offline.version import rules_version
from reward_engine.samples import fact_score_of
from reward_engine.source_options import source_option_files

log = logging.getLogger(__name__)

FINAL = {"ok", "cached", "bad_input"}  # statuses that are not recomputed on resume
JOB = "reward_engine.score"


def _output_row(row: Row, result: RewardResult | None, source: Path, settings: str = "") -> dict[str, Any]:
    """One output row; ``scored_with`` is the job's settings hash, so rows say what scored them even where the
    job's record beside the file says otherwise (a file moved over another output: hostile pass 38)."""
    data = row.data or {}
    rid = data.get("id", row.id)
    if isinstance(rid, float) and not math.isfinite(rid):
        rid = str(rid)  # an id written NaN or Infinity stays told apart (null in JSON would not: hostile pass 9)
    out: dict[str, Any] = {"id": rid, "line": row.line, "input_digest": row.digest}
    if settings:
        out["scored_with"] = settings
    if result is None:
        out.update(reward=None, status="bad_input", error=row.error)
        return out
    out["reward"] = result.total
    out.update(result.to_dict())
    if result.status == "bad_input" and result.error:  # found by the engine: name the row too
        out["error"] = f"{source}:{row.line}: {result.error}"
    return out


class _Lines:
    """The input lines seen in this run, one bit each (a billion-line input costs 125 MB, not gigabytes)."""

    def __init__(self) -> None:
        self._bits = bytearray()

    def add(self, line: int) -> None:
        short = (line >> 3) + 1 - len(self._bits)
        if short > 0:
            self._bits.extend(bytes(max(short, len(self._bits))))  # doubling: amortised O(1)
        self._bits[line >> 3] |= 1 << (line & 7)

    def __contains__(self, line: int) -> bool:
        return line >> 3 < len(self._bits) and bool(self._bits[line >> 3] & (1 << (line & 7)))


def _completion_problem(completion: Any) -> str | None:
    """A conversational completion must hold a message (``{"role", "content"}``), not be any list."""
    if isinstance(completion, str):
        return None
    if not any(isinstance(m, dict) and isinstance(m.get("content"), (str, list)) for m in completion):
        return "field 'completion' must be a string or a list of {'role', 'content'} messages"  # content: text or parts
    return None


def _line_count(path: Path) -> int | None:
    """Lines of a regular file, for the progress bar (a pipe is never read twice: no count)."""
    if str(path) == "-" or not path.is_file():
        return None
    with path.open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))


async def score_file(
    input_path: Path,
    output_path: Path,
    config: RewardEngineConfig,
    batch_size: int = 64,
    progress: bool = True,
    kb: KnowledgeSource | None = None,
    concurrency: int = 8,
    passes: int = 3,
    overwrite: bool = False,
    ray_address: str | None = None,
    ray_actors: int = 2,
    knowledge: Knowledge | None = None,
    check_judge: bool = False,
    reads: Sequence[Path] = (),
) -> dict[str, Any]:
    """Score ``input_path`` (``-``: standard input) into ``output_path``; returns the run summary.

    The output is owned (``knowrl_io.job_output``): never the input, never another job's file, never
    two runs at once. Streams: input rows are read as they are scored, up to ``concurrency`` batches
    are in flight (one slow or hung row holds back only its own batch), finished batches are appended
    as they come, and the file is put in input order at the end by byte offsets. Resume is keyed by
    content: a row is kept only when the input row at its line has the digest it was scored from, the
    output's fingerprint holds the content version of the knowledge base (``job.job_fingerprint``), and
    an output made from standard input is resumed only from the same content (``_check_same_stdin``). A
    batch's rows that time out or fail (judge errors, breaker open) are scored again, up to ``passes``
    times in all, after the breaker's cool-down.

    ``reads``: other files the job reads and must never write over (its config file); the knowledge base's
    files are added here. ``knowledge``: what ``job.check_knowledge`` found (checked here when neither it nor
    ``kb`` is given);
    ``check_judge``: check that the judges accept a connection before anything is written. Raises
    ``JobCheckError``, ``OutputError``, ``InputError`` or ``CacheError`` before the first row.
    """
    started = time.perf_counter()
    if kb is not None:
        kb_version = knowledge_version(kb, _options(config)) if reads_knowledge(config) else None
    else:
        knowledge = knowledge if knowledge is not None else check_knowledge(config)
        kb_version = knowledge.version
    if check_judge:
        await check_judges(config)
    settings = job_fingerprint(config, kb_version)
    _adopt_a_record_keyed_by_path(output_path, config, kb_version, settings)
    _check_same_knowledge(output_path, config, kb_version, settings, overwrite)
    _check_same_rules(output_path, settings, overwrite)
    _check_rows_scored_with(output_path, settings, overwrite)
    job = ScoreJob(config, kb, batch_size, concurrency, passes, ray_address, ray_actors)
    stdin = _read_once(input_path)  # standard input or a pipe (``<(cmd)``): its path does not say what it holds
    before = _record(output_path) if stdin and not overwrite else {}
    if not stdin and not overwrite:
        _check_not_emptied(input_path, output_path)
    with own_output(output_path, input_path, JOB, settings, overwrite, [*reads, *knowledge_files(config)]):
        record = {**_record(output_path), "config": config.fingerprint(), "knowledge": kb_version}
        record["rules"] = rules_version()
        write_atomically(sidecar(output_path), json.dumps(record).encode())
        spool: Path | None = None
        try:
            if stdin and output_path.exists() and output_path.stat().st_size:
                # off the loop in a daemon thread: an interrupt while the pipe is idle ends the job at once
                spool = await _off_loop(_spool_stdin, input_path, output_path)
                problem = await _off_loop(
                    _check_same_stdin, spool, output_path, before.get("stdin_digest"), str(input_path)
                )
                if problem:
                    write_atomically(sidecar(output_path), json.dumps(before).encode())  # as it was
                    raise OutputError(problem)
            done = index_rows(output_path, FINAL)
            rewrite_indexed(output_path, done)  # drop torn lines and rows to redo
            read = _InputDigest()
            summary = await _score_rows(
                job, spool or input_path, output_path, done, progress, started, read, input_path, settings
            )
            if stdin:  # what this output was made from: another stdin is refused next time
                record["stdin_digest"] = read.hexdigest()
                write_atomically(sidecar(output_path), json.dumps(record).encode())
            now = _knowledge_now(config, kb) if kb_version is not None else None
            if now != kb_version:  # rebuilt under the job: its rows mix evidence from two KBs (hostile pass 47)
                summary["knowledge_changed"] = {"start": kb_version, "end": now}
            return summary
        finally:
            if spool is not None:
                spool.unlink(missing_ok=True)


def _knowledge_now(config: RewardEngineConfig, kb: Any) -> str | None:
    """The content version of the knowledge the job reads, read again at its end."""
    if kb is not None:
        return knowledge_version(kb, _options(config))
    try:
        return check_knowledge(config, retrieves=False).version
    except JobCheckError:
        return None  # gone or broken since the start: changed all the same


def _options(config: RewardEngineConfig) -> dict[str, Any] | None:
    """A custom source's options: the files they name are part of its version (``job.knowledge_version``)."""
    return config.factuality.source_options if config.factuality.source else None


def knowledge_files(config: RewardEngineConfig) -> list[Path]:
    """The knowledge base's files (the database, its FAISS index and manifest), a JSONL source given as a path and
    the judge templates: inputs of the job, never its output."""
    from retrieval.dense import index_paths
    from reward_engine.knowledge import kb_path

    db = kb_path(config.factuality.kb_path)
    found = [db, *index_paths(db)] if db is not None else []
    source = config.factuality.source
    if source and ":" not in source:  # a file path, not 'package.module:Factory' or a URL
        found.append(Path(source))
    if source:  # a custom source's files: "--output docs.jsonl --overwrite" replaced its corpus (audit 59 H8)
        found += source_option_files(config.factuality.source_options)
    # the judge templates it reads: "--output tpl.txt --overwrite" replaced the grader template (hostile pass 54)
    prompts = config.prompts
    found += [Path(p) for p in (prompts.grader, prompts.decompose, prompts.verify, prompts.fused) if p]
    return found


def _record(output_path: Path) -> dict[str, Any]:
    """The output's sidecar record (``knowrl_io.job_output``), or {} when there is none to read."""
    try:
        found = json.loads(sidecar(output_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _adopt_a_record_keyed_by_path(
    output_path: Path, config: RewardEngineConfig, kb_version: str | None, settings: str
) -> None:
    """An output recorded before the KB's path left the fingerprint, under this config and KB content, is this
    job's: its record takes today's fingerprint, so the rows resume (and a KB moved since resumes too)."""
    record = _record(output_path)
    if record.get("job") != JOB or record.get("settings") in (None, settings):
        return
    if record["settings"] == job_fingerprint(config, kb_version, with_kb_path=True):
        record |= {"settings": settings, "config": config.fingerprint()}
        write_atomically(sidecar(output_path), json.dumps(record).encode())


def _check_same_knowledge(
    output_path: Path, config: RewardEngineConfig, kb_version: str | None, settings: str, overwrite: bool
) -> None:
    """An output scored under this reward config against other knowledge (a KB rebuilt with other text) is
    refused with a line that says so (the fingerprint check would blame the config)."""
    try:
        if overwrite or not output_path.is_file() or not output_path.stat().st_size:
            return
    except OSError:  # a name too long, a folder that cannot be read: own_output tells it
        return
    record = _record(output_path)
    if record.get("job") != JOB or record.get("settings") == settings:
        return
    where = config.factuality.source or config.factuality.kb_path
    if (
        "config" not in record
        and kb_version is not None
        and record.get("settings")
        in (
            config.fingerprint(),
            config.fingerprint(with_kb_path=True),
        )
    ):
        raise OutputError(
            f"--output {output_path} was scored before jobs were keyed by the knowledge base's content (no version "
            f"of {where} recorded), so the KB may have changed since. Pass --overwrite to score again, or choose "
            "another --output"
        )
    if (
        record.get("config") in (config.fingerprint(), config.fingerprint(with_kb_path=True))
        and record.get("knowledge") != kb_version
    ):
        raise OutputError(
            f"--output {output_path} was scored against another version of the knowledge base ({where}: content "
            f"{record.get('knowledge')}, now {kb_version}): its rows would mix evidence from two KBs. Pass "
            "--overwrite to score again, or choose another --output"
        )


def _blank(path: Path) -> bool:
    """Nothing but white space (a re-export of "\n": hostile pass 10), read no further than a small file."""
    if not path.is_file() or path.stat().st_size > 4096:
        return False
    return not path.read_bytes().strip()


def _check_not_emptied(input_path: Path, output_path: Path) -> None:
    """A rerun drops the output rows whose input lines are gone; an input emptied since (a truncated copy, a
    failed export) would drop them all (hostile pass 9): refused unless asked."""
    try:
        emptied = _blank(input_path) and output_path.is_file() and output_path.stat().st_size > 0
    except OSError:
        return
    if emptied and _record(output_path).get("job") == JOB:
        raise OutputError(
            f"--input {input_path} is empty and --output {output_path} holds rows scored from it: a rerun would "
            "remove them all. Pass --overwrite to start again, or check the input"
        )


def _check_same_rules(output_path: Path, settings: str, overwrite: bool) -> None:
    """An output scored under the same config by another version of the reward code (``offline.version``: the
    offline rules, which the grade guard and the offline stages read whatever the config, the stages and the reward
    rules) is refused: its rows would mix verdicts
    of two rule sets, and the older may hold a reward hole fixed since."""
    try:
        if overwrite or not output_path.is_file() or not output_path.stat().st_size:
            return
    except OSError:
        return
    record = _record(output_path)
    if record.get("job") != JOB or record.get("settings") != settings or record.get("rules") == rules_version():
        return
    was = f"version {record['rules']}" if record.get("rules") else "a version from before jobs recorded it"
    raise OutputError(
        f"--output {output_path} was scored by other reward code ({was}, now {rules_version()}: the package "
        "changed): its rows would mix two rule sets. Pass --overwrite to score again, or choose another --output"
    )


def _check_rows_scored_with(output_path: Path, settings: str, overwrite: bool) -> None:
    """Rows that say another job's settings scored them are refused, whatever the record beside the file says:
    "mv out.truthrl.jsonl out.knowrl.jsonl" left knowrl's record beside truthrl's rows, and a rerun kept them all as
    knowrl's (hostile pass 38). Rows without the field (older outputs) are read as the record says."""
    try:
        if overwrite or not output_path.is_file() or not output_path.stat().st_size:
            return
        with output_path.open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                if b'"scored_with"' not in raw:
                    continue
                try:
                    theirs = json.loads(raw).get("scored_with")
                except (ValueError, AttributeError, RecursionError):
                    continue
                if isinstance(theirs, str) and theirs != settings:
                    why = (
                        "the reward config, a plugin's code or the reward code changed since."  # rows and record agree
                        if _record(output_path).get("settings") == theirs
                        else "though the job's record beside it is this job's: a file moved or copied over it?"
                    )
                    raise OutputError(
                        f"--output {output_path}:{number} holds a row scored with other settings (config hash "
                        f"{theirs}, now {settings}): {why} Pass --overwrite to score again, or choose another --output"
                    )
    except OSError:
        return


class _InputDigest:
    """A digest of the input's records as read (line and record digest, in order): the content of a stdin."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256(b"input-v1\n")

    def add(self, row: Row) -> None:
        self._hash.update(f"{row.line}:{row.digest}\n".encode())

    def hexdigest(self) -> str:
        return self._hash.hexdigest()[:16]


async def _off_loop(function: Any, *args: Any) -> Any:
    """``function(*args)`` on a daemon thread (``knowrl_io.threaded``: never joined, so Ctrl-C is not held)."""
    return [value async for value in in_daemon_thread((function(*args) for _ in (0,)), name="stdin-spool")][0]


def _read_once(path: Path) -> bool:
    """Standard input, a pipe or a FIFO: read once, and what it holds is known only by reading it."""
    if str(path) == "-":
        return True
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def _spool_stdin(input_path: Path, output_path: Path) -> Path:
    """Standard input (or a pipe) copied to a temporary file beside the output (read whole before anything is
    written: a rerun must know it is the same input before it keeps or drops a row)."""
    fd, name = tempfile.mkstemp(dir=output_path.parent, prefix=output_path.name[:200] + ".stdin.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            source = open_input(input_path)
            try:
                while chunk := source.read(1 << 20):
                    out.write(chunk)
            finally:
                if str(input_path) != "-":
                    source.close()
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return Path(name)


def _check_same_stdin(spool: Path, output_path: Path, recorded: Any, shown: str = "-") -> str | None:
    """Why the standard input (or pipe) now in ``spool`` is not the one ``output_path``'s rows were scored from,
    or None.

    A finished run recorded the digest of its stdin's content: it must be equal. A run that was interrupted
    recorded none: every row already written must have been scored from the row at its line here."""
    read = _InputDigest()
    scored = {line: span.digest for line, span in index_rows(output_path, FINAL | RETRY).items()}
    differ = 0
    for row in read_rows(spool, REQUIRED, OPTIONAL):
        read.add(row)
        if row.line in scored:
            differ += scored.pop(row.line) != row.digest
    differ += len(scored)  # rows of lines this stdin does not have
    if isinstance(recorded, str) and recorded:
        if recorded == read.hexdigest():
            return None
        why = f"content {recorded}, now {read.hexdigest()}"
    elif not differ:
        return None
    else:
        why = f"{differ} of its rows were scored from other input rows"
    return (
        f"--output {output_path} holds rows scored from another {'standard input' if shown == '-' else 'stream'} "
        f"({why}): resuming would replace "
        "them. Pass --overwrite to start over, or choose another --output"
    )


async def _score_rows(
    job: ScoreJob,
    input_path: Path,
    output_path: Path,
    done: dict[int, Span],
    progress: bool,
    started: float,
    read: _InputDigest | None = None,
    shown: Path | None = None,
    settings: str = "",
) -> dict[str, Any]:
    """The rows of ``input_path`` not in ``done`` (the resume state: kept rows by line, with the digest of the
    input row each was scored from) scored by ``job`` and appended to ``output_path``, then put in order.
    ``read`` digests every record read; ``shown``: the input's name in messages (``-`` for a spooled stdin)."""
    shown = shown or input_path
    total = _line_count(input_path) if progress else None
    writer = Appender(output_path)
    seen = _Lines()
    counts = Counter()

    def todo() -> Iterator[Row]:
        for row in read_rows(input_path, REQUIRED, OPTIONAL):
            if row.error and CUT_SHORT in row.error:
                # rows from here on may be missing, not gone: the scores of those lines are kept, and said
                counts["cut_at"] = row.line
                print(f"warning: {row.error}; scores of later lines are kept", file=sys.stderr)
                continue
            seen.add(row.line)
            counts["rows"] += 1
            if read is not None:
                read.add(row)
            if shown != input_path and row.error and row.error.startswith(f"{input_path}:"):
                row.error = f"{shown}:{row.error[len(str(input_path)) + 1 :]}"
            if row.line in done and done[row.line].digest == row.digest:
                counts["kept"] += 1
                continue
            problem = _completion_problem(row.data["completion"]) if row.data is not None else None
            if problem:
                row = Row(row.line, None, f"{shown}:{row.line}: {problem}", row.digest, row.id)
            if row.data is None:
                log.warning("bad input: %s", row.error)
            yield row

    try:
        scorer = job.scorer()
        async with scorer:
            with tqdm(total=total, desc="scoring", unit="row", disable=not progress) as bar:

                async def run(chunk: list[Row]) -> None:
                    by_line = await job.score_rows(scorer, chunk)
                    writer.write([_output_row(r, by_line.get(r.line), shown, settings) for r in chunk])
                    bar.update(len(chunk))

                pending: set[asyncio.Task] = set()
                finished: set[asyncio.Task] = set()
                try:
                    # Read off the loop: a pipe that is slow to give the next line must not stop the batches
                    # already read from being scored and written, nor hold an interrupt until it closes.
                    async for chunk in in_daemon_thread(_batches(todo(), job.batch_size), name="input-reader"):
                        if len(pending) >= job.concurrency:
                            finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                            for task in finished:
                                task.result()
                        pending.add(asyncio.create_task(run(chunk)))
                    for task in asyncio.as_completed(pending):
                        await task
                except BaseException:  # one batch failed (a full disk): the others stop, the first error is told
                    for task in pending:
                        task.cancel()
                    await asyncio.gather(*pending, *finished, return_exceptions=True)  # each error retrieved
                    raise
            stats = await job.stats(scorer)
    finally:
        writer.close()
    # the last row per line wins (a changed input row was scored again); lines this input no longer has go
    cut = counts.pop("cut_at", 0)
    rewrite_indexed(
        output_path,
        index_rows(output_path, FINAL | RETRY),
        lines=lambda line: line in seen or bool(cut and line >= cut),
    )
    counters = Counter(judge_requests=stats.judge_requests, cache_hits=stats.cache_hits, retries=stats.retries)
    counters.update(stats.totals)
    summary = summarize(
        read_objects(output_path), counts["rows"], counts["kept"], counters, time.perf_counter() - started
    )
    summary["judge_replies"] = stats.replies  # per kind of call: parsed first time / after a retry / never
    summary["judge_latency"] = stats.latency  # per kind of call answered by the judge (cache hits excluded)
    # what the span check changed: no_answer / several / refused, and CORRECTs confirmed / ask / overturned
    summary["grade_guard"] = stats.guard
    summary["shared_state_fallbacks"] = stats.shared  # served locally while the shared Redis was away
    if job.ray_address is not None:
        summary["ray"] = {"actors": job.ray_actors, "batches_resent": stats.resent}
    return summary


def _batches(rows: Iterable[Row], size: int) -> Iterator[list[Row]]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def summarize(
    rows: Iterable[dict[str, Any]], total: int, resumed: int, counters: Counter, wall: float
) -> dict[str, Any]:
    """Counts and means over the output rows, read once as a stream."""
    statuses: Counter = Counter()
    labels: Counter = Counter()
    sums: Counter = Counter()
    counts: Counter = Counter()
    keys = ("reward", "format", "correctness", "fact_score")  # fact_score: inside correctness, a mean of its own
    for row in rows:
        statuses[row.get("status")] += 1
        if row.get("label"):
            labels[row["label"]] += 1
        values = {**row, "fact_score": fact_score_of(row)}  # rows resumed from before the rename: "factuality"
        for key in keys:
            if isinstance(values.get(key), (int, float)):
                sums[key] += values[key]
                counts[key] += 1
    return {
        "rows": total,
        "already_scored": resumed,
        "statuses": dict(statuses),
        "labels": dict(labels),
        "mean": {k: round(sums[k] / counts[k], 4) if counts[k] else None for k in keys},
        "judge_requests": counters["judge_requests"],
        "cache_hits": counters["cache_hits"],
        "retries": counters["retries"],
        "speculated": counters["speculated"],
        "speculation_wasted": counters["speculation_wasted"],
        "wall_s": round(wall, 2),
    }


# Exit codes (docs/score-model-outputs.md): 0 done; 2 a usage, config or output error, or something the job needs
# missing (one line on stderr, nothing scored), or an output that could not be written on (a full disk, a file
# size limit: one line, the rows written so far kept for the rerun); 3 no row could be scored (the input held no
# row, or every row failed or was bad input); 4 more than --max-error-share of the rows failed (every row
# written); 130 interrupted (rows kept).
# 5 the knowledge base changed while the job ran (every row written; rows before and after the change were scored
# against different texts).
EXIT_NOTHING_SCORED, EXIT_KNOWLEDGE_CHANGED = 3, 5


def error_share(statuses: dict[str, int]) -> tuple[int, int, float]:
    """(rows that failed: timed out, judge error, breaker open; rows that were scored or failed; their share).
    Bad input is the input's fault, told row by row, and not counted."""
    failed = sum(n for status, n in statuses.items() if status in RETRY)
    tried = failed + sum(n for status, n in statuses.items() if status in ("ok", "cached"))
    return failed, tried, failed / tried if tried else 0.0


def add_ray_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="score on a pool of Ray actors: a cluster's address (auto, ray://host:10001), or none for a local Ray",
    )
    parser.add_argument("--ray-actors", type=int, default=2, help="with --ray: engines (actors) in the pool")


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m reward_engine.score", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--input", type=Path, action=Once, required=True, help="JSONL or JSON array; '-' reads standard input"
    )
    parser.add_argument("--output", type=Path, action=Once, required=True)
    parser.add_argument(
        "--config", type=Path, action=Once, required=True, help="reward config YAML (or a training config)"
    )
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--concurrency", type=int, default=8, help="batches in flight at once")
    parser.add_argument("--passes", type=int, default=3, help="tries per row that times out or fails")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an output this job did not write, or one scored with other settings",
    )
    parser.add_argument(
        "--max-error-share",
        type=share,
        default=MAX_ERROR_SHARE,
        help="exit 4 (after writing every row) when more than this share of the rows still failed after the "
        f"passes (timeout, error, breaker_open; bad input not counted); default {MAX_ERROR_SHARE}, 1 never",
    )
    parser.add_argument("--no-progress", action="store_true")
    add_ray_arguments(parser)
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    problem = input_problem(args.input, "--input")  # a pipe (<(cmd)) is read, a folder says so
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if min(args.batch_size, args.concurrency, args.passes, args.ray_actors) < 1:
        parser.error("--batch-size, --concurrency, --passes and --ray-actors must be at least 1")
    config = load_reward_config_or_report(args.config)
    if config is None or knowledge.report_unusable_factuality(config):
        return EXIT_USAGE
    warn_training_only(config, JOB)
    try:  # the KB or source, and its index for the retrieval mode: one line before anything is scored
        found = check_knowledge(config)
    except JobCheckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    kb = found.source if args.ray is None else None  # a source opened here is this process's; Ray actors open theirs
    if found.source is not None and kb is None:
        found.source.close()
    try:
        summary = asyncio.run(
            score_file(
                args.input,
                args.output,
                config,
                args.batch_size,
                not args.no_progress,
                concurrency=args.concurrency,
                passes=args.passes,
                overwrite=args.overwrite,
                ray_address=args.ray,
                ray_actors=args.ray_actors,
                kb=kb,
                knowledge=found,
                check_judge=not args.ray,  # a cluster's actors may reach judges this machine cannot
                reads=[args.config] if args.config else [],
            )
        )
    except (OutputError, InputError, CacheError, JobCheckError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:  # a full disk, a file size limit (EFBIG): one line, the rows written so far kept
        where = exc.filename or args.output
        full = exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
        fix = "free space (or raise the file size limit)" if full else "fix that"
        print(
            f"error: cannot write {where}: {exc.strerror or exc}; the rows written so far are in {args.output}: "
            f"{fix} and run the same command again to resume",
            file=sys.stderr,
        )
        return EXIT_USAGE
    except KeyboardInterrupt:
        return interrupted(f"the rows written so far are in {args.output}; run the same command again to resume")
    print(json.dumps(finite(summary), indent=2, allow_nan=False))
    scored = sum(n for status, n in summary["statuses"].items() if status in ("ok", "cached"))
    if not summary["rows"]:  # an empty input (or a truncated one) is no success: a pipeline must see it
        print(f"error: no row could be scored: --input {args.input} holds no rows", file=sys.stderr)
        return EXIT_NOTHING_SCORED
    if not scored:
        print("error: no row could be scored (see the statuses above and the rows' 'error')", file=sys.stderr)
        return EXIT_NOTHING_SCORED
    if changed := summary.get("knowledge_changed"):
        print(
            f"error: the knowledge base changed while scoring (content {changed['start']}, now {changed['end']}): "
            f"the rows in {args.output} mix evidence from both; run again with --overwrite to score every row "
            "against the KB as it is now",
            file=sys.stderr,
        )
        return EXIT_KNOWLEDGE_CHANGED
    failed, tried, failed_share = error_share(summary["statuses"])
    if failed_share > args.max_error_share:
        print(
            f"error: {failed} of {tried} rows failed ({failed_share:.0%}: timeout, error or breaker_open), more than "
            f"--max-error-share {args.max_error_share:g}; every row is in {args.output}: run the same command "
            "again to retry the failed ones",
            file=sys.stderr,
        )
        return EXIT_TOO_MANY_ERRORS
    return 0


if __name__ == "__main__":
    sys.exit(main())
