"""Run ``dealer serve`` as a real process for end-to-end tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: Path, *, env: dict[str, str] | None = None, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        full_env = {**os.environ, "DEALER_TABLE__PACE_MS": "60", **(env or {})}
        self.log = open(db.with_suffix(".log"), "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([sys.executable, "-m", "dealer", "serve", "--port", str(self.port),
                                      "--db", str(db)], env=full_env, stdout=self.log, stderr=self.log,
                                     start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.get("/health")
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"dealer serve exited with {self.proc.returncode}") from None
                time.sleep(0.2)
        raise TimeoutError("dealer serve did not come up")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return json.loads(response.read())

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)  # the server and its device simulators
        self.proc.wait()
        self.log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
                return
        self.log.close()
