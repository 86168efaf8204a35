"""Knowledge base for KnowRL: FActScore-compatible SQLite, FTS5 BM25, FAISS dense, hybrid search."""

from retrieval.kb import Hit, KnowledgeBase, Passage, SearchResult, split_titles
from retrieval.schema import SEPARATOR

__all__ = ["Hit", "KnowledgeBase", "Passage", "SEPARATOR", "SearchResult", "split_titles"]
