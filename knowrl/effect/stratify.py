"""Choosing held-out and training questions from the base policy's knowledge boundary.

Selective abstention can only be shown on questions the policy knows about half of: a set it knows 3 % of
teaches "I don't know" to everything. The base policy's probe (``knowrl.effect.boundary``) marks each candidate
known or not; this module draws

- the held-out set once (its own seed, the same for every run): whole entity groups go to one side (the
  split of ``knowrl.effect.demo_questions``), known groups and unknown groups shared out in proportion, then per
  family a known share as close to ``known_share`` as the held-out side allows;
- each seed's training questions from the rest, with the same known share per family where the pool
  holds enough known questions (else every known one it has).

Strata are (family, known): a family the policy never knows still sends its unknown questions, so the
headline is not a set of only easy templates. The shares reached are returned, and reports print them.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Mapping, Sequence

from knowrl.effect.demo_questions import Item, _groups


def _by_family(items: Sequence[Item], known: Mapping[str, bool]) -> dict[str, dict[bool, list[Item]]]:
    out: dict[str, dict[bool, list[Item]]] = defaultdict(lambda: {True: [], False: []})
    for item in items:
        out[item.template][bool(known.get(item.qid))].append(item)
    return out


def _apportion(total: int, weights: Mapping[str, int]) -> dict[str, int]:
    """``total`` shared over keys in proportion to ``weights`` (largest remainders), never above a weight.

    >>> _apportion(5, {"a": 6, "b": 3, "c": 1})
    {'a': 3, 'b': 2, 'c': 0}
    """
    cap = sum(weights.values())
    total = min(total, cap)
    if not total:
        return {k: 0 for k in weights}
    raw = {k: total * w / cap for k, w in weights.items()}
    out = {k: min(int(v), weights[k]) for k, v in raw.items()}
    for k in sorted(weights, key=lambda k: (out[k] - raw[k], k)):
        if sum(out.values()) >= total:
            break
        if out[k] < weights[k]:
            out[k] += 1
    return out


def pick(
    items: Sequence[Item], known: Mapping[str, bool], n: int, known_share: float, rng: random.Random
) -> list[Item]:
    """``n`` items (fewer when there are not that many) with about ``known_share`` known, each side spread
    over the families in proportion to what each family offers."""
    fams = _by_family(items, known)
    n = min(n, len(items))
    n_known = min(round(n * known_share), sum(len(f[True]) for f in fams.values()))
    n_unknown = min(n - n_known, sum(len(f[False]) for f in fams.values()))
    n_known = min(n - n_unknown, sum(len(f[True]) for f in fams.values()))  # unknown ran short: more known
    chosen: list[Item] = []
    for side, count in ((True, n_known), (False, n_unknown)):
        quota = _apportion(count, {name: len(f[side]) for name, f in sorted(fams.items())})
        for name, f in sorted(fams.items()):
            pool = sorted(f[side], key=lambda i: i.qid)
            chosen += rng.sample(pool, quota[name])
    rng.shuffle(chosen)
    return chosen


def split_groups(
    items: Sequence[Item],
    known: Mapping[str, bool],
    heldout_share: float,
    split_seed: int,
    known_heldout_share: float | None = None,
) -> tuple[list[Item], list[Item]]:
    """(held-out side, training side): whole entity groups, ``known_heldout_share`` (default
    ``heldout_share``) of the groups holding a known item and ``heldout_share`` of the others, so both sides
    get known questions (known ones are rare: the held-out side needs more of them to reach its share)."""
    group = _groups(list(items))
    members: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        members[group[item.qid]].append(item)
    rng = random.Random(split_seed)
    held: list[Item] = []
    pool: list[Item] = []
    for has_known in (True, False):
        keys = sorted(g for g, m in members.items() if any(known.get(i.qid) for i in m) == has_known)
        rng.shuffle(keys)
        share = known_heldout_share if has_known and known_heldout_share is not None else heldout_share
        cut = round(len(keys) * share)
        for i, key in enumerate(keys):
            (held if i < cut else pool).extend(members[key])
    return held, pool


def shares(items: Sequence[Item], known: Mapping[str, bool]) -> dict[str, dict[str, int]]:
    """Per family and in all: questions and how many the base policy knows (what reports print)."""
    out: dict[str, dict[str, int]] = {}
    for item in items:
        if not item.answerable:
            continue
        for key in (item.template, "all"):
            row = out.setdefault(key, {"questions": 0, "known": 0})
            row["questions"] += 1
            row["known"] += bool(known.get(item.qid))
    return out
