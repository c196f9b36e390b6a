"""Backends by name: how a driver reaches its device.

==================  ===================================================================================
``"sim"``           an in-memory simulated device (``sim://`` URL); options: decks, seed, cut_from_bottom
``"pty"``           a simulator in its own process on a real pty; same options
``"avr"``           the reference firmware (``firmware/``) running under simavr on a real pty, built with
                    ``make`` first if needed; options: decks, seed, cut_from_bottom
``"serial"``        a real port: ``port="/dev/ttyUSB0"`` (or any pyserial URL)
a path or URL       ``"/dev/ttyACM0"``, ``"socket://host:7000"``, ``"rfc2217://..."``, ``"sim://name"``
==================  ===================================================================================

Any other keyword goes to :class:`~firmware_bridge.link.Link` (reply_timeout, retries, heartbeat...).
"""

from __future__ import annotations

from typing import Any, TypeVar

from firmware_bridge.drivers.base import Device
from firmware_bridge.drivers.reels import ReelDisplay
from firmware_bridge.drivers.shoe import Shoe
from firmware_bridge.drivers.shuffler import Shuffler

DRIVERS: dict[str, type[Device]] = {"shoe": Shoe, "shuffler": Shuffler, "reels": ReelDisplay}
BACKENDS = ("sim", "pty", "avr", "serial")
SIM_OPTIONS = ("decks", "seed", "cut_from_bottom", "action_time")

D = TypeVar("D", bound=Device)


def _open(cls: type[D], kind: str, target: str, options: dict[str, Any]) -> D:
    sim_options = {k: options.pop(k) for k in SIM_OPTIONS if k in options}
    if target == "sim":
        from firmware_bridge.sim.memory import MemorySimulator

        memory = MemorySimulator(kind, **sim_options)
        return cls(memory.url, simulator=memory, on_close=memory.stop, **options)
    if target == "pty":
        from firmware_bridge.sim.process import start_simulator

        process = start_simulator(kind, **sim_options)
        return cls(process.port, simulator=process, on_close=process.stop, **options)
    if target == "avr":
        from firmware_bridge.drivers.avr import start_avr

        sim_options.pop("action_time", None)
        process = start_avr(kind, **sim_options)
        return cls(process.port, simulator=process, on_close=process.stop, **options)
    if sim_options:
        raise ValueError(f"{', '.join(sim_options)} only apply to the sim, pty and avr backends, "
                         f"not {target!r}")
    if target == "serial":
        try:
            target = options.pop("port")
        except KeyError:
            raise ValueError("the serial backend needs port=..., e.g. port='/dev/ttyUSB0'") from None
    elif "://" not in target and not target.startswith("/"):
        raise ValueError(f"unknown backend {target!r}; expected one of {', '.join(BACKENDS)}, "
                         "a device path or a pyserial URL")
    return cls(target, **options)


def open_device(kind: str, target: str = "sim", **options: Any) -> Device:
    """Open a driver for ``kind`` ("shoe", "shuffler", "reels") on backend or URL ``target``."""
    try:
        cls = DRIVERS[kind]
    except KeyError:
        raise ValueError(f"unknown device kind {kind!r}; expected one of {', '.join(DRIVERS)}") from None
    return _open(cls, kind, target, options)


def open_shoe(target: str = "sim", **options: Any) -> Shoe:
    return _open(Shoe, "shoe", target, options)


def open_shuffler(target: str = "sim", **options: Any) -> Shuffler:
    return _open(Shuffler, "shuffler", target, options)


def open_reels(target: str = "sim", **options: Any) -> ReelDisplay:
    return _open(ReelDisplay, "reels", target, options)
