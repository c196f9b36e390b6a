"""Backends for the contract suite: an in-memory pipe, a simulator process on a real pty, the reference
firmware under simavr (``avr``; skipped when the AVR toolchain or simavr is not installed), and real hardware
when ``FB_SHOE_PORT`` / ``FB_SHUFFLER_PORT`` / ``FB_REELS_PORT`` names a port (skipped otherwise)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from fb_support import Opener

from firmware_bridge import Device, open_device
from firmware_bridge.drivers.avr import missing_toolchain

BACKENDS = ["memory", "pty", "avr", "hardware"]


@pytest.fixture(params=BACKENDS)
def open_kind(request: pytest.FixtureRequest) -> Iterator[Opener]:
    backend = request.param
    opened: list[Device] = []

    def opener(kind: str, **options: Any) -> Device:
        link = {"reply_timeout": 0.1, "retries": 3}
        link.update({k: options.pop(k) for k in list(options) if k in ("heartbeat", "reply_timeout")})
        if backend == "hardware":
            port = os.environ.get(f"FB_{kind.upper()}_PORT")
            if not port:
                pytest.skip(f"set FB_{kind.upper()}_PORT to run the contract suite on a real {kind}")
            device = open_device(kind, port, **link)
        elif backend == "avr":
            reason = missing_toolchain()
            if reason:
                pytest.skip(f"the avr backend needs the AVR toolchain and simavr: {reason}")
            device = open_device(kind, "avr", **options, **link)
        else:
            device = open_device(kind, "sim" if backend == "memory" else "pty", **options, **link)
        opened.append(device)
        return device

    yield opener
    for device in opened:
        device.close()
