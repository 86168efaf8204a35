"""Sentence-transformers encoder, loaded on first use (never at import)."""

from __future__ import annotations

import contextlib
import threading
import warnings
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from knowrl_io.model_loading import model_load_lock
from retrieval.models import DEFAULT_EMBEDDING_MODEL, canonical_model_name, files_stamp, resolve_model_path

FAST_BATCH_MAX = 8  # up to this many texts go through the one-thread ONNX session (queries)
# What a model computes, not what it is called: its vector of this sentence keys a dense index to the model
PROBE = "The probe: Marie Curie, born in Warsaw in 1867, won Nobel Prizes in physics and chemistry."


class Embedder:
    """Encodes text into L2-normalised float32 vectors, so inner product = cosine."""

    normalize = True

    def __init__(
        self,
        model: str = DEFAULT_EMBEDDING_MODEL,
        device: str | None = None,
        batch_size: int = 64,
        fast_queries: bool = True,
    ) -> None:
        self.name = canonical_model_name(model)
        self._requested = model
        self._device = device
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()
        self._fast_queries = fast_queries
        self._onnx: Any = None
        self._onnx_tried = False
        self._onnx_bulk: Any = None  # the same graph on every core, for KB builds
        self.loaded_stamp: str | None = None  # ``models.files_stamp`` of the files the model was loaded from

    @property
    def requested(self) -> str:
        """The model's name or path as given (what it loads from)."""
        return self._requested

    @property
    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                from sentence_transformers import SentenceTransformer

                device = self._device
                if device is None:
                    import torch

                    device = "cuda" if torch.cuda.is_available() else "cpu"
                stamp = files_stamp(self._requested)
                with model_load_lock():
                    self._model = SentenceTransformer(resolve_model_path(self._requested), device=device)
                if stamp is not None and files_stamp(self._requested) == stamp:  # unchanged while it loaded
                    self.loaded_stamp = stamp
            return self._model

    @property
    def dim(self) -> int:
        model = self.model
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())

    def _query_encoder(self) -> Any:
        """ONNX Runtime for a few short texts on CPU (same vectors, ~3x less latency), else None."""
        if self._onnx_tried:
            return self._onnx
        model = self.model
        with self._lock:
            if self._onnx_tried:
                return self._onnx
            self._onnx_tried = True
            from retrieval import onnx_encoder

            model_dir = Path(resolve_model_path(self._requested))
            if (
                self._fast_queries
                and str(model.device) == "cpu"
                and onnx_encoder.onnx_available()
                and model_dir.is_dir()
                and onnx_encoder.mean_pooling_model(model_dir)
            ):
                try:
                    path = onnx_encoder.export(model, model_dir)
                    self._onnx = onnx_encoder.OnnxQueryEncoder(path, model.tokenizer, model.max_seq_length)
                    self._onnx_bulk = onnx_encoder.OnnxQueryEncoder(
                        path, model.tokenizer, model.max_seq_length, threads=_build_threads()
                    )
                except Exception as exc:  # noqa: BLE001 - the PyTorch path always works
                    warnings.warn(f"ONNX query encoder unavailable, using PyTorch: {exc}", stacklevel=2)
            return self._onnx

    def probe(self) -> list[float]:
        """The model's vector of ``PROBE`` (6 decimals): a model whose weights changed at the same path or name
        computes another (hostile pass 55: its old passage vectors were kept under its new query vectors)."""
        with _fp32_matmul():
            vector = self.encode([PROBE])[0]
        return [round(float(v), 6) for v in vector]

    def encode(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        """Embed ``texts`` as an (n, dim) float32 array."""
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        fast = self._query_encoder()
        if fast is not None:
            # Same vectors as PyTorch (tests/test_chunking_sources.py). One query: 2.5x faster here; a KB
            # build's bulk encoding only 1.05-1.17x (bench/results/retrieval.md, two runs): batches of similar length.
            if len(texts) <= FAST_BATCH_MAX and not progress:
                return fast.encode(texts)
            return self._onnx_bulk.encode_many(list(texts))
        vectors = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=self.normalize,
            convert_to_numpy=True,
            show_progress_bar=progress,
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)


@contextlib.contextmanager
def _fp32_matmul() -> Iterator[None]:
    """Full fp32 matmuls inside: TF32 (a GPU trainer's ``tf32: true``, process-wide) moves a vector by ~1e-3, more
    than one model's vectors may differ (``dense.PROBE_TOLERANCE``)."""
    import torch

    saved = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("highest")
    try:
        yield
    finally:
        torch.set_float32_matmul_precision(saved)


def _build_threads() -> int:
    """Threads for bulk encoding: torch's setting (OMP_NUM_THREADS), so tests on a shared machine stay low."""
    import torch

    return max(1, torch.get_num_threads())
