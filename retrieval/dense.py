"""The FAISS index over passage embeddings, its manifest, and incremental sync.

Vector ids are passage ids. The manifest beside the index records what the vectors
mean (model, its probe vector, dim, normalisation) and which passages they cover (count, max id,
checksum); loading refuses an index whose manifest disagrees with the KB. The model is keyed by what it
computes (its vector of ``embedder.PROBE``), not only by its name: weights changed at the same path or name
are another model, whose passages are embedded again (hostile pass 55).
"""

from __future__ import annotations

import glob
import hashlib
import json
import logging
import math
import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from knowrl_io.atomic_write import atomic_file, write_atomically
from retrieval.embedder import Embedder
from retrieval.schema import connect, get_meta, passages_fingerprint, set_meta

log = logging.getLogger(__name__)
FLAT_MAX = 200_000  # exact search below this many passages; IVF,SQ8 above
ENCODE_BATCH = 1024
# One model's vectors differ by ~1e-6 across PyTorch, ONNX and devices; weights changed in place by 5 % noise
# moved them by ~5e-3 (hostile pass 55). A hash of rounded values would flip at a rounding edge: compared instead.
PROBE_TOLERANCE = 1e-4
PROOF_PASSAGES = 4  # an index without a probe: how many of its stored vectors are embedded again to prove its model


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
    model_probe: list[float] | None = None  # the model's vector of ``embedder.PROBE``; None before hostile pass 55
    db_name: str = ""  # the KB file's name: ``kb.db`` and ``kb.sqlite`` share ``kb.faiss``; "" before pass 59

    @classmethod
    def read(cls, path: Path) -> "Manifest":
        """The manifest; a file that is not one raises ``IndexMismatchError`` naming it."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            fields = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
            return cls(**fields)  # a required field missing: TypeError
        except (OSError, ValueError, TypeError, KeyError) as exc:
            raise IndexMismatchError(
                f"index manifest {path} is unreadable ({type(exc).__name__}); rebuild the index: "
                "python -m retrieval.build --from-db on its knowledge base"
            ) from None

    def write(self, path: Path) -> None:
        text = json.dumps(asdict(self), indent=2, sort_keys=True)
        write_atomically(path, text.encode())


def index_paths(db_path: Path) -> tuple[Path, Path]:
    """``KB.db`` -> ``KB.faiss`` and ``KB.faiss.json``."""
    index = db_path.with_suffix(".faiss")
    return index, index.with_name(index.name + ".json")


def _kb_id(path: Path) -> str | None:
    """The ``kb_id`` a KB file records, or None (not a KB, unreadable, none recorded)."""
    try:
        conn = connect(path, readonly=True)
    except (OSError, ValueError):
        return None
    try:
        found = get_meta(conn).get("kb_id")
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return found if isinstance(found, str) and found else None


def index_owner(db_path: Path) -> Path | None:
    """Another KB file whose dense index lies where ``db_path``'s goes, or None. ``index_paths`` keeps the name up to
    its last dot, so ``kb.sqlite`` and ``kb.db`` (or ``wiki`` and ``wiki.db``) in one folder share ``kb.faiss``: a
    build of one replaced (or, ``--no-dense``, removed) the other's index, hours of embedding (hostile pass 59). The
    manifest names its KB file; one written before it did is the sibling KB's whose ``kb_id`` it records. A KB
    that no longer exists owns nothing (a renamed KB's index is its new name's)."""
    index, manifest_path = index_paths(db_path)
    try:
        manifest = Manifest.read(manifest_path)
    except IndexMismatchError:
        return None
    if manifest.db_name:
        other = db_path.with_name(manifest.db_name)
        return other if manifest.db_name != db_path.name and other.is_file() else None
    if not manifest.kb_id or _kb_id(db_path) == manifest.kb_id:
        return None
    stem = db_path.with_suffix("")
    for other in [stem, *stem.parent.glob(glob.escape(stem.name) + ".*")]:
        if other.name == db_path.name or not other.is_file() or other.with_suffix(".faiss") != index:
            continue
        if other.suffix not in (".faiss", ".json", ".lock", ".tmp") and _kb_id(other) == manifest.kb_id:
            return other
    return None


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


def same_output(recorded: Any, current: Any) -> bool:
    """Whether two vectors (or stacks of them) of the same texts come from one model, within ``PROBE_TOLERANCE``.

    >>> same_output([0.6, 0.8], [0.60001, 0.79999]), same_output([0.6, 0.8], [0.61, 0.79]), same_output([1.0], [1, 0])
    (True, False, False)
    """
    a, b = np.asarray(recorded, dtype=np.float32), np.asarray(current, dtype=np.float32)
    return a.shape == b.shape and float(np.abs(a - b).max(initial=0.0)) <= PROBE_TOLERANCE


def check_model(manifest: Manifest, embedder: Embedder, db_path: Path) -> None:
    """Refuse a dense index whose recorded probe the loaded model does not compute (one embedding call): its
    passages were embedded by another model under the same name or path. An index without a probe passes."""
    if manifest.model_probe is not None and not same_output(manifest.model_probe, embedder.probe()):
        raise IndexMismatchError(
            f"{db_path}: its dense index was embedded with {manifest.model} as it was then, and that model now "
            f"computes other vectors (were its weights changed?); rebuild the index: python -m retrieval.build "
            f"--from-db {db_path} --model {manifest.model}"
        )


def probe_digest(probe: list[float]) -> str:
    """A short hash of a recorded probe, in the KB's meta: what keys a job's rows to the model that embedded it."""
    return hashlib.sha256(json.dumps(probe).encode()).hexdigest()[:16]


def _embedded_as_now(old: Manifest, index: Any, conn: sqlite3.Connection, embedder: Embedder) -> bool:
    """Whether an index without a probe (built before hostile pass 55) holds what ``embedder`` computes now: its
    first passages embedded again against their stored vectors. Only a Flat index stores them exactly (IVF,SQ8
    quantises them), so an IVF index without a probe cannot be proven and is embedded again."""
    if _family(old.index_type) != "Flat":
        return False
    rows = conn.execute(
        "SELECT id, text FROM passages WHERE id <= ? ORDER BY id LIMIT ?", (old.max_id, PROOF_PASSAGES)
    ).fetchall()
    try:
        stored = np.vstack([index.reconstruct(int(pid)) for pid, _ in rows]) if rows else None
    except RuntimeError:  # an id the index lacks
        return False
    return stored is not None and same_output(stored, embedder.encode([text for _, text in rows]))


def _computes_as_before(
    old: Manifest, index: Any, conn: sqlite3.Connection, embedder: Embedder, probe: list[float]
) -> bool:
    """Whether ``embedder`` computes the vectors ``index`` holds: its probe against the recorded one, or, for an
    index recorded without one, a few stored vectors against the same passages embedded now."""
    if old.model_probe is not None:
        return same_output(old.model_probe, probe)
    return _embedded_as_now(old, index, conn, embedder)


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

    A changed model or a change of index type (the KB crossed ``flat_max``) rebuilds. The model is the one its
    vector of ``PROBE`` says (recorded in the manifest), not its name: weights changed at the same path rebuild
    too. An index recorded before the probe existed is kept, and its probe recorded, only where a few of its
    stored vectors prove the model the same (a Flat index: ``_embedded_as_now``); otherwise it is rebuilt.
    """
    started = time.perf_counter()
    faiss = _faiss()
    index_path, manifest_path = index_paths(db_path)
    fp = passages_fingerprint(conn)
    wanted_type = index_type_for(fp["count"], flat_max)
    probe = embedder.probe()
    index, old = _reusable(db_path, fp, wanted_type, conn, embedder, probe)
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
    with atomic_file(index_path) as handle:  # a fixed KB.faiss.tmp was written through a planted link (pass 59)
        faiss.write_index(index, faiss.PyCallbackIOWriter(handle.write))
    recorded = old.model_probe if old is not None and old.model_probe is not None else probe
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
        model_probe=recorded,
        db_name=db_path.name,
    ).write(manifest_path)
    set_meta(conn, "embedding_probe", probe_digest(recorded))
    conn.execute("DELETE FROM passages_deleted")
    conn.commit()
    return DenseSyncReport(wanted_type, added, removed, rebuilt, time.perf_counter() - started)


