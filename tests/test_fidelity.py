"""KnowRL fidelity: the presets' arithmetic, the claim policy, the NLI verifier and KnowRL's retrieval rules.

The numbers here are KnowRL's (zjunlp/KnowRL f75b0bb; June 2025: 1201fc0) worked by hand from their
code's rules; bench/results/conformance.md runs their code itself against the engine.
"""

import math
import sqlite3

import pytest

from reward_engine.config import ConfigError, parse_reward_config
from reward_engine.engine import RewardEngine, Sample
from reward_engine.labels import Label
from reward_engine.offline import shortcuts
from reward_engine.prompts import parse_claims
from reward_engine.semantics import binary_rar, combine, fact_score, no_answer_reward, semantics, uses_fact
from reward_engine.stages.claims import select_claims
from tests.helpers import server_stats


# -- arithmetic of each preset -------------------------------------------------------------
def test_knowrl_adds_the_fact_score_to_a_missing_answer():
    """The issue's example: a completion cut mid-<think> with 12 claims, 9 supported -> -1 + (-1 + 0.75)."""
    sem = semantics("knowrl")
    fact = fact_score(9, 12, sem)
    assert fact == 0.75 and no_answer_reward(fact, sem) == -0.25
    assert -1.0 + no_answer_reward(fact, sem) == -1.25  # format -1 + correctness
    assert no_answer_reward(None, sem) is None  # fact score not ready: unscored, never a made-up -1


def test_knowrl_labels_and_the_fact_score():
    sem = semantics("knowrl")
    assert combine(Label.CORRECT, None, sem) == 2.0 and combine(Label.NOT_ATTEMPTED, None, sem) == 1.0
    assert combine(Label.INCORRECT, fact_score(3, 3, sem), sem) == pytest.approx(-1 + math.exp(1 - 10 / 3))
    assert combine(Label.INCORRECT, fact_score(10, 10, sem), sem) == 0.0  # n = gamma: no penalty
    assert combine(Label.INCORRECT, fact_score(11, 20, sem), sem) == pytest.approx(-1 + 11 / 20)
    assert combine(Label.UNPARSEABLE, None, sem) == 0.0
    assert not uses_fact(Label.NOT_ATTEMPTED, sem) and uses_fact(None, sem) and uses_fact(Label.INCORRECT, sem)


def test_june2025_punishes_refusals_and_adds_the_capped_fact_score_to_every_minus_one():
    sem = semantics("knowrl-june2025")
    assert combine(Label.NOT_ATTEMPTED, fact_score(3, 4, sem), sem) == pytest.approx(-1 + 3 / 15)
    assert combine(Label.INCORRECT, fact_score(20, 30, sem), sem) == 0.0  # min(20/15, 1)
    assert no_answer_reward(fact_score(6, 6, sem), sem) == pytest.approx(-1 + 6 / 15)
    assert combine(Label.CORRECT, None, sem) == 2.0


def test_truthrl_is_ternary_and_has_no_fact_term():
    sem = semantics("truthrl")
    assert [combine(x, None, sem) for x in (Label.CORRECT, Label.NOT_ATTEMPTED, Label.INCORRECT)] == [1.0, 0.0, -1.0]
    assert no_answer_reward(None, sem) == -1.0 and not uses_fact(Label.INCORRECT, sem)


def test_binary_rar_is_one_only_without_contradictions():
    assert [binary_rar(0), binary_rar(1), binary_rar(5), binary_rar(None)] == [1.0, 0.0, 0.0, None]
    sem = semantics("binary-rar")
    assert (sem.format_correct, sem.format_wrong, sem.rule) == (0.0, 0.0, "binary_rar")


# -- June 2025's judge-free shortcuts ------------------------------------------------------
@pytest.mark.parametrize(
    "answer,refusal",
    [
        ("I cannot answer this question.", True),
        ("As a language model, I don't have access to that.", True),
        ("I would need more context to answer.", True),
        ("Additional details would be required.", True),
        ("I must respectfully decline answering.", True),
        ("I don't know.", False),  # not one of June's phrases: it went to the grader
        ("Paris", False),
        ("It cannot be Lyon", False),
    ],
)
def test_june_refusal_phrases(answer, refusal):
    assert shortcuts.is_refusal(answer) is refusal


