"""Probe a policy on every candidate of the effect design and keep the result as a file.

    python -m knowrl.effect.probe_candidates --model smollm2 --out configs/data/boundary-smollm2.json

What ``configs/data/boundary-smollm2.json`` is: the demo reads it instead of probing 1,061 questions
(~15 min here). Its own module: it needs the candidates (``knowrl.effect.demo_data``), which need the probe.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from knowrl.effect.boundary import probe, write_probe_file


def main(argv: Sequence[str] | None = None) -> int:
    """Probe a policy on every candidate of the effect design and keep the result as a file (what
    ``configs/data/boundary-smollm2.json`` is: the demo reads it instead of probing for ~17 minutes)."""
    import argparse
    import time

    from knowrl.effect.demo_data import gradient_items
    from knowrl.models import resolve_model_path

    parser = argparse.ArgumentParser(prog="python -m knowrl.effect.probe_candidates", description=main.__doc__)
    parser.add_argument("--model", default="smollm2")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--cache", type=Path, help="probe cache folder (default: a temporary one)")
    args = parser.parse_args(argv)
    import tempfile

    started = time.perf_counter()
    rows = [i.rl_row() for i in gradient_items() if i.answerable]
    with tempfile.TemporaryDirectory() as tmp:
        got = probe(resolve_model_path(args.model, 0), rows, args.cache or Path(tmp), 4, 0.9, 0, batch_size=48)
    meta = {
        "model": args.model,
        "k": 4,
        "temperature": 0.9,
        "seed": 0,
        "grader": "reward_engine.offline.grader (the training grader) at probe time",
        "questions": len(rows),
        "probe_s": round(time.perf_counter() - started, 1),
        "made_by": f"python -m knowrl.effect.probe_candidates --model {args.model} --out {args.out}",
    }
    write_probe_file(args.out, meta, got)
    print(f"{len(got)} questions probed in {meta['probe_s']:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
