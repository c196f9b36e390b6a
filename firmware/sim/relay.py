"""The host's side of the firmware under simavr: a pty the host opens, the harness's pty behind it.

``python firmware/sim/relay.py --kind shoe`` starts ``build/fbsim`` with ``build/sim-shoe/firmware.elf`` and
serves a second pty through :func:`firmware_bridge.sim.pty_runner.run`, so the firmware gets what the Python
simulators get: the same link-fault injector between host and device (garbage, bit flips, drops, ...), a
port that can vanish, and the same control commands on stdin (``stats``, ``events``, ``fault``, ``chaos``,
``reset``, ``jam``, ``door``, ``misread``, ...). Sensors and the deck are the harness's; this relay only
forwards those commands.

The event log (``events``) is what the firmware put on its UART, read before any fault is injected: one
entry per (boot, event number), the first time the firmware sent it. ``stats`` adds the firmware's own
counters (commands executed, replays from the cache, frames dropped) read from its RAM by the harness.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import struct
import subprocess
import tty
from collections import deque
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from firmware_bridge.errors import FrameError, PayloadError
from firmware_bridge.protocol.frame import decode_frame
from firmware_bridge.protocol.layouts import EVENT_RANGE, DeviceKind
from firmware_bridge.protocol.messages import SPECS, decode_payload
from firmware_bridge.sim.faults import FaultInjector
from firmware_bridge.sim.pty_runner import run

FIRMWARE = Path(__file__).resolve().parents[1]
DEVICE_COMMANDS = ("reset", "jam", "clear", "empty", "misread", "home_fail")
#: the firmware's ``struct diag`` (link.c), little-endian and packed
DIAG = struct.Struct("<BIII16HHHHHHBB")
#: index of each command in diag.executed (link.c cmd_index)
EXECUTED_INDEX = {"PING": 2, "READ_METERS": 3, "RESET": 4, "DEAL": 6, "LOAD": 7, "SHUFFLE": 8,
                  "VERIFY_DECK": 9, "DEAL_HANDS": 10, "ROLL_DICE": 11, "SPIN": 12, "HOME": 13,
                  "SET_DISPLAY": 14}


def decode_diag(hex_text: str) -> dict[str, Any]:
    """The firmware's diagnostic block, as the harness read it from RAM."""
    raw = bytes.fromhex(hex_text)[:DIAG.size]
    (ready, boot_id, next_no, acked, *rest) = DIAG.unpack(raw)
    executed_raw, (replays, bad_frames, sent, resends, overflowed, queued, safe) = rest[:16], rest[16:]
    executed = {name: executed_raw[i] for name, i in EXECUTED_INDEX.items() if executed_raw[i]}
    executed["__all__"] = sum(executed.values())
    return {"ready": ready == 0xA5, "boot_id": boot_id, "next_event_no": next_no, "acked_event_no": acked,
            "executed": executed, "replays": replays, "bad_frames": bad_frames, "events_sent": sent,
            "event_resends": resends, "overflowed": overflowed, "queued": queued, "safe": bool(safe)}


