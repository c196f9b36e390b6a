"""Start a device simulator as its own process on a pty, and control it from Python.

>>> from firmware_bridge.sim.process import start_simulator
>>> with start_simulator("shoe", decks=1, seed=7) as sim:
...     sim.port.endswith("shoe")
True
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from types import TracebackType
from typing import Any

from firmware_bridge.errors import SimulatorError
from firmware_bridge.sim.control import SimulatorControl


class SimulatorProcess(SimulatorControl):
    """A running ``python -m firmware_bridge.sim`` process; ``port`` is the path to open."""

    def __init__(self, kind: str, *, decks: int | None = None, cut_from_bottom: int | None = None,
                 seed: int | None = None, action_time: float | None = None, keep_log: bool = True,
                 baud: int | None = None, persist: bool = False) -> None:
        self.kind = kind
        self._dir = tempfile.mkdtemp(prefix="fbsim-")
        link = os.path.join(self._dir, kind)
        args = [sys.executable, "-m", "firmware_bridge.sim", "--kind", kind, "--link", link, "--exit-on-eof"]
        if persist:  # non-volatile memory: kill() then restart() is a power cut, not a new device
            args += ["--state", os.path.join(self._dir, f"{kind}.nv")]
        for flag, value in (("--decks", decks), ("--cut", cut_from_bottom), ("--seed", seed),
                            ("--action-time", action_time), ("--baud", baud)):
            if value is not None:
                args += [flag, str(value)]
        if not keep_log:
            args.append("--no-log")
        self._args = args
        self._lock = threading.Lock()
        self._launch()

    def _launch(self, what: str = "simulator") -> dict[str, Any]:
        """Start the process and read its first line, which names its port; that line is returned."""
        self._proc = subprocess.Popen(self._args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, bufsize=1)
        assert self._proc.stdout is not None
        first = self._proc.stdout.readline()
        if not first:
            err = self._proc.stderr.read() if self._proc.stderr else ""
            self._cleanup()
            raise SimulatorError(f"the {what} for {self.kind!r} did not start: {err.strip()[-500:]}")
        hello: dict[str, Any] = json.loads(first)
        self.port: str = hello["port"]
        self.tty: str = hello["tty"]
        self.pid: int = hello["pid"]
        return hello

    def command(self, line: str) -> dict[str, Any]:
        with self._lock:
            if self._proc.poll() is not None or self._proc.stdin is None or self._proc.stdout is None:
                raise SimulatorError(f"simulator {self.kind!r} is not running (exit {self._proc.returncode})")
            self._proc.stdin.write(line.strip() + "\n")
            self._proc.stdin.flush()
            reply = self._proc.stdout.readline()
        if not reply:
            raise SimulatorError(f"simulator {self.kind!r} closed its control channel")
        result: dict[str, Any] = json.loads(reply)
        return result

    @property
    def running(self) -> bool:
        return self._proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the simulator: the device loses power and its port vanishes. The simulator cleans up
        nothing; its port link is removed as udev removes a by-id link, so nobody opens a reused pty."""
        with self._lock:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.port)
            self._proc.kill()
            self._proc.wait()
            for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
                if stream:
                    stream.close()

    def restart(self) -> None:
        """Start the simulator again on the same port path (and, with ``persist``, the same memory)."""
        with self._lock:
            if self._proc.poll() is None:
                raise SimulatorError(f"simulator {self.kind!r} is still running")
            self._launch()

    def stop(self, timeout: float = 3.0) -> None:
        """Stop the simulator process and remove its port link."""
        if self._proc.poll() is None:
            try:
                if self._proc.stdin:
                    self._proc.stdin.close()
                self._proc.wait(timeout)
            except (subprocess.TimeoutExpired, BrokenPipeError, OSError):
                self._proc.terminate()
                try:
                    self._proc.wait(timeout)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
                    self._proc.wait()
        self._cleanup()

    def _cleanup(self) -> None:
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream:
                stream.close()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SimulatorProcess:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def start_simulator(kind: str, **options: Any) -> SimulatorProcess:
    """Start a simulated ``kind`` ("shoe", "shuffler", "reels") on a pty; options: decks, cut_from_bottom,
    seed, action_time, keep_log. Returns a handle whose ``port`` you open with pyserial or a driver."""
    return SimulatorProcess(kind, **options)
