"""TRL reward functions backed by the reward engine, in TRL's own style: picklable callables.

    rewards = KnowRLRewards(load_reward_config("configs/reward_offline.yaml"))
    trainer = GRPOTrainer(..., reward_funcs=rewards.functions())   # [knowrl_format, knowrl_correctness]

Two async callables, :class:`KnowRLFormatReward` and :class:`KnowRLCorrectnessReward`
(KnowRL's combined reward), so TRL logs each under its own name. Both await one shared
engine run per batch (TRL passes them the same completions), so the judge is called once.
They pickle with their config only; the engine, its HTTP session and the KB are rebuilt
on first use in the process that unpickles them.

None semantics. A completion the engine could not score in the step budget (judge down,
timeout) gets ``None`` for correctness. With TRL's default
``multi_objective_aggregation="sum_then_normalize"`` a lone None counts as 0, which is not
neutral; so by default (``drop_unscored=True``) its format reward is None too: TRL then
marks the completion unscorable, leaves it out of the group baseline and gives it zero
advantage. With ``normalize_then_sum`` a None is already neutral, and
``drop_unscored=False`` keeps the format signal.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import hashlib
from typing import Any, Callable

from retrieval.source import KnowledgeSource
from reward_engine.completion import completion_text
from reward_engine.config import RewardEngineConfig
from reward_engine.engine import RewardEngine
from reward_engine.metrics import BatchMetrics
from reward_engine.samples import RewardResult, Sample
from reward_engine.semantics import ramped_abstain
from reward_engine.trl_step import emit, trainer_step

Sink = Callable[[int, list[Sample], list[RewardResult]], None]


def column(kwargs: dict[str, Any], name: str, n: int) -> list[Any]:
    """A dataset column TRL passed through, or ``None`` for each completion when absent.

    >>> column({"answers": [["Paris"], ["Rome"]]}, "answers", 2), column({}, "title", 2)
    ([['Paris'], ['Rome']], [None, None])
    """
    values = kwargs.get(name)
    return list(values) if isinstance(values, (list, tuple)) and len(values) == n else [None] * n


def question_from_prompt(prompt: Any) -> str:
    """The last user turn of a conversational prompt (never the whole chat template).

    >>> question_from_prompt([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Why?"}])
    'Why?'
    """
    if isinstance(prompt, list):
        users = [m.get("content", "") for m in prompt if isinstance(m, dict) and m.get("role") == "user"]
        if users and isinstance(users[-1], str):
            return users[-1]
    return prompt if isinstance(prompt, str) else ""


class KnowRLRewards:
    """One run's reward state: the config, the engine (built on first use) and the batch both functions share."""

    def __init__(
        self,
        config: RewardEngineConfig,
        kb: KnowledgeSource | None = None,
        drop_unscored: bool | None = None,
        sink: Sink | None = None,
    ) -> None:
        """``sink(step, samples, results)`` receives every scored batch (e.g. to append a reward log)."""
        self.config = config
        self.drop_unscored = config.drop_unscored if drop_unscored is None else drop_unscored
        self.sink = sink
        self._kb = kb
        self._engine: RewardEngine | None = None
        # a batch's run and the functions that took it
        self._batches: collections.OrderedDict[str, tuple[asyncio.Future, set[str]]] = collections.OrderedDict()
        self.history: list[dict[str, Any]] = []  # per-batch metrics, for callers that log elsewhere

    def __getstate__(self) -> dict[str, Any]:
        # Loop-bound and process-bound state (HTTP session, futures, an open KB) is rebuilt after unpickling.
        return {"config": self.config, "drop_unscored": self.drop_unscored, "sink": self.sink}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["config"], drop_unscored=state["drop_unscored"], sink=state["sink"])  # type: ignore[misc]

    @property
    def engine(self) -> RewardEngine:
        if self._engine is None:
            self._engine = RewardEngine(self.config, kb=self._kb)
        return self._engine

    async def aclose(self) -> None:
        """Close the judge session (on the loop that used it)."""
        if self._engine is not None:
            await self._engine.close()

    def functions(self) -> list[Any]:
        """``[knowrl_format, knowrl_correctness]`` for ``GRPOTrainer(reward_funcs=...)``."""
        return [KnowRLFormatReward(self), KnowRLCorrectnessReward(self)]

    async def score_batch(
        self, prompts: list | None, completions: list, kwargs: dict[str, Any], taker: str = ""
    ) -> tuple[list[Sample], list[RewardResult]]:
        """The engine's results for TRL's batch; the other function's call (``taker``) awaits the first's run, and
        a function asking again for the same batch gets a new run."""
        n = len(completions)
        questions = [
            q if isinstance(q, str) and q.strip() else question_from_prompt(p)
            for q, p in zip(column(kwargs, "question", n), prompts or [None] * n)
        ]
        samples = [
            Sample(q, c, a, t)
            for q, c, a, t in zip(questions, completions, column(kwargs, "answers", n), column(kwargs, "title", n))
        ]
        # one run per step and batch, shared by the two functions; a later step scores again, so a KB edited
        # between two identical batches is read afresh (hostile pass 9)
        step = trainer_step(kwargs)
        key = hashlib.sha256(
            repr([step, *((s.question, completion_text(s.completion), s.answers, s.title) for s in samples)]).encode()
        ).hexdigest()
        shared = self._batches.get(key)
        if shared is None or taker in shared[1]:
            shared = (asyncio.ensure_future(self.engine.score(samples)), set())
            self._batches[key] = shared
            while len(self._batches) > 8:
                self._batches.popitem(last=False)
        shared[1].add(taker)
        return samples, await asyncio.shield(shared[0])

    def at_step(self, results: list[RewardResult], step: int) -> list[RewardResult]:
        """``results`` as paid at ``step``: an abstention's correctness (and total) ramped in over
        ``abstain_ramp_steps``, in copies; the engine's own results (and its cache) keep the preset's values,
        so a score job or a resumed run reads the same rows."""
        ramp = self.config.abstain_ramp_steps
        if not ramp or step < 0 or step >= ramp:
            return results
        sem = self.config.reward_semantics
        shift = ramped_abstain(sem, step, ramp) - sem.not_attempted
        return [
            dataclasses.replace(
                r, correctness=r.correctness + shift, total=None if r.total is None else r.total + shift
            )
            if r.correctness is not None and r.label == "NOT_ATTEMPTED"
            else r
            for r in results
        ]

    def format_value(self, result: RewardResult) -> float | None:
        if self.drop_unscored and result.correctness is None:
            return None
        return result.format

    def report(self, samples: list[Sample], results: list[RewardResult], kwargs: dict[str, Any]) -> None:
        """Metrics to TRL's ``log_metric``/``log_extra``, rows to the sink; a full disk never stops training."""
        metrics = self.engine.last_metrics
        self.history.append(
            {
                "coverage": metrics.coverage,
                "statuses": metrics.statuses,
                "labels": metrics.labels,
                "wall_s": metrics.wall_s,
                "judge_requests": metrics.judge_requests,
                "breaker_open": metrics.breaker_open,
            }
        )
        extras = {"reward_status": [r.status for r in results], "grader_label": [r.label or "" for r in results]}
        emit(kwargs, trl_metrics(metrics, results), extras, self.sink, (samples, results))


def trl_metrics(metrics: BatchMetrics, results: list[RewardResult]) -> dict[str, float]:
    """One batch's numbers under TRL's ``reward_engine/`` names."""
    out = {
        f"reward_engine/{name}": float(getattr(metrics, name))
        for name in (
            "coverage",
            "latency_p50_s",
            "latency_p95_s",
            "judge_requests",
            "cache_hits",
            "retries",
            "timeouts",
            "breaker_open",
            "speculation_wasted",
            "wall_s",
        )
    }
    total = max(1, len(results))
    for label in ("CORRECT", "INCORRECT", "NOT_ATTEMPTED"):
        out[f"reward_engine/frac_{label.lower()}"] = metrics.labels.get(label, 0) / total
    facts = [r.fact_score for r in results if r.fact_score is not None]
    if facts:
        out["reward_engine/fact_score_mean"] = sum(facts) / len(facts)
    return out


class KnowRLFormatReward:
    """KnowRL's format reward: +1 for ``<think>…</think><answer>…</answer>`` and nothing else, −1 otherwise.

    Args:
        prompts: TRL's prompts (the question is read from the last user turn when there is no
            ``question`` column).
        completions: strings or ``[{"role": "assistant", "content": ...}]``.
        **kwargs: dataset columns ``answers`` and ``title`` (and ``question``), plus TRL's
            ``trainer_state``, ``log_metric``, ``log_extra``.

    Returns:
        One float per completion; None when the completion is dropped because its correctness
        could not be scored (``drop_unscored``).

    Example:
        >>> import asyncio
        >>> from reward_engine.config import parse_reward_config
        >>> fmt, _ = KnowRLRewards(parse_reward_config({"factuality": {"enabled": False}})).functions()
        >>> asyncio.run(fmt(prompts=["Capital of France?"] * 2, answers=[["Paris"]] * 2,
        ...                 completions=["<think>It is Paris.</think><answer>Paris</answer>", "Paris"]))
        [1.0, -1.0]
    """

    def __init__(self, rewards: KnowRLRewards) -> None:
        self.rewards = rewards
        self.__name__ = "knowrl_format"

    async def __call__(self, prompts: list, completions: list, **kwargs: Any) -> list[float | None]:
        _, results = await self.rewards.score_batch(prompts, completions, kwargs, "format")
        return [self.rewards.format_value(r) for r in results]


class KnowRLCorrectnessReward:
    """KnowRL's combined reward: +2 correct, +1 "I don't know", −1 + fact score wrong, −1 no answer.

    Args:
        prompts, completions, **kwargs: as for :class:`KnowRLFormatReward`; this function also reports
            the batch's metrics to ``log_metric``/``log_extra`` and its rows to the reward log.

    Returns:
        One float per completion (the preset's values); None for a completion the engine could
        not score within the step budget (its status says why).

    Example:
        >>> import asyncio
        >>> from reward_engine.config import parse_reward_config
        >>> _, correct = KnowRLRewards(parse_reward_config({"factuality": {"enabled": False}})).functions()
        >>> asyncio.run(correct(prompts=["Capital of France?"] * 3, answers=[["Paris"]] * 3, completions=[
        ...     "<think>Paris.</think><answer>Paris</answer>", "<think>Hmm.</think><answer>I don't know</answer>",
        ...     "<think>Lyon.</think><answer>Lyon</answer>"]))
        [2.0, 1.0, -1.0]
    """

    def __init__(self, rewards: KnowRLRewards) -> None:
        self.rewards = rewards
        self.__name__ = "knowrl_correctness"

    async def __call__(self, prompts: list, completions: list, **kwargs: Any) -> list[float | None]:
        samples, results = await self.rewards.score_batch(prompts, completions, kwargs, "correctness")
        paid = self.rewards.at_step(results, trainer_step(kwargs))
        self.rewards.report(samples, paid, kwargs)  # the reward log holds what GRPO was paid
        return [r.correctness for r in paid]
