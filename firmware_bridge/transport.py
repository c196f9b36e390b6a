"""Transport: open any port through ``serial.serial_for_url`` (115200 8N1).

Works for ``/dev/ttyUSB0`` and other device paths, ``loop://``, ``socket://host:port``,
``rfc2217://host:port`` and ``sim://NAME`` (an in-memory simulated device, registered here through
``serial.protocol_handler_packages``). A pty simulator is just a device path.
"""

from __future__ import annotations

import serial
from serial import SerialBase as Port

from firmware_bridge.errors import PortUnavailable

BAUDRATE = 115200
_HANDLERS = "firmware_bridge.urlhandlers"
if _HANDLERS not in serial.protocol_handler_packages:
    serial.protocol_handler_packages.append(_HANDLERS)



def open_port(url: str, *, baudrate: int = BAUDRATE, timeout: float = 0.02) -> Port:
    """Open ``url`` as 8N1 with a short read timeout; raises :class:`PortUnavailable` with the reason."""
    try:
        return serial.serial_for_url(url, baudrate=baudrate, bytesize=serial.EIGHTBITS,
                                     parity=serial.PARITY_NONE, stopbits=serial.STOPBITS_ONE,
                                     timeout=timeout, write_timeout=1.0)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise PortUnavailable(f"cannot open port {url!r}: {exc}") from exc


PortError = (serial.SerialException, OSError)
