"""The policies that ship offline: 'smollm2' and the bundled judge GGUFs ('qwen2.5-coder-0.5b', '-1.5b') are
names a config may give as model.name_or_path; each resolves to its converted folder in the user cache."""

from pathlib import Path

from knowrl.config import load_train_config
from knowrl.models import resolve_model_path

ROOT = Path(__file__).resolve().parents[1]


def test_bundled_gguf_names_stay_names_in_the_config():
    for name in ("smollm2", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"):
        cfg = load_train_config(ROOT / "configs" / "demo.yaml", [f"model.name_or_path={name}"])
        assert cfg.model.name_or_path == name  # not turned into a path under configs/


def test_a_converted_bundled_policy_is_found_in_the_cache_without_assembling(tmp_path, monkeypatch):
    monkeypatch.setenv("KNOWRL_CACHE_DIR", str(tmp_path))
    folder = tmp_path / "models" / "qwen2.5-coder-0.5b-instruct"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text("{}")
    assert resolve_model_path("qwen2.5-coder-0.5b") == str(folder)
    assert not list((tmp_path / "models").glob("*.gguf"))  # the 0.5 GB GGUF was not assembled for it
    assert resolve_model_path("some/hub-model") == "some/hub-model"
