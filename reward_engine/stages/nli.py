"""Verification by an NLI model, as KnowRL does it: no judge call, a local classifier.

A claim is supported when P(entailment), with the evidence passage as premise and the claim
as hypothesis, reaches the threshold (KnowRL: 0.3) on any of its passages; pairs are cut
at ``max_length`` tokens (KnowRL: 512). Unlike KnowRL, which classifies one pair at a time,
all pairs of a completion go through the model in padded batches, on a worker thread (the
event loop keeps its timers), on the GPU when there is one. The same scores give Binary
RAR's third verdict: contradicted when P(contradiction) reaches its threshold on a passage
and no passage entails the claim.
"""

from __future__ import annotations

import asyncio
import collections
import threading
from typing import Any, Sequence

from pydantic import BaseModel, ConfigDict, Field

from knowrl_io.model_loading import model_load_lock
from retrieval.kb import Passage
from reward_engine.labels import Verdict
from reward_engine.stages.llm_stage import StageOutput


class NLIConfig(BaseModel):
    """An NLI model as the claim verifier, as KnowRL runs it (``verifier: nli``)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    model: str = Field(
        "MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli",
        description="a Hugging Face sequence-classification NLI model: hub name (already downloaded) or local path",
    )
    entailment_threshold: float = Field(
        0.3, gt=0, le=1, description="supported when P(entailment) reaches this on any evidence passage (KnowRL: 0.3)"
    )
    contradiction_threshold: float = Field(
        0.5, gt=0, le=1, description="contradicted (Binary RAR) when P(contradiction) reaches this on a passage"
    )
    max_length: int = Field(512, ge=8, description="premise + claim tokens; longer pairs are cut (KnowRL: 512)")
    batch_size: int = Field(32, ge=1, description="pairs per forward pass")
    device: str = Field("auto", description="auto (the GPU when there is one), cpu, cuda, cuda:1, ...")


class NLIModelError(RuntimeError):
    """The NLI model cannot be loaded or has no entailment label; the message says what to do."""


def _label_id(id2label: dict[int, str], name: str) -> int | None:
    return next((int(i) for i, label in id2label.items() if str(label).lower() == name), None)


def premise(passage: Passage) -> str:
    """A passage as the NLI premise (FActScore's sentence markers dropped, as KnowRL does)."""
    return passage.text.replace("<s>", "").replace("</s>", "")


class NLIModel:
    """A sequence-classification NLI model, loaded on first use (never at import or construction)."""

    def __init__(self, config: NLIConfig, memo_size: int = 50_000) -> None:
        self.config = config
        self._lock = threading.Lock()
        self._loaded: tuple[Any, Any, Any, int, int | None] | None = None
        self._memo: collections.OrderedDict[tuple[str, str], tuple[float, float]] = collections.OrderedDict()
        self._memo_size = memo_size
        self.pairs_scored = 0

    def _load(self) -> tuple[Any, Any, Any, int, int | None]:
        with self._lock:
            if self._loaded is None:
                self._loaded = self._load_now()
            return self._loaded

    def _load_now(self) -> tuple[Any, Any, Any, int, int | None]:
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        name = self.config.model
        try:
            with model_load_lock():
                tokenizer = AutoTokenizer.from_pretrained(name)
                model = AutoModelForSequenceClassification.from_pretrained(name)
        except (OSError, ValueError) as exc:
            raise NLIModelError(
                f"factuality.nli.model {name!r} cannot be loaded ({exc}). Give a local path, or download it "
                f"once where the hub is reachable: huggingface-cli download {name}"
            ) from None
        id2label = {int(k): v for k, v in model.config.id2label.items()}
        entail = _label_id(id2label, "entailment")
        if entail is None:
            raise NLIModelError(
                f"factuality.nli.model {name!r} has no 'entailment' label (id2label = {id2label}): not an NLI model"
            )
        device = self.config.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        model = model.to(device).eval()
        if device.startswith("cuda") and torch.cuda.get_device_capability(torch.device(device))[0] >= 7:
            model = model.half()  # as KnowRL does on a GPU
        return tokenizer, model, device, entail, _label_id(id2label, "contradiction")

    def scores(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[float, float]]:
        """(P(entailment), P(contradiction)) for each (premise, hypothesis) pair; blocking (run it on a thread)."""
        todo = [p for p in dict.fromkeys(pairs) if p not in self._memo and p[0] and p[1]]
        if todo:
            self._score_now(todo)
        return [self._memo.get(p, (0.0, 0.0)) if p[0] and p[1] else (0.0, 0.0) for p in pairs]

    def _score_now(self, pairs: list[tuple[str, str]]) -> None:
        import torch

        tokenizer, model, device, entail, contra = self._load()
        size = self.config.batch_size
        for start in range(0, len(pairs), size):
            batch = pairs[start : start + size]
            inputs = tokenizer(
                [p for p, _ in batch],
                [h for _, h in batch],
                return_tensors="pt",
                padding=True,
                truncation=True,
                max_length=self.config.max_length,
            ).to(device)
            with torch.inference_mode():
                probs = torch.softmax(model(**inputs).logits.float(), dim=-1).cpu()
            for pair, row in zip(batch, probs):
                self._remember(pair, (float(row[entail]), float(row[contra]) if contra is not None else 0.0))
            self.pairs_scored += len(batch)

    def _remember(self, pair: tuple[str, str], value: tuple[float, float]) -> None:
        with self._lock:
            self._memo[pair] = value
            if len(self._memo) > self._memo_size:
                self._memo.popitem(last=False)

    def verdicts(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> list[Verdict]:
        """One verdict per claim against its passages (blocking)."""
        pairs = [(premise(p), claim) for claim, passages in zip(claims, evidence) for p in passages]
        scored = iter(self.scores(pairs))
        out = []
        for passages in evidence:
            rows = [next(scored) for _ in passages]
            if any(e >= self.config.entailment_threshold for e, _ in rows):
                out.append(Verdict.SUPPORTED)
            elif any(c >= self.config.contradiction_threshold for _, c in rows):
                out.append(Verdict.CONTRADICTED)
            else:
                out.append(Verdict.NOT_ENOUGH)
        return out


class NLIVerifier:
    """The verifier stage over an ``NLIModel``: supported flags, or three-way verdicts for Binary RAR."""

    def __init__(self, config: NLIConfig) -> None:
        self.model = NLIModel(config)

    async def verdicts(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> StageOutput:
        if not claims:
            return StageOutput([])
        return StageOutput(await asyncio.to_thread(self.model.verdicts, claims, evidence))

    async def verify(self, claims: Sequence[str], evidence: Sequence[Sequence[Passage]]) -> StageOutput:
        found = await self.verdicts(claims, evidence)
        return StageOutput([v is Verdict.SUPPORTED for v in found.value])  # type: ignore[union-attr]
