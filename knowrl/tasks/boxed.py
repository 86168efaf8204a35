"""Boxed-answer maths: find the last ``\\boxed{…}``, normalise it, decide equivalence.

Plain numbers (integers with thousands separators, decimals, fractions, percentages,
signs, units) are decided here, exactly and at once. Anything symbolic goes to HF's
``math-verify`` (``symbolic_equal``), which guards itself with ``signal.alarm``: that only
works on a process's main thread, so the reward calls it in a worker process
(:mod:`knowrl.tasks.verify_pool`), never on the event loop.
"""

from __future__ import annotations

import re
from fractions import Fraction

_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{")
_TEXT = re.compile(r"\\(?:text|textbf|textrm|mathrm|mbox|operatorname)\s*\{([^{}]*)\}")
_SPACING = re.compile(r"\\[,;:! ]|\\quad|\\qquad|~|\\left|\\right|\\displaystyle")
_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3})((?:(?:,|\{,\}|\\,|\s)\d{3})+)(?![\d])")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_FRAC = re.compile(r"^([+-]?)\\frac\{([^{}]+)\}\{([^{}]+)\}$|^([+-]?)\\frac(\d)(\d)$")
# "12 apples", "3.5 km/h", "7 cm^2": a number, then words/units only.
# One character class, no nested quantifiers: a policy's "12 aaaa…a!" must not backtrack exponentially.
_UNIT_TAIL = re.compile(r"^([+-]?[\d.,/]+)\s*[A-Za-z][A-Za-z/^0-9 ]*$")


_HEDGE_WORDS = frozenset("or and not to plus minus times either nor".split())


def _is_unit(tail: str) -> bool:
    """'apples', 'km/h', 'cm^2' are units; 'or 5' and 'and 7' are a second answer, not a unit."""
    if re.search(r"(?<!\^)\d", tail):
        return False
    return not any(word.lower() in _HEDGE_WORDS for word in re.findall(r"[A-Za-z]+", tail))


def last_boxed(text: str) -> str | None:
    """The contents of the last ``\\boxed{…}`` (nested braces kept); None when absent or unbalanced."""
    starts = [m.end() for m in _BOX.finditer(text)]
    for start in reversed(starts):
        depth, i = 1, start
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if depth == 0:
            return text[start : i - 1].strip()
        return None  # the last box never closes: no answer (an earlier box is not a fallback)
    return None


def normalise(answer: str) -> tuple[str, bool]:
    """A canonical string for the answer and whether it carried a percent sign."""
    s = answer.strip().strip("$").strip()
    s = re.sub(r"^\\\(|\\\)$|^\\\[|\\\]$", "", s).strip()
    s = s.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
    s = re.sub(r"\^\s*\{?\\circ\}?|°", "", s)
    percent = bool(re.search(r"\\?%\s*$", s))
    s = re.sub(r"\\?%\s*$", "", s).strip()
    s = _SPACING.sub(" ", s)
    s = re.sub(r"^[a-zA-Z]\s*=\s*", "", s)  # "x = 3" -> "3"
    s = _THOUSANDS.sub(lambda m: m.group(1) + re.sub(r"\D", "", m.group(2)), s)
    # Units in \text{...} go when something else remains ("12 \text{ cm}"); a lone \text{...} is the answer.
    without_text = _TEXT.sub("", s).strip()
    s = without_text if without_text else _TEXT.sub(lambda m: m.group(1), s).strip()
    unit = _UNIT_TAIL.match(s)
    if unit and _is_unit(s[unit.end(1) :]):
        s = unit.group(1)
    s = s.rstrip(".").strip()
    s = re.sub(r"^\{(.*)\}$", r"\1", s)
    return re.sub(r"\s+", " ", s), percent


def as_number(s: str) -> Fraction | None:
    """An exact value for a plain number, decimal, ``a/b`` or ``\\frac{a}{b}``; None for anything else."""
    s = s.replace(" ", "")
    try:
        if _NUMBER.fullmatch(s):
            return Fraction(s)
        if re.fullmatch(r"[+-]?\d+/\d+", s):
            return Fraction(s)
        m = _FRAC.match(s)
        if m:
            sign = m.group(1) or m.group(4) or ""
            num, den = (m.group(2), m.group(3)) if m.group(2) is not None else (m.group(5), m.group(6))
            n, d = as_number(num), as_number(den)
            if n is not None and d is not None and d != 0:
                return -n / d if sign == "-" else n / d
    except (ValueError, ZeroDivisionError):
        return None
    return None


def quick_equal(predicted: str, gold: str) -> bool | None:
    """Decide at once when both sides are plain numbers (or the same string); None: ask math-verify."""
    p, p_percent = normalise(predicted)
    g, g_percent = normalise(gold)
    if not p:
        return False
    if p == g and p_percent == g_percent:
        return True
    pv, gv = as_number(p), as_number(g)
    if pv is None or gv is None:
        return True if p == g else None
    if pv == gv:
        return True
    if p_percent != g_percent:  # "50%" answers "0.5" and "50"
        return (pv / 100 == gv) if p_percent else (gv / 100 == pv)
    return False


def symbolic_equal(predicted: str, gold: str, timeout_s: int = 5) -> bool:
    """math-verify's verdict; call in a worker process (it relies on ``signal.alarm``)."""
    quick = quick_equal(predicted, gold)
    if quick is not None:
        return quick
    from math_verify import parse, verify

    p, _ = normalise(predicted)
    g, _ = normalise(gold)
    gold_parsed = parse(f"${g}$", parsing_timeout=timeout_s)
    pred_parsed = parse(f"${p}$", parsing_timeout=timeout_s)
    if not gold_parsed or not pred_parsed:
        return False
    return bool(verify(gold_parsed, pred_parsed, timeout_seconds=timeout_s))


def gsm8k_answer(answer: str) -> str | None:
    """GSM8K's gold: the text after ``####`` (commas dropped); None when the marker is missing."""
    if "####" not in answer:
        return None
    value = answer.rsplit("####", 1)[1].strip().replace(",", "")
    return value or None