def _reusable(
    db_path: Path, fp: dict, wanted_type: str, conn: sqlite3.Connection, embedder: Embedder, probe: list[float]
) -> tuple[Any, Manifest | None]:
    """The index to update in place and its manifest, or ``(None, None)``: every passage is embedded again for
    another KB, model or index family, a half-written index, or a model computing other vectors under its name."""
    index_path, manifest_path = index_paths(db_path)
    if not (index_path.exists() and manifest_path.exists()):
        return None, None
    old = Manifest.read(manifest_path)
    same_kb = old.kb_id == fp["kb_id"]  # a KB built again reuses ids for other text: embed it all again
    if not (same_kb and old.model == embedder.name and _family(old.index_type) == _family(wanted_type)):
        return None, None
    try:
        index = _faiss().read_index(str(index_path))
    except RuntimeError:  # truncated or not an index: build it again
        return None, None
    if index.ntotal != old.count:
        return None, None  # half-written: start again
    if not _computes_as_before(old, index, conn, embedder, probe):
        why = (
            "computes other vectors than its dense index holds (were its weights changed?)"
            if old.model_probe is not None
            else "is not proven the one its dense index was embedded with (an index from before model probes, not Flat "
            "or with other stored vectors)"
        )
        log.warning("%s: the embedding model %s %s: re-embedding every passage", db_path, embedder.name, why)
        return None, None
    return index, old


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
