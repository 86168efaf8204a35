"""Fold a LoRA adapter into its base model: ``python -m knowrl.merge --base B --adapter A --out DIR``.

For starting the RL stage from the cold-start SFT result, or serving with vLLM.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

from knowrl_io.args import Parser
from knowrl_io.file_key import file_key
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.once import Once

log = logging.getLogger(__name__)
STAMP = ".knowrl-merge.json"  # in the merged folder, written last: what it was folded from


def merge_inputs(base_path: str, adapter: str) -> dict[str, Any]:
    """What a merge folds: the base's folder and the adapter's, each file by its ``file_key`` (a retrained adapter,
    a rebuilt base: other files, another key). A base that is no local folder (a hub id) is named only."""

    def files(folder: Path) -> dict[str, str]:
        if not folder.is_dir():
            return {}
        return {p.name: file_key(p.stat()) for p in sorted(folder.iterdir()) if p.is_file()}

    base, lora = Path(base_path), Path(adapter)
    return {"base": str(base.resolve()) if base.exists() else base_path, "base_files": files(base)} | {
        "adapter": str(lora.resolve()),
        "adapter_files": files(lora),
    }


def merged_from(out: Path) -> dict[str, Any] | None:
    """The inputs ``out``'s stamp names, None with no readable stamp (an unfinished or a foreign merge)."""
    try:
        data = json.loads((Path(out) / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def merge_current(base: str, adapter: str, out: Path) -> Path:
    """The pipeline's merge into its own ``out`` (``sft-merged``): reused only when its stamp names these very
    inputs, else removed and merged again (a rerun after the SFT data changed loaded the stale merged model)."""
    from knowrl.models import resolve_model_path
    from knowrl_io.paths import remove_path

    out = Path(out)
    if merged_from(out) == merge_inputs(resolve_model_path(base), adapter):
        log.info("%s already holds %s merged into %s; reused", out, adapter, base)
        return out
    if out.exists() or out.is_symlink():
        remove_path(out)
    return merge(base, adapter, out)


def merge(base: str, adapter: str, out: str | Path) -> Path:
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from knowrl.finite import nonfinite
    from knowrl.models import resolve_model_path
    from knowrl_io.model_loading import model_load_lock

    path = resolve_model_path(base)
    with model_load_lock():
        model = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(path), adapter)
    bad = nonfinite((n, p) for n, p in model.named_parameters() if "lora_" in n)
    if bad:  # folded in, NaN reaches every weight it touches: refuse rather than write a broken policy
        raise ValueError(f"{adapter}: {len(bad)} adapter tensors are not finite (first: {bad[0]}); not merging")
    merged = model.merge_and_unload()
    out = Path(out)
    merged.save_pretrained(out)
    tokenizer_source = adapter if (Path(adapter) / "tokenizer_config.json").exists() else path
    AutoTokenizer.from_pretrained(tokenizer_source).save_pretrained(out)
    (out / STAMP).write_text(json.dumps(merge_inputs(path, adapter), indent=1) + "\n", encoding="utf-8")
    return out


def out_problem(base: str, adapter: str, out: Path, overwrite: bool) -> str | None:
    """Why the merged model must not go into ``out``, or None: never the adapter's or the base's folder (nor one
    inside or around them: the merge wrote its weights among the adapter's), a built-in id's folder included
    (``--base tiny`` into tiny's cache folder rewrote the base every later job loads: hostile pass 59), never a
    file, and a folder with files in it only with ``overwrite`` (output ownership, as every job has it:
    ``knowrl_io.job_output``)."""
    from knowrl.model_folder import output_model_problem

    models = [("--adapter", adapter), ("--base", base)]
    problem = output_model_problem(out, "--out", models, fix="merge into another folder")
    if problem:
        return problem
    where = Path(out).resolve()
    if where.exists() and not where.is_dir():
        return f"--out {out} is a file, not a folder; give a folder path"
    if where.is_dir() and any(where.iterdir()) and not overwrite:
        return f"--out {out} exists and is not empty; pass --overwrite to merge into it, or choose another --out"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m knowrl.merge", description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, action=Once, help="base model path or id ('tiny', 'smollm2' too)")
    parser.add_argument("--adapter", required=True, action=Once)
    parser.add_argument("--out", required=True, action=Once)
    parser.add_argument("--overwrite", action="store_true", help="merge into a folder that already holds files")
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    from knowrl.adapters import adapter_base_problem
    from knowrl.models import model_inputs_problem

    problem = (
        model_inputs_problem(args.base, args.adapter, "--base")
        or out_problem(args.base, args.adapter, Path(args.out), args.overwrite)
        or adapter_base_problem(args.adapter, args.base, 0, ("--adapter", "--base"))  # last: may build the base
    )
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    print(merge(args.base, args.adapter, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
