"""Reward rules by name, as the stages are (``reward_engine.stages.registry``): the config names one (``rule:``,
default the preset's), the engine builds it with the preset's constants.

A new rule is a subclass of ``RewardRule`` in a module of its own and this decorator; the config then names the
rule and the module (``plugins: [mypkg.my_rule]``, imported before the name is checked)::

    from reward_engine.rules.base import Reward, RewardRule, Stages
    from reward_engine.rules.registry import register

    @register("confidence")
    class Confidence(RewardRule):
        async def score(self, stages: Stages) -> Reward:
            ...
"""

from __future__ import annotations

from typing import Callable, TypeVar

from reward_engine.rules.base import RewardRule
from reward_engine.rules.binary_rar import BinaryRarRule
from reward_engine.rules.graded import GradedRule
from reward_engine.rules.ternary import TernaryRule
from reward_engine.semantics import Semantics

Factory = Callable[[Semantics], RewardRule]
F = TypeVar("F", bound=Factory)

_RULES: dict[str, Factory] = {}


def register(name: str) -> Callable[[F], F]:
    """Register a rule (a ``RewardRule`` subclass, or any callable of the preset's ``Semantics``) as ``name``."""

    def add(factory: F) -> F:
        _RULES[name] = factory
        return factory

    return add


def names() -> list[str]:
    return sorted(_RULES)


def build(name: str, sem: Semantics) -> RewardRule:
    """The rule ``name`` under ``sem``; an unknown name is an error listing the registered ones."""
    factory = _RULES.get(name)
    if factory is None:
        raise ValueError(f"reward rule {name!r} is not registered; registered: {names()}")
    return factory(sem)


register("graded")(GradedRule)
register("ternary")(TernaryRule)
register("binary_rar")(BinaryRarRule)
