"""An in-process simulated device behind an in-memory pipe, reachable as ``sim://NAME`` through pyserial.

It runs the same firmware core, fault injector and control commands as the pty simulator, in a thread, so a
test or a demo needs no pty and no second process.
"""

from __future__ import annotations

import itertools
import threading
import time
from typing import Any

from firmware_bridge.sim.control import SimulatorControl
from firmware_bridge.sim.device import make_core
from firmware_bridge.sim.engine import Engine
from firmware_bridge.sim.faults import FaultInjector

_REGISTRY: dict[str, MemorySimulator] = {}
_NAMES = itertools.count(1)
_REGISTRY_LOCK = threading.Lock()


class PortVanished(OSError):
    """The simulated port is gone (a vanish fault) or the simulator stopped."""


class MemorySimulator(SimulatorControl):
    """A simulated ``kind`` device in a background thread; open it with ``serial_for_url(sim.url)``."""

    def __init__(self, kind: str, *, name: str | None = None, seed: int | None = None,
                 **options: Any) -> None:
        self.kind = kind
        self.engine = Engine(make_core(kind, seed=seed, **options), FaultInjector(seed))
        self._cond = threading.Condition()
        self._to_host = bytearray()
        self._to_device = bytearray()
        self.generation = 0
        self._vanished_until = 0.0
        self._running = True
        with _REGISTRY_LOCK:
            self.name = name or f"{kind}-{next(_NAMES)}"
            if self.name in _REGISTRY:
                raise ValueError(f"a simulator named {self.name!r} already exists")
            _REGISTRY[self.name] = self
        self._thread = threading.Thread(target=self._run, name=f"sim-{self.name}", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"sim://{self.name}"

    port = url

    # -- device side -------------------------------------------------------------------------------
    def _run(self) -> None:
        with self._cond:
            while self._running:
                now = time.monotonic()
                if self._to_device:
                    data = bytes(self._to_device)
                    self._to_device.clear()
                    self.engine.feed(data, now)
                due = self.engine.pump(now)
                seconds = self.engine.take_vanish()
                if seconds:
                    self.generation += 1
                    self._vanished_until = now + seconds
                    self._to_host.clear()
                    self._to_device.clear()
                if self.engine.stopping:
                    break
                if due and not self.vanished:
                    for chunk in due:
                        self._to_host += chunk
                    self._cond.notify_all()
                self._cond.wait(max(0.0, min(self.engine.next_wakeup(now) - now, 0.05)))
            self._running = False
            self._cond.notify_all()

    @property
    def vanished(self) -> bool:
        return time.monotonic() < self._vanished_until

    def command(self, line: str) -> dict[str, Any]:
        with self._cond:
            reply = self.engine.control(line, time.monotonic())
            self._cond.notify_all()
        return reply

    def stop(self) -> None:
        with self._cond:
            self._running = False
            self.generation += 1
            self._cond.notify_all()
        self._thread.join(2.0)
        with _REGISTRY_LOCK:
            _REGISTRY.pop(self.name, None)

    def __enter__(self) -> MemorySimulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- host side (used by the sim:// pyserial handler) --------------------------------------------
    def attach(self) -> int:
        with self._cond:
            if not self._running or self.vanished:
                raise PortVanished(f"simulated port {self.url} is not present")
            self._to_host.clear()
            return self.generation

    def _check(self, generation: int) -> None:
        if generation != self.generation or not self._running:
            raise PortVanished(f"simulated port {self.url} vanished")

    def host_write(self, generation: int, data: bytes) -> None:
        with self._cond:
            self._check(generation)
            self._to_device += data
            self._cond.notify_all()

    def host_read(self, generation: int, size: int, timeout: float | None) -> bytes:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                self._check(generation)
                if self._to_host:
                    data = bytes(self._to_host[:size])
                    del self._to_host[:size]
                    return data
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return b""
                self._cond.wait(left)

    def host_waiting(self, generation: int) -> int:
        with self._cond:
            self._check(generation)
            return len(self._to_host)

    def host_flush_input(self, generation: int) -> None:
        with self._cond:
            self._to_host.clear()


def lookup(name: str) -> MemorySimulator | None:
    with _REGISTRY_LOCK:
        return _REGISTRY.get(name)
