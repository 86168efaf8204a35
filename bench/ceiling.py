"""What each policy that ships offline knows of the effect study's held-out set, before any training.

    python bench/ceiling.py [--models smollm2 qwen2.5-coder-0.5b qwen2.5-coder-1.5b] [--heldout N]

The effect study (bench/effect.py) can only show selective abstention on questions the policy can answer:
a policy that knows nothing has nothing to keep answering. This asks each model the held-out questions
k = 4 times at T 0.9 (the knowledge-boundary probe: a few-shot bare-answer prompt), grades the answers with
the strict evaluation grader, and reports how many it knows and the F a perfectly selective policy would
reach, per model and per question template, with each probe's time measured in this run (what a bigger
policy would cost the study here). Writes ``bench/results/ceiling.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the project's packages, not bench's modules
from knowrl_io.job_output import check_results  # noqa: E402
from knowrl_io.work_folder import claim_work  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "ceiling.md"
MODELS = ("smollm2", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b")


def parameters(model_dir: str) -> int:
    """Parameters in a safetensors model folder, read from the tensors' shapes (nothing loaded)."""
    from safetensors import safe_open

    total = 0
    for f in sorted(Path(model_dir).glob("*.safetensors")):
        with safe_open(str(f), framework="pt") as st:
            for name in st.keys():
                n = 1
                for d in st.get_slice(name).get_shape():
                    n *= d
                total += n
    return total


def measure(models: list[str], heldout: int | None, work: Path, k: int = 4) -> dict[str, Any]:
    """Per model: its held-out knowledge (``knowrl.effect.boundary.heldout_knowledge``), parameters and probe time."""
    from knowrl.effect.boundary import heldout_knowledge
    from knowrl.effect.demo_data import heldout_set
    from knowrl.models import resolve_model_path

    held, _, _ = heldout_set(heldout)
    rows = [i.rl_row() for i in held]
    out: dict[str, Any] = {"rows": len(rows), "models": {}}
    for name in models:
        path = resolve_model_path(name)
        start = time.perf_counter()
        known = heldout_knowledge(rows, path, work / "boundary", k)
        out["models"][name] = {**known, "parameters": parameters(path), "probe_s": time.perf_counter() - start}
        print(f"{name}: right in >= half on {known['right_half']} of {known['answerable']}", flush=True)
    return out


def report(result: dict[str, Any], command: str) -> str:
    models = result["models"]
    first = next(iter(models.values()))
    threads = os.environ.get("OMP_NUM_THREADS", "unset")
    lines = [
        "# What each policy that ships offline knows of the held-out set, before any training",
        "",
        f"Command: `{command}` ({platform.machine()}, {os.cpu_count()} cores, OMP_NUM_THREADS={threads}; "
        f"{sum(m['probe_s'] for m in models.values()) / 60:.1f} min of probes). The effect study's held-out set "
        f"({result['rows']} questions, {first['answerable']} answerable); each model answers each answerable "
        f"question {first['k']} times at T 0.9 (few-shot bare answers: the knowledge-boundary probe), graded by "
        "the strict evaluation grader. *Known* = right in at least half of the answers; the F ceiling is the "
        "SimpleQA F of a policy that answers exactly the known questions and abstains on the rest: about the "
        "most any reward can lift F to with that model.",
        "",
        "| model | parameters | known (>= half right) | right at least once | F ceiling | probe time | vs first |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    base_s = first["probe_s"]
    for name, m in models.items():
        lines.append(
            f"| {name} | {m['parameters'] / 1e6:.0f} M | {m['right_half']} of {m['answerable']} "
            f"({m['right_half'] / m['answerable']:.1%}) | {m['right_any']} | {m['f_ceiling']:.3f} | "
            f"{m['probe_s'] / 60:.1f} min | {m['probe_s'] / base_s:.1f}x |"
        )
    templates = sorted({t for m in models.values() for t in m["by_template"]})
    lines += [
        "",
        "## By template: known / right at least once, of those asked",
        "",
        "| template | asked | " + " | ".join(models) + " |",
        "|---|---:|" + "---:|" * len(models),
    ]
    for t in templates:
        asked = first["by_template"].get(t, [0])[0]
        cells = [
            f"{m['by_template'].get(t, [0, 0, 0])[1]} / {m['by_template'].get(t, [0, 0, 0])[2]}"
            for m in models.values()
        ]
        lines.append(f"| {t} | {asked} | " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=list(MODELS))
    parser.add_argument("--heldout", type=int, help="first N held-out questions only (default: all)")
    parser.add_argument(
        "--work",
        type=Path,
        help="keep the probes here: a folder it marks (knowrl-work.txt), never one of other files (default: a fresh "
        "temporary folder)",
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    check_results(args, __file__)  # never an input or someone's file (hostile pass 52)
    if args.work is not None:
        claim_work(args, __file__)  # its own folder: never one of someone's files (hostile pass 59)
    command = "python bench/ceiling.py " + " ".join(argv if argv is not None else sys.argv[1:])
    with tempfile.TemporaryDirectory() as tmp:
        result = measure(args.models, args.heldout, args.work or Path(tmp))
    args.out.write_text(report(result, command.strip()))
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
