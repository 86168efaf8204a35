"""The folder on disk a model name loads from, found without building or downloading anything, so that a writer
can refuse an output in it: ``knowrl.merge --base tiny --out <tiny's folder> --overwrite`` merged into the
built-in base, exit 0, and every later job on ``tiny`` started from the merged weights (hostile pass 59). One
rule for every writer given a model: ``knowrl.merge``, ``knowrl.train``/``knowrl.sft`` (``output_dir``),
``knowrl.evaluate`` and ``knowrl.task_eval`` (``--out``)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from knowrl.models import built_in_folder


def hub_cache_folder(name: str) -> Path | None:
    """A hub id's folder in the Hugging Face cache (``models--org--name``, whose snapshots link into its blobs:
    a file written there writes the blob), when it is cached; None otherwise. Nothing is downloaded."""
    if not name or name.startswith(("/", ".", "~")) or name.count("/") > 1:
        return None
    from huggingface_hub.constants import HF_HUB_CACHE

    folder = Path(HF_HUB_CACHE) / ("models--" + name.replace("/", "--"))
    return folder if folder.is_dir() else None


def model_folder(name: str, seed: int = 0) -> Path | None:
    """The folder ``name`` loads from, as ``models.resolve_model_path`` picks it: a built-in id's (``tiny``,
    ``smollm2`` ...: built or not yet), else an existing local path, else a hub id's cached folder; None when
    nothing of it is on disk (a hub id not downloaded)."""
    folder = built_in_folder(name, seed)
    if folder is not None:
        return folder
    path = Path(name).expanduser()
    if path.exists():
        return path
    return hub_cache_folder(name)


def output_model_problem(
    out: str | Path,
    flag: str,
    models: Iterable[tuple[str, str | None]],
    seed: int = 0,
    holds: bool = True,
    fix: str = "choose another folder",
) -> str | None:
    """Why ``out`` (the ``flag`` a job writes into) must not be written, or None: it is, or lies inside, the folder
    one of ``models`` ((key, name): ``--base tiny``, ``model.adapter runs/x/final``) loads from; with ``holds``
    also a folder holding it (``knowrl.merge`` writes its weights at the top of ``out``; a training run's
    ``output_dir`` around a model leaves it be: ``--overwrite`` removes only the run's own products)."""
    where = Path(out).expanduser().resolve()
    for key, name in models:
        folder = model_folder(name, seed) if name else None
        if folder is None:
            continue
        folder = folder.resolve()
        if where == folder or folder in where.parents or (holds and where in folder.parents):
            shown = name if Path(name).expanduser().resolve() == folder else f"{name} ({folder})"
            relation = "is (or holds, or is inside)" if holds else "is (or is inside)"
            return f"{flag} {out} {relation} the {key} folder {shown}; {fix}"
    return None
