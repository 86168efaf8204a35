"""A command-line file flag given twice is refused (hostile pass 17): argparse keeps the last value silently, so
``score --input a.jsonl --input b.jsonl`` scored b.jsonl only, exit 0, and a.jsonl's rows were never read."""

from __future__ import annotations

import argparse
from typing import Any, Sequence


class Once(argparse.Action):
    """``action=Once``: the flag's value, and a usage error (exit 2) when the flag comes a second time."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        if getattr(namespace, self.dest, None) not in (None, self.default):
            parser.error(
                f"{option_string} given twice ({getattr(namespace, self.dest)} and {values}): one per run "
                "(run the job once for each, or join the files first)"
            )
        setattr(namespace, self.dest, values)
