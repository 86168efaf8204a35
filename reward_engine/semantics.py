"""The reward's arithmetic: the format term, the fact score, what a label pays, and the presets.

Pure functions of labels and counts, so every constant is testable without I/O; the reward rules
(``reward_engine/rules``) compose them. A preset is a published design, cited, and names its rule;
``knowrl`` (the default) is KnowRL's released reward, shown equal to their code on the same inputs in
``bench/results/conformance.md``.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from reward_engine.labels import Label


class Semantics(BaseModel):
    """Every constant of the reward, and which claims and shortcuts count."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)  # a NaN reward would train on NaN

    correct: float = Field(2.0, description="grader says CORRECT")
    not_attempted: float = Field(1.0, description="an honest refusal ('I don't know')")
    incorrect: float = Field(-1.0, description="INCORRECT, before the fact score is added")
    unparseable: float = Field(0.0, description="the grader's output could not be read")
    no_answer: float = Field(-1.0, description="no <answer> block, or an empty one (no judge call)")
    fact_weight: float = Field(1.0, description="INCORRECT scores incorrect + fact_weight x fact_score")
    fact_on_no_answer: bool = Field(
        True,
        description="a missing or empty answer also earns fact_weight x fact_score (KnowRL: a completion cut "
        "mid-<think> still has its reasoning checked)",
    )
    fact_on_refusal: bool = Field(
        False, description="a refusal also earns the fact score (KnowRL June 2025, where refusals score -1)"
    )
    refusal_shortcut: bool = Field(
        False, description="answers matching refusal phrases score not_attempted without a judge call (June 2025)"
    )
    keyword_shortcut: bool = Field(
        False,
        description="an answer containing no keyword of a gold without digits is INCORRECT without a judge call "
        "(June 2025)",
    )
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
    # Which claims count (FActScore's extraction rules under KnowRL):
    min_claim_words: int = Field(3, ge=1, description="claims with fewer words are dropped (FActScore: 3)")
    claim_dedupe: Literal["case", "words"] = Field(
        "case",
        description="case: repeats differing only in case are one claim (FActScore); words: case, spacing, "
        "punctuation, word order, small words, discourse filler ('indeed', 'in fact') and attribution ('as everyone "
        "knows', 'according to the records') ignored, negations kept, and a supported claim that only restates "
        "another (no word of its evidence sentence of its own) left out of the fact score",
    )
    relevance: Literal["off", "question"] = Field(
        "off",
        description="question: claims sharing nothing with the question/title are left out of the fact score "
        "(padding with true but irrelevant facts must not pay); off: every claim counts (KnowRL)",
    )
    max_claims: int | None = Field(None, ge=1, description="claims verified per completion; None: all (KnowRL)")
    grounding: Literal["off", "topic"] = Field(
        "off",
        description="topic: a supported claim keeps its support only when most of its words beyond the question's "
        "occur in the topic's evidence (the title's passages, or the question's own search without a title), so "
        "true facts about something else prefixed with a question word never pay; off: the verifier decides "
        "(KnowRL)",
    )
    abstention: Literal["grader", "phrase", "phrase_strict"] = Field(
        "grader",
        description="grader: the grader's NOT_ATTEMPTED is an abstention; phrase: only an answer containing "
        '"I don\'t know" abstains (decided without a judge) and any other answer not graded CORRECT scores '
        'incorrect (TruthRL), a guess with "I don\'t know" appended included; phrase_strict: the same, but an '
        'answer that says "I don\'t know" and still names an answer (read without the gold) scores incorrect',
    )
    threshold_t: float | None = Field(
        None,
        gt=0,
        lt=1,
        description="a confidence target t: a wrong answer, no answer and an unreadable grade each cost t/(1-t), so "
        "answering pays in expectation only where p(right) > t (Kalai et al., arXiv 2509.04664); set by the "
        "'threshold' preset's threshold_t",
    )
    rule: str = Field(
        "graded",
        description="the reward rule (reward_engine/rules, by name): graded: the grader's label plus the fact score "
        "(KnowRL); ternary: the grader's label alone (TruthRL, threshold); binary_rar: 1 when the response with "
        "its question is not contradicted by the evidence, else 0, with no grader (Binary RAR); or a rule a "
        "plugin registered",
    )

    @model_validator(mode="after")
    def _threshold(self) -> "Semantics":
        if self.threshold_t is not None:
            wrong = -self.threshold_t / (1 - self.threshold_t)
            self.incorrect = self.no_answer = self.unparseable = wrong
        return self


