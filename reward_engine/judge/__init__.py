"""The judge transport: one client (limits, retries, breaker, cache) and the test server.

Every judge call crosses the network here and nowhere else. ``server`` is the project's
OpenAI-compatible test double (latency, rate limits, faults); users point the client at a
real server (vLLM, llama.cpp's server, a hosted API).
"""
