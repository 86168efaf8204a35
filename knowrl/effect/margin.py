"""Questions with a margin: known and unknown questions a probe tells apart clearly, balanced within each family.

Selective abstention is learnable only where the policy's knowledge differs clearly between questions of one
kind. The base policy's probe (k sampled bare answers per candidate, ``knowrl.effect.boundary``) sorts each
candidate into

- **known**: right in at least ``known_min`` of its answers (3 of 4, 6 of 8 by default);
- **unknown**: never right;
- **middle**: the rest. Reported, kept out of training and out of the held-out set: a question right half of
  the time has no clear right action under any reward, and blurs "abstains on what it does not know".

Within each family the known and unknown sides are balanced (at most ``ratio`` of one per one of the other),
so a policy cannot score by abstaining on whole families (the family-prior rule the study reports beside its
AUROC). Whole entities go to one side (``knowrl.effect.stratify.split_groups``); made-up countries are kept on
both sides (built differently per side, as in ``knowrl.effect.demo_questions``).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from pathlib import Path
from typing import Any, Literal, Mapping, Sequence

from knowrl.effect.demo_questions import Item

Side = Literal["known", "unknown", "middle"]
KNOWN_MIN_SHARE = 0.75  # 3 of 4, 6 of 8


def known_min(k: int, share: float = KNOWN_MIN_SHARE) -> int:
    """Right answers out of k that make a question known.

    >>> known_min(4), known_min(8), known_min(10)
    (3, 6, 8)
    """
    return max(1, math.ceil(k * share - 1e-9))


def side(correct: int | None, k: int, need: int | None = None) -> Side:
    """Known, unknown or middle for a question right in ``correct`` of ``k`` sampled answers (None: not probed,
    middle).

    >>> side(3, 4), side(0, 4), side(2, 4), side(5, 8), side(6, 8), side(None, 8)
    ('known', 'unknown', 'middle', 'middle', 'known', 'middle')
    """
    if correct is None:
        return "middle"
    if correct >= (known_min(k) if need is None else need):
        return "known"
    return "unknown" if correct == 0 else "middle"


def sides(
    items: Sequence[Item], probe: Mapping[str, Mapping[str, Any]], k: int, need: int | None = None
) -> dict[str, Side]:
    """qid -> side for every answerable item."""
    return {i.qid: side(probe[i.qid]["correct"] if i.qid in probe else None, k, need) for i in items if i.answerable}


def balanced(
    items: Sequence[Item], where: Mapping[str, Side], rng: random.Random, ratio: float = 1.0, limit: int | None = None
) -> list[Item]:
    """Per family, every item of its smaller side (known or unknown) and at most ``ratio`` times as many of the
    larger, drawn at random; middle items never. ``limit``: at most that many in all, shared over the families
    in proportion to what each offers, each family's sides kept in balance."""
    fams: dict[str, dict[str, list[Item]]] = defaultdict(lambda: {"known": [], "unknown": []})
    for item in sorted(items, key=lambda i: i.qid):
        s = where.get(item.qid, "middle")
        if s != "middle":
            fams[item.template][s].append(item)
    per_family: dict[str, tuple[int, int]] = {}
    for name, f in sorted(fams.items()):
        small = min(len(f["known"]), len(f["unknown"]))
        cap = math.floor(small * ratio)
        per_family[name] = (min(len(f["known"]), cap), min(len(f["unknown"]), cap))
    total = sum(a + b for a, b in per_family.values())
    if limit is not None and total > limit:
        scale = limit / total
        per_family = {n: (math.floor(a * scale), math.floor(b * scale)) for n, (a, b) in per_family.items()}
    chosen: list[Item] = []
    for name, (n_known, n_unknown) in sorted(per_family.items()):
        chosen += rng.sample(fams[name]["known"], n_known) + rng.sample(fams[name]["unknown"], n_unknown)
    rng.shuffle(chosen)
    return chosen


def counts(items: Sequence[Item], where: Mapping[str, Side]) -> dict[str, dict[str, int]]:
    """Per family and in all: known, unknown and middle questions (what reports print)."""
    out: dict[str, dict[str, int]] = {}
    for item in items:
        if not item.answerable:
            continue
        for key in (item.template, "all"):
            row = out.setdefault(key, {"known": 0, "unknown": 0, "middle": 0})
            row[where.get(item.qid, "middle")] += 1
    return dict(sorted(out.items()))


def split(
    items: Sequence[Item],
    probe: Mapping[str, Mapping[str, Any]],
    k: int,
    seed: int,
    train_questions: int | None = None,
    heldout_share: float = 0.5,
    ratio: float = 1.0,
    made_up_share: float = 0.125,
    heldout_made_up: int = 40,
    need: int | None = None,
) -> tuple[list[Item], list[Item], dict[str, Any]]:
    """(held-out items, this seed's training items, what was drawn). The held-out side is the same for every seed
    (split seed 0); the training draw uses ``seed``. Both are balanced per family; ``train_questions`` caps the
    real training questions (made-up ones come on top at ``made_up_share``)."""
    from knowrl.effect.demo_questions import GRADIENT_FORMS, _markov_names, _syllable_names, made_up_items
    from knowrl.effect.stratify import split_groups

    where = sides(items, probe, k, need)
    known = {q: s == "known" for q, s in where.items()}
    held_side, pool_side = split_groups(items, known, heldout_share, split_seed=0)
    held = balanced(held_side, where, random.Random(0), ratio)
    train = balanced(pool_side, where, random.Random(seed), ratio, train_questions)
    countries = sorted({i.links[0] for i in items if i.template == "capital"})
    taken = {c.lower() for c in countries}
    held_fakes = _markov_names(random.Random(1), countries, taken, heldout_made_up)
    held += made_up_items(held_fakes, "markov", GRADIENT_FORMS)
    n_fake = round(len(train) * made_up_share / (1 - made_up_share))
    train_fakes = _syllable_names(random.Random(seed + 2), taken | {n.lower() for n in held_fakes}, n_fake)
    train += made_up_items(train_fakes, "syllable", GRADIENT_FORMS)
    random.Random(seed).shuffle(train)
    train = interleave(train, where)
    how = {
        "design": "margin",
        "rule": f"known: right in >= {need or known_min(k)} of {k} sampled bare answers; unknown: never right; "
        "the middle kept out of both sides",
        "balance": f"per family, at most {ratio:g} of one side per one of the other",
        "candidates": counts(items, where),
        "heldout": counts(held, where),
        "train": counts(train, where),
    }
    return held, train, how