PRESETS: dict[str, dict] = {
    # KnowRL's released reward (zjunlp/KnowRL f75b0bb): +2 / +1 / -1 + fact score.
    "knowrl": {},
    # The June 2025 release (1201fc0): refusals punished like errors, the fact score added to every -1
    # (refusals included) as min(supported/15, 1), and two judge-free shortcuts. The paper reports that
    # refusal -1 leads to reward hacking late in training.
    "knowrl-june2025": {
        "not_attempted": -1.0,
        "fact_rule": "capped",
        "cap": 15.0,
        "fact_on_refusal": True,
        "refusal_shortcut": True,
        "keyword_shortcut": True,
    },
    # The released reward hardened against padding: unsupported claims never help (the few-claims damping
    # counts supported claims), claims must be about the question and supported by the topic's own evidence,
    # at most 24 are verified. See tests/redteam/v1.yaml.
    "knowrl-robust": {
        "fact_rule": "penalty_supported",
        "relevance": "question",
        "grounding": "topic",
        "max_claims": 24,
        "claim_dedupe": "words",
    },
    # TruthRL's ternary reward (Wei et al., arXiv 2509.25760; truthrl_qa.py): one reward, +1 correct, 0 for
    # an answer saying "I don't know", -1 for anything else (wrong, no answer, a grade that cannot be read);
    # no format term, no fact term.
    "truthrl": {
        "rule": "ternary",
        "correct": 1.0,
        "not_attempted": 0.0,
        "incorrect": -1.0,
        "unparseable": -1.0,
        "no_answer": -1.0,
        "fact_weight": 0.0,
        "fact_on_no_answer": False,
        "abstention": "phrase",
        "format_correct": 0.0,
        "format_wrong": 0.0,
    },
    # A confidence target t (Kalai et al., arXiv 2509.04664, "Why Language Models Hallucinate"): +1 right, 0
    # abstain (the grader's NOT_ATTEMPTED), -t/(1-t) wrong, and no answer or an unreadable grade as wrong; no
    # format or fact term. Answering pays only where p(right) > t. t 1/2 is TruthRL's +1/0/-1 (abstention read by
    # the grader, not the phrase); t 2/3 is KnowRL's correctness term +2/+1/-1 shifted by -1 (0/-1/-2 ... 1/0/-2):
    # the same choices, halved. Needs threshold_t.
    "threshold": {
        "rule": "ternary",
        "correct": 1.0,
        "not_attempted": 0.0,
        "fact_weight": 0.0,
        "fact_on_no_answer": False,
        "format_correct": 0.0,
        "format_wrong": 0.0,
    },
    # Binary RAR (Chen et al., arXiv 2510.17733; chentong0/rl-binary-rar): the response after </think> with
    # its question, one verdict against the top-k retrieved passages: 1 unless contradicted, 0 when there is
    # nothing to verify; no grader, no format term.
    "binary-rar": {
        "rule": "binary_rar",
        "format_correct": 0.0,
        "format_wrong": 0.0,
        "fact_on_no_answer": False,
    },
}


# TruthRL's reward without its appended-abstention rule: under "truthrl" any answer containing "I don't know" scores
# 0, so "Lyon. I don't know." lifts a wrong guess from -1 to 0 (TruthRL's own rule). Here an answer that says it and
# still names an answer (offline.commitment.commits, read without the gold) scores -1, right or wrong; a plain "I
# don't know", or one whose aside names nothing, still abstains at 0.
PRESETS["truthrl-strict"] = {**PRESETS["truthrl"], "abstention": "phrase_strict"}


SET_BY_T = ("incorrect", "no_answer", "unparseable")  # what a confidence target t pays: -t/(1-t) each


def semantics(preset: str = "knowrl", **overrides: float | str | bool | None) -> Semantics:
    if preset not in PRESETS:
        raise ValueError(f"unknown reward preset {preset!r}; choose one of {sorted(PRESETS)}")
    merged = {**PRESETS[preset], **overrides}
    if preset == "threshold" and merged.get("threshold_t") is None:
        raise ValueError("preset 'threshold' needs threshold_t in (0, 1): answering pays only where p(right) > t")
    _check_set_by_t(preset, merged.get("threshold_t"), overrides)
    return Semantics(**merged)


def _check_set_by_t(preset: str, t: object, overrides: dict[str, object]) -> None:
    """A constant that threshold_t sets, overridden to another value, is refused: the target would drop it
    without a word (hostile pass 57: ``incorrect: -2`` under t 0.75 paid -3).

    >>> _check_set_by_t("threshold", 0.75, {"incorrect": -3.0, "correct": 5.0})  # what t sets anyway: fine
    >>> _check_set_by_t("threshold", 0.75, {"incorrect": -2.0, "no_answer": -2.0})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: semantics.incorrect, semantics.no_answer under preset 'threshold': threshold_t 0.75 sets ... = -3; ...
    """
    if not isinstance(t, (int, float)) or not 0 < t < 1:
        return  # no target (or a bad one, which Semantics names)
    wrong = -t / (1 - t)
    clash = [k for k in SET_BY_T if k in overrides and not _same(overrides[k], wrong)]
    if clash:
        named = ", ".join(f"semantics.{k}" for k in clash)
        raise ValueError(
            f"{named} under preset {preset!r}: threshold_t {t:g} sets a wrong answer, no answer and an unreadable "
            f"grade to -t/(1-t) = {wrong:g}; drop {'it' if len(clash) == 1 else 'them'} or change threshold_t"
        )