@pytest.mark.parametrize(
    "answer,gold,skips_judge",
    [
        ("Lyon", "Paris", True),
        ("the city of paris", "Paris", False),
        ("Parisian", "Paris", False),  # a substring, as June's check
        ("1889", "1889", False),  # gold with a digit: always the grader
        ("the whole band", "The Who", False),  # 'who' is a keyword, found inside 'whole'
        ("Lyon", "A", True),  # no keyword at all: INCORRECT without the grader
    ],
)
def test_june_keyword_shortcut(answer, gold, skips_judge):
    assert shortcuts.misses_gold_keywords(answer, gold) is skips_judge


async def test_june2025_preset_scores_shortcuts_without_the_judge(server, kb):
    config = _llm(server, preset="knowrl-june2025")
    async with RewardEngine(config, kb=kb) as engine:
        refusal, keyword, graded = await engine.score(
            [
                Sample("Capital of France?", "<think>Hmm.</think><answer>I cannot answer that.</answer>", "Paris"),
                Sample("Capital of France?", "<think>Hmm.</think><answer>Lyon</answer>", "Paris"),
                Sample("Capital of France?", "<think>Hmm.</think><answer>Paris</answer>", "Paris"),
            ]
        )
    assert (refusal.label, keyword.label, graded.label) == ("NOT_ATTEMPTED", "INCORRECT", "CORRECT")
    assert refusal.correctness == keyword.correctness == -1.0  # "Hmm." holds no claim: fact 0
    by_kind = (await _stats(server))["by_kind"]
    assert by_kind["grader"] == 1  # only the third asked the grader


# -- the claim policy ----------------------------------------------------------------------
def test_knowrl_claims_follow_factscore_extraction():
    sem = semantics("knowrl")
    claims = ["Paris is in France.", "PARIS IS IN FRANCE.", "Too short", "Tokyo is in Japan.", "paris is in france"]
    kept, off = select_claims(claims, "Capital of France?", "Paris", sem)
    # >= 3 words, case-insensitive repeats once, nothing filtered for topic, no cap
    assert kept == ["Paris is in France.", "Tokyo is in Japan.", "paris is in france"] and off == []
    many = [f"Claim number {i} is here." for i in range(40)]
    assert len(select_claims(many, "q", "", sem)[0]) == 40


def test_robust_preset_filters_off_topic_claims_and_caps():
    sem = semantics("knowrl-robust")
    kept, off = select_claims(
        ["The Eiffel Tower is in Paris.", "Tokyo is in Japan."], "Where is the Eiffel Tower?", "", sem
    )
    assert kept == ["The Eiffel Tower is in Paris."] and off == ["Tokyo is in Japan."]


def test_factuality_overrides_take_precedence_over_the_preset():
    config = parse_reward_config({"factuality": {"kb_path": "x", "relevance": "question", "max_claims": 5}})
    assert (config.reward_semantics.relevance, config.reward_semantics.max_claims) == ("question", 5)
    assert (parse_reward_config({"factuality": {"kb_path": "x"}}).reward_semantics.relevance) == "off"


def test_non_factual_marker_means_no_claims():
    assert parse_claims("NON_FACTUAL: the text is a greeting.") == []
    assert parse_claims("- Paris is in France.\n- NON_FACTUAL: nothing else") == []
    assert parse_claims("- Paris is in France.\n- Lyon is in France.") == ["Paris is in France.", "Lyon is in France."]


def test_knowrl_grader_and_factscore_templates_load(tmp_path, server):
    """KnowRL's grader names the gold {gold_answer}; FActScore's decomposition names the text {text}."""
    grader, decompose = tmp_path / "g.txt", tmp_path / "d.txt"
    grader.write_text("Q {question}\nGold {gold_answer}\nPredicted {answer}\nA, B or C?")
    decompose.write_text("Facts of:\n{text}\nOne per line starting with '- '.")
    config = _llm(server, prompts={"grader": str(grader), "decompose": str(decompose)})
    engine = RewardEngine(config)
    assert (
        engine.grader.request("q?", "Paris", "Lyon").messages[0]["content"]
        == "Q q?\nGold Paris\nPredicted Lyon\nA, B or C?"
    )
    assert "Facts of:\nParis is big.\n" in engine.decomposer.request("Paris is big.").messages[0]["content"]


