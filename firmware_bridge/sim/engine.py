"""A simulated device between its wire and its operator: core + fault injector + line + control commands.

Runners (:mod:`firmware_bridge.sim.pty_runner`, :mod:`firmware_bridge.sim.memory`) only move bytes and call
:meth:`Engine.feed`, :meth:`Engine.pump` and :meth:`Engine.control`.

Control commands (one text line each, answered with a JSON object)::

    stats                       device counters, injected faults, physical state
    events [FROM]               the device's event log from index FROM (boot_id, event_no, name, values)
    fault KIND [N]              queue N one-shot link faults (garbage bitflip drop duplicate split delay
                                drop_in flip_in vanish vanish_write)
    chaos N [RATE] [K1,K2..]    inject N random link faults, each frame faulted with probability RATE
    vanish SECONDS              the port disappears and comes back after SECONDS
    reset [CAUSE]               reboot the device (new boot_id); CAUSE watchdog|brown_out|power_on
    jam | clear                 jam the mechanism / clear the jam
    door open|closed            open or close the door
    empty                       the shoe runs out
    misread [N]                 the next N cards cannot be read
    home_fail [N]               the next N home commands fail on reel 3
    load DECKS [CUT]            an operator loads a fresh shoe
    burst N                     emit N events as fast as the queue allows (throughput benchmark)
    hold | release              stop sending anything (the device keeps working) / send what waited
    hold_after COMMAND          hold as soon as the device has run COMMAND (e.g. DEAL), before it replies
    quit                        stop the simulator
"""

from __future__ import annotations

from collections import deque
from typing import Any

from firmware_bridge.protocol.layouts import ResetCause
from firmware_bridge.sim.device import DeviceCore, ReelsCore, ShoeCore
from firmware_bridge.sim.faults import FaultInjector


class Engine:
    def __init__(self, core: DeviceCore, injector: FaultInjector | None = None) -> None:
        self.core = core
        self.faults = injector or FaultInjector()
        self.line: deque[tuple[float, bytes]] = deque()
        self.vanish_for = 0.0
        self.stopping = False
        self.burst_left = 0
        self.holding = False
        self.hold_after: tuple[str, int] | None = None  # (command, times run when asked)

    def feed(self, data: bytes, now: float) -> None:
        data = self.faults.incoming(data)
        if data:
            self.core.receive(data, now)
        if self.hold_after is not None:
            name, runs = self.hold_after
            if self.core.stats.executed[name] > runs:
                self.holding, self.hold_after = True, None

    def pump(self, now: float) -> list[bytes]:
        """Run timers, pass new frames through the fault injector and return the bytes due now."""
        while self.burst_left and self.core.room() > 8 and self.core.host_ready:
            self.burst_left -= 1
            self.core.emit("CARD_DEALT", now, code="10H")
        self.core.tick(now)
        for frame in self.core.outbox:
            for chunk in self.faults.outgoing(frame):
                tail = self.line[-1][0] if self.line else now
                self.line.append((max(tail, now) + chunk.delay, chunk.data))
        self.core.outbox.clear()
        seconds = self.faults.take_vanish()
        if seconds:
            self.vanish_for = seconds
        due: list[bytes] = []
        while self.line and self.line[0][0] <= now and not self.holding:
            due.append(self.line.popleft()[1])
        return due

    def next_wakeup(self, now: float) -> float:
        wake = self.core.next_deadline(now)
        if self.burst_left and self.core.room() > 8:
            wake = min(wake, now + 0.001)
        if self.line and not self.holding:
            wake = min(wake, self.line[0][0])
        return wake

    def take_vanish(self) -> float:
        seconds, self.vanish_for = self.vanish_for, 0.0
        return seconds

    def control(self, line: str, now: float) -> dict[str, Any]:
        words = line.split()
        if not words:
            return {"ok": False, "error": "empty command; try 'stats'"}
        cmd, args = words[0].lower(), words[1:]
        core = self.core
        try:
            if cmd == "stats":
                return {"ok": True, "device": core.stats.to_dict(), "faults": self.faults.to_dict(),
                        "state": core.describe(), "holding": self.holding}
            if cmd == "events":
                start = int(args[0]) if args else 0
                return {"ok": True, "events": [list(e) for e in core.stats.event_log[start:]]}
            if cmd == "fault":
                kind = args[0]
                count = int(args[1]) if len(args) > 1 else 1
                if kind in ("reset", "jam", "clear", "empty", "misread", "home_fail"):
                    return self.control(f"{kind} {count}", now)
                if kind == "door":
                    return self.control("door open", now)
                self.faults.queue(kind, count)
                return {"ok": True}
            if cmd == "chaos":
                count = int(args[0])
                rate = float(args[1]) if len(args) > 1 else 0.2
                kinds = args[2].split(",") if len(args) > 2 else None
                self.faults.chaos(count, rate, kinds)
                return {"ok": True}
            if cmd == "vanish":
                self.vanish_for = float(args[0]) if args else 0.2
                self.faults.injected["vanish"] += 1
                return {"ok": True}
            if cmd == "reset":
                cause = ResetCause[args[0].upper()] if args and not args[0].isdigit() else ResetCause.WATCHDOG
                self.line.clear()
                core.reset(cause, now)
                self.faults.injected["reset"] += 1
                return {"ok": True, "boot_id": core.boot_id}
            if cmd == "jam":
                core.jam(now)
                return {"ok": True}
            if cmd == "clear":
                core.clear_jam(now)
                return {"ok": True}
            if cmd == "door":
                core.set_door(bool(args) and args[0].lower() == "open", now)
                return {"ok": True}
            if cmd == "empty" and isinstance(core, ShoeCore):
                core.empty(now)
                return {"ok": True}
            if cmd == "misread" and isinstance(core, ShoeCore):
                core.misreads_pending += int(args[0]) if args else 1
                return {"ok": True}
            if cmd == "home_fail" and isinstance(core, ReelsCore):
                core.home_failures_pending += int(args[0]) if args else 1
                return {"ok": True}
            if cmd == "load" and isinstance(core, ShoeCore):
                cut = int(args[1]) if len(args) > 1 else None
                return {"ok": True, "cards": core.load(int(args[0]), cut)}
            if cmd in ("hold", "release"):
                self.holding, self.hold_after = cmd == "hold", None
                return {"ok": True}
            if cmd == "hold_after":
                name = args[0].upper()
                self.hold_after = (name, core.stats.executed[name])
                return {"ok": True}
            if cmd == "burst":
                self.burst_left = int(args[0])
                return {"ok": True}
            if cmd == "quit":
                self.stopping = True
                return {"ok": True}
        except (IndexError, ValueError, KeyError) as exc:
            return {"ok": False, "error": f"bad arguments for {cmd!r}: {exc}"}
        return {"ok": False, "error": f"unknown command {cmd!r} for a {core.kind.name.lower()}"}
