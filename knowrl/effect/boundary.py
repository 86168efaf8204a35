"""The model's knowledge boundary: which training questions it can already answer (as KnowRL and R-Tuning
build cold-start data).

Before SFT the model is asked each training question k times (a plain few-shot short-answer prompt, since
it cannot write the think/answer format yet) at temperature ``temperature``; the training grader grades
each answer. A question is *known* when at least ``min_correct`` of the k are right. The cold start then
teaches "I don't know" exactly where the model is wrong, not on a random share of questions.

Results are cached per model folder (its config and weight files' sizes and times) and per question, so a
seed that asks the same questions again costs nothing. Each cached count carries a seal over the grader's version
(``reward_engine.offline.version.rules_version``), the question, its gold answers and the sampled answers: a count
any other grader gave is graded again from the kept answers, never reused (hostile pass 57).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from pathlib import Path
from typing import Any, Sequence

from knowrl_io.file_key import file_key

log = logging.getLogger(__name__)

SHOTS = (
    ("What is the chemical symbol for gold?", "Au"),
    ("How many legs does a spider have?", "8"),
    ("At what temperature in degrees Celsius does water boil at sea level?", "100"),
)
SYSTEM = "Answer with only the answer: a name, a year or a number. No sentence."


def probe_messages(question: str) -> list[dict[str, str]]:
    """A few-shot chat asking for a bare answer (the shots are general facts no template asks about)."""
    messages = [{"role": "system", "content": SYSTEM}]
    for q, a in SHOTS:
        messages += [{"role": "user", "content": q}, {"role": "assistant", "content": a}]
    return messages + [{"role": "user", "content": question}]


def model_key(model_path: str) -> str:
    """Names a model folder's contents cheaply: its files' names and stats (``knowrl_io.file_key``: size, mtime,
    inode, ctime; whole-second mtimes kept a probe of weights rewritten with their mtime put back: pass 59)."""
    folder = Path(model_path)
    parts = [str(folder.resolve())]
    if folder.is_dir():
        for f in sorted(folder.iterdir()):
            if f.is_file():
                st = f.stat()
                parts.append(f"{f.name}:{file_key(st)}")
    return hashlib.sha1("|".join(parts).encode()).hexdigest()[:16]


def sample_answers(
    model_path: str,
    questions: Sequence[str],
    k: int,
    temperature: float | None,
    seed: int,
    max_new_tokens: int = 16,
    batch_size: int = 16,
    backend: str | None = None,
) -> list[list[str]]:
    """k sampled bare answers per question (first line of each reply); ``temperature`` None: greedy.
    ``backend``: who decodes (``knowrl.vllm_decode``; None: ``$KNOWRL_DECODE``, else "auto")."""
    from knowrl import vllm_decode
    from knowrl.decode import complete_texts
    from knowrl.evaluate import load_for_generation, load_tokenizer
    from knowrl.models import resolve_model_path

    tokenizer = load_tokenizer(model_path, None)
    prompts = [
        tokenizer.apply_chat_template(probe_messages(q), tokenize=False, add_generation_prompt=True) for q in questions
    ]
    path, sampling = resolve_model_path(model_path), {"temperature": temperature, "k": k, "seed": seed}
    texts = vllm_decode.maybe_complete_texts(backend, path, None, tokenizer, prompts, max_new_tokens, **sampling)
    if texts is None:
        model, tokenizer = load_for_generation(model_path, None)
        texts = complete_texts(model, tokenizer, prompts, max_new_tokens, batch_size, **sampling)
    firsts = [text.strip().split("\n")[0] for text in texts]
    return [firsts[i * k : (i + 1) * k] for i in range(len(questions))]


def probe_path(model_path: str, cache: Path, k: int = 4, temperature: float = 0.9, seed: int = 0) -> Path:
    """Where ``probe`` keeps a model's answers (written only when it asked the model something new)."""
    return cache / f"{model_key(model_path)}-k{k}-t{temperature:g}-s{seed}.json"


def probe(
    model_path: str,
    rows: Sequence[dict[str, Any]],
    cache: Path,
    k: int = 4,
    temperature: float = 0.9,
    seed: int = 0,
    batch_size: int = 16,
) -> dict[str, dict[str, Any]]:
    """Per training row (by ``qid``): the k answers and how many the training grader marks CORRECT.
    Rows about things that do not exist are not asked (nothing to know)."""
    path = probe_path(model_path, cache, k, temperature, seed)
    known: dict[str, dict[str, Any]] = json.loads(path.read_text()) if path.exists() else {}
    stale = [r for r in rows if r["qid"] in known and known[r["qid"]].get("seal") != seal(known[r["qid"]], r)]
    for row in stale:  # another grader's count (or another row's): today's grader reads the kept answers
        known[row["qid"]] = graded(known[row["qid"]]["answers"], row)
    todo = [r for r in rows if r["answerable"] and r["qid"] not in known]
    if todo:
        answers = sample_answers(model_path, [r["question"] for r in todo], k, temperature, seed, batch_size=batch_size)
        for row, said in zip(todo, answers):
            known[row["qid"]] = graded(said, row)
    if todo or stale:
        from knowrl_io.job_output import write_atomically

        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(known).encode())
    return {r["qid"]: known[r["qid"]] for r in rows if r["qid"] in known}


def graded(answers: Sequence[str], row: dict[str, Any]) -> dict[str, Any]:
    """A cache entry: the answers, today's training grader's right count and the seal that says who counted."""
    entry = {"answers": list(answers), "correct": right_count(answers, row)}
    return {**entry, "seal": seal(entry, row)}


