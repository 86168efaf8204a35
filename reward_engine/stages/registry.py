"""Stages by name, as verl's reward managers: the engine looks each configured stage up here.

Adding a grader, decomposer or verifier is one factory and one decorator; the config then names it
(``grader: my-grader``) and the module that registers it (``plugins: [mypkg.my_stages]``, imported before the
names are checked)::

    from reward_engine.stages.registry import StageContext, register

    @register("verifier", "always-supported")
    def always_supported(ctx: StageContext) -> MyVerifier:   # anything with the Verifier protocol's methods
        return MyVerifier(ctx.judge)

A factory receives the reward config, its stage's judge client (None without one), the run's judge
templates and an opener of the run's knowledge source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from reward_engine.judge.protocol import Judge
from reward_engine.stages.decompose import Decomposer, LLMDecomposer, OfflineDecomposer
from reward_engine.stages.grade import Grader, LLMGrader, OfflineGrader, ReadThenCompareGrader
from reward_engine.stages.lead_names import LeadNames
from reward_engine.stages.verify import LLMVerifier, OfflineVerifier, Verifier

if TYPE_CHECKING:
    from retrieval.source import KnowledgeSource
    from reward_engine.prompts.files import Templates

KINDS = ("grader", "decomposer", "verifier")
Factory = TypeVar("Factory", bound=Callable[..., Any])


@dataclass(frozen=True)
class StageContext:
    config: Any  # the RewardEngineConfig (the config validates stage names here: no import back)
    judge: Judge | None  # the stage's judge (a JudgeClient, or a cache-only one in a dry run); None without one
    templates: "Templates"
    knowledge: "Callable[[], KnowledgeSource | None] | None" = None  # opens the run's knowledge source, lazily


_FACTORIES: dict[str, dict[str, Callable[[StageContext], Any]]] = {kind: {} for kind in KINDS}


def register(kind: str, name: str) -> Callable[[Factory], Factory]:
    """Register a factory for stage ``kind`` ('grader', 'decomposer', 'verifier') under ``name``."""
    if kind not in KINDS:
        raise ValueError(f"stage kind must be one of {KINDS}, got {kind!r}")

    def add(factory: Factory) -> Factory:
        _FACTORIES[kind][name] = factory
        return factory

    return add


def names(kind: str) -> list[str]:
    return sorted(_FACTORIES[kind])


def build(kind: str, name: str, context: StageContext) -> Any:
    """The stage ``name`` of ``kind``; unknown names are an error listing the registered ones."""
    factory = _FACTORIES[kind].get(name)
    if factory is None:
        raise ValueError(f"{kind} {name!r} is not registered; registered: {names(kind)}")
    return factory(context)


@register("grader", "offline")
def _offline_grader(ctx: StageContext) -> Grader:
    return OfflineGrader()


@register("grader", "llm")
def _llm_grader(ctx: StageContext) -> Grader:
    aliases = getattr(ctx.config, "grader_aliases", "off") == "kb" and ctx.knowledge is not None
    names = LeadNames(ctx.knowledge) if aliases else None
    if ctx.config.grader_calls == "two":
        return ReadThenCompareGrader(ctx.judge, names)
    return LLMGrader(ctx.judge, ctx.templates.grader, names)


@register("decomposer", "offline")
def _offline_decomposer(ctx: StageContext) -> Decomposer:
    return OfflineDecomposer()


@register("decomposer", "llm")
def _llm_decomposer(ctx: StageContext) -> Decomposer:
    return LLMDecomposer(ctx.judge, template=ctx.templates.decompose)


@register("verifier", "offline")
def _offline_verifier(ctx: StageContext) -> Verifier:
    return OfflineVerifier(ctx.config.factuality.offline_threshold)


@register("verifier", "llm")
def _llm_verifier(ctx: StageContext) -> Verifier:
    return LLMVerifier(ctx.judge, template=ctx.templates.verify, claims_per_call=ctx.config.factuality.claims_per_call)


@register("verifier", "nli")
def _nli_verifier(ctx: StageContext) -> Verifier:
    from reward_engine.stages.nli import NLIVerifier  # torch and the NLI model only when chosen

    return NLIVerifier(ctx.config.factuality.nli)
