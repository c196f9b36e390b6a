"""Helpers for the tests that run the reference firmware under simavr (the ``avr`` backend)."""

from __future__ import annotations

import importlib.util
import json
import os
import select
import subprocess
import time
import tty
from typing import Any
from unittest import mock

import pytest

from firmware_bridge import soak
from firmware_bridge.drivers.avr import FIRMWARE, build_firmware, missing_toolchain, start_avr
from firmware_bridge.protocol.frame import Frame, Framer, encode_frame

_spec = importlib.util.spec_from_file_location("fb_avr_relay", FIRMWARE / "sim" / "relay.py")
assert _spec is not None and _spec.loader is not None
_relay = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_relay)
decode_diag = _relay.decode_diag


def needs_avr() -> None:
    """Skip the calling test, saying what to install, when the AVR toolchain or simavr is absent."""
    reason = missing_toolchain()
    if reason:
        pytest.skip(f"the avr backend needs the AVR toolchain and simavr: {reason}")


def run_avr_soak(kind: str, faults: int, *, seed: int, **options: Any) -> dict[str, Any]:
    """:func:`firmware_bridge.soak.run_soak` with the firmware under simavr as the device.

    The soak's reconciliation is unchanged: the device's own log (what the firmware put on its UART before
    any fault) and the firmware's executed-command counters (read from its RAM) against what the host saw.
    """
    with mock.patch.object(soak, "start_simulator", start_avr):
        return soak.run_soak(kind, faults, seed=seed, **options)


class Harness:
    """``firmware/build/fbsim`` on its own (no relay): the firmware's UART on a pty, raw frames in and out."""

    def __init__(self, kind: str, *options: str) -> None:
        build_firmware()
        self.proc = subprocess.Popen(
            [str(FIRMWARE / "build" / "fbsim"), "--kind", kind,
             "--elf", str(FIRMWARE / "build" / f"sim-{kind}" / "firmware.elf"), *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        assert self.proc.stdout is not None
        self.port: str = json.loads(self.proc.stdout.readline())["port"]
        self.fd = os.open(self.port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.framer = Framer()
        self.frames: list[Frame] = []
        deadline = time.monotonic() + 10
        while not self.diag()["ready"]:  # a byte sent before the UART is enabled is lost, as on a real chip
            assert time.monotonic() < deadline, "the firmware did not finish booting"
            time.sleep(0.01)

    def control(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return reply

    def diag(self) -> dict[str, Any]:
        return decode_diag(self.control("stats")["diag"])

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def command(self, type_: int, seq: int, payload: bytes = b"") -> None:
        self.send(encode_frame(Frame(type=type_, seq=seq, payload=payload)))

    def expect(self, type_: int, timeout: float = 2.0) -> Frame:
        """The next frame of ``type_`` from the device (others are kept in ``frames``)."""
        deadline = time.monotonic() + timeout
        while True:
            for index, frame in enumerate(self.frames):
                if frame.type == type_:
                    return self.frames.pop(index)
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no frame of type 0x{type_:02X} within {timeout} s")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                self.frames += self.framer.feed(os.read(self.fd, 4096))

    def quiet(self, seconds: float) -> list[Frame]:
        """Every frame that arrives within ``seconds``."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                self.frames += self.framer.feed(os.read(self.fd, 4096))
        got, self.frames = self.frames, []
        return got

    def close(self) -> None:
        os.close(self.fd)
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
