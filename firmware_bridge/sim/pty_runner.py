"""Run a simulated device on a real pseudo-terminal, speaking the protocol from the device side.

The host opens the pty's slave end (or the stable symlink ``link``) with pyserial exactly as it would open
a USB serial adapter. A *vanish* fault closes the pty (the host sees the port disappear) and later opens a
new one and repoints the symlink, as a re-plugged adapter reappears under ``/dev/serial/by-id``.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sys
import time
import tty
from typing import Any, TextIO

from firmware_bridge.sim.engine import Engine
from firmware_bridge.sim.nvram import NvMemory


class PtyPort:
    """One pty pair; the simulator holds both ends so the host may close and reopen freely."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no line discipline: bytes pass untouched
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


def _point(link: str, target: str) -> None:
    tmp = f"{link}.{os.getpid()}.tmp"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    os.symlink(target, tmp)
    os.replace(tmp, link)


def run(engine: Engine, *, link: str | None = None, control: bool = True, exit_on_eof: bool = False,
        baud: int | None = None, out: TextIO = sys.stdout, extra: dict[str, Any] | None = None,
        nv: NvMemory | None = None) -> None:
    """Serve ``engine`` on a pty until ``quit`` (or stdin EOF with ``exit_on_eof``, or SIGTERM/SIGINT).

    ``baud`` paces the device's output to a real UART's rate (10 bits per byte, 8N1); a pty alone has
    no line rate. With ``nv`` the device's state is written ahead of every byte it sends."""
    stop = False

    def _stop(*_: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    first = PtyPort()
    port: PtyPort | None = first
    if link:
        _point(link, first.path)
    print(json.dumps({"port": link or first.path, "tty": first.path, "pid": os.getpid(),
                      "kind": engine.core.kind.name.lower(), **(extra or {})}), file=out, flush=True)
    stdin_fd = sys.stdin.fileno() if control else None
    control_buffer = b""
    pending = bytearray()
    reopen_at = 0.0
    line_free_at = 0.0
    try:
        while not stop and not engine.stopping:
            now = time.monotonic()
            due = engine.pump(now)
            if nv is not None:
                nv.save(engine.core)
            if port is not None:
                for chunk in due:
                    pending += chunk
                if len(pending) > 65536:  # nobody is reading: drop the oldest, as a UART would
                    del pending[:-65536]
            seconds = engine.take_vanish()
            if seconds and port is not None:
                port.close()
                port = None
                pending.clear()
                if link:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(link)
                reopen_at = now + seconds
            if port is None and now >= reopen_at:
                port = PtyPort()
                if link:
                    _point(link, port.path)
            if port is not None and pending and now >= line_free_at:
                piece = pending if baud is None else pending[:32]
                try:
                    written = os.write(port.master, piece)
                    del pending[:written]
                    if baud is not None:
                        # a late wake-up may catch up at most 10 ms of line time, like a UART's FIFO
                        line_free_at = max(now - 0.01, line_free_at) + written * 10 / baud
                except BlockingIOError:
                    pass
                except OSError:
                    pending.clear()
            wait = max(0.0, min(engine.next_wakeup(now) - now, 0.05))
            if port is None:
                wait = min(wait, max(0.0, reopen_at - now))
            readers = [port.master] if port is not None else []
            if stdin_fd is not None:
                readers.append(stdin_fd)
            if pending and baud is not None:
                wait = min(wait, max(0.0, line_free_at - now))
            writers = [port.master] if port is not None and pending and now >= line_free_at else []
            try:
                ready, _, _ = select.select(readers, writers, [], wait)
            except InterruptedError:
                continue
            now = time.monotonic()
            if port is not None and port.master in ready:
                try:
                    data = os.read(port.master, 4096)
                except (BlockingIOError, OSError):
                    data = b""
                if data:
                    engine.feed(data, now)
                    if nv is not None:
                        nv.save(engine.core)
            if stdin_fd is not None and stdin_fd in ready:
                chunk = os.read(stdin_fd, 4096)
                if not chunk:
                    stdin_fd = None
                    if exit_on_eof:
                        break
                    continue
                control_buffer += chunk
                while b"\n" in control_buffer:
                    line, control_buffer = control_buffer.split(b"\n", 1)
                    if line.strip():
                        reply = engine.control(line.decode("utf-8", "replace"), time.monotonic())
                        print(json.dumps(reply), file=out, flush=True)
    finally:
        if port is not None:
            port.close()
        if link:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(link)
