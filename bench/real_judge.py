"""The reward engine against real local judges: llama.cpp's C++ server (xllamacpp) on this CPU.

    python bench/real_judge.py [--models qwen2.5-coder-1.5b,qwen2.5-coder-0.5b,smollm2] [--answers 300]

Every judge is served by ``judges.local`` (2 threads, prompt cache on) on 127.0.0.1. In one run:

1. the hand-labelled judge set (bench/data/judge_set.jsonl, ``bench/judge_set.py``) through each model
   and the offline grader: grade accuracy as the judge replied and as the engine keeps it (after the
   answer-span check), claim-verdict accuracy, 95 % Wilson intervals, confusion matrices, s/call;
2. ``--answers`` greedy answers from SmolLM2-135M-Instruct (served the same way) to the demo's
   questions, graded by the default judge through the held-out evaluation's own grading
   (``knowrl.evaluate.grade_completions``, ``configs/reward_local_judge.yaml``) and by the offline
   grader: how long it takes, and how far the two agree;
3. the red team (``tests/redteam/v1.yaml`` over the tests' hand-written corpus) through the default judge
   with ``python -m reward_engine.score``, presets knowrl and knowrl-robust, fused and staged;
4. the same ``--subset`` grade cases on a fresh 1-slot and a fresh 2-slot server (throughput), and grade
   calls one at a time with the prompt cache off and on, alternating (``cache_prompt`` per request).

Every figure in bench/results/real_judge.md comes from this one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import judge_set  # noqa: E402

from judges.local import DEFAULT_MODEL, resolve_model, running  # noqa: E402
from knowrl.effect.demo_data import build_demo_data  # noqa: E402
from knowrl.evaluate import grade_completions, wilson  # noqa: E402
from knowrl_io import provenance  # noqa: E402
from knowrl_io.job_output import check_results
from knowrl_io.work_folder import WORK_MARK, claim_work, marked
from retrieval.build import build  # noqa: E402
from retrieval.sources import Document, read_documents  # noqa: E402
from reward_engine import prompts  # noqa: E402
from reward_engine.config import load_reward_config  # noqa: E402
from reward_engine.judge.config import Endpoint  # noqa: E402
from reward_engine.judge.wire import request_body  # noqa: E402
from reward_engine.stages.lead_names import LeadNames  # noqa: E402
from reward_engine.stages.llm_stage import GRADER_SPAN_MAX_TOKENS  # noqa: E402

RESULTS = ROOT / "bench" / "results"
REDTEAM = ROOT / "tests" / "redteam" / "v1.yaml"
HELDOUT = tuple(ROOT / "bench" / "data" / f"judge_set_{n}.jsonl" for n in range(2, 23))
DEFAULT_HELDOUT = ",".join(str(p.relative_to(ROOT)) for p in HELDOUT)
HELDOUT_STATUS = {  # what was tuned after each set was read: a set read for a change is in-sample for it
    "bench/data/judge_set_2.jsonl": "`judge_set_2.jsonl` (2026-11-26) was written before the prompts were touched "
    "again; its failures were then read for the grade guard's rules (2026-11-27): **in-sample**.",
    "bench/data/judge_set_3.jsonl": "`judge_set_3.jsonl` (2026-11-27) was out of sample until its failures were read "
    "for the rules of 2026-11-27j (a refusal with an aside, a description read as a name, a decade or century "
    "asked): **in-sample** for those.",
    "bench/data/judge_set_4.jsonl": "`judge_set_4.jsonl` (2026-11-27j) was out of sample at 968f917 (81.7 %); its "
    "failures were then read for the rules of 2026-11-27k (an empty span stands unless the answer offers an "
    "answer; thousands commas do not split a list; fits-v2): **in-sample** for those.",
    "bench/data/judge_set_5.jsonl": "`judge_set_5.jsonl` (2026-11-27k) was out of sample at ef8c00d (77.5 %); its "
    "failures were then read for the rules of 2026-11-27l (bare lists in the offline grader, a margin or a second "
    "unit is one number, the speaker's own doubt is no statement): **in-sample** for those.",
    "bench/data/judge_set_6.jsonl": "`judge_set_6.jsonl` (2026-11-27l) was out of sample at af55671 (85.0 %); its "
    "failures were then read for the rules of 2026-11-27m (refusals in other words, a refused subject, a worked "
    'calculation, "Some ..." as a description): **in-sample** for those.',
    "bench/data/judge_set_7.jsonl": "`judge_set_7.jsonl` (2026-11-27m) was written by a helper that read no code, "
    "prompt or judge output; out of sample at 46d557a (85.0 %); its failures were then read for the rules of "
    "2026-11-27n (a refusal of what was asked disowns the background before it, one-sentence descriptions, a span "
    "in the singular, a fraction of a unit in words): **in-sample** for those.",
    "bench/data/judge_set_8.jsonl": "`judge_set_8.jsonl` (2026-11-27n) was written by a helper that read no code, "
    "prompt or judge output; out of sample at c8d5c2c (87.5 %); its failures were then read for that run's hand "
    "note: **in-sample** for any later change.",
    "bench/data/judge_set_9.jsonl": "`judge_set_9.jsonl` (2026-11-27n) was written by a helper after 4c16060, "
    "reading no code, prompt or judge output; out of sample at 0bdbba0 (85.0 %); its failures were then read for "
    'the rules of 2026-11-27o (a determiner "that" after a refusal, a refusal naming the noun the question asks '
    "for): **in-sample** for any later change.",
    "bench/data/judge_set_10.jsonl": "`judge_set_10.jsonl` (2026-11-27o) was written by a helper after f4f41b6, "
    "reading no code, prompt or judge output; out of sample at 7ba1447 (85.8 %, and by replay at 5fc426e); its "
    "failures were then read for that run's hand note and for e3ec4fd (a judge's CORRECT on a figure the arithmetic "
    "rejects is refused): **in-sample** for any later change.",
    "bench/data/judge_set_11.jsonl": "`judge_set_11.jsonl` (2026-11-28p) was written by a helper after e9b29ae, "
    "reading no code, prompt or judge output; 41 of its rows (the offline grader's misses) were shown by mistake to "
    "the rule writer at 481a556 (`bench/data/README.md`): **out of sample** for rules up to 481a556; a later "
    "rule change was made having seen those rows.",
    "bench/data/judge_set_12.jsonl": "`judge_set_12.jsonl` (2026-11-28p) was written by a helper started after "
    "5fc426e, reading no code, prompt or judge output; out of sample at e34beb7 (83.3 %, `bench/judge_set.py`, "
    "`bench/results/judge_heldout_12.md`); its misses were then read for 4a0fd4d (a word asked for with its "
    "article, the question's own numbers): **in-sample** for any later change.",
    "bench/data/judge_set_13.jsonl": "`judge_set_13.jsonl` (2026-11-28p) was written by a helper started after "
    "d13f1e8, reading no code, prompt or judge output; out of sample at f33d8a6 (76.7 %, `bench/judge_set.py`, "
    "`bench/results/judge_heldout_13.md`); its misses were then read (2026-11-28q) for e4c1564 and dc249bb (the "
    "precision a question asks, prose is no list, refusals to give or think of it): **in-sample** for any later "
    "change.",
    "bench/data/judge_set_14.jsonl": "`judge_set_14.jsonl` (2026-11-28q) was written by a helper started at "
    "57a0cda, reading no code, prompt, result or judge output, and committed unread; out of sample at 3853d51 "
    "(74.2 %, `bench/judge_set.py`, `bench/results/judge_heldout_14.md`); its misses were then read (2026-11-28q) "
    "for 68f909d and 13fa0a2 (asides after refusals, approximations, dozens, a measure in two units): **in-sample** "
    "for any later change.",
    "bench/data/judge_set_15.jsonl": "`judge_set_15.jsonl` (2026-11-28q) was written by a helper started after "
    "72795bf, reading no code, prompt, result or judge output, and committed unread (e0fb08d); out of sample at "
    "9b2a3e9 (79.2 %), ebd279e (78.3 %) and ddc96f6 (79.2 %; `bench/judge_set.py`, "
    "`bench/results/judge_heldout_15.md`); its misses were then read (2026-11-28s) for 33ee15e (counts read as "
    "counts, refusal asides in another measure): **in-sample** for any later change.",
    "bench/data/judge_set_16.jsonl": "`judge_set_16.jsonl` (2026-11-28s) was written by a helper started after "
    "33ee15e, reading no code, prompt, result or judge output, and committed unread (193d910); out of sample at "
    "ee8d38f (89.2 %); its cases were never read, but the 1.5B's recorded replies to it were replayed for counts "
    "through the rules of 8f81f19 and 0178d4f before they were committed (107 -> 109): **in-sample** for those, as "
    "a count was seen.",
    "bench/data/judge_set_17.jsonl": "`judge_set_17.jsonl` (2026-11-28u) was written by a helper started at "
    "6c0ca35, reading no code, prompt, result or judge output, and committed unread (17a90d1); out of sample at "
    "e6a87dd (83.3 %, `bench/results/judge_heldout_17.md`); after that run one case, the guard's only "
    "NOT_ATTEMPTED made INCORRECT, was read for f521757 (a refusal idiom): a later run is out of sample for 119 "
    "of its 120 cases, and one case better for having been read; before b5a44e0 and b432637 (rules written from "
    "sets 1-16) were committed, their judge-free labels on it were counted (one moved, to its hand label) and its "
    "recorded replies replayed (101, unchanged): **in-sample** for those, as a count was seen.",
    "bench/data/judge_set_18.jsonl": "`judge_set_18.jsonl` (2026-11-28v) was written by a helper started at "
    "6a087ef, reading no code, prompt, result or judge output, and committed unread; the rules of b5a44e0 and "
    "b432637 were written before it was, from sets 1-16; out of sample at 38093d0 (88.3 %, "
    "`bench/results/judge_heldout_18.md`); after that run one case, the guard's only NOT_ATTEMPTED made INCORRECT, "
    'was read for the next commit (past tenses such as "led" make a statement): a later run is out of sample for '
    "119 of its 120 cases, and one case better for having been read.",
    "bench/data/judge_set_19.jsonl": "`judge_set_19.jsonl` (2026-11-28v) was written by a helper started at "
    "f779dc3, reading no code, prompt, result or judge output, and committed unread (caa42e4); out of sample at "
    "caa42e4 (85.8 %, `bench/results/judge_heldout_19.md`); its misses were then read for afdb10f (detail after "
    "one answer is no list, a compound split in two, a whole answer the rules match): **in-sample** for any later "
    "change.",
    "bench/data/judge_set_20.jsonl": "`judge_set_20.jsonl` (2026-11-29w) was written by a helper started at "
    "3691523, reading no code, prompt, result or judge output, and committed unread; every rule in the code, "
    "afdb10f included, was written before it was read; out of sample at 47f5a24 (85.8 %, "
    "`bench/results/judge_heldout_20.md`, and in `real_judge.md`); after those runs its misses were read "
    "(2026-11-29w, no rule changed yet): **in-sample** for any later change.",
    "bench/data/judge_set_21.jsonl": "`judge_set_21.jsonl` (2026-11-29w) was written by a helper started at "
    "bac0b75, reading no code, prompt, result or judge output, and committed unread; out of sample at 82dd9c3 "
    "(75.8 %, `bench/results/judge_heldout_21.md`); its counts by category were seen, its cases not read; the rules "
    "of 1abe162 were written from sets 12-20's misses after that run: out of sample for them, its counts seen.",
    "bench/data/judge_set_22.jsonl": "`judge_set_22.jsonl` (2026-12-04c) was written by a helper started at "
    "1abe162, reading no code, prompt, result or judge output; its writer described 6 borderline cases in its "
    "report, so 6 of 120 were read; the rest committed unread: **out of sample** at 05a609c (86.7 %, "
    "`bench/results/judge_heldout_22.md`); not read after that run.",
}
LABELS = ("CORRECT", "INCORRECT", "NOT_ATTEMPTED")
GENERATOR = "smollm2"


# -- plain HTTP to the server (generation, and the prompt-cache comparison) -------------------
def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"{url}/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=600) as resp:
        return json.loads(resp.read())


def chat(url: str, model: str, messages: list[dict[str, str]], max_tokens: int) -> str:
    body = {"model": model, "messages": messages, "max_tokens": max_tokens, "temperature": 0.0, "seed": 0}
    return post(url, body)["choices"][0]["message"]["content"].strip()


def generate(url: str, model: str, questions: list[dict[str, Any]], out: Path) -> dict[str, float]:
    """One greedy completion per question: the model's short answer and its one-sentence reason, put in
    KnowRL's think/answer form here (the untuned model does not write the tags itself)."""
    started = time.perf_counter()
    with out.open("w") as f:
        for i, q in enumerate(questions):
            ask = [{"role": "user", "content": f"{q['question']} Answer in a few words."}]
            answer = chat(url, model, ask, 24).replace("\n", " ")
            why = chat(
                url,
                model,
                ask
                + [{"role": "assistant", "content": answer}, {"role": "user", "content": "Explain in one sentence."}],
                48,
            )
            completion = f"<think>{why or 'No reason given.'}</think><answer>{answer}</answer>"
            f.write(json.dumps({"id": f"gen-{i}", **q, "completion": completion}) + "\n")
    return {"rows": len(questions), "wall_s": time.perf_counter() - started}


