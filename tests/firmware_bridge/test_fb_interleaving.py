"""Closing a port while another thread is inside it: the interleavings are forced with events, not sleeps.

Issue 14: the reader thread closed the port while the writer was inside pyserial's ``write``; the writer then
``select``-ed on an abort pipe that ``close()`` had set to ``None`` and died with a ``TypeError``.

* On a real pty (the test holds the far end): a write blocked because nobody drains the pty, and a read
  blocked because nothing arrives, are each closed from another thread through :class:`SharedPort`.
* Over every contract backend: a port wrapper parks the link's writer (or reader) inside the port at a
  barrier while the link loses or closes the port.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import serial
import serial.serialposix
from fb_support import Opener, needs_sim

import firmware_bridge.link
from firmware_bridge import CardDealt, LinkDown, LinkError, PortLost, SharedPort, Shoe, open_port

WAIT = 10.0  # generous upper bound for an event that must happen; never reached when things work


# -- a real pty whose far end the test holds -------------------------------------------------------------
@pytest.fixture
def pty_path() -> Iterator[str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


class PosixGate:
    """Stands in for the ``os`` and ``select`` modules inside pyserial's posix backend. It signals when a
    thread is in the ``select`` of a write (``in_write``) or of a read (``in_read``); with ``hold`` it
    also stops a writer right after its ``os.write`` (``wrote``) until ``go`` is set, so the test decides
    what happens between ``os.write`` and the ``select`` on the abort pipe."""

    def __init__(self, hold: bool) -> None:
        self.hold = hold
        self.wrote = threading.Event()
        self.in_write = threading.Event()
        self.in_read = threading.Event()
        self.go = threading.Event()

    def write(self, fd: int, data: bytes) -> int:
        written = os.write(fd, data)
        if self.hold and not self.wrote.is_set():
            self.wrote.set()
            assert self.go.wait(WAIT)
        return written

    def select(self, rlist: list[Any], wlist: list[Any], xlist: list[Any],
               timeout: float | None = None) -> Any:
        (self.in_write if wlist else self.in_read).set()
        return select.select(rlist, wlist, xlist, timeout)


class _OsShim(types.ModuleType):
    def __init__(self, gate: PosixGate) -> None:
        super().__init__("os")
        self.write = gate.write

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)


@pytest.fixture
def gate_factory(monkeypatch: pytest.MonkeyPatch) -> Callable[[bool], PosixGate]:
    def make(hold: bool) -> PosixGate:
        gate = PosixGate(hold)
        monkeypatch.setattr(serial.serialposix, "os", _OsShim(gate))
        monkeypatch.setattr(serial.serialposix, "select", types.SimpleNamespace(select=gate.select,
                                                                                 error=select.error))
        return gate

    return make


def _in_thread(fn: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["result"] = fn()
        except BaseException as exc:  # the test inspects whatever escaped
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_unguarded_pyserial_close_during_write_is_the_reported_crash(
        pty_path: str, gate_factory: Callable[[bool], PosixGate]) -> None:
    """The interleaving this file forces is the one from the issue: without the shared-port protocol the
    writer dies with pyserial's TypeError. (Shows the barrier reaches the crash; the fix is tested below.)"""
    gate = gate_factory(True)
    port = open_port(pty_path)
    thread, outcome = _in_thread(lambda: port.write(b"\x00" * 16))
    assert gate.wrote.wait(WAIT)  # os.write done, about to select on the abort pipe
    port.close()
    gate.go.set()
    thread.join(WAIT)
    assert isinstance(outcome.get("error"), TypeError)


def test_close_while_a_write_waits_between_write_and_select(
        pty_path: str, gate_factory: Callable[[bool], PosixGate]) -> None:
    gate = gate_factory(True)
    shared = SharedPort(open_port(pty_path), "pty")

    def write() -> int:
        with shared.use() as raw:
            return int(raw.write(b"\x00" * 16))

    thread, outcome = _in_thread(write)
    assert gate.wrote.wait(WAIT)
    shared.close()  # from another thread while the writer is inside: deferred, not torn down underneath
    assert not shared.closed and shared.port.is_open
    gate.go.set()
    thread.join(WAIT)
    assert outcome == {"result": 0}  # the close aborted the write: nothing is claimed as sent
    assert shared.closed and not shared.port.is_open
    with pytest.raises(PortLost, match="closed"), shared.use():
        pass


