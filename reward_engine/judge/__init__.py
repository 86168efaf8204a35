"""The judge transport: every judge call crosses the network here and nowhere else.

``client`` (the policy: cache, de-duplication, retries, endpoint rotation, breaker, limits),
``wire`` (the OpenAI-compatible request and reply), ``config``, ``errors`` (every judge
error), ``cache``, ``limits``, ``breaker``, ``metrics``. Users point the client at a real
server (vLLM, llama.cpp's server, a hosted API); the project's test double is ``judges``.
"""