def _same(value: object, wrong: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isclose(value, wrong)


def payoffs(sem: Semantics) -> dict[str, float]:
    """What one completion earns, per action, before any fact score: ``right``, ``abstain`` and ``wrong`` (a
    well-formed completion, so the format term is added to each). The reward forecast
    (``knowrl.effect.forecast``) reads a preset's choices from these; Binary RAR is read as its best case, a wrong
    answer always contradicted.

    >>> payoffs(semantics())
    {'right': 3.0, 'abstain': 2.0, 'wrong': 0.0}
    >>> payoffs(semantics("threshold", threshold_t=0.75))
    {'right': 1.0, 'abstain': 0.0, 'wrong': -3.0}
    """
    if sem.rule == "binary_rar":
        return {"right": 1.0, "abstain": 1.0, "wrong": 0.0}
    fmt = sem.format_correct
    return {"right": fmt + sem.correct, "abstain": fmt + sem.not_attempted, "wrong": fmt + sem.incorrect}


def answer_bar(sem: Semantics) -> float:
    """The p(right) above which answering pays more than abstaining, in expectation: (abstain - wrong) /
    (right - wrong); 1.0 when abstaining never pays less than answering right (Binary RAR).

    >>> round(answer_bar(semantics()), 4), answer_bar(semantics("truthrl"))
    (0.6667, 0.5)
    >>> answer_bar(semantics("threshold", threshold_t=0.8))
    0.8
    """
    pay = payoffs(sem)
    spread = pay["right"] - pay["wrong"]
    return 1.0 if spread <= 0 else min(1.0, max(0.0, (pay["abstain"] - pay["wrong"]) / spread))


def ramped_abstain(sem: Semantics, step: int, ramp_steps: int | None) -> float:
    """An abstention's payoff at training step ``step`` when it is ramped in over ``ramp_steps`` (explore first,
    as in KARL): it starts at a wrong answer's payoff, so early on answering never pays less than abstaining and
    the policy samples answers on questions it might know; it reaches the preset's value at ``ramp_steps`` and
    stays there. The answering bar rises with it from 0 to :func:`answer_bar`. ``step`` < 0 (outside a trainer)
    or no ramp: the preset's value.

    >>> sem = semantics("truthrl")
    >>> [ramped_abstain(sem, s, 20) for s in (0, 10, 20, 40, -1)]
    [-1.0, -0.5, 0.0, 0.0, 0.0]
    """
    if not ramp_steps or step < 0 or step >= ramp_steps:
        return sem.not_attempted
    return sem.incorrect + (sem.not_attempted - sem.incorrect) * step / ramp_steps


def format_term(well_formed: bool, sem: Semantics) -> float:
    """KnowRL's format reward, the one place it is computed: ``format_correct`` for
    ``<think>…</think><answer>…</answer>`` and nothing else, ``format_wrong`` otherwise (0 and 0 where a preset
    has no format term).

    >>> format_term(True, semantics()), format_term(False, semantics()), format_term(False, semantics("truthrl"))
    (1.0, -1.0, 0.0)
    """
    return sem.format_correct if well_formed else sem.format_wrong


def total_reward(format_reward: float | None, correctness: float | None) -> float | None:
    """What TRL is paid for one completion: format + correctness (None when correctness is unscored)."""
    return None if correctness is None else (format_reward or 0.0) + correctness


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


def uses_fact(label: Label | None, sem: Semantics) -> bool:
    """Whether the fact score changes the reward of a completion graded ``label`` (None: no answer to grade)."""
    if sem.rule == "binary_rar":
        return True
    if sem.fact_weight == 0:
        return False
    if label is None:
        return sem.fact_on_no_answer
    return label is Label.INCORRECT or (label is Label.NOT_ATTEMPTED and sem.fact_on_refusal)


def combine(label: Label | None, fact: float | None, sem: Semantics) -> float | None:
    """Correctness reward for a graded answer (None: the grader gave no verdict in time).

    A label whose reward needs the fact score (``uses_fact``) but has none (factuality timed
    out) is None, not a made-up number.
    """
    if label is None:
        return None
    base = label_reward(label, sem)
    if not uses_fact(label, sem):
        return base
    if fact is None:
        return None
    return base + sem.fact_weight * fact


def label_reward(label: Label, sem: Semantics) -> float:
    """What the grader's label alone pays (no fact term).

    >>> label_reward(Label.NOT_ATTEMPTED, semantics()), label_reward(Label.INCORRECT, semantics("truthrl"))
    (1.0, -1.0)
    """
    return {
        Label.CORRECT: sem.correct,
        Label.NOT_ATTEMPTED: sem.not_attempted,
        Label.INCORRECT: sem.incorrect,
        Label.UNPARSEABLE: sem.unparseable,
    }[label]


def no_answer_reward(fact: float | None, sem: Semantics) -> float | None:
    """A completion with no usable answer: ``no_answer``, plus its fact score when the preset says so."""
    if not uses_fact(None, sem):
        return sem.no_answer
    if fact is None:
        return None
    return sem.no_answer + sem.fact_weight * fact


def binary_rar(contradicted: int | None) -> float | None:
    """Binary RAR: 1.0 when no claim is contradicted, else 0.0 (None: not checked in time)."""
    if contradicted is None:
        return None
    return 1.0 if contradicted == 0 else 0.0
