"""Transport: open any port through ``serial.serial_for_url`` (115200 8N1), and share it between threads.

Works for ``/dev/ttyUSB0`` and other device paths, ``loop://``, ``socket://host:port``,
``rfc2217://host:port`` and ``sim://NAME`` (an in-memory simulated device, registered here through
``serial.protocol_handler_packages``). A pty simulator is just a device path.

A pyserial object is not safe to close while another thread is inside ``read`` or ``write``: ``close()``
tears down the file descriptor and the abort pipes the other thread is about to ``select`` on, and the
other thread then fails with whatever the half-closed object happens to raise (``TypeError``,
``ValueError``, ``AttributeError``, ``OSError``, ``SerialException``). :class:`SharedPort` makes closing
and using one protocol: a port is closed only when no thread is inside it (a close requested meanwhile
aborts blocked reads and writes and is carried out by the last thread to leave), and every exception the
serial layer raises inside it becomes :class:`~firmware_bridge.errors.PortLost`.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import serial
from serial import SerialBase as Port

from firmware_bridge.errors import PortLost, PortUnavailable

BAUDRATE = 115200
_HANDLERS = "firmware_bridge.urlhandlers"
if _HANDLERS not in serial.protocol_handler_packages:
    serial.protocol_handler_packages.append(_HANDLERS)

#: everything an open, closing or closed pyserial object is known to raise when its device goes away
PORT_FAULTS: tuple[type[BaseException], ...] = (serial.SerialException, OSError, TypeError, ValueError,
                                                AttributeError)


def open_port(url: str, *, baudrate: int = BAUDRATE, timeout: float = 0.02) -> Port:
    """Open ``url`` as 8N1 with a short read timeout; raises :class:`PortUnavailable` with the reason."""
    try:
        return serial.serial_for_url(url, baudrate=baudrate, bytesize=serial.EIGHTBITS,
                                     parity=serial.PARITY_NONE, stopbits=serial.STOPBITS_ONE,
                                     timeout=timeout, write_timeout=1.0)
    except PORT_FAULTS as exc:
        raise PortUnavailable(f"cannot open port {url!r}: {exc}") from exc


class SharedPort:
    """One open port used by several threads; closed only when none of them is inside it.

    ``with shared.use() as port: port.write(data)`` — raises :class:`PortLost` if the port is closing or
    closed, and turns every serial-layer exception raised inside the block into :class:`PortLost`.
    :meth:`close` may be called from any thread, inside or outside :meth:`use`, any number of times.
    """

    def __init__(self, port: Port, name: str = "") -> None:
        self.port = port
        self.name = name or str(getattr(port, "portstr", "") or "port")
        self._cond = threading.Condition()
        self._users = 0
        self._closing = False
        self._closed = False  # the close is claimed by one thread
        self._shut = False  # … and has been carried out

    @property
    def closing(self) -> bool:
        return self._closing

    @property
    def closed(self) -> bool:
        return self._closed

    @contextlib.contextmanager
    def use(self) -> Iterator[Port]:
        with self._cond:
            if self._closing:
                raise PortLost(f"{self.name} is closed")
            self._users += 1
        try:
            yield self.port
        except PORT_FAULTS as exc:
            raise PortLost(f"{self.name}: {type(exc).__name__}: {exc}") from exc
        finally:
            self._leave()

    def _leave(self) -> None:
        with self._cond:
            self._users -= 1
            last = self._closing and self._users == 0 and not self._closed
            if last:
                self._closed = True
        if last:
            self._close_port()

    def close(self, wait: float | None = None) -> None:
        """Close now if nobody is inside, else abort their blocked I/O and let the last one out close it.

        With ``wait`` (seconds), return only once the port is really closed or the time is up."""
        with self._cond:
            if not self._closing:
                self._closing = True
                if self._users == 0:
                    self._closed = True
                    now = True
                else:
                    now = False
                    self._abort_io()  # still open: nobody can close it before we release the lock
            else:
                now = False
        if now:
            self._close_port()
        if wait is not None:
            with self._cond:
                self._cond.wait_for(lambda: self._shut, wait)

    def _abort_io(self) -> None:
        for name in ("cancel_read", "cancel_write"):
            cancel = getattr(self.port, name, None)
            if cancel is not None:
                with contextlib.suppress(*PORT_FAULTS):
                    cancel()

    def _close_port(self) -> None:
        with contextlib.suppress(*PORT_FAULTS):
            self.port.close()
        with self._cond:
            self._shut = True
            self._cond.notify_all()
