"""Simulated device firmware: the device side of the protocol, with no I/O.

A :class:`DeviceCore` takes the host's bytes (:meth:`DeviceCore.receive`), runs its timers
(:meth:`DeviceCore.tick`) and leaves whole wire frames in :attr:`DeviceCore.outbox`. A runner (a pty
process or an in-memory pipe) moves the bytes. The core keeps what real firmware keeps:

* RAM (lost on reset): boot_id, event queue, the cached reply for replay, timers.
* Non-volatile: the eight meters, the unique id.
* The physical world: cards in the shoe and the cut card, door and jam state, reel positions.
"""

from __future__ import annotations

import functools
import heapq
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from firmware_bridge.errors import PayloadError
from firmware_bridge.protocol.frame import MAX_PAYLOAD, PROTOCOL_VERSION, Frame, Framer, encode_frame
from firmware_bridge.protocol.layouts import (
    EVENT_RANGE,
    HELLO_NEW_SESSION,
    METER_NAMES,
    Capability,
    DeviceKind,
    DeviceState,
    ResetCause,
    Status,
    StatusFlag,
)
from firmware_bridge.protocol.messages import SPECS, by_name, decode_payload, encode_payload

FIRMWARE_VERSION = (1, 0, 0)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
REEL_STOPS = 64
EVENT_WINDOW = 8


def standard_deck() -> list[str]:
    return [rank + suit for suit in SUITS for rank in RANKS]


@dataclass
class QueuedEvent:
    event_no: int
    wire: bytes
    sent_at: float | None = None


@dataclass
class DeviceStats:
    executed: Counter[str] = field(default_factory=Counter)
    replays: int = 0
    bad_frames: int = 0
    events_sent: int = 0
    event_resends: int = 0
    event_log: list[tuple[int, int, str, dict[str, Any]]] = field(default_factory=list)
    overflowed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"executed": dict(self.executed), "replays": self.replays, "bad_frames": self.bad_frames,
                "events_sent": self.events_sent, "event_resends": self.event_resends,
                "events_logged": len(self.event_log), "overflowed": self.overflowed}


