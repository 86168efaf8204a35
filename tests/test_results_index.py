"""bench/results_index.py against real git history: a results file is stale when a commit after the one it states
changes the code it measures (and only that code), and ``--check`` fails a file whose commit is missing or dirty."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "results_index.py"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def _load():
    spec = importlib.util.spec_from_file_location("results_index_under_test", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


index = _load()


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV, "HOME": str(repo)}  # no user or global config reaches the test repository
    return subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True).stdout.strip()


def commit(repo: Path, message: str, files: dict[str, str]) -> str:
    """Write ``files`` (repository path -> text), commit them, return the short commit."""
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "--short", "HEAD")


@pytest.fixture
def repo(tmp_path, monkeypatch):
    for key, value in GIT_ENV.items():  # the module's own git calls (log, show) run in the same repository
        monkeypatch.setenv(key, value)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "bench" / "results").mkdir(parents=True)
    return repo


def results_md(measured: str) -> str:
    return f"# Speed\n\nCommand: `python bench/speed.py --set configs/speed.yaml` at commit {measured} (3 s).\n"


CODE = {"speed.md": ("bench/speed.py", "pkg/")}


def test_a_later_commit_to_the_measured_code_makes_the_file_stale_and_other_code_does_not(repo):
    code = {
        "bench/speed.py": "print(1)\n",
        "pkg/a.py": "A = 1\n",
        "other/b.py": "B = 1\n",
        "configs/speed.yaml": "x: 1\n",
    }
    measured = commit(repo, "code", code)
    commit(repo, "results", {"bench/results/speed.md": results_md(measured)})
    (entry,) = index.entries(repo, CODE, {})
    assert entry.measured == measured and not entry.problem
    assert entry.since == []  # committing the results file itself changes no measured code
    assert entry.code == ["bench/speed.py", "pkg/", "configs/speed.yaml"]  # the config its command names is added

    commit(repo, "unrelated code", {"other/b.py": "B = 2\n"})
    (entry,) = index.entries(repo, CODE, {})
    assert entry.since == []
    assert "| current |" in index.index(repo, CODE, {})

    later = commit(repo, "pkg: change A", {"pkg/a.py": "A = 2\n"})
    commit(repo, "config: change x", {"configs/speed.yaml": "x: 2\n"})
    (entry,) = index.entries(repo, CODE, {})
    assert [line.split()[0] for line in entry.since] == [later, git(repo, "rev-parse", "--short", "HEAD")]
    assert entry.since[0] == f"{later} pkg: change A"  # oldest first
    text = index.index(repo, CODE, {})
    assert f"**stale**: 2 commits since (first {later})" in text
    assert f"- speed.md (at {measured}): 2 later commits change its code; the first: {later} pkg: change A" in text
    assert index.check(repo, CODE, {}) == 0  # stale is allowed


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        ("{c}+changes", "the working tree differed from that commit"),
        (None, "states no commit"),
    ],
)
def test_check_fails_a_file_without_a_clean_commit(repo, capsys, header, reason):
    measured = commit(repo, "code", {"bench/speed.py": "print(1)\n", "pkg/a.py": "A = 1\n"})
    text = results_md(header.format(c=measured)) if header else "# Speed\n\nCommand: `python bench/speed.py`.\n"
    commit(repo, "results", {"bench/results/speed.md": text})
    assert index.check(repo, CODE, {}) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [next(line for line in out if line.startswith("bench/results/speed.md: "))]
    assert reason in out[0]
    (entry,) = index.entries(repo, CODE, {})
    assert entry.unclean and entry.since is None
    assert "**no clean commit**" in index.index(repo, CODE, {})


def test_check_fails_a_commit_outside_this_history_and_a_file_with_no_declared_code(repo, capsys):
    commit(repo, "code", {"bench/speed.py": "print(1)\n"})
    head = git(repo, "rev-parse", "--short", "HEAD")
    commit(
        repo, "results", {"bench/results/speed.md": results_md("1234567"), "bench/results/other.md": results_md(head)}
    )
    assert index.check(repo, CODE, {}) == 1
    out = capsys.readouterr().out
    assert "bench/results/speed.md: commit 1234567 is not in this checkout's history" in out
    assert "bench/results/other.md: no code declared for other.md" in out


def run_script(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **GIT_ENV, "OMP_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(repo), *args], capture_output=True, text=True, env=env
    )


def test_the_command_line_with_the_shipped_map_and_a_data_file_inheriting_its_run(repo):
    """retrieval.md measures bench/retrieval_quality.py and retrieval/ (``CODE``); retrieval.png takes the commit
    of retrieval.md as committed with it."""
    measured = commit(repo, "code", {"bench/retrieval_quality.py": "print(1)\n", "retrieval/kb.py": "K = 1\n"})
    md = f"# Retrieval\n\nGenerated by `python bench/retrieval_quality.py` at commit {measured}.\n"
    commit(repo, "results", {"bench/results/retrieval.md": md, "bench/results/retrieval.png": "png"})
    got = run_script(repo, "--check")
    assert got.returncode == 0, got.stdout + got.stderr
    assert "0 of 2 results files without a clean commit; 0 stale" in got.stderr

    commit(repo, "docs only", {"README.md": "readme\n"})
    later = commit(repo, "kb: change", {"retrieval/kb.py": "K = 2\n"})
    assert run_script(repo).returncode == 0
    readme = (repo / "bench" / "results" / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| [retrieval.png]"))
    assert f"{measured} (from retrieval.md at " in row and f"(first {later})" in row

    # a rerun from a dirty tree, committed with its plot: both fail, one line each
    dirty = md.replace(measured, measured + "+changes")
    commit(repo, "rerun", {"bench/results/retrieval.md": dirty, "bench/results/retrieval.png": "png2"})
    got = run_script(repo, "--check")
    assert got.returncode == 1
    assert got.stdout.splitlines() == [
        f"bench/results/retrieval.md: measured at {measured}+changes: the working tree differed from that commit",
        f"bench/results/retrieval.png: measured at {measured}+changes: the working tree differed from that commit"
        f" (retrieval.md at {git(repo, 'rev-parse', '--short', 'HEAD')})",
    ]


def test_every_results_file_in_this_repository_has_its_code_or_its_run_declared():
    results = ROOT / "bench" / "results"
    for path in results.iterdir():
        if path.name == "README.md" or not path.is_file():
            continue
        if path.suffix == ".md":
            assert index.declared(path.name, index.CODE), f"{path.name}: add it to CODE in bench/results_index.py"
        else:
            assert index.DATA_OF.get(path.name), f"{path.name}: add it to DATA_OF in bench/results_index.py"
    for paths in index.CODE.values():
        missing = [p for p in paths if not (ROOT / p).exists()]
        assert not missing, missing
