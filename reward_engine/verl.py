"""The reward engine as verl's batch reward function (``reward_model.reward_manager: batch``).

    custom_reward_function:
      path: <site-packages>/reward_engine/verl.py     # or this repository's file
      name: compute_score
      reward_kwargs: {config: /path/to/reward.yaml}    # or KNOWRL_REWARD_CONFIG in the environment

verl calls ``compute_score(data_sources=, solution_strs=, ground_truths=, extra_infos=, **reward_kwargs)``
once per batch and wants one score per response (a dict with ``score`` keeps the other keys as reward extra
info). The question comes from ``extra_info["question"]`` (else the data source's name, which a grader
cannot use: put the question there), the title from ``extra_info["title"]``.

verl imports this function by path and calls it synchronously in each reward worker, so each worker keeps one
engine per config for its lifetime (caches, judge budget and KB opened once), on an event loop of its own.

Paths: the config file is read where the worker runs, so give ``reward_kwargs.config`` as an absolute path (a
relative one is taken against the worker's working directory, which under Ray is not the folder verl was launched
from, and the error says so). Inside the config, ``factuality.kb_path``, ``cache_dir`` and the path options of
``factuality.source_options`` resolve against the config file's folder, as every other job reads them. The
knowledge source is opened and checked once, when a worker builds its engine (before its first batch is scored):
a missing file or an unserved ``retrieval_mode`` is one error naming the config key (``JobCheckError``).

Each response's dict carries the same keys (verl appends every key per response into ``reward_extra_info`` and
averages the numbers in validation, so a key left out of some responses or a None would break it):
``score`` (paid), ``format``, ``correctness`` (the fact score already inside it), ``fact_score`` with
``fact_scored`` (1.0 where a fact score was computed; 0.0: none was, and ``fact_score`` is a placeholder 0.0, not
a score of 0), ``unscored`` (1.0: ``score`` is ``unscored_reward``, the components placeholders).
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import os
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Sequence

from knowrl_io.file_key import file_key
from retrieval.source import KnowledgeSource
from reward_engine.config import RewardEngineConfig, load_reward_config, warn_training_only
from reward_engine.engine import RewardEngine, RewardResult, Sample
from reward_engine.job import OPTIONAL, check_knowledge


class EngineThread:
    """A reward engine on an event loop in a daemon thread: synchronous callers score through it. Its knowledge
    source is checked (and a ``factuality.source`` opened) here, before any batch: ``JobCheckError`` naming the key."""

    def __init__(self, config: RewardEngineConfig) -> None:
        self.kb: KnowledgeSource | None = check_knowledge(config).source
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="knowrl-verl-engine", daemon=True).start()
        try:
            self.engine = self._run(self._open(config)).result()
        except BaseException:  # no engine: no loop thread left behind for it
            self.loop.call_soon_threadsafe(self.loop.stop)
            if self.kb is not None:
                self.kb.close()
            raise
        atexit.register(self.close)

    async def _open(self, config: RewardEngineConfig) -> RewardEngine:
        return await RewardEngine(config, kb=self.kb).__aenter__()

    def _run(self, coro: Any) -> Future:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def score(self, samples: list[Sample]) -> list[RewardResult]:
        return self._run(self.engine.score(samples)).result()

    def close(self) -> None:
        if self.loop.is_running():
            self._run(self.engine.close()).result(timeout=60)
            self.loop.call_soon_threadsafe(self.loop.stop)
            if self.kb is not None:
                self.kb.close()


def config_path(given: str) -> str:
    """``reward_kwargs.config`` as an absolute path (``~`` expanded; a relative one against this worker's working
    directory), or a ValueError saying where it was looked for."""
    path = Path(given).expanduser()
    where = path if path.is_absolute() else Path.cwd() / path
    if not where.is_file():
        relative = (
            ""
            if path.is_absolute()
            else f" (a relative path is read from the reward worker's working directory, {Path.cwd()}: give an "
            "absolute path)"
        )
        raise ValueError(f"reward_kwargs.config: no reward config at {where}{relative}")
    return str(where.resolve())


@functools.lru_cache(maxsize=4)
def _engine_for(path: str, stamp: str = "") -> EngineThread:
    """One engine per config file (its absolute path, and ``stamp``: its size, mtime, inode and ctime, so an edited
    config is read again: hostile pass 10) per worker process: verl gives a function, not an object, to keep it on."""
    config = load_reward_config(path)
    warn_training_only(config, "reward_engine.verl")  # once per config per worker: this is cached
    return EngineThread(config)


def _stamp(path: str) -> str:
    """The config file's ``file_key`` ("" when it cannot be read: ``load_reward_config`` says why)."""
    try:
        return file_key(os.stat(path))
    except OSError:
        return ""


def _title(value: Any) -> Any:
    """A row's title as ``score`` reads one: a string or a list of them (verl hands lists as numpy arrays); anything
    else is no title (a step is never failed for it; the reward server answers 400 instead)."""
    value = value.tolist() if hasattr(value, "tolist") else value
    return value if isinstance(value, OPTIONAL["title"]) else None


def compute_score(
    data_sources: Sequence[Any],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[Any] | None = None,
    config: str | None = None,
    unscored_reward: float = 0.0,
    **_: Any,
) -> list[dict[str, float]]:
    """One ``{"score", "format", "correctness", "fact_score", "fact_scored", "unscored"}`` per response, in order
    (every key in every dict; see the module's docstring for what each holds)."""
    path = config or os.environ.get("KNOWRL_REWARD_CONFIG")
    if not path:
        raise ValueError("reward_kwargs.config (or KNOWRL_REWARD_CONFIG) must name a reward config file")
    extras = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    samples = []
    for source, response, gold, extra in zip(data_sources, solution_strs, ground_truths, extras):
        extra = extra if isinstance(extra, dict) else {}
        question = extra.get("question") if isinstance(extra.get("question"), str) else str(source)
        title = _title(extra.get("title"))
        gold = gold.tolist() if hasattr(gold, "tolist") else gold  # verl hands numpy arrays of aliases
        samples.append(Sample(question, response, list(gold) if isinstance(gold, (list, tuple)) else gold, title))
    found = config_path(str(path))
    results = _engine_for(found, _stamp(found)).score(samples)
    return [
        {
            "score": unscored_reward if r.total is None else r.total,
            "format": r.format if r.format is not None else 0.0,
            "correctness": r.correctness if r.correctness is not None else 0.0,
            "fact_score": r.fact_score if r.fact_score is not None else 0.0,
            "fact_scored": float(r.fact_score is not None),
            "unscored": float(r.total is None),
        }
        for r in results
    ]
