"""Probe a policy on every candidate of the effect design and keep the result as a file.

    python -m knowrl.effect.probe_candidates --model smollm2 --k 8 --out configs/data/boundary-smollm2-k8.json \
        --overwrite  # regenerating the kept file: an existing --out is refused without it
    python -m knowrl.effect.probe_candidates --regrade configs/data/boundary-smollm2-k8.json --out regraded.json
    python -m knowrl.effect.probe_candidates --regrade configs/data/boundary-smollm2-k8.json --overwrite  # in place

What ``configs/data/boundary-smollm2-k8.json`` is: the demo and the effect study read it instead of probing
every candidate (8 samples each: a p(right) estimate the reward forecast, ``knowrl.effect.forecast``, can use).
Its own module: it needs the candidates (``knowrl.effect.demo_data``), which need the probe.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Sequence

from knowrl.effect.boundary import probe, write_probe_file
from knowrl_io.args import Parser
from knowrl_io.job_output import OutputError, check_page
from knowrl_io.once import Once


def range_problem(args: Any) -> str | None:
    """A flag out of range, named, before the model loads: ``--k 0`` wrote a probe of no answers that the forecast
    read as every question never right, and ``--temperature -0.5`` sampled the least likely tokens (hostile pass
    55)."""
    if args.k < 1:
        return f"--k must be at least 1 (sampled answers per question), got {args.k}"
    if not 0 < args.temperature < float("inf"):
        return f"--temperature must be above 0 (and finite), got {args.temperature}"
    return None


def cache_problem(cache: Path | None) -> str | None:
    """Why ``--cache`` cannot be the probe cache folder, or None: it must be a folder or not exist yet, under a
    folder (the probe makes it only when it saves its first batch, after the model loaded)."""
    if cache is None:
        return None
    for where in (cache, *cache.parents):
        if where.exists():
            if not where.is_dir():
                return f"--cache {cache}: {where} exists and is not a folder; give a folder for the probe cache"
            return None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Probe a policy on every candidate of the effect design and keep the result as a file (what
    ``configs/data/boundary-smollm2-k8.json`` is: the demo reads it instead of probing for most of an hour)."""
    import time

    from knowrl.effect.demo_data import gradient_items
    from knowrl.models import resolve_model_path
    from knowrl_io.provenance import commit

    parser = Parser(prog="python -m knowrl.effect.probe_candidates", description=main.__doc__)
    parser.add_argument("--model", default="smollm2", action=Once)
    parser.add_argument("--out", type=Path, action=Once)
    parser.add_argument("--overwrite", action="store_true", help="replace an existing --out (e.g. the kept probe)")
    parser.add_argument("--k", type=int, default=8, help="sampled answers per question, at least 1 (default 8)")
    parser.add_argument("--temperature", type=float, default=0.9, help="sampling temperature, above 0 (default 0.9)")
    parser.add_argument("--cache", type=Path, action=Once, help="probe cache folder (default: a temporary one)")
    parser.add_argument(
        "--regrade",
        type=Path,
        action=Once,
        metavar="FILE",
        help="grade a kept probe file's answers again with today's grader, into --out (in place: --overwrite)",
    )
    args = parser.parse_args(argv)
    problem = range_problem(args)
    if problem:
        parser.error(problem)
    if args.regrade is not None:
        if args.out is None and not args.overwrite:  # --out was ignored and the input rewritten (hostile pass 57)
            parser.error(
                f"--regrade {args.regrade}: give --out for the regraded probe, or --overwrite to regrade in place"
            )
        return _regrade(args.regrade, args.out, args.overwrite)
    if args.out is None:
        parser.error("--out is required unless --regrade is given")
    problem = cache_problem(args.cache)
    if problem:  # a FileExistsError traceback after the model loaded and probed (hostile pass 58)
        print(f"error: {problem}", file=sys.stderr)
        return 2
    try:  # before the model loads: a kept probe was replaced without a word, a folder failed after probing (pass 56)
        check_page(args.out, [args.cache], "probe_candidates", None, "the probe", args.overwrite, "--out")
    except OutputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    import tempfile

    started = time.perf_counter()
    rows = [i.rl_row() for i in gradient_items() if i.answerable]
    with tempfile.TemporaryDirectory() as tmp:
        got = probe(
            resolve_model_path(args.model, 0), rows, args.cache or Path(tmp), args.k, args.temperature, 0, batch_size=48
        )
    meta = {
        "model": args.model,
        "k": args.k,
        "temperature": args.temperature,
        "seed": 0,
        "grader": f"reward_engine.offline.grader (the training grader, with the question) at commit {commit()}",
        "questions": len(rows),
        "probe_s": round(time.perf_counter() - started, 1),
        "made_by": f"python -m knowrl.effect.probe_candidates --model {args.model} --k {args.k} --out {args.out}"
        + (" --overwrite" if args.overwrite else ""),
    }
    write_probe_file(args.out, meta, got)
    print(f"{len(got)} questions probed in {meta['probe_s']:.0f} s -> {args.out}")
    return 0


def _regrade(path: Path, out: Path | None, overwrite: bool) -> int:
    """Grade the probe file ``path``'s answers again into ``out`` (None: ``path`` itself, which ``main`` allows only
    with ``overwrite``); the input is never written when ``out`` is given. Exit 2 with one line on a file that is
    not a probe, or an ``--out`` that is not this job's to write."""
    from knowrl.effect.boundary import read_probe_file, regrade
    from knowrl.effect.demo_data import gradient_items
    from knowrl_io.provenance import commit
    from reward_engine.config import ConfigError

    try:
        data = read_probe_file(path)
        if out is not None:
            check_page(out, [path], "probe_candidates", None, "the regraded probe", overwrite, "--out")
    except (ConfigError, OutputError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    got = data.pop("probe")
    changed = regrade(got, [i.rl_row() for i in gradient_items() if i.answerable])
    data["grader"] = f"reward_engine.offline.grader (the training grader, with the question) at commit {commit()}"
    target = out or path
    data["regraded_by"] = (
        f"python -m knowrl.effect.probe_candidates --regrade {path}"
        + (f" --out {out}" if out is not None else "")
        + (" --overwrite" if overwrite else "")
    )
    write_probe_file(target, data, got)
    print(f"{changed} of {len(got)} questions' right counts changed -> {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
