"""The reward inspector at 20,000 rows: page size, load time and each interaction's time in a real browser.

    python bench/inspector_scale.py          # -> bench/results/inspector.md

Writes a training-run-shaped ``rewards.jsonl`` (GRPO groups of 8 completions of one question, 3-6 claims each
citing the smoke KB's passages, labels and rewards as KnowRL's preset pays them, one row in 50 a reward hack),
runs ``python -m reward_engine.inspect --kb``, opens the page in Debian's chromium driven by Playwright and
times, inside the page, each filter and search as a user triggers it (the input event, its handler and the
layout it forces). Issue #47 asks the page to stay responsive at 20,000 rows; the bar used here is the 100 ms a
response may take before a user notices a delay (RAIL).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))

from knowrl_io import provenance  # noqa: E402
from knowrl_io.job_output import check_results

RESULTS = ROOT / "bench" / "results"
BAR_MS = 100.0

# (name, javascript run in the page: sets a filter and fires its input event, as typing or clicking would)
ACTIONS = [
    ("label filter: INCORRECT", "set('f-label', 'INCORRECT')"),
    ("label filter: any", "set('f-label', '')"),
    ("search: a word in 1 row in 8", "set('f-text', 'lyon')"),
    ("search: a word in no row", "set('f-text', 'zanzibar')"),
    ("search cleared", "set('f-text', '')"),
    ("reward from 2", "set('f-min', '2')"),
    ("reward range cleared", "set('f-min', '')"),
    ("looks gamed", "check('f-gamed', true)"),
    ("looks gamed off", "check('f-gamed', false)"),
    ("show more (200 rows)", "document.getElementById('more').click()"),
    ("open a row (claims and evidence)", "openRow()"),
]
HELPERS = """
window.set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('input')); };
window.check = (id, v) => { const e = document.getElementById(id); e.checked = v;
  e.dispatchEvent(new Event('input')); };
window.openRow = () => { const d = document.querySelector('details.row:not([open])'); d.open = true;
  d.dispatchEvent(new Event('toggle')); };
