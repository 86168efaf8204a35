"""An answer written as data: ``{"answer": "Paris"}``, a fenced JSON block, a list (hostile pass 26, issue #74).

Read as text, a JSON reply's keys are names ("answer" is no name the evidence holds: Binary RAR paid the right
answer 0) and its other fields are detail (``{"capital": "Lyon", "largest_city": "Paris"}`` was CORRECT). Read as
data it says one thing: the value under an answer key, else under the key the question asks for, else every value
side by side (a list of guesses where they differ). The grader and Binary RAR's answer check both read it here.
"""

from __future__ import annotations

import json
import re

from reward_engine.offline import reading
from reward_engine.offline.text_form import normalize

# keys that hold the answer itself, whatever was asked (normalised: lower case, "_" and "-" as spaces)
ANSWER_KEYS = frozenset(
    ["answer", "final answer", "short answer", "response", "result", "output", "prediction", "solution", "final"]
)
# keys that say how sure the answer is, not what it is: {"answer": ..., "confidence": 0.4}
_SURENESS = frozenset("confidence probability certainty likelihood score p prob chance".split())
_GUESS_KEYS = frozenset(["guess", "best guess", "likely answer", "tentative answer", "best answer"])
_ASKS_FIGURE = re.compile(r"(?i)\b(?:how|when|what year|which year|what date|number|percent|percentage)\b")
_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n?(?P<body>[\s\S]*?)\n?\s*```\s*$")
_MAX_CHARS = 4000  # a long reply is prose that may quote JSON, not a JSON answer


def json_answer(text: str, question: str | None = None) -> str:
    """What a JSON answer says, as text; ``text`` unchanged when it is not one JSON value (an object or list).

    >>> json_answer('{"answer": "Paris", "confidence": 0.4}'), json_answer('{"answer": null}')
    ('Paris', '')
    >>> json_answer('{"capital": "Lyon", "largest_city": "Paris"}', "What is the capital of France?")
    'Lyon'
    >>> json_answer('{"city": "Lyon", "other": "Paris"}'), json_answer('["Lyon", "Paris"]'), json_answer("Paris")
    ('Lyon, Paris', 'Lyon, Paris', 'Paris')
    >>> json_answer('```json\\n{"year": 1889, "confidence": 0.9}\\n```', "In which year was it completed?")
    '1889'

    """
    if len(text) > _MAX_CHARS or not re.match(r"\s*(?:```|[{\[])", text):
        return text
    fenced = _FENCE.match(text)
    body = fenced.group("body") if fenced else text
    try:
        value = json.loads(body)
    except ValueError:
        return text
    if not isinstance(value, (dict, list)):
        return text
    return _said(value, question)


def _said(value: object, question: str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, list):
        return ", ".join(s for item in value if (s := _said(item, question)))
    if not isinstance(value, dict):
        return ""
    keys = {_key(k): v for k, v in value.items()}
    guess = next((_said(v, question) for k, v in keys.items() if k in _GUESS_KEYS), "")
    for key, held in keys.items():
        if key in ANSWER_KEYS:
            said = _said(held, question)
            if guess and (not said or reading.is_abstention(said)):
                return f"{said}. My best guess is {guess}." if said else f"My best guess is {guess}."
            return said  # {"answer": "I am not sure", "guess": "Paris"} is graded on the guess (review of pass 26)
    if guess:
        return f"My best guess is {guess}."
    asked = set(re.findall(r"[a-z]+", (question or "").lower()))
    # what the question names is no answer: {"capital_of": "France", "city": "Paris"}, {"painting": "Mona Lisa", ...}
    fields = {k: v for k, v in keys.items() if k not in _SURENESS and not _echoes(v, question)}
    overlap = {k: len(set(k.split()) & asked) for k, v in fields.items() if not isinstance(v, bool)}
    best = max(overlap.values(), default=0)
    if best and list(overlap.values()).count(best) == 1:  # {"first_person": ..., "second_person": ...}: the first
        return _said(fields[max(overlap, key=overlap.__getitem__)], question)
    figures = bool(_ASKS_FIGURE.search(question or ""))
    return ", ".join(
        s
        for v in fields.values()
        if not isinstance(v, bool) and (figures or not isinstance(v, (int, float))) and (s := _said(v, question))
    )  # flags and counts beside a name are detail: {"name": "Paris", "capital": true, "population": 2102650}


def _echoes(value: object, question: str | None) -> bool:
    """A string value the question already says ("France" for the capital of France)."""
    if not isinstance(value, str) or not value.strip() or not question:
        return False
    return f" {normalize(value)} " in f" {normalize(question)} "


def _key(key: str) -> str:
    return re.sub(r"[\s_-]+", " ", str(key)).strip().lower()
