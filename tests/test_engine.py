"""The reward engine end to end: real KB, real test judge server, KnowRL semantics."""

from __future__ import annotations

import asyncio
import math
import time

import pytest

from reward_engine.config import ConfigError, parse_reward_config
from reward_engine.engine import RewardEngine, Sample
from reward_engine.semantics import fact_score, semantics
from reward_engine.trl_rewards import KnowRLRewards
from tests.helpers import server_stats

GOOD = "<think>Paris is the capital and largest city of France.</think><answer>Paris</answer>"
WRONG_TRUE_FACTS = (
    "<think>The Eiffel Tower in Paris was completed in 1889 for the World's Fair. "
    "Paris lies on the river Seine. The city of Paris is the capital of France.</think>"
    "<answer>Lyon</answer>"
)
WRONG_FALSE_FACTS = (
    "<think>The Eiffel Tower in Paris was completed in 1650 for a royal wedding. "
    "Lyon is the capital city of France.</think><answer>Marseille</answer>"
)
REFUSAL = "<think>I am not certain about this.</think><answer>I don't know</answer>"
NO_ANSWER = "<think>Paris is the capital of France.</think>"


def offline_config(**over):
    return parse_reward_config({"factuality": {"kb_path": "unused-kb-object-given"}, **over})


def llm_config(server, tmp_path=None, **over):
    judge = {
        "endpoints": [{"base_url": server.url, "model": "test"}],
        "backoff_initial_s": 0.01,
        "backoff_max_s": 0.05,
        "timeout_s": 5,
    }
    if tmp_path is not None:
        judge["cache_dir"] = str(tmp_path / "judge-cache")
    judge.update(over.pop("judge", {}))
    return parse_reward_config(
        {
            "grader": "llm",
            "decomposer": "llm",
            "verifier": "llm",
            "judge": judge,
            "factuality": {"kb_path": "unused-kb-object-given"},
            **over,
        }
    )


def samples():
    q = "What is the capital of France?"
    return [Sample(q, c, "Paris", "Paris") for c in (GOOD, WRONG_TRUE_FACTS, WRONG_FALSE_FACTS, REFUSAL, NO_ANSWER)]


@pytest.mark.parametrize("mode", ["offline", "llm"])
async def test_knowrl_semantics_end_to_end(mode, server, kb):
    config = offline_config() if mode == "offline" else llm_config(server)
    async with RewardEngine(config, kb=kb) as engine:
        good, wrong_true, wrong_false, refusal, no_answer = await engine.score(samples())
    assert (good.label, good.correctness, good.format, good.total) == ("CORRECT", 2.0, 1.0, 3.0)
    assert (refusal.label, refusal.correctness) == ("NOT_ATTEMPTED", 1.0)
    # KnowRL: a missing answer is -1 plus the fact score of its reasoning (1 claim, supported).
    assert (no_answer.label, no_answer.format, no_answer.factuality) == (None, -1.0, fact_score(1, 1, semantics()))
    assert no_answer.correctness == pytest.approx(-1 + math.exp(1 - 10))
    assert wrong_true.label == wrong_false.label == "INCORRECT"
    supported = sum(c.supported for c in wrong_true.claims)
    assert len(wrong_true.claims) == 3 and supported == 3
    assert wrong_true.factuality == pytest.approx(fact_score(3, 3, semantics()))
    assert wrong_true.correctness == pytest.approx(-1 + math.exp(1 - 10 / 3))
    assert not any(c.supported for c in wrong_false.claims) and wrong_false.correctness == -1.0
    assert all(c.evidence_ids for c in wrong_true.claims)
    assert {r.status for r in (good, wrong_true, refusal, no_answer)} == {"ok"}


async def test_only_incorrect_answers_pay_for_factuality(server, kb):
    async with RewardEngine(llm_config(server), kb=kb) as engine:
        await engine.score(samples())
    by_kind = (await server_stats(server))["by_kind"]
    # 4 answers graded (no-answer is not), 2 INCORRECT + 1 without an answer -> 3 decompositions + 3 verifications.
    assert by_kind == {"grader": 4, "decompose": 3, "verify": 3}


