"""The study's finished pieces, kept in the repository (``bench/results/effect-pieces/<config>/``, gzip).

A piece is up to an hour of CPU and the machine a session runs on may not outlive the session: ``--work`` alone
lost a finished arm once. So each piece bench/effect.py finishes (a seed's cold start, an arm's run) is copied
here with what a report or a later arm reads (evaluations, data, the SFT adapter; never merged weights, which
are re-made from the adapter), and a run restores kept pieces into its ``--work`` before it starts. Paths inside
a kept piece are stored relative to the work folder, so it restores into any ``--work``.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from knowrl_io.atomic_write import write_atomically

WORK = "{work}"  # stands for the work folder inside kept JSON files
SHARED = ("base.eval.json", "base_samples.json")  # one per work folder: the base policy, the same for every seed
COLD = (
    "cold_start.json",
    "after_sft.eval.json",
    "train_sft.eval.json",
    "train_sft_sampled.eval.json",
    "majority.eval.json",
    "data",
    "sft/final",  # the adapter and the tokenizer it was trained with
)
ARM = ("effect.json", "after_grpo.eval.json", "train_grpo.eval.json", "rewards.jsonl")  # the log: trap share
TEXT = (".json", ".jsonl", ".md", ".txt")
SKIP = frozenset({"README.md", "training_args.bin"})  # the trainer's card and pickled arguments: not the piece


def _files(folder: Path, names: tuple[str, ...]) -> list[Path]:
    """The kept names that exist under ``folder`` (a name may be a folder: its files, not recursing)."""
    out: list[Path] = []
    for name in names:
        path = folder / name
        if path.is_dir():
            out += sorted(p for p in path.iterdir() if p.is_file() and p.name not in SKIP)
        elif path.is_file():
            out.append(path)
    return out


def _copy_in(src: Path, dst: Path, work: Path) -> None:
    """``src`` (under work) -> ``dst`` in the keep folder: text with the work path made relative, gzip."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    data = src.read_bytes()
    if src.suffix in TEXT:
        data = data.decode().replace(str(work), WORK).encode()
    write_atomically(dst.with_name(dst.name + ".gz"), gzip.compress(data, mtime=0))  # the same piece, same bytes


def _copy_out(src: Path, dst: Path, work: Path) -> None:
    """A kept ``.gz`` file back into work, the work path put back into text."""
    data = gzip.decompress(src.read_bytes())
    if dst.suffix in TEXT:
        data = data.decode().replace(WORK, str(work)).encode()
    dst.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(dst, data)


def keep(work: Path, keep_dir: Path, seed: int, arm: str | None) -> None:
    """Copy one finished piece (and the work folder's shared files, once) into ``keep_dir``."""
    folder = Path(f"seed{seed}") / (arm or "")
    names = ARM if arm else COLD
    for src in _files(work / folder, names) + _files(work, SHARED):
        dst = keep_dir / src.relative_to(work)
        if not dst.with_name(dst.name + ".gz").exists() or src.name in ("effect.json", "cold_start.json"):
            _copy_in(src, dst, work)


def restore(work: Path, keep_dir: Path) -> list[str]:
    """Every kept file missing from ``work``, restored; the pieces restored (``seed0``, ``seed0/knowrl``)."""
    if not keep_dir.is_dir():
        return []
    restored: set[str] = set()
    for src in sorted(keep_dir.rglob("*.gz")):
        rel = src.relative_to(keep_dir).with_suffix("")
        dst = work / rel
        if dst.exists():
            continue
        _copy_out(src, dst, work)
        if (dst.name, len(rel.parts)) in (("cold_start.json", 2), ("effect.json", 3)):  # seed0/, seed0/arm/
            restored.add(str(rel.parent))
    return sorted(restored)


def remerge(cold: dict, base: str) -> None:
    """A restored cold start's merged SFT policy, re-made from its kept adapter (merged weights are not kept)."""
    policy = Path(cold["policy"])
    if policy.exists():
        return
    from knowrl.merge import merge

    merge(base, str(policy.parent / "sft" / "final"), policy)
