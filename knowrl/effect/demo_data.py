"""QA data for the offline demo and the effect study, generated from the demo KB's sources (never committed).

The questions come from ``knowrl.effect.demo_questions`` (seven templates over the Factbook and the Wikipedia
leads, a fixed held-out set split by entity, made-up countries built differently on each side). Cold-start
SFT examples reason with two sentences from the KB and an answer sentence, so a completion carries several
checkable claims and the factuality term has something to score. Which training questions get "I don't
know" as their cold-start answer is the model's own knowledge boundary (``knowrl.effect.boundary``: the questions
it gets wrong before SFT), or, for comparison, a random share.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Sequence

from knowrl.data import INSTRUCTIONS
from knowrl.effect.demo_questions import Item, all_items, heldout_and_pool, training_items
from knowrl.effect.eval_grader import strict_normalize

CONTEXT_WORDS = 40
# The gradient design's seven families (its kept probe, configs/data/boundary-smollm2.json, covers these); the
# margin design (knowrl.effect.margin) asks every family of knowrl.effect.question_families.
GRADIENT_FAMILIES = ("capital", "capital_of", "language", "currency", "symbol", "element_of", "atomic_number")


def states_answer(sentence: str, aliases: Sequence[str]) -> bool:
    """The sentence holds one of the answer's aliases as whole words (after the strict grader's normalising).

    >>> states_answer("Lolita is a 1955 novel by Vladimir Nabokov.", ["Vladimir Nabokov"])
    True
    >>> states_answer("Tunisia has a total area of 163,610 sq km.", ["1956"])
    False
    """
    said = f" {strict_normalize(sentence)} "
    return any(f" {gold} " in said for gold in (strict_normalize(a) for a in aliases) if gold)


def reasoning(item: Item, unsure: bool, answer_first: bool = False, short: bool = False) -> str:
    """KB sentences (up to ~40 words) then the answer sentence, or the admission when ``unsure``. An "I don't
    know" target keeps only sentences that do not state the answer: reasoning that names Nabokov and then says
    it is not sure who wrote Lolita would teach abstaining on what the completion itself knows.
    ``answer_first``: the answer sentence (or the admission) opens the reasoning and the KB sentences follow,
    so the policy commits as its bare answer would before it writes context it may get wrong. ``short``: the answer
    sentence or the admission alone (the margin design's cold start: the answer-or-abstain decision is most of
    the target, not one token among sixty)."""
    if not item.answerable:
        return item.unsure
    if short:
        return item.unsure if unsure else item.answer_sentence
    kept: list[str] = []
    context = [s for s in item.context if not (unsure and states_answer(s, item.aliases))]
    for sentence in context:
        if kept and sum(len(s.split()) for s in kept) + len(sentence.split()) > CONTEXT_WORDS:
            break
        kept.append(sentence)
    stance = item.unsure if unsure else item.answer_sentence
    return " ".join([stance, *kept] if answer_first else [*kept, stance])


def sft_example(i: int, item: Item, unsure: bool, answer_first: bool = False, short: bool = False) -> dict[str, Any]:
    answer = "I don't know" if unsure or not item.answerable else item.gold
    thought = reasoning(item, unsure, answer_first, short)
    return {
        "id": f"demo-{i}",
        "qid": item.qid,
        "conversations": [
            {"from": "human", "value": INSTRUCTIONS.format(question=item.question)},  # the RL prompt
            {"from": "gpt", "value": f"<think>{thought}</think><answer>{answer}</answer>"},
        ],
    }


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    _replace(path, "".join(json.dumps(r) + "\n" for r in rows))


def _replace(path: Path, text: str) -> None:
    """``path`` replaced whole (a temporary file beside it, renamed over it): the files live in a cache folder two
    demo runs share, and a plain rewrite let the other run read a truncated train.jsonl (audit 59 H15)."""
    from knowrl_io.job_output import write_atomically

    write_atomically(path, text.encode("utf-8"))


def write_data(
    out_dir: Path,
    train_rows: list[dict[str, Any]],
    held_rows: list[dict[str, Any]],
    train: list[Item],
    unsure: set[str],
    how: dict[str, Any],
    answer_first: bool = False,
    short: bool = False,
) -> dict[str, Path]:
    """train.jsonl, heldout.jsonl, sft.json and cold_start.json (``how`` plus the target counts) in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "train": out_dir / "train.jsonl",
        "heldout": out_dir / "heldout.jsonl",
        "sft": out_dir / "sft.json",
        "cold_start": out_dir / "cold_start.json",
    }
    _write_jsonl(paths["train"], train_rows)
    _write_jsonl(paths["heldout"], held_rows)
    examples = [sft_example(n, i, i.qid in unsure, answer_first, short) for n, i in enumerate(train)]
    _replace(paths["sft"], json.dumps(examples, indent=1))
    counts = {
        "real": sum(i.answerable for i in train),
        "made_up": sum(not i.answerable for i in train),
        "unsure_real": len(unsure),
        "unsure_qids": sorted(unsure),
    }
    _replace(paths["cold_start"], json.dumps({**how, **counts}))
    return paths


