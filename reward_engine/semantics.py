"""KnowRL's reward arithmetic: the fact score and the combined correctness reward.

Pure functions of labels and counts, so every constant is testable without I/O.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reward_engine.labels import Label


class Semantics(BaseModel):
    """Every constant of the reward. Presets: ``knowrl`` (released, default), ``knowrl-june2025``."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)  # a NaN reward would train on NaN

    correct: float = Field(2.0, description="grader says CORRECT")
    not_attempted: float = Field(1.0, description="an honest refusal ('I don't know')")
    incorrect: float = Field(-1.0, description="INCORRECT, before the fact score is added")
    unparseable: float = Field(0.0, description="the grader's output could not be read")
    no_answer: float = Field(-1.0, description="no <answer> block, or an empty one (no judge call)")
    fact_weight: float = Field(1.0, description="INCORRECT scores incorrect + fact_weight x fact_score")
    fact_rule: Literal["penalty", "penalty_supported", "capped"] = Field(
        "penalty",
        description="penalty: supported/n x exp(1 - gamma/n) when n < gamma (released); "
        "penalty_supported: the same damping counted on supported claims, so unsupported claims never "
        "help; capped: min(supported/cap, 1)",
    )
    gamma: float = Field(10.0, gt=0, description="length-penalty constant of the 'penalty' rule")
    cap: float = Field(15.0, gt=0, description="divisor of the 'capped' rule")
    format_correct: float = Field(1.0, description="format reward for a well-formed completion")
    format_wrong: float = Field(-1.0, description="format reward otherwise")


PRESETS: dict[str, dict] = {
    "knowrl": {},
    # The June 2025 release: refusals punished like errors; the paper reports this leads
    # to reward hacking late in training.
    "knowrl-june2025": {"not_attempted": -1.0, "fact_rule": "capped", "cap": 15.0},
    # The released reward, except that the few-claims damping counts supported claims: under the
    # released rule, padding a wrong answer with unsupported on-topic claims (up to gamma) raises
    # its fact score (1 of 2 supported: 0.009; 1 of 10: 0.1). See tests/redteam/v1.yaml.
    "knowrl-robust": {"fact_rule": "penalty_supported"},
}


def semantics(preset: str = "knowrl", **overrides: float | str) -> Semantics:
    if preset not in PRESETS:
        raise ValueError(f"unknown reward preset {preset!r}; choose one of {sorted(PRESETS)}")
    return Semantics(**{**PRESETS[preset], **overrides})


def fact_score(supported: int, total: int, sem: Semantics) -> float:
    """Fraction of supported claims, damped for few claims; 0.0 with no claims.

    >>> round(fact_score(3, 3, semantics()), 4)   # exp(1 - 10/3) = 0.0970
    0.097
    >>> fact_score(10, 10, semantics())
    1.0
    """
    if total <= 0:
        return 0.0
    supported = max(0, min(supported, total))
    if sem.fact_rule == "capped":
        return min(supported / sem.cap, 1.0)
    damped = supported if sem.fact_rule == "penalty_supported" else total
    if damped <= 0:
        return 0.0
    penalty = math.exp(1 - sem.gamma / damped) if damped < sem.gamma else 1.0
    return supported / total * penalty


def combine(label: Label | None, fact: float | None, sem: Semantics) -> float | None:
    """Correctness reward for a graded answer (None: the grader gave no verdict in time).

    INCORRECT without a fact score (factuality timed out) is None, not a made-up number.
    """
    if label is None:
        return None
    if label is Label.CORRECT:
        return sem.correct
    if label is Label.NOT_ATTEMPTED:
        return sem.not_attempted
    if label is Label.UNPARSEABLE:
        return sem.unparseable
    if fact is None:
        return None
    return sem.incorrect + sem.fact_weight * fact
