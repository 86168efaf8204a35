"""Hostile pass 11 (issue #74): 49 new cases written before they were run; 8 failed, the ones closed here each with
a test that fails on the code before it, controls beside them.

Reward holes: Binary RAR paid 1 for "Jupiter is the second-largest planet; Saturn is the largest" (the gold named
elsewhere shielded the wrong clause); "hardly" and "scarcely" were not read as negations. Underpaid: Binary RAR
read "Paris, the City of Light" as a second name. A reasoning that names the ``<answer>`` tag in prose costs the
format point, as our format rule says (docs/knowrl-fidelity.md now says it of any nested tag, not only a block's
first word); KnowRL's regex pays it.
"""

from __future__ import annotations

import pytest

from reward_engine.completion import format_reward, parse
from reward_engine.offline import facts
from tests.helpers import CORPUS

PASSAGE = dict(CORPUS)
LARGEST = "Which planet is the largest in the Solar System?"
FRANCE = "What is the capital of France?"


@pytest.mark.parametrize(
    ("response", "contradicted"),
    [
        ("Jupiter is the second-largest planet; Saturn is the largest.", True),
        ("Saturn is the largest; Jupiter is second.", True),
        ("Jupiter is the largest planet; Saturn is second.", False),
        ("Jupiter is the largest planet, and Saturn is the second largest.", False),
        ("It is Jupiter, the largest planet.", False),
        ("Saturn is smaller than Jupiter, which is the largest.", False),  # the superlative is Jupiter's
        ("Saturn is the very largest.", True),
        ("Jupiter", False),
    ],
)
def test_binary_rar_reads_whom_a_clause_gives_the_superlative(response: str, contradicted: bool) -> None:
    assert facts.answer_contradicted(LARGEST, response, [PASSAGE["Jupiter"]]) is contradicted


@pytest.mark.parametrize(
    ("response", "contradicted"),
    [
        ("Paris, the City of Light", False),
        ("Paris (the City of Light)", False),
        ("Lyon, the City of Light", True),  # the name before the description is still checked
        ("Paris, Lyon", True),
        ("Paris, the City of Light, not Lyon", False),
    ],
)
def test_binary_rar_reads_a_description_after_the_name_as_said_of_it(response: str, contradicted: bool) -> None:
    assert facts.answer_contradicted(FRANCE, response, [PASSAGE["Paris"]]) is contradicted


@pytest.mark.parametrize(
    ("claim", "supported", "contradicted"),
    [
        ("Python is hardly a general-purpose programming language.", False, True),
        ("Python is scarcely a general-purpose programming language.", False, True),
        ("Python is a general-purpose programming language.", True, False),
    ],
)
def test_hardly_and_scarcely_negate(claim: str, supported: bool, contradicted: bool) -> None:
    passage = [PASSAGE["Python (programming language)"]]
    assert facts.supported(claim, passage) is supported
    assert facts.contradicted(claim, passage) is contradicted


@pytest.mark.parametrize(
    ("completion", "reward", "answer"),
    [
        # our format rule, as docs/knowrl-fidelity.md says: any nested opening tag, even one named in prose, is -1
        # (KnowRL's regex pays +1 here); the answer after the reasoning is read either way
        ("<think>It is Paris. I will put the final answer inside <answer> tags.</think><answer>Paris</answer>", -1.0,
         "Paris"),
        ("<think>Maybe <answer>Lyon</answer> fits.</think><answer>Paris</answer>", -1.0, "Paris"),
        ("<think>It is Paris.</think><answer>Paris</answer>", 1.0, "Paris"),
    ],
)  # fmt: skip
def test_a_tag_named_in_the_reasoning_costs_the_format_not_the_answer(completion: str, reward: float, answer: str):
    assert format_reward([completion]) == [reward]
    assert parse(completion).answer == answer


def test_a_kb_moved_to_another_path_resumes_the_job(tmp_path) -> None:
    """The same KB content at another path is the same job (docs: "keyed by content, not by paths"); the job
    refused its own rows with "written with other settings" (the path was in the config's fingerprint)."""
    import shutil

    from tests.test_jobs_keyed_by_content import DOCS, ROWS, build_kb, config, jsonl, score, summary

    db = build_kb(tmp_path, tmp_path / "kb.db", DOCS, "--no-dense")
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"
    assert summary(score(src, out, config(tmp_path, kb_path=str(db), retrieval_mode="bm25")))["statuses"] == {"ok": 3}
    scored = out.read_bytes()
    moved = tmp_path / "elsewhere" / "kb2.db"
    moved.parent.mkdir()
    shutil.copyfile(db, moved)
    db.unlink()
    again = summary(score(src, out, config(tmp_path, "moved.yaml", kb_path=str(moved), retrieval_mode="bm25")))
    assert again["already_scored"] == 3 and out.read_bytes() == scored


def test_an_output_recorded_with_the_kb_path_in_its_fingerprint_resumes(tmp_path) -> None:
    """A job recorded before the path left the fingerprint (same config, same KB) resumes, its record adopted."""
    import json

    from reward_engine.config import load_reward_config
    from reward_engine.job import job_fingerprint
    from tests.test_jobs_keyed_by_content import DOCS, ROWS, build_kb, config, jsonl, score, summary

    db = build_kb(tmp_path, tmp_path / "kb.db", DOCS, "--no-dense")
    cfg = config(tmp_path, kb_path=str(db), retrieval_mode="bm25")
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"
    summary(score(src, out, cfg))
    side = out.with_name(out.name + ".job.json")
    record = json.loads(side.read_text())
    loaded = load_reward_config(cfg)
    old = job_fingerprint(loaded, record["knowledge"], with_kb_path=True)
    assert old != record["settings"]  # the path is in the older one
    side.write_text(json.dumps({**record, "settings": old, "config": loaded.fingerprint(with_kb_path=True)}))
    assert summary(score(src, out, cfg))["already_scored"] == 3
    assert json.loads(side.read_text())["settings"] == record["settings"]