class AvrEngine:
    """Duck-types :class:`firmware_bridge.sim.engine.Engine` for :func:`pty_runner.run`."""

    def __init__(self, kind: str, harness: list[str], seed: int | None) -> None:
        self.core = SimpleNamespace(kind=DeviceKind[kind.upper()])
        self.proc = subprocess.Popen(harness, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1)
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        if not first:
            raise SystemExit(f"the simavr harness did not start: {' '.join(harness)}")
        self.harness_port = json.loads(first)["port"]
        self.fd = os.open(self.harness_port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd)
        self.faults = FaultInjector(seed)
        self.line: deque[tuple[float, bytes]] = deque()
        self.vanish_for = 0.0
        self.stopping = False
        self.partial = bytearray()
        self.to_device = bytearray()
        self.boot_id: int | None = None
        self.seen: set[tuple[int | None, int]] = set()
        self.event_log: list[tuple[int | None, int, str, dict[str, Any]]] = []

    # -- bytes ----------------------------------------------------------------------------------
    def feed(self, data: bytes, now: float) -> None:
        data = self.faults.incoming(data)
        self.to_device += data
        self._flush_to_device()

    def _flush_to_device(self) -> None:
        if self.to_device:
            with contextlib.suppress(BlockingIOError):
                written = os.write(self.fd, self.to_device)
                del self.to_device[:written]

    def pump(self, now: float) -> list[bytes]:
        self._flush_to_device()
        while True:
            try:
                data = os.read(self.fd, 4096)
            except (BlockingIOError, OSError):
                break
            if not data:
                break
            self.partial += data
        while (end := self.partial.find(0)) >= 0:
            frame = bytes(self.partial[:end + 1])
            del self.partial[:end + 1]
            self._observe(frame)
            for chunk in self.faults.outgoing(frame):
                tail = self.line[-1][0] if self.line else now
                self.line.append((max(tail, now) + chunk.delay, chunk.data))
        seconds = self.faults.take_vanish()
        if seconds:
            self.vanish_for = seconds
        due = []
        while self.line and self.line[0][0] <= now:
            due.append(self.line.popleft()[1])
        return due

    def _observe(self, wire: bytes) -> None:
        try:
            frame = decode_frame(wire[:-1])
            values = decode_payload(frame.type, frame.payload)
        except (FrameError, PayloadError):
            return
        if frame.type == 0x81:
            self.boot_id = values["boot_id"]
        elif frame.type in EVENT_RANGE:
            number = values.pop("event_no")
            if (self.boot_id, number) not in self.seen:
                self.seen.add((self.boot_id, number))
                self.event_log.append((self.boot_id, number, SPECS[frame.type].name, values))

    def next_wakeup(self, now: float) -> float:
        wake = now + 0.001  # the harness's pty is polled: the runner selects on the host's side only
        if self.line:
            wake = min(wake, self.line[0][0])
        return wake

    def take_vanish(self) -> float:
        seconds, self.vanish_for = self.vanish_for, 0.0
        return seconds

    # -- control ----------------------------------------------------------------------------------
    def harness(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        if not reply:
            return {"ok": False, "error": "the simavr harness stopped"}
        result: dict[str, Any] = json.loads(reply)
        return result

    def control(self, line: str, now: float) -> dict[str, Any]:
        words = line.split()
        if not words:
            return {"ok": False, "error": "empty command; try 'stats'"}
        cmd, args = words[0].lower(), words[1:]
        try:
            if cmd == "stats":
                return self._stats()
            if cmd == "events":
                start = int(args[0]) if args else 0
                return {"ok": True, "events": [list(e) for e in self.event_log[start:]]}
            if cmd == "fault":
                kind = args[0]
                count = int(args[1]) if len(args) > 1 else 1
                if kind in DEVICE_COMMANDS:
                    return self.control(f"{kind} {count}", now)
                if kind == "door":
                    return self.control("door open", now)
                self.faults.queue(kind, count)
                return {"ok": True}
            if cmd == "chaos":
                rate = float(args[1]) if len(args) > 1 else 0.2
                self.faults.chaos(int(args[0]), rate, args[2].split(",") if len(args) > 2 else None)
                return {"ok": True}
            if cmd == "vanish":
                self.vanish_for = float(args[0]) if args else 0.2
                self.faults.injected["vanish"] += 1
                return {"ok": True}
            if cmd == "reset":
                cause = args[0] if args and not args[0].isdigit() else "watchdog"
                self.line.clear()
                self.partial.clear()
                reply = self.harness(f"reset {cause}")
                if reply.get("ok"):
                    self.faults.injected["reset"] += 1
                return reply
            if cmd == "quit":
                self.stopping = True
                return {"ok": True}
        except (IndexError, ValueError) as exc:
            return {"ok": False, "error": f"bad arguments for {cmd!r}: {exc}"}
        return self.harness(line)  # sensors, deck, reels: the harness's world

    def _stats(self) -> dict[str, Any]:
        world = self.harness("stats")
        diag = decode_diag(world.get("diag", ""))
        device = {"executed": diag["executed"], "replays": diag["replays"], "bad_frames": diag["bad_frames"],
                  "events_sent": diag["events_sent"], "event_resends": diag["event_resends"],
                  "events_logged": len(self.event_log), "overflowed": diag["overflowed"]}
        state = {"kind": self.core.kind.name.lower(), "boot_id": diag["boot_id"], "safe": diag["safe"],
                 "queued_events": diag["queued"], "next_event_no": diag["next_event_no"], **world["world"]}
        return {"ok": True, "device": device, "faults": self.faults.to_dict(), "state": state}

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.harness("quit")
        with contextlib.suppress(OSError):
            os.close(self.fd)
        try:
            self.proc.wait(3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="firmware/sim/relay.py", description=__doc__.split("\n")[0])
    parser.add_argument("--kind", choices=("shoe", "shuffler", "reels"), required=True)
    parser.add_argument("--decks", type=int, default=None)
    parser.add_argument("--cut", type=int, default=None, help="cut card position from the bottom")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--link", default=None, help="stable symlink to the host's pty")
    parser.add_argument("--exit-on-eof", action="store_true", help="stop when stdin closes")
    args = parser.parse_args(argv)
    harness = [str(FIRMWARE / "build" / "fbsim"), "--kind", args.kind,
               "--elf", str(FIRMWARE / "build" / f"sim-{args.kind}" / "firmware.elf")]
    for flag, value in (("--decks", args.decks), ("--cut", args.cut), ("--seed", args.seed)):
        if value is not None:
            harness += [flag, str(value)]
    engine = AvrEngine(args.kind, harness, args.seed)
    try:
        run(engine, link=args.link, exit_on_eof=args.exit_on_eof,  # type: ignore[arg-type]
            extra={"harness_port": engine.harness_port, "harness_pid": engine.proc.pid})
    finally:
        engine.close()


if __name__ == "__main__":
    main()
