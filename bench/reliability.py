"""Reliability bench: fault soak, judge outage and recovery, crash-safe jobs, training resume.

    python bench/reliability.py [--steps 20] [--fault-rate 0.3] [--down-steps 5] [--rows 400] \
        [--soak-rows 20000] [--soak-rpm 1200]

Writes ``bench/results/reliability.md``. Everything runs on this machine against the
project's test judge on 127.0.0.1: a tiny policy taught the answer format (so the judge
really grades, decomposes and verifies), ``configs/smoke.yaml``'s GRPO set-up, and the
real ``reward_engine.score`` / ``knowrl.train`` processes killed with SIGKILL.
The tests run the same functions with small sizes (``tests/test_reliability.py``).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the project is on the path before bench/
sys.path.insert(1, str(ROOT / "bench"))

import hostile  # noqa: E402

from knowrl_io import provenance  # noqa: E402
from knowrl_io.job_output import check_results
from knowrl_io.work_folder import claim_work

SMOKE = ROOT / "configs" / "smoke.yaml"
SMOKE_RL = ROOT / "configs" / "data" / "smoke_rl.jsonl"
SMOKE_KB = ROOT / "configs" / "data" / "smoke_kb.jsonl"
FINAL_STATUSES = {"ok", "cached"}
FLAGGED_STATUSES = {"timeout", "error", "breaker_open"}


def _rows(path: Path) -> list[dict[str, Any]]:
    from knowrl_io.jsonl import read_objects

    return list(read_objects(path))


def taught_policy(out: Path, seed: int = 0) -> Path:
    """A tiny model taught to answer the smoke questions in format (right, wrong with facts, refusal)."""
    from transformers import AutoTokenizer

    from knowrl.data import render_prompt
    from knowrl.tiny import build_tiny_model, teach_tiny_model

    path = build_tiny_model(out / "taught-tiny", seed=seed)
    tokenizer = AutoTokenizer.from_pretrained(path)
    pairs = []
    for row in _rows(SMOKE_RL):
        prompt = render_prompt(tokenizer, row["question"])
        gold = row["answers"] if isinstance(row["answers"], str) else row["answers"][0]
        pairs += [
            (prompt, f"{row['title']} is about {gold}.</think><answer>{gold}</answer>"),
            (prompt, f"{row['title']} was described in 1889.</think><answer>Lyon</answer>"),
            (prompt, "I am not sure.</think><answer>I don't know</answer>"),
        ]
    return teach_tiny_model(path, pairs, steps=300)


def _judge(url: str, cache_dir: str | None = None, breaker_failures: int = 8) -> dict[str, Any]:
    # Timeouts and the breaker's cooldown are scaled to the tiny policy's ~0.3 s steps (a GPU
    # step takes a minute: there the defaults, 30 s each, play the same role).
    return {
        "endpoints": [{"base_url": url, "model": "test-judge"}],
        "timeout_s": 1.5,
        "max_attempts": 3,
        "backoff_initial_s": 0.05,
        "backoff_max_s": 0.2,
        "max_retry_after_s": 0.5,
        "breaker_failures": breaker_failures,
        "breaker_cooldown_s": 0.5,
        "cache_dir": cache_dir,
    }


def soak(
    out: Path,
    steps: int = 20,
    fault_rate: float = 0.3,
    down_steps: int = 5,
    recovery_steps: int = 5,
    step_timeout_s: float = 6.0,
    seed: int = 0,
    breaker_failures: int = 8,
) -> dict[str, Any]:
    """GRPO steps against a faulty judge, then a full outage, then recovery, in one run (no restart).

    How many judge calls an outage step makes depends on what the policy samples (cached grades and
    missing answers call nothing), so a short run lowers ``breaker_failures`` to see the breaker open."""
    from transformers import TrainerCallback

    from judges.test_server import FAULTS, ServerConfig, serve_in_thread
    from knowrl.config import load_train_config
    from knowrl.grpo import train

    out.mkdir(parents=True, exist_ok=True)
    policy = taught_policy(out, seed)
    total = steps + down_steps + recovery_steps
    per_step: dict[int, dict[str, Any]] = {}
    clock: dict[str, float] = {}

    with serve_in_thread(
        ServerConfig(latency_ms=20, fault_rate=fault_rate, faults=FAULTS, hang_s=30, retry_after_s=0.2, seed=seed)
    ) as server:

        class Phases(TrainerCallback):
            """Takes the judge down after ``steps`` steps and brings it back ``down_steps`` later."""

            def on_step_end(self, args, state, control, **kwargs):  # noqa: ANN001
                if state.global_step == steps:
                    server.config.down = True
                elif state.global_step == steps + down_steps:
                    server.config.down = False
                    server.config.fault_rate = 0.0
                    clock["up"] = time.perf_counter()

            def on_log(self, args, state, control, logs=None, **kwargs):  # noqa: ANN001
                if logs and "reward_engine/wall_s" in logs:
                    per_step[state.global_step] = {
                        k: logs[k] for k in logs if k.startswith(("reward_engine/", "rewards/"))
                    }
                    if "up" in clock and "recovered" not in clock and _graded(logs):
                        clock["recovered"] = time.perf_counter()

        overrides = [
            f"output_dir={out / 'run'}",
            f"model.name_or_path={policy}",
            f"grpo.max_steps={total}",
            "grpo.save_steps=1000",
            "grpo.max_completion_length=40",
            "grpo.temperature=0.7",
            "grpo.multi_objective_aggregation=normalize_then_sum",
            "reward.drop_unscored=false",
            "reward.grader=llm",
            "reward.decomposer=llm",
            "reward.verifier=llm",
            "reward.speculate=true",
            f"reward.step_timeout_s={step_timeout_s}",
            f"reward.factuality.kb_path={out / 'kb.db'}",
            "reward.judge=" + json.dumps(_judge(server.url, breaker_failures=breaker_failures)),
            f"seed={seed}",
        ]
        config = load_train_config(SMOKE, overrides)
        started = time.perf_counter()
        summary = train(config, callbacks=[Phases()])
        wall = time.perf_counter() - started
        faults = dict(server.stats.faults)
        requests = server.stats.requests

    log = _rows(Path(summary["reward_log"]))
    phase = {s: "faults" if s < steps else "down" if s < steps + down_steps else "recovery" for s in range(total)}
    statuses: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    unexplained = 0
    for row in log:
        statuses[phase.get(row["step"], "faults")][row["status"]] += 1
        real = isinstance(row.get("correctness"), (int, float))
        if not (
            real
            and row["status"] in FINAL_STATUSES
            or row["correctness"] is None
            and row["status"] in FLAGGED_STATUSES | {"bad_input"}
        ):
            unexplained += 1
    walls = {s: v["reward_engine/wall_s"] for s, v in per_step.items()}
    recovery = [s for s in range(steps + down_steps + 1, total + 1) if _graded(per_step.get(s, {}))]
    return {
        "steps_run": summary["global_step"],
        "steps_planned": total,
        "recovery_steps": recovery_steps,
        "fault_steps": steps,
        "down_steps": down_steps,
        "fault_rate": fault_rate,
        "completions": len(log),
        "statuses": {k: dict(v) for k, v in statuses.items()},
        "unexplained_rows": unexplained,
        "faults_injected": faults,
        "judge_requests": requests,
        "step_budget_s": step_timeout_s,
        "max_reward_wall_s": max(walls.values()) if walls else None,
        "max_overrun_s": max(0.0, max(walls.values()) - step_timeout_s) if walls else None,
        "breaker_open_steps": [s for s, v in per_step.items() if v.get("reward_engine/breaker_open")],
        "first_recovered_step": recovery[0] if recovery else None,
        "recovery_s": round(clock["recovered"] - clock["up"], 2) if "recovered" in clock else None,
        "breaker_cooldown_s": _judge("")["breaker_cooldown_s"],
        "format_mean_while_down": _mean(
            [per_step[s].get("rewards/knowrl_format/mean") for s in per_step if steps < s <= steps + down_steps]
        ),
        "wall_s": round(wall, 1),
    }


def _graded(logs: dict[str, Any]) -> bool:
    """Did the judge grade anything in this step?"""
    return sum(logs.get(f"reward_engine/frac_{k}", 0) for k in ("correct", "incorrect", "not_attempted")) > 0


def _mean(values: list[Any]) -> float | None:
    real = [v for v in values if isinstance(v, (int, float)) and v == v]
    return round(sum(real) / len(real), 3) if real else None


def _score_input(path: Path, rows: int) -> Path:
    questions = _rows(SMOKE_RL)
    with path.open("w") as handle:
        for i in range(rows):
            q = questions[i % len(questions)]
            answer = [q["answers"], "Lyon", "I don't know"][i % 3]
            completion = (
                f"<think>{q['title']} was described in {1800 + i}. The river Seine runs through Paris. "
                f"Claim number {i} is here.</think><answer>{answer}</answer>"
            )
            handle.write(json.dumps({"id": f"r{i}", **q, "completion": completion}) + "\n")
    return path


def _score_cmd(src: Path, dst: Path, config: Path, batch: int = 8, concurrency: int = 8) -> list[str]:
    return [
        sys.executable,
        "-m",
        "reward_engine.score",
        "--input",
        str(src),
        "--output",
        str(dst),
        "--config",
        str(config),
        "--batch-size",
        str(batch),
        "--concurrency",
        str(concurrency),
        "--no-progress",
    ]


def _reward_config(out: Path, url: str, cache: Path, judge: dict[str, Any] | None = None) -> Path:
    import yaml

    path = out / f"reward-{cache.name}.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "grader": "llm",
                "decomposer": "llm",
                "verifier": "llm",
                "judge": {**_judge(url, str(cache)), "timeout_s": 10, **(judge or {})},
                "factuality": {"kb_path": str(out / "kb.db"), "cache_dir": str(cache / "evidence")},
            }
        )
    )
    return path


def _ensure_kb(out: Path) -> None:
    from knowrl.kb import build_kb

    if not (out / "kb.db").exists():
        build_kb(out / "kb.db", str(SMOKE_KB))


def crash_score(out: Path, rows: int = 400, kill_after_lines: int | None = None) -> dict[str, Any]:
    """SIGKILL the score job mid-run, run it again on the same output; compare with a clean run."""
    from judges.test_server import ServerConfig, serve_in_thread

    out.mkdir(parents=True, exist_ok=True)
    _ensure_kb(out)
    src = _score_input(out / "score-in.jsonl", rows)
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    kill_after = kill_after_lines or rows // 3
    with serve_in_thread(ServerConfig(latency_ms=15)) as server:
        config = _reward_config(out, server.url, out / "cache-crash")
        dst = out / "scored-crash.jsonl"
        # One batch in flight: the output grows 8 rows at a time, so the kill lands mid-run however fast
        # the machine is (with 8 in flight all 60 rows of the test could land between two polls).
        proc = subprocess.Popen(
            _score_cmd(src, dst, config, concurrency=1), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        while proc.poll() is None and (not dst.exists() or len(dst.read_bytes().splitlines()) < kill_after):
            time.sleep(0.05)
        killed = proc.poll() is None
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        lines_at_kill = len(dst.read_bytes().splitlines()) if dst.exists() else 0
        first = server.stats.requests
        rerun = subprocess.run(_score_cmd(src, dst, config), env=env, capture_output=True, text=True)
        second = server.stats.requests - first
        clean_config = _reward_config(out, server.url, out / "cache-clean")
        clean_dst = out / "scored-clean.jsonl"
        clean = subprocess.run(_score_cmd(src, clean_dst, clean_config), env=env, capture_output=True, text=True)
        cold = server.stats.requests - first - second
    lines = dst.read_bytes().splitlines()
    parsed = []
    corrupt = 0
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError:
            corrupt += 1
    counts = collections.Counter(r["line"] for r in parsed)
    clean_rows = {r["line"]: r for r in _rows(clean_dst)}
    same = sum(r["reward"] == clean_rows.get(r["line"], {}).get("reward") for r in parsed)
    return {
        "rows": rows,
        "killed_mid_run": killed,
        "lines_at_kill": lines_at_kill,
        "rerun_rc": rerun.returncode,
        "clean_rc": clean.returncode,
        "output_lines": len(lines),
        "corrupt_lines": corrupt,
        "rows_lost": rows - len(counts),
        "rows_duplicated": sum(c > 1 for c in counts.values()),
        "same_reward_as_clean_run": same,
        "judge_requests_killed_run": first,
        "judge_requests_rerun": second,
        "judge_requests_clean_run": cold,
        "redone_fraction": round((first + second - cold) / cold, 3) if cold else None,
    }


# The peak RSS of the job's own process: VmHWM (reset by exec), not ru_maxrss, which Linux carries over from the
# forking parent (here a benchmark process that had trained a policy: ~1 GB whatever the job did).
_RSS_PROBE = (
    "import re, runpy, sys; sys.argv = ['reward_engine.score'] + sys.argv[1:]\n"
    "try:\n    runpy.run_module('reward_engine.score', run_name='__main__')\n"
    "except SystemExit as exc:\n    code = exc.code\nelse:\n    code = 0\n"
    "hwm = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)\n"
    "print('MAXRSS_KB', hwm, file=sys.stderr)\n"
    "sys.exit(code)"
)


def _offline_config(out: Path) -> Path:
    path = out / "offline.yaml"
    path.write_text("factuality: {enabled: false}\n")  # the job's own cost, not the grader's or a judge's
    return path


def _big_input(path: Path, megabytes: float, think_chars: int = 4000) -> int:
    """A JSONL of about ``megabytes`` of rows (long reasoning, short answers); returns the row count."""
    reasoning = ("The capital of France is Paris, on the Seine. " * (think_chars // 46 + 1))[:think_chars]
    rows = 0
    with path.open("w", encoding="utf-8") as handle:
        while handle.tell() < megabytes * 2**20:
            answer = ("Paris", "Lyon", "I don't know")[rows % 3]
            handle.write(
                json.dumps(
                    {
                        "id": rows,
                        "question": "Capital of France?",
                        "answers": "Paris",
                        "completion": f"<think>{reasoning}</think><answer>{answer}</answer>",
                    }
                )
                + "\n"
            )
            rows += 1
    return rows


def job_memory(out: Path, sizes_mb: tuple[float, ...] = (1, 100, 1024)) -> list[dict[str, Any]]:
    """Peak RSS of ``reward_engine.score`` against input size (offline grader, factuality off: what is
    measured is the job's own reading, batching and output handling)."""
    out.mkdir(parents=True, exist_ok=True)
    config = _offline_config(out)
    found = []
    for size in sizes_mb:
        src, dst = out / f"in-{size:g}mb.jsonl", out / f"out-{size:g}mb.jsonl"
        rows = _big_input(src, size)
        dst.unlink(missing_ok=True)
        started = time.perf_counter()
        proc = subprocess.run(
            [
                sys.executable,
                "-c",
                _RSS_PROBE,
                "--input",
                str(src),
                "--output",
                str(dst),
                "--config",
                str(config),
                "--no-progress",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        wall = time.perf_counter() - started
        rss = next((int(line.split()[1]) for line in proc.stderr.splitlines() if line.startswith("MAXRSS_KB")), 0)
        found.append(
            {
                "input_mb": round(src.stat().st_size / 2**20, 1),
                "rows": rows,
                "rc": proc.returncode,
                "output_rows": sum(1 for _ in dst.open("rb")) if dst.exists() else 0,
                "peak_rss_mb": round(rss / 1024, 1),
                "wall_s": round(wall, 1),
                "rows_per_s": round(rows / wall) if wall else None,
            }
        )
        src.unlink()
        dst.unlink(missing_ok=True)
    return found


def concurrent_runs(out: Path, megabytes: float = 20) -> dict[str, Any]:
    """Two runs on one output: the second, started while the first runs, must be refused; the first completes.

    The first reads its rows from a pipe held open, so it is certainly running (and holding the output)
    when the second starts, however fast the machine."""
    out.mkdir(parents=True, exist_ok=True)
    config = _offline_config(out)
    src, dst = out / "in.jsonl", out / "out.jsonl"
    rows = _big_input(src, megabytes)
    data = src.read_bytes()
    half = data.index(b"\n", len(data) // 2) + 1
    cmd = [sys.executable, "-m", "reward_engine.score", "--output", str(dst), "--config", str(config), "--no-progress"]
    first = subprocess.Popen(
        [*cmd, "--input", "-"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert first.stdin is not None
    first.stdin.write(data[:half])
    first.stdin.flush()
    while not dst.exists() and first.poll() is None:  # it holds the output once it writes
        time.sleep(0.05)
    second = subprocess.run([*cmd, "--input", str(src)], cwd=ROOT, capture_output=True, text=True)
    running = first.poll() is None
    first_out, _ = first.communicate(data[half:])
    lines = [json.loads(line) for line in dst.open(encoding="utf-8")]
    return {
        "rows": rows,
        "first_rc": first.returncode,
        "second_rc": second.returncode,
        "first_running_when_second_refused": running,
        "second_stderr": second.stderr.strip().splitlines()[-1] if second.stderr.strip() else "",
        "output_rows": len(lines),
        "distinct_lines": len({r["line"] for r in lines}),
        "in_order": [r["line"] for r in lines] == sorted(r["line"] for r in lines),
        "summary_rows": json.loads(first_out)["rows"] if first_out.strip().startswith(b"{") else None,
    }


class _Watch:
    """Polls a running score job: its output's line count (read incrementally), its RSS, the judge's counts."""

    def __init__(self, dst: Path, server: Any) -> None:
        self.dst, self.server = dst, server
        self.lines = 0
        self._offset = 0

    def count(self) -> int:
        if self.dst.exists():
            with self.dst.open("rb") as handle:
                if handle.seek(0, 2) < self._offset:  # rewritten (resume): count again
                    self._offset = self.lines = 0
                handle.seek(self._offset)
                data = handle.read()
            self.lines += data.count(b"\n")
            self._offset += len(data)
        return self.lines

    @staticmethod
    def rss_mb(pid: int) -> float | None:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return None
        kb = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), None)
        return None if kb is None else round(kb / 1024, 1)

    def sample(self, proc: subprocess.Popen) -> dict[str, Any]:
        stats = self.server.stats
        return {
            "t": time.perf_counter(),
            "lines": self.count(),
            "rss_mb": self.rss_mb(proc.pid),
            "accepted": stats.requests - stats.rate_limited,
        }


def score_soak(
    out: Path,
    rows: int = 20_000,
    rpm: int = 1200,
    fault_rate: float = 0.3,
    kills: int = 2,
    seed: int = 0,
    batch: int = 64,
    concurrency: int = 8,
) -> dict[str, Any]:
    """``reward_engine.score`` on ``rows`` rows against the test judge at ``rpm`` with faults, killed with
    SIGKILL ``kills`` times at random points and run again until done; RSS and judge throughput sampled."""
    import random

    from judges.test_server import FAULTS, ServerConfig, serve_in_thread

    out.mkdir(parents=True, exist_ok=True)
    _ensure_kb(out)
    src = _score_input(out / "soak-in.jsonl", rows)
    rng = random.Random(seed)
    kill_points = sorted(rng.sample(range(rows // 40, rows // 10), kills))  # early, so the last run is long
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    dst = out / "soak-scored.jsonl"
    dst.unlink(missing_ok=True)
    runs: list[dict[str, Any]] = []
    server_config = ServerConfig(
        latency_ms=100, rpm=rpm, fault_rate=fault_rate, faults=FAULTS, hang_s=30, retry_after_s=1.0, seed=seed
    )
    with serve_in_thread(server_config) as server:
        config = _reward_config(
            out, server.url, out / "cache-soak", {"requests_per_minute": rpm, "timeout_s": 2.0, "max_attempts": 6}
        )
        watch = _Watch(dst, server)
        for kill_at in [*kill_points, None]:
            proc = subprocess.Popen(
                _score_cmd(src, dst, config, batch, concurrency),
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            samples = [watch.sample(proc)]
            while proc.poll() is None:
                time.sleep(0.2)
                samples.append(watch.sample(proc))
                # at the kill point, and only once this run has written rows of its own
                if kill_at is not None and samples[-1]["lines"] >= max(kill_at, samples[0]["lines"] + 1):
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()
                    break
            stdout = proc.stdout.read() if proc.stdout else ""
            runs.append({"kill_at": kill_at, "rc": proc.returncode, "samples": samples, "stdout": stdout})
        faults = dict(server.stats.faults)
        requests = server.stats.requests
    final_rows = _rows(dst)
    counts = collections.Counter(r["line"] for r in final_rows)
    statuses = collections.Counter(r["status"] for r in final_rows)
    unexplained = sum(
        not (
            isinstance(r.get("reward"), (int, float))
            and r["status"] in FINAL_STATUSES
            or r.get("reward") is None
            and r["status"] in FLAGGED_STATUSES | {"bad_input"}
        )
        for r in final_rows
    )
    last = runs[-1]["samples"]
    # From the first rows the last run wrote (a short last run may have written them all between two polls).
    started = next((s for s in last if s["lines"] > last[0]["lines"]), last[0])
    at_1k = next((s for s in last if s["lines"] - last[0]["lines"] >= 1000 and s["rss_mb"]), None)
    end = next((s for s in reversed(last) if s["rss_mb"]), last[-1])
    span = end["t"] - started["t"]
    return {
        "rows": rows,
        "rpm": rpm,
        "fault_rate": fault_rate,
        "kill_points": kill_points,
        "killed": [r["rc"] == -signal.SIGKILL for r in runs[:-1]],
        "final_rc": runs[-1]["rc"],
        "output_lines": len(final_rows),
        "rows_lost": rows - len(counts),
        "rows_duplicated": sum(c > 1 for c in counts.values()),
        "statuses": dict(statuses),
        "unexplained_rows": unexplained,
        "faults_injected": faults,
        "judge_requests": requests,
        "last_run_rows": end["lines"] - last[0]["lines"],
        "last_run_span_s": round(span, 1),
        "accepted_per_s": round((end["accepted"] - started["accepted"]) / span, 2) if span > 0 else None,
        "bound_per_s": rpm / 60,
        "rss_mb_at_1k": at_1k["rss_mb"] if at_1k else None,
        "rows_at_1k_sample": at_1k["lines"] if at_1k else None,
        "rss_mb_at_end": end["rss_mb"],
        "rows_at_end_sample": end["lines"],
        "wall_s": round(sum(r["samples"][-1]["t"] - r["samples"][0]["t"] for r in runs), 1),
    }


def shared_cache(out: Path, rows: int = 200) -> dict[str, Any]:
    """Two score jobs at once on one judge cache directory: both finish, with identical rewards."""
    from judges.test_server import ServerConfig, serve_in_thread

    out.mkdir(parents=True, exist_ok=True)
    _ensure_kb(out)
    src = _score_input(out / "shared-in.jsonl", rows)
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    with serve_in_thread(ServerConfig(latency_ms=15)) as server:
        config = _reward_config(out, server.url, out / "cache-shared")
        outs = [out / "shared-a.jsonl", out / "shared-b.jsonl"]
        procs = [
            subprocess.Popen(
                _score_cmd(src, o, config), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
            )
            for o in outs
        ]
        codes = [p.wait() for p in procs]
        requests = server.stats.requests
    a, b = (_rows(o) for o in outs)
    keys = ("line", "reward", "label", "fact_score")
    return {
        "rows": rows,
        "return_codes": codes,
        "rows_a": len(a),
        "rows_b": len(b),
        "identical": [tuple(r[k] for k in keys) for r in a] == [tuple(r[k] for k in keys) for r in b],
        "statuses": dict(collections.Counter(r["status"] for r in a + b)),
        "judge_requests": requests,
    }


def train_resume(out: Path, steps: int = 6, kill_at_checkpoint: int = 3) -> dict[str, Any]:
    """SIGKILL ``knowrl.train`` after a checkpoint, then ``--resume``: the run ends at ``steps``."""
    out.mkdir(parents=True, exist_ok=True)
    run = out / "resume-run"
    shutil.rmtree(run, ignore_errors=True)  # a rerun starts clean (an old checkpoint-3 would end the wait at once)
    common = [
        sys.executable,
        "-m",
        "knowrl.train",
        "--config",
        str(SMOKE),
        f"--set=output_dir={run}",
        f"--set=reward.factuality.kb_path={out / 'kb.db'}",
        f"--set=grpo.max_steps={steps}",
        "--set=grpo.save_steps=1",
        "--set=grpo.save_total_limit=2",
    ]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen(common, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    target = run / f"checkpoint-{kill_at_checkpoint}" / "trainer_state.json"
    while proc.poll() is None and not target.exists():
        time.sleep(0.05)
    killed = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    time.sleep(0.2)
    resumed = subprocess.run(common + ["--resume"], env=env, capture_output=True, text=True)
    summary = json.loads((run / "summary.json").read_text()) if (run / "summary.json").exists() else {}
    steps_logged = collections.Counter(r["step"] for r in _rows(run / "rewards.jsonl"))
    return {
        "killed_mid_run": killed,
        "resume_rc": resumed.returncode,
        "resumed_from": Path(summary.get("resumed_from") or "").name,
        "final_step": summary.get("global_step"),
        "steps_logged": sorted(steps_logged),
        "rows_per_step": sorted(set(steps_logged.values())),
        "stderr_tail": resumed.stderr[-500:] if resumed.returncode else "",
    }


def report(results: dict[str, Any]) -> str:
    s, c, sh, t = results["soak"], results["crash"], results["shared"], results["resume"]
    lines = [
        "# Reliability",
        "",
        f"Measured by `{' '.join(['python', *sys.argv])}` at commit {provenance.commit()} on this machine "
        f"({os.cpu_count()} CPU cores, no GPU), "
        "against the project's test judge on 127.0.0.1; tiny taught policy, `configs/smoke.yaml`'s GRPO set-up.",
        "",
        f"## Fault soak: {s['steps_planned']} GRPO steps in one run, no restart",
        "",
        f"- Steps 1–{s['fault_steps']}: {s['fault_rate']:.0%} of judge requests faulted; steps "
        f"{s['fault_steps'] + 1}–{s['fault_steps'] + s['down_steps']}: the judge fully down (every request 503); "
        f"steps {s['fault_steps'] + s['down_steps'] + 1}–{s['steps_planned']}: healthy again.",
        f"- Steps run: **{s['steps_run']} / {s['steps_planned']}**, completions scored: {s['completions']}, "
        f"rows with neither a real reward nor a flagged status: **{s['unexplained_rows']}**.",
        f"- Faults injected by kind: {json.dumps(s['faults_injected'], sort_keys=True)} "
        f"(judge requests in all: {s['judge_requests']}).",
        f"- Status counts by phase: {json.dumps(s['statuses'], sort_keys=True)}.",
        f"- Step budget {s['step_budget_s']} s; slowest reward step {s['max_reward_wall_s']:.2f} s; "
        f"**max overrun {s['max_overrun_s']:.2f} s**.",
        f"- Breaker open at the end of steps: {s['breaker_open_steps']}; the judge came back after step "
        f"{s['steps_planned'] - s['recovery_steps']}; first step with judge-scored completions: "
        f"**{s['first_recovered_step']}**, {s['recovery_s']} s after (breaker cooldown "
        f"{s['breaker_cooldown_s']} s; these CPU steps take ~0.1 s) — recovered without a restart.",
        f"- Mean format reward while the judge was down: {s['format_mean_while_down']} (steps go on with the "
        "format reward: `reward.drop_unscored: false`, `grpo.multi_objective_aggregation: normalize_then_sum`).",
        f"- Wall time: {s['wall_s']} s.",
        "",
        f"## `reward_engine.score` killed with SIGKILL, then run again ({c['rows']} rows)",
        "",
        f"- Killed mid-run: {c['killed_mid_run']} (at {c['lines_at_kill']} output lines); rerun exit code "
        f"{c['rerun_rc']}.",
        f"- Output lines {c['output_lines']}, corrupt lines **{c['corrupt_lines']}**, rows lost "
        f"**{c['rows_lost']}**, rows duplicated **{c['rows_duplicated']}**; same reward as a clean run on "
        f"{c['same_reward_as_clean_run']} / {c['rows']} rows.",
        f"- Judge requests: killed run {c['judge_requests_killed_run']} + rerun {c['judge_requests_rerun']} vs "
        f"a clean run {c['judge_requests_clean_run']}: work redone "
        f"{'n/a' if c['redone_fraction'] is None else format(c['redone_fraction'], '.1%')} (requests in flight "
        "at the kill).",
        "",
        f"## Two score jobs sharing one cache directory ({sh['rows']} rows each)",
        "",
        f"- Exit codes {sh['return_codes']}; rows {sh['rows_a']} / {sh['rows_b']}; identical rewards: "
        f"**{sh['identical']}**; statuses {json.dumps(sh['statuses'], sort_keys=True)}; judge requests "
        f"{sh['judge_requests']}.",
        "",
        "## Training killed with SIGKILL, then `--resume`",
        "",
        f"- Killed mid-run: {t['killed_mid_run']}; resumed from `{t['resumed_from']}`; exit code "
        f"{t['resume_rc']}; final step **{t['final_step']}**; steps in the reward log: {t['steps_logged']}, "
        f"rows per step {t['rows_per_step']} (steps after the checkpoint ran again; `--resume` first drops their "
        "rows from the log, so each step is there once).",
        "",
    ]
    if "memory" in results:
        lines += [
            "## Memory of the score job against input size",
            "",
            "Offline grader, factuality off (the job's own reading, batching and writing); rows of ~4 KB "
            "(long reasoning); peak RSS of the whole process (Python, the engine, the libraries it imports).",
            "",
            "| input | rows | peak RSS | wall | rows/s | exit | output rows |",
            "|---|---|---|---|---|---|---|",
        ]
        lines += [
            f"| {m['input_mb']:g} MB | {m['rows']:,} | {m['peak_rss_mb']} MB | {m['wall_s']} s | "
            f"{m['rows_per_s']:,} | {m['rc']} | {m['output_rows']:,} |"
            for m in results["memory"]
        ]
        lines.append("")
        mem = results["memory"]
        if len(mem) > 1 and mem[-1]["rows"] > mem[0]["rows"]:
            per_row = (mem[-1]["peak_rss_mb"] - mem[0]["peak_rss_mb"]) * 2**20 / (mem[-1]["rows"] - mem[0]["rows"])
            lines.append(
                f"Memory does not follow the input's size ({mem[-1]['input_mb']:g} MB read as a stream) but its row "
                f"count: about {per_row:.0f} bytes per row, the index of where each output row sits that the job "
                "builds to put the file in input order at the end."
            )
            lines.append("")
    if "concurrent" in results:
        c2 = results["concurrent"]
        lines += [
            "## Two runs on one output",
            "",
            f"- A second `reward_engine.score` on the same `--output`, started while the first ran "
            f"({c2['rows']:,} rows): exit code **{c2['second_rc']}** (`{c2['second_stderr']}`).",
            f"- The first: exit code {c2['first_rc']}, {c2['output_rows']:,} output rows for {c2['rows']:,} "
            f"input rows, {c2['distinct_lines']:,} distinct lines, in input order: {c2['in_order']}.",
            "",
        ]
    if "hostile" in results:
        lines += hostile.markdown(*results["hostile"])
    if "score_soak" in results:
        k = results["score_soak"]
        lines += [
            f"## Scoring at scale: `reward_engine.score` on {k['rows']:,} rows, judge at {k['rpm']} RPM with "
            f"{k['fault_rate']:.0%} faults, killed twice",
            "",
            f"- Test judge: 100 ms latency, {k['rpm']} requests/min enforced by the server (429 + Retry-After), "
            f"{k['fault_rate']:.0%} of requests faulted (429, 500, hang, malformed, wrong); the job: batches of 64, "
            "8 in flight, 3 passes over failed rows, client-side RPM limit equal to the server's, "
            "2 s timeout, 6 attempts.",
            f"- SIGKILLed at {k['kill_points']} output lines (random points; killed: {k['killed']}), then run "
            f"again until done (exit code {k['final_rc']}).",
            f"- Output lines {k['output_lines']:,}; rows lost **{k['rows_lost']}**, duplicated "
            f"**{k['rows_duplicated']}**; rows with neither a reward nor a flagged status: "
            f"**{k['unexplained_rows']}**; statuses {json.dumps(k['statuses'], sort_keys=True)}.",
            f"- Judge throughput over the last run ({k['last_run_rows']:,} rows in {k['last_run_span_s']} s): "
            f"{k['accepted_per_s']} accepted requests/s against a bound of {k['bound_per_s']:.0f}/s = "
            f"**{'n/a' if k['accepted_per_s'] is None else format(k['accepted_per_s'] / k['bound_per_s'], '.0%')}** "
            "of the RPM bound (target >= 90%).",
            f"- Memory of the job (RSS): {k['rss_mb_at_1k']} MB at {k['rows_at_1k_sample']:,} rows, "
            f"{k['rss_mb_at_end']} MB at {k['rows_at_end_sample']:,} rows.",
            f"- Faults injected {json.dumps(k['faults_injected'], sort_keys=True)}; judge requests in all "
            f"{k['judge_requests']:,}; wall time {k['wall_s']} s.",
            "",
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--fault-rate", type=float, default=0.3)
    parser.add_argument("--down-steps", type=int, default=5)
    parser.add_argument("--rows", type=int, default=400)
    parser.add_argument("--soak-rows", type=int, default=20_000, help="rows of the scoring soak (0: skip it)")
    parser.add_argument("--soak-rpm", type=int, default=1200)
    parser.add_argument(
        "--work",
        type=Path,
        default=Path("/tmp/knowrl-reliability"),
        help="its own folder, emptied by each run: made and marked (knowrl-work.txt) when new or empty; a folder "
        "holding other files is refused, and one a run made before marks existed is refused naming the rm -r that "
        "clears it (its files cannot be told from a user's)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "reliability.md")
    parser.add_argument(
        "--memory-mb",
        type=float,
        nargs="*",
        default=[1, 100, 1024],
        help="input sizes of the memory rows (none: skip them)",
    )
    parser.add_argument(
        "--hostile", action=argparse.BooleanOptionalAction, default=True, help="the hostile-input tables (~3 min)"
    )
    args = parser.parse_args(argv)
    check_results(args, __file__, beside=[args.out.with_suffix(".json")])  # never an input or someone's file
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    claim_work(args, __file__, clear=True)  # its own folder only: a judge cache left there would answer everything
    results = {"soak": soak(args.work / "soak", args.steps, args.fault_rate, args.down_steps)}
    results["crash"] = crash_score(args.work / "jobs", args.rows)
    results["shared"] = shared_cache(args.work / "jobs", args.rows // 2)
    results["resume"] = train_resume(args.work / "jobs")
    results["concurrent"] = concurrent_runs(args.work / "concurrent")
    if args.memory_mb:
        results["memory"] = job_memory(args.work / "memory", tuple(args.memory_mb))
    if args.hostile:
        results["hostile"] = hostile.measure()
    if args.soak_rows:
        results["score_soak"] = score_soak(args.work / "score-soak", args.soak_rows, args.soak_rpm, args.fault_rate)
    (args.out.with_suffix(".json")).write_text(json.dumps(results, indent=2))
    args.out.write_text(report(results))
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
