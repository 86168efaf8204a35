"""Reward throughput: KnowRL's serial call pattern, a naive asyncio.gather, and the engine (staged and fused).

    python bench/reward_throughput.py [--steps 3] [--rpm-steps 3] [--seed 0]
    python bench/reward_throughput.py --check      # a fresh run against the committed file's ratios
    python bench/reward_throughput.py --knowrl /tmp/knowrl-f75b0bb   # KnowRL's own code beside it ([conformance])

Starts the test judge server (a separate process, 300 ms latency, fixed and then uniform
+-50 %) on 127.0.0.1 and scores GRPO-sized steps of 64 completions (8 prompts x 8) built
from the demo KB's Factbook documents: about half correct, some refusals, the rest wrong,
each think block holding 3-6 claims (true ones copied from the KB, false ones with another
country's value). Every row of the results comes from this one run, each cold row on its
own prompts; results go to bench/results/reward_throughput.md and reward_throughput.png.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pickle
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import results_index  # noqa: E402

from judges.ports import free_port  # noqa: E402
from knowrl_io import provenance  # noqa: E402
from knowrl_io.job_output import check_results
from knowrl_io.paths import demo_kb_path  # noqa: E402
from retrieval.build import build  # noqa: E402
from retrieval.kb import KnowledgeBase, Passage  # noqa: E402
from retrieval.sources import FACTBOOK_SUFFIX, demo_documents, factbook_documents  # noqa: E402
from reward_engine import prompts  # noqa: E402
from reward_engine.completion import parse  # noqa: E402
from reward_engine.config import parse_reward_config  # noqa: E402
from reward_engine.engine import RewardEngine, Sample  # noqa: E402

RESULTS = ROOT / "bench" / "results"
PROMPTS_PER_STEP, GENERATIONS = 8, 8
# One round trip needs room for a step's grader calls and its factuality calls at once (up to 2 x 64);
# the default of 64 suits a judge that must not see more.
MAX_IN_FLIGHT = 128
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
                samples.append(
                    Sample(
                        f"What is the capital of {country}?", REFUSAL + f" ({g})", capital, country + FACTBOOK_SUFFIX
                    )
                )
                continue
            else:
                answer = facts[rng.choice(others)]["capital - name"]
            samples.append(
                Sample(
                    f"What is the capital of {country}?",
                    f"<think>{think}</think><answer>{answer}</answer>",
                    capital,
                    country + FACTBOOK_SUFFIX,
                )
            )
    return samples


# -- the judge server ------------------------------------------------------------------------
class Server:
    def __init__(self, *args: str) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "judges.test_server", "--port", str(self.port), *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
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
        client.chat.completions.create(
            model="judge",
            messages=prompts.grader_messages(sample.question, sample.answers, answer),
            temperature=0.0,
            max_tokens=4,
        )
        calls += 1
    for sample in step:
        client.chat.completions.create(
            model="judge",
            messages=prompts.decompose_messages(parse(sample.completion).think),
            temperature=0.0,
            max_tokens=512,
        )
        calls += 1
    return {"wall_s": time.perf_counter() - started, "calls": calls}


def knowrl_code(checkout: Path, server: Server, steps: list[list[Sample]]) -> dict:
    """KnowRL's own reward code (their ``format_reward_func`` + ``CombinedScorer().combined_reward_func``, imported
    from the user's checkout) on these steps against the same judge server: bench/conformance.py's oracle process,
    each step timed as TRL calls it (imports and model loading excluded). The test judge answers their prompts,
    which it does not know, with "OK": their grader then scores 0 and FActScore finds no facts, so no retrieval
    or NLI runs and what is timed is their call pattern, as in ../shared/anchors.md."""
    from types import SimpleNamespace

    from bench import conformance
    from retrieval.models import resolve_model_path

    def row(key: str, x: Sample) -> SimpleNamespace:
        return SimpleNamespace(id=key, question=x.question, completion=x.completion, gold=x.answers, title=x.title)

    ck = conformance.Checkout(checkout)
    with tempfile.TemporaryDirectory() as tmp:
        conformance.prepare(Path(tmp))  # its KB and the tiny NLI model their scorer loads at start
        batches = {i: [row(f"{i}-{j}", x) for j, x in enumerate(step)] for i, step in enumerate(steps)}
        before = server.stats()["requests"]
        done = conformance.run_oracle(ck, None, batches, Path(tmp), server.url, resolve_model_path("all-MiniLM-L6-v2"))
        requests = server.stats()["requests"] - before
    out = _timing(done["batch_seconds"], requests, sum(len(s) for s in steps))
    out["commit"] = ck.commit[:7]
    out["facts"] = sum(r.get("n_facts", 0) for r in done["rows"])
    return out


async def naive_gather(url: str, kb: KnowledgeBase, steps: list[list[Sample]]) -> dict:
    """The same judge calls as the staged engine, each round one plain ``asyncio.gather``: no deduplication,
    cache, priority slots, speculation or claim policy (grade all, then decompose / retrieve / verify the
    INCORRECT ones)."""
    from openai import AsyncOpenAI

    from reward_engine.stages.grade import reply_form

    client = AsyncOpenAI(base_url=url, api_key="unused", max_retries=0)
    _, grade_tokens = reply_form(prompts.GRADER, structured=False)  # the room the engine gives the grader

    async def ask(messages: list, max_tokens: int) -> str:
        reply = await client.chat.completions.create(
            model="judge", messages=messages, temperature=0.0, max_tokens=max_tokens
        )
        return reply.choices[0].message.content or ""

    walls, calls = [], 0
    try:
        for step in steps:
            started = time.perf_counter()
            parsed = [parse(s.completion) for s in step]
            grades = await asyncio.gather(
                *(
                    ask(prompts.grader_messages(s.question, s.answers, p.answer or ""), grade_tokens)
                    for s, p in zip(step, parsed)
                )
            )
            labels = [prompts.parse_grade(g).value for g in grades]
            if "UNPARSEABLE" in labels:
                # a baseline that cannot read its grades skips factuality and looks fast: refuse it
                raise RuntimeError("naive baseline: a grade reply it cannot parse (out of step with the grader)")
            wrong = [i for i, label in enumerate(labels) if label == "INCORRECT"]
            claims = await asyncio.gather(*(ask(prompts.decompose_messages(parsed[i].think), 512) for i in wrong))
            claim_lists = [prompts.parse_claims(c) or [] for c in claims]

            def search(claims: list[str], title: str) -> list[list[Passage]]:
                return [[h.passage for h in kb.search(c, titles=title, k=5).hits] for c in claims]

            evidence = await asyncio.gather(
                *(asyncio.to_thread(search, cl, step[i].title_text) for i, cl in zip(wrong, claim_lists))
            )
            await asyncio.gather(
                *(ask(prompts.verify_messages(cl, ev), 512) for cl, ev in zip(claim_lists, evidence) if cl)
            )
            calls += len(step) + len(wrong) + sum(1 for cl in claim_lists if cl)
            walls.append(time.perf_counter() - started)
    finally:
        await client.close()
    return _timing(walls, calls, sum(len(s) for s in steps))


async def transport_floor(url: str, requests: int, steps: int) -> dict:
    """The one-round floor: ``requests`` short chat requests at once from a bare aiohttp client, nothing else (no
    parse, grade, cache or evidence). What any client pays on this machine and this server for one round; the fused
    cold step's distance from it is the engine's own cost (#75 point 8)."""
    import aiohttp

    walls = []
    async with aiohttp.ClientSession() as session:

        async def one(step: int, i: int) -> None:
            body = {
                "model": "judge",
                "messages": [{"role": "user", "content": f"Floor {step}-{i}: say OK."}],
                "max_tokens": 16,
                "temperature": 0,
            }
            async with session.post(f"{url}/chat/completions", json=body) as resp:
                await resp.read()

        for step in range(steps + 1):  # the first round opens the connections: not counted
            started = time.perf_counter()
            await asyncio.gather(*(one(step, i) for i in range(requests)))
            if step:
                walls.append(time.perf_counter() - started)
    return _timing(walls, requests * steps, requests * steps)


def _timing(walls: list[float], requests: int, completions: int) -> dict:
    return {
        "step_p50_s": statistics.median(walls),
        "step_p95_s": max(walls) if len(walls) < 20 else sorted(walls)[int(0.95 * (len(walls) - 1))],
        "wall_s": sum(walls),
        "requests": requests,
        "completions": completions,
        "completions_per_s": completions / sum(walls),
        "calls_per_completion": requests / completions,
        "steps": len(walls),
    }


def engine_config(url: str, cache_dir: str, mode: str = "staged", **judge: object) -> object:
    return parse_reward_config(
        {
            "grader": "llm",
            "decomposer": "llm",
            "verifier": "llm",
            "judge": {
                "endpoints": [{"base_url": url, "model": "judge"}],
                "max_in_flight": MAX_IN_FLIGHT,
                "timeout_s": 30,
                "cache_dir": cache_dir,
                **judge,
            },
            "factuality": {"kb_path": str(demo_kb_path()), "mode": mode},
            "step_timeout_s": 600,
        }
    )


async def run_engine(engine: RewardEngine, steps: list[list[Sample]]) -> dict:
    walls, requests, incorrect, completions, coverage, speculated, wasted = [], 0, 0, 0, [], 0, 0
    rows: list = []
    for step in steps:
        started = time.perf_counter()
        results = await engine.score(step)
        walls.append(time.perf_counter() - started)
        rows.extend(results)
        m = engine.last_metrics
        requests += m.judge_requests
        incorrect += m.labels.get("INCORRECT", 0)
        completions += len(step)
        coverage.append(m.coverage)
        speculated += m.speculated
        wasted += m.speculation_wasted
        assert len(results) == len(step)
    return {
        **_timing(walls, requests, completions),
        "frac_incorrect": incorrect / completions,
        "coverage": min(coverage),
        "speculated": speculated,
        "speculation_wasted": wasted,
        "results": rows,
    }


def warm_up(kb: KnowledgeBase) -> None:
    """Search and encoder loaded before any timed step (both are lazy)."""
    kb.search("warm up", k=1)
    kb.encode_queries(["warm up", "the encoder"])


def warm_in_new_process(url: str, cache: str, mode: str, steps: list[list[Sample]]) -> dict:
    """The warm rows of a fresh process on the same disk cache: nothing in its memory (memos, the grade guard's
    settled verdicts) is warm, as after a trainer restart; the KB is opened and warmed before the steps."""
    with tempfile.NamedTemporaryFile(suffix=".pickle", delete=False) as f:
        pickle.dump(steps, f)
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--warm-child", f.name, url, cache, mode],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
    finally:
        os.unlink(f.name)
    return json.loads(done.stdout.strip().splitlines()[-1])


def warm_child(steps_path: str, url: str, cache: str, mode: str) -> None:
    with open(steps_path, "rb") as f:
        steps = pickle.load(f)  # written by warm_in_new_process a moment ago
    with KnowledgeBase(demo_kb_path()) as kb:
        warm_up(kb)

        async def run() -> dict:
            async with RewardEngine(engine_config(url, cache, mode), kb=kb) as engine:
                return await run_engine(engine, steps)

        timing = asyncio.run(run())
    timing.pop("results")
    print(json.dumps(timing))


def agreement(staged: list, fused: list) -> dict:
    """Fused vs staged on the same rows: rewards, fact scores and the labels of claims both found."""
    both = [(a, b) for a, b in zip(staged, fused) if a.label == b.label == "INCORRECT"]
    same_reward = sum(
        None not in (a.correctness, b.correctness) and abs(a.correctness - b.correctness) < 1e-9 for a, b in both
    )
    diffs = [abs(a.correctness - b.correctness) for a, b in both if None not in (a.correctness, b.correctness)]
    claims = same = 0
    for a, b in both:
        fused_labels = {c.text: c.supported for c in b.claims if c.on_topic}
        for c in a.claims:
            if c.on_topic and c.text in fused_labels:
                claims += 1
                same += fused_labels[c.text] == c.supported
    return {
        "rows": len(staged),
        "incorrect": len(both),
        "same_reward": same_reward,
        "mean_abs_diff": statistics.mean(diffs) if diffs else 0.0,
        "claims_matched": claims,
        "claims_same_label": same,
        "labels_equal": sum(a.label == b.label for a, b in zip(staged, fused)),
    }


async def measure(args: argparse.Namespace, kb: KnowledgeBase) -> dict:
    rng = random.Random(args.seed)
    facts = country_facts()
    countries = sorted(facts)
    rng.shuffle(countries)
    plan = {
        "serial": 1,
        "naive": 2,
        "staged": args.steps,
        "fused": args.steps,
        "staged_uniform": args.steps,
        "fused_uniform": args.steps,
        "staged_rpm": args.rpm_steps,
        "fused_rpm": args.rpm_steps,
        "knowrl_code": 2 if args.knowrl else 0,
    }
    needed = sum(plan.values()) * PROMPTS_PER_STEP
    if len(countries) < needed:
        raise SystemExit(f"need {needed} countries with enough Factbook fields, have {len(countries)}")
    groups = iter(countries[i : i + PROMPTS_PER_STEP] for i in range(0, needed, PROMPTS_PER_STEP))
    steps = {name: [make_step(rng, facts, next(groups)) for _ in range(n)] for name, n in plan.items()}
    out: dict = {}

    server = Server("--latency-ms", "300", "--latency-dist", "fixed")
    try:
        out["serial"] = serial_baseline(server.url, steps["serial"][0])
        if args.knowrl:
            out["knowrl_code"] = await asyncio.to_thread(knowrl_code, args.knowrl, server, steps["knowrl_code"])
        out["naive"] = await naive_gather(server.url, kb, steps["naive"])
        out["floor"] = await transport_floor(server.url, PROMPTS_PER_STEP * GENERATIONS, 5)
        for mode in ("staged", "fused"):
            with tempfile.TemporaryDirectory() as cache:
                async with RewardEngine(engine_config(server.url, cache, mode), kb=kb) as engine:
                    out[mode] = await run_engine(engine, steps[mode])
                    out[f"{mode}_warm"] = await run_engine(engine, steps[mode])
                out[f"{mode}_warm_new_process"] = await asyncio.to_thread(
                    warm_in_new_process, server.url, cache, mode, steps[mode]
                )
        with tempfile.TemporaryDirectory() as cache:  # the staged rows again, fused, for agreement
            async with RewardEngine(engine_config(server.url, cache, "fused"), kb=kb) as engine:
                again = await run_engine(engine, steps["staged"])
        out["agreement"] = agreement(out["staged"]["results"], again["results"])
        out["server_max_in_flight"] = server.stats()["max_in_flight"]
    finally:
        server.stop()

    server = Server("--latency-ms", "300", "--latency-dist", "uniform")
    try:
        for mode in ("staged", "fused"):
            with tempfile.TemporaryDirectory() as cache:
                async with RewardEngine(engine_config(server.url, cache, mode), kb=kb) as engine:
                    out[f"{mode}_uniform"] = await run_engine(engine, steps[f"{mode}_uniform"])
    finally:
        server.stop()

    for mode in ("staged", "fused"):
        server = Server("--latency-ms", "300", "--latency-dist", "uniform", "--rpm", "1200", "--window-s", "1")
        try:
            with tempfile.TemporaryDirectory() as cache:
                config = engine_config(server.url, cache, mode, requests_per_minute=1200, rate_window_s=1.0)
                async with RewardEngine(config, kb=kb) as engine:
                    out[f"{mode}_rpm"] = await run_engine(engine, steps[f"{mode}_rpm"])
            out[f"{mode}_rpm"]["server_429"] = server.stats()["rate_limited"]
        finally:
            server.stop()
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--warm-child"]:  # the fresh process of the "new process" warm rows
        warm_child(*argv[1:5])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=3, help="cold steps (each with new prompts)")
    parser.add_argument("--rpm-steps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare a fresh run's speed-ups over the serial pattern with the committed file's (nothing written); "
        "exit 1 when a row got slower beyond the noise",
    )
    parser.add_argument("--no-profile", dest="profile", action="store_false", help="skip the profile section")
    parser.add_argument(
        "--knowrl", type=Path, help="a checkout of zjunlp/KnowRL: its own reward code runs beside the others, 2 steps"
    )
    args = parser.parse_args(argv)
    check_results(args, __file__, [("--out", args.out / "reward_throughput.md")], [args.out / "reward_throughput.png"])
    db = demo_kb_path()
    if not db.exists():
        build(db, demo_documents(), preset="demo")
    with KnowledgeBase(db) as kb:
        needs_index = "dense" not in kb.modes  # the demo builds BM25 only; this bench searches hybrid
    if needs_index:
        build(db)  # adds the dense index to the existing KB
    with KnowledgeBase(db) as kb:
        warm_up(kb)
        results = asyncio.run(measure(args, kb))
        if args.profile and not args.check:
            results["profile"] = asyncio.run(profile_steps(kb, args.seed))
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp) / "reward_throughput.md"
            write_markdown(fresh, results, args)
            report, slower = check(RESULTS / "reward_throughput.md", fresh)
        print(report)
        return 1 if slower else 0
    args.out.mkdir(parents=True, exist_ok=True)
    write_markdown(args.out / "reward_throughput.md", results, args)
    plot(args.out / "reward_throughput.png", results)
    print((args.out / "reward_throughput.md").read_text())
    return 0


