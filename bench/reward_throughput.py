"""Reward throughput: KnowRL's serial call pattern vs the engine, cold and warm, and under an RPM limit.

    python bench/reward_throughput.py [--steps 3] [--latency-dist uniform]

Starts the test judge server (a separate process, 300 ms mean latency) on 127.0.0.1 and
scores GRPO-sized steps of 64 completions (8 prompts x 8) built from the demo KB's
Factbook documents: about half correct, some refusals, the rest wrong, each think block
holding 3-6 claims (true ones copied from the KB, false ones with another country's value).
Everything is measured in this one run; results go to bench/results/reward_throughput.md
and reward_throughput.png.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from retrieval.build import build  # noqa: E402
from retrieval.kb import KnowledgeBase  # noqa: E402
from knowrl_io.paths import demo_kb_path  # noqa: E402
from retrieval.sources import FACTBOOK_SUFFIX, demo_documents, factbook_documents  # noqa: E402
from reward_engine.stages import prompts  # noqa: E402
from reward_engine.completion import parse  # noqa: E402
from reward_engine.config import parse_reward_config  # noqa: E402
from reward_engine.engine import RewardEngine, Sample  # noqa: E402

RESULTS = ROOT / "bench" / "results"
PROMPTS_PER_STEP, GENERATIONS = 8, 8
REFUSAL = "<think>I do not remember this country's capital well enough.</think><answer>I don't know</answer>"


# -- data ---------------------------------------------------------------------------------
def country_facts() -> dict[str, dict[str, str]]:
    """country -> {field label: value} from the Factbook documents in the demo KB."""
    out: dict[str, dict[str, str]] = {}
    for doc in factbook_documents():
        country = doc.title[: -len(FACTBOOK_SUFFIX)]
        fields = {}
        for line in doc.text.splitlines():
            m = re.match(rf"{re.escape(country)} ([^:]+): (.+)\.$", line)
            if m and len(m.group(2)) < 90 and "note" not in m.group(1):
                fields[m.group(1)] = m.group(2)
        if "capital - name" in fields and len(fields) >= 8:
            out[country] = fields
    return out


def make_step(rng: random.Random, facts: dict[str, dict[str, str]], countries: list[str]) -> list[Sample]:
    samples = []
    for country in countries:
        fields = facts[country]
        capital = fields["capital - name"]
        others = [c for c in facts if c != country]
        for g in range(GENERATIONS):
            labels = [k for k in fields if k != "capital - name"]
            chosen = rng.sample(labels, rng.randint(3, 6))
            kind = rng.random()
            claims = []
            for label in chosen:
                value = fields[label]
                if kind >= 0.5 and rng.random() < 0.5:  # wrong answers carry some false claims
                    value = facts[rng.choice(others)].get(label, value)
                claims.append(f"{country} {label}: {value}.")
            think = " ".join(claims) + f" (draft {g})"
            if kind < 0.5:
                answer = capital
            elif kind < 0.62:
                samples.append(Sample(f"What is the capital of {country}?", REFUSAL + f" ({g})", capital,
                                      country + FACTBOOK_SUFFIX))
                continue
            else:
                answer = facts[rng.choice(others)]["capital - name"]
            samples.append(Sample(f"What is the capital of {country}?",
                                  f"<think>{think}</think><answer>{answer}</answer>", capital,
                                  country + FACTBOOK_SUFFIX))
    return samples


# -- the judge server ------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, *args: str) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "reward_engine.judge.server", "--port", str(self.port),
                                      *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        self.url = f"http://127.0.0.1:{self.port}/v1"
        for _ in range(200):
            try:
                self.stats()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("judge server did not start")

    def stats(self) -> dict:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/stats", timeout=5) as resp:
            return json.loads(resp.read())

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


# -- measurements ------------------------------------------------------------------------
def serial_baseline(url: str, step: list[Sample]) -> dict:
    """KnowRL's pattern: a blocking grader call per completion, then a blocking decomposition call for each."""
    from openai import OpenAI

    client = OpenAI(base_url=url, api_key="unused", max_retries=0)
    started = time.perf_counter()
    calls = 0
    for sample in step:
        answer = parse(sample.completion).answer or ""
        client.chat.completions.create(model="judge", messages=prompts.grader_messages(sample.question,
                                       sample.answers, answer), temperature=0.0, max_tokens=4)
        calls += 1
    for sample in step:
        client.chat.completions.create(model="judge", messages=prompts.decompose_messages(parse(sample.completion).think),
                                       temperature=0.0, max_tokens=512)
        calls += 1
    return {"wall_s": time.perf_counter() - started, "calls": calls}


