"""A row's fact check started beside its grader call: decided after the step's grader calls have left.

The offline grade that decides it costs ~0.5 ms a row; decided for every row before any job ran, a step's first
judge request waited ~45 ms for them (issue #75). Now the jobs send first and the engine decides every row once they
have; a job that needs the fact check before its row was decided waits for the decision.
"""

from __future__ import annotations

import asyncio


class Speculation:
    """Whether, and with what task, one row's fact check was started ahead of its grade."""

    def __init__(self) -> None:
        self._decided: asyncio.Future[asyncio.Future | None] = asyncio.get_running_loop().create_future()

    @property
    def decided(self) -> bool:
        return self._decided.done()

    @property
    def started(self) -> bool:
        """A fact check was started for this row (used or wasted)."""
        return self._decided.done() and self._decided.result() is not None

    def decide(self, task: asyncio.Future | None) -> None:
        """The started task, or None when the row gets no speculation; the first decision stands."""
        if self._decided.done():
            if task is not None:
                task.cancel()  # the job finished first: nobody will read it
            return
        self._decided.set_result(task)

    async def task(self) -> asyncio.Future | None:
        """The started task once decided (None: the caller runs its own fact check)."""
        return await asyncio.shield(self._decided)

    async def drop(self) -> None:
        """The row is done: an undecided row gets no speculation, a started one is cancelled."""
        self.decide(None)
        task = self._decided.result()
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
