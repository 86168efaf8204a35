"""Reading a file a config names (a config, a prompt template): bounded, so ``/dev/zero`` is an error."""

from __future__ import annotations

from pathlib import Path

MAX_CONFIG_BYTES = 4 * 2**20  # far above any real config or template


class SmallFileError(ValueError):
    """The file cannot be read as a small UTF-8 text; the message names it and why."""


def read_small_text(path: str | Path, limit: int = MAX_CONFIG_BYTES) -> str:
    """The file's text, read at most ``limit`` bytes deep: a directory, a device that never ends, a file
    too large or not UTF-8 raise ``SmallFileError`` naming the file."""
    path = Path(path)
    if path.is_dir():
        raise SmallFileError(f"{path} is a directory, not a file")
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise SmallFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise SmallFileError(f"{path} is larger than {limit // 2**20} MiB: not a config or template")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SmallFileError(f"{path}:{line}: not valid UTF-8 (byte {exc.start})") from None
