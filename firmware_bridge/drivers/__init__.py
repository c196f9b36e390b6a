"""Device drivers: one interface per device kind, backends chosen by name."""

from __future__ import annotations

from firmware_bridge.drivers.backends import open_device, open_reels, open_shoe, open_shuffler
from firmware_bridge.drivers.base import Device, DeviceStatus, EventSubscription
from firmware_bridge.drivers.reels import ReelDisplay
from firmware_bridge.drivers.shoe import Shoe
from firmware_bridge.drivers.shuffler import Shuffler

__all__ = ["Device", "DeviceStatus", "EventSubscription", "ReelDisplay", "Shoe", "Shuffler", "open_device",
           "open_reels", "open_shoe", "open_shuffler"]
