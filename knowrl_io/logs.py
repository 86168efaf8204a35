"""Logging for the command lines: ``-v``/``-q`` and one handler on stderr.

Library code only creates loggers (``logging.getLogger(__name__)``, so every module logs
under its package's logger: ``retrieval``, ``reward_engine``, ``knowrl``); a command line
decides what is shown. tqdm keeps drawing progress bars.
"""

from __future__ import annotations

import argparse
import logging

PACKAGES = ("knowrl", "knowrl_io", "retrieval", "reward_engine")


def add_verbosity(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``-v`` (debug) and ``-q`` (errors only) on a command line; the default shows info."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "-v", "--verbose", action="store_const", const=logging.DEBUG, dest="log_level", help="debug messages too"
    )
    group.add_argument("-q", "--quiet", action="store_const", const=logging.ERROR, dest="log_level", help="errors only")
    parser.set_defaults(log_level=logging.INFO)
    return parser


def setup_logging(level: int = logging.INFO) -> None:
    """One stderr handler for the project's packages at ``level`` (idempotent; third-party loggers untouched).

    >>> setup_logging(logging.WARNING); logging.getLogger("reward_engine").level == logging.WARNING
    True
    """
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    for name in PACKAGES:
        logger = logging.getLogger(name)
        logger.setLevel(level)
        logger.handlers = [h for h in logger.handlers if not getattr(h, "_knowrl", False)]
        handler._knowrl = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