class DeviceCore:
    """Common firmware: handshake, replay cache, event queue with resend, heartbeat safe state."""

    kind: DeviceKind
    capabilities: int = 0

    def __init__(self, *, seed: int | None = None, queue_size: int = 64, event_resend: float = 0.03,
                 heartbeat_timeout: float = 2.0, action_time: float = 0.005) -> None:
        self.rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        serial_no = self.rng.getrandbits(32).to_bytes(4, "big")
        self.unique_id = bytes([0x53, 0x49, 0x4D, int(self.kind)]) + serial_no  # "SIM", kind, serial
        self.meters = [0] * 8
        self.queue_size = queue_size
        self.event_resend = event_resend
        self.heartbeat_timeout = heartbeat_timeout
        self.action_time = action_time
        self.stats = DeviceStats()
        self.outbox: list[bytes] = []
        self.door_open = False
        self.jammed = False
        self.log_events = True
        self.journal: IO[str] | None = None  # with non-volatile memory: every event, written ahead
        self._boot(ResetCause.POWER_ON, time.monotonic())

    # -- lifecycle -------------------------------------------------------------------------------
    def _boot(self, cause: ResetCause, now: float) -> None:
        self.boot_id = self.rng.getrandbits(32) or 1
        self.reset_cause = cause
        self.booted_at = now
        self.framer = Framer()
        self.next_event_no = 1
        self.acked_event_no = 0
        self.queue: list[QueuedEvent] = []
        self.cached: tuple[int, bytes] | None = None
        self.timers: list[tuple[float, int, Callable[[float], None]]] = []
        self._timer_ids = 0
        self.last_host_frame = now
        self.safe = False
        self.pending_overflow = 0
        self.host_ready = False  # no command but HELLO is accepted, and no event sent, until a HELLO
        self.outbox.clear()
        self.on_boot(now)

    def reset(self, cause: ResetCause = ResetCause.WATCHDOG, now: float | None = None) -> None:
        """Reboot: RAM is lost (queue, cache, boot_id), meters and the physical world are kept."""
        self.meter("resets")
        self._boot(cause, time.monotonic() if now is None else now)

    def on_boot(self, now: float) -> None:
        """Hook for a device kind to reset its RAM state."""

    # -- helpers for device kinds ----------------------------------------------------------------
    def meter(self, name: str, add: int = 1) -> None:
        self.meters[METER_NAMES[self.kind].index(name)] += add

    def after(self, delay: float, action: Callable[[float], None], now: float) -> None:
        self._timer_ids += 1
        heapq.heappush(self.timers, (now + delay, self._timer_ids, action))

    def room(self) -> int:
        return self.queue_size - len(self.queue)

    def emit(self, name: str, now: float, **values: Any) -> int:
        """Queue an event; returns its event_no, or 0 if the queue was full (counted for QUEUE_OVERFLOW)."""
        if self.room() <= (1 if name != "QUEUE_OVERFLOW" else 0):
            self.pending_overflow += 1
            self.stats.overflowed += 1
            return 0
        if self.pending_overflow and name != "QUEUE_OVERFLOW":
            dropped, self.pending_overflow = self.pending_overflow, 0
            self.emit("QUEUE_OVERFLOW", now, dropped=min(dropped, 0xFFFF))
        spec = by_name(name)
        number = self.next_event_no
        self.next_event_no += 1
        payload = encode_payload(spec.type, {"event_no": number, **values})
        self.queue.append(QueuedEvent(number, encode_frame(Frame(type=spec.type, payload=payload))))
        if self.log_events:
            self.stats.event_log.append((self.boot_id, number, name, values))
        if self.journal is not None:
            self.journal.write(json.dumps([self.boot_id, number, name, _plain(values)]) + "\n")
            self.journal.flush()
        return number

    def status_flags(self) -> int:
        flags = 0
        if self.door_open:
            flags |= StatusFlag.DOOR_OPEN
        if self.jammed:
            flags |= StatusFlag.JAMMED
        if self.safe:
            flags |= StatusFlag.LINK_LOST
        return flags

    def busy(self) -> bool:
        return False

    def cards(self) -> int:
        return 0

    # -- host bytes in ---------------------------------------------------------------------------
    def receive(self, data: bytes, now: float) -> None:
        for frame in self.framer.feed(data, now):
            self._on_frame(frame, now)
        self.stats.bad_frames = sum(self.framer.errors.values())

    def _on_frame(self, frame: Frame, now: float) -> None:
        self.last_host_frame = now
        try:
            self._handle(frame, now)
        finally:
            self.safe = False  # the host is back (a PING first reports that the device was safe)

    def _handle(self, frame: Frame, now: float) -> None:
        spec = SPECS.get(frame.type)
        if frame.type == by_name("EVENT_ACK").type:
            if not self.host_ready:
                return
            try:
                number = decode_payload(frame.type, frame.payload)["event_no"]
            except PayloadError:
                return
            if number > self.acked_event_no:
                self.acked_event_no = min(number, self.next_event_no - 1)
            self.queue = [e for e in self.queue if e.event_no > self.acked_event_no]
            return
        if spec is None or spec.sender != "host" or frame.seq == 0:
            self._send(Frame(type=0xFF, ack=frame.seq,
                             payload=encode_payload(0xFF, {"status": Status.UNKNOWN_COMMAND,
                                                           "rejected_type": frame.type})))
            return
        if spec.name == "HELLO":
            self._hello(frame, now)
            return
        if not self.host_ready:
            self._send(Frame(type=0xFF, ack=frame.seq,
                             payload=encode_payload(0xFF, {"status": Status.NEED_HELLO,
                                                           "rejected_type": frame.type})))
            return
        if self.cached is not None and self.cached[0] == frame.seq:
            self.stats.replays += 1
            self.outbox.append(self.cached[1])
            return
        try:
            values = decode_payload(frame.type, frame.payload)
        except PayloadError:
            reply = {"status": Status.BAD_PAYLOAD}
        else:
            self.stats.executed[spec.name] += 1
            self.stats.executed["__all__"] += 1
            if "commands" in METER_NAMES[self.kind]:
                self.meter("commands")
            reply = self.execute(spec.name, values, now)
        reply_spec = SPECS[spec.reply_type]
        full = {f.name: _zero(f) for f in reply_spec.fields}
        full.update(reply)
        wire = encode_frame(Frame(type=reply_spec.type, ack=frame.seq,
                                  payload=encode_payload(reply_spec.type, full)))
        self.cached = (frame.seq, wire)
        self.outbox.append(wire)
        if spec.name == "RESET" and reply["status"] == Status.OK:
            self.after(0.001, lambda t: self.reset(ResetCause.HOST_REQUEST, t), now)

    def _hello(self, frame: Frame, now: float) -> None:
        try:
            values = decode_payload(frame.type, frame.payload)
        except PayloadError:
            values = {"flags": 0}
        if values["flags"] & HELLO_NEW_SESSION:
            self.cached = None
        self.host_ready = True
        for event in self.queue:  # resend everything unacked right after a handshake
            event.sent_at = None
        major, minor, patch = FIRMWARE_VERSION
        reply = {"status": Status.OK, "proto_version": PROTOCOL_VERSION, "kind": int(self.kind),
                 "fw_major": major, "fw_minor": minor, "fw_patch": patch, "unique_id": self.unique_id,
                 "capabilities": self.capabilities, "max_payload": MAX_PAYLOAD, "boot_id": self.boot_id,
                 "reset_cause": int(self.reset_cause), "last_event_no": self.next_event_no - 1,
                 "acked_event_no": self.acked_event_no}
        spec = by_name("HELLO_REPLY")
        self._send(Frame(type=spec.type, ack=frame.seq, payload=encode_payload(spec.type, reply)))

    def _send(self, frame: Frame) -> None:
        self.outbox.append(encode_frame(frame))

    # -- commands --------------------------------------------------------------------------------
    def execute(self, name: str, values: dict[str, Any], now: float) -> dict[str, Any]:
        if name == "PING":
            state = (DeviceState.SAFE if self.safe else DeviceState.FAULT if self.jammed
                     else DeviceState.BUSY if self.busy() else DeviceState.IDLE)
            return {"status": Status.OK, "state": int(state), "flags": self.status_flags(),
                    "pending_events": min(len(self.queue), 255),
                    "uptime_ms": int((now - self.booted_at) * 1000) & 0xFFFFFFFF, "cards": self.cards()}
        if name == "READ_METERS":
            return {"status": Status.OK, "meters": tuple(m & 0xFFFFFFFF for m in self.meters)}
        if name == "RESET":
            return {"status": Status.OK}
        handler = getattr(self, "do_" + name.lower(), None)
        if handler is None:
            return {"status": Status.UNKNOWN_COMMAND}
        result: dict[str, Any] = handler(now, **values)
        return result

    # -- time ------------------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        while self.timers and self.timers[0][0] <= now:
            _, _, action = heapq.heappop(self.timers)
            action(now)
        if not self.safe and now - self.last_host_frame > self.heartbeat_timeout:
            self.safe = True
            self.enter_safe_state(now)
        if not self.host_ready:
            return
        if self.pending_overflow and self.room() >= 1:
            dropped, self.pending_overflow = self.pending_overflow, 0
            self.emit("QUEUE_OVERFLOW", now, dropped=min(dropped, 0xFFFF))
        resend = self.event_resend if not self.safe else max(self.event_resend, 0.25)
        for event in self.queue[:EVENT_WINDOW]:
            if event.sent_at is None or now - event.sent_at >= resend:
                if event.sent_at is None:
                    self.stats.events_sent += 1
                else:
                    self.stats.event_resends += 1
                event.sent_at = now
                self.outbox.append(event.wire)

    def next_deadline(self, now: float) -> float:
        deadline = now + 0.05
        if self.timers:
            deadline = min(deadline, self.timers[0][0])
        for event in self.queue[:EVENT_WINDOW] if self.host_ready else ():
            deadline = min(deadline, now if event.sent_at is None else event.sent_at + self.event_resend)
        return deadline

    def enter_safe_state(self, now: float) -> None:
        """Heartbeat lost: finish what is in flight, stop motors, keep counters."""

    # -- operator / fault actions (the simulator's control channel) --------------------------------
    def set_door(self, is_open: bool, now: float) -> None:
        if is_open != self.door_open:
            self.door_open = is_open
            if is_open and "door_opens" in METER_NAMES[self.kind]:
                self.meter("door_opens")
            self.emit("DOOR_OPEN" if is_open else "DOOR_CLOSED", now)

    def jam(self, now: float) -> None:
        if not self.jammed:
            self.jammed = True
            self.meter("jams")
            self.emit("JAM", now)

    def clear_jam(self, now: float) -> None:
        if self.jammed:
            self.jammed = False
            self.emit("JAM_CLEARED", now)

    def blocked(self) -> int | None:
        """The status that stops any motion, or None."""
        if self.door_open:
            return Status.DOOR_OPEN
        if self.jammed:
            return Status.JAMMED
        return None

    # -- non-volatile memory (the pty simulator's --state) -----------------------------------------
    def nv_state(self) -> dict[str, Any]:
        """What this firmware keeps through a power cut: the physical world, the meters, and (FRAM-style)
        the event numbering, the unacked event queue and the last reply, so nothing in flight is lost."""
        rng = self.rng.getstate() if type(self.rng) is random.Random else None
        return {"kind": self.kind.name.lower(), "unique_id": self.unique_id.hex(), "meters": self.meters,
                "door_open": self.door_open, "jammed": self.jammed, "boot_id": self.boot_id,
                "next_event_no": self.next_event_no, "acked_event_no": self.acked_event_no,
                "queue": [[e.event_no, e.wire.hex()] for e in self.queue],
                "cached": None if self.cached is None else [self.cached[0], self.cached[1].hex()],
                "physical": self.nv_physical(), "rng": rng}

    def nv_physical(self) -> dict[str, Any]:
        return {}

    def nv_restore(self, state: dict[str, Any], now: float) -> None:
        """Power up with ``state`` from :meth:`nv_state`: a new boot (new boot_id, cause power-on) that
        carries on the event numbering and resends every event the host had not acked."""
        self.unique_id = bytes.fromhex(state["unique_id"])
        self.meters = list(state["meters"])
        self.door_open, self.jammed = state["door_open"], state["jammed"]
        if state.get("rng") is not None and type(self.rng) is random.Random:
            version, internal, gauss = state["rng"]
            self.rng.setstate((version, tuple(internal), gauss))
        for name, value in state["physical"].items():
            setattr(self, name, value)
        self.meter("resets")
        self._boot(ResetCause.POWER_ON, now)
        while self.boot_id == state["boot_id"]:
            self.boot_id = random.SystemRandom().getrandbits(32) or 1
        self.next_event_no = state["next_event_no"]
        self.acked_event_no = state["acked_event_no"]
        self.queue = [QueuedEvent(no, bytes.fromhex(wire)) for no, wire in state["queue"]]
        if state["cached"] is not None:
            self.cached = (state["cached"][0], bytes.fromhex(state["cached"][1]))

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind.name.lower(), "boot_id": self.boot_id, "unique_id": self.unique_id.hex(),
                "meters": dict(zip(METER_NAMES[self.kind], self.meters, strict=True)),
                "door_open": self.door_open, "jammed": self.jammed, "safe": self.safe,
                "queued_events": len(self.queue), "next_event_no": self.next_event_no}


