"""A circuit breaker: after N consecutive failures, stop calling for a cool-down.

While open, a call fails at once, so a step against a dead judge costs ~0 s and its
rewards come back None + flagged instead of waiting out every retry.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Callable

log = logging.getLogger(__name__)


@dataclass
class CircuitBreaker:
    failure_threshold: int = 10
    cooldown_s: float = 30.0
    clock: Callable[[], float] = time.monotonic
    failures: int = 0
    opened_at: float | None = None
    opens: int = field(default=0)
    _probing: bool = False
    _probe_owner: object = None

    @property
    def state(self) -> str:
        if self.opened_at is None:
            return "closed"
        return "open" if self.cooldown_left() > 0 else "half_open"

    def cooldown_left(self) -> float:
        """Seconds until a probe may go out (0 unless open)."""
        if self.opened_at is None:
            return 0.0
        return max(0.0, self.cooldown_s - (self.clock() - self.opened_at))

    def allow(self, owner: object = None) -> bool:
        """May a call go out now? In half-open state exactly one probe is let through, held by ``owner``."""
        state = self.state
        if state == "closed":
            return True
        if state == "half_open" and not self._probing:
            self._probing, self._probe_owner = True, owner
            log.warning("judge circuit breaker half-open: sending one probe")
            return True
        return False

    def success(self) -> None:
        if self.opened_at is not None:
            log.warning("judge circuit breaker closed: the judge answers again")
        self.failures = 0
        self.opened_at = None
        self._probing, self._probe_owner = False, None

    def release(self, owner: object = None) -> None:
        """A call ended without a verdict (cancelled, paced): free the half-open probe if it held it.

        A call that never held the probe (it was sent before the breaker opened, or was still waiting
        for a rate-limit window) must not free another call's: two probes would go out at once.
        """
        if self._probing and self._probe_owner is owner:
            self._probing, self._probe_owner = False, None

    def failure(self) -> None:
        self.failures += 1
        if self._probing or (self.opened_at is None and self.failures >= self.failure_threshold):
            self.opened_at = self.clock()
            self.opens += 1
            log.warning(
                "judge circuit breaker open after %d consecutive failures: no calls for %.0fs",
                self.failures,
                self.cooldown_s,
            )
        self._probing, self._probe_owner = False, None
