"""A digest of a plugin's code for the reward fingerprint (``RewardEngineConfig.fingerprint``): rows a plugin scored
are another job's once its code changes. The named module's own file was not enough: a grader whose label came
from a helper module beside it kept its old rows after the helper changed, exit 0, and so did ``plugins: [pk]``,
a package whose ``__init__`` imports the stage module (hostile pass 59).

Covered, read in a fixed order so the digest is the same on every machine and path: every ``.py`` file under the
plugin's top-level package folder (each folder of a namespace package), or a top-level single-file module; and,
found by a line scan of those files' ``import x`` / ``from x import`` lines, the top-level modules and packages
beside it (in the same ``sys.path`` folder) that they import, and theirs in turn. Not covered: a third-party or
standard library the plugin imports (anything installed: a plugin installed into site-packages is read alone),
data files it reads, modules imported by a computed name, and whatever lies past ``MAX_FILES`` / ``MAX_BYTES``
(the digest records that it stopped there)."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import re
import sysconfig
from pathlib import Path

MAX_FILES = 2000  # per plugin; a bound, not a size any plugin is expected to reach
MAX_BYTES = 32 * 2**20
_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b|import[ \t]+([^\n#;]+))", re.M)
_NAME = re.compile(r"\s*([A-Za-z_]\w*)")


def plugin_digest(name: str) -> str | None:
    """A sha256 of the plugin module ``name``'s code (what the module docstring says is covered), or None when it
    cannot be found or read (a built-in or compiled module with no source)."""
    try:
        spec = importlib.util.find_spec(name.partition(".")[0])
    except (ImportError, ValueError):
        return None
    installed = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    todo = _spec_units(spec, installed)
    if not todo:
        return None
    read: dict[Path, tuple[str, bytes]] = {}
    looked: set[tuple[Path, str]] = set()  # (folder, name) already looked for: each package walked once
    total, stopped = 0, False
    while todo:  # the closure first, then the digest in label order: the same whatever order it was found in
        label, path, folder = todo.pop()
        if path in read:
            continue
        try:
            data = path.read_bytes()
        except OSError:
            return None
        total += len(data)
        if len(read) >= MAX_FILES or total > MAX_BYTES:
            stopped = True
            break
        read[path] = (label, data)
        if folder is None:  # an installed library's folder: what lies beside it is not the plugin's
            continue
        for top in _imported(data):
            if (folder, top) not in looked:
                looked.add((folder, top))
                todo += [u for u in _units(folder, top, installed) if u[1] not in read]
    digest = hashlib.sha256()
    for label, data in sorted(read.values()):
        digest.update(label.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    if stopped:
        digest.update(b"\0stopped at the bound\0")
    return digest.hexdigest()[:16]


Unit = tuple[str, Path, "Path | None"]  # (label relative to its sys.path folder, file, that folder to look beside)


def _spec_units(spec: importlib.machinery.ModuleSpec | None, installed: set[str]) -> list[Unit]:
    """The files of a top-level module's spec: a package's every ``.py`` file, or the module's own file."""
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return [u for root in sorted(set(spec.submodule_search_locations)) for u in _package(Path(root), installed)]
    if spec.origin and spec.origin.endswith(".py"):
        path = Path(spec.origin)
        return [(path.name, path, _beside(path.parent, installed))]
    return []


def _units(folder: Path, top: str, installed: set[str]) -> list[Unit]:
    """The top-level module or package ``top`` when it lies in ``folder`` (beside the plugin), else nothing."""
    if (folder / top).is_dir():
        return _package(folder / top, installed)
    path = folder / f"{top}.py"
    return [(path.name, path, folder)] if path.is_file() else []


def _package(root: Path, installed: set[str]) -> list[Unit]:
    """Every ``.py`` file under a package folder, by path, with the folder it lies in (``__pycache__`` and hidden
    folders left out)."""
    found: list[Unit] = []
    beside = _beside(root.parent, installed)
    for here, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(names):
            if name.endswith(".py"):
                path = Path(here) / name
                found.append((path.relative_to(root.parent).as_posix(), path, beside))
                if len(found) > MAX_FILES:
                    return found
    return found


def _beside(folder: Path, installed: set[str]) -> Path | None:
    """``folder`` when the modules in it are the user's to follow; None for an installed library's folder
    (site-packages, the standard library): what a plugin imports from there is not its code."""
    if folder.name in ("site-packages", "dist-packages") or str(folder) in installed:
        return None
    return folder


def _imported(source: bytes) -> list[str]:
    """The top-level names a module's ``import`` lines name (``import a.b, c as d`` -> a, c; relative imports are
    inside the package, read whole already)."""
    names: list[str] = []
    for match in _IMPORT.finditer(source):
        if match.group(1):
            names.append(match.group(1).decode())
            continue
        for part in match.group(2).decode(errors="replace").split(","):
            found = _NAME.match(part)
            if found:
                names.append(found.group(1))
    return names