async def test_speculation_waste_is_bounded_and_counted(server, kb):
    server.config.grade_as = "A"  # a judge that calls every answer CORRECT
    async with RewardEngine(llm_config(server), kb=kb) as engine:
        results = await engine.score(samples())
        metrics = engine.last_metrics
        asked_again = engine.grader.guard_counts["ask"]  # answer spans the offline rules cannot match
    # the two wrong answers are graded CORRECT again alone; a refusal stays NOT_ATTEMPTED whatever the judge says
    assert [r.correctness for r in results[:4]] == [2.0, 2.0, 2.0, 1.0]
    assert all(r.claims == [] and r.factuality is None for r in results[:4])
    assert metrics.speculated == 2 and metrics.speculation_wasted == 2
    by_kind = (await server_stats(server))["by_kind"]
    # never more than decompose+verify per miss, plus the no-answer completion's own pair
    assert asked_again == 2 and by_kind["grader"] == 4 + asked_again and by_kind.get("verify", 0) <= 3


async def test_no_speculation_when_disabled(server, kb):
    server.config.grade_as = "A"
    async with RewardEngine(llm_config(server, speculate=False), kb=kb) as engine:
        await engine.score(samples())
        assert engine.last_metrics.speculated == 0
        asked_again = engine.grader.guard_counts["ask"]  # wrong answers graded A: each span graded alone once
    by_kind = (await server_stats(server))["by_kind"]
    assert asked_again == 2 and by_kind == {"grader": 4 + asked_again, "decompose": 1, "verify": 1}  # the no-answer


async def test_no_speculation_on_a_judge_that_takes_one_request_at_a_time(server, kb):
    """With one slot nothing overlaps: a speculative call sent ahead of the graders only delays them
    (a real llama.cpp judge that graded every row CORRECT waited for 10 wasted fused calls first)."""
    server.config.grade_as = "A"
    async with RewardEngine(llm_config(server, judge={"max_in_flight": 1}), kb=kb) as engine:
        results = await engine.score(samples())
        assert engine.last_metrics.speculated == 0
        asked_again = engine.grader.guard_counts["ask"]
    assert [r.label for r in results[:4]] == ["CORRECT"] * 3 + ["NOT_ATTEMPTED"]  # a refusal is never CORRECT
    by_kind = (await server_stats(server))["by_kind"]
    assert asked_again == 2 and by_kind == {"grader": 4 + asked_again, "decompose": 1, "verify": 1}  # the no-answer


async def test_identical_completions_are_scored_once(server, kb):
    batch = samples() * 8  # 40 completions, 5 distinct
    async with RewardEngine(llm_config(server), kb=kb) as engine:
        results = await engine.score(batch)
        assert engine.last_metrics.unique == 5
    assert (await server_stats(server))["requests"] == 10  # 4 grades, 3 decompositions, 3 verifications
    assert [r.correctness for r in results[:5]] == [r.correctness for r in results[5:10]]


async def test_second_run_makes_no_judge_requests(server, kb, tmp_path):
    async with RewardEngine(llm_config(server, tmp_path), kb=kb) as engine:
        first = await engine.score(samples())
    before = (await server_stats(server))["requests"]
    async with RewardEngine(llm_config(server, tmp_path), kb=kb) as engine:
        second = await engine.score(samples())
        assert engine.last_metrics.judge_requests == 0 and engine.last_metrics.cache_hits == 10
    assert (await server_stats(server))["requests"] == before
    assert [r.correctness for r in first] == [r.correctness for r in second]
    assert second[0].status == "cached"


async def test_hanging_judge_is_cut_at_the_step_budget(server, kb):
    server.config.fault_rate, server.config.faults = 1.0, ("hang",)
    async with RewardEngine(llm_config(server, judge={"timeout_s": 30}), kb=kb) as engine:
        started = time.perf_counter()
        results = await engine.score(samples(), deadline_s=0.5)
        elapsed = time.perf_counter() - started
    assert elapsed < 1.5
    # every row needs the judge (the no-answer row for its reasoning's fact score)
    assert [r.status for r in results] == ["timeout"] * 5
    assert all(r.correctness is None and r.format is not None for r in results)


