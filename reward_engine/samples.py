"""What crosses the engine's boundary: a ``Sample`` in, a ``RewardResult`` out."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from reward_engine.completion import clean_text
from reward_engine.labels import Status


@dataclass
class Sample:
    """One completion to score, with its dataset row's fields."""

    question: str
    completion: Any
    answers: Any = None
    title: Any = None

    def cleaned(self) -> "Sample":
        """The sample with NULs and lone surrogates out of every text field (see ``clean_text``)."""

        def fix(value: Any) -> Any:
            if isinstance(value, str):
                return clean_text(value)
            if isinstance(value, list):
                return [fix(v) for v in value]
            return value

        def gold(value: Any) -> Any:  # answers: [2] is the gold "2", not no gold at all
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return str(value)
            return [gold(v) for v in value] if isinstance(value, list) else fix(value)

        return Sample(fix(self.question), self.completion, gold(self.answers), fix(self.title))

    def question_problem(self) -> str | None:
        """Why the row has no question to score against (a bad row), or None.

        >>> Sample("", "c").question_problem()
        'question missing or not a string'
        """
        if not isinstance(self.question, str) or not self.question.strip():
            return "question missing or not a string"
        return None

    @property
    def gold(self) -> str:
        """The gold answers as one string (aliases joined by ``; ``), as the LLM grader sees them.

        >>> Sample("q", "c", ["Paris", "City of Light"]).gold
        'Paris; City of Light'
        """
        if isinstance(self.answers, (list, tuple)):
            return "; ".join(str(a) for a in self.answers if a is not None)
        return "" if self.answers is None else str(self.answers)

    @property
    def title_text(self) -> str:
        """KnowRL's ``;``-joined title string (a list of titles is joined the same way)."""
        if isinstance(self.title, str):
            return self.title
        return ";".join(t for t in self.title or [] if isinstance(t, str))

    def key(self) -> Any:
        """Identical samples (GRPO repeats prompts; policies repeat answers) are scored once."""
        completion = self.completion if isinstance(self.completion, str) else repr(self.completion)
        return (repr(self.question), completion, repr(self.answers), repr(self.title))


@dataclass
class ClaimResult:
    text: str
    supported: bool | None  # None: not verified (off-topic, or beyond max_claims)
    evidence_ids: list[int] = field(default_factory=list)
    on_topic: bool = True  # off-topic claims are left out of the fact score


@dataclass
class RewardResult:
    """Every component of one completion's reward; None where it could not be computed."""

    total: float | None = None  # format + correctness
    format: float | None = None
    correctness: float | None = None  # KnowRL's combined reward (fact score folded in)
    factuality: float | None = None  # the fact score, computed only for INCORRECT answers
    label: str | None = None
    claims: list[ClaimResult] = field(default_factory=list)
    status: str = Status.OK.value
    latency_s: float = 0.0
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