async def profile_steps(kb: KnowledgeBase, seed: int, top: int = 15) -> dict[str, str]:
    """cProfile of one cold and three warm fused and staged steps (new prompts, own server), the entries
    with the most cumulative time: what a slower row spends its time on."""
    import cProfile
    import io
    import pstats

    rng = random.Random(seed + 1)
    facts = country_facts()
    countries = sorted(facts)
    rng.shuffle(countries)
    out: dict[str, str] = {}
    server = Server("--latency-ms", "300", "--latency-dist", "fixed")
    try:
        for i, mode in enumerate(("fused", "staged")):
            step = make_step(rng, facts, countries[i * PROMPTS_PER_STEP : (i + 1) * PROMPTS_PER_STEP])
            with tempfile.TemporaryDirectory() as cache:
                async with RewardEngine(engine_config(server.url, cache, mode), kb=kb) as engine:
                    for phase, repeats in (("cold", 1), ("warm", 3)):
                        profiler = cProfile.Profile()
                        for _ in range(repeats):
                            profiler.enable()
                            await engine.score(step)
                            profiler.disable()
                        text = io.StringIO()
                        stats = pstats.Stats(profiler, stream=text).strip_dirs().sort_stats("cumulative")
                        stats.print_stats(top)
                        body = text.getvalue()
                        out[f"{mode} {phase}"] = body[body.index("ncalls") :] if "ncalls" in body else body
    finally:
        server.stop()
    return out


