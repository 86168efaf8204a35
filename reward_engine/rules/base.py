"""What a reward rule is: the policy that turns one completion's stage answers into its reward.

A rule decides what to ask (the grader's label, the fact score, a verdict on the response) through
``Stages``, and returns a ``Reward``; the engine runs the stages it asks for, once each, and turns the
``Reward`` into the completion's ``RewardResult`` and status. A new rule is a subclass and a
registration (``registry.register``); the config names it (``rule: NAME``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from reward_engine.completion import Parsed
from reward_engine.labels import Label, Verdict
from reward_engine.samples import ClaimResult, RewardResult, Sample
from reward_engine.semantics import Semantics, format_term, total_reward

if TYPE_CHECKING:
    from reward_engine.stages.factuality import FactCheck


class Stages(Protocol):
    """The stages a rule may ask the engine to run for one completion (each at most once)."""

    sample: Sample
    parsed: Parsed
    answer: str  # the answer as the grader sees it (cut at ``max_answer_chars``)
    facts_enabled: bool  # ``factuality.enabled``: off, the fact score is 0 and nothing is asked
    label: Label | None  # the label to report: the grader's, or the rule's once it decides (kept if a later ask fails)

    async def grade(self, answer: str) -> Label:
        """The grader's label for ``answer`` against the row's gold."""
        ...

    async def facts(self) -> "FactCheck":
        """The reasoning's fact score and claims (begun beside the grader when the engine speculated)."""
        ...

    async def verdict(self, response: str) -> tuple[Verdict, ClaimResult]:
        """One verdict on ``response`` with its question, against the passages retrieved for it."""
        ...


@dataclass
class Reward:
    """A rule's answer for one completion; the engine adds the format term, the label (``Stages.label``) and the
    status."""

    correctness: float | None  # None: not scorable from what the stages said (no verdict in time)
    fact_score: float | None = None  # the fact score already inside ``correctness``, when the rule computed one
    claims: list[ClaimResult] | None = None  # the claims checked, when any were
    bad_input: str | None = None  # why the row cannot be scored (status ``bad_input``)

    def fill(self, result: RewardResult) -> None:
        """Write this reward's terms (correctness, the fact score inside it, the claims) into the completion's
        result; the engine adds the format term, total, label and status."""
        result.correctness, result.fact_score = self.correctness, self.fact_score
        if self.claims is not None:
            result.claims = self.claims

    @classmethod
    def refused(cls, why: str) -> "Reward":
        """A row this rule cannot score: its gold is missing or unusable (``offline.gold.gold_problem``)."""
        return cls(None, bad_input=why)


class RewardRule(ABC):
    """One reward policy under one preset's constants (``sem``); stateless between completions."""

    name: ClassVar[str] = ""

    def __init__(self, sem: Semantics) -> None:
        self.sem = sem

    def format(self, parsed: Parsed) -> float:
        """The format term (0 where the preset has none)."""
        return format_term(parsed.well_formed, self.sem)

    def total(self, format_reward: float | None, correctness: float | None) -> float | None:
        """What the trainer is paid: format + correctness, None while correctness is."""
        return total_reward(format_reward, correctness)

    def wants_facts(self, label: Label | None) -> bool:
        """Whether the fact score of a completion graded ``label`` (None: no answer) is part of this reward: the
        engine starts it beside the grader when a wrong answer's is (speculation)."""
        return False

    def check(self, config: Any) -> None:
        """Raise ValueError when ``config`` (the reward config) cannot serve this rule; the message names the fix."""

    @abstractmethod
    async def score(self, stages: Stages) -> Reward:
        """The reward of ``stages.parsed``, asking ``stages`` for what it needs."""