# -- retrieval as KnowRL does it -------------------------------------------------------------
def test_a_title_containing_a_semicolon_is_looked_up_whole_first(tmp_path, embedder):
    from retrieval.kb import KnowledgeBase

    db = tmp_path / "kb.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE documents(title TEXT PRIMARY KEY, text TEXT)")
        conn.executemany(
            "INSERT INTO documents VALUES (?, ?)",
            [("Love; Actually", "A film about love."), ("Love", "An emotion."), ("Actually", "An adverb.")],
        )
    with KnowledgeBase(db, embedder=embedder) as kb:
        assert kb.wanted_titles("Love; Actually") == ["Love; Actually"]
        assert kb.wanted_titles("Love;Actually") == ["Love", "Actually"]  # not a title: its parts
        hits = kb.search("a film", titles="Love; Actually", k=5).hits
        assert [h.passage.title for h in hits] == ["Love; Actually"]


async def test_evidence_query_is_topic_plus_claim(server, kb):
    config = _llm(server)
    async with RewardEngine(config, kb=kb) as engine:
        retriever = await engine.ensure_retriever()
        topic = engine.facts.topic(Sample("Where is it?", "c", "x", "Eiffel Tower"))
        assert topic == "Eiffel Tower"
        await retriever.retrieve(["It was completed in 1889."], "Eiffel Tower", topic)
    assert ("claim", 5, "Eiffel Tower It was completed in 1889.", "Eiffel Tower") in retriever._memo
    bare = _llm(server, factuality={"kb_path": "unused", "retrieval_query": "claim"})
    assert RewardEngine(bare, kb=kb).facts.topic(Sample("q", "c", "x", "T")) is None


# -- the NLI verifier ------------------------------------------------------------------------
NLI_TEXTS = [
    "Paris is the capital and largest city of France.",
    "The Eiffel Tower in Paris was completed in 1889.",
    "Paris lies on the river Seine.",
    "Lyon is the capital of France.",
    "Mount Everest is the highest mountain on Earth.",
]


@pytest.fixture(scope="module")
def nli_dir(tmp_path_factory):
    from judges.tiny_nli import build_tiny_nli
    from tests.helpers import CORPUS

    return build_tiny_nli(tmp_path_factory.mktemp("nli") / "model", NLI_TEXTS + [t for _, t in CORPUS], seed=0)