_ROW = re.compile(r"^\| (?P<name>[^|]+?) \| (?P<latency>fixed|uniform) \| \d+ \| (?P<p50>[\d.]+) \| (?P<p95>[\d.]+) \|")


def _table(path: Path) -> dict[tuple[str, str], tuple[float, float]]:
    """(set-up, latency) -> (p50, p95) from a results file's table."""
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            rows[(m["name"], m["latency"])] = (float(m["p50"]), float(m["p95"]))
    return rows


def check(committed: Path, fresh: Path, floor: float = 0.15) -> tuple[str, list[str]]:
    """Each row's speed-up over the serial pattern, committed vs fresh; a row moved when the change exceeds its
    noise: the larger of ``floor`` and the row's own p95/p50 spread in either run. (report, rows slower)."""
    old, new = _table(committed), _table(fresh)
    serial = ("serial, KnowRL's call pattern", "fixed")
    lines = [
        f"committed: {committed} (commit {results_index.made_at(committed) or 'unknown'}); "
        f"fresh run: this checkout ({provenance.commit()})",
        "",
        "| set-up | latency | committed p50 | fresh p50 | speed-up committed -> fresh | noise | verdict |",
        "|---|---|---:|---:|---|---:|---|",
    ]
    slower = []
    for key, (p50, p95) in old.items():
        if key == serial or key not in new:
            continue
        f50, f95 = new[key]
        was, now = old[serial][0] / p50, new[serial][0] / f50
        noise = max(floor, (p95 - p50) / p50, (f95 - f50) / f50)
        change = now / was - 1
        verdict = "same (within the noise)"
        if change < -noise:
            verdict = "**slower**"
            slower.append(" / ".join(key))
        elif change > noise:
            verdict = "faster"
        lines.append(
            f"| {key[0]} | {key[1]} | {p50:.3f} s | {f50:.3f} s | {was:.0f}x -> {now:.0f}x ({change:+.0%}) "
            f"| {noise:.0%} | {verdict} |"
        )
    return "\n".join(lines), slower


