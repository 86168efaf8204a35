"""``reward_engine.score --ray`` and ``reward_engine.warm --ray``: a local Ray, two engine actors, the real test
judge server on 127.0.0.1; the same output as without Ray, and an actor killed mid-job loses no row."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess

from judges.test_server import JudgeServer, ServerConfig
from reward_engine.config import parse_reward_config
from reward_engine.score import score_file
from reward_engine.warm import warm
from tests.helpers import server_stats


def rows(n: int) -> list[dict]:
    out = []
    for i in range(n):
        answer = "Paris" if i % 3 == 0 else ("Lyon" if i % 3 == 1 else "I don't know")
        out.append(
            {
                "id": i,
                "question": f"Capital of France (variant {i})?",
                "answers": "Paris",
                "completion": f"<think>Case {i}.</think><answer>{answer}</answer>",
            }
        )
    return out


def write(path, data) -> object:
    path.write_text("".join(json.dumps(r) + "\n" for r in data), encoding="utf-8")
    return path


def config_for(server: JudgeServer, cache_dir) -> object:
    return parse_reward_config(
        {
            "grader": "llm",
            "factuality": {"enabled": False},
            "judge": {
                "endpoints": [{"base_url": server.url, "model": "test-judge", "api_key_env": None}],
                "cache_dir": str(cache_dir),
                "backoff_initial_s": 0.01,
            },
        }
    )


def scored(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def engine_actor_pids() -> list[int]:
    found = subprocess.run(["pgrep", "-f", "ray::EngineActor"], capture_output=True, text=True).stdout.split()
    return [int(p) for p in found]


async def test_score_on_ray_matches_the_local_job_and_survives_killed_actors(tmp_path):
    server = JudgeServer(ServerConfig(latency_ms=60))
    await server.start()
    try:
        src = write(tmp_path / "in.jsonl", rows(48))
        local_out, ray_out = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
        await score_file(src, local_out, config_for(server, tmp_path / "c1"), batch_size=4, progress=False)

        async def kill_the_actors() -> int:
            """SIGKILL the engine actors' processes once the job is under way (an OOM kill, a lost node): every
            actor, so a batch is surely in flight on a killed one whichever was busy."""
            for _ in range(600):
                pids = await asyncio.to_thread(engine_actor_pids)
                if pids and (await server_stats(server))["requests"] >= 48 + 8:
                    for pid in pids:
                        try:
                            os.kill(pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    return len(pids)
                await asyncio.sleep(0.05)
            return 0

        killer = asyncio.create_task(kill_the_actors())
        summary = await score_file(
            src,
            ray_out,
            config_for(server, tmp_path / "c2"),
            batch_size=4,
            progress=False,
            ray_address="",
            ray_actors=2,
        )
        killed = await killer
    finally:
        await server.stop()
    local, remote = scored(local_out), scored(ray_out)
    assert killed, "no actor was killed: the test did not test the fault"
    assert [r["line"] for r in remote] == list(range(1, 49))  # every row once, in input order
    keep = ("line", "id", "label", "reward")
    assert [{k: r[k] for k in keep} for r in remote] == [{k: r[k] for k in keep} for r in local]
    # a batch sent again after its actor died may find the judge's replies the dead actor already cached
    assert all(r["status"] in ("ok", "cached") for r in remote) and summary["ray"]["batches_resent"] >= 1


async def test_warm_on_ray_fills_the_cache_a_later_run_hits(tmp_path):
    server = JudgeServer(ServerConfig())
    await server.start()
    try:
        src = write(tmp_path / "in.jsonl", rows(12))
        config = config_for(server, tmp_path / "cache")
        report = await warm(config, None, src, ray_address="", ray_actors=2)
        again = await score_file(src, tmp_path / "out.jsonl", config, progress=False)
    finally:
        await server.stop()
    assert report["before"]["grader"] == 0.0 and report["after"]["grader"] == 1.0
    assert report["after"]["needed"]["grader"] == 12 and report["judge_requests"] == 12
    assert again["judge_requests"] == 0 and again["cache_hits"] >= 12
