"""Held-out evaluation as a SimpleQA reader reads it: per question, graded by a grader the policy was not
trained against.

Each held-out answer gets three labels: the strict evaluation grader's (``knowrl.effect.eval_grader``: exact alias
match, its own refusals; the headline), its containment match (the alias said as a phrase, not negated, no other
candidate of the question's family named: a sentence answer counts; reported beside it) and the training reward's
offline grader's (reported beside them, with its agreement with the strict grader, so a quirk of the training
grader cannot pass as improvement). Outcomes are kept per question (``knowrl.stats``) so intervals resample
questions, and two stages on the same questions can be paired.
"""

from __future__ import annotations

import asyncio
import json
import statistics
from pathlib import Path
from typing import Any, Sequence

from knowrl.effect.eval_grader import agreement, contain_label, strict_label, strict_normalize
from knowrl.stats import counts_per_question, outcome, rates
from knowrl_io.jsonl import read_objects
from reward_engine.completion import parse

TRAIN_GRADER = {"factuality": {"enabled": False}}


def heldout_rows(path: Path) -> list[dict[str, Any]]:
    """Held-out rows with what the strict grader needs; a row without ``aliases`` is graded on ``answers``."""
    rows = []
    for row in read_objects(path):
        answers = row.get("answers")
        aliases = row.get("aliases") or ([answers] if isinstance(answers, str) else list(answers or []))
        rows.append(
            {**row, "aliases": aliases, "answerable": row.get("answerable", True), "title": row.get("title") or ""}
        )
    return rows


def family_others(rows: Sequence[dict[str, Any]]) -> list[tuple[str, ...]]:
    """Per row, the other candidates of its family for the containment match: the aliases of the other
    answerable rows with the same ``template``, less those of rows that share an alias with it (the same answer).
    A row without a template has none.

    >>> rows = [{"template": "capital", "aliases": a, "answerable": True} for a in (["Paris"], ["Lyon"], ["paris"])]
    >>> family_others(rows + [{"aliases": ["Rome"], "answerable": True}])
    [('Lyon',), ('Paris', 'paris'), ('Lyon',), ()]
    """
    names = [{strict_normalize(a) for a in row.get("aliases") or ()} for row in rows]
    family: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        if row.get("template") and row.get("answerable", True):
            family.setdefault(row["template"], []).append(i)
    out = []
    for i, row in enumerate(rows):
        members = family.get(row.get("template") or "", [])
        said = [a for j in members if j != i and not names[j] & names[i] for a in rows[j]["aliases"]]
        out.append(tuple(dict.fromkeys(said)))
    return out


def claims_in(completion: str) -> int:
    """How many claims the offline decomposer finds in a completion's reasoning (what the fact term checks)."""
    from reward_engine.offline.facts import decompose

    return len(decompose(parse(completion).think or ""))


def grade_stage(
    rows: Sequence[dict[str, Any]], completions: Sequence[str], k: int, attempted: bool = False
) -> dict[str, Any]:
    """Strict, containment and training-grader outcomes of ``k`` completions per row (row-major), per question.
    ``attempted``: every answer counts as an attempt (the base row, which was never taught to abstain or
    to write the format): anything not CORRECT is INCORRECT."""
    from knowrl.evaluate import grade_completions
    from reward_engine.config import parse_reward_config

    repeated = [r for r in rows for _ in range(k)]
    _, train_details = asyncio.run(
        grade_completions(list(repeated), list(completions), parse_reward_config(TRAIN_GRADER))
    )
    others = [o for o in family_others(rows) for _ in range(k)]
    strict, contain, train, details = [], [], [], []
    for row, completion, graded, row_others in zip(repeated, completions, train_details, others):
        parsed = parse(completion)
        said, aliases, answerable = parsed.answer or "", row["aliases"], row["answerable"]
        label = strict_label(said, aliases, answerable) if parsed.has_answer else None
        contained = contain_label(said, aliases, answerable, row_others) if parsed.has_answer else None
        strict.append(outcome(label, parsed.has_answer))
        contain.append(outcome(contained, parsed.has_answer))
        train.append(outcome(graded["label"], parsed.has_answer))
        if attempted:
            strict[-1], contain[-1], train[-1] = (
                o if o == "CORRECT" else "INCORRECT" for o in (strict[-1], contain[-1], train[-1])
            )
        details.append(
            {
                "qid": row.get("qid"),
                "answer": parsed.answer,
                "strict": strict[-1],
                "contain": contain[-1],
                "train": train[-1],
                "claims": claims_in(completion),
                "completion": completion,
            }
        )

    def per_question(labels: list[str]):
        return counts_per_question([labels[i * k : (i + 1) * k] for i in range(len(rows))])

    counts, contain_counts, train_counts = per_question(strict), per_question(contain), per_question(train)
    return {
        "k": k,
        "counts": counts.tolist(),
        "rates": rates(counts),
        "contain_counts": contain_counts.tolist(),  # the containment match's, beside the strict exact match's
        "contain_rates": rates(contain_counts),
        "contain_agreement": agreement(strict, contain),
        "train_counts": train_counts.tolist(),
        "train_rates": rates(train_counts),
        "agreement": agreement(strict, train),
        "claims_mean": statistics.fmean(d["claims"] for d in details) if details else 0.0,
        "details": details,
    }


