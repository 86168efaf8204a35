"""Fold a LoRA adapter into its base model: ``python -m knowrl.merge --base B --adapter A --out DIR``.

For starting the RL stage from the cold-start SFT result, or serving with vLLM.
"""

from __future__ import annotations

import sys
from pathlib import Path

from knowrl_io.args import Parser
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.once import Once


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
    return out


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m knowrl.merge", description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, action=Once, help="base model path or id ('tiny', 'smollm2' too)")
    parser.add_argument("--adapter", required=True, action=Once)
    parser.add_argument("--out", required=True, action=Once)
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    from knowrl.models import model_inputs_problem

    problem = model_inputs_problem(args.base, args.adapter, "--base")
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    print(merge(args.base, args.adapter, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
