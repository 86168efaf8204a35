"""KnowRL's reward stages, one module each, in the order a completion meets them.

``grade`` (correctness) -> ``decompose`` (atomic claims) -> ``claims`` + ``relevance`` (which
claims count) -> ``retrieve`` (evidence, kept by ``evidence_cache``) -> ``verify``; or
``fused`` (claims and verdicts in one call); ``factuality`` runs that chain for one completion in
one call. Each stage has a judge-backed and an offline implementation with one async method, so
the pipeline composes them without knowing which kind it has; ``llm_stage`` is what the
judge-backed ones share. The prompts are in ``reward_engine.prompts``, the offline rules in
``reward_engine.offline``, the arithmetic in ``reward_engine.semantics``, what a completion is
paid in ``reward_engine.rules``.
"""