def heldout_set(heldout_questions: int | None = None) -> tuple[list[Item], list[Item], list[Item]]:
    """(the held-out items, the same for every seed: its first ``heldout_questions`` when given; the pool
    training questions are drawn from; made-up training entities)."""
    held, pool, fakes = heldout_and_pool(all_items())
    random.Random(0).shuffle(held)
    return (held[:heldout_questions] if heldout_questions else held), pool, fakes


def build_demo_data(
    out_dir: Path,
    train_questions: int = 160,
    heldout_questions: int | None = None,
    seed: int = 0,
    sft_unsure_share: float = 0.0,
    boundary: dict[str, Any] | None = None,
) -> dict[str, Path]:
    """Write train.jsonl, heldout.jsonl (RL rows with aliases for the strict grader), sft.json (ShareGPT)
    and cold_start.json (which questions got "I don't know" and why) into ``out_dir``.

    The held-out set is the same for every seed (its first ``heldout_questions`` when given); the training
    questions are drawn with ``seed``. With ``boundary`` (``{"model", "k", "temperature", "cache"}``), a
    real training question gets "I don't know" when the model before SFT is right in fewer than half of k
    sampled answers (fewer than ``boundary["min_correct"]`` when given); else ``sft_unsure_share`` of them at
    random. Made-up countries always get it.
    """
    held, pool, fakes = heldout_set(heldout_questions)
    train = training_items(pool, fakes, train_questions, seed)
    rows = [i.rl_row() for i in train]
    rng = random.Random(seed)
    if boundary:
        from knowrl.effect.boundary import knows, probe

        k = int(boundary.get("k", 4))
        probed = probe(
            boundary["model"], rows, Path(boundary["cache"]), k, float(boundary.get("temperature", 0.9)), seed
        )
        need = boundary.get("min_correct")  # None: at least half of the k answers right (KnowRL, R-Tuning)
        unsure = {i.qid for i in train if i.answerable and not knows(probed.get(i.qid), k, need)}
        rule = f"wrong in more than half of {k}" if need is None else f"right in fewer than {need} of {k}"
        how = {"rule": f"{rule} sampled answers before SFT", "probe": probed}
    else:
        real = [i.qid for i in train if i.answerable]
        unsure = set(rng.sample(real, round(len(real) * sft_unsure_share)))
        how = {"rule": f"{sft_unsure_share:.0%} of real questions at random"}
    return write_data(out_dir, rows, [i.rl_row() for i in held], train, unsure, how)


def gradient_items(families: Sequence[str] | None = None) -> list[Item]:
    """The famous-to-obscure families (``knowrl.effect.question_families``; ``families``: only these), copyable ones
    dropped, one per question."""
    from knowrl.effect.demo_questions import copyable
    from knowrl.effect.question_families import country_items, element_items
    from retrieval.sources import wiki_documents

    leads = {d.title: d.text for d in wiki_documents()}
    seen: set[str] = set()
    items = []
    for item in [*country_items(), *element_items(leads)]:
        if families is not None and item.template not in families:
            continue
        if item.question not in seen and not copyable(item):
            seen.add(item.question)
            items.append(item)
    return items


def base_probe(boundary: dict[str, Any], items: Sequence[Item]) -> dict[str, dict[str, Any]]:
    """The base policy's probe of every answerable candidate (``knowrl.effect.boundary.probe``, one fixed seed so the
    held-out set is the same for every run); from ``boundary["file"]`` when given (a probe kept with the
    project, ``knowrl.effect.boundary.load_probe_file``), probing only what it lacks."""
    from knowrl.effect.boundary import load_probe_file, probe

    rows = [i.rl_row() for i in items if i.answerable]
    k, temperature = int(boundary.get("k", 4)), float(boundary.get("temperature", 0.9))
    kept = {}
    if boundary.get("file"):
        kept = load_probe_file(Path(boundary["file"]), k, temperature, boundary.get("model_name"))
    todo = [r for r in rows if r["qid"] not in kept]
    got = probe(boundary["model"], todo, Path(boundary["cache"]), k, temperature, 0) if todo else {}
    return {**kept, **got}


