"""Strict parsers for the judge's replies: the exact output asked for, or nothing.

Anything else is UNPARSEABLE (grades) or None (claims, verdicts) and is asked again by the
judge client, never guessed. Each parser accepts the text form and the JSON form of
``schemas`` (an endpoint with structured outputs replies in JSON).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Sequence

from reward_engine.labels import Label
from reward_engine.prompts.templates import (
    ANSWER_KINDS,
    CONTRADICTED,
    NO_CLAIMS,
    NOT_SUPPORTED,
    SAME_AS_GOLD,
    SUPPORTED,
)

NON_FACTUAL = "NON_FACTUAL:"  # FActScore's decomposition prompt's "no facts here" marker

_GRADE = {
    "A": Label.CORRECT,
    "B": Label.INCORRECT,
    "C": Label.NOT_ATTEMPTED,
    "CORRECT": Label.CORRECT,
    "INCORRECT": Label.INCORRECT,
    "NOT_ATTEMPTED": Label.NOT_ATTEMPTED,
}
_SAME = dict(zip(SAME_AS_GOLD, (Label.CORRECT, Label.INCORRECT, Label.NOT_ATTEMPTED)))


_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)
_GRADE_LINE = re.compile(
    r"^(?:(?:final\s+)?(?:grade|answer|label|verdict)\s*[:=]\s*)?"  # "Grade: B"
    r"[(\[]?(?P<letter>[ABC])[)\]]?"  # "B", "(B)"
    r"(?:\s*[-:=.)]?\s*[(\[]?(?P<word>CORRECT|INCORRECT|NOT[_ ]ATTEMPTED)[)\]]?)?"  # "B - INCORRECT"
    r"\s*[.!]?$"
    r"|^(?P<only>CORRECT|INCORRECT|NOT[_ ]ATTEMPTED)\.?$",
    re.IGNORECASE,
)


def _unwrap(text: str | None) -> str:
    """A reply without a surrounding code fence and markdown emphasis."""
    body = (text or "").strip()
    fenced = _FENCE.match(body)
    return (fenced.group(1) if fenced else body).replace("**", "").replace("__", "").strip()


def _grade_line(line: str) -> Label | None:
    match = _GRADE_LINE.match(line.strip())
    if match is None:
        return None
    if match.group("only"):
        return _GRADE[match.group("only").upper().replace(" ", "_")]
    label = _GRADE[match.group("letter").upper()]
    word = match.group("word")
    if word and _GRADE[word.upper().replace(" ", "_")] is not label:
        return None  # "B: CORRECT" contradicts itself
    return label


def parse_grade(text: str | None) -> Label:
    """One grade: a letter (A/B/C) or label word, as real models write it, ``{"grade": "B"}``, or
    grader-v6's ``{"answer_span": ..., "same_as_gold": "no"}``.

    Accepted: code fences, emphasis, "B.", "(B)", "Grade: B", "B - INCORRECT", and a first line
    holding the grade followed by an explanation. Refused (UNPARSEABLE, retried): anything with
    two different grades, a letter contradicting its label word, or a grade inside a sentence.

    >>> [parse_grade(t).value for t in ["B", "Grade: C.", "```\\nA\\n```", '{"grade": "B"}', "A or B"]]
    ['INCORRECT', 'NOT_ATTEMPTED', 'CORRECT', 'INCORRECT', 'UNPARSEABLE']
    >>> parse_grade('{"answer_span": "Lyon", "same_as_gold": "no"}').value
    'INCORRECT'
    """
    body = _unwrap(text)
    if body.startswith("{"):
        try:
            data = json.loads(body)
        except json.JSONDecodeError:
            return Label.UNPARSEABLE
        if isinstance(data, dict) and isinstance(data.get("same_as_gold"), str):
            return _SAME.get(data["same_as_gold"].strip().lower(), Label.UNPARSEABLE)
        grade = data.get("grade") if isinstance(data, dict) else None
        return _GRADE.get(grade.strip().upper(), Label.UNPARSEABLE) if isinstance(grade, str) else Label.UNPARSEABLE
    lines = [line for line in body.splitlines() if line.strip()]
    if not lines:
        return Label.UNPARSEABLE
    first = _grade_line(lines[0])
    if first is None:
        return Label.UNPARSEABLE
    others = {g for g in (_grade_line(line) for line in lines[1:]) if g is not None}
    return first if others <= {first} else Label.UNPARSEABLE


def parse_answer_span(text: str | None) -> str | None:
    """The ``answer_span`` of a JSON grade reply, or None when the reply names none.

    >>> parse_answer_span('{"answer_span": "Paris", "same_as_gold": "yes"}'), parse_answer_span("A")
    ('Paris', None)
    """
    span = _json_object(text).get("answer_span")
    return span if isinstance(span, str) else None


def parse_reading(text: str | None) -> tuple[str, str] | None:
    """(answer_kind, answer_span) of a read-v2 reply, or None when it holds no known kind and a span.

    >>> parse_reading('{"answer_kind": "names", "answer_span": "Lyon"}'), parse_reading('{"answer_span": "x"}')
    (('names', 'Lyon'), None)
    """
    data = _json_object(text)
    kind, span = data.get("answer_kind"), data.get("answer_span")
    if not isinstance(kind, str) or kind.strip().lower() not in ANSWER_KINDS or not isinstance(span, str):
        return None
    return kind.strip().lower(), span


def parse_fits(text: str | None) -> Label:
    """A fits-v2 reply: the gold fits the description (too vague: NOT_ATTEMPTED) or not (INCORRECT).

    >>> parse_fits('{"gold_fits": "yes"}').value, parse_fits('{"gold_fits": "no"}').value, parse_fits("yes").value
    ('NOT_ATTEMPTED', 'INCORRECT', 'UNPARSEABLE')
    """
    fits = _json_object(text).get("gold_fits")
    answer = fits.strip().lower() if isinstance(fits, str) else ""
    return {"yes": Label.NOT_ATTEMPTED, "no": Label.INCORRECT}.get(answer, Label.UNPARSEABLE)


def _json_object(text: str | None) -> dict:
    """The reply as a JSON object, {} when it is not one."""
    body = _unwrap(text)
    if not body.startswith("{"):
        return {}
    try:
        data = json.loads(body)
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def parse_claims(text: str | None) -> list[str] | None:
    """Bullet lines (or ``{"claims": [...]}``) -> claims, duplicates dropped; NO_CLAIMS or NON_FACTUAL -> []; else None.

    >>> parse_claims("```\\n- Paris is in France.\\n```"), parse_claims('{"claims": []}'), parse_claims("Sure!")
    (['Paris is in France.'], [], None)
    """
    body = _unwrap(text)
    if body.upper().strip(".") == NO_CLAIMS or NON_FACTUAL in body:
        return []  # FActScore's marker: a reply naming any line NON_FACTUAL has no facts (KnowRL: score 0)
    if body.startswith("{"):
        try:
            data = json.loads(body)
        except json.JSONDecodeError:
            return None
        claims = data.get("claims") if isinstance(data, dict) else None
        if not isinstance(claims, list) or not all(isinstance(c, str) for c in claims):
            return None
        return list(dict.fromkeys(c.strip() for c in claims if c.strip()))
    claims = [m.group(1).strip() for m in re.finditer(r"^\s*(?:[-*•]|\d+[.)])\s+(.+)$", body, re.MULTILINE)]
    claims = [c for c in claims if c]
    return list(dict.fromkeys(claims)) if claims else None


def _json_list(text: str | None, key: str) -> list | None:
    """The list under ``key`` of the JSON object in a reply (code fence or prose around it tolerated), or None."""
    body = (text or "").strip()
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(body[start : end + 1])
    except json.JSONDecodeError:
        return None
    found = data.get(key) if isinstance(data, dict) else None
    return found if isinstance(found, list) else None


def parse_labels(text: str | None, n_claims: int) -> list[str] | None:
    """``{"labels": [{"id", "label"}]}`` -> one label per claim in claim order (SUPPORTED, CONTRADICTED or
    NOT_SUPPORTED), or None if any is missing, unknown or given twice with two values.

    Tolerates a code fence or prose around the JSON object.
    """
    labels = _json_list(text, "labels")
    if labels is None:
        return None
    found: dict[int, str] = {}
    for item in labels:
        if not isinstance(item, dict):
            return None
        cid, label = item.get("id"), item.get("label")
        if isinstance(cid, str) and cid.isdigit():
            cid = int(cid)
        if not isinstance(cid, int) or not isinstance(label, str):
            return None
        label = label.upper()
        if label not in (SUPPORTED, CONTRADICTED, NOT_SUPPORTED) or found.get(cid, label) != label:
            return None  # unknown, or contradictory verdicts for one claim
        found[cid] = label
    if set(found) != set(range(1, n_claims + 1)):
        return None
    return [found[i] for i in range(1, n_claims + 1)]


def parse_verdicts(text: str | None, n_claims: int) -> list[bool] | None:
    """Supported flags in claim order (see ``parse_labels``), or None."""
    labels = parse_labels(text, n_claims)
    return None if labels is None else [label == SUPPORTED for label in labels]


@dataclass(frozen=True)
class FusedClaim:
    """One claim of a fused reply: its text, whether the evidence supports it, the passages cited."""

    text: str
    supported: bool
    evidence_ids: tuple[int, ...] = ()


def parse_fused(text: str | None, passage_ids: Sequence[int] = ()) -> list[FusedClaim] | None:
    """``{"claims": [{"claim", "label", "evidence_ids"}]}`` -> claims in order (duplicates dropped), or None.

    Tolerates a code fence or prose around the JSON object and a missing ``evidence_ids``; ids
    that name no passage sent are dropped (a model inventing an id does not make a claim wrong).
    Refused: a claim without text, an unknown label, two labels for one claim.

    >>> reply = '{"claims": [{"claim": "Paris is in France.", "label": "SUPPORTED", "evidence_ids": [3, 99]}]}'
    >>> parse_fused(reply, [3])
    [FusedClaim(text='Paris is in France.', supported=True, evidence_ids=(3,))]
    >>> parse_fused('{"claims": [{"claim": "x", "label": "TRUE"}]}') is None, parse_fused("NO_CLAIMS")
    (True, [])
    """
    if _unwrap(text).upper().strip(".") == NO_CLAIMS:
        return []
    items = _json_list(text, "claims")
    if items is None:
        return None
    known = set(passage_ids)
    found: dict[str, FusedClaim] = {}
    for item in items:
        if not isinstance(item, dict):
            return None
        claim, label, ids = item.get("claim"), item.get("label"), item.get("evidence_ids", [])
        if not isinstance(claim, str) or not claim.strip() or not isinstance(label, str):
            return None
        if label.upper() not in (SUPPORTED, NOT_SUPPORTED) or not isinstance(ids, list):
            return None
        ok = label.upper() == SUPPORTED
        claim = claim.strip()
        if claim in found:
            if found[claim].supported != ok:
                return None  # contradictory labels for one claim
            continue
        cited = tuple(dict.fromkeys(int(i) for i in ids if isinstance(i, int) or (isinstance(i, str) and i.isdigit())))
        found[claim] = FusedClaim(claim, ok, tuple(i for i in cited if i in known))
    return list(found.values())
