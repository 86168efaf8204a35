"""Test-wide settings: few threads (the machine is shared), nothing fetched from a hub."""

import os
import shutil
import tempfile

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"

import pytest  # noqa: E402

MADE_CACHE = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """Hermetic caches (exported ONNX encoder, demo KB, judge cache) unless CI chose one; ours is removed
    at the end (each run left ~10-100 MB in /tmp, and long-lived machines filled their disks with them)."""
    if "KNOWRL_CACHE_DIR" not in os.environ:
        config.stash[MADE_CACHE] = os.environ["KNOWRL_CACHE_DIR"] = tempfile.mkdtemp(prefix="knowrl-test-cache-")


def pytest_unconfigure(config: pytest.Config) -> None:
    made = config.stash.get(MADE_CACHE, None)
    if made:
        shutil.rmtree(made, ignore_errors=True)


@pytest.fixture(scope="session")
def embedder():
    """One real MiniLM encoder for the whole session (loading it costs seconds)."""
    from retrieval.embedder import Embedder

    return Embedder()


@pytest.fixture(scope="session")
def kb_path(tmp_path_factory, embedder):
    """A real KB (SQLite + FTS5 + FAISS) over the small hand-written corpus."""
    from retrieval.build import build
    from retrieval.sources import Document
    from tests.helpers import CORPUS

    db = tmp_path_factory.mktemp("kb") / "kb.db"
    build(db, [Document(t, x) for t, x in CORPUS], progress=False, embedder=embedder)
    return db


@pytest.fixture(scope="session")
def kb(kb_path, embedder):
    from retrieval.kb import KnowledgeBase

    with KnowledgeBase(kb_path, embedder=embedder) as kb:
        yield kb


@pytest.fixture
async def server():
    """The project's test judge server on 127.0.0.1, fresh for each test."""
    from judges.test_server import JudgeServer, ServerConfig

    srv = JudgeServer(ServerConfig())
    await srv.start()
    yield srv
    await srv.stop()