async def test_slow_offline_stage_is_cut_at_the_step_budget(kb, monkeypatch):
    """Offline stages run off the event loop: a decomposition stuck in CPU work (here a blocking
    sleep) cannot hold the batch past its budget."""
    import reward_engine.offline.facts as offline_facts

    real = offline_facts.decompose

    def stuck(reasoning):
        time.sleep(3)
        return real(reasoning)

    monkeypatch.setattr(offline_facts, "decompose", stuck)
    async with RewardEngine(offline_config(), kb=kb) as engine:
        started = time.perf_counter()
        results = await engine.score(samples(), deadline_s=0.5)
        elapsed = time.perf_counter() - started
    assert elapsed < 2.5
    good, wrong_true, wrong_false, refusal, _ = results
    assert (good.label, refusal.label) == ("CORRECT", "NOT_ATTEMPTED")  # no factuality needed: on time
    assert wrong_true.status == wrong_false.status == "timeout" and wrong_true.correctness is None


async def test_breaker_open_makes_the_next_step_cost_nothing(server, kb):
    server.config.down = True
    config = llm_config(server, judge={"max_attempts": 1, "breaker_failures": 3, "breaker_cooldown_s": 60})
    async with RewardEngine(config, kb=kb) as engine:
        first = await engine.score(samples())
        assert {r.status for r in first[:4]} <= {"error", "breaker_open"}
        sent = (await server_stats(server))["requests"]
        rejected = engine.judge.metrics.breaker_rejections
        second = await engine.score([Sample("Q?", GOOD, "Paris", None)] * 16)
        assert {r.status for r in second} == {"breaker_open"}
        m = engine.last_metrics
        assert m.breaker_open == 1 and m.coverage == 0.0
        # Costs nothing, counted rather than timed (a busy machine makes any bound flaky): not one request
        # reached the server, none was sent or retried (so no backoff was slept), each call was refused.
        assert (await server_stats(server))["requests"] == sent
        assert (m.judge_requests, m.retries, m.timeouts) == (0, 0, 0)
        assert engine.judge.metrics.breaker_rejections > rejected


async def test_wrong_format_labels_flag_only_their_completion(server, kb):
    server.config.fault_rate, server.config.faults, server.config.seed = 0.4, ("wrong",), 3
    config = llm_config(server, judge={"max_attempts": 1})
    async with RewardEngine(config, kb=kb) as engine:
        results = await engine.score([Sample(f"Capital {i}?", GOOD, "Paris", None) for i in range(30)])
    statuses = [r.status for r in results]
    assert "error" in statuses and "ok" in statuses
    assert all(r.correctness == 2.0 for r in results if r.status == "ok")
    assert all(r.correctness is None for r in results if r.status == "error")


async def test_bad_input_is_flagged_not_fatal(kb):
    async with RewardEngine(offline_config(), kb=kb) as engine:
        results = await engine.score(
            [
                Sample(None, GOOD, "Paris"),
                Sample("Q?", GOOD, None),
                Sample("Q?", 12345, "Paris"),
                Sample("Q?", GOOD, "Paris"),
                Sample("Q?", "\x00" * 10 + "x" * 1_000_000, "Paris"),
            ]
        )
    assert [r.status for r in results] == ["bad_input", "bad_input", "ok", "ok", "ok"]
    assert results[2].correctness == -1.0 and results[3].correctness == 2.0 and results[4].format == -1.0


async def test_trl_reward_functions_share_one_engine_run(server, kb):
    rewards = KnowRLRewards(llm_config(server), kb=kb)
    fmt, correctness = rewards.functions()
    assert (fmt.__name__, correctness.__name__) == ("knowrl_format", "knowrl_correctness")
    batch = samples()
    logged, extra = {}, {}
    kwargs = dict(
        prompts=[[{"role": "user", "content": "chat template noise"}]] * 5,
        completions=[[{"role": "assistant", "content": s.completion}] for s in batch],
        question=[s.question for s in batch],
        answers=[s.answers for s in batch],
        title=[s.title for s in batch],
        log_metric=logged.__setitem__,
        log_extra=extra.__setitem__,
    )
    f, c = await asyncio.gather(fmt(**kwargs), correctness(**kwargs))
    assert f == [1.0, 1.0, 1.0, 1.0, -1.0] and c[0] == 2.0 and c[4] == pytest.approx(-1 + math.exp(-9))
    assert (await server_stats(server))["by_kind"]["grader"] == 4  # one engine run for both functions
    assert logged["reward_engine/coverage"] == 1.0 and extra["reward_status"] == ["ok"] * 5
    await rewards.aclose()


