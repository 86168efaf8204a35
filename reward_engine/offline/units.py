"""Units after a number, and whether a second number restates the first in another unit.

"481 feet, so roughly 146.6 metres" and "8,849 m (29,032 ft)" give one value twice; read as two numbers they
are a list of guesses (SimpleQA: INCORRECT), and held-out judge set 5 lost right answers that way. Units
come from pint's registry (loaded once, on the first answer with two numbers), so a conversion is checked by
arithmetic: a wrong second value is still a second guess.
"""

from __future__ import annotations

import functools
import re
from typing import Any

# what a number may be followed by: a word or two, a symbol ("°c", "km²", "km/h")
_UNIT_TEXT = re.compile(r"\s*((?:square |cubic |sq\.? )?[a-z°µ][a-z°µ²³/.-]*(?: (?:per|an|a) [a-z]+)?)")
_TEMPERATURE = {
    "°c": "degC", "°f": "degF", "c": "degC", "f": "degF", "celsius": "degC", "centigrade": "degC",
    "fahrenheit": "degF", "kelvin": "kelvin", "k": "kelvin",
}  # fmt: skip
_DEGREES = re.compile(r"^(?:degrees?|deg\.?)\s+(\w+)")
# short words pint reads as units that are ordinary words after a number ("1815 in Vienna", "3 a day")
_SHORT_OK = frozenset("m km cm mm nm kg mg g lb lbs oz ft mi yd l ml s h min mph kph kmh ha".split())
RELATIVE_TOLERANCE = 0.02  # a restatement rounds: "about 150 metres" for 481 feet (146.6 m) is the same value


@functools.cache
def _registry() -> Any:
    import pint  # deferred: the registry takes ~0.3 s to build and most answers hold one number

    return pint.UnitRegistry()


@functools.lru_cache(maxsize=4096)
def _unit(word: str) -> Any | None:
    """pint's unit for ``word`` (lower case), or None when it is not one ("people", "in", "pairs")."""
    word = word.strip(".-/ ")
    degrees = _DEGREES.match(word)
    if degrees and degrees.group(1) in _TEMPERATURE:
        word = degrees.group(1)
    word = _TEMPERATURE.get(word, word)
    if not word or (len(word) <= 2 and word not in _SHORT_OK and word not in _TEMPERATURE.values()):
        return None
    try:
        unit = _registry().parse_units(word)
    except Exception:  # pint raises several kinds for words that are not units
        return None
    return None if unit.dimensionless else unit


def unit_after(text: str, end: int) -> Any | None:
    """The unit written right after a number that ends at ``end`` in lower-case ``text``, if any: the longest
    of its first two words that pint knows ("square miles", then "square")."""
    match = _UNIT_TEXT.match(text, end)
    if match is None:
        return None
    words = match.group(1).split()
    for n in range(len(words), 0, -1):
        unit = _unit(" ".join(words[:n]))
        if unit is not None:
            return unit
    return None


def restates(value: float, unit: Any, other: float, other_unit: Any, step: float) -> bool:
    """Whether ``other`` ``other_unit`` is ``value`` ``unit`` converted (rounded at ``other``'s last figure
    ``step``, or within 2 %): the same measurement said twice, not a second guess. Same units never restate
    (that is a list)."""
    if unit is None or other_unit is None or unit == other_unit:
        return False
    registry = _registry()
    try:
        converted = registry.Quantity(value, unit).to(other_unit).magnitude
    except Exception:  # incompatible dimensions ("3 metres ... 12 seconds")
        return False
    return abs(converted - other) <= max(step / 2, abs(other) * RELATIVE_TOLERANCE)


def same_dimension(unit: Any, other: Any) -> bool:
    """Whether two units measure the same thing (feet and metres), so one can stand for the other."""
    return unit is not None and other is not None and unit.dimensionality == other.dimensionality
