"""The ``avr`` backend: the reference firmware in ``firmware/`` running under simavr, behind a real pty.

``start_avr("shoe", decks=1)`` builds the firmware and the harness with ``make sim`` when needed (make
decides), then starts ``firmware/sim/relay.py``, which runs the simavr harness and serves the host a pty
with the same fault injection and control commands as the Python simulators.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from firmware_bridge.errors import SimulatorError
from firmware_bridge.sim.process import SimulatorProcess

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
TOOLCHAIN = ("make", "avr-gcc", "cc", "pkg-config")
APT_PACKAGES = "gcc-avr avr-libc binutils-avr simavr libsimavr-dev libelf-dev make gcc pkg-config"


def missing_toolchain() -> str | None:
    """Why the avr backend cannot run here, or None when it can."""
    if not (FIRMWARE / "Makefile").is_file():
        return f"the firmware sources are not at {FIRMWARE} (run from a source checkout)"
    absent = [tool for tool in TOOLCHAIN if shutil.which(tool) is None]
    if not Path("/usr/include/simavr/sim_avr.h").is_file() and not Path("/usr/local/include/simavr").is_dir():
        absent.append("simavr headers")
    if absent:
        return f"{', '.join(absent)} not found; apt-get install {APT_PACKAGES}"
    return None


def build_firmware() -> None:
    """``make sim`` in ``firmware/`` (incremental; serialised between processes by a lock file)."""
    reason = missing_toolchain()
    if reason:
        raise SimulatorError(f"cannot build the AVR firmware: {reason}")
    (FIRMWARE / "build").mkdir(exist_ok=True)
    with open(FIRMWARE / "build" / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        result = subprocess.run(["make", "-s", "-C", str(FIRMWARE), "sim", f"PYTHON={sys.executable}"],
                                capture_output=True, text=True)
    if result.returncode:
        output = (result.stderr or result.stdout).strip()[-800:]
        raise SimulatorError(f"make sim failed in {FIRMWARE}: {output}")


class AvrSimulator(SimulatorProcess):
    """A running relay + simavr harness; ``port`` is the path to open. Same control API as the simulators."""

    def __init__(self, kind: str, *, decks: int | None = None, cut_from_bottom: int | None = None,
                 seed: int | None = None) -> None:
        build_firmware()
        self.kind = kind
        self._dir = tempfile.mkdtemp(prefix="fbavr-")
        link = os.path.join(self._dir, kind)
        args = [sys.executable, str(FIRMWARE / "sim" / "relay.py"), "--kind", kind, "--link", link,
                "--exit-on-eof"]
        for flag, value in (("--decks", decks), ("--cut", cut_from_bottom), ("--seed", seed)):
            if value is not None:
                args += [flag, str(value)]
        self._args = args
        self._lock = threading.Lock()
        self.harness_port: str = self._launch("simavr harness")["harness_port"]


def start_avr(kind: str, **options: Any) -> AvrSimulator:
    """Start the ``kind`` firmware under simavr; options: decks, cut_from_bottom, seed."""
    return AvrSimulator(kind, **options)