def _plain(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v.hex() if isinstance(v, bytes) else list(v) if isinstance(v, tuple) else v
            for k, v in values.items()}


def _zero(field: Any) -> Any:
    if field.type == "str":
        return ""
    if field.type == "bytes":
        return bytes(field.size)
    return (0,) * field.count if field.count else 0


def _swap(action: Callable[[float, int], None], reel: int, now: float) -> None:
    action(now, reel)


class ShoeCore(DeviceCore):
    """A reading dealing shoe (H1, H2): cards leave one at a time; the cut card stops the shoe."""

    kind = DeviceKind.SHOE
    capabilities = Capability.READS_CARDS | Capability.CUT_CARD | Capability.DOOR_SENSOR

    def __init__(self, *, decks: int = 6, cut_from_bottom: int | None = None, **kwargs: Any) -> None:
        self.contents: list[str] = []
        self.cut_index: int | None = None
        self.dealt = 0
        self.misreads_pending = 0
        super().__init__(**kwargs)
        self.load(decks, cut_from_bottom)

    def load(self, decks: int, cut_from_bottom: int | None = None) -> int:
        cards = standard_deck() * decks
        self.rng.shuffle(cards)
        self.contents = cards
        self.dealt = 0
        if cut_from_bottom is None:
            cut_from_bottom = 70 if decks >= 4 else 0  # H2: the last 60-75 cards are not dealt
        self.cut_index = len(cards) - cut_from_bottom if 0 < cut_from_bottom < len(cards) else None
        self.meter("shoes_loaded")
        return len(cards)

    def cards(self) -> int:
        return len(self.contents)

    def status_flags(self) -> int:
        flags = super().status_flags()
        if not self.contents:
            flags |= StatusFlag.EMPTY
        if self.cut_index is not None and self.dealt >= self.cut_index:
            flags |= StatusFlag.CUT_CARD_OUT
        return flags

    def do_load(self, now: float, decks: int, cut_from_bottom: int) -> dict[str, Any]:
        if not 1 <= decks <= 12 or cut_from_bottom >= decks * 52:
            return {"status": Status.BAD_PAYLOAD}
        if self.door_open is False and self.jammed:
            return {"status": Status.JAMMED}
        return {"status": Status.OK, "cards": self.load(decks, cut_from_bottom)}

    def do_deal(self, now: float) -> dict[str, Any]:
        blocked = self.blocked()
        if blocked is not None:
            return {"status": blocked}
        if not self.contents:
            return {"status": Status.EMPTY}
        if self.room() < 4:
            return {"status": Status.QUEUE_FULL}
        code = self.contents.pop(0)
        self.dealt += 1
        self.meter("cards_dealt")
        if self.misreads_pending:
            self.misreads_pending -= 1
            self.meter("cards_misread")
            code = ""
        number = self.emit("CARD_DEALT", now, code=code)
        if self.cut_index is not None and self.dealt == self.cut_index:
            self.meter("cut_cards")
            self.emit("CUT_CARD_REACHED", now, cards_dealt=self.dealt)
        if not self.contents:
            self.emit("SHOE_EMPTY", now)
        return {"status": Status.OK, "event_no": number}

    def nv_physical(self) -> dict[str, Any]:
        return {"contents": self.contents, "cut_index": self.cut_index, "dealt": self.dealt,
                "misreads_pending": self.misreads_pending}

    def empty(self, now: float) -> None:
        self.contents.clear()
        self.emit("SHOE_EMPTY", now)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "cards": len(self.contents), "dealt": self.dealt,
                "cut_index": self.cut_index}


