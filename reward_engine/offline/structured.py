"""An answer written as data: ``{"answer": "Paris"}``, a fenced JSON block, a list (hostile pass 26, issue #74).

Read as text, a JSON reply's keys are names ("answer" is no name the evidence holds: Binary RAR paid the right
answer 0) and its other fields are detail (``{"capital": "Lyon", "largest_city": "Paris"}`` was CORRECT). Read as
data it says one thing: the value under an answer key, else under the key the question asks for, else every value
side by side (a list of guesses where they differ). The grader and Binary RAR's answer check both read it here.
"""

from __future__ import annotations

import json
import re

from reward_engine.offline import reading, turns
from reward_engine.offline.text_form import normalize
from reward_engine.offline.words import STOP

# keys that hold the answer itself, whatever was asked (normalised: lower case, "_" and "-" as spaces)
ANSWER_KEYS = frozenset(
    ["answer", "final answer", "short answer", "response", "result", "output", "prediction", "solution", "final"]
)
# keys that say how sure the answer is, not what it is: {"answer": ..., "confidence": 0.4}
_SURENESS = frozenset("confidence probability certainty likelihood score p prob chance".split())
# keys that hold what the answer is not: {"current": "Paris", "former": ["Versailles"]}
_FORMER = re.compile(r"\b(?:former|previous|old|past|historical|wrong|incorrect|rejected|ruled out)\b")
# keys that offer other guesses beside the answer: {"answer": "Paris", "alternatives": ["Lyon"]} hedges between two
_OTHERS = re.compile(r"\b(?:alternatives?|others?|other candidates|also possible|second guess)\b")
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
    >>> json_answer('```python\\nanswer = "Gary Oldman"\\n```'), json_answer('```text\\nParis\\n```')
    ('Gary Oldman', 'Paris')

    """
    if len(text) > _MAX_CHARS or not re.match(r"\s*(?:```|[{\[])", text):
        return text
    fenced = _FENCE.match(text)
    body = fenced.group("body") if fenced else text
    try:
        value = json.loads(body)
    except ValueError:
        value = None
    if not isinstance(value, (dict, list)):
        if fenced is None:
            return text
        # a fence around anything else: its body, an assignment's value ('```python\nanswer = "Gary Oldman"\n```'
        # read the tag "python" as a second name: hostile pass 48), a quoted string's text
        assigned = [found["value"] for found in _ASSIGNED.finditer(body)]
        if assigned:  # 'guess_1 = "X"' and 'guess_2 = "Y"': two answers, a list (review 48)
            return ", ".join(assigned)
        return value if isinstance(value, str) else body
    return _said(value, question)


_ASSIGNED = re.compile(  # 'answer = "X"', 'answer: str = "X"', 'answer: "X"', one per line
    r"(?m)^\s*(?:[A-Za-z_]\w*\s*(?::\s*\w+\s*)?=|[A-Za-z_]\w*\s*:)\s*([\"'])(?P<value>[^\"'\n]*)\1\s*;?\s*$"
)


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
            others = ", ".join(o for k, v in keys.items() if _OTHERS.search(k) and (o := _said(v, question)))
            return f"{said} or {others}" if said and others else said  # a guess under an abstention: graded on it
    if guess:
        return f"My best guess is {guess}."
    flags = [v for v in keys.values() if isinstance(v, bool)]
    if len(flags) == 1 and turns.asks_yes_no(question) and len(keys) - len(flags) <= 1:
        return "Yes" if flags[0] else "No"  # {"is_capital": true} for "Is Paris the capital of France?"
    if "value" in keys and not isinstance(keys["value"], (dict, list)):  # {"value": 100, "unit": "Celsius"}
        return f"{_said(keys['value'], question)} {_said(keys.get('unit'), question)}".strip()
    asked = _stems(question or "")
    options = bool(re.search(r"(?i)\bor\b", question or ""))  # "Which is larger, Paris or Lyon?": echoes answer it
    fields = {k: v for k, v in keys.items() if k not in _SURENESS and not _FORMER.search(k)}

    def fit(key: str) -> int:  # words the question says, less words it does not: "capital" over "capital of germany"
        said = _stems(key)
        return len(said & asked) - len(said - asked)

    scores = {k: fit(k) for k, v in fields.items() if not isinstance(v, bool) and (options or not _echoes(v, question))}
    best = max(scores.values(), default=0)
    if best > 0 and list(scores.values()).count(best) == 1:  # {"first_person": ..., "second_person": ...}: the first
        return _said(fields[max(scores, key=scores.__getitem__)], question)
    figures = bool(_ASKS_FIGURE.search(question or ""))
    kept = [v for v in fields.values() if not isinstance(v, bool) and (figures or not isinstance(v, (int, float)))]
    new = [v for v in kept if not _echoes(v, question)] or kept  # what the question names is no answer, if any is left
    return ", ".join(s for v in new if (s := _said(v, question)))  # {"capital_of": "France", "city": "Paris"}


def _stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP}


def _echoes(value: object, question: str | None) -> bool:
    """A string value the question already says ("France" for the capital of France)."""
    if not isinstance(value, str) or not value.strip() or not question:
        return False
    return f" {normalize(value)} " in f" {normalize(question)} "


def _key(key: str) -> str:
    return re.sub(r"[\s_-]+", " ", str(key)).strip().lower()
