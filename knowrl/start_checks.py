"""Checks a training run makes before its model loads, for settings the trainer or the reward engine read only
after it (hostile pass 60: ``push_to_hub`` offline or without a token, an unusable cache folder, each a traceback
minutes into the run). ``knowrl.grpo.check_start`` calls ``check_before_load``; each failure is one
``ConfigError`` line naming the config key."""

from __future__ import annotations

import os
import socket
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from knowrl.config import ConfigError, TrainConfig

TRUE = ("1", "on", "true", "yes")  # how huggingface_hub reads a boolean variable


def check_before_load(config: TrainConfig) -> None:
    """Every check of this module, for the stages this run has: ``sft.push_to_hub`` only where a cold-start SFT
    runs (a GRPO-only run was refused for a push it never makes). Raises ``ConfigError``."""
    from knowrl.output_dir import route

    sft_runs = bool(config.pipeline.cold_start_sft) and route(config) == "pipeline"
    for section in ("grpo", "sft") if sft_runs else ("grpo",):
        check_push_to_hub(getattr(config, section), section)
    check_cache_dirs(config)


def check_push_to_hub(values: dict[str, Any], section: str) -> None:
    """``<section>.push_to_hub`` can push: the hub is not switched off (``HF_HUB_OFFLINE``), a token is there
    (``<section>.hub_token``, ``HF_TOKEN`` or a saved login), the repo id is one the hub accepts and the hub
    answers on its port. transformers asked all of this when the trainer was built, after the model loaded."""
    if not values.get("push_to_hub"):
        return
    key = f"{section}.push_to_hub"
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in TRUE:
        raise ConfigError(f"{key}: HF_HUB_OFFLINE is set, so nothing can be pushed; unset one of them")
    from huggingface_hub import get_token

    if not (values.get("hub_token") or get_token()):
        raise ConfigError(
            f"{key}: no Hugging Face token (set HF_TOKEN, run `hf auth login`, or set {section}.hub_token)"
        )
    repo = values.get("hub_model_id")
    if repo:
        from huggingface_hub.utils import HFValidationError, validate_repo_id

        try:
            validate_repo_id(str(repo))
        except HFValidationError as exc:
            raise ConfigError(f"{key}: {section}.hub_model_id {repo!r} is no repo id: {exc}") from None
    endpoint = os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
    why = _unreachable(endpoint)
    if why:
        raise ConfigError(f"{key}: the hub {endpoint} does not answer ({why}); push later, or set {key}: false")


def _unreachable(url: str, timeout_s: float = 5.0) -> str | None:
    """Why ``url``'s host does not accept a TCP connection within ``timeout_s``, or None when it does; behind a
    proxy the environment names for it (``HTTPS_PROXY``, not bypassed by ``NO_PROXY``), the proxy's (a user who
    reaches the hub only through one was refused)."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
        proxy = urllib.request.getproxies().get(parts.scheme) if host else None
        if proxy and not urllib.request.proxy_bypass(host):
            through = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
            host, port = through.hostname, through.port or (443 if through.scheme == "https" else 80)
    except ValueError as exc:
        return str(exc)
    if not host:
        return "no host in the URL"
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


def check_cache_dirs(config: TrainConfig) -> None:
    """The reward's cache folders open as caches: the evidence cache (``factuality.cache_dir``) and each judge's
    (``judge.cache_dir``, ``judges.<stage>.cache_dir``). A file, a folder that cannot be written or one holding a
    foreign ``cache.db`` failed at the first step's reward, after the model loaded."""
    reward = config.reward
    if reward is None:
        return
    from reward_engine.disk_cache import CacheError, DiskCache

    named = [("factuality.cache_dir", reward.factuality.cache_dir if reward.factuality.enabled else None)]
    named += [("judge.cache_dir", reward.judge.cache_dir if reward.judge is not None else None)]
    named += [(f"judges.{stage}.cache_dir", judge.cache_dir) for stage, judge in sorted(reward.judges.items())]
    for key, folder in named:
        if not folder:
            continue
        try:
            DiskCache(folder).close()
        except (CacheError, OSError) as exc:
            raise ConfigError(f"reward.{key}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
