"""The driver base: one object per device, a context manager, events to callbacks, queues or ``async for``."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from firmware_bridge.errors import (
    BadRequest,
    DeviceBusy,
    DeviceError,
    DoorOpenError,
    JamError,
    LinkTimeout,
    NotHomedError,
    ShoeEmptyError,
    UnsupportedCommand,
)
from firmware_bridge.events import DeviceEvent, DeviceReset
from firmware_bridge.link import DeviceInfo, Link
from firmware_bridge.protocol.layouts import METER_NAMES, DeviceKind, DeviceState, Status, StatusFlag
from firmware_bridge.sim.control import SimulatorControl

_STATUS_ERRORS: dict[int, type[DeviceError]] = {
    Status.UNKNOWN_COMMAND: UnsupportedCommand, Status.BAD_PAYLOAD: BadRequest, Status.BUSY: DeviceBusy,
    Status.EMPTY: ShoeEmptyError, Status.JAMMED: JamError, Status.DOOR_OPEN: DoorOpenError,
    Status.NOT_HOMED: NotHomedError, Status.QUEUE_FULL: DeviceBusy,
}
_STATUS_TEXT = {
    Status.UNKNOWN_COMMAND: "the device does not implement this command",
    Status.BAD_PAYLOAD: "the device rejected the arguments", Status.BUSY: "the device is busy",
    Status.EMPTY: "the device is empty", Status.JAMMED: "the mechanism is jammed; clear it",
    Status.DOOR_OPEN: "a door is open; close it", Status.NOT_HOMED: "the reels are not homed; call home()",
    Status.BAD_STATE: "the device is not in a state to do this",
    Status.QUEUE_FULL: "the device's event queue is full; events are not being acked",
    Status.NEED_HELLO: "the device rebooted and was not greeted",
}


@dataclass(frozen=True, slots=True)
class DeviceStatus:
    state: str
    flags: frozenset[str]
    pending_events: int
    uptime_ms: int
    cards: int


class EventSubscription:
    """A synchronous event queue: ``get(timeout)`` or iterate. Close it (or use ``with``) when done."""

    def __init__(self, device: Device) -> None:
        self._queue: queue.Queue[DeviceEvent] = queue.Queue()
        self._unsubscribe = device.on_event(self._queue.put)

    def get(self, timeout: float | None = None) -> DeviceEvent:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            raise LinkTimeout(f"no event within {timeout} s") from None

    def drain(self) -> list[DeviceEvent]:
        items = []
        while True:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                return items

    def __iter__(self) -> Iterator[DeviceEvent]:
        while True:
            yield self._queue.get()

    def close(self) -> None:
        self._unsubscribe()

    def __enter__(self) -> EventSubscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Device:
    """Common driver behaviour. Subclasses add the commands of their device kind."""

    kind: ClassVar[DeviceKind]

    def __init__(self, url: str, *, simulator: SimulatorControl | None = None,
                 on_close: Callable[[], None] | None = None, **link_options: Any) -> None:
        self.url = url
        self.simulator = simulator
        self._on_close = on_close
        self._subscribers: list[Callable[[DeviceEvent], None]] = []
        self._recent: deque[tuple[int, DeviceEvent]] = deque(maxlen=2048)
        self._index = 0
        self._cond = threading.Condition()
        try:
            self.link = Link(url, sink=self._deliver, expect_kind=self.kind, **link_options)
        except BaseException:
            if on_close is not None:
                on_close()
            raise

    # -- events ------------------------------------------------------------------------------------
    def _deliver(self, event: DeviceEvent) -> None:
        with self._cond:
            if isinstance(event, DeviceReset):
                self._recent.clear()  # event numbers restart after a reset
            self._index += 1
            self._recent.append((self._index, event))
            self._cond.notify_all()
            subscribers = list(self._subscribers)
        for callback in subscribers:
            callback(event)

    def on_event(self, callback: Callable[[DeviceEvent], None]) -> Callable[[], None]:
        """Call ``callback(event)`` for every event (from the link's dispatcher thread); returns an
        unsubscribe function. Callbacks may issue commands."""
        with self._cond:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._cond, contextlib.suppress(ValueError):
                self._subscribers.remove(callback)

        return unsubscribe

    def subscribe(self) -> EventSubscription:
        """A queue of every event from now on."""
        return EventSubscription(self)

    async def events(self) -> AsyncIterator[DeviceEvent]:
        """``async for event in device.events(): ...`` — every event from now on."""
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[DeviceEvent] = asyncio.Queue()

        def forward(event: DeviceEvent) -> None:
            loop.call_soon_threadsafe(inbox.put_nowait, event)

        unsubscribe = self.on_event(forward)
        try:
            while True:
                yield await inbox.get()
        finally:
            unsubscribe()

    def _mark(self) -> int:
        with self._cond:
            return self._index

    def _wait_event(self, match: Callable[[DeviceEvent], bool], after: int, timeout: float,
                    what: str) -> DeviceEvent:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for index, event in self._recent:
                    if index > after and match(event):
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    raise LinkTimeout(f"{self.kind.name.lower()} on {self.url}: no {what} within {timeout} s")
                self._cond.wait(left)

    # -- commands ----------------------------------------------------------------------------------
    def _command(self, name: str, values: dict[str, Any] | None = None) -> dict[str, Any]:
        reply = self.link.request(name, values)
        status = reply["status"]
        if reply.get("_type") == "NAK" or status != Status.OK:
            try:
                text = _STATUS_TEXT[Status(status)]
            except ValueError:
                text = f"unknown status {status}"
            error = _STATUS_ERRORS.get(status, DeviceError)
            raise error(f"{self.kind.name.lower()} refused {name}: {text} (status {status})", status)
        return reply

    @property
    def info(self) -> DeviceInfo:
        assert self.link.info is not None
        return self.link.info

    def status(self) -> DeviceStatus:
        reply = self._command("PING")
        flags = frozenset(f.name.lower() for f in StatusFlag if reply["flags"] & f)
        try:
            state = DeviceState(reply["state"]).name.lower()
        except ValueError:
            state = f"unknown({reply['state']})"
        return DeviceStatus(state, flags, reply["pending_events"], reply["uptime_ms"], reply["cards"])

    def ping(self) -> float:
        """One PING round trip, in seconds."""
        return self.link.ping()

    def meters(self) -> dict[str, int]:
        """The device's non-volatile meters by name."""
        values = self._command("READ_METERS")["meters"]
        return dict(zip(METER_NAMES[self.kind], values, strict=True))

    def reset(self) -> None:
        """Ask the device to reboot; a :class:`DeviceReset` event follows once it is back."""
        self._command("RESET")

    def close(self) -> None:
        self.link.close()
        if self._on_close is not None:
            self._on_close()
            self._on_close = None

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
