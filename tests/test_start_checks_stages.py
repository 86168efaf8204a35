"""The push check before the model loads asks only what the run will do (the landing review of pass 63): a GRPO-only
run was refused for ``sft.push_to_hub``, a push no stage of it makes; ``knowrl.sft`` pushed after training with no
check before; and a user who reaches the hub only through a proxy (``HTTPS_PROXY``) was told the hub does not
answer, the hub's own port being tried directly. The GRPO-only and proxy assertions failed on 600c82b."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from knowrl.config import ConfigError, load_train_config
from knowrl.start_checks import _unreachable, check_before_load
from tests.helpers import REPO, one_error_line, run_job

SMOKE = REPO / "configs" / "smoke.yaml"


def test_a_grpo_only_run_is_not_refused_for_the_sft_stage_s_push(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    check_before_load(load_train_config(SMOKE, ["sft.push_to_hub=true"]))  # no SFT stage runs: nothing to push
    with pytest.raises(ConfigError, match="sft.push_to_hub: HF_HUB_OFFLINE"):
        check_before_load(load_train_config(SMOKE, ["sft.push_to_hub=true", "pipeline.cold_start_sft=true"]))


def test_knowrl_sft_refuses_a_push_it_cannot_make_before_the_model_loads(tmp_path: Path) -> None:
    out = tmp_path / "sft-run"
    done = run_job(
        "-m", "knowrl.sft", "--config", str(SMOKE), "--set", f"output_dir={out}", "--set", "sft.push_to_hub=true"
    )
    assert "HF_HUB_OFFLINE" in one_error_line(done, "sft.push_to_hub") and not out.exists()


def test_the_hub_behind_a_proxy_is_reachable_through_the_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_PROXY", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        hub = f"http://127.0.0.1:{closed.getsockname()[1]}"  # bound, never listening: refuses a connection
        with socket.create_server(("127.0.0.1", 0)) as proxy:
            assert _unreachable(hub, timeout_s=2) is not None  # direct: the hub's port refuses
            monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{proxy.getsockname()[1]}")
            assert _unreachable(hub, timeout_s=2) is None  # the proxy answers for it
            monkeypatch.setenv("no_proxy", "127.0.0.1")
            assert _unreachable(hub, timeout_s=2) is not None  # bypassed: direct again
