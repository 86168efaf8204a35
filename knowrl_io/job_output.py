"""An output file a job owns: never its own input, never someone else's file, never two writers.

    with own_output(output, input, job="score", settings=config_hash, overwrite=False) as out:
        ...  # append rows to out; a second run on the same output is refused while this one runs

A sidecar ``OUTPUT.job.json`` records which job wrote the file and with which settings (a
hash, never the settings themselves: they may name secrets' variables or URLs), so a rerun
resumes only its own work; an exclusive lock (``OUTPUT.lock``, via ``filelock``) turns a second
concurrent run into a clear error instead of interleaved rows.

A report a job writes whole (``check_page``: ``python -m reward_engine.inspect``'s HTML page) follows the same
rule with no file beside it: the job recognizes its own page by a mark in the file's head and replaces only that
(inspect only its page of the same ROWS; ``knowrl.evaluate``'s reports carry no mark: an existing one is replaced
only with ``--overwrite``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import stat
import sys
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from filelock import FileLock, Timeout

from knowrl_io.atomic_write import atomic_file as atomic_file  # re-exported: callers import it here
from knowrl_io.atomic_write import through_link, write_atomically
from knowrl_io.records import iter_records
from knowrl_io.row_index import index_rows


class OutputError(Exception):
    """An output the job must not (or cannot) write; the message says why and what to do."""


def sidecar(output: Path) -> Path:
    return output.with_name(output.name + ".job.json")


def lock_path(output: Path) -> Path:
    return output.with_name(output.name + ".lock")


def same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file by any route: a symbolic or hard link, or a path through folders
    that do not exist yet (``sub/../in.jsonl`` while ``sub/`` is missing names ``in.jsonl``: the job makes
    ``sub/`` and would write over the input). ``os.path.realpath`` follows the links of the part that exists and
    takes ``..`` lexically in the rest, which the job creates as plain folders."""
    try:
        if os.path.realpath(a) == os.path.realpath(b):
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, ValueError):  # a name too long, a NUL: the open that follows says so
        return False


def _stdin_is(output: Path) -> bool:
    """Standard input is redirected from the file ``output`` names (the same file: a link counts)."""
    try:
        given, there = os.fstat(0), os.stat(output)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(given.st_mode) and (given.st_dev, given.st_ino) == (there.st_dev, there.st_ino)


def _check_location(
    output: Path,
    sources: Iterable[Path | None],
    writes: str = "the scores",
    keeps_files: bool = True,
    flag: str = "--output",
) -> None:
    """``output`` may be written: not a directory, not a special file, none of ``sources`` (nor a link to one: a
    symbolic or hard link is the same file), in a folder that can be made and written. ``keeps_files``: the job
    keeps its record and lock files beside the output (their names count, and no input may be one of them).
    ``flag``: the option that named the output, for the messages."""
    if keeps_files:
        longest = max(len(os.fsencode(p.name)) for p in (sidecar(output), lock_path(output)))
        if longest > 255:
            raise OutputError(
                f"--output name is too long: {len(os.fsencode(output.name))} bytes, and the job's record and lock "
                f"files add {longest - len(os.fsencode(output.name))} (255 at most); choose a shorter name"
            )
    if str(output) == "-":  # "--output -" wrote a file named "-" (and "-.job.json", "-.lock"), exit 0 (pass 51)
        raise OutputError(f"{flag} - is no file: the job writes a file it can resume from; give a file path")
    for suffix, what in ((".job.json", "record"), (".lock", "lock")):
        owner = output.with_name(output.name[: -len(suffix)]) if output.name.endswith(suffix) else None
        if owner is not None and owner.name and owner.is_file() and sidecar(owner).exists():  # a job's output
            # "--output x.jsonl.job.json --overwrite" replaced job A's record with job B's rows (hostile pass 49)
            raise OutputError(
                f"{flag} {output} is where the job that wrote {owner} keeps its {what} file; choose another {flag}"
            )
    if output.is_dir():
        raise OutputError(f"{flag} {output} is a directory; give a file path")
    if output.exists() and not output.is_file():  # /dev/null, a FIFO: replaced by a file, or a hang
        raise OutputError(f"{flag} {output} is not a regular file (a device or pipe); give a file path")
    for source in sources:
        if source is not None and str(source) == "-":
            if _stdin_is(output):  # "--input - < in.jsonl --output in.jsonl" (hostile pass 8)
                raise OutputError(f"{flag} {output} is the file on standard input; write {writes} to another file")
            continue
        if source is None:
            continue
        if same_file(source, output):
            named = "" if Path(os.path.abspath(source)) == Path(os.path.abspath(output)) else f" {source}"
            raise OutputError(f"{flag} {output} is the input file{named}; write {writes} to another file")
        if not keeps_files:
            continue
        for name, own in (("record", sidecar(output)), ("lock", lock_path(output))):
            if same_file(source, own):
                raise OutputError(
                    f"the input {source} is where this job keeps --output {output}'s {name} file; "
                    "rename the input or choose another --output"
                )
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        through_link(output).parent.mkdir(parents=True, exist_ok=True)  # a link to a file in a folder not made yet
    except OSError as exc:
        raise OutputError(f"cannot create the folder of {flag} {output}: {exc.strerror}") from None
    target = through_link(output)
    if not os.access(target.parent, os.W_OK) or (output.exists() and not os.access(output, os.W_OK)):
        raise OutputError(f"cannot write {flag} {output}: permission denied")


