"""Test helpers: a small hand-written corpus (our own text, no licensed data), a judge server's stats."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

# The hand-written facts of configs/data/smoke_kb.jsonl (the smoke config's KB and the red team's):
# one copy, read here for the tests and by bench/real_judge.py.
SMOKE_KB = Path(__file__).resolve().parents[1] / "configs" / "data" / "smoke_kb.jsonl"
CORPUS = [(row["title"], row["text"]) for row in map(json.loads, SMOKE_KB.read_text(encoding="utf-8").splitlines())]


# a reward config that needs no judge and no KB: the offline grader and no fact term
OFFLINE = {"grader": "offline", "factuality": {"enabled": False}}


def write_offline_config(path: Path, **more: object) -> Path:
    """``OFFLINE`` (with ``more`` keys: a preset, semantics) written as a config file the CLIs read."""
    path.write_text(json.dumps({**more, **OFFLINE}), encoding="utf-8")
    return path


def write_jsonl(path: Path, rows: list[dict] | None = None) -> Path:
    rows = rows if rows is not None else [{"title": t, "text": x} for t, x in CORPUS]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def score_command(src: Path | str, out: Path | str, config: Path | str | None = None, *extra: object) -> list[str]:
    """``python -m reward_engine.score`` on ``src`` into ``out`` (``--config`` when given, no progress bar)."""
    cmd = [sys.executable, "-m", "reward_engine.score", "--input", str(src), "--output", str(out)]
    if config is not None:
        cmd += ["--config", str(config)]
    return cmd + ["--no-progress", *map(str, extra)]


async def server_stats(server) -> dict:
    """The test judge server's /stats, over real HTTP."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.get(server.url.replace("/v1", "/stats")) as resp:
            return await resp.json()


def hanging_check(predicted: str, gold: str, timeout_s: int) -> bool:
    """A verifier that never returns for the answer 'hang' (for the pool's timeout tests)."""
    import time

    if predicted == "hang":
        time.sleep(3600)
    return predicted.strip() == gold.strip()


def hanging_scorer(task: str, answer, entry_json: str) -> float:
    """A reasoning-gym scorer that never returns for the answer 'hang'."""
    import time

    if answer == "hang":
        time.sleep(3600)
    from knowrl.tasks.rg_reward import score_entry

    return score_entry(task, answer, entry_json)


@contextmanager
def busy_cores(n: int) -> Iterator[None]:
    """``n`` processes spinning on the CPU for the duration (a training step's load), killed on exit."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def grade_table(cases: list[tuple[str, str, str, object]]):  # noqa: ANN201 - a pytest test function
    """One test over a hostile pass's table of (answer, question, gold, label): each row graded offline."""
    import pytest

    from reward_engine.offline.grader import grade

    @pytest.mark.parametrize(("answer", "question", "gold", "label"), cases)
    def test(answer: str, question: str, gold: str, label: object) -> None:
        assert grade(answer, gold, question) is label

    return test


def post(url: str, body: dict, timeout_s: float = 120) -> tuple[int, dict]:
    """POST ``body`` as JSON to a server under test: (status, the JSON reply), an HTTP error's body included."""
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


REPO = Path(__file__).resolve().parents[1]
JOB_ENV = dict(os.environ, PYTHONPATH=str(REPO), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")


def run_job(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """``python *args`` in the repository, offline, one thread; a job still running at ``timeout`` is exit 124 (it
    took the folder it was told not to)."""
    try:
        return subprocess.run(
            [sys.executable, *args], cwd=REPO, env=JOB_ENV, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, 124, "", "")


def one_error_line(done: subprocess.CompletedProcess, flag: str) -> str:
    """The job exited 2 with one error line naming ``flag`` and no traceback; that line."""
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if "error" in line]
    assert len(lines) == 1 and flag in lines[0], done.stderr
    return lines[0]


def tree_hashes(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` by its path and SHA-256: what a job must leave as it was."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


def jsonl(path: Path, rows: list[dict]) -> Path:
    """``rows`` written to ``path`` as JSON lines (a build input, a score input)."""
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def documents(db: Path) -> dict[str, str]:
    """A KB's documents, title to text: what a build kept."""
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT title, text FROM documents"))


def digest(path: Path) -> str:
    """A file's SHA-256: whether a job left it as it was."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


Table = list[tuple[str, str, str]]


def grade_tables(wrong: Table, right: Table) -> tuple[Callable[..., None], Callable[..., None]]:
    """The two table tests of a pass or review file: each (answer, gold, question) of ``wrong`` graded INCORRECT,
    each of ``right`` CORRECT. A file binds them to its own ``test_`` names, so each row is its own test."""
    import pytest

    from reward_engine.offline.grader import grade

    @pytest.mark.parametrize(("answer", "gold", "question"), wrong)
    def wrong_is_incorrect(answer: str, gold: str, question: str) -> None:
        assert grade(answer, gold, question).name == "INCORRECT"

    @pytest.mark.parametrize(("answer", "gold", "question"), right)
    def right_is_correct(answer: str, gold: str, question: str) -> None:
        assert grade(answer, gold, question).name == "CORRECT"

    return wrong_is_incorrect, right_is_correct


@contextmanager
def lock_held_elsewhere(lock_file: Path) -> Iterator[None]:
    """``lock_file`` locked (``filelock``) by another process for the block: a run or a build that holds it."""
    hold = f"held = FileLock({str(lock_file)!r}); held.acquire(); print('held', flush=True); time.sleep(120)"
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import time; from filelock import FileLock; {hold}"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield
    finally:
        holder.kill()
        holder.wait()
