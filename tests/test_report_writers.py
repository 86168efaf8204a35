"""Output ownership for the writers the hostile passes had not reached (issue #74, point 2): ``knowrl.merge``
wrote a merged model into any folder, the adapter's own among them, and ``knowrl.task_eval`` wrote its reports over
any file of their names; both now check as ``knowrl.evaluate`` does (``knowrl_io.job_output``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowrl.merge import out_problem
from knowrl_io.job_output import reports_problem


def test_merge_never_writes_into_the_adapter_or_base_folder(tmp_path: Path) -> None:
    adapter, base = tmp_path / "adapter", tmp_path / "base"
    for folder in (adapter, base):
        folder.mkdir()
        (folder / "config.json").write_text("{}")
    assert "--adapter folder" in out_problem(str(base), str(adapter), adapter, overwrite=True)
    assert "--adapter folder" in out_problem(str(base), str(adapter), adapter / "merged", overwrite=True)
    assert "--base folder" in out_problem(str(base), str(adapter), base, overwrite=True)
    assert "folder" in out_problem(str(base), str(adapter), tmp_path, overwrite=True)  # holds them both
    assert out_problem("tiny", str(adapter), tmp_path / "merged", overwrite=False) is None
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    assert "not empty" in out_problem("tiny", str(adapter), tmp_path / "full", overwrite=False)
    assert out_problem("tiny", str(adapter), tmp_path / "full", overwrite=True) is None
    (tmp_path / "a-file").write_text("x")
    assert "is a file" in out_problem("tiny", str(adapter), tmp_path / "a-file", overwrite=True)


def test_an_evaluation_s_reports_replace_nothing_they_do_not_own(tmp_path: Path) -> None:
    config = tmp_path / "cfg.yaml"
    config.write_text("task: gsm8k\n")
    names = ("report.json", "report.md")
    assert reports_problem(tmp_path / "out", names, [config], "knowrl.task_eval", False) is None
    (tmp_path / "out").mkdir(exist_ok=True)
    (tmp_path / "out" / "report.md").write_text("an earlier run's\n")
    assert "pass --overwrite" in reports_problem(tmp_path / "out", names, [config], "knowrl.task_eval", False)
    assert reports_problem(tmp_path / "out", names, [config], "knowrl.task_eval", True) is None
    assert "input file" in reports_problem(tmp_path, ("cfg.yaml",), [config], "knowrl.task_eval", True)


def _writer(page: Path) -> str | None:
    """The bench script a committed results page says wrote it (its command or "Written by" line)."""
    import re

    head = "".join(page.read_text().splitlines(keepends=True)[:6])
    found = re.search(r"python\s+(?:-m\s+bench\.|bench/)(\w+)|Written by `bench/(\w+)\.py`", head)
    return (found[1] or found[2]) if found else None


RESULTS = Path(__file__).resolve().parents[1] / "bench" / "results"


@pytest.mark.parametrize("page", sorted(RESULTS.glob("*.md")), ids=lambda p: p.name)
def test_every_committed_results_page_is_its_script_s_own(page: Path) -> None:
    """Rerunning a bench script onto its committed page is accepted (the landing review found two scripts whose
    folder-valued --out refused every run): a page that names its script is that script's own."""
    import argparse

    from knowrl_io.job_output import check_results

    script = _writer(page)
    if script is None or script == "results_index":
        pytest.skip(f"{page.name}: written by hand or by another job, not a bench script's --out")
    check_results(argparse.Namespace(out=page), str(RESULTS.parent / f"{script}.py"))
