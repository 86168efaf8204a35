"""Judges to run beside the project: ``test_server`` (the OpenAI-compatible test double with
latency, rate limits and fault injection, for tests, benchmarks and dry runs) and ``local``
(llama.cpp's server with a bundled GGUF: a real model as judge on CPU). Imports
``reward_engine`` (its prompts and offline rules); nothing in ``reward_engine`` imports it."""
