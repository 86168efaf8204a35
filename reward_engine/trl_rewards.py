"""TRL reward functions backed by the reward engine.

    rewards = KnowRLRewards(load_reward_config("configs/reward_offline.yaml"))
    trainer = GRPOTrainer(..., reward_funcs=rewards.functions())

Two async functions, ``knowrl_format`` and ``knowrl_correctness`` (KnowRL's combined
reward), so TRL logs each under its own name. Both await one shared engine run per
batch (TRL passes them the same completions), so the judge is called once.

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
import hashlib
import sys
from typing import Any, Callable

from reward_engine.completion import completion_text
from reward_engine.config import RewardEngineConfig
from reward_engine.engine import RewardEngine, RewardResult, Sample
from reward_engine.task_base import column


def _question_from_prompt(prompt: Any) -> str:
    """The last user turn of a conversational prompt (never the whole chat template)."""
    if isinstance(prompt, list):
        users = [m.get("content", "") for m in prompt if isinstance(m, dict) and m.get("role") == "user"]
        if users and isinstance(users[-1], str):
            return users[-1]
    return prompt if isinstance(prompt, str) else ""


class KnowRLRewards:
    """Builds the reward functions; one engine, shared by both, created once."""

    def __init__(self, config: RewardEngineConfig, kb: Any = None, drop_unscored: bool | None = None,
                 sink: Callable[[int, list[Sample], list[RewardResult]], None] | None = None) -> None:
        """``sink(step, samples, results)`` receives every scored batch (e.g. to append a reward log)."""
        self.engine = RewardEngine(config, kb=kb)
        self.drop_unscored = config.drop_unscored if drop_unscored is None else drop_unscored
        self.sink = sink
        self._batches: collections.OrderedDict[str, asyncio.Future] = collections.OrderedDict()
        self.history: list[dict[str, Any]] = []  # per-batch metrics, for callers that log elsewhere

    async def aclose(self) -> None:
        """Close the judge session (on the loop that used it)."""
        await self.engine.close()

    def functions(self) -> list[Callable[..., Any]]:
        async def knowrl_format(prompts: list, completions: list, **kwargs: Any) -> list[float | None]:
            """+1 / -1 for the <think>…</think><answer>…</answer> format (None when the completion is dropped)."""
            results = await self._results(prompts, completions, kwargs)
            return [self._format_value(r) for r in results]

        async def knowrl_correctness(prompts: list, completions: list, **kwargs: Any) -> list[float | None]:
            """KnowRL's combined reward: +2 correct, +1 refusal, −1 + fact score wrong, −1 no answer."""
            samples, results = await self._samples_and_results(prompts, completions, kwargs)
            self._log(results, kwargs)
            if self.sink is not None:
                state = kwargs.get("trainer_state")
                try:
                    self.sink(int(getattr(state, "global_step", -1)), samples, results)
                except Exception as exc:  # noqa: BLE001 - a full disk must not kill training
                    print(f"reward log not written: {exc}", file=sys.stderr)
            return [r.correctness for r in results]

        return [knowrl_format, knowrl_correctness]

    def _format_value(self, result: RewardResult) -> float | None:
        if self.drop_unscored and result.correctness is None:
            return None
        return result.format

    async def _results(self, prompts: list, completions: list, kwargs: dict[str, Any]) -> list[RewardResult]:
        return (await self._samples_and_results(prompts, completions, kwargs))[1]

    async def _samples_and_results(self, prompts: list, completions: list,
                                   kwargs: dict[str, Any]) -> tuple[list[Sample], list[RewardResult]]:
        n = len(completions)
        questions = column(kwargs, "question", n)
        questions = [q if isinstance(q, str) and q.strip() else _question_from_prompt(p)
                     for q, p in zip(questions, prompts or [None] * n)]
        samples = [
            Sample(q, c, a, t)
            for q, c, a, t in zip(questions, completions, column(kwargs, "answers", n), column(kwargs, "title", n))
        ]
        key = hashlib.sha256(repr([(s.question, completion_text(s.completion), s.answers, s.title)
                                   for s in samples]).encode()).hexdigest()
        future = self._batches.get(key)
        if future is None:
            future = asyncio.ensure_future(self.engine.score(samples))
            self._batches[key] = future
            while len(self._batches) > 8:
                self._batches.popitem(last=False)
        return samples, await asyncio.shield(future)

    def _log(self, results: list[RewardResult], kwargs: dict[str, Any]) -> None:
        metrics = self.engine.last_metrics
        self.history.append({"coverage": metrics.coverage, "statuses": metrics.statuses, "labels": metrics.labels,
                             "wall_s": metrics.wall_s, "judge_requests": metrics.judge_requests,
                             "breaker_open": metrics.breaker_open})
        log_metric = kwargs.get("log_metric")
        if callable(log_metric):
            for name in ("coverage", "latency_p50_s", "latency_p95_s", "judge_requests", "cache_hits", "retries",
                         "timeouts", "breaker_open", "speculation_wasted", "wall_s"):
                log_metric(f"reward_engine/{name}", float(getattr(metrics, name)))
            total = max(1, len(results))
            for label in ("CORRECT", "INCORRECT", "NOT_ATTEMPTED"):
                log_metric(f"reward_engine/frac_{label.lower()}", metrics.labels.get(label, 0) / total)
            facts = [r.factuality for r in results if r.factuality is not None]
            if facts:
                log_metric("reward_engine/fact_score_mean", sum(facts) / len(facts))
        log_extra = kwargs.get("log_extra")
        if callable(log_extra):
            log_extra("reward_status", [r.status for r in results])
            log_extra("grader_label", [r.label or "" for r in results])