def engine_config(url: str, cache_dir: str, **judge: object) -> object:
    return parse_reward_config({
        "grader": "llm", "decomposer": "llm", "verifier": "llm",
        "judge": {"endpoints": [{"base_url": url, "model": "judge"}], "max_in_flight": 64, "timeout_s": 30,
                  "cache_dir": cache_dir, **judge},
        "factuality": {"kb_path": str(demo_kb_path())}, "step_timeout_s": 600,
    })


async def run_engine(engine: RewardEngine, steps: list[list[Sample]]) -> dict:
    walls, requests, incorrect, completions, coverage, speculated, wasted = [], 0, 0, 0, [], 0, 0
    for step in steps:
        started = time.perf_counter()
        results = await engine.score(step)
        walls.append(time.perf_counter() - started)
        m = engine.last_metrics
        requests += m.judge_requests
        incorrect += m.labels.get("INCORRECT", 0)
        completions += len(step)
        coverage.append(m.coverage)
        speculated += m.speculated
        wasted += m.speculation_wasted
        assert len(results) == len(step)
    return {
        "step_p50_s": statistics.median(walls), "step_p95_s": max(walls) if len(walls) < 20 else
        sorted(walls)[int(0.95 * (len(walls) - 1))], "wall_s": sum(walls), "requests": requests,
        "completions": completions, "completions_per_s": completions / sum(walls),
        "calls_per_completion": requests / completions, "frac_incorrect": incorrect / completions,
        "coverage": min(coverage), "steps": len(steps), "speculated": speculated, "speculation_wasted": wasted,
    }