def interleave(items: Sequence[Item], where: Mapping[str, Side]) -> list[Item]:
    """Known and not-known (unknown, made-up) items alternately, each side in its given order: read in order
    (GRPO with ``shuffle_dataset: false``), every step's prompts hold both, so each step can learn the
    difference, not one side's action for a few steps at a time.

    >>> a, b = Item("a", "t", "?", (), True, "", ()), Item("b", "t", "?", (), True, "", ())
    >>> c = Item("c", "t", "?", (), False, "", ())
    >>> [i.qid for i in interleave([c, b, a], {"a": "known", "b": "unknown"})]
    ['a', 'c', 'b']
    """
    known = [i for i in items if where.get(i.qid) == "known"]
    other = [i for i in items if where.get(i.qid) != "known"]
    out: list[Item] = []
    for n in range(max(len(known), len(other))):
        out += known[n : n + 1] + other[n : n + 1]
    return out


def study_rows(probe: Mapping[str, Mapping[str, Any]], k: int, seed: int = 0, **options: Any) -> dict[str, list[dict]]:
    """The study's training and held-out RL rows drawn from ``probe`` (what the forecast reads without --data)."""
    from knowrl.effect.demo_data import gradient_items

    held, train, _ = split(gradient_items(), probe, k, seed, **options)
    return {"train": [i.rl_row() for i in train], "heldout": [i.rl_row() for i in held]}


def build_margin_data(
    out_dir: Path,
    probe: Mapping[str, Mapping[str, Any]],
    k: int,
    seed: int = 0,
    train_questions: int | None = None,
    ratio: float = 1.0,
    targets: Literal["short", "kb"] = "short",
    need: int | None = None,
    items: Sequence[Item] | None = None,
) -> dict[str, Path]:
    """train.jsonl, heldout.jsonl, sft.json and cold_start.json for the margin design: the cold start answers the
    known training questions and says "I don't know" to the unknown and made-up ones; ``targets`` short: one
    sentence (the answer or the admission) as the reasoning, no KB text."""
    from knowrl.effect.demo_data import gradient_items, write_data

    items = gradient_items() if items is None else items  # the candidates: ``items`` when the caller has them
    held, train, how = split(items, probe, k, seed, train_questions, ratio=ratio, need=need)
    where = sides([*held, *train], probe, k, need)
    unsure = {i.qid for i in train if i.answerable and where[i.qid] == "unknown"}
    how["reasoning"] = "one sentence: the answer or the admission" if targets == "short" else "answer first, KB text"
    marked = [{**i.rl_row(), "base_known": where.get(i.qid) == "known"} for i in train]
    held_rows = [{**i.rl_row(), "base_known": where.get(i.qid) == "known"} for i in held]
    return write_data(out_dir, marked, held_rows, train, unsure, how, answer_first=True, short=targets == "short")


def probe_for(
    config: Any, model_path: str, cache: Path, items: Sequence[Item]
) -> tuple[dict[str, dict[str, Any]], int]:
    """The base policy's probe of every candidate and its k: the config's probe file when it is this policy's
    (its own k and temperature), else probed now at k 8."""
    import json

    p = config.pipeline
    k, temperature = 8, 0.9
    if p.demo_boundary_file:
        head = json.loads(Path(p.demo_boundary_file).read_text(encoding="utf-8"))
        k, temperature = int(head.get("k", k)), float(head.get("temperature", temperature))
    boundary = {
        "model": model_path,
        "k": k,
        "temperature": temperature,
        "cache": cache,
        "file": p.demo_boundary_file,
        "model_name": None if p.demo_boundary_stand_in else config.model.name_or_path,
    }
    from knowrl.effect.demo_data import base_probe

    return base_probe(boundary, items), k


def margin_data_for(
    config: Any, out_dir: Path, model_path: str, cache: Path
) -> tuple[dict[str, Path], dict[str, dict[str, Any]], int]:
    """``knowrl.effect.margin.build_margin_data`` with a run config's pipeline settings: its files, and the probe
    with its k (the reward forecast reads them)."""
    from knowrl.effect.demo_data import gradient_items

    p = config.pipeline
    items = gradient_items()
    probed, k = probe_for(config, model_path, cache, items)
    paths = build_margin_data(
        out_dir,
        probed,
        k,
        config.seed,
        p.demo_train_questions,
        ratio=p.demo_margin_ratio,
        targets=p.demo_targets,
        need=p.demo_min_correct,
        items=items,
    )
    return paths, probed, k
