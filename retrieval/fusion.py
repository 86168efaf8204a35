"""Fusing ranked lists from BM25 and dense retrieval.

Two rules, both measured in ``bench/retrieval_quality.py``: reciprocal-rank fusion (ignores
score scales) and a convex combination of min-max normalised scores (uses them).
"""

from __future__ import annotations

from typing import Mapping, Sequence

Ranked = Sequence[tuple[int, float]]  # (passage id, score), best first

RRF_K = 60


def rrf(lists: Mapping[str, Ranked], k: int = RRF_K) -> dict[int, float]:
    """score(id) = sum over lists of 1 / (k + rank), rank from 1.

    >>> fused = rrf({"bm25": [(7, 12.0), (3, 9.5)], "dense": [(3, 0.8), (9, 0.7)]}, k=60)
    >>> sorted(fused, key=fused.get, reverse=True)  # 3 is in both lists
    [3, 7, 9]
    """
    fused: dict[int, float] = {}
    for ranked in lists.values():
        for rank, (pid, _) in enumerate(ranked, start=1):
            fused[pid] = fused.get(pid, 0.0) + 1.0 / (k + rank)
    return fused


def _minmax(ranked: Ranked) -> dict[int, float]:
    if not ranked:
        return {}
    scores = [s for _, s in ranked]
    lo, hi = min(scores), max(scores)
    span = hi - lo
    return {pid: (s - lo) / span if span > 0 else 1.0 for pid, s in ranked}


def convex(lists: Mapping[str, Ranked], weights: Mapping[str, float]) -> dict[int, float]:
    """score(id) = sum over lists of weight x min-max normalised score (0 when absent).

    >>> convex({"bm25": [(7, 12.0), (3, 9.0)], "dense": [(3, 0.9), (9, 0.5)]}, {"bm25": 0.5, "dense": 0.5})
    {7: 0.5, 3: 0.5, 9: 0.0}
    """
    fused: dict[int, float] = {}
    for name, ranked in lists.items():
        w = weights.get(name, 0.0)
        for pid, s in _minmax(ranked).items():
            fused[pid] = fused.get(pid, 0.0) + w * s
    return fused
