"""Helpers for the tests that run the reference firmware under simavr (the ``avr`` backend)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from firmware_bridge import soak
from firmware_bridge.drivers.avr import missing_toolchain, start_avr


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
