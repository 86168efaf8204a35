"""The training-side CLIs (train, sft, merge, evaluate) answer a user's mistake with one line and exit 2,
before anything loads: each case below was a traceback (or, for evaluate's data, exit 0 on nothing)."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _setup(tmp: object) -> dict[str, str]:
    from pathlib import Path

    tmp = Path(str(tmp))
    (tmp / "afile").write_text("x")
    (tmp / "adir").mkdir()
    (tmp / "data.jsonl").write_text('{"question": "Q?", "answers": "A"}\n')
    (tmp / "latin.jsonl").write_bytes(b'{"question": "Caf\xe9?", "answers": "A"}\n')
    (tmp / "ok.yaml").write_text(f"model: {{name_or_path: tiny}}\ndata: {{train: {tmp / 'data.jsonl'}}}\n")
    names = {"afile": "afile", "adir": "adir", "data": "data.jsonl", "latin": "latin.jsonl", "ok": "ok.yaml"}
    return {key: str(tmp / name) for key, name in names.items()}


CASES = [
    ("knowrl.train", "--config {ok} --set output_dir={afile}", "output_dir: {afile} exists and is not a folder"),
    ("knowrl.sft", "--config {ok} --set output_dir={afile}/run", "output_dir: {afile} exists and is not a folder"),
    ("knowrl.merge", "--base tiny --adapter {afile} --out {adir}/m", "{afile} is not a LoRA adapter folder"),
    ("knowrl.merge", "--base tiny --adapter {adir} --out {adir}/m", "{adir} is not a LoRA adapter folder"),
    ("knowrl.merge", "--base {adir}/none --adapter {adir} --out {adir}/m", "--base: {adir}/none does not exist"),
    ("knowrl.evaluate", "--model {adir}/none --data {data}", "--model: {adir}/none does not exist"),
    ("knowrl.evaluate", "--model tiny --adapter {adir} --data {data}", "{adir} is not a LoRA adapter folder"),
    ("knowrl.evaluate", "--model tiny --data {adir}", "--data {adir} is a directory"),
    ("knowrl.evaluate", "--model tiny --data {latin} --out {adir}/e", "no usable rows in {latin}"),
    ("knowrl.evaluate", "--model tiny --data {data} --out {afile}", "--out {afile} exists and is not a folder"),
]


@pytest.mark.parametrize("module,args,message", CASES, ids=[f"{m}:{a.split()[-1][:20]}" for m, a, _ in CASES])
def test_a_user_mistake_is_one_line_and_exit_2(tmp_path, module: str, args: str, message: str) -> None:
    paths = _setup(tmp_path)
    argv = [a.format(**paths) for a in args.split()]
    done = subprocess.run([sys.executable, "-m", module, *argv], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr[-2000:]
    assert message.format(**paths) in done.stderr and "Traceback" not in done.stderr, done.stderr[-2000:]
