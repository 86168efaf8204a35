"""The files a custom knowledge source's options name: inputs of a job (``score``), of a training run
(``knowrl.output_dir.run_inputs``) and part of the evidence cache's key (``knowledge.source_files_key``). Its own
module so that ``knowledge`` need not import ``score`` (which imports ``knowledge``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def source_option_files(options: dict[str, Any]) -> list[Path]:
    """The files a custom source's options name: every option named as a path (``source_option_paths``' rule:
    ``path``, ``*_file``...) and any other string value that names an existing file, in lists and mappings too.
    A URL is no file. The source reads them: the job's inputs.

    >>> [str(p) for p in source_option_files({"path": "/cfg/kb.jsonl", "url": "http://h/x", "k": 3})]
    ['/cfg/kb.jsonl']
    """
    from reward_engine.config import PATH_OPTION

    found: list[Path] = []
    for name, value in options.items():
        found += _option_files(value, PATH_OPTION.fullmatch(str(name)) is not None)
    return found


def _option_files(value: Any, named_as_path: bool) -> list[Path]:
    if isinstance(value, dict):
        return source_option_files(value)
    if isinstance(value, (list, tuple)):
        return [p for v in value for p in _option_files(v, named_as_path)]
    if not isinstance(value, str) or not value or "://" in value:
        return []
    path = os.path.expanduser(value)
    return [Path(path)] if named_as_path or os.path.isfile(path) else []  # isfile: False for a NUL, a long name