def write_markdown(path: Path, r: dict, args: argparse.Namespace) -> None:
    serial, naive, staged, fused, agree = r["serial"], r["naive"], r["staged"], r["fused"], r["agreement"]
    serial_s = serial["wall_s"]
    lines = [
        "# Reward throughput",
        "",
        f"Generated by `{' '.join(['python', *sys.argv])}` at commit {provenance.commit()} on a "
        f"{os.cpu_count()}-core machine. Test judge server in its own process, 300 ms latency; steps of "
        f"{PROMPTS_PER_STEP} prompts x {GENERATIONS} completions ({staged['frac_incorrect']:.0%} graded INCORRECT), "
        f"3-6 claims per think block; demo KB for evidence; engine `judge.max_in_flight: {MAX_IN_FLIGHT}`. Every "
        "row is from this run; each cold row scores its own prompts with an empty cache.",
        "",
        "| set-up | latency | steps | step p50 s | step p95 s | vs serial | completions/s "
        "| judge calls per completion |",
        "|---|---|---|---|---|---|---|---|",
        f"| serial, KnowRL's call pattern | fixed | 1 | {serial_s:.2f} | {serial_s:.2f} | 1x | "
        f"{64 / serial_s:.2f} | {serial['calls'] / 64:.2f} |",
    ]
    if "knowrl_code" in r:
        theirs = r["knowrl_code"]
        lines.append(
            f"| KnowRL's own reward code (zjunlp/KnowRL {theirs['commit']}) | fixed | {theirs['steps']} | "
            f"{theirs['step_p50_s']:.2f} | {theirs['step_p95_s']:.2f} | {serial_s / theirs['step_p50_s']:.1f}x | "
            f"{theirs['completions_per_s']:.2f} | {theirs['calls_per_completion']:.2f} |"
        )
    rows = [("naive `asyncio.gather` of the staged calls", "fixed", naive)]
    if "floor" in r:
        rows.insert(0, ("bare aiohttp client, one round of 64 short requests (the floor)", "fixed", r["floor"]))
    for mode in ("staged", "fused"):
        rows += [
            (f"engine {mode}, cold cache", "fixed", r[mode]),
            (f"engine {mode}, cold cache", "uniform", r[f"{mode}_uniform"]),
            (f"engine {mode}, warm cache (same process)", "fixed", r[f"{mode}_warm"]),
            (f"engine {mode}, warm cache (new process, disk cache)", "fixed", r[f"{mode}_warm_new_process"]),
            (f"engine {mode}, cold, server RPM 1200", "uniform", r[f"{mode}_rpm"]),
        ]
    for name, latency, row in rows:
        lines.append(
            f"| {name} | {latency} | {row['steps']} | {row['step_p50_s']:.3f} | {row['step_p95_s']:.3f} | "
            f"{serial_s / row['step_p50_s']:.0f}x | {row['completions_per_s']:.1f} | "
            f"{row['calls_per_completion']:.2f} |"
        )
    lines += [
        "",
        f"- cold step at fixed 300 ms vs the serial pattern: fused **{serial_s / fused['step_p50_s']:.1f}x** "
        f"(target >= 60x), staged {serial_s / staged['step_p50_s']:.1f}x, naive gather "
        f"{serial_s / naive['step_p50_s']:.1f}x"
        + (
            f"; a bare client's one round of 64 requests, nothing else, {serial_s / r['floor']['step_p50_s']:.1f}x "
            f"({r['floor']['step_p50_s'] * 1000:.0f} ms: the fused step is "
            f"{(fused['step_p50_s'] - r['floor']['step_p50_s']) * 1000:.0f} ms above what any client pays here)"
            if "floor" in r
            else ""
        )
        + ". Naive gather pays three rounds (grade, decompose, verify) plus "
        "retrieval and sends every call, duplicates included; the staged engine sends each distinct call once and "
        "starts factuality beside the grader (two rounds when the offline grader and the judge agree); fused "
        "retrieves the evidence up front and extracts and labels the claims in one call (one round).",
    ]
    for mode in ("staged", "fused"):
        row, warm, warm2, rpm = r[mode], r[f"{mode}_warm"], r[f"{mode}_warm_new_process"], r[f"{mode}_rpm"]
        bound_s = rpm["requests"] / 20.0
        lines += [
            f"- {mode}: {row['calls_per_completion']:.2f} judge calls per completion cold; speculation started "
            f"factuality for {row['speculated']} answers, {row['speculation_wasted']} wasted; warm cache "
            f"{warm['requests']} calls at {warm['step_p50_s'] * 1000:.1f} ms p50, new process {warm2['requests']} "
            f"calls at {warm2['step_p50_s'] * 1000:.1f} ms; RPM 1200 (20 requests per 1-s window, enforced by the "
            f"server): {rpm['requests']} calls need {bound_s:.1f} s at the limit, the engine took "
            f"{rpm['wall_s']:.1f} s = **{bound_s / rpm['wall_s']:.0%}** of the bound, {rpm['server_429']} 429s, "
            f"coverage {rpm['coverage']:.0%}",
        ]
    lines += [
        f"- fused vs staged on the same {agree['rows']} rows (the staged cold rows scored again in fused mode, "
        f"fresh cache): labels equal on {agree['labels_equal']}/{agree['rows']}; of {agree['incorrect']} INCORRECT "
        f"rows {agree['same_reward']} got the same reward (mean |difference| {agree['mean_abs_diff']:.3f}); "
        f"{agree['claims_same_label']}/{agree['claims_matched']} claims found by both got the same label. The "
        "test judge decomposes both ways with the same offline rules, so differences here come from evidence: "
        "per-claim searches (staged) vs the row's documents whole, or one search when they are long (fused).",
        f"- the test judge grades with the offline grader's rules, so speculation is never wasted here; a real "
        "judge's disagreements are counted in `reward_engine/speculation_wasted`. Max requests in flight seen by "
        f"the server: {r['server_max_in_flight']} (engine limit {MAX_IN_FLIGHT}).",
        "",
        *knowrl_lines(r, fused),
        "",
        "*New process*: a fresh Python process on the same disk cache (nothing in memory is warm, as after a "
        "trainer restart; its KB opened before the steps). Up to b28c21d these rows were a second engine in the "
        "bench's own process, whose module-level memos were already warm.",
        "",
        "External to this run, for the history of these rows (#48): this bench's own command at 3d5749d, the "
        "commit whose file reported fused cold 0.427 s, warm 0.045 s and naive gather 1.86 s, rerun on this "
        "machine on 2026-11-26 gave 0.573 s, 0.083 s and 2.68 s: the machine had become ~30 % slower (the naive "
        "baseline holds none of the engine's code), so part of the slowdown #48 measured was never the code. "
        "What the code changed since, and this run's rows measure: short offline reads (the grade guard) kept on "
        "the event loop instead of a worker thread per grade (on 2 cores the worker held the GIL while the loop's "
        "SQLite reads waited for it), memoised text helpers of the offline grader and fact checker, one cache key "
        "per judge call, disk-cache writes batched into one transaction, and a test judge that works out its "
        "reply during its latency (after it, 60 requests queued ~2 ms of its CPU each). On 2026-11-27 (#48's "
        "100x): fused evidence looked up once per prompt's titles (it was an executor hop and a disk-cache read "
        "and write per completion, the same passages for all 8), whole-word search without compiling a regex "
        "per gold, tenacity built only after a first failure, the grade guard's refusal check memoised; and the "
        "test judge works out each reply on a worker thread, so its latency runs from each request's arrival "
        "(on its event loop a burst's later arrivals waited ~1.2 ms per fused reply before their clock started; "
        "KnowRL's one-at-a-time calls never queue).",
        "",
    ]
    if r.get("profile"):
        lines += [
            "## Profile",
            "",
            "cProfile of one more step per set-up (its own prompts and server; the profiler's overhead makes these "
            "steps slower than the table's), the entries with the most cumulative time. "
            "`python bench/reward_throughput.py --check` compares a fresh run with this file's rows.",
            "",
        ]
        for name, text in r["profile"].items():
            lines += [f"### {name}", "", "```", text.rstrip(), "```", ""]
    path.write_text("\n".join(lines))


