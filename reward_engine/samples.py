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
    restates: bool = False  # a supported claim that only restates another (``claim_dedupe: words``): left out too


@dataclass
class RewardResult:
    """Every component of one completion's reward; None where it was not computed.

    What each holds (the keys of ``to_dict``: every adapter's row and reply uses these names):

    - ``total``: what the trainer is paid, ``format`` + ``correctness`` (None: unscored).
    - ``format``: the format term (0 under presets without one).
    - ``correctness``: the reward rule's term, **the fact score already inside** where the rule pays it (KnowRL:
      INCORRECT -1 + fact score); TruthRL and threshold: the ternary reward; Binary RAR: 1 / 0.
    - ``fact_score``: that fact score, shown beside ``correctness`` for reading only: never add it to
      ``correctness`` or ``total`` (the fact would count twice). None where no fact score was computed (a right
      answer, an abstention, ``factuality.enabled: false``, presets without a fact term); 0.0 is a computed score of 0.
      Named ``factuality`` before; that name stays an alias of the attribute (rows carry ``fact_score`` only).
    - ``label``: the completion's label, CORRECT / INCORRECT / NOT_ATTEMPTED: the grader's, or the rule's where it
      decided without one (a refusal or keyword shortcut, TruthRL's abstention phrase); None with no answer (no
      grader call) and under ``binary-rar`` (no grader).

    >>> row = RewardResult(total=0.03, format=1.0, correctness=-0.97, fact_score=0.03, label="INCORRECT").to_dict()
    >>> row["fact_score"], "factuality" in row
    (0.03, False)
    """

    total: float | None = None  # format + correctness
    format: float | None = None
    correctness: float | None = None  # the rule's term, the fact score folded in (KnowRL's combined reward)
    fact_score: float | None = None  # the fact score inside correctness, for reading only; None: not computed
    label: str | None = None
    claims: list[ClaimResult] = field(default_factory=list)
    status: str = Status.OK.value
    latency_s: float = 0.0
    error: str | None = None

    @property
    def factuality(self) -> float | None:
        """Deprecated: ``fact_score`` under its old name."""
        return self.fact_score

    @factuality.setter
    def factuality(self, value: float | None) -> None:
        self.fact_score = value

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def fact_score_of(row: dict[str, Any]) -> float | None:
    """A row's fact score, from its ``fact_score`` or, in rows written before the rename, ``factuality``.

    >>> fact_score_of({"fact_score": 0.5}), fact_score_of({"factuality": 0.25}), fact_score_of({"fact_score": None})
    (0.5, 0.25, None)
    """
    return row["fact_score"] if "fact_score" in row else row.get("factuality")
