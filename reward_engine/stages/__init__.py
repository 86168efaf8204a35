"""KnowRL's reward stages, one module each, in the order a completion meets them.

``grade`` (correctness) -> ``decompose`` (atomic claims) -> ``relevance`` (claim policy)
-> ``retrieve`` (evidence) -> ``verify`` -> ``scoring`` (the arithmetic). Each stage has
a judge-backed and an offline implementation with one async method, so the engine
composes them without knowing which kind it has. ``prompts`` holds the judge templates and
their strict parsers.
"""
