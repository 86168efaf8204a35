"""Sentence-transformers encoder, loaded on first use (never at import)."""

from __future__ import annotations

import threading
from typing import Any, Sequence

import numpy as np

from retrieval.models import DEFAULT_EMBEDDING_MODEL, canonical_model_name, resolve_model_path


class Embedder:
    """Encodes text into L2-normalised float32 vectors, so inner product = cosine."""

    normalize = True

    def __init__(
        self,
        model: str = DEFAULT_EMBEDDING_MODEL,
        device: str | None = None,
        batch_size: int = 64,
    ) -> None:
        self.name = canonical_model_name(model)
        self._requested = model
        self._device = device
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                from sentence_transformers import SentenceTransformer

                device = self._device
                if device is None:
                    import torch

                    device = "cuda" if torch.cuda.is_available() else "cpu"
                self._model = SentenceTransformer(resolve_model_path(self._requested), device=device)
            return self._model

    @property
    def dim(self) -> int:
        model = self.model
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())

    def encode(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        """Embed ``texts`` as an (n, dim) float32 array."""
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=self.normalize,
            convert_to_numpy=True,
            show_progress_bar=progress,
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)