def gradient_data_for(
    config: Any,
    out_dir: Path,
    model_path: str,
    cache: Path,
    train_questions: int,
    min_correct: int | None = None,
    heldout_total: int | None = None,
) -> dict[str, Path]:
    """``build_gradient_data`` with a run config's pipeline settings (the demo and the effect study both call
    this): the base policy ``model_path``, its probe kept in ``cache`` unless the config's probe file is its
    own; ``heldout_total``: N held-out questions in all, a fifth of them (at least 2) about made-up countries."""
    p = config.pipeline
    made_up = p.demo_heldout_made_up if heldout_total is None else max(2, heldout_total // 5)
    answerable = p.demo_heldout_answerable if heldout_total is None else heldout_total - made_up
    boundary = {
        "model": model_path,
        "k": 4,
        "temperature": 0.9,
        "cache": cache,
        "file": p.demo_boundary_file,
        "model_name": config.model.name_or_path,
        "min_correct": min_correct,
    }
    return build_gradient_data(
        out_dir,
        boundary,
        train_questions,
        config.seed,
        answerable,
        made_up,
        known_share=p.demo_known_share,
        answer_first=p.demo_answer_first,
    )


def build_gradient_data(
    out_dir: Path,
    boundary: dict[str, Any],
    train_questions: int = 160,
    seed: int = 0,
    heldout_answerable: int = 240,
    heldout_made_up: int = 60,
    known_share: float = 0.45,
    made_up_share: float = 0.125,
    answer_first: bool = False,
) -> dict[str, Path]:
    """The effect study's data on questions the base policy half-knows (``knowrl.effect.stratify``): the same files
    as ``build_demo_data``. The base policy's probe marks each candidate known (right in at least half of
    k sampled bare answers, or ``boundary["min_correct"]``); the held-out set (fixed: split seed 0) and
    each seed's training questions are drawn per family at ``known_share`` known; the cold start teaches
    "I don't know" on the training questions the base policy does not know. ``cold_start.json`` records the
    known shares reached on both sides."""
    from knowrl.effect.boundary import knows
    from knowrl.effect.demo_questions import GRADIENT_FORMS, _markov_names, _syllable_names, made_up_items
    from knowrl.effect.stratify import pick, shares, split_groups

    items = gradient_items(GRADIENT_FAMILIES)
    probed = base_probe(boundary, items)
    k, need = int(boundary.get("k", 4)), boundary.get("min_correct")
    known = {i.qid: knows(probed.get(i.qid), k, need) for i in items}
    # 60 % of the entities the base policy knows something about go to the held-out side, half of the rest:
    # SmolLM2 knows 143 of 1,061 candidates, and the held-out set is the larger one.
    held_side, pool_side = split_groups(items, known, 0.5, split_seed=0, known_heldout_share=0.6)
    held = pick(held_side, known, heldout_answerable, known_share, random.Random(0))
    countries = sorted({i.links[0] for i in items if i.template == "capital"})
    taken = {c.lower() for c in countries}
    held_fakes = _markov_names(random.Random(1), countries, taken, heldout_made_up)
    held += made_up_items(held_fakes, "markov", GRADIENT_FORMS)
    n_fake = round(train_questions * made_up_share)
    train = pick(pool_side, known, train_questions - n_fake, known_share, random.Random(seed))
    train_fakes = _syllable_names(random.Random(seed + 2), taken | {n.lower() for n in held_fakes}, n_fake)
    train += made_up_items(train_fakes, "syllable", GRADIENT_FORMS)
    random.Random(seed).shuffle(train)
    unsure = {i.qid for i in train if i.answerable and not known[i.qid]}
    rule = f"wrong in more than half of {k}" if need is None else f"right in fewer than {need} of {k}"
    how = {
        "design": "gradient",
        "rule": f"known unless {rule} sampled bare answers (one probe of every candidate, seed 0)",
        "candidates": shares(items, known),
        "heldout_known": shares(held, known),
        "train_known": shares(train, known),
    }
    how["reasoning"] = "answer sentence first" if answer_first else "answer sentence last"
    marked = [{**i.rl_row(), "base_known": known.get(i.qid, False)} for i in train]
    held_rows = [{**i.rl_row(), "base_known": known.get(i.qid, False)} for i in held]
    return write_data(out_dir, marked, held_rows, train, unsure, how, answer_first)