MARK_BYTES = 4096  # where ``check_page`` looks for its job's mark: the head of the file


def check_page(
    output: Path,
    sources: Iterable[Path | None],
    job: str,
    mark: bytes | None,
    writes: str,
    overwrite: bool = False,
    flag: str = "--output",
    replace: str = "pass --overwrite to replace it",
) -> None:
    """An output that ``job`` writes whole in one go (a report), with no record or lock file beside it: checked as
    ``own_output`` checks its file (never an input or a link to one, never a directory, never a FIFO or a device)
    and, unless ``overwrite``, an existing non-empty file must hold ``mark`` in its first 4 KiB: a file this job
    wrote, which it replaces; anything else is someone's file and is refused. ``mark`` None: a job with no rerun
    to replace its own page (``knowrl.evaluate``: each run is another run) refuses every non-empty file.
    ``flag`` names the option in the messages, ``replace`` how to replace a file. Raises ``OutputError``."""
    output = Path(output)
    _check_location(output, sources, writes, keeps_files=False, flag=flag)
    if overwrite:
        return
    head = read_head(output, MARK_BYTES, flag, f"whether {job} wrote it")
    if head and mark is None:
        raise OutputError(
            f"{flag} {output} exists (an earlier run's, or someone's file); {replace}, or choose another {flag}"
        )
    if head and mark not in head:
        raise OutputError(f"{flag} {output} exists and is not a page {job} wrote; {replace}, or choose another {flag}")


def through_own_link(output: Path, mark: bytes) -> bool:
    """Whether to write a page through a link at ``output``: yes where it names a page of ours (or nothing yet), as
    a shell's ">" does; no where it names someone's file, so that ``--overwrite`` replaces the link and keeps the
    file (hostile pass 63: "report.html" linked to a user's notes.txt, ``--overwrite`` wrote the notes over)."""
    if not Path(output).is_symlink():
        return True
    try:
        head = read_head(Path(output), MARK_BYTES, "--output", "whether the link names a page of ours")
    except OutputError:
        return False
    return not head or mark in head


