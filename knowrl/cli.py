"""What every ``knowrl`` job's command line shares: ``--config``/``--set``, ``-v``/``-q``, and errors as one
line + exit 2."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

from knowrl.config import ConfigError
from knowrl.models import MissingExtraError
from knowrl_io.args import Parser, interrupted
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.once import Once

JOB_ERRORS = (ConfigError, MissingExtraError, FileNotFoundError, ValueError)


def config_parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    parser = Parser(prog=prog, description=(doc or "").split("\n\n")[0])
    parser.add_argument("--config", required=True, type=Path, action=Once)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key")
    return add_verbosity(parser)


def run_job(
    args: argparse.Namespace,
    job: Callable[[], dict[str, Any] | None],
    kept: str = "what it wrote before the interrupt is kept",
) -> int:
    """Run ``job`` with logging at ``args.log_level``; print its summary as JSON (when it returns one), or the
    error and exit 2; an interrupt (Ctrl-C) is one line saying what is ``kept``, exit 130, never a traceback or
    exit 0 (hostile pass 43)."""
    setup_logging(args.log_level)
    try:
        summary = job()
    except JOB_ERRORS as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return interrupted(kept)
    if summary is not None:
        print(json.dumps(summary, indent=2))
    return 0