def test_close_while_a_write_is_blocked_on_a_full_pty(
        pty_path: str, gate_factory: Callable[[bool], PosixGate]) -> None:
    gate = gate_factory(False)
    port = open_port(pty_path)
    port.write_timeout = WAIT
    shared = SharedPort(port, "pty")
    blob = b"\x55" * (1 << 20)  # far more than a pty buffers: the write blocks until someone drains it

    def write() -> int:
        with shared.use() as raw:
            return int(raw.write(blob))

    thread, outcome = _in_thread(write)
    assert gate.in_write.wait(WAIT)  # the pty is full and the writer waits in select
    shared.close(wait=WAIT)  # aborts the blocked write, then the writer's exit closes the port
    thread.join(WAIT)
    assert not thread.is_alive()
    assert "error" not in outcome, outcome
    assert outcome["result"] < len(blob)  # cut short by the close: not finished, not crashed
    assert shared.closed and not port.is_open


def test_close_while_a_read_is_blocked(pty_path: str, gate_factory: Callable[[bool], PosixGate]) -> None:
    gate = gate_factory(False)
    port = open_port(pty_path)
    port.timeout = WAIT  # nothing will arrive: the read blocks until it is aborted
    shared = SharedPort(port, "pty")

    def read() -> bytes:
        with shared.use() as raw:
            return bytes(raw.read(64))

    thread, outcome = _in_thread(read)
    assert gate.in_read.wait(WAIT)
    shared.close(wait=WAIT)
    thread.join(WAIT)
    assert not thread.is_alive()
    assert outcome == {"result": b""}
    assert shared.closed and not port.is_open


def test_every_serial_layer_exception_inside_becomes_port_lost(pty_path: str) -> None:
    shared = SharedPort(open_port(pty_path), "pty")
    for exc in (TypeError("argument must be an int, or have a fileno() method"), ValueError("closed"),
                AttributeError("'NoneType' has no attribute 'fileno'"), OSError(5, "EIO"),
                serial.SerialException("device reports readiness to read but returned no data")):
        with pytest.raises(PortLost) as info, shared.use():
            raise exc
        assert isinstance(info.value, LinkError) and info.value.__cause__ is exc
    shared.close()
    assert shared.closed


# -- the link over every contract backend ------------------------------------------------------------------
class GatedPort:
    """Wraps the real port the link opens. When armed, the next write (or read) signals that it is inside
    the port and waits at a barrier until released, or until a close aborts it through ``cancel_write``
    / ``cancel_read`` as pyserial's posix port does. ``lose_next_read`` makes the next read fail the way
    an unplugged adapter's does. Every step is appended to ``log``."""

    def __init__(self, real: Any, log: list[str]) -> None:
        self.real = real
        self.log = log
        self.hold_write = False
        self.hold_read = False
        self.lose_next_read = False
        self.in_write = threading.Event()
        self.in_read = threading.Event()
        self.release_write = threading.Event()
        self.release_read = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    @property
    def in_waiting(self) -> int:
        return int(self.real.in_waiting)

    def write(self, data: bytes) -> Any:
        if self.hold_write:
            self.hold_write = False
            self.log.append("write-enter")
            self.in_write.set()
            assert self.release_write.wait(WAIT)
            result = self.real.write(data)
            self.log.append("write-exit")
            return result
        return self.real.write(data)

    def read(self, size: int = 1) -> bytes:
        if self.lose_next_read:
            self.lose_next_read = False
            self.log.append("read-lost")
            raise serial.SerialException("device reports readiness to read but returned no data")
        if self.hold_read:
            self.hold_read = False
            self.log.append("read-enter")
            self.in_read.set()
            assert self.release_read.wait(WAIT)
            self.log.append("read-exit")
            return b""
        return bytes(self.real.read(size))

    def cancel_write(self) -> None:
        self.log.append("cancel-write")
        self.release_write.set()
        cancel = getattr(self.real, "cancel_write", None)
        if cancel is not None:
            cancel()

    def cancel_read(self) -> None:
        self.log.append("cancel-read")
        self.release_read.set()
        cancel = getattr(self.real, "cancel_read", None)
        if cancel is not None:
            cancel()

    def close(self) -> None:
        self.log.append("close")
        self.real.close()