class ShufflerCore(DeviceCore):
    """An automatic shuffler/dealer with a dice RNG (H3): shuffles, verifies, deals 7 hands of 7."""

    kind = DeviceKind.SHUFFLER
    capabilities = (Capability.DICE_RNG | Capability.DECK_VERIFY | Capability.HAND_DEAL
                    | Capability.DOOR_SENSOR)

    def __init__(self, *, decks: int = 1, **kwargs: Any) -> None:
        self.loaded = 52 * decks
        self.missing = 0
        self.busy_until = 0.0
        super().__init__(**kwargs)

    def cards(self) -> int:
        return self.loaded

    def busy(self) -> bool:
        return time.monotonic() < self.busy_until

    def _start(self, now: float, duration: float) -> int | None:
        blocked = self.blocked()
        if blocked is not None:
            return blocked
        if now < self.busy_until:
            return Status.BUSY
        if self.room() < 10:
            return Status.QUEUE_FULL
        self.busy_until = now + duration
        return None

    def do_shuffle(self, now: float, decks: int) -> dict[str, Any]:
        if not 1 <= decks <= 8:
            return {"status": Status.BAD_PAYLOAD}
        refused = self._start(now, self.action_time)
        if refused is not None:
            return {"status": refused}
        self.loaded = decks * 52 - self.missing

        def done(t: float) -> None:
            self.meter("shuffles")
            self.meter("cards_shuffled", self.loaded)
            self.emit("SHUFFLE_COMPLETE", t, count=self.loaded)

        self.after(self.action_time, done, now)
        return {"status": Status.OK}

    def do_verify_deck(self, now: float, expected: int) -> dict[str, Any]:
        refused = self._start(now, self.action_time)
        if refused is not None:
            return {"status": refused}

        def done(t: float) -> None:
            ok = self.loaded == expected
            self.meter("verifications")
            if not ok:
                self.meter("verify_failures")
            self.emit("DECK_VERIFIED", t, ok=int(ok), expected=expected, counted=self.loaded)

        self.after(self.action_time, done, now)
        return {"status": Status.OK}

    def do_deal_hands(self, now: float, hands: int, per_hand: int) -> dict[str, Any]:
        if not 1 <= hands <= 9 or not 1 <= per_hand <= 13:
            return {"status": Status.BAD_PAYLOAD}
        if hands * per_hand > self.loaded:
            return {"status": Status.EMPTY}
        refused = self._start(now, self.action_time * hands)
        if refused is not None:
            return {"status": refused}
        for hand in range(hands):
            def dealt(t: float, hand: int = hand) -> None:
                self.loaded -= per_hand
                self.meter("hands_dealt")
                self.emit("HAND_DEALT", t, hand=hand + 1, cards=per_hand)

            self.after(self.action_time * (hand + 1), dealt, now)
        return {"status": Status.OK}

    def nv_physical(self) -> dict[str, Any]:
        return {"loaded": self.loaded, "missing": self.missing}

    def do_roll_dice(self, now: float) -> dict[str, Any]:
        self.meter("dice_rolls")
        return {"status": Status.OK, "dice": tuple(self.rng.randint(1, 6) for _ in range(3))}

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "cards": self.loaded}


