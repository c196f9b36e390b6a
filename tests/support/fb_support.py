"""Helpers shared by the firmware_bridge tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from firmware_bridge import Device

Opener = Callable[..., Device]


def needs_sim(device: Device) -> Any:
    """The device's simulator handle; skips the test on real hardware."""
    if device.simulator is None:
        pytest.skip("needs a simulator to inject faults or know the device state")
    return device.simulator