async def test_trl_drops_unscored_completions_entirely(server, kb):
    server.config.down = True
    # A missing answer is decided without the judge when its fact score is not part of the reward.
    config = llm_config(server, judge={"max_attempts": 1}, semantics={"fact_on_no_answer": False})
    rewards = KnowRLRewards(config, kb=kb)
    fmt, correctness = rewards.functions()
    batch = samples()
    kwargs = dict(
        prompts=["p"] * 5,
        completions=[s.completion for s in batch],
        question=[s.question for s in batch],
        answers=[s.answers for s in batch],
        title=[s.title for s in batch],
    )
    f, c = await asyncio.gather(fmt(**kwargs), correctness(**kwargs))
    assert c[:4] == [None] * 4 and f[:4] == [None] * 4  # all-None rows: TRL excludes them
    assert (f[4], c[4]) == (-1.0, -1.0)
    await rewards.aclose()


def test_config_errors_name_the_key_and_suggest():
    with pytest.raises(ConfigError, match="unknown key 'grder'.*did you mean 'grader'"):
        parse_reward_config({"grder": "offline", "factuality": {"enabled": False}})
    with pytest.raises(ConfigError, match="unknown key 'factuality.evidence_kk'.*did you mean 'evidence_k'"):
        parse_reward_config({"factuality": {"enabled": False, "evidence_kk": 3}})
    with pytest.raises(ConfigError, match="needs a 'judge' section"):
        parse_reward_config({"grader": "llm", "factuality": {"enabled": False}})
    with pytest.raises(ConfigError, match="unknown reward preset"):
        parse_reward_config({"preset": "nope", "factuality": {"enabled": False}})


def test_june2025_preset_punishes_refusals():
    sem = semantics("knowrl-june2025")
    assert sem.not_attempted == -1.0 and fact_score(15, 20, sem) == 1.0 and fact_score(3, 3, sem) == 0.2


def test_rate_budget_is_divided_across_ranks(server):
    config = llm_config(server, judge={"requests_per_minute": 1200, "tokens_per_minute": 90000}, world_size=4)
    judge = config.judge_for_rank()
    assert judge.requests_per_minute == 300 and judge.tokens_per_minute == 22500


def test_reward_functions_are_picklable_trl_callables(tmp_path, kb):
    """TRL's reward forms: named async callables that pickle (to another process) and score after unpickling."""
    import pickle

    from trl.trainer.utils import get_callable_name, is_async_callable

    from knowrl.reward_log import RewardLog

    rewards = KnowRLRewards(offline_config(factuality={"enabled": False}), sink=RewardLog(tmp_path / "r.jsonl"))
    await_once = asyncio.run(rewards.functions()[1](prompts=["q"], completions=[GOOD], answers=["Paris"]))
    fmt, correct = pickle.loads(pickle.dumps(rewards.functions()))
    assert [get_callable_name(f) for f in (fmt, correct)] == ["knowrl_format", "knowrl_correctness"]
    assert is_async_callable(fmt) and is_async_callable(correct)

    async def step() -> tuple[list, list]:
        kwargs = {
            "prompts": ["What is the capital of France?"] * 3,
            "completions": [GOOD, REFUSAL, NO_ANSWER],
            "answers": ["Paris"] * 3,
        }
        return await fmt(**kwargs), await correct(**kwargs)

    assert await_once == [2.0]
    assert asyncio.run(step()) == ([1.0, 1.0, -1.0], [2.0, 1.0, -1.0])
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 4  # one row before pickling, three after


