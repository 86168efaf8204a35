"""The judge's configuration: its endpoints, limits, retries and cache (docs/reward-engine.md)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


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


_REDIS_URL = re.compile(r"(?:redis|rediss|unix)://\S+|\$\{[A-Za-z_][A-Za-z0-9_]*\}")


class _RedisURL(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(
        ..., repr=False, description="redis://[:password@]host:port/db (Redis or Valkey); ${VAR}: from the environment"
    )

    @field_validator("url")
    @classmethod
    def _a_redis_url(cls, value: str) -> str:
        if not _REDIS_URL.fullmatch(value):
            raise ValueError("must be a redis://, rediss:// or unix:// URL")  # never echoed: it may hold a password
        return value


class SharedCache(_RedisURL):
    """Judge replies and evidence in one Redis for every process and node (``reward_engine.shared_cache``)."""

    ttl_s: float | None = Field(
        None, gt=0, description="entries expire after this long; None: kept (bound Redis's maxmemory)"
    )


class SharedLimits(_RedisURL):
    """One judge budget (requests/min, tokens/min, requests in flight) for every process naming it
    (``judge.shared_limits``), instead of each rank's static 1/world_size share."""

    name: str = Field(
        "judge",
        pattern=r"^[A-Za-z0-9_.-]{1,64}$",
        description="the budget's name: every process and job spending one API key's limits names the same one",
    )
    lease_s: float = Field(
        600.0, gt=0, description="a slot in flight held by a process that died is freed after this long"
    )
    fallback_share: float = Field(
        1.0,
        gt=0,
        le=1,
        description="share of the limits a process keeps to itself while Redis is away (the trainer sets "
        "1/world_size; a scoring job beside a trainer should set its own)",
    )
    weight: int = Field(
        1,
        ge=1,
        le=16,
        description="this process's share of the budget while several wait for it, relative to theirs (2: twice "
        "the requests of a process with 1; the trainer takes rank_weights[rank] when that is set)",
    )
    rank_weights: list[int] | None = Field(
        None, description="each trainer rank's weight, by rank (e.g. [3, 1, 1, 1]); overrides weight in a trainer"
    )

    @field_validator("rank_weights")
    @classmethod
    def _weights_in_range(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and (not value or any(not 1 <= w <= 16 for w in value)):
            raise ValueError("rank_weights: one weight per rank, each from 1 to 16")
        return value


class JudgeConfig(BaseModel):
    """Limits, retries and caching of judge calls (docs/reward-engine.md, docs/a-real-local-judge.md)."""

    # a Redis URL may hold a password: pydantic's own error text must never echo an input
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, hide_input_in_errors=True)

    endpoints: list[Endpoint] = Field(
        ...,
        min_length=1,
        description="tried round-robin; a retry moves on; "
        "answers are cached per model, so endpoints may serve different models",
    )
    max_in_flight: int = Field(64, ge=1, description="concurrent requests at most")
    requests_per_minute: float | None = Field(
        None, gt=0, description="client-side RPM limit (per process, or across processes with limits.url)"
    )
    tokens_per_minute: float | None = Field(None, gt=0, description="client-side TPM limit, estimated (likewise)")
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
    cache: SharedCache | None = Field(
        None, description="a Redis every process and node shares, beside cache_dir (which it needs: this node's copy)"
    )
    limits: SharedLimits | None = Field(
        None, description="the per-minute limits and max_in_flight enforced across every process sharing this Redis"
    )
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

    @model_validator(mode="after")
    def _shared_cache_has_a_local_copy(self) -> "JudgeConfig":
        if self.cache is not None and not self.cache_dir:
            raise ValueError("cache.url needs cache_dir too: this node's copy, which serves while Redis is away")
        if self.limits is not None and self.limits.lease_s < 2 * self.timeout_s:
            raise ValueError(
                f"limits.lease_s ({self.limits.lease_s:g}) must be at least twice timeout_s ({self.timeout_s:g}): "
                "a lease that expires while its request is still running lets more than max_in_flight in"
            )
        return self
