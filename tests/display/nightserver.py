"""``dealer serve --config <night file>`` as a real process: a casino night for the page tests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from serving import free_port

TABLE = """
[[tables]]
id = "{id}"
name = "{name}"
game = "{game}"
rules = "{rules}"
mode = "simulated"
seats = {seats}
pace_ms = {pace}
devices = "{devices}"
"""


def night_file(directory: Path, tables: list[dict[str, Any]], guests: list[str]) -> Path:
    text = (f'[night]\nname = "Test night"\ndir = "{directory}"\nguests = {json.dumps(guests)}\n'
            "buy_in = 500\nmax_buy_in = 5000\n")
    for t in tables:
        text += TABLE.format(**{"rules": "", "seats": 7, "pace": 20, "devices": "none", **t})
    path = directory / "night.toml"
    path.write_text(text)
    return path


class NightServer:
    def __init__(self, directory: Path, tables: list[dict[str, Any]], guests: list[str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = night_file(directory, tables, guests)
        self.log = open(directory / "serve.log", "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([sys.executable, "-m", "dealer", "serve", "--config", str(config),
                                      "--port", str(self.port)], env=dict(os.environ),
                                     stdout=self.log, stderr=self.log, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.get("/health")
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"dealer serve exited with {self.proc.returncode}: "
                                       f"{(directory / 'serve.log').read_text()[-2000:]}") from None
                time.sleep(0.2)
        raise TimeoutError("dealer serve did not come up")

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def get(self, path: str) -> Any:
        return self.call("GET", path)

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.call("POST", path, body or {})

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()
