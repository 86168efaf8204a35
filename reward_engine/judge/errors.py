"""Every judge error, in one place (as httpx keeps its ``_exceptions.py``).

``JudgeError`` and its final subclasses are what a caller of the client sees. The
``RetryableError`` family names one failed attempt: the client retries those and turns the
last one into a final error when the attempts run out.
"""

from __future__ import annotations


class JudgeError(Exception):
    """A judge call that produced no usable answer."""


class BreakerOpenError(JudgeError):
    """Refused without sending: the circuit breaker is open."""


class JudgeTimeoutError(JudgeError):
    """Every attempt timed out."""


class NotCachedError(JudgeError):
    """A cache-only judge (a dry run, ``RewardEngine.plan``) has no answer for this call."""


class RetryableError(JudgeError):
    """One attempt failed in a way another attempt may not: 5xx, 429, a malformed reply."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimitedError(RetryableError):
    """HTTP 429: the server pacing us, not failing, so it does not trip the breaker."""


class InvalidReplyError(RetryableError):
    """The judge answered, but not in the form asked for."""


class AttemptTimeoutError(RetryableError):
    """One request ran past ``timeout_s``."""


class TransportError(RetryableError):
    """The connection failed (refused, reset, a bad redirect): aiohttp's ``ClientError``."""


class SchemaRefusedError(Exception):
    """HTTP 400 to a request with ``response_format``: ``structured_output: auto`` falls back to text.

    Not a ``JudgeError``: the client handles it inside one attempt and it never reaches a caller.
    """