@pytest.fixture
def gated(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[GatedPort]]:
    """Every port the link opens from now on, wrapped; and every exception any thread let escape."""
    ports: list[GatedPort] = []
    escaped: list[BaseException] = []
    real_open = firmware_bridge.link.open_port

    def open_gated(url: str, **options: Any) -> Any:
        port = GatedPort(real_open(url, **options), [])
        ports.append(port)
        return port

    monkeypatch.setattr(firmware_bridge.link, "open_port", open_gated)
    monkeypatch.setattr(threading, "excepthook", lambda args: escaped.append(args.exc_value))
    yield ports
    assert escaped == [], f"a thread died: {escaped!r}"


def _shoe(open_kind: Opener) -> Shoe:
    shoe = open_kind("shoe", decks=1, seed=11, heartbeat=None, reply_timeout=0.2)
    assert isinstance(shoe, Shoe)
    return shoe


def test_port_lost_by_the_reader_while_a_command_is_inside_write(open_kind: Opener,
                                                                 gated: list[GatedPort]) -> None:
    shoe = _shoe(open_kind)
    downs = threading.Event()
    shoe.on_event(lambda e: downs.set() if isinstance(e, LinkDown) else None)
    first = gated[0]
    first.hold_write = True
    thread, outcome = _in_thread(shoe.deal)
    assert first.in_write.wait(WAIT)
    first.lose_next_read = True  # the cable comes out while DEAL is being written
    assert downs.wait(WAIT)
    thread.join(WAIT)
    assert "error" not in outcome, outcome
    assert isinstance(outcome["result"], CardDealt)
    # the reader gave the port up, aborted the writer and left closing it to the last one out
    assert first.log.index("read-lost") < first.log.index("cancel-write") < first.log.index("write-exit") \
        < first.log.index("close")
    assert first.log.count("close") == 1 and len(gated) >= 2  # the link reopened the port and carried on
    if shoe.simulator is not None:
        assert needs_sim(shoe).stats()["device"]["executed"]["DEAL"] == 1  # retried, replayed, dealt once


def test_link_closed_while_a_command_is_inside_write(open_kind: Opener, gated: list[GatedPort]) -> None:
    shoe = _shoe(open_kind)
    port = gated[0]
    port.hold_write = True
    thread, outcome = _in_thread(shoe.deal)
    assert port.in_write.wait(WAIT)
    shoe.link.close()  # aborts the write the way pyserial's cancel_write does, then closes
    thread.join(WAIT)
    assert not thread.is_alive()
    assert isinstance(outcome.get("error"), LinkError), outcome
    assert port.log.index("cancel-write") < port.log.index("write-exit") < port.log.index("close")
    assert port.log.count("close") == 1


def test_link_closed_while_the_reader_is_inside_read(open_kind: Opener, gated: list[GatedPort]) -> None:
    shoe = _shoe(open_kind)
    port = gated[0]
    port.hold_read = True
    assert port.in_read.wait(WAIT)
    shoe.link.close()
    assert port.log.index("cancel-read") < port.log.index("read-exit") < port.log.index("close")
    assert port.log.count("close") == 1
    assert not any(thread.is_alive() for thread in shoe.link._threads)
    with pytest.raises(LinkError, match="closed"):
        shoe.deal()


def test_close_with_wait_returns_only_once_the_last_user_has_closed_the_port(pty_path: str) -> None:
    port = open_port(pty_path)
    closing_started, release_close = threading.Event(), threading.Event()
    real_close = port.close

    def slow_close() -> None:  # the last thread out is inside port.close() until released
        closing_started.set()
        release_close.wait(5)
        real_close()

    port.close = slow_close  # type: ignore[method-assign]
    shared = SharedPort(port, "pty")
    inside, leave = threading.Event(), threading.Event()

    def user() -> None:
        with shared.use():
            inside.set()
            leave.wait(5)

    worker = threading.Thread(target=user)
    worker.start()
    assert inside.wait(5)
    returned = threading.Event()
    closer = threading.Thread(target=lambda: (shared.close(wait=5), returned.set()))
    closer.start()
    deadline = time.monotonic() + 5
    while not shared.closing and time.monotonic() < deadline:  # the close is requested while inside
        time.sleep(0.001)
    assert shared.closing
    leave.set()  # the user leaves and, being last, starts closing the port
    assert closing_started.wait(5)
    assert not returned.is_set() and port.is_open  # the port is not closed yet, so close() still waits
    release_close.set()
    closer.join(5)
    worker.join(5)
    assert returned.is_set() and not port.is_open
