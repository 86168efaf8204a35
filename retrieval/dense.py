"""The FAISS index over passage embeddings, its manifest, and incremental sync.

Vector ids are passage ids. The manifest beside the index records what the vectors
mean (model, dim, normalisation) and which passages they cover (count, max id,
checksum); loading refuses an index whose manifest disagrees with the KB.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from retrieval.embedder import Embedder
from retrieval.schema import passages_fingerprint

FLAT_MAX = 200_000  # exact search below this many passages; IVF,SQ8 above
ENCODE_BATCH = 1024


class IndexMismatchError(RuntimeError):
    """The FAISS index does not describe this KB (stale, or built with another model)."""


@dataclass
class Manifest:
    model: str
    dim: int
    normalize: bool
    metric: str
    index_type: str
    count: int
    max_id: int
    checksum: str
    faiss_version: str
    built_at: float
    kb_id: str = ""  # the KB file it was built from (``schema.create_schema``); "" before that existed

    @classmethod
    def read(cls, path: Path) -> "Manifest":
        """The manifest; a file that is not one raises ``IndexMismatchError`` naming it."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data or k != "kb_id"})
        except (OSError, ValueError, TypeError, KeyError) as exc:
            raise IndexMismatchError(
                f"index manifest {path} is unreadable ({type(exc).__name__}); rebuild the index: "
                "python -m retrieval.build --from-db on its knowledge base"
            ) from None

    def write(self, path: Path) -> None:
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2, sort_keys=True))
        tmp.replace(path)


def index_paths(db_path: Path) -> tuple[Path, Path]:
    """``KB.db`` -> ``KB.faiss`` and ``KB.faiss.json``."""
    index = db_path.with_suffix(".faiss")
    return index, index.with_name(index.name + ".json")


def _faiss() -> Any:
    import faiss

    return faiss


