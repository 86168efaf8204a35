"""Which files and folders in a training run's ``output_dir`` the run wrote (audit 60).

A run wrote its checkpoints, ``final``, TRL's model card, the reward log and the pipeline's stage folders over
same-named files of the user's, and ``--overwrite`` removed any ``final/`` it found. Now the run keeps a ledger,
``.knowrl-run.json`` in ``output_dir``, naming what it writes there (``checkpoint-*`` style patterns too): a name in
it is the run's own, which a rerun replaces and ``--overwrite`` removes; any other existing file of a name the run
writes is someone's, and the run is refused before it writes anything. The ledger is written at the run's first
write (``claim``), after every up-front check, so that a refused run leaves nothing behind.

Folders written before the ledger existed are recognised by what knowrl wrote in them (``written_before_marks``):
a checkpoint's trainer state, a ``final`` beside a run's ``summary.json``, the reward log's rows, the report's,
the inspector's and the curve's marks, TRL's model card.
"""

from __future__ import annotations

import json
import re
from fnmatch import fnmatchcase
from pathlib import Path

from knowrl.config import ConfigError
from knowrl_io.job_output import MARK_BYTES, read_head, write_atomically

MARK = ".knowrl-run.json"
CHECKPOINTS = "checkpoint-[0-9]*"  # the ledger's pattern for transformers' checkpoint folders
JOB = "knowrl.train"


def marked(out: Path) -> list[str]:
    """The names (and patterns) the ledger in ``out`` holds; none where there is no readable ledger."""
    try:
        data = json.loads((Path(out) / MARK).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    names = data.get("names") if isinstance(data, dict) and data.get("job") == JOB else None
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def matches(name: str, pattern: str) -> bool:
    """``name`` is one the ledger's ``pattern`` covers; a checkpoint pattern covers transformers' own names only
    ("checkpoint-500", never a user's "checkpoint-500-best": the landing review of pass 63)."""
    if pattern == CHECKPOINTS:
        return re.fullmatch(r"checkpoint-\d+", name) is not None
    return fnmatchcase(name, pattern)


def is_ours(out: Path, name: str) -> bool:
    """Whether ``out/name`` is the run's own: named in the ledger, or recognised as a knowrl run's file."""
    if any(matches(name, pattern) for pattern in marked(out)):
        return True
    return written_before_marks(Path(out), name)


def existing(out: Path, names: list[str]) -> list[str]:
    """The entries of ``out`` (relative names, one level of folders) that ``names`` (patterns too) cover."""
    found: list[str] = []
    for pattern in names:
        folder = (Path(out) / pattern).parent
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir()):
            name = entry.relative_to(out).as_posix()
            if matches(name, pattern) and name not in found and name != MARK:
                found.append(name)
    return found


def foreign(out: Path, names: list[str]) -> list[Path]:
    """Files or folders in ``out`` that the run would write (``names``) and that it did not write."""
    return [Path(out) / name for name in existing(out, names) if not is_ours(out, name)]


def foreign_problem(out: Path, names: list[str]) -> str | None:
    """One line naming the first foreign entry in the run's way, or None."""
    taken = foreign(out, names)
    if not taken:
        return None
    what = "folder" if taken[0].is_dir() else "file"
    return (
        f"output_dir {out} holds {taken[0]}, a {what} no run's ledger names (no {MARK} lists it: someone's, or a "
        "pipeline stage from before runs kept a ledger), where the run writes its own: --overwrite and --resume "
        "never touch it; move or remove it by hand, or choose another output_dir"
    )


def claim(out: Path, names: list[str]) -> None:
    """The run's first write: ``out`` made and its ledger extended by ``names``, after checking again that nothing
    foreign appeared there since the up-front checks. Raises ``ConfigError``."""
    out = Path(out)
    problem = foreign_problem(out, names)
    if problem:
        raise ConfigError(problem)
    out.mkdir(parents=True, exist_ok=True)
    held = marked(out)
    _write(out, held + [n for n in names if n not in held])


def release(out: Path, names: list[str]) -> None:
    """``names`` (removed by ``--overwrite``) dropped from the ledger; the ledger removed when it names nothing."""
    gone = set(names)
    held = [n for n in marked(out) if n not in gone and not any(matches(g, n) for g in gone)]
    if held:
        _write(Path(out), held)
    else:
        (Path(out) / MARK).unlink(missing_ok=True)


def _write(out: Path, names: list[str]) -> None:
    ledger = out / MARK
    if ledger.is_symlink() or (ledger.exists() and not ledger.is_file()):  # written through, it replaced another file
        raise ConfigError(f"output_dir {out}: {ledger} is not a plain file (a link or a folder); remove it")
    body = {"job": JOB, "note": "what knowrl.train wrote here; --overwrite removes these only", "names": names}
    write_atomically(ledger, (json.dumps(body, indent=1) + "\n").encode())


def written_before_marks(out: Path, name: str) -> bool:
    """A file or folder a knowrl run wrote before runs kept a ledger, known by what it holds."""
    path = out / name
    if path.is_symlink():
        return False
    if path.is_dir():
        if name.startswith("checkpoint-"):
            return any((path / f).is_file() for f in ("trainer_state.json", "adapter_config.json"))
        if name == "final":
            return _summary(out / "summary.json")
        return False
    if name == "summary.json":
        return _summary(path)
    if path.is_file() and path.stat().st_size == 0:  # nothing in it to lose
        return True
    head = _head(path)
    if name.endswith(".jsonl"):
        return _reward_rows(head)
    from knowrl.pipeline_report import REPORT_MARK
    from knowrl.reward_log import CURVE_MARK
    from reward_engine.inspect import MARK as PAGE_MARK

    page_before = b"<title>knowrl reward inspector</title>"  # the inspector's page before it carried its mark
    marks = (REPORT_MARK, PAGE_MARK, page_before, CURVE_MARK, b"trained using [TRL](https://github.com")
    return any(mark in head for mark in marks)


def _head(path: Path) -> bytes:
    try:
        return read_head(path, MARK_BYTES, "output_dir", "whether a knowrl run wrote it")
    except Exception:  # noqa: BLE001 - unreadable: not known to be ours, so refused
        return b""


def _summary(path: Path) -> bool:
    """A run's ``summary.json``: a JSON object, empty or naming the run's step or adapter."""
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() and not path.is_symlink() else None
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and (not data or "global_step" in data or "adapter" in data)


def _reward_rows(head: bytes) -> bool:
    """The reward log's first row: a JSON object with the step and the completion (``RewardLog``'s rows)."""
    line = head.split(b"\n", 1)[0]
    try:
        row = json.loads(line) if line.strip() else None
    except ValueError:
        return False
    return isinstance(row, dict) and isinstance(row.get("step"), int) and "completion" in row
