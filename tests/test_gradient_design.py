"""The effect design on questions the base policy half-knows: families with a famous-to-obscure gradient from
the shipped sources, held-out and training questions chosen from the base policy's probe (the committed
SmolLM2 probe, so these run without a model), and the base and majority rows graded by the same code."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from knowrl.effect import question_families as qf
from knowrl.effect.demo_data import GRADIENT_FAMILIES, build_gradient_data, gradient_items
from knowrl.effect.demo_questions import Item, copyable
from knowrl.effect.heldout import bare_completion, grade_stage, majority_answers
from knowrl.effect.stratify import pick, split_groups

PROBE = Path(__file__).resolve().parents[1] / "configs" / "data" / "boundary-smollm2.json"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    out = tmp_path_factory.mktemp("gradient")
    boundary = {"model": "unused", "k": 4, "temperature": 0.9, "cache": str(out / "cache"), "file": str(PROBE)}
    paths = build_gradient_data(out / "seed0", boundary, 160, 0, 240, 60, 0.45)
    other = build_gradient_data(out / "seed1", boundary, 160, 1, 240, 60, 0.45)

    def rows(path: Path) -> list[dict]:
        return [json.loads(line) for line in path.read_text().splitlines()]

    return {
        "held": rows(paths["heldout"]),
        "train": rows(paths["train"]),
        "held1": rows(other["heldout"]),
        "train1": rows(other["train"]),
        "cold": json.loads(paths["cold_start"].read_text()),
        "sft": json.loads(paths["sft"].read_text()),
    }


def test_every_family_has_many_entities_and_answers_from_the_sources():
    items = gradient_items()
    counts = Counter(i.template for i in items)
    assert set(counts) == set(qf.FAMILIES)
    assert counts["capital"] > 150 and counts["currency"] > 150 and counts["symbol"] > 100
    by_q = {i.question: i for i in items}
    assert by_q["What is the capital of France?"].aliases == ("Paris",)
    assert "euro" in by_q["What is the currency of Germany?"].aliases
    assert by_q["What is the chemical symbol of iron?"].aliases == ("Fe",)
    assert by_q["Which chemical element has the symbol Na?"].aliases == ("Sodium",)
    assert by_q["What is the atomic number of carbon?"].aliases == ("6",)
    assert "French" in by_q["What is the official language of France?"].aliases
    assert {"Swedish", "Swede", "Swedes"} <= set(by_q["What nationality are people from Sweden?"].aliases)
    assert by_q["What is the internet country code of Sweden?"].aliases == (".se", "se")
    assert by_q["Which chemical element has the atomic number 26?"].aliases == ("Iron",)
    # gold is the probe's few-shot example: never asked
    assert not any("gold" in i.question.lower() for i in items)


def test_no_candidate_gives_its_answer_away_and_the_check_would_catch_one():
    assert not any(copyable(i) for i in gradient_items())
    city = Item("capital:x", "capital", "What is the capital of Panama?", ("Panama City",), True, "", ("Panama",))
    assert copyable(city)


def test_heldout_and_training_never_share_an_entity(data):
    held_links = {r["title"] for r in data["held"] if r["answerable"]}
    for rows in (data["train"], data["train1"]):
        assert not held_links & {r["title"] for r in rows if r["answerable"] and r["title"]}
    held_countries = {r["question"] for r in data["held"]}
    assert not held_countries & {r["question"] for r in data["train"]}


def test_the_heldout_set_is_fixed_and_the_training_questions_follow_the_seed(data):
    assert [r["qid"] for r in data["held"]] == [r["qid"] for r in data["held1"]]
    assert [r["qid"] for r in data["train"]] != [r["qid"] for r in data["train1"]]


def test_the_base_policy_knows_30_to_60_percent_of_each_side(data):
    held, train = data["cold"]["heldout_known"]["all"], data["cold"]["train_known"]["all"]
    assert len(data["held"]) >= 300 and held["questions"] == 240
    assert 0.30 <= held["known"] / held["questions"] <= 0.60
    assert 0.30 <= train["known"] / train["questions"] <= 0.60
    # the rows carry the same flag the shares count, and the cold start abstains exactly on the unknown ones
    assert sum(r["base_known"] for r in data["held"] if r["answerable"]) == held["known"]
    unsure = set(data["cold"]["unsure_qids"])
    assert unsure == {r["qid"] for r in data["train"] if r["answerable"] and not r["base_known"]}
    families = {f for f in data["cold"]["heldout_known"] if f != "all"}
    assert families == set(GRADIENT_FAMILIES)


def _items(n_known: int, n_unknown: int, family: str) -> list[Item]:
    return [
        Item(f"{family}:{i}", family, f"q {family} {i}", ("a",), True, "", (f"{family}-{i}",))
        for i in range(n_known + n_unknown)
    ]


def test_pick_hits_the_known_share_per_family_on_a_fixed_probe():
    items = _items(20, 80, "a") + _items(40, 10, "b")
    known = {i.qid: int(i.qid.split(":")[1]) < (20 if i.template == "a" else 40) for i in items}
    chosen = pick(items, known, 60, 0.5, random.Random(0))
    assert len(chosen) == 60 and sum(known[i.qid] for i in chosen) == 30
    fams = Counter((i.template, known[i.qid]) for i in chosen)
    # each side spread over the families in proportion to what they offer: known 20:40, unknown 80:10
    assert fams[("a", True)] == 10 and fams[("b", True)] == 20
    assert fams[("a", False)] == 27 and fams[("b", False)] == 3
    # too few known: every known one, the rest unknown
    scarce = pick(items, known, 140, 0.6, random.Random(0))
    assert sum(known[i.qid] for i in scarce) == 60 and len(scarce) == 140


def test_split_keeps_whole_groups_and_gives_known_groups_their_own_share():
    items = [
        Item(f"{t}:{e}", t, f"{t} of {e}?", ("x",), True, "", (e,)) for e in map(str, range(40)) for t in ("p", "q")
    ]
    known = {i.qid: int(i.links[0]) < 10 for i in items}
    held, pool = split_groups(items, known, 0.5, 0, known_heldout_share=0.8)
    assert {i.links[0] for i in held}.isdisjoint({i.links[0] for i in pool})
    assert len({i.links[0] for i in held if known[i.qid]}) == 8
    assert len({i.links[0] for i in held if not known[i.qid]}) == 15


def test_base_and_majority_rows_go_through_the_evaluation_graders():
    rows = [
        {"title": "", "question": "Capital of France?", "answers": ["Paris"], "aliases": ["Paris"], "answerable": True},
        {"title": "", "question": "Capital of Peru?", "answers": ["Lima"], "aliases": ["Lima"], "answerable": True},
        {
            "title": "",
            "question": "Capital of Zorvia?",
            "answers": "(no such thing)",
            "aliases": [],
            "answerable": False,
        },
    ]
    answers = ["Paris", "I don't know", "Zorvia City"]
    stage = grade_stage(rows, [bare_completion(a) for a in answers], 1, attempted=True)
    # every answer is an attempt: the refusal counts as INCORRECT, not as an abstention
    assert stage["counts"] == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0]]
    plain = grade_stage(rows, [bare_completion(a) for a in answers], 1)
    assert plain["counts"][1] == [0, 0, 1, 0]
    guess = majority_answers(
        [
            {"template": "currency", "aliases": ["euro"], "answerable": True},
            {"template": "currency", "aliases": ["euro", "EUR"], "answerable": True},
            {"template": "currency", "aliases": ["yen"], "answerable": True},
            {"template": "capital", "aliases": ["Lima"], "answerable": True},
        ]
    )
    assert guess == {"currency": "euro", "capital": "Lima", "*": "euro"}


@pytest.mark.parametrize(
    "text, want",
    [
        ("Indian rupees (INR) per US dollar -", ("Indian rupee", "rupee", "Indian rupees", "rupees", "INR")),
        ("the US dollar is used", None),
        ("yen (JPY) per US dollar -", ("yen", "JPY")),
    ],
)
def test_currency_field_parsing(text, want):
    got = qf.currency_aliases(text)
    assert got == want if want is None else got[: len(want)] == want


def test_answer_first_reasoning_opens_with_the_stance_and_keeps_the_same_context():
    """``pipeline.demo_answer_first``: the answer sentence (or the admission) moves to the front; the KB
    sentences are the same, and an admission still keeps none that states the answer."""
    from knowrl.effect.demo_data import reasoning, states_answer

    item = next(i for i in gradient_items() if i.template == "capital" and len(i.context) >= 2)
    last, first = reasoning(item, False), reasoning(item, False, answer_first=True)
    assert last.endswith(item.answer_sentence) and first.startswith(item.answer_sentence)
    assert sorted(last.split()) == sorted(first.split())
    admit = reasoning(item, True, answer_first=True)
    assert admit.startswith(item.unsure)
    assert not any(states_answer(s, item.aliases) for s in admit[len(item.unsure) :].split(". ") if s.strip())