def evaluate_policy(
    model: str,
    adapter: str | None,
    heldout: Path,
    max_new_tokens: int,
    samples: int = 0,
    temperature: float = 1.0,
    seed: int = 0,
    greedy: bool = True,
    batch_size: int = 48,  # rows leave the batch as they end (knowrl.decode): big batches stay full
) -> dict[str, Any]:
    """``{"greedy": stage, "sampled": stage}`` (each present when asked) for one policy on ``heldout``."""
    from knowrl.evaluate import generation_passes

    rows = heldout_rows(heldout)
    out: dict[str, Any] = _stage_keys(rows)
    completions, drawn = generation_passes(
        model,
        adapter,
        [r["question"] for r in rows],
        max_new_tokens,
        samples,
        temperature,
        seed,
        greedy,
        batch_size,
        sample_batch_size=max(1, batch_size // max(1, samples)),  # k rows per prompt: the same rows per batch
    )
    if completions is not None:
        out["greedy"] = grade_stage(rows, completions, 1)
    if drawn is not None:
        out["sampled"] = grade_stage(rows, drawn, samples)
    return out


def bare_completion(answer: str) -> str:
    """A bare answer in the completion format, so the base and majority rows go through ``grade_stage``."""
    return f"<think></think><answer>{answer.strip()}</answer>"


def evaluate_bare(model: str, heldout: Path, max_new_tokens: int = 16, batch_size: int = 48) -> dict[str, Any]:
    """The base row: the untrained policy answering each held-out question with the knowledge-boundary probe's
    few-shot bare-answer prompt, greedy (first line of the reply), every answer counted as attempted, so the
    base is not punished for not knowing the think/answer format."""
    from knowrl.effect.boundary import sample_answers

    rows = heldout_rows(heldout)
    said = sample_answers(model, [r["question"] for r in rows], 1, None, 0, max_new_tokens, batch_size)
    completions = [bare_completion(answers[0]) for answers in said]
    return {**_stage_keys(rows), "greedy": grade_stage(rows, completions, 1, attempted=True)}


def majority_answers(train_rows: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Per family, its most common gold among the training questions (ties: the first in sorted order); "*": the
    most common over all families (what a question about a made-up thing gets)."""
    from collections import Counter

    per: dict[str, Counter] = {}
    for row in train_rows:
        if row.get("answerable", True) and row.get("aliases"):
            for key in (row.get("template") or "?", "*"):
                per.setdefault(key, Counter())[row["aliases"][0]] += 1
    return {key: sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for key, c in per.items()}


def evaluate_majority(heldout: Path, train: Path) -> dict[str, Any]:
    """A guessing baseline: every held-out question answered with its family's most common training gold
    (e.g. "euro" for every currency), graded like any stage: an F gain from priors shows up here too."""
    rows = heldout_rows(heldout)
    guess = majority_answers(heldout_rows(train))
    completions = [bare_completion(guess.get(r.get("template") or "?", guess.get("*", ""))) for r in rows]
    return {**_stage_keys(rows), "greedy": grade_stage(rows, completions, 1, attempted=True), "guesses": guess}


def _stage_keys(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {
        "qids": [r.get("qid") for r in rows],
        "answerable": [bool(r["answerable"]) for r in rows],
        "base_known": [bool(r.get("base_known")) for r in rows],  # the base policy's probe (gradient design)
    }


def save(result: dict[str, Any], path: Path) -> None:
    """Whole or not at all: a study killed mid-write resumes from the last complete file."""
    from knowrl_io.job_output import write_atomically

    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(result).encode())
