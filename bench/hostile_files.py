"""Hostile files and invocations (issue #44): each case runs a real CLI in a fresh process on files made for it,
and is checked against what must happen (the rows kept, or one line and exit 2, nothing written where it must
not be). ``bench/hostile.py`` runs them after the hostile rows; ``bench/reliability.py`` writes both tables into
reliability.md.

A case's peak memory is the child's maximum resident set (``RUSAGE_CHILDREN`` of a fresh wrapper process).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOOD = "<think>Paris lies on the river Seine.</think><answer>Paris</answer>"
WRONG = "<think>Paris lies on the river Seine.</think><answer>Lyon</answer>"

# runs argv[1:] and prints the child's peak RSS (MB) on its own last stderr line
WRAPPER = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:])\n"
    "print('peak_mb', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, file=sys.stderr)\n"
    "sys.exit(done.returncode)\n"
)


@dataclass
class Outcome:
    exit: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float

    def first_error(self) -> str:
        lines = [line for line in self.stderr.splitlines() if line.strip() and not line.startswith("peak_mb")]
        return lines[-1] if lines else ""


@dataclass
class Case:
    name: str
    make: Callable[[Path], list[str]]  # builds the files in a fresh folder, returns the command's argv
    check: Callable[[Path, Outcome], tuple[bool, str]]  # (as required?, what happened in a few words)
    env: dict[str, str] | None = None
    size_mb: Callable[[Path], float] | None = None


def row(i: int, **over: object) -> dict:
    base = {"id": i, "question": "What is the capital of France?", "answers": "Paris", "completion": WRONG}
    return {**base, **over}


def jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def out_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def score(tmp: Path, src: Path, out: Path, config: str = "reward.yaml") -> list[str]:
    io = ["--input", str(src), "--output", str(out)]
    return ["-m", "reward_engine.score", *io, "--config", str(tmp / config), "--no-progress"]


def one_line(o: Outcome, *needles: str) -> tuple[bool, str]:
    """A user error: exit 2, no traceback, the line names what it must."""
    line = o.first_error()
    ok = o.exit == 2 and "Traceback" not in o.stderr and all(n in o.stderr for n in needles)
    return ok, f"exit {o.exit}: {line[:110]}"


def rows_back(out: Path, want: int, bad: int = 0) -> Callable[[Path, Outcome], tuple[bool, str]]:
    def check(tmp: Path, o: Outcome) -> tuple[bool, str]:
        got = out_rows(tmp / out)
        n_bad = sum(r["status"] == "bad_input" for r in got)
        ok = o.exit == 0 and len(got) == want and n_bad == bad
        return ok, f"exit {o.exit}: {len(got)} rows out, {n_bad} bad_input"

    return check


def _array_one_line(tmp: Path) -> list[str]:
    (tmp / "in.json").write_text(json.dumps([row(i) for i in range(11)]))
    return score(tmp, tmp / "in.json", tmp / "out.jsonl")


def _list_first_line(tmp: Path) -> list[str]:
    jsonl(tmp / "in.jsonl", ["[1, 2, 3]", *[row(i) for i in range(10)]])
    return score(tmp, tmp / "in.jsonl", tmp / "out.jsonl")


def _input_is_sidecar(tmp: Path) -> list[str]:
    jsonl(tmp / "out.jsonl.job.json", [row(i) for i in range(10)])
    return score(tmp, tmp / "out.jsonl.job.json", tmp / "out.jsonl")


def _sidecar_kept(tmp: Path, o: Outcome) -> tuple[bool, str]:
    kept = len((tmp / "out.jsonl.job.json").read_text().splitlines())
    ok, said = one_line(o)
    return ok and kept == 10, f"{said}; input {kept} of 10 rows"


def _other_input(tmp: Path) -> list[str]:
    jsonl(tmp / "a.jsonl", [row(i) for i in range(10)])
    subprocess.run([sys.executable, *score(tmp, tmp / "a.jsonl", tmp / "out.jsonl")], capture_output=True, cwd=ROOT)
    jsonl(tmp / "b.jsonl", [row(i, completion=GOOD) for i in range(2)])
    return score(tmp, tmp / "b.jsonl", tmp / "out.jsonl")


def _other_input_kept(tmp: Path, o: Outcome) -> tuple[bool, str]:
    kept = len(out_rows(tmp / "out.jsonl"))
    ok, said = one_line(o)
    return ok and kept == 10, f"{said}; earlier output {kept} of 10 rows"


def _golds(tmp: Path) -> list[str]:
    rows = [row(0, answers=[2], completion="<think>Two.</think><answer>2</answer>"), row(1, answers=["", " "])]
    jsonl(tmp / "in.jsonl", [*rows, row(2)])
    return score(tmp, tmp / "in.jsonl", tmp / "out.jsonl")


def _golds_check(tmp: Path, o: Outcome) -> tuple[bool, str]:
    got = out_rows(tmp / "out.jsonl")
    labels = [r["label"] or r["status"] for r in got]
    return o.exit == 0 and labels == ["CORRECT", "bad_input", "INCORRECT"], f"exit {o.exit}: {', '.join(labels)}"


def _fifo_output(tmp: Path) -> list[str]:
    jsonl(tmp / "in.jsonl", [row(0)])
    os.mkfifo(tmp / "out.jsonl")
    return score(tmp, tmp / "in.jsonl", tmp / "out.jsonl")


def _hash_in_kb_path(tmp: Path) -> list[str]:
    os.link(tmp / "smoke.db", tmp / "kb#1.db")
    (tmp / "hash.yaml").write_text("factuality: {kb_path: 'kb#1.db', retrieval_mode: bm25}\n")
    jsonl(tmp / "in.jsonl", [row(0)])
    return ["-m", "reward_engine.score", "--input", "in.jsonl", "--output", "out.jsonl", "--config", "hash.yaml"]


def _hash_check(tmp: Path, o: Outcome) -> tuple[bool, str]:
    got = out_rows(tmp / "out.jsonl")
    stray = (tmp / "kb").exists()
    ok = o.exit == 0 and [r["status"] for r in got] == ["ok"] and not stray
    return ok, f"exit {o.exit}: {len(got)} row scored; stray file `kb` {'created' if stray else 'not created'}"


def _config(text: bytes) -> Callable[[Path], list[str]]:
    def make(tmp: Path) -> list[str]:
        (tmp / "bad.yaml").write_bytes(text)
        jsonl(tmp / "in.jsonl", [row(0)])
        return score(tmp, tmp / "in.jsonl", tmp / "out.jsonl", config="bad.yaml")

    return make


def _deep_set(tmp: Path) -> list[str]:
    return ["-m", "knowrl.train", "--config", str(ROOT / "configs" / "demo.yaml"), "--set", "x=" + "[" * 3000]


def _build_empty_array(tmp: Path) -> list[str]:
    (tmp / "docs.jsonl").write_text("[]\n")
    return ["-m", "retrieval.build", "--input", str(tmp / "docs.jsonl"), "--db", str(tmp / "new.db"), "--no-dense"]


def _from_db_existing(tmp: Path) -> list[str]:
    (tmp / "notes.txt").write_text("my notes\n")
    return ["-m", "retrieval.build", "--from-db", str(tmp / "smoke.db"), "--db", str(tmp / "notes.txt"), "--no-dense"]


def _notes_kept(tmp: Path, o: Outcome) -> tuple[bool, str]:
    kept = (tmp / "notes.txt").read_text() == "my notes\n"
    ok, said = one_line(o)
    return ok and kept, f"{said}; the file {'kept' if kept else 'OVERWRITTEN'}"


def _search_dir(tmp: Path) -> list[str]:
    return ["-m", "retrieval.search", "--db", str(tmp), "--query", "Paris"]


def _port(tmp: Path) -> list[str]:
    return ["-m", "judges.local", "--model", "smollm2", "--port", "99999"]


def _cache_is_file(tmp: Path) -> list[str]:
    (tmp / "cachefile").write_text("x")
    return ["-m", "retrieval.build", "--preset", "demo", "--no-dense", "--no-progress"]


def _warm(mb: int) -> Callable[[Path], list[str]]:
    def make(tmp: Path) -> list[str]:
        with (tmp / "done.jsonl").open("w") as f:
            i = 0
            while f.tell() < mb * 2**20:
                reasoning = f"<think>Claim {i}. " + "Paris is big. " * 30 + "</think><answer>Lyon</answer>"
                f.write(json.dumps(row(i, completion=reasoning)) + "\n")
                i += 1
        return ["-m", "reward_engine.warm", "--completions", str(tmp / "done.jsonl"), "--config", "reward.yaml"]

    return make


def _warm_check(tmp: Path, o: Outcome) -> tuple[bool, str]:
    return o.exit == 0, f"exit {o.exit}: {o.first_error()[:80]}"


def _file_mb(name: str) -> Callable[[Path], float]:
    return lambda tmp: (tmp / name).stat().st_size / 2**20


CASES: list[Case] = [
    Case("a JSON array on one line, 11 rows", _array_one_line, rows_back(Path("out.jsonl"), 11)),
    Case("a JSONL whose line 1 is a list, then 10 rows", _list_first_line, rows_back(Path("out.jsonl"), 11, bad=1)),
    Case("the input named `<output>.job.json`", _input_is_sidecar, _sidecar_kept),
    Case("an existing output made for another input", _other_input, _other_input_kept),
    Case('golds `[2]` (answer "2") and `["", " "]`', _golds, _golds_check),
    Case("the output is a FIFO", _fifo_output, lambda t, o: one_line(o, "not a regular file")),
    Case("`kb_path: kb#1.db`", _hash_in_kb_path, _hash_check),
    Case(
        "a config that is not UTF-8", _config(b"factuality: {kb_path: caf\xe9.db}\n"), lambda t, o: one_line(o, "UTF-8")
    ),
    Case(
        "duplicate YAML keys",
        _config(b"step_timeout_s: 5\nstep_timeout_s: 9\n"),
        lambda t, o: one_line(o, "given twice"),
    ),
    Case("a config key nested 3,000 deep", _config(b"a: " + b"[" * 3000 + b"\n"), lambda t, o: one_line(o)),
    Case(
        "`prompts.grader: /dev/zero`",
        _config(b"factuality: {kb_path: smoke.db, retrieval_mode: bm25}\nprompts: {grader: /dev/zero}\n"),
        lambda t, o: one_line(o),
    ),
    Case("`train --set x=[[[...` 3,000 deep", _deep_set, lambda t, o: one_line(o)),
    Case("`retrieval.build` on a file `[]`", _build_empty_array, lambda t, o: one_line(o)),
    Case("`build --from-db` onto an existing non-KB file", _from_db_existing, _notes_kept),
    Case("`retrieval.search --db` a folder", _search_dir, lambda t, o: one_line(o)),
    Case("`judges.local --port 99999`", _port, lambda t, o: one_line(o, "99999")),
    Case(
        "`KNOWRL_CACHE_DIR` is a file (build)",
        _cache_is_file,
        lambda t, o: one_line(o),
        env={"KNOWRL_CACHE_DIR": "cachefile"},
    ),
    *(
        Case(f"warm on {mb} MB of completions", _warm(mb), _warm_check, size_mb=_file_mb("done.jsonl"))
        for mb in (1, 20, 60)
    ),
]


def run(case: Case, tmp: Path, smoke_db: Path, timeout_s: float = 600) -> dict:
    """One case in ``tmp`` (which gets the smoke KB and a BM25 reward config): what happened, its time and
    peak memory, and whether that is what must happen."""
    os.link(smoke_db, tmp / "smoke.db")
    (tmp / "reward.yaml").write_text(f"factuality: {{kb_path: {tmp / 'smoke.db'}, retrieval_mode: bm25}}\n")
    argv = case.make(tmp)
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT), **(case.env or {})}
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", WRAPPER, sys.executable, *argv],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=env,
            cwd=tmp,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return {"ok": False, "result": f"no answer within {timeout_s:.0f} s", "seconds": timeout_s, "peak_mb": None}
    peak = [float(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("peak_mb ")]
    outcome = Outcome(done.returncode, done.stdout, done.stderr, time.perf_counter() - started, peak[-1] if peak else 0)
    ok, result = case.check(tmp, outcome)
    result = result.replace(str(tmp), "<case>")  # the temp folder's name is noise in a results table
    out = {"ok": ok, "result": result, "seconds": outcome.seconds, "peak_mb": outcome.peak_mb}
    if case.size_mb:
        out["size_mb"] = case.size_mb(tmp)
    return out


def markdown(rows: dict[str, dict]) -> list[str]:
    lines = [
        "### Hostile files and invocations",
        "",
        "Each case runs the CLI named in it in a fresh process, in a folder made for it (the smoke KB, BM25)."
        " *As required*: the rows kept, or exit 2 with one line naming the problem and nothing written where it"
        " must not be, as issue #44 asks. Time and peak memory are the whole process's (Python and imports"
        " included: about 0.2-1.5 s and 60-300 MB before any row).",
        "",
        "| case | as required | what happened | time | peak memory |",
        "|---|---|---|---:|---:|",
    ]
    for name, r in rows.items():
        peak = "" if r["peak_mb"] is None else f"{r['peak_mb']:.0f} MB"
        if "size_mb" in r:
            peak += f" (input {r['size_mb']:.0f} MB)"
        result = r["result"].replace("|", "\\|")
        lines.append(f"| {name} | {'yes' if r['ok'] else '**NO**'} | {result} | {r['seconds']:.1f} s | {peak} |")
    return lines
