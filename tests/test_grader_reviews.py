"""What the reviews of hostile passes 26-41's rules (issue #74) found the grader reading right, pinned: 2,994 cases a
review helper wrote before running them against the code before and after each pass's rules
(tests/data/grader_reviews.jsonl; its `review` field names the pass: 30 is the review of the rules that closed pass
30's findings, 31 of pass 31's, and so on; 35-38 also review the mends after the review before; 39 and 40 both
review pass 39's rules, 40 the second half of them; 42 reviews pass 40's last two rules, with 47 fact checks; 43
pass 41's, with 47 more; its claim de-duplication cases are in claim_dedupe_review43.jsonl; 44 passes 42 and 43's five
rules, its restatement cases in restatements_review44.jsonl; 45 pass 44's seven; 46 pass 45's four; 47 the ten of
pass 47 and what was found beside it; 48 pass 48's six; 49 pass 49's three grader and fact rules; 52 the rule that
closed pass 51's asked slot given to another name, ``slots.given_to_another``: no regression, its misses left out;
53 that rule again and pass 52's, out of sample: 7 regressions, all in the place rule (a place inside another), mended,
with ``facts.contradicted`` rows of their own; 55 the rules that closed passes 54 and 55, 57 those of review 55's misses
and pass 57, both with 16 and more regressions at first, mended before their rows were pinned; 59 those of review
57's reward holes and pass 59, 3 regressions and 9 more in probes after its diffs were read, mended).
Every rule those passes added first over-reached somewhere (45, 51, 32, 29, 41, 39, 31, 11, 5, 22, 35, 45, 41, 31,
43, 33, 61, 43, 23, 28, 22, 17 and 23 regressions); these rows are
how a later rule shows it would undo a mend. Cases a reviewer marked unsure, and those the grader still reads wrong
(each pass's test file lists what is left), are not here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from reward_engine.stages.claims import distinct, restatements

ROWS = [json.loads(line) for line in (Path(__file__).parent / "data" / "grader_reviews.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("row", ROWS, ids=[f"r{r['review']}-{i}" for i, r in enumerate(ROWS)])
def test_a_reviewed_case_keeps_its_reading(row: dict) -> None:
    if "label" in row:
        assert grade(row["answer"], row["gold"], row["question"]).name == row["label"]
    elif "contradicted" in row and "claim" in row:
        assert facts.contradicted(row["claim"], row["passages"]) is row["contradicted"]
    elif "contradicted" in row:
        assert facts.answer_contradicted(row["question"], row["answer"], row["passages"]) is row["contradicted"]
    else:
        assert facts.supported(row["claim"], row["passages"]) is row["supported"]


def test_the_pinned_cases_cover_every_review_and_all_three_readers() -> None:
    assert {r["review"] for r in ROWS} == {
        26,
        27,
        28,
        29,
        30,
        31,
        32,
        33,
        34,
        35,
        36,
        37,
        38,
        39,
        40,
        42,
        43,
        44,
        45,
        46,
        47,
        48,
        49,
        52,
        53,
        55,
        57,
        59,
        61,
    }
    # review 55: 204, 18 more once its misses closed; 57: 183, 14 more once its reward holes closed; 59: 202 of its
    # 225 cases and 23 of 30 probes written after its diffs were read, less "Wellington, New Zealand." (a rule for it
    # failed "Mozart, Austria.": withdrawn); 61: the 104 of its 120 cases held once its misses were mended
    assert len(ROWS) == 3567 + 89 + 205 + 204 + 18 + 183 + 14 + 224 + 104
    assert all(any(key in r for r in ROWS) for key in ("label", "contradicted", "supported"))
    assert any("claim" in r and "contradicted" in r for r in ROWS)


DEDUPE = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "claim_dedupe_review43.jsonl").read_text().splitlines()
]


@pytest.mark.parametrize("row", DEDUPE, ids=[f"dedupe-{i}" for i in range(len(DEDUPE))])
def test_knowrl_robust_counts_the_claims_review_43_expected(row: dict) -> None:
    assert len(distinct(row["claims"], "words")) == row["kept"]


RESTATED = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "restatements_review44.jsonl").read_text().splitlines()
]


@pytest.mark.parametrize("row", RESTATED, ids=[f"restates-{i}" for i in range(len(RESTATED))])
def test_knowrl_robust_drops_the_restatements_review_44_expected(row: dict) -> None:
    evidence = [row["passages"]] * len(row["claims"])
    assert restatements(row["claims"], row["flags"], evidence) == row["restates"]
