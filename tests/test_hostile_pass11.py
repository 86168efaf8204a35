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


def test_an_input_moved_resumes_and_another_input_is_still_refused(tmp_path) -> None:
    """The same rows at another path resume (the rows' digests say they are the ones scored); other rows at the
    new path are refused as before (resuming would drop the scores)."""
    import json

    from tests.test_jobs_keyed_by_content import DOCS, ROWS, build_kb, config, jsonl, score, summary

    db = build_kb(tmp_path, tmp_path / "kb.db", DOCS, "--no-dense")
    cfg = config(tmp_path, kb_path=str(db), retrieval_mode="bm25")
    src, out = jsonl(tmp_path / "in.jsonl", ROWS), tmp_path / "scored.jsonl"
    summary(score(src, out, cfg))
    scored = out.read_bytes()
    moved = tmp_path / "runs" / "in.jsonl"
    moved.parent.mkdir()
    src.rename(moved)
    assert summary(score(moved, out, cfg))["already_scored"] == 3 and out.read_bytes() == scored
    other = jsonl(tmp_path / "other.jsonl", [{**ROWS[0], "completion": "<answer>Paris</answer>"}, *ROWS[1:]])
    refused = score(other, out, cfg)
    assert refused.returncode == 2 and "holds rows made for the input" in refused.stderr
    assert out.read_bytes() == scored
    assert json.loads(out.with_name(out.name + ".job.json").read_text())["input"] == str(moved)


def test_the_reward_code_version_covers_the_engine_and_the_search_code(monkeypatch) -> None:
    """Hostile pass 12: an output scored by an older engine.py (which sets the total) or an older fts.py (which
    finds the evidence) resumed as it was; both now change the version a job's rows are keyed to."""
    from pathlib import Path

    import reward_engine.offline.version as version

    package = Path(version.__file__).resolve().parents[1]
    globbed = {p.resolve() for pattern in version._SCORING for p in package.glob(pattern)}
    assert (package / "engine.py").resolve() in globbed
    before = version.rules_version.__wrapped__()
    monkeypatch.setattr(version, "search_version", lambda: "another-search-code")
    assert version.rules_version.__wrapped__() != before


def test_a_plugin_edited_in_place_is_another_fingerprint(tmp_path, monkeypatch) -> None:
    """Hostile pass 12: a plugin module's code changed under the same name and the job resumed the rows its old
    code scored; its source now keys the fingerprint."""
    import sys

    from reward_engine.config import parse_reward_config

    (tmp_path / "h12plug.py").write_text("SUPPORTS = False\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    raw = {"plugins": ["h12plug"], "factuality": {"enabled": False}}
    before = parse_reward_config(raw).fingerprint()
    assert parse_reward_config(raw).fingerprint() == before
    (tmp_path / "h12plug.py").write_text("SUPPORTS = True\n")
    assert parse_reward_config(raw).fingerprint() != before
    sys.modules.pop("h12plug", None)


@pytest.mark.parametrize(
    ("after", "reward"),
    [
        ("", 1.0),
        (" The Eiffel Tower was completed in 1901.", 0.0),  # a false sentence after the block is verified too
        (" The Eiffel Tower was completed in 1889.", 1.0),
        (" Anything else?", 1.0),  # no statement: nothing to verify
        (" Hope this helps.", 1.0),
    ],
)
async def test_binary_rar_verifies_what_follows_the_answer_block(kb, after: str, reward: float) -> None:
    """Hostile pass 12: Binary RAR verifies the response after </think>; a false claim after </answer> cost
    nothing (binary-rar has no format term)."""
    from reward_engine.config import parse_reward_config
    from reward_engine.engine import RewardEngine, Sample

    config = parse_reward_config({"preset": "binary-rar", "factuality": {"kb_path": "unused-kb-object-given"}})
    completion = f"<think>The capital of France is Paris.</think><answer>Paris</answer>{after}"
    async with RewardEngine(config, kb=kb) as engine:
        (result,) = await engine.score([Sample(FRANCE, completion, "Paris", "Paris")])
    assert result.status == "ok" and result.total == reward


@pytest.mark.parametrize(
    ("claim", "supported", "contradicted"),
    [
        ("It is false that Jupiter is the largest planet in the Solar System.", False, True),
        ("It is a myth that Jupiter is the largest planet in the Solar System.", False, True),
        ("It is true that Jupiter is the largest planet in the Solar System.", True, False),
    ],
)
def test_a_claim_called_false_is_negated(claim: str, supported: bool, contradicted: bool) -> None:
    assert facts.supported(claim, [PASSAGE["Jupiter"]]) is supported
    assert facts.contradicted(claim, [PASSAGE["Jupiter"]]) is contradicted


@pytest.mark.parametrize(
    ("question", "response", "title", "contradicted"),
    [
        (LARGEST, "Jupiter, the smallest planet in the Solar System.", "Jupiter", True),
        (LARGEST, "Jupiter, the largest planet in the Solar System.", "Jupiter", False),
        (FRANCE, "Paris, the smallest city of France", "Paris", True),
        (FRANCE, "Paris, the largest city of France", "Paris", False),
    ],
)
def test_binary_rar_reads_a_description_the_evidence_turns_round(question, response, title, contradicted) -> None:
    assert facts.answer_contradicted(question, response, [PASSAGE[title]]) is contradicted