async def measure(args: argparse.Namespace, kb: KnowledgeBase) -> dict:
    rng = random.Random(args.seed)
    facts = country_facts()
    countries = sorted(facts)
    rng.shuffle(countries)
    needed = (1 + args.steps + args.rpm_steps) * PROMPTS_PER_STEP
    if len(countries) < needed:
        raise SystemExit(f"need {needed} countries with enough Factbook fields, have {len(countries)}")
    groups = [countries[i * PROMPTS_PER_STEP:(i + 1) * PROMPTS_PER_STEP] for i in range(needed // PROMPTS_PER_STEP)]
    steps = [make_step(rng, facts, g) for g in groups]
    serial_step, cold_steps, rpm_steps = steps[0], steps[1:1 + args.steps], steps[1 + args.steps:]
    out: dict = {}

    server = Server("--latency-ms", "300", "--latency-dist", args.latency_dist)
    try:
        out["serial"] = serial_baseline(server.url, serial_step)
        with tempfile.TemporaryDirectory() as cache:
            async with RewardEngine(engine_config(server.url, cache), kb=kb) as engine:
                out["cold"] = await run_engine(engine, cold_steps)
                out["warm"] = await run_engine(engine, cold_steps)
            async with RewardEngine(engine_config(server.url, cache), kb=kb) as engine:
                out["warm_new_process"] = await run_engine(engine, cold_steps)
        out["server_max_in_flight"] = server.stats()["max_in_flight"]
    finally:
        server.stop()

    server = Server("--latency-ms", "300", "--latency-dist", args.latency_dist, "--rpm", "1200", "--window-s", "1")
    try:
        with tempfile.TemporaryDirectory() as cache:
            config = engine_config(server.url, cache, requests_per_minute=1200, rate_window_s=1.0)
            async with RewardEngine(config, kb=kb) as engine:
                out["rpm"] = await run_engine(engine, rpm_steps)
        out["rpm"]["server_429"] = server.stats()["rate_limited"]
    finally:
        server.stop()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=3, help="cold steps (each with new prompts)")
    parser.add_argument("--rpm-steps", type=int, default=4)
    parser.add_argument("--latency-dist", default="uniform", choices=["fixed", "uniform", "exponential"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    db = demo_kb_path()
    if not db.exists():
        build(db, demo_documents())
    with KnowledgeBase(db) as kb:
        kb.search("warm up", k=1)
        kb.encode_queries(["warm up", "the encoder"])
        results = asyncio.run(measure(args, kb))
    args.out.mkdir(parents=True, exist_ok=True)
    write_markdown(args.out / "reward_throughput.md", results, args)
    plot(args.out / "reward_throughput.png", results)
    print((args.out / "reward_throughput.md").read_text())
    return 0


def _commit() -> str:
    """The git commit measured (with '+changes' when the tree differs from it)."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def write_markdown(path: Path, r: dict, args: argparse.Namespace) -> None:
    serial, cold, warm, warm2, rpm = r["serial"], r["cold"], r["warm"], r["warm_new_process"], r["rpm"]
    bound_s = rpm["requests"] / 20.0
    lines = [
        "# Reward throughput",
        "",
        f"Generated by `{' '.join(['python', *sys.argv])}` at commit {_commit()} on a "
        f"{os.cpu_count()}-core machine. Test judge server in its own process, 300 ms mean latency "
        f"({args.latency_dist}); steps of {PROMPTS_PER_STEP} prompts x {GENERATIONS} completions "
        f"({cold['frac_incorrect']:.0%} graded INCORRECT), 3-6 claims per think block; demo KB for evidence.",
        "",
        "| set-up | steps | step p50 s | step p95 s | completions/s | judge calls per completion |",
        "|---|---|---|---|---|---|",
        f"| serial, KnowRL's call pattern | 1 | {serial['wall_s']:.2f} | {serial['wall_s']:.2f} | "
        f"{64 / serial['wall_s']:.2f} | {serial['calls'] / 64:.2f} |",
    ]
    for name, row in (("engine, cold cache", cold), ("engine, warm cache (same process)", warm),
                      ("engine, warm cache (new process, disk cache)", warm2),
                      ("engine, cold, server RPM 1200", rpm)):
        lines.append(f"| {name} | {row['steps']} | {row['step_p50_s']:.3f} | {row['step_p95_s']:.3f} | "
                     f"{row['completions_per_s']:.1f} | {row['calls_per_completion']:.2f} |")
    lines += [
        "",
        f"- cold engine vs serial baseline: **{serial['wall_s'] / cold['step_p50_s']:.1f}x** faster per step "
        "(target >= 40x)",
        f"- judge calls per completion: KnowRL pattern {serial['calls'] / 64:.2f}; engine "
        f"{cold['calls_per_completion']:.2f}: one grader call per distinct answer, decomposition and verification "
        f"only for the {cold['frac_incorrect']:.0%} graded INCORRECT, identical calls in flight sent once",
        f"- speculation: factuality started beside the grader for {cold['speculated']} answers the offline "
        f"grader called INCORRECT; {cold['speculation_wasted']} wasted (the judge disagreed). The test server grades "
        "with the offline grader's rules, so agreement here is perfect; with a real judge each disagreement costs at "
        "most 2 calls and is reported as `reward_engine/speculation_wasted` (`speculate: false` turns it off)",
        f"- warm cache: {warm['requests']} judge calls, step p50 {warm['step_p50_s'] * 1000:.1f} ms "
        f"(target: 0 calls, < 50 ms); from a new process over the same disk cache: {warm2['requests']} calls, "
        f"{warm2['step_p50_s'] * 1000:.1f} ms",
        f"- max requests in flight seen by the server: {r['server_max_in_flight']} (engine limit 64)",
        f"- RPM 1200 (enforced by the server per 1-s window: 20 requests/s): {rpm['requests']} calls need "
        f"{bound_s:.1f} s at the limit; the engine took {rpm['wall_s']:.1f} s = **{bound_s / rpm['wall_s']:.0%}** of "
        f"the rate-limit bound (target >= 90%); 429s from the server: {rpm['server_429']}; coverage "
        f"{rpm['coverage']:.0%}",
        "",
        "External, not measured by this bench (source: `../shared/anchors.md`, KnowRL's own reward code run "
        "separately on a machine of this kind, fixed 300 ms latency): 43.7 s for one such step (median of 2), "
        "128 serial calls.",
        "",
    ]
    path.write_text("\n".join(lines))


def plot(path: Path, r: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["serial (KnowRL)", "engine cold", "engine warm", "engine RPM 1200"]
    values = [r["serial"]["wall_s"], r["cold"]["step_p50_s"], r["warm"]["step_p50_s"], r["rpm"]["step_p50_s"]]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(names, values, color=["#999", "#1f77b4", "#2ca02c", "#ff7f0e"])
    ax.set_yscale("log")
    ax.set_ylabel("seconds per 64-completion step (log)")
    for i, v in enumerate(values):
        ax.text(i, v, f"{v:.3g}s", ha="center", va="bottom")
    ax.set_title("Reward step latency, 300 ms judge")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    sys.exit(main())
