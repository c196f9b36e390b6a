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
    """``dealer serve`` on a free port: one table with its log at ``db``, or a night file (``config``)."""

    def __init__(self, db: Path | None = None, *, config: Path | None = None,
                 env: dict[str, str] | None = None, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        full_env = {**os.environ, "DEALER_TABLE__PACE_MS": "60", **(env or {})}
        where = ["--config", str(config)] if config is not None else ["--db", str(db)]
        named = config if config is not None else db
        assert named is not None, "a table's log (db) or a night file (config)"
        self.log = open(named.with_suffix(".log"), "ab")  # noqa: SIM115 - closed in stop()
        command = [sys.executable, "-m", "dealer", "serve", "--port", str(self.port), *where]
        self.proc = subprocess.Popen(command, env=full_env, stdout=self.log, stderr=self.log,
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

    def post(self, path: str, body: dict[str, Any] | None = None, method: str = "POST") -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def delete(self, path: str) -> Any:
        return self.post(path, None, method="DELETE")

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


def write_night_file(folder: Path, tables: list[dict[str, Any]], guests: list[str], **night: Any) -> Path:
    """A night file for ``dealer serve --config``: logs in ``folder/logs``, one ``[[tables]]`` each."""
    def value(v: Any) -> str:
        return json.dumps(v) if not isinstance(v, bool) else str(v).lower()

    lines = ["[night]", f"dir = {value(str(folder / 'logs'))}", f"guests = {value(guests)}"]
    lines += [f"{k} = {value(v)}" for k, v in night.items()]
    for table in tables:
        lines.append("[[tables]]")
        devices = table.get("devices")
        lines += [f"{k} = {value(v)}" for k, v in table.items() if not isinstance(v, dict)]
        if isinstance(devices, dict):
            lines.append("[tables.devices]")
            lines += [f"{k} = {value(v)}" for k, v in devices.items()]
    path = folder / "night.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def wait_for(what: str, check: Any, timeout: float = 90, every: float = 0.1) -> Any:
    """Poll ``check()`` until it returns something truthy (the server plays at its own pace)."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:.0f} s for {what}")
        time.sleep(every)
