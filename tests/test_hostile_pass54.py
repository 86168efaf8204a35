"""Hostile pass 54 (seed 54054, run at fe22ca5, issue #74): 30 cases written before they were run; 16 held. Closed
here (each assertion failed on fe22ca5):

- data loss: ``knowrl.sft`` into a folder holding a finished run replaced its ``final`` and ``summary.json`` (it
  owns its ``output_dir`` as ``knowrl.train`` does, ``--overwrite`` to start clean); ``score --output tpl.txt
  --overwrite`` wrote the rows over the config's own grader template (the judge templates are inputs, never the
  output); ``bench/judge_set.py --out x --md x`` wrote the page over the report (two outputs may not be one file);
- silent failure: ``knowrl.train`` with an LLM judge not up trained on unscored rewards, exit 0 (its judges are
  checked before anything loads, as ``score``'s and ``serve``'s are);
- late check: a dense KB whose embedding model folder was removed failed every row at its query, exit 3 (refused
  before the first row, naming the model).

Found while probing pass 54 and closed in the next session: "A cat." for bulldog, "A lawyer." for banker, any "a/an"
and one common noun was NOT_ATTEMPTED, a wrong guess paid as an abstention (``offline/kinds.py``: another kind
unless a class word, the gold's head or the question's noun; on the pinned grade cases 14 wrong answers now
INCORRECT, and two synonyms, "An aerie." for Eyrie and "A thunderhead." for cumulonimbus, move from NOT_ATTEMPTED
to INCORRECT: an under-pay the offline rules cannot tell from a sibling); ``serve`` with a judge answering every
request 401 listened, since the judge check was a TCP connect (each job's check now asks the judge's models route
with the key, and serve does not wait for a judge that refuses it); a training KB built from ``kb.build_from`` was
not rebuilt when that file changed (now rebuilt as exactly its documents: tests/test_ensure_kb.py); the reward
holes G3 "A bulldog ant." (``kinds.modifies_another_noun``), G2 "Exactly one year after Earth Day, April 22,
1998." (``values._OFFSET``), G9 "narrowly avoided a nuclear holocaust" (``grader._KEPT_OFF``) and F1 "11,000 BC"
supported by "11,000 years ago" (``facts._era_for_years_ago``); none moved a pinned grade case.

Left then: under-pays "Anonymously.", all-digit dates in ``supported`` (both closed with pass 55:
tests/test_hostile_pass55.py).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import pytest

from knowrl.config import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def _config(tmp_path: Path, **reward):
    from knowrl.config import load_train_config

    data = tmp_path / "rl.jsonl"
    data.write_text(json.dumps({"question": "What is the capital of France?", "answers": "Paris"}) + "\n")
    cfg = {
        "model": {"name_or_path": "tiny", "backend": "transformers", "dtype": "float32"},
        "data": {"train": str(data)},
        "reward": {"preset": "knowrl", "grader": "offline", "factuality": {"enabled": False}, **reward},
        "output_dir": str(tmp_path / "run"),
    }
    path = tmp_path / "train.json"
    path.write_text(json.dumps(cfg))
    return load_train_config(path)


def test_sft_owns_its_output_dir_as_train_does(tmp_path: Path) -> None:
    from knowrl.output_dir import claim_output_dir

    config = _config(tmp_path)
    run = Path(config.output_dir)
    (run / "final").mkdir(parents=True)
    (run / "final" / "adapter_config.json").write_text("{}")
    (run / "summary.json").write_text("{}")
    with pytest.raises(ConfigError, match="--overwrite") as refused:
        claim_output_dir(config, resume=False, overwrite=False, resumable=False)
    assert "--resume" not in str(refused.value)
    assert (run / "summary.json").read_text() == "{}"


def test_train_checks_its_judges_before_anything_loads(tmp_path: Path) -> None:
    from judges.ports import free_port
    from knowrl.train import run
    from reward_engine.job import JobCheckError

    endpoint = {"base_url": f"http://127.0.0.1:{free_port()}/v1", "model": "judge"}
    config = _config(tmp_path, grader="llm", judge={"endpoints": [endpoint], "timeout_s": 2, "max_attempts": 1})
    with pytest.raises(JobCheckError, match="no endpoint accepts a connection"):
        run(config, resume=False)
    assert not Path(config.output_dir).exists()


def test_the_config_s_judge_templates_are_never_the_output(tmp_path: Path) -> None:
    from reward_engine.config import parse_reward_config
    from reward_engine.score import knowledge_files

    template = tmp_path / "tpl.txt"
    template.write_text("Question: {question}\nGold: {gold}\nAnswer: {answer}\n")
    config = parse_reward_config(
        {"preset": "knowrl", "factuality": {"enabled": False}, "prompts": {"grader": str(template)}}
    )
    assert template in knowledge_files(config)


def test_two_results_flags_naming_one_file_are_refused(tmp_path: Path) -> None:
    from knowrl_io.job_output import check_results

    page = tmp_path / "page.md"
    with pytest.raises(SystemExit):
        check_results(argparse.Namespace(out=page, md=page), str(ROOT / "bench" / "judge_set.py"))
    assert not page.exists()


def test_a_dense_kb_whose_model_is_gone_is_refused_up_front(tmp_path: Path, kb_path: Path) -> None:
    from retrieval.dense import index_paths
    from retrieval.kb import check_kb

    copy = tmp_path / "kb.db"
    copy.write_bytes(kb_path.read_bytes())
    for there, here in zip(index_paths(kb_path), index_paths(copy)):
        here.write_bytes(there.read_bytes())
    check_kb(copy, "hybrid")
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'embedding_model'", (json.dumps(str(tmp_path / "gone")),))
    with pytest.raises(ValueError, match="not there any more"):
        check_kb(copy, "hybrid")
    check_kb(copy, "bm25")  # BM25 needs no model


KIND = "What kind of animal is Binky from Arthur?"
DISNEY = "When did Animal Kingdom open in Disney World?"
ALLEY = "What is the published adaptation Damnation Alley about?"


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        # another kind of the gold's sort, after "a"/"an": a wrong guess, never the abstention's pay (found in pass 54)
        ("A cat.", "bulldog", KIND, "INCORRECT"),
        ("It is a poodle.", "bulldog", KIND, "INCORRECT"),
        ("A poodle, I think.", "German Shepherd", "What breed of dog is Rex?", "INCORRECT"),
        ("A lawyer.", "banker", "What was George Bailey's job in It's a Wonderful Life?", "INCORRECT"),
        ("A violin.", "cello", "Which instrument is Yo-Yo Ma famous for playing?", "INCORRECT"),
        ("An oak.", "maple", "Which tree's leaf is on the flag of Canada?", "INCORRECT"),
        # the class the gold falls in, the gold's own head, the question's noun: still vague (NOT_ATTEMPTED)
        ("A dog.", "bulldog", KIND, "NOT_ATTEMPTED"),
        ("An animal.", "bulldog", KIND, "NOT_ATTEMPTED"),
        ("It's a mammal.", "bulldog", KIND, "NOT_ATTEMPTED"),
        ("A whale.", "Blue whale", "What is the largest living animal?", "NOT_ATTEMPTED"),
        ("It's a metal.", "Nickel", "Which chemical element has the symbol Ni?", "NOT_ATTEMPTED"),
        ("A tree nut.", "Almond", "Which nut is the main ingredient of marzipan?", "NOT_ATTEMPTED"),
        # a person, place or time asked: a common noun describes the answer
        ("A lawyer.", "Dashiell Hammett", "Who wrote The Maltese Falcon?", "NOT_ATTEMPTED"),
        # a second role beside the gold, not another kind; the gold itself after "a"
        (
            "A lawyer. Actually, a planter too.",
            "lawyer",
            "What did James K. Polk do before he was president?",
            "CORRECT",
        ),
        ("A bulldog.", "bulldog", KIND, "CORRECT"),
    ],
)
def test_a_or_an_and_one_noun_is_another_kind_unless_it_is_a_class(answer, gold, question, label) -> None:
    from reward_engine.offline.grader import grade

    assert grade(answer, gold, question).name == label


@pytest.mark.parametrize(("preset", "pays"), [("knowrl", [0.0, 2.0, 3.0]), ("threshold", [-3.0, 0.0, 1.0])])
async def test_another_kind_after_an_article_is_paid_as_wrong(kb, preset: str, pays: list[float]) -> None:
    """Through the engine (offline grader and verifier, the smoke KB): "A cat." earned "I don't know"'s pay
    before (+2 under knowrl, 0 under threshold t 0.75); now a wrong answer's (knowrl 0: format +1, wrong -1, no
    claims; threshold -t/(1-t) = -3)."""
    from reward_engine.config import parse_reward_config
    from reward_engine.engine import RewardEngine, Sample

    options = {"preset": preset, "factuality": {"kb_path": "unused-kb-object-given"}}
    config = parse_reward_config(options | ({"threshold_t": 0.75} if preset == "threshold" else {}))
    rows = [
        Sample(KIND, f"<think>Hmm.</think><answer>{a}</answer>", "bulldog", "Binky")
        for a in ("A cat.", "I don't know", "A bulldog.")
    ]
    async with RewardEngine(config, kb=kb) as engine:
        results = await engine.score(rows)
    assert [r.total for r in results] == pytest.approx(pays)


class _Refusing:
    """An OpenAI-style server on 127.0.0.1 that answers every request 401, as a hosted API does to a wrong key."""

    async def __aenter__(self) -> str:
        from aiohttp import web

        async def refuse(request: web.Request) -> web.Response:
            error = {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}
            return web.json_response(error, status=401)

        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", refuse)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/v1"

    async def __aexit__(self, *exc) -> None:
        await self.runner.cleanup()


def _llm_grader(base_url: str, tmp_path: Path):
    from reward_engine.config import parse_reward_config

    endpoint = {"base_url": base_url, "model": "judge", "api_key_env": "PASS54_KEY"}
    judge = {"endpoints": [endpoint], "timeout_s": 2, "max_attempts": 1, "cache_dir": str(tmp_path / "cache")}
    return parse_reward_config({"preset": "knowrl", "grader": "llm", "factuality": {"enabled": False}, "judge": judge})


async def test_a_judge_refusing_the_key_is_refused_up_front(tmp_path: Path, monkeypatch, server) -> None:
    """Pass 54's J3: a judge that answers 401 passed the TCP check, so serve listened and paid a right and a wrong
    answer the same unscored 0. Now the check asks the judge's models route with the job's key; the message
    names the variable, never the key; a judge that takes it (the test server) still passes."""
    from reward_engine.job import KeyRefusedError, check_judges

    monkeypatch.setenv("PASS54_KEY", "sk-wrong-123")
    async with _Refusing() as base_url:
        with pytest.raises(KeyRefusedError, match="PASS54_KEY") as refused:
            await check_judges(_llm_grader(base_url, tmp_path), timeout_s=2)
    assert "sk-wrong" not in str(refused.value) and "HTTP 401" in str(refused.value)
    await check_judges(_llm_grader(server.url, tmp_path), timeout_s=2)


def test_serve_refuses_a_judge_refusing_the_key_without_waiting(tmp_path: Path) -> None:
    import asyncio
    import os
    import subprocess
    import sys
    import threading

    loop = asyncio.new_event_loop()
    refusing = _Refusing()
    base_url = loop.run_until_complete(refusing.__aenter__())
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        config = tmp_path / "cfg.yaml"
        config.write_text(
            "preset: knowrl\ngrader: llm\nfactuality: {enabled: false}\n"
            f"judge: {{endpoints: [{{base_url: '{base_url}', model: judge, api_key_env: PASS54_KEY}}], "
            "timeout_s: 2, max_attempts: 1}\n"
        )
        env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", PASS54_KEY="sk-wrong-123")
        env["KNOWRL_CACHE_DIR"] = str(tmp_path / "cache")
        serve = [sys.executable, "-m", "reward_engine.serve", "--config", str(config), "--port", "0"]
        done = subprocess.run([*serve, "--judge-wait", "60"], env=env, capture_output=True, text=True, timeout=50)
    finally:
        asyncio.run_coroutine_threadsafe(refusing.__aexit__(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
    assert done.returncode == 2, done.stderr
    assert "refuses the API key" in done.stderr and "PASS54_KEY" in done.stderr and "sk-wrong" not in done.stderr
    assert "listening" not in done.stdout


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        # G3: the gold modifying another noun names that noun's kind
        ("A bulldog ant.", "bulldog", KIND, "INCORRECT"),
        ("A bulldog shark.", "bulldog", KIND, "INCORRECT"),
        ("A bulldog breed.", "bulldog", KIND, "CORRECT"),
        ("A Siamese cat.", "Siamese", "What breed is the cat in Lady and the Tramp?", "CORRECT"),
        ("The bulldog, probably.", "bulldog", KIND, "CORRECT"),
        # G2: an offset from the gold's date commits to another date
        ("Exactly one year after Earth Day, April 22, 1998.", "April 22, 1998", DISNEY, "INCORRECT"),
        ("A day before April 22, 1998.", "April 22, 1998", DISNEY, "INCORRECT"),
        ("April 22, 1998 (Earth Day).", "April 22, 1998", DISNEY, "CORRECT"),
        # G9: the gold as what was kept from happening
        ("A world that narrowly avoided a nuclear holocaust.", "Nuclear Holocaust", ALLEY, "INCORRECT"),
        ("A world that prevented a nuclear holocaust.", "Nuclear Holocaust", ALLEY, "INCORRECT"),
        ("The aftermath of a nuclear holocaust.", "Nuclear Holocaust", ALLEY, "CORRECT"),
        ("It averted a nuclear war.", "nuclear war", "Which disaster did the missile deal avert?", "CORRECT"),
    ],
)
def test_pass54_wordings_left_then(answer, gold, question, label) -> None:
    from reward_engine.offline.grader import grade

    assert grade(answer, gold, question).name == label


def test_a_year_before_the_era_is_not_as_many_years_ago() -> None:
    """F1: "11,000 BC" is about 13,000 years ago; the matching digits supported it."""
    from reward_engine.offline.facts import supported

    ago = ["Mount Konocti last erupted about 11,000 years ago."]
    assert not supported("Mount Konocti last erupted around 11,000 BC.", ago)
    assert not supported("Mount Konocti last erupted in 11,000 BCE.", ago)
    assert supported("Mount Konocti last erupted 11,000 years ago.", ago)
    assert not supported("It last erupted 11,000 years ago.", ["It last erupted in 11,000 BC."])
