"""The one exception hierarchy of :mod:`firmware_bridge`.

Every error inherits :class:`FirmwareBridgeError` and the builtin it most resembles, so callers may catch
either ``FirmwareBridgeError`` or e.g. ``TimeoutError``.
"""

from __future__ import annotations


class FirmwareBridgeError(Exception):
    """Base of every error raised by firmware_bridge."""


# -- bytes on the wire ------------------------------------------------------------------------------
class FrameError(FirmwareBridgeError, ValueError):
    """A frame could not be decoded (COBS, length, CRC or version)."""


class CobsError(FrameError):
    """The bytes are not valid COBS."""


class CrcMismatch(FrameError):
    """The frame's CRC-16 does not match its contents."""


class FrameSizeError(FrameError):
    """The frame is shorter than a header plus CRC or longer than the maximum frame."""


class VersionMismatch(FrameError):
    """The frame carries a protocol version this host does not speak."""


class PayloadError(FrameError):
    """A payload does not match the layout table for its message type."""


class UnknownMessage(PayloadError, LookupError):
    """The message type is not in the layout table."""


# -- the link ---------------------------------------------------------------------------------------
class LinkError(FirmwareBridgeError, ConnectionError):
    """The serial link is down or the port cannot be used."""


class PortUnavailable(LinkError):
    """The port could not be opened (missing, busy or vanished)."""


class PortLost(LinkError):
    """The port vanished or was closed while in use (unplugged cable, device gone, link closing)."""


class LinkTimeout(LinkError, TimeoutError):
    """The device did not answer within the deadline after all retries and re-handshakes."""


class ProtocolMismatch(FirmwareBridgeError, ValueError):
    """The device speaks another protocol version or is another kind of device than expected."""


# -- the device said no -----------------------------------------------------------------------------
class DeviceError(FirmwareBridgeError, RuntimeError):
    """The device refused a command; ``status`` is the protocol status code."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


class UnsupportedCommand(DeviceError, NotImplementedError):
    """The device does not implement this command."""


class BadRequest(DeviceError, ValueError):
    """The device rejected the command's arguments."""


class DeviceBusy(DeviceError):
    """The device is busy (motor running, event queue full); try again later."""


class ShoeEmptyError(DeviceError, LookupError):
    """The shoe has no card left to deal."""


class JamError(DeviceError):
    """The mechanism is jammed; an operator must clear it."""


class DoorOpenError(DeviceError):
    """A door or lid is open; the device will not move."""


class NotHomedError(DeviceError):
    """The reels are not homed; home them first."""


class SimulatorError(FirmwareBridgeError, RuntimeError):
    """A device simulator could not be started or controlled."""
