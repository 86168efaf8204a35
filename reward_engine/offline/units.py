"""Units after a number, and whether a second number restates the first in another unit.

"481 feet, so roughly 146.6 metres" and "8,849 m (29,032 ft)" give one value twice; read as two numbers they
are a list of guesses (SimpleQA: INCORRECT), and held-out judge set 5 lost right answers that way. A value
in another unit than the gold's ("29,032 ft" for 8,849 m) is compared in the gold's unit. Units come from
pint's registry (loaded once, on the first answer with a unit word), so a conversion is checked by
arithmetic: a wrong second value is still a second guess.
"""

from __future__ import annotations

import functools
import re
import threading
from typing import Any

# what a number may be followed by: a word, or a word after a qualifier ("square miles", "degrees celsius")
_UNIT_TEXT = re.compile(
    r"(?:\s*|-(?=[a-z]))((?:(?:square|cubic|sq\.?|nautical|degrees?|deg\.?)\s+)?[a-z°µ][a-z°µ²³/.-]{0,23}(?:(?:\^|\*\*)?[23](?!\d))?)"
    r"(?![a-z°µ²³/.-])"
)
_TEMPERATURE = {
    "°c": "degC", "°f": "degF", "c": "degC", "f": "degF", "celsius": "degC", "centigrade": "degC",
    "fahrenheit": "degF", "kelvin": "kelvin", "k": "kelvin",
}  # fmt: skip
_DEGREES = re.compile(r"^(?:degrees?|deg\.?)\s+(\w+)$")
# short words pint reads as units that are ordinary words after a number ("1815 in Vienna", "3 a day")
_SHORT_OK = frozenset("m km cm mm nm kg mg g lb lbs oz ft mi yd l ml s h min mph kph kmh ha hp kw".split())
# pint reads "kW", not "kw"; torque as cars are sold ("280 lb-ft": the review of pass 35)
_TORQUE = "foot*force_pound"
_LOWER_CASE_SYMBOLS = {"kw": "kilowatt", "mw": "megawatt", "hp": "horsepower", "lb-ft": _TORQUE, "ft-lb": _TORQUE,
                       "lbf-ft": _TORQUE}  # fmt: skip
_LOCK = threading.Lock()  # one registry per process: units from two registries cannot be compared


def _registry() -> Any:
    with _LOCK:  # two threads grading at once build it once
        return _build()


@functools.cache
def _build() -> Any:
    import pint  # deferred: the registry takes ~0.3 s to build and most answers hold one number

    return pint.UnitRegistry()


# English words pint reads as a unit's plural or symbol
_ENGLISH_WORDS = frozenset("has was its are".split())  # two letters or fewer are refused below anyway


@functools.lru_cache(maxsize=4096)
def _unit(word: str) -> str | None:
    """pint's name for the unit ``word`` (lower case) names, or None when it is not one ("people", "in",
    "pairs"). A name, not a pint object: names compare across threads and registries."""
    word = word.strip(".-/ ").replace("²", "^2").replace("³", "^3")  # "m²" is a square metre, not a metre
    word = re.sub(r"^nautical\s+", "nautical_", re.sub(r"(?<=[a-z])([23])$", r"^\1", word))  # "m2": m²
    degrees = _DEGREES.match(word)
    if degrees and degrees.group(1) in _TEMPERATURE:
        word = degrees.group(1)
    word = _TEMPERATURE.get(word, _LOWER_CASE_SYMBOLS.get(word, word))
    if word in _ENGLISH_WORDS:
        return None  # "16.4 has": pint reads "has" as hectares (hostile pass 70)
    if not word or (len(word) <= 2 and word not in _SHORT_OK and word not in _TEMPERATURE.values()):
        return None
    try:
        unit = _registry().parse_units(word)
        return None if unit.dimensionless else str(unit)
    except Exception:  # pint raises several kinds for words that are not units
        return None


def unit_after(text: str, end: int) -> str | None:
    """The unit written right after a number that ends at ``end`` in lower-case ``text``, if any."""
    match = _UNIT_TEXT.match(text, end)
    return _unit(match.group(1)) if match else None


def unit_end(text: str, end: int) -> int:
    """Where the unit written right after a number that ends at ``end`` ends (``end`` when there is none)."""
    match = _UNIT_TEXT.match(text, end)
    return match.end() if match and _unit(match.group(1)) else end


def convert(value: float, unit: str, other_unit: str) -> float | None:
    """``value`` ``unit`` in ``other_unit`` (temperatures as points: 212 °F is 100 °C), or None when the two
    measure different things ("3 metres" in seconds)."""
    try:
        return float(_registry().Quantity(value, unit).to(other_unit).magnitude)
    except Exception:  # pint raises several kinds for incompatible dimensions
        return None


def clashes(unit: str | None, other: str | None) -> bool:
    """Both are units and they measure different things ("m²" or "m/s" against "m"): no conversion joins them.

    >>> clashes("meter ** 2", "meter"), clashes("foot", "meter"), clashes(None, "meter")
    (True, False, False)
    """
    return unit is not None and other is not None and convert(1.0, unit, other) is None


def restates(value: float, unit: str | None, other: float, other_unit: str | None, step: float) -> bool:
    """Whether ``other`` ``other_unit`` is ``value`` ``unit`` converted and rounded at ``other``'s last figure
    ``step`` ("481 feet" as "146.6 metres" or "about 150 metres", not "200 metres"): the same measurement said
    twice, not a second guess. Same units never restate (that is a list)."""
    if unit is None or other_unit is None or unit == other_unit:
        return False
    converted = convert(value, unit, other_unit)
    return converted is not None and abs(converted - other) <= step / 2 * (1 + 1e-9)
