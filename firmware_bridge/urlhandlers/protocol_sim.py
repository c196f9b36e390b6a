"""pyserial handler for ``sim://NAME``: a port whose far end is an in-memory simulated device.

``sim://NAME`` attaches to the running :class:`~firmware_bridge.sim.memory.MemorySimulator` called NAME.
``sim://shoe?decks=6&seed=1`` (a device kind instead of a name) starts a private simulator that stops when
the port is closed.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlsplit

from serial.serialutil import PortNotOpenError, SerialBase, SerialException

from firmware_bridge.sim.device import CORES
from firmware_bridge.sim.memory import MemorySimulator, PortVanished, lookup


class Serial(SerialBase):  # type: ignore[misc]
    is_open: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.simulator: MemorySimulator | None = None
        self._owned = False
        self._generation = -1
        super().__init__(*args, **kwargs)

    def open(self) -> None:
        if self.is_open:
            raise SerialException("Port is already open.")
        parts = urlsplit(self.portstr)
        name = parts.netloc or parts.path.lstrip("/")
        simulator = lookup(name)
        if simulator is None:
            if name not in CORES:
                raise SerialException(f"no simulator named {name!r}; use sim://<running name> or "
                                      f"sim://<{'|'.join(CORES)}>?decks=N&seed=S")
            options: dict[str, Any] = {k: int(v) for k, v in parse_qsl(parts.query)}
            simulator = MemorySimulator(name, **options)
            self._owned = True
        try:
            self._generation = simulator.attach()
        except PortVanished as exc:
            raise SerialException(2, f"could not open port {self.portstr}: {exc}") from exc
        self.simulator = simulator
        self.is_open = True

    def close(self) -> None:
        if self.simulator is not None and self._owned:
            self.simulator.stop()
        self.simulator = None
        self.is_open = False

    def _sim(self) -> MemorySimulator:
        if not self.is_open or self.simulator is None:
            raise PortNotOpenError()
        return self.simulator

    def _reconfigure_port(self) -> None:
        pass

    @property
    def in_waiting(self) -> int:
        try:
            return self._sim().host_waiting(self._generation)
        except PortVanished as exc:
            raise SerialException(f"read failed: {exc}") from exc

    def read(self, size: int = 1) -> bytes:
        try:
            return self._sim().host_read(self._generation, size, self._timeout)
        except PortVanished as exc:
            raise SerialException(f"read failed: {exc}") from exc

    def write(self, data: bytes) -> int:
        try:
            self._sim().host_write(self._generation, bytes(data))
        except PortVanished as exc:
            raise SerialException(f"write failed: {exc}") from exc
        return len(data)

    def reset_input_buffer(self) -> None:
        self._sim().host_flush_input(self._generation)

    def reset_output_buffer(self) -> None:
        pass

    def flush(self) -> None:
        pass
