"""Verification: is each claim supported by its evidence passages -- or, for Binary RAR, contradicted?

A verifier (built in, or a plugin registered with ``stages.registry.register("verifier", NAME)``) has two
methods, and may have a third:

* ``async verify(claims, evidence) -> StageOutput[list[bool]]``: one supported flag per claim, claim ``i``
  against the passages ``evidence[i]`` (KnowRL's fact score);
* ``async verdicts(claims, evidence) -> StageOutput[list[Verdict]]``: the same claims, three-way
  (``Verdict.SUPPORTED`` / ``CONTRADICTED`` / ``NOT_ENOUGH``): what Binary RAR asks when the verifier has no
  ``answer_verdict``, with the one statement ``rar_statement(question, response)`` as its only claim;
* optionally ``async answer_verdict(question, response, evidence) -> StageOutput[Verdict]``: Binary RAR's one
  verdict on a response with the question it answers, for a verifier that reads the two apart (the offline one
  does: "Lyon" is contradicted by evidence that answers the question with another name, which a statement-level
  word check cannot see).

``answer_verdict`` below asks the verifier's own ``answer_verdict`` when it has one, else its ``verdicts`` on
the statement: the stage never looks at which class a verifier is.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Protocol, Sequence

from retrieval.kb import Passage
from reward_engine import prompts
from reward_engine.judge.protocol import Judge
from reward_engine.labels import Verdict
from reward_engine.offline import facts as offline_facts
from reward_engine.prompts.templates import Template
from reward_engine.stages.llm_stage import JudgeRequest, LLMStage, StageOutput


class Verifier(Protocol):
    """What every verifier has (see the module's docstring)."""

    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> StageOutput[list[bool]]: ...

    async def verdicts(
        self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]
    ) -> StageOutput[list[Verdict]]: ...


class AnswerVerifier(Verifier, Protocol):
    """A verifier that judges a response with its question itself (Binary RAR), instead of the statement."""

    async def answer_verdict(
        self, question: str, response: str, evidence: Sequence[Passage]
    ) -> StageOutput[Verdict]: ...


_VERDICT = {prompts.SUPPORTED: Verdict.SUPPORTED, prompts.CONTRADICTED: Verdict.CONTRADICTED}


class OfflineVerifier:
    """Word-and-number coverage of the claim by one evidence passage (see offline_facts)."""

    def __init__(self, threshold: float = 0.75) -> None:
        self.threshold = threshold

    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> StageOutput:
        texts = [[p.text for p in passages] for passages in evidence]
        return StageOutput(
            await asyncio.to_thread(
                lambda: [offline_facts.supported(c, t, self.threshold) for c, t in zip(claims, texts)]
            )
        )

    async def verdicts(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> StageOutput:
        texts = [[p.text for p in passages] for passages in evidence]
        return StageOutput(await asyncio.to_thread(lambda: [self._verdict(c, t) for c, t in zip(claims, texts)]))

    async def answer_verdict(self, question: str, response: str, evidence: Sequence[Passage]) -> StageOutput:
        """CONTRADICTED when the question and the response together make a claim the evidence contradicts
        (``offline_facts.answer_contradicted``: a wrong name, a list holding one, a negated answer, a value off
        the evidence's), else NOT_ENOUGH: word coverage cannot confirm a response, only catch these."""
        texts = [p.text for p in evidence]
        hit = await asyncio.to_thread(offline_facts.answer_contradicted, question, response, texts)
        return StageOutput(Verdict.CONTRADICTED if hit else Verdict.NOT_ENOUGH)

    def _verdict(self, claim: str, texts: list[str]) -> Verdict:
        if offline_facts.supported(claim, texts, self.threshold):
            return Verdict.SUPPORTED
        if offline_facts.contradicted(claim, texts, self.threshold):
            return Verdict.CONTRADICTED
        return Verdict.NOT_ENOUGH


def rar_statement(question: str, response: str) -> str:
    """Binary RAR's unit of verification: the response together with the instruction it answers, as one
    text ("When was the Eiffel Tower completed? In 1901.")."""
    return f"{question.strip()} {response.strip()}"


async def answer_verdict(verifier: Verifier, question: str, response: str, evidence: Sequence[Passage]) -> StageOutput:
    """One verdict for a whole response with its question (Binary RAR, as released: not claim by claim): the
    verifier's own ``answer_verdict`` when it has one (the offline verifier), else its ``verdicts`` on
    ``rar_statement`` (an NLI model, an LLM judge, a plugin with the two required methods)."""
    own = getattr(verifier, "answer_verdict", None)
    if own is not None:
        return await own(question, response, evidence)
    found = await verifier.verdicts([rar_statement(question, response)], [evidence])
    return StageOutput(found.value[0], found.cached)  # type: ignore[index]


CLAIMS_PER_CALL = 8  # each verdict quotes up to 400 characters: 13 claims ran past 2,048 tokens on a 1.5B judge


class LLMVerifier(LLMStage):
    """The claims of one completion, ``claims_per_call`` to a judge call (sent together), strict JSON labels
    back. One call for all claims made the reply grow with the claims until a small judge's reply budget or
    context cut it (the real_judge red team's padded completion: unscored); a claim's verdict reads only its
    own evidence, so the split changes no verdict's input."""

    kind = "verification"
    default_template = prompts.VERIFY

    def __init__(
        self,
        judge: Judge,
        max_tokens: int | None = None,
        template: Template | None = None,
        claims_per_call: int = CLAIMS_PER_CALL,
    ) -> None:
        super().__init__(judge, max_tokens, template)
        self.claims_per_call = claims_per_call

    def request(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> JudgeRequest:
        return JudgeRequest(
            "verify",
            prompts.verify_messages(claims, evidence, self.template),
            self.template.version,
            self.max_tokens,
            prompts.verdicts_schema(len(claims)),
        )

    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> StageOutput:
        return await self._in_calls(claims, evidence, prompts.parse_verdicts)

    async def verdicts(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> StageOutput:
        found = await self._in_calls(claims, evidence, prompts.parse_labels)
        labels: list[str] = found.value  # type: ignore[assignment]
        return StageOutput([_VERDICT.get(label, Verdict.NOT_ENOUGH) for label in labels], found.cached)

    async def _in_calls(
        self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]], parse: Callable[[str, int], Any]
    ) -> StageOutput:
        """Every claim's parsed verdict in order, asked ``claims_per_call`` at a time; cached when every call was.
        A failed call fails the completion (no partial verdicts), once its siblings are done: none is left
        holding a judge slot into the next step or missing from a dry run's plan."""
        if not claims:
            return StageOutput([])
        n = self.claims_per_call
        parts = [(claims[i : i + n], evidence[i : i + n]) for i in range(0, len(claims), n)]
        found = await asyncio.gather(
            *(self.ask(self.request(c, e), lambda t, k=len(c): parse(t, k)) for c, e in parts),
            return_exceptions=True,
        )
        failed = [f for f in found if isinstance(f, BaseException)]
        if failed:
            raise failed[0]
        done: list[StageOutput] = found  # type: ignore[assignment]
        return StageOutput([v for f in done for v in f.value], all(f.cached for f in done))