@pytest.mark.parametrize(
    "mode,accepts,style",
    [
        ("on", True, "json_schema"),
        ("on", True, "json_object"),
        ("off", True, "json_schema"),
        ("auto", False, "json_schema"),
    ],
)
async def test_structured_outputs_score_the_same(server, kb, mode, accepts, style):
    """on: every call asks for its schema (JSON replies); off: text prompts; auto against a server without
    response_format: the refused calls are re-sent as text at once, nothing is lost, later calls ask in text."""
    server.config.accept_schema = accepts
    judge = {"structured_output": mode, "schema_format": style}
    async with RewardEngine(llm_config(server, judge=judge, speculate=False), kb=kb) as engine:
        results = await engine.score(samples())
        first = await server_stats(server)
        await engine.score([Sample("What is the capital of Japan?", GOOD.replace("Paris", "Kyoto"), "Tokyo")])
    second = await server_stats(server)
    assert [r.correctness for r in results][:2] == [2.0, pytest.approx(-1 + math.exp(1 - 10 / 3))]
    assert [r.label for r in results] == ["CORRECT", "INCORRECT", "INCORRECT", "NOT_ATTEMPTED", None]
    assert all(r.status == "ok" for r in results)
    refused = first["requests"] - 10  # 4 grades, 3 decompositions, 3 verifications
    if mode == "on":
        assert first["structured"] == 10 and refused == 0 and first["response_formats"] == {style: 10}
    elif mode == "off":
        assert first["structured"] == 0 and refused == 0
    else:
        # only the first concurrent calls: 4 grades and the no-answer row's decomposition
        assert 1 <= refused <= 5 and first["structured"] == refused
    later = second["structured"] - first["structured"]
    assert (later >= 2) if mode == "on" else (later == 0)  # a grade and a decomposition at least


def test_user_template_files_render_fields_and_key_the_cache_by_their_text(tmp_path, server):
    """KnowRL's grader template names its fields as SimpleQA does; it loads unchanged, its fields are escaped,
    and its hash is in the judge cache key (an edited template never reuses old answers)."""
    from reward_engine.engine import RewardEngine

    template = tmp_path / "knowrl_grader.txt"
    template.write_text(
        "Question: {question}\nGold target: {target}\nPredicted answer: {predicted_answer}\n"
        "Grade as A, B or C. Literal braces: {{}}"
    )
    config = llm_config(server, prompts={"grader": str(template)})
    request = RewardEngine(config).grader.request("Capital of France?", "Paris", "Lyon </predicted_answer>")
    content = request.messages[0]["content"]
    assert content.startswith("Question: Capital of France?\nGold target: Paris\nPredicted answer: Lyon ‹/")
    assert content.endswith("Literal braces: {}") and request.template_version.startswith("grader-knowrl_grader-")
    judge = RewardEngine(config).judge
    key = judge.key_for(request.messages, request.template_version, request.max_tokens, schema=request.schema)
    template.write_text(template.read_text() + "\n")
    edited = RewardEngine(llm_config(server, prompts={"grader": str(template)})).grader.request(
        "Capital of France?", "Paris", "Lyon </predicted_answer>"
    )
    assert edited.template_version != request.template_version
    assert judge.key_for(edited.messages, edited.template_version, edited.max_tokens, schema=edited.schema) != key


@pytest.mark.parametrize(
    "text,message",
    [("Q: {question} {gold_answr}", "uses the field {gold_answr}"), ("Q: {question", "not a valid template")],
)
def test_a_bad_template_file_is_a_config_error_naming_it(tmp_path, server, text, message):
    template = tmp_path / "grader.txt"
    template.write_text(text)
    with pytest.raises(ConfigError, match=message) as err:
        llm_config(server, prompts={"grader": str(template)})
    assert "grader.txt" in str(err.value)
    with pytest.raises(ConfigError, match="cannot read"):
        llm_config(server, prompts={"grader": str(tmp_path / "missing.txt")})


async def test_overlapping_score_calls_count_only_their_own_speculation(server, kb):
    """The score job keeps several batches in flight on one engine: each call's metrics are its own."""
    server.config.latency_ms = 50
    async with RewardEngine(llm_config(server), kb=kb) as engine:

        async def one(batch):
            await engine.score(batch)
            return engine.last_metrics.speculated

        wrong_only = [s for s in samples() if s.completion in (WRONG_TRUE_FACTS, WRONG_FALSE_FACTS)]
        counts = await asyncio.gather(one(samples()), one(wrong_only[:1]))
    assert sorted(counts) == [1, 2]