def _one_pair_at_a_time(model_dir, premise, hypothesis):
    """KnowRL's way: one (passage, claim) pair per forward pass, no padding; P(entailment)."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForSequenceClassification.from_pretrained(model_dir).eval()
    with torch.no_grad():
        logits = model(**tok(premise, hypothesis, return_tensors="pt", truncation=True, max_length=512)).logits
    return float(torch.softmax(logits, -1)[0, 0])


def test_nli_batched_scores_equal_one_pair_at_a_time(nli_dir):
    from reward_engine.stages.nli import NLIConfig, NLIModel

    model = NLIModel(NLIConfig(model=str(nli_dir), device="cpu", batch_size=3))
    pairs = [(p, h) for p in NLI_TEXTS for h in NLI_TEXTS[:3]]
    batched = model.scores(pairs)
    for (p, h), (entail, _) in zip(pairs, batched):
        assert entail == pytest.approx(_one_pair_at_a_time(nli_dir, p, h), abs=1e-5)
    assert model.pairs_scored == len(pairs)
    model.scores(pairs)
    assert model.pairs_scored == len(pairs)  # remembered, not scored again
    assert model.scores([("", "claim")]) == [(0.0, 0.0)]  # an empty passage supports nothing (KnowRL)


def test_nli_verdicts_follow_the_thresholds(nli_dir):
    from retrieval.kb import Passage
    from reward_engine.stages.nli import NLIConfig, NLIModel, Verdict

    model = NLIModel(NLIConfig(model=str(nli_dir), device="cpu"))
    claims = NLI_TEXTS[:3]
    passages = [Passage(i, "T", t) for i, t in enumerate(NLI_TEXTS)]
    verdicts = model.verdicts(claims, [passages] * 3)
    for claim, verdict in zip(claims, verdicts):
        probs = model.scores([(p.text, claim) for p in passages])
        supported = max(e for e, _ in probs) >= 0.3
        contradicted = max(c for _, c in probs) >= 0.5
        want = Verdict.SUPPORTED if supported else Verdict.CONTRADICTED if contradicted else Verdict.NOT_ENOUGH
        assert verdict is want


def test_a_missing_nli_model_is_a_clear_error(tmp_path):
    from reward_engine.stages.nli import NLIConfig, NLIModel, NLIModelError

    with pytest.raises(NLIModelError, match="cannot be loaded.*huggingface-cli download"):
        NLIModel(NLIConfig(model=str(tmp_path / "nowhere"), device="cpu")).scores([("a b c", "a b")])


async def test_engine_with_the_nli_verifier(server, kb, nli_dir):
    from reward_engine.stages.nli import NLIConfig, NLIModel
    from tests.test_engine import WRONG_TRUE_FACTS

    config = _llm(
        server, verifier="nli", factuality={"kb_path": "unused", "nli": {"model": str(nli_dir), "device": "cpu"}}
    )
    async with RewardEngine(config, kb=kb) as engine:
        (wrong,) = await engine.score([Sample("What is the capital of France?", WRONG_TRUE_FACTS, "Paris", "Paris")])
        retriever = engine.retriever
    assert wrong.label == "INCORRECT" and len(wrong.claims) == 3 and wrong.status == "ok"
    # the same verdicts recomputed from the passages the engine retrieved
    check = NLIModel(NLIConfig(model=str(nli_dir), device="cpu"))
    passages = [[p for p in retriever.kb.get_passages(c.evidence_ids).values()] for c in wrong.claims]
    flags = [
        any(e >= 0.3 for e, _ in check.scores([(p.text, c.text) for p in ps])) for c, ps in zip(wrong.claims, passages)
    ]
    assert [c.supported for c in wrong.claims] == flags
    assert wrong.factuality == pytest.approx(fact_score(sum(flags), 3, semantics()))
    assert "verify" not in (await _stats(server))["by_kind"]  # no judge call to verify


async def test_binary_rar_through_the_llm_and_nli_verifiers(server, kb, nli_dir):
    with pytest.raises(ConfigError, match="Binary RAR needs"):
        _llm(server, preset="binary-rar", factuality={"kb_path": "u", "mode": "fused"})
    honest = "<think>The Eiffel Tower in Paris was completed in 1901.</think><answer>It was completed in 1889.</answer>"
    wrong = "<think>The Eiffel Tower in Paris was completed in 1889.</think><answer>It was completed in 1901.</answer>"
    silent = "<think>Hmm.</think><answer>I don't know</answer>"
    rows = [Sample("When was the Eiffel Tower completed?", c, "1889", "Eiffel Tower") for c in (honest, wrong, silent)]
    async with RewardEngine(_llm(server, preset="binary-rar"), kb=kb) as engine:
        results = await engine.score(rows)
    # the test judge finds the contradicted year in the response (the reasoning is not verified, as released);
    # an answer with no claim contradicts nothing
    assert [r.correctness for r in results] == [1.0, 0.0, 1.0]
    assert [r.label for r in results] == [None] * 3 and {r.format for r in results} == {0.0}
    assert "grader" not in (await _stats(server))["by_kind"]  # no grading under Binary RAR
    nli = _llm(server, preset="binary-rar", verifier="nli", factuality={"kb_path": "u", "nli": {"model": str(nli_dir)}})
    async with RewardEngine(nli, kb=kb) as engine:
        (result,) = await engine.score(rows[:1])
    assert result.correctness in (0.0, 1.0) and result.status == "ok"


def test_verdict_labels_are_parsed_strictly():
    from reward_engine.prompts import parse_labels

    reply = (
        '{"labels": [{"id": 1, "label": "SUPPORTED"}, {"id": 2, "label": "contradicted"}, '
        '{"id": 3, "label": "NOT_SUPPORTED"}]}'
    )
    assert parse_labels(reply, 3) == ["SUPPORTED", "CONTRADICTED", "NOT_SUPPORTED"]
    assert parse_labels('{"labels": [{"id": 1, "label": "REFUTED"}]}', 1) is None
    assert parse_labels('{"labels": [{"id": 1, "label": "SUPPORTED"}, {"id": 1, "label": "CONTRADICTED"}]}', 1) is None


# -- helpers -------------------------------------------------------------------------------------
def _llm(server, **over):
    factuality = over.pop("factuality", {"kb_path": "unused-kb-object-given"})
    return parse_reward_config(
        {
            "grader": "llm",
            "decomposer": "llm",
            "verifier": over.pop("verifier", "llm"),
            "judge": {"endpoints": [{"base_url": server.url, "model": "test"}], "timeout_s": 5},
            "factuality": factuality,
            **over,
        }
    )


async def _stats(server):
    return await server_stats(server)