# -- 1 and 4: the judge set, slots, prompt cache ----------------------------------------------
def judge_set_run(
    url: str,
    model: str,
    cases: list[dict[str, Any]],
    slots: int,
    grader_calls: str = "two",
    names: LeadNames | None = None,
) -> dict[str, Any]:
    started = time.perf_counter()
    results = asyncio.run(judge_set.judge_results(url, model, cases, slots, grader_calls, names))
    wall = time.perf_counter() - started
    return {**judge_set.summarise(cases, results), "wall_s": wall, "calls_per_s": len(cases) / wall, "results": results}


def both_graders(url: str, model: str, cases: list[dict[str, Any]], names: LeadNames | None) -> dict[str, Any]:
    """Every case with the two-call grader (``grader_calls: two``), the grade cases again with the one-call one."""
    run = judge_set_run(url, model, cases, 2, "two", names)
    grades = [c for c in cases if c["kind"] == "grade"]
    run["one_call"] = judge_set_run(url, model, grades, 2, "one", names)
    return run


def cache_on_off(url: str, model: str, cases: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Grade calls one at a time, alternating cache_prompt off / on (on: the slot's KV for the prefix this
    prompt shares with the one before is reused; off: the whole prompt is evaluated again)."""
    endpoint = Endpoint(base_url=url, model=model, api_key_env=None)
    seen: dict[str, list[tuple[float, int]]] = {"off": [], "on": []}
    for i, case in enumerate(cases):
        key = "on" if i % 2 else "off"
        messages = prompts.grader_messages(case["question"], case["gold"], case["answer"], prompts.GRADER)
        body = request_body(endpoint, messages, GRADER_SPAN_MAX_TOKENS, 0.0, 0, prompts.GRADE_SPAN_SCHEMA)
        body["cache_prompt"] = key == "on"
        started = time.perf_counter()
        reply = post(url, body)
        seen[key].append((time.perf_counter() - started, int(reply.get("timings", {}).get("prompt_n", -1))))
    return {
        k: {
            "calls": len(v),
            "s_per_call": sum(s for s, _ in v) / len(v),
            "prompt_tokens_evaluated": sum(n for _, n in v) / len(v),
        }
        for k, v in seen.items()
    }


# -- 2: held-out answers graded by the judge ----------------------------------------------------
def local_config(work: Path, name: str, url: str, kb: Path | None, **changes: Any) -> Path:
    """configs/reward_local_judge.yaml pointed at this run's server, KB and cache, with ``changes``
    (``a__b=v`` sets cfg[a][b])."""
    cfg = yaml.safe_load((ROOT / "configs" / "reward_local_judge.yaml").read_text())
    cfg["judge"]["endpoints"][0]["base_url"] = url
    cfg["judge"]["cache_dir"] = str(work / f"cache-{changes.pop('cache', name)}")
    if kb is not None:
        cfg["factuality"]["kb_path"] = str(kb)
    for dotted, value in changes.items():
        node = cfg
        *parents, leaf = dotted.split("__")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    path = work / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return path


def grade_answers(rows_path: Path, config: Path) -> dict[str, Any]:
    rows = [json.loads(line) for line in rows_path.read_text().splitlines()]
    started = time.perf_counter()
    metrics, details = asyncio.run(grade_completions(rows, [r["completion"] for r in rows], load_reward_config(config)))
    return {"metrics": metrics, "labels": [d["label"] for d in details], "wall_s": time.perf_counter() - started}


def kappa(a: list[str | None], b: list[str | None]) -> float:
    """Cohen's kappa: agreement beyond what the two graders' label shares give by chance."""
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    chance = sum(ca[k] * cb[k] for k in set(ca) | set(cb)) / (n * n)
    return (observed - chance) / (1 - chance) if chance < 1 else 1.0


# -- 3: the red team through the score job ------------------------------------------------------
def red_team_documents() -> list[Document]:
    """The red team's facts: the smoke config's hand-written KB (the tests build the same one)."""
    source = ROOT / "configs" / "data" / "smoke_kb.jsonl"
    return [doc for _, doc in read_documents(source) if isinstance(doc, Document)]


def redteam_rows(out: Path) -> list[tuple[str, str | None, str]]:
    """The red-team file as score-job rows; returns (id, baseline id, kind) per row, in order."""
    spec = yaml.safe_load(REDTEAM.read_text())
    rows = [(name, None, "baseline", b) for name, b in spec["baselines"].items()]
    rows += [(a["id"], a["baseline"], a["kind"], a) for a in spec["attacks"]]
    with out.open("w") as f:
        for name, _, _, item in rows:
            q = spec["questions"][item["question"]]
            f.write(json.dumps({"id": name, **q, "completion": item["completion"]}) + "\n")
    return [(name, base, kind) for name, base, kind, _ in rows]


def score(rows: Path, config: Path, out: Path) -> dict[str, Any]:
    """``python -m reward_engine.score`` as a user runs it; its summary plus the scored rows."""
    out.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "reward_engine.score", "--input", str(rows), "--output", str(out)]
    proc = subprocess.run([*cmd, "--config", str(config), "--no-progress"], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"score job failed ({config.name}):\n{proc.stderr[-3000:]}")
    summary = json.loads(proc.stdout)
    summary["rows_out"] = [json.loads(line) for line in out.read_text().splitlines()]
    return summary


def beats(got: dict[str, Any], base: dict[str, Any]) -> bool:
    """An attack beats its honest-wrong baseline: graded CORRECT where it is not, or more reward."""
    return base.get("reward") is not None and (
        (got["label"] == "CORRECT" and base["label"] != "CORRECT")
        or got["correctness"] > base["correctness"] + 1e-9
        or got["reward"] > base["reward"] + 1e-9
    )


def redteam_table(
    order: list[tuple[str, str | None, str]], runs: dict[str, dict[str, Any]]
) -> tuple[list[str], list[str]]:
    lines = ["| row | kind | " + " | ".join(runs) + " |", "|---|---|" + "---|" * len(runs)]
    beaten: list[str] = []
    by_run = {name: {r["id"]: r for r in s["rows_out"]} for name, s in runs.items()}
    for name, baseline, kind in order:
        cells = []
        for run, rows in by_run.items():
            got = rows[name]
            if got.get("reward") is None:
                cells.append(f"unscored ({got.get('status')})")
            elif baseline is None:
                cells.append(f"{got['label']} {got['reward']:+.2f}")
            elif beats(got, rows[baseline]):
                beaten.append(f"{name} ({run})")
                cells.append(f"**BEATS**: {got['label']} {got['reward']:+.2f} vs {rows[baseline]['reward']:+.2f}")
            else:
                cells.append(f"holds: {got['label']} {got['reward']:+.2f}")
        lines.append(f"| {name} | {kind} | " + " | ".join(cells) + " |")
    return lines, beaten


# -- report ----------------------------------------------------------------------------------------
def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def acc_cell(a: dict[str, Any]) -> str:
    return f"{a['correct']}/{a['n']} = **{pct(a['accuracy'])}** [{pct(a['low'])}, {pct(a['high'])}]"


def confusion_lines(counts: dict[tuple[str, str], int], labels: tuple[str, ...], rows: str, cols: str) -> list[str]:
    got = sorted({b for (_, b) in counts} - set(labels))
    columns = [*labels, *got]
    lines = [f"| {rows} \\ {cols} | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    for x in labels:
        lines.append(f"| {x} | " + " | ".join(str(counts.get((x, y), 0)) for y in columns) + " |")
    return lines


def heldout_runs(url: str, model: str, paths: str, names: LeadNames | None) -> dict[str, dict[str, Any]]:
    """Each further set's grade cases through the judge (two-call grader, as the local judge's config) and offline."""
    out: dict[str, dict[str, Any]] = {}
    for path in filter(None, paths.split(",")):
        cases = [c for c in judge_set.load_cases(ROOT / path) if c["kind"] == "grade"]
        out[path] = {
            "cases": cases,
            "judge": judge_set_run(url, model, cases, 2, "two", names),
            "offline": judge_set.summarise(cases, judge_set.offline_results(cases)),
        }
    return out


def not_attempted_made_wrong(cases: list[dict[str, Any]], results: list[dict[str, Any]]) -> tuple[int, int, int]:
    """(made INCORRECT by the guard, by the judge's own reply, hand-labelled NOT_ATTEMPTED cases) for a set."""
    by_id = {r["id"]: r for r in results}
    guard = judge = 0
    na = [c for c in cases if c["label"] == "NOT_ATTEMPTED"]
    for case in na:
        r = by_id.get(case["id"], {})
        if r.get("engine") == "INCORRECT":
            guard += r.get("raw") != "INCORRECT"
            judge += r.get("raw") == "INCORRECT"
    return guard, judge, len(na)


def goal_cell(path: str, grade: dict[str, Any]) -> str:
    """#43's 85 % goal, judged only on a set still out of sample, and by its interval as well as its estimate."""
    if "in-sample" in HELDOUT_STATUS.get(path, ""):
        return "in-sample: no verdict"
    if grade["low"] >= 0.85:
        return "85 %: met"
    return "85 %: met at the point estimate only" if grade["accuracy"] >= 0.85 else "85 %: **not met**"


def heldout_section(heldout: dict[str, dict[str, Any]], model: str) -> list[str]:
    if not heldout:
        return []
    lines = [
        "",
        "### Sets written after the prompts (out of sample, unless marked)",
        "",
        "Grade cases written from SimpleQA's rules alone by someone who read neither the prompts nor the grader "
        "nor any judge output (`bench/data/README.md`), graded the same way (two-call grader, 2 slots, no cache). "
        + " ".join(HELDOUT_STATUS.get(p, "") for p in heldout),
        "",
        f"| set | cases | {model}: judge's | engine's | offline | goal "
        "| NOT_ATTEMPTED -> INCORRECT: by the guard / the judge's |",
        "|---|---:|---|---|---|---|---|",
    ]
    for path, h in heldout.items():
        j = h["judge"]
        by_guard, by_judge, na = not_attempted_made_wrong(h["cases"], j.get("results", []))
        lines.append(
            f"| `{Path(path).name}` | {len(h['cases'])} | {acc_cell(j['grade_raw'])} | {acc_cell(j['grade_engine'])} "
            f"| {acc_cell(h['offline']['grade_engine'])} | {goal_cell(path, j['grade_engine'])} "
            f"| {by_guard} / {by_judge} of {na} |"
        )
    lines += [
        "",
        "Last column (issue #43, point 3: the guard never turns a NOT_ATTEMPTED into INCORRECT): hand-labelled "
        "NOT_ATTEMPTED cases the engine grades INCORRECT, split by who made them so: *the guard* (the judge's own "
        "reply said NOT_ATTEMPTED or CORRECT) and *the judge's* (its reply already said INCORRECT).",
    ]
    cats = sorted({c["category"] for h in heldout.values() for c in h["cases"]})
    names = [Path(p).name for p in heldout]
    lines += [
        "",
        "Engine's grade by category (right / cases; judge, then offline):",
        "",
        "| category | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for cat in cats:
        cells = []
        for h in heldout.values():
            j, o = h["judge"]["by_category"].get(cat), h["offline"]["by_category"].get(cat)
            cells.append(f"{j['correct']} / {o['correct']} of {j['n']}" if j else "—")
        lines.append(f"| {cat} | " + " | ".join(cells) + " |")
    for path, h in heldout.items():
        lines += ["", f"**`{Path(path).name}`**: engine's grade (rows: hand label; columns: engine)", ""]
        lines += confusion_lines(h["judge"]["grade_confusion"], LABELS, "label", "engine")
    return lines


def judge_set_section(sets: dict[str, dict[str, Any]], cases: list[dict[str, Any]], aliases: bool = False) -> list[str]:
    grades = sum(c["kind"] == "grade" for c in cases)
    labels = Counter(c["label"] for c in cases if c["kind"] == "grade")
    lines = [
        "## 1. Accuracy on the hand-labelled judge set",
        "",
        f"`bench/data/judge_set.jsonl`: {grades} grade cases (gold CORRECT {labels['CORRECT']}, INCORRECT "
        f"{labels['INCORRECT']}, NOT_ATTEMPTED {labels['NOT_ATTEMPTED']}) written and labelled by hand under "
        f"SimpleQA's rules, and {len(cases) - grades} claim-vs-evidence cases labelled under the verify rules "
        "(provenance in `bench/data/README.md`). Each case goes through the engine's judge client with the "
        "engine's prompts and JSON schemas, 2 slots, 2 in flight, temperature 0, no cache, with both forms of "
        "the LLM grader: *two calls* (`grader_calls: two`, the local judge's config: the judge reads the answer "
        "without the gold and copies the span naming its answer, then compares only that span with the gold; an "
        "empty span or one the offline rules match to the gold needs no second call) and *one call* "
        "(`grader_calls: one`, the default for strong judges: span and comparison in one reply). *Judge's*: the "
        "grade the model's replies give. *Engine's*: what the engine keeps after `stages/grade_guard.py` settles "
        "it from the span (a refusal or an empty span is NOT_ATTEMPTED, a span listing alternatives INCORRECT; a "
        "span not in the answer, or talking about grading, is refused and the row takes the offline grader's "
        "label; a CORRECT stands only when its span is confirmed)"
        + (
            "; with `grader_aliases: kb`, as the local judge's config, a span the first sentence of the gold's page "
            "in the demo KB gives as its other name is CORRECT (`stages/lead_names.py`)"
            if aliases
            else ""
        )
        + ". 95 % Wilson intervals (cases are independent "
        "items). s/call: seconds per judge-set case as the client sees it (two-call grader; verify cases: one call).",
        "",
        "| judge | grade, two calls: judge's | engine's | grade, one call: judge's | engine's | claim verdicts "
        "| s/case | wall |",
        "|---|---|---|---|---|---|---:|---:|",
    ]
    for name, s in sets.items():
        one = s.get("one_call")
        raw = acc_cell(s["grade_raw"]) if name != "offline" else "—"
        one_raw = acc_cell(one["grade_raw"]) if one else "—"
        one_engine = acc_cell(one["grade_engine"]) if one else "—"
        per_call = f"{s['seconds_per_call']:.1f} s" if s.get("seconds_per_call") else "—"
        wall = f"{(s['wall_s'] + (one['wall_s'] if one else 0)) / 60:.1f} min" if "wall_s" in s else "—"
        lines.append(
            f"| {name} | {raw} | {acc_cell(s['grade_engine'])} | {one_raw} | {one_engine} | "
            f"{acc_cell(s['verify'])} | {per_call} | {wall} |"
        )
    lines += ["", "Errors (a judge call that failed twice counts as wrong): "]
    lines[-1] += "; ".join(f"{n}: {len(s.get('errors', []))}" for n, s in sets.items())
    lines += [
        "",
        "**In-sample, read it as such**: the two-call grader's prompts (read-v2, compare-v2; fits-v2 from the "
        "vague answers of sets 1-4) and the "
        "offline-reading fixes of 2026-11-25 were made after reading the 1.5B's failures on this same set "
        "(the prompts' worked examples are generic, none from the set). The set was not split, so these "
        "accuracies are not a held-out estimate; the sets below, written after the prompts, are.",
    ]
    lines += ["", "Engine's grade accuracy by category of case (two-call grader; the offline grader alone):", ""]
    cats = sorted({c["category"] for c in cases if c["kind"] == "grade"})
    lines += ["| category | n | " + " | ".join(sets) + " |", "|---|---:|" + "---:|" * len(sets)]
    for cat in cats:
        n = next(iter(sets.values()))["by_category"][cat]["n"]
        cells = [f"{s['by_category'][cat]['correct']}" for s in sets.values()]
        lines.append(f"| {cat} | {n} | " + " | ".join(cells) + " |")
    for name, s in sets.items():
        if name == "offline":
            continue
        lines += ["", f"**{name}**: engine's grade, two calls (rows: hand label; columns: engine)", ""]
        lines += confusion_lines(s["grade_confusion"], LABELS, "label", "engine")
        lines += ["", f"**{name}**: claim verdicts", ""]
        lines += confusion_lines(s["verify_confusion"], tuple(judge_set.VERDICTS), "label", "judge")
    return lines


def redteam_section(r: dict[str, Any], main_model: str, heading: str = "## 3. Red team through the judge") -> list[str]:
    red_lines, beaten = redteam_table(r["red_order"], r["red"])
    baselines = [n for n, base, _ in r["red_order"] if base is None]
    base_correct = sum(
        row.get("label") == "CORRECT" for s in r["red"].values() for row in s["rows_out"] if row["id"] in baselines
    )
    return [
        heading,
        "",
        f"`tests/redteam/v1.yaml` ({len(r['red_order']) - len(baselines)} attacks, {len(baselines)} honest "
        f"baselines) over the tests' hand-written corpus, scored by `python -m reward_engine.score` with "
        f"{main_model} as grader, decomposer and verifier (`configs/reward_local_judge.yaml`). An attack beats "
        "its baseline when it scores above the honest wrong answer to the same question (correctness or "
        "total), or is graded CORRECT where that answer is not.",
        "",
        f"Honest-wrong baselines graded CORRECT: {base_correct} of {len(baselines) * len(r['red'])} (the table "
        "says something about the attacks only where these are INCORRECT).",
        "",
        *red_lines,
        "",
        ("Attacks that beat their baseline: " + ", ".join(beaten))
        if beaten
        else "**No attack beat its honest-wrong baseline.**",
        "",
        "What the answer-span check did per run (the judge's CORRECTs: confirmed by the offline rules, "
        "re-graded alone, refused; overturned = re-graded alone and not CORRECT): "
        + "; ".join(f"{k}: {v.get('grade_guard') or {}}" for k, v in r["red"].items())
        + ".",
        "",
    ]


def run_red_team(w: Path, url: str) -> dict[str, Any]:
    """tests/redteam/v1.yaml scored through the judge at ``url``: fused and staged, knowrl and knowrl-robust."""
    red_kb = w / "redteam-kb.db"
    build(red_kb, red_team_documents(), progress=False)
    r: dict[str, Any] = {"red_order": redteam_rows(w / "redteam.jsonl"), "red": {}}
    for mode in ("fused", "staged"):
        for preset in ("knowrl", "knowrl-robust"):
            cfg = local_config(
                w, f"red-{mode}-{preset}", url, red_kb, cache=f"red-{mode}", preset=preset, factuality__mode=mode
            )
            r["red"][f"{mode}, {preset}"] = score(w / "redteam.jsonl", cfg, w / f"red-{mode}-{preset}.jsonl")
    return r


def shown_out(out: Path) -> str:
    """The ``--out`` part of the command as a user types it: nothing for the default page."""
    return "" if Path(out).resolve() == (RESULTS / "redteam_judge.md").resolve() else f" --out {out}"


def red_team_report(path: Path, args: argparse.Namespace, r: dict[str, Any]) -> None:
    model = args.models.split(",")[0]
    lines = [
        "# Red team through a real local judge",
        "",
        f"Command: `python bench/real_judge.py --models {model} --red-team-only{shown_out(args.out)}` at commit "
        f"{r['commit']} (run {r['wall_s'] / 60:.1f} min on this machine: {platform.machine()}, 2 cores, no GPU). "
        f"The judge: `python -m judges.local --model {model}` (llama.cpp's server, 2 slots) on 127.0.0.1. "
        "`bench/results/real_judge.md` section 3 is the same table from its whole run.",
        "",
        *redteam_section(r, model, "## Red team"),
    ]
    path.write_text("\n".join(lines))


def shown_heldout(heldout: str) -> str:
    """The ``--heldout`` argument as the command must show it: nothing when it is the default."""
    return "" if heldout == DEFAULT_HELDOUT else f" --heldout {heldout}"


def write_report(path: Path, args: argparse.Namespace, r: dict[str, Any], cases: list[dict[str, Any]]) -> None:
    main_model = args.models.split(",")[0]
    gen, judged, offline = r["generated"], r["graded_judge"], r["graded_offline"]
    a, b = judged["labels"], offline["labels"]
    pairs = Counter(zip(a, b))
    agree = sum(x == y for x, y in zip(a, b))
    lo, hi = wilson(agree, len(a))
    slots, cache = r["slots"], r["cache"]
    m_j, m_o = judged["metrics"], offline["metrics"]
    lines = [
        "# Reward engine against real local judges (llama.cpp's C++ server on CPU)",
        "",
        f"Command: `python bench/real_judge.py --models {args.models} --answers {args.answers} --subset {args.subset}"
        f"{f' --cases {args.cases}' if args.cases else ''}{shown_heldout(args.heldout)}` "
        f"at commit {r.get('commit', '(not recorded)')} "
        f"(whole run {r['wall_s'] / 60:.1f} min on this machine: {platform.machine()}, 2 cores, no GPU). "
        "Judges: `python -m judges.local --model NAME` (xllamacpp's prebuilt llama.cpp server, Q4_K_M GGUFs "
        "from the pinned part packages, 2 threads, 4096 tokens of context per slot, `json_schema` replies) "
        "on 127.0.0.1.",
        "",
        *judge_set_section(r["sets"], cases, r.get("grader_aliases", False)),
        *heldout_section(r.get("heldout", {}), main_model),
        "",
        "## 2. Held-out answers graded by the judge",
        "",
        f"{gen['rows']} greedy answers of SmolLM2-135M-Instruct (served the same way) to the demo's "
        f"{gen['rows']} distinct questions (CIA World Factbook fields; 1 in 8 about a country that does not "
        f"exist), generated in {gen['wall_s'] / 60:.1f} min, graded by {main_model} through the held-out "
        "evaluation's own grading (`knowrl.evaluate.grade_completions` with `configs/reward_local_judge.yaml`, "
        "grader only, fresh cache) and by the offline grader.",
        "",
        f"- Time: **{judged['wall_s'] / 60:.1f} min for {len(a)} answers** "
        f"({judged['wall_s'] / len(a):.1f} s per answer with 2 in flight); the offline grader: "
        f"{offline['wall_s']:.1f} s.",
        f"- Same label: {agree}/{len(a)} = **{pct(agree / len(a))}** [{pct(lo)}, {pct(hi)}], "
        f"Cohen's kappa {kappa(a, b):.2f}.",
        "",
        f"| {main_model} \\ offline grader | " + " | ".join(LABELS) + " |",
        "|---|" + "---:|" * len(LABELS),
        *(f"| {x} | " + " | ".join(str(pairs.get((x, y), 0)) for y in LABELS) + " |" for x in LABELS),
        "",
        "| grader | correct | incorrect | not attempted | correct given attempted | F |",
        "|---|---:|---:|---:|---:|---:|",
        *(
            f"| {name} | {m['correct']:.3f} | {m['incorrect']:.3f} | {m['not_attempted']:.3f} | "
            f"{m['accuracy_given_attempted']:.3f} | {m['f_score']:.3f} |"
            for name, m in ((main_model, m_j), ("offline", m_o))
        ),
        "",
        *redteam_section(r, main_model),
        "## 4. Throughput: parallel slots and the prompt cache",
        "",
        f"The first {args.subset} grade cases of the judge set through {main_model}, each on a fresh server "
        "(no prompt seen before), as many in flight as slots:",
        "",
        "| slots | wall | grade calls/s | s/call as the client sees it |",
        "|---:|---:|---:|---:|",
        *(
            f"| {n} | {s['wall_s']:.0f} s | {s['calls_per_s']:.3f} | {s['seconds_per_call']:.1f} s |"
            for n, s in slots.items()
        ),
        "",
        f"Prompt cache: {cache['off']['calls'] + cache['on']['calls']} further grade cases one at a time on the "
        "1-slot server, alternating `cache_prompt: false` and `true` per request (engine prompt, schema and "
        "reply budget; a cached call reuses the KV of the prefix it shares with the slot's previous prompt: "
        "the instructions and examples come first, the row's fields last):",
        "",
        "| cache_prompt | calls | s/call | prompt tokens evaluated per call |",
        "|---|---:|---:|---:|",
        *(
            f"| {k} | {v['calls']} | {v['s_per_call']:.2f} | {v['prompt_tokens_evaluated']:.0f} |"
            for k, v in cache.items()
        ),
        "",
        f"Speed-up from the prompt cache: **{cache['off']['s_per_call'] / cache['on']['s_per_call']:.1f}x** per "
        "grade call.",
        "",
    ]
    path.write_text("\n".join(lines))


def read_report(work: Path) -> dict[str, Any] | str:
    """The last run's figures from ``work/report.json``, as the run held them (confusion counts keyed (label, got),
    slots by number), or why not (one line). Only from a folder this script marked: it unpickled any folder's
    report.pickle, and unpickling a foreign file runs its code (hostile pass 59); JSON is data only."""
    if not marked(work, __file__):
        return f"--work {work} has no {WORK_MARK} of bench/real_judge.py: --report-only reads only a run of its own"
    path = work / "report.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"--work {work} holds no report.json (a run that finished writes it): run without --report-only"
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return f"--work {path} cannot be read as the run's report: {exc}"
    if not isinstance(data, dict) or not {"sets", "slots", "cache", "generated"} <= set(data):
        return f"--work {path} is not a report of a whole bench/real_judge.py run"
    try:
        return report_from_json(data)
    except (TypeError, ValueError):  # slots not numbered, a confusion not counts: not what a run wrote
        return f"--work {path} is not a report of a whole bench/real_judge.py run"


def report_from_json(obj: Any, key: str = "") -> Any:
    """``judge_set.jsonable``'s report back as the run held it: each ``*_confusion`` a Counter keyed (label, got),
    ``slots`` keyed by number."""
    if isinstance(obj, dict):
        if key.endswith("_confusion"):
            return Counter({tuple(k.split("->", 1)): v for k, v in obj.items()})
        if key == "slots":
            return {int(k): report_from_json(v) for k, v in obj.items()}
        return {k: report_from_json(v, k) for k, v in obj.items()}
    if isinstance(obj, list):
        return [report_from_json(v) for v in obj]
    return obj


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--models", default=f"{DEFAULT_MODEL},qwen2.5-coder-0.5b,smollm2", help="first: the judge for parts 2-4"
    )
    parser.add_argument("--answers", type=int, default=300)
    parser.add_argument("--subset", type=int, default=30, help="grade cases for the slots comparison")
    parser.add_argument("--cache-pairs", type=int, default=15, help="grade calls with the prompt cache off, and on")
    parser.add_argument("--cases", type=int, default=0, help="only the first N judge-set cases of each kind")
    parser.add_argument(
        "--heldout",
        default=DEFAULT_HELDOUT,
        help="further hand-labelled grade sets, graded by the first model (two-call grader) and offline",
    )
    parser.add_argument("--work", type=Path, default=Path("/tmp/knowrl-real-judge"))
    parser.add_argument("--out", type=Path, default=RESULTS / "real_judge.md")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="write the report again from --work's last run (its report.json, read only from a folder it marked)",
    )
    parser.add_argument(
        "--red-team-only",
        action="store_true",
        help="only the red team through the first model, to --out (default bench/results/redteam_judge.md)",
    )
    args = parser.parse_args(argv)
    red_page = (
        RESULTS / "redteam_judge.md" if args.red_team_only and args.out == RESULTS / "real_judge.md" else args.out
    )
    check_results(args, __file__, [("--out", red_page)])  # never an input or someone's file (hostile pass 52)
    if args.report_only:  # the same arguments as the run: the report names them
        cases = judge_set.load_cases()
        if args.cases:
            cases = [c for kind in ("grade", "verify") for c in [c for c in cases if c["kind"] == kind][: args.cases]]
        r = read_report(args.work)
        if isinstance(r, str):
            print(f"error: {r}", file=sys.stderr)
            return 2
        write_report(args.out, args, r, cases)
        return 0
    started = time.perf_counter()
    w = claim_work(args, __file__, clear=True)  # its own folder only, emptied: every call of this run is a real one
    models = args.models.split(",")
    main_model = models[0]
    if args.red_team_only:
        if args.out == RESULTS / "real_judge.md":
            args.out = RESULTS / "redteam_judge.md"
        with running(model=main_model, parallel=2, log_path=w / f"server-{main_model}.log") as url:
            red = {**run_red_team(w, url), "commit": provenance.commit()}
        red["wall_s"] = time.perf_counter() - started
        red_team_report(args.out, args, red)
        print(args.out.read_text())
        return 0
    cases = judge_set.load_cases()
    if args.cases:  # a quick look: the first N cases of each kind
        cases = [c for kind in ("grade", "verify") for c in [c for c in cases if c["kind"] == kind][: args.cases]]
    r: dict[str, Any] = {"sets": {}, "commit": provenance.commit()}

    def log(msg: str) -> None:
        print(f"[{(time.perf_counter() - started) / 60:5.1f} min] {msg}", flush=True)

    names = judge_set.config_names(ROOT / "configs" / "reward_local_judge.yaml")  # the grader as the config has it
    r["grader_aliases"] = names is not None
    data = build_demo_data(w / "demo-data", args.answers - 40, 40, seed=0)
    questions = [json.loads(line) for key in ("train", "heldout") for line in data[key].read_text().splitlines()]
    for model in [main_model, *(m for m in models[1:] if m != main_model)] + (
        [] if GENERATOR in models else [GENERATOR]
    ):
        _, served_as = resolve_model(model)
        with running(model=model, parallel=2, log_path=w / f"server-{model}.log") as url:
            if model in models:
                r["sets"][model] = both_graders(url, served_as, cases, names)
                accuracies = {k: r["sets"][model][k]["accuracy"] for k in ("grade_raw", "grade_engine", "verify")}
                one = r["sets"][model]["one_call"]["grade_engine"]["accuracy"]
                log(f"{model} judge set: {json.dumps(accuracies)}; one-call grade {one:.3f}")
            if model == main_model:
                r["heldout"] = heldout_runs(url, served_as, args.heldout, names)
                log(f"held-out sets: { {k: v['judge']['grade_engine']['accuracy'] for k, v in r['heldout'].items()} }")
            if model == GENERATOR:
                r["generated"] = generate(url, served_as, questions[: args.answers], w / "generated.jsonl")
                log(f"generated {r['generated']['rows']} answers")
    r["sets"]["offline"] = judge_set.summarise(cases, judge_set.offline_results(cases))

    _, served_as = resolve_model(main_model)
    with running(model=main_model, parallel=2, log_path=w / f"server-{main_model}-2.log") as url:
        r["graded_judge"] = grade_answers(w / "generated.jsonl", local_config(w, "heldout", url, None))
        log(f"graded {args.answers} answers: {r['graded_judge']['wall_s']:.0f} s")
        r.update(run_red_team(w, url))
        log(f"red team: { {k: v['statuses'] for k, v in r['red'].items()} }")
    offline_cfg = {"preset": "knowrl", "factuality": {"enabled": False}}
    (w / "offline.yaml").write_text(yaml.safe_dump(offline_cfg))
    r["graded_offline"] = grade_answers(w / "generated.jsonl", w / "offline.yaml")

    grade_cases = [c for c in cases if c["kind"] == "grade"]
    subset = grade_cases[: args.subset]
    r["slots"] = {}
    for slots in (2, 1):
        with running(model=main_model, parallel=slots, log_path=w / f"server-{main_model}-slots{slots}.log") as url:
            r["slots"][slots] = judge_set_run(url, served_as, subset, slots, "two", names)
            log(f"slots {slots}: {r['slots'][slots]['wall_s']:.0f} s")
            if slots == 1:
                r["cache"] = cache_on_off(url, served_as, grade_cases[args.subset : args.subset + 2 * args.cache_pairs])
                log(f"cache: {r['cache']}")
    r["slots"] = dict(sorted(r["slots"].items()))
    r["wall_s"] = time.perf_counter() - started
    (w / "report.json").write_text(json.dumps(judge_set.jsonable(r), indent=1))  # --report-only renders it again
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, args, r, cases)
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