def knowrl_lines(r: dict, fused: dict) -> list[str]:
    """KnowRL's own code beside the engine when this run had it (--knowrl), else the external anchor, labelled."""
    anchor = (
        "External, not measured by this bench (source: `../shared/anchors.md`, KnowRL's own reward code run "
        "separately on a machine of this kind, fixed 300 ms latency): 43.7 s for one such step (median of 2), "
        "128 serial calls."
    )
    if "knowrl_code" not in r:
        return [anchor]
    theirs = r["knowrl_code"]
    return [
        f"- KnowRL's own reward code, run beside the engine in this run (their `format_reward_func` + "
        f"`CombinedScorer().combined_reward_func` imported from a checkout at {theirs['commit']}, through "
        f"bench/knowrl_oracle.py, same judge server): {theirs['step_p50_s']:.2f} s per step p50 over "
        f"{theirs['steps']} steps of their own prompts, {theirs['requests']} judge calls ("
        f"{theirs['calls_per_completion']:.2f} per completion, one at a time); the engine's fused cold step is "
        f"**{theirs['step_p50_s'] / fused['step_p50_s']:.0f}x** faster. The test judge does not know their prompts "
        f'and answers them "OK": their grader scores 0 and FActScore found {theirs["facts"]} facts, so no '
        "retrieval or NLI ran and the time is their call pattern alone (as the external anchor measured it: "
        "`../shared/anchors.md`, 42.5-43.7 s on other days).",
    ]


def plot(path: Path, r: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["serial\n(KnowRL)", "naive\ngather", "staged\ncold", "fused\ncold", "fused\nwarm", "fused\nRPM 1200"]
    values = [
        r["serial"]["wall_s"],
        r["naive"]["step_p50_s"],
        r["staged"]["step_p50_s"],
        r["fused"]["step_p50_s"],
        r["fused_warm"]["step_p50_s"],
        r["fused_rpm"]["step_p50_s"],
    ]
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(names, values, color=["#999", "#bbb", "#1f77b4", "#17becf", "#2ca02c", "#ff7f0e"])
    ax.set_yscale("log")
    ax.set_ylabel("seconds per 64-completion step (log)")
    for i, v in enumerate(values):
        ax.text(i, v, f"{v:.3g}s", ha="center", va="bottom")
    ax.set_title("Reward step latency, 300 ms judge (fixed; RPM row uniform)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    sys.exit(main())
