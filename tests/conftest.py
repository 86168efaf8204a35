"""Test-wide settings: few threads (the machine is shared), nothing fetched from a hub."""

import os
import tempfile

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
# Hermetic caches (exported ONNX encoder, demo KB, judge cache) unless CI chose one.
os.environ.setdefault("KNOWRL_CACHE_DIR", tempfile.mkdtemp(prefix="knowrl-test-cache-"))

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def embedder():
    """One real MiniLM encoder for the whole session (loading it costs seconds)."""
    from retrieval.embedder import Embedder

    return Embedder()
