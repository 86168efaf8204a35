"""bench/effect_keep.py: a study's finished pieces survive the machine they were made on. Kept gzipped in the
repository with paths made relative, restored into any --work, the trainer's pickles and cards left out."""

import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import effect_keep  # noqa: E402


def _piece(work: Path) -> None:
    seed = work / "seed0"
    (seed / "data").mkdir(parents=True)
    (seed / "sft" / "final").mkdir(parents=True)
    (seed / "knowrl").mkdir()
    cold = {"policy": str(seed / "sft-merged"), "data": {"train": str(seed / "data" / "train.jsonl")}}
    (seed / "cold_start.json").write_text(json.dumps(cold))
    (seed / "after_sft.eval.json").write_text('{"greedy": {"counts": [[1, 0, 0, 0]]}}')
    (seed / "data" / "train.jsonl").write_text('{"question": "Q?"}\n')
    (seed / "sft" / "final" / "adapter_model.safetensors").write_bytes(b"\x00\x01weights")
    (seed / "sft" / "final" / "training_args.bin").write_bytes(b"pickle")
    (seed / "sft" / "final" / "README.md").write_text("model card")
    (seed / "knowrl" / "effect.json").write_text('{"arm": "knowrl"}')
    (seed / "knowrl" / "after_grpo.eval.json").write_text("{}")
    (work / "base.eval.json").write_text("{}")


def test_a_kept_piece_restores_into_another_work_folder_with_its_paths(tmp_path) -> None:
    first, keep, second = tmp_path / "first", tmp_path / "keep", tmp_path / "second"
    _piece(first)
    effect_keep.keep(first, keep, 0, None)
    effect_keep.keep(first, keep, 0, "knowrl")
    kept = sorted(str(p.relative_to(keep)) for p in keep.rglob("*.gz"))
    assert "seed0/sft/final/training_args.bin.gz" not in kept and "seed0/sft/final/README.md.gz" not in kept
    assert "seed0/knowrl/effect.json.gz" in kept and "base.eval.json.gz" in kept
    assert str(first) not in gzip.decompress((keep / "seed0" / "cold_start.json.gz").read_bytes()).decode()

    assert effect_keep.restore(second, keep) == ["seed0", "seed0/knowrl"]
    cold = json.loads((second / "seed0" / "cold_start.json").read_text())
    assert cold["policy"] == str(second / "seed0" / "sft-merged")
    assert cold["data"]["train"] == str(second / "seed0" / "data" / "train.jsonl")
    adapter = second / "seed0" / "sft" / "final" / "adapter_model.safetensors"
    assert adapter.read_bytes() == b"\x00\x01weights"
    assert effect_keep.restore(second, keep) == []  # what is there already is left alone


def test_keeping_the_same_piece_twice_gives_the_same_bytes(tmp_path) -> None:
    work, keep = tmp_path / "work", tmp_path / "keep"
    _piece(work)
    effect_keep.keep(work, keep, 0, "knowrl")
    before = {p: p.read_bytes() for p in keep.rglob("*.gz")}
    effect_keep.keep(work, keep, 0, "knowrl")
    assert {p: p.read_bytes() for p in keep.rglob("*.gz")} == before


def test_a_kept_cold_start_serves_a_longer_grpo_but_not_another_sft(tmp_path: Path) -> None:
    """A lent GPU runs more GRPO steps, time-boxed, from the CPU's kept cold starts; a cold start made with other
    SFT sizes or another model is still refused (its table would be stale)."""
    import effect
    import pytest

    sizes = {"train_questions": 200, "sft_steps": 40, "grpo_steps": 60, "samples": 4, "max_new_tokens": 48}
    old = {"sizes": sizes, "overrides": [], "heldout": None}  # as kept before the key left GRPO out
    path = tmp_path / "cold_start.json"
    path.write_text(json.dumps({"made_with": old, "policy": "p"}))
    longer = {"sizes": {k: v for k, v in sizes.items() if k != "grpo_steps"}, "heldout": None}
    longer["overrides"] = []
    assert effect._done(path, longer)["policy"] == "p"
    gpu = effect._cold_key({**old, "sizes": {**sizes, "grpo_steps": 200}, "overrides": ["time_budget_min=7"]})
    assert gpu == longer
    with pytest.raises(SystemExit, match="use another --work"):
        effect._done(path, {**longer, "sizes": {**longer["sizes"], "sft_steps": 80}})
    with pytest.raises(SystemExit, match="use another --work"):
        effect._done(path, {**longer, "overrides": ["model.name_or_path=qwen2.5-coder-0.5b"]})
    arm = {"sizes": sizes, "overrides": [], "arm": ["reward.preset=truthrl"]}
    assert effect._cold_key(arm) is arm  # an arm's piece keeps its GRPO sizes in its key
