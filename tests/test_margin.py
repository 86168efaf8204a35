"""Questions with a margin (issue #73): known = right in >= 3 of 4 (6 of 8), unknown = never right, the middle
out of both sides, each family balanced, made-up entities kept; on a fixed probe."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from knowrl.effect.demo_questions import Item
from knowrl.effect.margin import balanced, counts, known_min, side, sides, split


def item(template: str, n: int, country: str) -> Item:
    return Item(f"{template}:{n}", template, f"Q {template} {n}?", (f"A{n}",), True, country, (country,))


def fixed() -> tuple[list[Item], dict[str, dict]]:
    """Two country families over 80 countries: ``capital`` known on 30, unknown on 40, middle 10; ``currency``
    known on 10, unknown on 60, middle 10. Right counts out of 8."""
    items, probe = [], {}
    syllables = ["bra", "ken", "mol", "tor", "vel", "sa", "di", "nor", "lu"]
    names = [f"{a.title()}{b}{c}" for a in syllables for b in syllables for c in ("ia", "land", "stan")]
    for n in range(80):
        country = names[n * 3]
        for template, known_until, middle_until in (("capital", 30, 40), ("currency", 10, 20)):
            it = item(template, n, country)
            items.append(it)
            probe[it.qid] = {"correct": 8 if n < known_until else (4 if n < middle_until else 0)}
    return items, probe


@pytest.mark.parametrize(
    ("correct", "k", "want"),
    [(3, 4, "known"), (2, 4, "middle"), (1, 4, "middle"), (0, 4, "unknown"), (6, 8, "known"), (5, 8, "middle")],
)
def test_the_margin_rule(correct: int, k: int, want: str) -> None:
    assert side(correct, k) == want


def test_known_min_is_configurable() -> None:
    assert known_min(8) == 6 and side(5, 8, need=5) == "known" and side(4, 8, need=5) == "middle"


def test_balance_per_family_and_the_middle_left_out() -> None:
    items, probe = fixed()
    where = sides(items, probe, 8)
    got = balanced(items, where, random.Random(0))
    per = Counter((i.template, where[i.qid]) for i in got)
    assert per == {
        ("capital", "known"): 30,
        ("capital", "unknown"): 30,
        ("currency", "known"): 10,
        ("currency", "unknown"): 10,
    }
    assert not any(where[i.qid] == "middle" for i in got)
    loose = Counter((i.template, where[i.qid]) for i in balanced(items, where, random.Random(0), ratio=2.0))
    assert loose[("currency", "unknown")] == 20 and loose[("capital", "unknown")] == 40
    capped = Counter(where[i.qid] for i in balanced(items, where, random.Random(0), limit=40))
    assert capped["known"] == capped["unknown"] and sum(capped.values()) <= 40


def test_split_keeps_entities_on_one_side_balanced_with_made_up_questions() -> None:
    items, probe = fixed()
    held, train, how = split(items, probe, 8, seed=3, heldout_made_up=6)
    real_held = {i.links[0] for i in held if i.answerable}
    real_train = {i.links[0] for i in train if i.answerable}
    assert real_held and real_train and not real_held & real_train
    for part in ("heldout", "train"):
        for fam in ("capital", "currency"):
            assert how[part][fam]["known"] == how[part][fam]["unknown"] > 0
            assert how[part][fam]["middle"] == 0
    assert sum(not i.answerable for i in held) == 6 and any(not i.answerable for i in train)
    assert how["candidates"]["all"] == {"known": 40, "unknown": 100, "middle": 20}
    again, _, _ = split(items, probe, 8, seed=4, heldout_made_up=6)
    assert [i.qid for i in again] == [i.qid for i in held]  # the held-out set does not depend on the seed
    assert counts(held, sides(held, probe, 8))["all"]["middle"] == 0
    where = sides(items, probe, 8)
    flags = [where.get(i.qid) == "known" for i in train]
    n_known = sum(flags)
    assert flags[: 2 * n_known] == [True, False] * n_known  # every pair of prompts holds a known question
