"""What a policy (or a user file) can throw at one reward step: time and peak memory per hostile row.

    python bench/hostile.py            # prints the tables (quick check)
    python bench/reliability.py        # -> bench/results/reliability.md, "Hostile input" (the results file)

Then the hostile files and invocations of ``bench/hostile_files.py`` (each a CLI on files made for it), in a
second table.

Each case is scored in a fresh process (the engine with the offline grader, decomposer and verifier over the
smoke KB, BM25, ``step_timeout_s`` 5), so its peak memory is its own: ``peak - before`` is what scoring the row
added, to be compared with the row's own size (issue #44: under 10x). The budget holds when the row comes back
within ``step_timeout_s`` + 1 s, scored or flagged (None), never a stall.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import hostile_files  # noqa: E402

BUDGET_S = 5.0
QUESTION = "What is the capital of France?"

# name -> python expression for (completion, answers)
CASES = {
    "plain wrong answer (baseline)": "('<think>Paris is in France.</think><answer>Lyon</answer>', 'Paris')",
    "20,000 unclosed `<answer>` openers": "('<think>x</think>' + '<answer>' * 20_000, 'Paris')",
    "100,000 newlines in the reasoning": "('<think>x.' + '\\n' * 100_000 + '</think><answer>Lyon</answer>', 'Paris')",
    "200,000 newlines in the answer": "('<think>Hmm.</think><answer>Lyon' + '\\n' * 200_000 + 'x</answer>', 'Paris')",
    "10 MB reasoning": "('<think>' + 'Lyon is a city. ' * 655_360 + '</think><answer>Lyon</answer>', 'Paris')",
    "50 MB reasoning": "('<think>' + 'Lyon is a city. ' * 3_276_800 + '</think><answer>Lyon</answer>', 'Paris')",
    "100,000 gold aliases": "('<think>Hmm.</think><answer>Lyon</answer>', ';'.join(f'a{i}' for i in range(100_000)))",
}

CHILD = (
    """
import asyncio, json, resource, sys, time
from reward_engine.config import parse_reward_config
from reward_engine.engine import RewardEngine, Sample
from retrieval.kb import KnowledgeBase

def status_mb(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

def reset_peak():
    # the high-water mark of imports and the warm-up would hide the row's own peak: start it again from here
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass

async def main(db, expr, budget):
    config = parse_reward_config({"factuality": {"kb_path": "x", "retrieval_mode": "bm25"}, "step_timeout_s": budget})
    with KnowledgeBase(db) as kb:
        async with RewardEngine(config, kb=kb) as engine:
            await engine.score([Sample("warm up?", "<think>Hmm.</think><answer>x</answer>", "y", "Paris")])
            reset_peak()
            before = status_mb("VmRSS")
            completion, answers = eval(expr)
            size_mb = (len(completion.encode()) + len(str(answers).encode())) / 2**20
            started = time.perf_counter()
            (result,) = await engine.score([Sample(%r, completion, answers, "Paris")])
            seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "before_mb": before, "peak_mb": status_mb("VmHWM"), "size_mb": size_mb,
                      "status": result.status, "total": result.total}))

asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
"""
    % QUESTION
)


def smoke_kb(work: Path) -> Path:
    """The smoke corpus as a BM25-only KB (no embedding pass)."""
    db = work / "smoke.db"
    if not db.exists():
        src = ROOT / "configs" / "data" / "smoke_kb.jsonl"
        cmd = [
            sys.executable,
            "-m",
            "retrieval.build",
            "--input",
            str(src),
            "--db",
            str(db),
            "--no-dense",
            "--no-progress",
        ]
        subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return db


def run_case(db: Path, expr: str) -> dict:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(db), expr, str(BUDGET_S)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=ROOT,
    )
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure() -> tuple[dict[str, dict], dict[str, dict]]:
    """Every hostile row, then every hostile file or invocation, each in a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        db = smoke_kb(Path(tmp))
        rows, files = {}, {}
        for name, expr in CASES.items():
            rows[name] = run_case(db, expr)
            print(name, json.dumps(rows[name]), flush=True)
        for i, case in enumerate(hostile_files.CASES):
            (Path(tmp) / f"case{i}").mkdir()
            files[case.name] = hostile_files.run(case, Path(tmp) / f"case{i}", db)
            print(case.name, json.dumps(files[case.name]), flush=True)
    return rows, files


def markdown(rows: dict[str, dict], files: dict[str, dict]) -> list[str]:
    """The "Hostile input" section of reliability.md: one table of rows, one of files and invocations."""
    lines = [
        "## Hostile input",
        "",
        "### Hostile rows",
        "",
        "One row per case, each in a fresh process: offline grader, decomposer and verifier, smoke KB (BM25),"
        f" step budget {BUDGET_S:g} s. *Added memory* is peak RSS minus RSS before the row was built; the row's"
        " own size is part of it. The budget holds when the row is back within the budget + 1 s, scored or flagged.",
        "",
        "| case | row size | time | within budget + 1 s | status | reward | added memory | added / size |",
        "|---|---:|---:|---|---|---:|---:|---:|",
    ]
    for name, r in rows.items():
        if "error" in r:
            lines.append(f"| {name} | | | no | crashed: {r['error'][:80]} | | | |")
            continue
        added = max(0.0, r["peak_mb"] - r["before_mb"])  # the high-water mark is reset to about the RSS read
        ratio = f"{added / r['size_mb']:.1f}x" if r["size_mb"] >= 1 else ""
        within = "yes" if r["seconds"] <= BUDGET_S + 1 else "NO"
        reward = "" if r["total"] is None else f"{r['total']:.3f}"
        lines.append(
            f"| {name} | {r['size_mb']:.2f} MB | {r['seconds']:.2f} s | {within} | {r['status']} | {reward} "
            f"| {added:.0f} MB | {ratio} |"
        )
    lines += [
        "",
        "Ratios are shown for rows of 1 MB or more (below that, interpreter noise dominates).",
        "",
        "Before the fixes (external: issue #44's probe on this machine, not this command): 20,000 openers took"
        " 30-37 s in `parse()` alone, 100,000 newlines 21-26 s against a 5 s budget with status `ok`, a 10 MB"
        " completion 713 MB (about 65x), 100,000 gold aliases 116 s for one row.",
        "",
        *hostile_files.markdown(files),
        "",
        "Before the fixes (external: issue #44's probe): the one-line array kept 1 row of 11, the list line 1"
        " of 11, the sidecar-named input and the other input's output lost 10 rows, `[2]` was INCORRECT,"
        " `kb#1.db` created `kb`, the FIFO hung, `--from-db` overwrote the file, and the rest were tracebacks;"
        " warm took 66 / 90 / 141 MB at 1 / 20 / 60 MB of input.",
        "",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    started = time.perf_counter()
    rows, files = measure()
    print("\n".join(markdown(rows, files)))
    print(f"{time.perf_counter() - started:.0f} s; the results file is bench/results/reliability.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
