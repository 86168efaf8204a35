"""Async, rate-limited, retried, cached KnowRL reward evaluation (format, correctness, factuality)."""
