"""firmware_bridge: an open serial protocol for card-table hardware, its drivers and simulated devices.

Layers (each usable alone): :mod:`~firmware_bridge.protocol` (pure bytes) → :mod:`~firmware_bridge.transport`
(``serial.serial_for_url``) → :mod:`~firmware_bridge.link` (sequencing, retries, events, heartbeat,
reconnect) → :mod:`~firmware_bridge.drivers` (``Shoe``, ``Shuffler``, ``ReelDisplay``).

Open a shoe on a simulated device and deal::

    >>> from firmware_bridge import open_shoe, CardDealt
    >>> with open_shoe("sim", decks=1, seed=1) as shoe:
    ...     card = shoe.deal()
    >>> isinstance(card, CardDealt) and card.event_no == 1
    True

A simulator in its own process on a real pty, opened like a USB adapter::

    >>> from firmware_bridge import start_simulator, Shoe
    >>> with start_simulator("shoe", decks=6, seed=2) as sim, Shoe(sim.port) as shoe:
    ...     shoe.info.kind, shoe.status().cards
    ('shoe', 312)

Protocol reference: ``firmware_bridge/PROTOCOL.md``. This package never imports ``dealer`` or ``vision``.
"""

from __future__ import annotations

from firmware_bridge.drivers import (
    Device,
    DeviceStatus,
    EventSubscription,
    ReelDisplay,
    Shoe,
    Shuffler,
    open_device,
    open_reels,
    open_shoe,
    open_shuffler,
)
from firmware_bridge.errors import (
    BadRequest,
    DeviceBusy,
    DeviceError,
    DoorOpenError,
    FirmwareBridgeError,
    FrameError,
    JamError,
    LinkError,
    LinkTimeout,
    NotHomedError,
    PayloadError,
    PortLost,
    PortUnavailable,
    ProtocolMismatch,
    ShoeEmptyError,
    SimulatorError,
    UnsupportedCommand,
)
from firmware_bridge.events import (
    CardDealt,
    CutCardReached,
    DeckVerified,
    DeviceEvent,
    DeviceReset,
    DoorClosed,
    DoorOpen,
    HandDealt,
    Jam,
    JamCleared,
    LinkDown,
    LinkUp,
    QueueOverflow,
    ReelHomeFailed,
    ReelStopped,
    ShoeEmpty,
    ShuffleComplete,
)
from firmware_bridge.link import CommandInterrupted, DeviceInfo, Link, LinkStats
from firmware_bridge.sim.memory import MemorySimulator
from firmware_bridge.sim.process import SimulatorProcess, start_simulator
from firmware_bridge.transport import SharedPort, open_port

__all__ = [
    "BadRequest", "CardDealt", "CommandInterrupted", "CutCardReached", "DeckVerified", "Device",
    "DeviceBusy", "DeviceError", "DeviceEvent", "DeviceInfo", "DeviceReset", "DeviceStatus", "DoorClosed",
    "DoorOpen", "DoorOpenError", "EventSubscription", "FirmwareBridgeError", "FrameError", "HandDealt", "Jam",
    "JamCleared", "JamError", "Link", "LinkDown", "LinkError", "LinkStats", "LinkTimeout", "LinkUp",
    "MemorySimulator", "NotHomedError", "PayloadError", "PortLost", "PortUnavailable", "ProtocolMismatch",
    "QueueOverflow", "ReelDisplay", "ReelHomeFailed", "ReelStopped", "SharedPort", "Shoe", "ShoeEmpty",
    "ShoeEmptyError", "Shuffler", "ShuffleComplete", "SimulatorError", "SimulatorProcess",
    "UnsupportedCommand", "open_device", "open_port", "open_reels", "open_shoe", "open_shuffler",
    "start_simulator",
]
