"""The judge's configuration: its endpoints, limits, retries and cache (README: "Judge")."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Endpoint(BaseModel):
    """One OpenAI-compatible server. The key is read from the environment variable named here."""

    model_config = ConfigDict(extra="forbid")

    base_url: str = Field(..., description="e.g. http://127.0.0.1:8000/v1")
    model: str = Field(..., description="model name sent in each request")
    api_key_env: str | None = Field("KNOWRL_JUDGE_API_KEY", description="env var holding the API key")

    @field_validator("api_key_env")
    @classmethod
    def _a_name_not_a_key(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,127}", value):
            # never echo it: it may be the key itself, pasted where its variable's name belongs
            raise ValueError("must be the NAME of an environment variable (e.g. OPENAI_API_KEY), not the key")
        return value


class JudgeConfig(BaseModel):
    """Limits, retries and caching of judge calls (README: "Reward engine" and "Judge")."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    endpoints: list[Endpoint] = Field(
        ...,
        min_length=1,
        description="tried round-robin; a retry moves on; "
        "answers are cached per model, so endpoints may serve different models",
    )
    max_in_flight: int = Field(64, ge=1, description="concurrent requests at most")
    requests_per_minute: float | None = Field(None, gt=0, description="client-side RPM limit (per process)")
    tokens_per_minute: float | None = Field(None, gt=0, description="client-side TPM limit, estimated")
    rate_window_s: float = Field(60.0, gt=0, description="window the per-minute limits are counted over")
    timeout_s: float = Field(30.0, gt=0, description="per request")
    max_attempts: int = Field(4, ge=1, description="tries per call, first included")
    backoff_initial_s: float = Field(0.25, ge=0)
    backoff_max_s: float = Field(8.0, ge=0)
    max_retry_after_s: float = Field(30.0, ge=0, description="longest Retry-After honoured")
    breaker_failures: int = Field(8, ge=1, description="consecutive failed attempts that open the breaker")
    breaker_cooldown_s: float = Field(30.0, ge=0)
    temperature: float = Field(0.0, ge=0, le=2, description="0: deterministic calls, which are cached")
    invalid_retry_temperature: float = Field(
        0.7,
        ge=0,
        le=2,
        description="a reply not in the requested form is asked again at this temperature (or the "
        "configured one, if higher): at temperature 0 the same prompt gets the same reply, a paid call for nothing",
    )
    max_tokens: int = Field(512, ge=1, description="reply budget of calls that do not set their own")
    seed: int | None = None
    cache_dir: str | None = Field(None, description="diskcache directory; None disables caching")
    max_reply_bytes: int = Field(
        4 * 2**20,
        ge=1024,
        description="a reply body larger than this (after decompression) fails that attempt: a hostile or broken "
        "server cannot make the job hold gigabytes",
    )
    structured_output: Literal["auto", "on", "off"] = Field(
        "auto",
        description="ask for grades, claims and verdicts through a JSON schema (response_format): "
        "on = always; auto = unless the endpoint answers 400, then text; off = text prompts only",
    )
    schema_format: Literal["json_schema", "json_object"] = Field(
        "json_schema",
        description="how the schema is sent: json_schema (OpenAI, vLLM, llama.cpp's llama-server) "
        "or json_object with a 'schema' key (llama-cpp-python's server, which answers json_schema with a 500)",
    )
