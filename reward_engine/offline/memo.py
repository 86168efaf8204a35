"""Memoised pure helpers of the offline rules, for short inputs only.

One grade reads the same answer, golds and question many times, and a GRPO group repeats answers; but a
memo keyed by a hostile megabyte answer would hold it, so inputs over ``max_chars`` (by ``size``) are
worked out each time, and so are unhashable ones.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def short_memo(maxsize: int, max_chars: int, size: Callable[..., int]) -> Callable[[F], F]:
    """``lru_cache(maxsize)`` for calls whose ``size(*args)`` is at most ``max_chars``; the rest call through.
    Keyword arguments are bound to their positions first (``lists_guesses(a, g, question=q)``), so both
    spellings of a call share one entry and ``size`` always sees positions."""

    def wrap(fn: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            if kwargs:  # rare: the hot callers pass positions, and binding costs a few microseconds
                bound = signature.bind(*args, **kwargs)
                if bound.kwargs:  # a keyword-only argument: no position to key it by
                    return fn(*args, **kwargs)
                args = bound.args
            if size(*args) <= max_chars:
                try:
                    return cached(*args)
                except TypeError:  # an argument the memo cannot hash (a list of golds): worked out, not kept
                    pass
            return fn(*args)

        call.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return wrap
