"""The CI run's summary, written by ``.ci/run`` from pytest's JUnit XML: what README's CI figure cites.

    python bench/ci_summary.py JUNIT.xml --install-s 290 --total-s 1040 --exit-code 0 --out bench/results/ci.md

A figure typed by hand into the README cannot be checked; this file is the run's own account (commit, counts,
durations), so a reader compares the README's sentence with it, and a new fresh-clone run replaces it.
"""

from __future__ import annotations

import datetime
import os
import platform
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from knowrl_io.args import Parser, seconds  # noqa: E402
from knowrl_io.job_output import check_results  # noqa: E402


class JUnitError(ValueError):
    """The JUnit file is not a run's account: cut short, empty, another page, or no test in it."""


def counts(junit: Path) -> dict[str, Any]:
    """Tests, failures, errors and skips over every suite in a JUnit XML file, and pytest's own time. A file
    that is not one run's account raises ``JUnitError`` naming it: a cut or empty file was an XML traceback, and an
    HTML error page or an empty ``<testsuites/>`` wrote a CI page of 0 tests passed, exit 0 (hostile pass 55)."""
    try:
        root = ET.parse(junit).getroot()
    except ET.ParseError as exc:
        raise JUnitError(f"{junit}: not JUnit XML (cut short or empty? {exc})") from None
    if root.tag not in ("testsuite", "testsuites"):
        raise JUnitError(f"{junit}: not JUnit XML (its root is <{root.tag}>, not <testsuites> or <testsuite>)")
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time_s": 0.0}
    for suite in suites:
        try:
            for key in ("tests", "failures", "errors", "skipped"):
                total[key] += int(suite.get(key, 0))
            total["time_s"] += float(suite.get("time", 0.0))
        except ValueError as exc:
            raise JUnitError(f"{junit}: a <testsuite> has a count that is not a number ({exc})") from None
    if total["tests"] < 1:
        raise JUnitError(f"{junit}: no test in it (the run collected nothing, or was stopped before its first test)")
    total["passed"] = total["tests"] - total["failures"] - total["errors"] - total["skipped"]
    failed = [
        f"{case.get('classname', '')}::{case.get('name', '')}"
        for case in root.iter("testcase")
        if case.find("failure") is not None or case.find("error") is not None
    ]
    return total | {"failed": failed}


def render(c: dict[str, Any], install_s: float, total_s: float, exit_code: int, at: str) -> str:
    lines = [
        "# CI: the last fresh-clone run of `.ci/run`",
        "",
        f"Command: `.ci/run` at commit {at} ({datetime.date.today().isoformat()}; {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}). Written by `bench/ci_summary.py` at the run's "
        "end; README's CI figure cites this file.",
        "",
        "| exit code | passed | failed | errors | skipped | tests (pytest's time) | install | whole run |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {exit_code} | {c['passed']:,} | {c['failures']} | {c['errors']} | {c['skipped']} | "
        f"{c['time_s'] / 60:.1f} min | {install_s / 60:.1f} min | {total_s / 60:.1f} min |",
    ]
    if c["failed"]:
        lines += ["", "Failed:", ""] + [f"- `{name}`" for name in c["failed"]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("junit", type=Path)
    parser.add_argument("--install-s", type=seconds, required=True, help="seconds from the start to the tests")
    parser.add_argument("--total-s", type=seconds, required=True, help="seconds of the whole run")
    parser.add_argument("--exit-code", type=int, required=True, help="the test command's exit code")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "ci.md")
    args = parser.parse_args(argv)
    if args.install_s > args.total_s:  # the install is part of the whole run (hostile pass 64: a page said 1.7 in 0.2)
        parser.error(f"--install-s {args.install_s:g} is longer than --total-s {args.total_s:g}, the run it is part of")
    check_results(args, __file__)  # never an input or someone's file (hostile pass 52)
    if not args.junit.is_file():
        print(f"{args.junit}: no JUnit XML (the tests did not get to run)", file=sys.stderr)
        return 2
    from knowrl_io import provenance  # HEAD, '+changes' when the tree differs from it

    try:
        found = counts(args.junit)
    except (JUnitError, OSError) as exc:
        print(exc, file=sys.stderr)
        return 2
    if found["time_s"] > args.total_s:
        print(
            f"{args.junit}: its tests took {found['time_s']:g} s, longer than --total-s {args.total_s:g}",
            file=sys.stderr,
        )
        return 2
    text = render(found, args.install_s, args.total_s, args.exit_code, provenance.commit(ROOT))
    args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