def seal(entry: dict[str, Any], row: dict[str, Any]) -> str:
    """What a cached count was decided by: the grader's version, the question, its golds, the answers and the count
    itself. A count another grader left (or one edited by hand) no longer matches, so it is graded again."""
    from reward_engine.offline.version import rules_version

    decided_by = [rules_version(), row["question"], row["answers"], entry.get("answers"), entry.get("correct")]
    return hashlib.sha256(json.dumps(decided_by, ensure_ascii=False).encode()).hexdigest()[:16]


def right_count(answers: Sequence[str], row: dict[str, Any]) -> int:
    """How many of ``answers`` the training grader marks CORRECT for ``row``, given its question as training does."""
    from reward_engine.labels import Label
    from reward_engine.offline.grader import grade

    return sum(grade(a, row["answers"], row["question"]) is Label.CORRECT for a in answers)


def regrade(got: dict[str, dict[str, Any]], rows: Sequence[dict[str, Any]]) -> int:
    """Grade a kept probe's answers again with today's training grader (in place), so a grader change moves the
    knowledge boundary without sampling the model again; returns how many questions' right counts changed. A
    question no row holds is left as it was."""
    by_qid = {r["qid"]: r for r in rows}
    changed = 0
    for qid, result in got.items():
        if qid in by_qid:
            correct = right_count(result["answers"], by_qid[qid])
            changed += correct != result["correct"]
            result["correct"] = correct
    return changed


def knows(result: dict[str, Any] | None, k: int, min_correct: int | None = None) -> bool:
    """Known when at least ``min_correct`` (default: half, rounded up) of the k answers were right.

    >>> knows({"correct": 2}, 4), knows({"correct": 1}, 4), knows(None, 4)
    (True, False, False)
    """
    need = math.ceil(k / 2) if min_correct is None else min_correct
    return bool(result) and result["correct"] >= need


def heldout_knowledge(rows: Sequence[dict[str, Any]], model_path: str, cache: Path, k: int = 4) -> dict[str, Any]:
    """What a model knows of held-out rows before any training (the probe: k bare answers at T 0.9, cached in
    ``cache``), graded by the strict evaluation grader (not the training one); and the F a perfectly selective
    policy would reach by answering exactly the questions the model gets right in at least half of its answers
    and abstaining on the rest: about the most any reward could lift F to with this model."""
    from knowrl.effect.eval_grader import strict_label

    asked = [r for r in rows if r["answerable"]]
    got = probe(model_path, asked, cache, k=k, seed=0)
    right = {r["qid"]: sum(strict_label(a, r["aliases"]) == "CORRECT" for a in got[r["qid"]]["answers"]) for r in asked}
    need = math.ceil(k / 2)
    half = sum(c >= need for c in right.values())
    by_template: dict[str, list[int]] = {}
    for r in asked:
        seen = by_template.setdefault(r.get("template") or "?", [0, 0, 0])  # asked, right in half, right once
        seen[0] += 1
        seen[1] += right[r["qid"]] >= need
        seen[2] += right[r["qid"]] >= 1
    correct = half / len(rows)
    return {
        "k": k,
        "questions": len(rows),
        "answerable": len(asked),
        "right_half": half,
        "right_any": sum(c >= 1 for c in right.values()),
        "f_ceiling": 2 * correct / (1 + correct),
        "by_template": by_template,
        "right_counts": {str(c): sum(n == c for n in right.values()) for c in range(k + 1)},  # of k bare answers
    }


def load_probe_file(path: Path, k: int, temperature: float, model: str | None = None) -> dict[str, dict[str, Any]]:
    """A probe kept with the project (``python -m knowrl.effect.probe_candidates``): qid -> answers and right count. It
    was drawn with one k and temperature; asking for others is an error, not a silent mismatch. It knows one
    model: for another (``model`` given and different) it is empty, and that model is probed."""
    from reward_engine.config import ConfigError  # knowrl.config's, defined below it

    data = read_probe_file(path)
    if model is not None and data.get("model") != model:
        log.warning("%s is the probe of %r, not of %r: probing %r", path, data.get("model"), model, model)
        return {}
    if data.get("k") != k or data.get("temperature") != temperature:
        raise ConfigError(
            f"{path}: drawn with k {data.get('k')} at temperature {data.get('temperature')}, not k {k} at {temperature}"
        )
    return data["probe"]


def read_probe_file(path: Path) -> dict[str, Any]:
    """A probe file's metadata and ``probe`` (qid -> {"answers": [str], "correct": int}), its shape checked: a
    ``ConfigError`` naming the file, where ``--regrade`` of another JSON ended in a traceback (hostile pass 57)."""
    from reward_engine.config import ConfigError  # knowrl.config's, defined below it

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: cannot read the probe file ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("probe"), dict):
        raise ConfigError(f"{path}: not a probe file (no 'probe' object)")
    for qid, result in data["probe"].items():
        answers = result.get("answers") if isinstance(result, dict) else None
        correct = result.get("correct") if isinstance(result, dict) else None
        if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers) or type(correct) is not int:
            raise ConfigError(f"{path}: not a probe file (question {qid!r} has no 'answers' list and 'correct' count)")
    return data


def write_probe_file(path: Path, meta: dict[str, Any], got: dict[str, dict[str, Any]]) -> None:
    """One question per line (a diff shows which answers moved), metadata first; written whole or not at all."""
    from knowrl_io.job_output import write_atomically

    lines = [json.dumps(meta, ensure_ascii=False)[:-1] + ', "probe": {']
    body = [f"{json.dumps(q)}: {json.dumps(got[q], ensure_ascii=False)}" for q in sorted(got)]
    write_atomically(path, ("\n".join(lines + [",\n".join(body), "}}"]) + "\n").encode("utf-8"))
