"""Verification: is each claim supported by its evidence passages -- or, for Binary RAR, contradicted?

``verify`` gives supported flags (KnowRL's fact score); ``verdicts`` gives the three-way
verdict (supported / contradicted / not enough evidence) from the same stage.
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
    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> StageOutput[list[bool]]: ...

    async def verdicts(
        self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]
    ) -> StageOutput[list[Verdict]]: ...


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
    """One verdict for a whole response with its question (Binary RAR, as released: not claim by claim).
    The offline verifier's rule is ``offline_facts.answer_contradicted``; a model verifier judges
    ``rar_statement`` against the evidence."""
    if isinstance(verifier, OfflineVerifier):
        texts = [p.text for p in evidence]
        hit = await asyncio.to_thread(offline_facts.answer_contradicted, question, response, texts)
        return StageOutput(Verdict.CONTRADICTED if hit else Verdict.NOT_ENOUGH)
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