def read_head(output: Path, size: int, flag: str, why: str) -> bytes:
    """The first ``size`` bytes of an existing output, b"" when it does not exist; a device or pipe (one swapped in
    since it was checked: the open never blocks) or an unreadable file is an ``OutputError`` saying ``why`` it was
    read."""
    try:
        fd = os.open(output, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise OutputError(f"cannot read {flag} {output} to see {why}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OutputError(f"{flag} {output} is not a regular file (a device or pipe); give a file path")
        return os.read(fd, size) if info.st_size else b""
    except OSError as exc:
        raise OutputError(f"cannot read {flag} {output} to see {why}: {exc.strerror}") from None
    finally:
        os.close(fd)


def reports_problem(
    folder: Path, names: Iterable[str], sources: Iterable[Path | None], job: str, overwrite: bool, flag: str = "--out"
) -> str | None:
    """Why a job's reports (``names`` in ``folder``) must not be written, or None: each checked as ``check_page``
    checks a report with no mark (an evaluation has no resume: each run is another run, and a second run into one
    folder replaced the first's report), so an existing one is replaced only with ``overwrite``."""
    for name in names:
        try:
            check_page(Path(folder) / name, list(sources), job, None, "the report", overwrite, flag)
        except OutputError as exc:
            return str(exc)
    return None


def check_results(
    args: argparse.Namespace,
    script: str,
    pages: Iterable[tuple[str, Path | None]] | None = None,
    beside: Iterable[Path] = (),
) -> None:
    """The results files a bench script writes whole, checked before the run as a report is (``check_page``):
    ``pages`` as (flag, path), by default its ``--out`` and ``--md``, and the files it writes ``beside`` them (a
    figure, a .json), never one of its inputs (every argument that names an existing file), never a directory,
    FIFO or device; an existing page only when it is this script's own earlier page, whose first lines give the
    script's command ("python bench/judge_set.py ...", "python -m bench.conformance") or say "Written by
    `bench/ci_summary.py`": a rerun replaces its page and nothing else (``bench/ci_summary.py --out`` on its own
    JUnit input replaced it, exit 0: hostile pass 52; the results index, which names every script, was taken for
    ci_summary's page: pass 53). Prints one line and exits 2 when refused."""
    name = Path(script).stem
    given = vars(args)
    if pages is None:
        pages = [("--" + key, given.get(key)) for key in ("out", "md")]
    pages = [(flag, Path(path)) for flag, path in pages if path is not None]
    sources = [path for path in argument_paths(args, ("out", "md")) if path.is_file()]
    try:
        seen: dict[str, str] = {}
        for flag, path in [*pages, *(("--out", Path(p)) for p in beside)]:
            where = os.path.abspath(path)
            if where in seen:  # "--out x --md x": the page replaced the report just written (hostile pass 54)
                raise OutputError(f"{seen[where]} and {flag} name one file, {path}; give each its own")
            seen[where] = flag
        for flag, path in pages:
            check_page(path, sources, f"bench/{name}.py", None, "the results", True, flag)  # where, not whose
            if path.is_file() and path.stat().st_size and not written_by(path, script):
                raise OutputError(
                    f"{flag} {path} exists and is not a page bench/{name}.py wrote; remove it, or choose another {flag}"
                )
        for path in beside:
            check_page(Path(path), sources, f"bench/{name}.py", None, "the results", True, "--out")
    except OutputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def argument_paths(args: argparse.Namespace, skip: Iterable[str] = ()) -> list[Path]:
    """Every argument of a bench script (but the ``skip`` ones) that names an existing file or folder: its inputs."""
    return [
        Path(value)
        for key, value in vars(args).items()
        if key not in skip and isinstance(value, (str, Path)) and str(value) and os.path.exists(value)
    ]


def written_by(path: Path, script: str) -> bool:
    """Whether the head of ``path`` says bench script ``script`` made it: its command ("python bench/x.py ...",
    "python -m bench.x") or "Written by `bench/x.py`" (a note that names it is not enough)."""
    name = re.escape(Path(script).stem.encode())
    named = re.compile(
        rb"python\s+(?:-m\s+bench\.|bench/)" + name + rb"(?:\.py)?(?![\w.])|Written by `bench/" + name + rb"\.py`"
    )
    return bool(named.search(_head_lines(path)))


def _head_lines(path: Path, lines: int = 6) -> bytes:
    """A results page's head, where it names the script that wrote it: its first lines, not all of its first 4 KiB
    (the results index names every script in its table, and ci_summary took it for its own page: hostile pass 53)."""
    with open(path, "rb") as handle:
        return b"".join(handle.readline(MARK_BYTES) for _ in range(lines))


def input_identity(source: Path | None) -> str:
    """Which input an output was made for (its absolute path; ``-`` for standard input), kept in the sidecar."""
    if source is None:
        return ""
    return "-" if str(source) == "-" else os.path.abspath(source)


def _check_owner(output: Path, job: str, settings: str, source: Path | None = None) -> None:
    """An existing non-empty output must be this job's, written with the same settings for the same input."""
    if not output.exists() or output.stat().st_size == 0:
        return
    try:
        meta = json.loads(sidecar(output).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        meta = None
    if not isinstance(meta, dict) or meta.get("job") != job:
        raise OutputError(
            f"--output {output} exists and was not written by this {job} job (no {sidecar(output).name}); "
            "pass --overwrite to replace it, or choose another --output"
        )
    if meta.get("settings") != settings:
        raise OutputError(
            f"--output {output} was written with other settings (config hash {meta.get('settings')}, now "
            f"{settings}): its rows would mix two rewards. Pass --overwrite to start over, or choose another --output"
        )
    made_for, now = meta.get("input"), input_identity(source)
    if made_for and now and made_for != now and not _moved_here(output, made_for, now):
        raise OutputError(
            f"--output {output} holds rows made for the input {made_for}, not {now}: resuming would drop them. "
            "Pass --overwrite to start over, or choose another --output"
        )


def _moved_here(output: Path, made_for: str, now: str) -> bool:
    """The input the output was made for is gone and ``now`` holds its rows: the same input, moved (hostile pass
    11). While the first one is still there, another path is another input, whatever it holds."""
    return made_for != "-" and now != "-" and not os.path.exists(made_for) and _holds_the_same_rows(output, Path(now))


def _holds_the_same_rows(output: Path, source: Path) -> bool:
    """Whether every row ``output`` holds was made from the row ``source`` has at its line (the digests rows
    carry): the input moved, not another one (hostile pass 11: a moved input refused its own scores).
    An output whose rows carry no digest is never taken for the same."""
    made = {line: span.digest for line, span in index_rows(output, None).items() if span.digest}
    if not made or not source.is_file():
        return False
    try:
        for record in iter_records(source):
            if made.pop(record.line, record.digest) != record.digest:
                return False
    except (OSError, ValueError):
        return False
    return not made


def _check_record_place(output: Path) -> None:
    """Where the job keeps ``output``'s record must hold a record or nothing: another job's output named like it
    ("--output run.jsonl.job.json" earlier, "--output run.jsonl" now) was written over (hostile pass 10), and so
    was a user's one-line ``results.job.json`` (audit 59 H14). A record is one line of JSON, an object naming its
    ``job`` (what ``own_output`` writes), in a regular file of its own: never a link (written through, it
    replaced the file it named)."""
    place = sidecar(output)
    try:
        if not os.path.lexists(place):
            return
        foreign = place.is_symlink() or not place.is_file() or place.stat().st_size > 1 << 20
        foreign = foreign or sidecar(place).exists() or not _is_record(place.read_bytes())
    except OSError:
        foreign = True
    if foreign:
        raise OutputError(
            f"{place} is not a job record (another job's output, or someone's file) and --output {output} would "
            "keep its record there; move it, or choose another --output"
        )


def _is_record(data: bytes) -> bool:
    """``data`` is a job record: nothing (an empty file holds nothing to lose), or one line of JSON, an object
    with a ``job`` name (rows of scores are many lines; a user's ``{"user": "data"}`` names no job)."""
    if not data.strip():
        return True
    if len(data.strip().splitlines()) > 1:
        return False
    try:
        found = json.loads(data)
    except (ValueError, RecursionError):
        return False
    return isinstance(found, dict) and isinstance(found.get("job"), str) and bool(found["job"])


@contextmanager
def own_output(
    output: Path,
    source: Path | None,
    job: str,
    settings: str,
    overwrite: bool = False,
    reads: Iterable[Path | None] = (),
) -> Iterator[Path]:
    """Check, lock and claim ``output`` for one run of ``job``; raises ``OutputError`` with a one-line reason.
    ``reads``: other files the job reads (its config, its knowledge base), never written over either, even with
    ``overwrite`` (hostile pass 7: ``--output`` naming the KB replaced it with scores)."""
    output = Path(output)
    _check_location(output, [source, *reads])
    _check_record_place(output)
    with ExitStack() as held:
        # the name given and the file it links to: two runs naming one file by two names are two writers of it
        # (hostile pass 44: "--output real.jsonl" and "--output link.jsonl" -> real.jsonl, run together, both
        # exited 0 and left 256 of 600 rows)
        for place in dict.fromkeys([lock_path(output), lock_path(through_link(output))]):
            held.enter_context(_locked(place, output))
        if overwrite:
            output.unlink(missing_ok=True)
        else:
            _check_owner(output, job, settings, source)
        record = {"job": job, "settings": settings, "input": input_identity(source)}
        write_atomically(sidecar(output), json.dumps(record).encode())
        yield output


@contextmanager
def _locked(place: Path, output: Path) -> Iterator[None]:
    """Hold the exclusive lock ``place`` while the block runs, or refuse at once with a one-line reason."""
    lock = FileLock(str(place), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise OutputError(
            f"another job is writing --output {output} (it holds {place.name}); "
            "wait for it to finish, or choose another --output"
        ) from None
    except OSError as exc:
        raise OutputError(f"cannot lock --output {output}: {exc.strerror}") from None
    try:
        yield
    finally:
        lock.release()