"""


def make_rows(n: int, passage_ids: list[int], seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    cities = ["Paris", "Lyon", "Rome", "Lima", "Oslo", "Quito", "Hanoi", "Accra"]
    rows = []
    for i in range(n):
        group, gen = divmod(i, 8)
        gold = cities[group % len(cities)]
        answer = rng.choice([gold, gold, "Lyon", "I don't know"])
        label = "CORRECT" if answer == gold else "NOT_ATTEMPTED" if answer == "I don't know" else "INCORRECT"
        claims = [
            {
                "text": f"Claim {k} of completion {i}: {gold} lies on river number {rng.randint(1, 99)}.",
                "supported": rng.random() < 0.6,
                "evidence_ids": rng.sample(passage_ids, min(3, len(passage_ids))),
                "on_topic": True,
            }
            for k in range(rng.randint(3, 6))
        ]
        hack = i % 50 == 0
        if hack:
            claims = claims[:1] * 6
            answer = ""
        think = " ".join(c["text"] for c in claims)
        reward = {"CORRECT": 3.0, "NOT_ATTEMPTED": 2.0}.get(label, round(rng.uniform(-1.0, 0.5), 3))
        rows.append(
            {
                "step": group // 4,
                "question": f"What is the capital of country {group}?",
                "answers": gold,
                "completion": f"<think>{think} (draft {gen})</think><answer>{answer}</answer>",
                "total": reward,
                "format": 1.0,
                "correctness": reward - 1.0,
                "label": label,
                "status": "ok",
                "claims": claims,
            }
        )
    return rows


def browser_times(html: Path, repeats: int) -> dict:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs Debian's chromium (apt-get install chromium) and playwright (pip install -e '.[dev]')")
    out: dict = {"load_ms": [], "actions": {name: [] for name, _ in ACTIONS}}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for _ in range(repeats):
            page = browser.new_page()
            started = time.perf_counter()
            page.goto(html.as_uri(), wait_until="load")
            page.wait_for_function("document.getElementById('count').textContent.includes('matching')")
            out["load_ms"].append((time.perf_counter() - started) * 1000)
            page.evaluate(HELPERS)
            for name, js in ACTIONS:
                ms = page.evaluate(
                    f"() => {{ const t = performance.now(); {js}; document.body.offsetHeight; "
                    "return performance.now() - t; }"
                )
                out["actions"][name].append(ms)
            out["count_after"] = page.inner_text("#count")
            page.close()
        browser.close()
    return out


def markdown(command: str, r: dict) -> str:
    lines = [
        "# The reward inspector at 20,000 rows",
        "",
        f"Made by `{command}` at commit {provenance.commit()} on {platform.machine()}, {os.cpu_count()} cores "
        f"(chromium {r['chromium']}, headless, Playwright).",
        "",
        f"Input: {r['rows']:,} rows shaped like a GRPO run's `rewards.jsonl` ({r['rows_mb']:.1f} MB; groups of 8, "
        f"3-6 claims per completion, each citing 3 passages drawn at random from the demo KB's {r['passages']:,} (a "
        f"worst case: {r['cited']:,} distinct passages cited); 1 row in 50 a "
        "hack: one claim six times, no answer). `python -m reward_engine.inspect --kb` wrote the page in "
        f"{r['inspect_s']:.1f} s: {r['html_mb']:.1f} MB, one file.",
        "",
        f"Times inside the page (`performance.now()` around the input event, its handler and the layout it "
        f"forces), {r['repeats']} fresh page loads, median and max; the bar is {BAR_MS:.0f} ms (RAIL: a response a "
        "user does not notice as a delay).",
        "",
        "| what | median | max | within the bar |",
        "|---|---:|---:|---|",
    ]
    load = r["browser"]["load_ms"]
    lines.append(
        f"| page load to the first 200 rows shown | {statistics.median(load):.0f} ms | {max(load):.0f} ms | "
        "(a load, not a response) |"
    )
    for name, values in r["browser"]["actions"].items():
        within = "yes" if max(values) <= BAR_MS else "**no**"
        lines.append(f"| {name} | {statistics.median(values):.1f} ms | {max(values):.1f} ms | {within} |")
    lines += [
        "",
        "Rows are drawn 200 at a time (show more adds 200); filters and search scan all rows' text, kept "
        "lower-cased once at load. Evidence passages are stored once in the page and cited by id.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS / "inspector.md")
    args = parser.parse_args(argv)
    check_results(args, __file__)  # never an input or someone's file (hostile pass 52)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        db = tmp_path / "demo.db"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "retrieval.build",
                "--preset",
                "demo",
                "--db",
                str(db),
                "--no-dense",
                "--no-progress",
            ],
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
        import sqlite3

        with sqlite3.connect(db) as conn:
            ids = [row[0] for row in conn.execute("SELECT id FROM passages")]
        rows_path, html = tmp_path / "rewards.jsonl", tmp_path / "report.html"
        rows = make_rows(args.rows, ids)
        cited = len({i for r in rows for c in r["claims"] for i in c["evidence_ids"]})
        rows_path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "reward_engine.inspect", str(rows_path), "--kb", str(db), "-o", str(html)],
            check=True,
            cwd=ROOT,
        )
        inspect_s = time.perf_counter() - started
        version = subprocess.run(
            [shutil.which("chromium") or "chromium", "--version"], capture_output=True, text=True
        ).stdout.split()
        result = {
            "rows": args.rows,
            "rows_mb": rows_path.stat().st_size / 2**20,
            "passages": len(ids),
            "cited": cited,
            "inspect_s": inspect_s,
            "html_mb": html.stat().st_size / 2**20,
            "repeats": args.repeats,
            "chromium": version[1] if len(version) > 1 else "unknown",
            "browser": browser_times(html, args.repeats),
        }
    command = ("python bench/inspector_scale.py " + " ".join(argv if argv is not None else sys.argv[1:])).strip()
    args.out.write_text(markdown(command, result))
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
