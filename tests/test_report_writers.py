"""Output ownership for the writers the hostile passes had not reached (issue #74, point 2): ``knowrl.merge``
wrote a merged model into any folder, the adapter's own among them, and ``knowrl.task_eval`` wrote its reports over
any file of their names; both now check as ``knowrl.evaluate`` does (``knowrl_io.job_output``)."""

from __future__ import annotations

from pathlib import Path

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
