"""One model load at a time per process: transformers' ``from_pretrained`` is not thread-safe.

transformers 5 turns weight tying off while it builds a model by swapping ``PreTrainedModel.tie_weights``
for a no-op on the class and putting back whatever it found on the way out. Two loads in two threads can
interleave so that the no-op is what gets put back; from then on every model with tied embeddings loads
with an uninitialised (meta) output layer. The reward engine loads its embedder and NLI model in worker
threads, so every load in this project goes through ``model_load_lock()``.
"""

from __future__ import annotations

import threading

_LOCK = threading.RLock()  # guards a class attribute of a library: process-wide by nature


def model_load_lock() -> threading.RLock:
    """The process-wide lock to hold around ``from_pretrained`` / ``SentenceTransformer(...)``."""
    return _LOCK
