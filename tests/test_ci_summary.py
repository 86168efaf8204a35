"""The CI summary counts what pytest ran, from its own JUnit XML (README's CI figure cites the file)."""

from __future__ import annotations

import subprocess
import sys

from bench.ci_summary import counts, main

SUITE = """
import pytest

def test_one(): pass
def test_two(): pass
def test_broken(): assert 1 == 2
@pytest.mark.skip(reason="not here")
def test_skipped(): pass
"""


def _junit(tmp_path):
    (tmp_path / "test_x.py").write_text(SUITE)
    junit = tmp_path / "junit.xml"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-c",
            "/dev/null",
            "--rootdir",
            str(tmp_path),
            f"--junitxml={junit}",
            str(tmp_path / "test_x.py"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    return junit


def test_counts_read_passes_failures_and_skips(tmp_path):
    c = counts(_junit(tmp_path))
    assert (c["tests"], c["passed"], c["failures"], c["skipped"], c["errors"]) == (4, 2, 1, 1, 0)
    assert c["failed"] == ["test_x::test_broken"]


def test_the_summary_states_the_exit_code_the_counts_and_the_failed_test(tmp_path):
    out = tmp_path / "ci.md"
    assert (
        main([str(_junit(tmp_path)), "--install-s", "300", "--total-s", "1200", "--exit-code", "1", "--out", str(out)])
        == 0
    )
    text = out.read_text()
    assert "| 1 | 2 | 1 | 0 | 1 |" in text and "20.0 min" in text and "5.0 min" in text
    assert "`test_x::test_broken`" in text and "at commit " in text


def test_no_junit_file_is_an_error_not_an_empty_summary(tmp_path):
    out = tmp_path / "ci.md"
    assert (
        main([str(tmp_path / "none.xml"), "--install-s", "1", "--total-s", "2", "--exit-code", "2", "--out", str(out)])
        == 2
    )
    assert not out.exists()
