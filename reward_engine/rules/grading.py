"""The label of an answer, as the graded and ternary rules read it: judge-free shortcuts, then the grader,
under the preset's abstention rule (``grader``, ``phrase``, ``phrase_strict``)."""

from __future__ import annotations

from reward_engine.labels import Label
from reward_engine.offline import shortcuts
from reward_engine.offline.commitment import commits
from reward_engine.rules.base import Stages
from reward_engine.semantics import Semantics


def shortcut(answer: str, gold: str, question: str, sem: Semantics) -> Label | None:
    """KnowRL June 2025's judge-free verdicts and TruthRL's abstention phrase, when the preset has them (see
    ``offline.shortcuts``); None: ask the grader. ``phrase_strict``: "I don't know" beside an answer it names
    ("Lyon. I don't know.", read without the gold) is no abstention but a wrong answer (``truthrl-strict``).

    >>> from reward_engine.semantics import semantics
    >>> [shortcut(a, "Paris", "Capital of France?", semantics("truthrl-strict")) for a in
    ...  ("I don't know", "Lyon. I don't know.", "Lyon")]
    [<Label.NOT_ATTEMPTED: 'NOT_ATTEMPTED'>, <Label.INCORRECT: 'INCORRECT'>, None]
    """
    if sem.abstention != "grader":
        if not shortcuts.says_i_dont_know(answer):
            return None
        if sem.abstention == "phrase_strict" and commits(answer, question):
            return Label.INCORRECT
        return Label.NOT_ATTEMPTED
    if sem.refusal_shortcut and shortcuts.is_refusal(answer):
        return Label.NOT_ATTEMPTED
    if sem.keyword_shortcut and shortcuts.misses_gold_keywords(answer, gold):
        return Label.INCORRECT
    return None


async def label_answer(stages: Stages, sem: Semantics) -> Label:
    """The answer's label, recorded as ``stages.label``: a shortcut's, else the grader's; with a phrase rule only
    the phrase abstains, so the grader's NOT_ATTEMPTED is a wrong answer (TruthRL: the judge cannot call "I'm not
    sure" an abstention)."""
    label = shortcut(stages.answer, stages.sample.gold, stages.sample.question, sem)
    if label is None:
        label = await stages.grade(stages.answer)
        if sem.abstention != "grader" and label is Label.NOT_ATTEMPTED:
            label = Label.INCORRECT
    stages.label = label  # reported with the completion, even if its fact score then fails
    return label