def index_type_for(count: int, flat_max: int = FLAT_MAX) -> str:
    if count <= flat_max:
        return "Flat"
    nlist = int(min(4 * math.sqrt(count), max(1, count // 39)))
    return f"IVF{nlist},SQ8"


def _new_index(index_type: str, dim: int, train: np.ndarray | None) -> Any:
    faiss = _faiss()
    if index_type == "Flat":
        return faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
    index = faiss.index_factory(dim, index_type, faiss.METRIC_INNER_PRODUCT)
    if train is None or len(train) == 0:
        raise ValueError("an IVF index needs training vectors")
    index.train(train)
    index.set_direct_map_type(faiss.DirectMap.Hashtable)
    return index


def _family(index_type: str) -> str:
    return "Flat" if index_type == "Flat" else "IVF"


def validate(manifest: Manifest, index: Any, conn: sqlite3.Connection, model: str | None, db_path: Path) -> None:
    """Raise IndexMismatchError naming every field where index, manifest and KB differ."""
    problems = []
    fp = passages_fingerprint(conn)
    for key in ("count", "max_id", "checksum"):
        if fp[key] != getattr(manifest, key):
            problems.append(f"passages {key}: KB has {fp[key]}, manifest has {getattr(manifest, key)}")
    if index.ntotal != manifest.count:
        problems.append(f"index holds {index.ntotal} vectors, manifest says {manifest.count}")
    if index.d != manifest.dim:
        problems.append(f"index dim {index.d}, manifest dim {manifest.dim}")
    if model is not None and model != manifest.model:
        problems.append(f"embedding model: asked for {model!r}, index built with {manifest.model!r}")
    if problems:
        raise IndexMismatchError(
            f"dense index {index_paths(db_path)[0]} does not match {db_path}: {'; '.join(problems)}. "
            f"Rebuild it with: python -m retrieval.build --from-db {db_path}"
        )


def read_index(index_path: Path, db_path: Path) -> Any:
    """The FAISS index; a truncated or foreign file raises ``IndexMismatchError`` naming the fix."""
    try:
        return _faiss().read_index(str(index_path))
    except RuntimeError:
        raise IndexMismatchError(
            f"dense index {index_path} is unreadable (truncated or not a FAISS index); "
            f"rebuild it with: python -m retrieval.build --from-db {db_path}"
        ) from None


def load(db_path: Path, conn: sqlite3.Connection, model: str | None = None) -> tuple[Any, Manifest]:
    """Load and validate the index beside ``db_path``; optionally move it to a GPU."""
    index_path, manifest_path = index_paths(db_path)
    if not index_path.exists() or not manifest_path.exists():
        raise FileNotFoundError(
            f"no dense index beside {db_path} (expected {index_path.name} and {manifest_path.name}); "
            f"build it with: python -m retrieval.build --from-db {db_path}"
        )
    manifest = Manifest.read(manifest_path)
    index = read_index(index_path, db_path)
    validate(manifest, index, conn, model, db_path)
    return _maybe_gpu(index), manifest


def _maybe_gpu(index: Any) -> Any:
    faiss = _faiss()
    if not hasattr(faiss, "StandardGpuResources") or faiss.get_num_gpus() == 0:
        return index
    return faiss.index_cpu_to_gpu(faiss.StandardGpuResources(), 0, index)


@dataclass
class DenseSyncReport:
    index_type: str
    added: int
    removed: int
    rebuilt: bool
    seconds: float


def sync(
    db_path: Path,
    conn: sqlite3.Connection,
    embedder: Embedder,
    flat_max: int = FLAT_MAX,
    progress: bool = True,
) -> DenseSyncReport:
    """Bring the index in line with the passages: embed only new ones, drop deleted ones.

    A changed model or a change of index type (the KB crossed ``flat_max``) rebuilds.
    """
    started = time.perf_counter()
    faiss = _faiss()
    index_path, manifest_path = index_paths(db_path)
    fp = passages_fingerprint(conn)
    wanted_type = index_type_for(fp["count"], flat_max)
    old: Manifest | None = None
    index = None
    if index_path.exists() and manifest_path.exists():
        old = Manifest.read(manifest_path)
        same_kb = old.kb_id == fp["kb_id"]  # a KB built again reuses ids for other text: embed it all again
        if same_kb and old.model == embedder.name and _family(old.index_type) == _family(wanted_type):
            try:
                index = faiss.read_index(str(index_path))
            except RuntimeError:  # truncated or not an index: build it again
                index = None
            if index is None or index.ntotal != old.count:
                index, old = None, None  # half-written: start again
        else:
            old = None
    rebuilt = index is None
    removed = 0
    if index is not None and old is not None:
        gone = [r[0] for r in conn.execute("SELECT id FROM passages_deleted WHERE id <= ?", (old.max_id,))]
        if gone:
            removed = int(index.remove_ids(np.asarray(gone, dtype=np.int64)))
        new_rows = conn.execute("SELECT count(*) FROM passages WHERE id > ?", (old.max_id,)).fetchone()[0]
        query = ("SELECT id, text FROM passages WHERE id > ? ORDER BY id", (old.max_id,))
    else:
        new_rows = fp["count"]
        query = ("SELECT id, text FROM passages ORDER BY id", ())
        train = None
        if wanted_type != "Flat":
            sample = [r[0] for r in conn.execute("SELECT text FROM passages ORDER BY random() LIMIT ?", (100_000,))]
            train = embedder.encode(sample, progress=progress)
        index = _new_index(wanted_type, embedder.dim, train)
    added = _add_rows(index, conn, query, new_rows, embedder, progress)
    faiss.write_index(index, str(index_path) + ".tmp")
    Path(str(index_path) + ".tmp").replace(index_path)
    Manifest(
        model=embedder.name,
        dim=index.d,
        normalize=embedder.normalize,
        metric="inner_product",
        index_type=wanted_type if rebuilt else old.index_type,  # type: ignore[union-attr]
        count=int(index.ntotal),
        max_id=fp["max_id"],
        checksum=fp["checksum"],
        faiss_version=faiss.__version__,
        built_at=time.time(),
        kb_id=fp["kb_id"],
    ).write(manifest_path)
    conn.execute("DELETE FROM passages_deleted")
    conn.commit()
    return DenseSyncReport(wanted_type, added, removed, rebuilt, time.perf_counter() - started)


def _add_rows(
    index: Any, conn: sqlite3.Connection, query: tuple, total: int, embedder: Embedder, progress: bool
) -> int:
    added = 0
    cursor = conn.execute(*query)
    with tqdm(total=total, desc="embedding", unit="passage", disable=not progress) as bar:
        while rows := cursor.fetchmany(ENCODE_BATCH):
            ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            vectors = embedder.encode([r[1] for r in rows])
            index.add_with_ids(vectors, ids)
            added += len(rows)
            bar.update(len(rows))
    return added