class ReelsCore(DeviceCore):
    """A three-reel slot display with meters (H7). The host picks the stops; the reels only show them."""

    kind = DeviceKind.REELS
    capabilities = Capability.REELS3 | Capability.DOOR_SENSOR

    def __init__(self, **kwargs: Any) -> None:
        self.positions = [0, 0, 0]
        self.homed = False
        self.home_failures_pending = 0
        self.display: dict[int, int] = {}
        self.spinning_until = 0.0
        super().__init__(**kwargs)

    def on_boot(self, now: float) -> None:
        self.homed = False  # a reset loses the reel positions: the host must re-home
        self.spinning_until = 0.0

    def busy(self) -> bool:
        return time.monotonic() < self.spinning_until

    def status_flags(self) -> int:
        return super().status_flags() | (StatusFlag.HOMED if self.homed else 0)

    def do_home(self, now: float) -> dict[str, Any]:
        blocked = self.blocked()
        if blocked is not None:
            return {"status": blocked}
        if now < self.spinning_until:
            return {"status": Status.BUSY}
        if self.room() < 4:
            return {"status": Status.QUEUE_FULL}
        failing = 2 if self.home_failures_pending else None
        if failing is not None:
            self.home_failures_pending -= 1
        self.spinning_until = now + self.action_time * 3

        def stop(t: float, reel: int) -> None:
            if reel == failing:
                self.meter("home_failures")
                self.emit("REEL_HOME_FAILED", t, reel=reel)
                return
            self.positions[reel] = 0
            self.emit("REEL_STOPPED", t, reel=reel, position=0)
            if reel == 2:
                self.homed = True

        self.homed = False
        for reel in range(3):
            self.after(self.action_time * (reel + 1), functools.partial(_swap, stop, reel), now)
        return {"status": Status.OK}

    def do_spin(self, now: float, stops: tuple[int, int, int]) -> dict[str, Any]:
        if any(s >= REEL_STOPS for s in stops):
            return {"status": Status.BAD_PAYLOAD}
        blocked = self.blocked()
        if blocked is not None:
            return {"status": blocked}
        if not self.homed:
            return {"status": Status.NOT_HOMED}
        if now < self.spinning_until:
            return {"status": Status.BUSY}
        if self.room() < 4:
            return {"status": Status.QUEUE_FULL}
        self.meter("spins")
        self.spinning_until = now + self.action_time * 3
        for reel, stop in enumerate(stops):
            def stopped(t: float, reel: int = reel, stop: int = stop) -> None:
                self.positions[reel] = stop
                self.meter("reel_stops")
                self.emit("REEL_STOPPED", t, reel=reel, position=stop)

            self.after(self.action_time * (reel + 1), stopped, now)
        return {"status": Status.OK}

    def nv_physical(self) -> dict[str, Any]:
        return {"positions": self.positions, "display": {str(k): v for k, v in self.display.items()}}

    def nv_restore(self, state: dict[str, Any], now: float) -> None:
        super().nv_restore(state, now)
        self.display = {int(k): v for k, v in self.display.items()}

    def do_set_display(self, now: float, field: int, value: int) -> dict[str, Any]:
        self.display[field] = value
        self.meter("display_updates")
        return {"status": Status.OK}

    def enter_safe_state(self, now: float) -> None:
        # stop motors: every reel in motion lands now on its commanded stop
        for when, _, action in sorted(self.timers):
            if when > now:
                action(now)
        self.timers.clear()
        self.spinning_until = 0.0

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "positions": list(self.positions), "homed": self.homed,
                "display": dict(self.display)}


CORES: dict[str, type[DeviceCore]] = {"shoe": ShoeCore, "shuffler": ShufflerCore, "reels": ReelsCore}


def make_core(kind: str, **options: Any) -> DeviceCore:
    """Build the simulated firmware for ``kind`` ("shoe", "shuffler" or "reels")."""
    try:
        cls = CORES[kind]
    except KeyError:
        raise ValueError(f"unknown device kind {kind!r}; expected one of {', '.join(CORES)}") from None
    if cls is not ShoeCore:
        options.pop("cut_from_bottom", None)
    if cls is ReelsCore:
        options.pop("decks", None)
    return cls(**options)


__all__ = ["CORES", "DeviceCore", "ReelsCore", "ShoeCore", "ShufflerCore", "make_core", "EVENT_RANGE"]
