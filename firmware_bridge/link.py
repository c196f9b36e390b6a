"""The link: sequenced commands with replay-safe retries, exactly-once events, heartbeat and reconnect.

Host → device command and device reply::

    host   HELLO seq=7 ──────────────▶            (always executed; flag NEW_SESSION forgets the cache)
           ◀────────────── HELLO_REPLY ack=7      boot_id, last/acked event numbers
    host   DEAL  seq=8 ──────────────▶  executes, caches (8, reply)
           ◀─ ✗ lost ─────  DEAL_REPLY ack=8
    host   DEAL  seq=8 ──────────────▶  same SEQ: replays the cached reply, does NOT deal again
           ◀────────────── DEAL_REPLY ack=8

Device events are numbered 1, 2, 3... per boot and resent until the host acks them (cumulative
EVENT_ACK). The host delivers event n only when it expects n: lower numbers are duplicates (dropped and
re-acked), higher numbers are gaps (dropped; the device resends from the first unacked one).

After ``retries`` unanswered sends the host re-handshakes (HELLO without NEW_SESSION keeps the device's
cached reply) and sends the same SEQ again. A changed ``boot_id`` means the device reset: the host emits
:class:`~firmware_bridge.events.DeviceReset`, restarts event numbering and fails the command in flight
with :class:`~firmware_bridge.errors.CommandInterrupted` (its outcome is unknown).
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from firmware_bridge.errors import (
    FirmwareBridgeError,
    LinkError,
    LinkTimeout,
    PayloadError,
    PortLost,
    PortUnavailable,
    ProtocolMismatch,
)
from firmware_bridge.events import DeviceEvent, DeviceReset, LinkDown, LinkUp, event_from_message
from firmware_bridge.protocol.frame import PROTOCOL_VERSION, Frame, Framer, encode_frame
from firmware_bridge.protocol.layouts import (
    EVENT_RANGE,
    HELLO_NEW_SESSION,
    REPLY_BIT,
    DeviceKind,
    ResetCause,
    Status,
)
from firmware_bridge.protocol.messages import SPECS, by_name, decode_payload, encode_payload
from firmware_bridge.transport import BAUDRATE, SharedPort, open_port

_HELLO = by_name("HELLO")
_PING = by_name("PING")
_EVENT_ACK = by_name("EVENT_ACK")
_NAK = 0xFF


class CommandInterrupted(LinkError):
    """The device reset while a command was in flight; whether it executed is unknown."""


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """What a device says about itself in HELLO_REPLY."""

    proto_version: int
    kind: str
    firmware: str
    unique_id: str
    capabilities: int
    max_payload: int
    boot_id: int
    reset_cause: str
    last_event_no: int
    acked_event_no: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class LinkStats:
    commands: int = 0
    sends: int = 0
    retries: int = 0
    rehandshakes: int = 0
    handshakes: int = 0
    reconnects: int = 0
    link_downs: int = 0
    device_resets: int = 0
    stale_replies: int = 0
    events_delivered: int = 0
    events_duplicate: int = 0
    events_gap: int = 0
    bad_payloads: int = 0
    frame_errors: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["frame_errors"] = dict(self.frame_errors)
        return data


def _needs_hello(reply: dict[str, Any]) -> bool:
    return reply.get("_type") == "NAK" and reply.get("status") == Status.NEED_HELLO


def _reset_cause(value: int) -> str:
    try:
        return ResetCause(value).name.lower()
    except ValueError:
        return f"unknown({value})"


class Link:
    """A host-side protocol link on one port. Thread-safe; events go to ``sink`` from a dispatcher thread.

    ``url`` is anything :func:`firmware_bridge.transport.open_port` accepts.
    """

    def __init__(self, url: str, *, sink: Callable[[DeviceEvent], None] | None = None,
                 expect_kind: DeviceKind | None = None, baudrate: int = BAUDRATE,
                 reply_timeout: float = 0.1, retries: int = 3, rehandshakes: int = 3,
                 heartbeat: float | None = 0.5, missed_beats: int = 3, reconnect_timeout: float = 5.0,
                 open_timeout: float = 2.0) -> None:
        self.url = url
        self.sink = sink
        self.expect_kind = expect_kind
        self.baudrate = baudrate
        self.reply_timeout = reply_timeout
        self.retries = retries
        self.rehandshakes = rehandshakes
        self.heartbeat = heartbeat
        self.missed_beats = missed_beats
        self.reconnect_timeout = reconnect_timeout
        self.stats = LinkStats()
        self.info: DeviceInfo | None = None
        self._port: SharedPort | None = None
        self._framer = Framer()
        self._write_lock = threading.Lock()
        self._cmd_lock = threading.RLock()
        self._state = threading.Condition()
        self._waiting_seq = 0
        self._reply: Frame | None = None
        self._seq = 0
        self._next_event = 1
        self._handshaken = False
        self._down = False
        self._closed = False
        self._last_exchange = 0.0
        self._missed = 0
        self._sends_in_last_wait = 0
        self._outbox: queue.Queue[DeviceEvent | None] = queue.Queue()
        self._port = SharedPort(open_port(url, baudrate=baudrate), url)
        self._threads = [threading.Thread(target=self._read_loop, name="fb-reader", daemon=True),
                         threading.Thread(target=self._dispatch_loop, name="fb-dispatch", daemon=True),
                         threading.Thread(target=self._heartbeat_loop, name="fb-heartbeat", daemon=True)]
        for thread in self._threads:
            thread.start()
        try:
            with self._cmd_lock:
                self._handshake(new_session=True, deadline=time.monotonic() + open_timeout)
        except BaseException:
            self.close()
            raise

    # -- public ------------------------------------------------------------------------------------
    def request(self, name: str, values: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send command ``name`` and return the decoded reply (status included; the caller judges it)."""
        spec = by_name(name)
        if spec.sender != "host" or name in ("HELLO", "EVENT_ACK"):
            raise ValueError(f"{name} is not a command the host can request")
        payload = encode_payload(spec.type, values or {})
        with self._cmd_lock:
            self._check_open()
            deadline = time.monotonic() + self.reconnect_timeout
            if not self._handshaken:
                self._handshake(new_session=False, deadline=deadline)
            self.stats.commands += 1
            seq = self._next_seq()
            boot = self.info.boot_id if self.info else None
            wire = encode_frame(Frame(type=spec.type, seq=seq, payload=payload))
            sends = 0
            for round_no in range(self.rehandshakes + 1):
                reply = self._send_and_wait(wire, seq, spec.reply_type)
                sends += self._sends_in_last_wait
                if reply is not None and not _needs_hello(reply):
                    return reply
                if reply is not None:
                    # The device rebooted and refused this send unexecuted. If it was the only send, the
                    # command never ran: greet the device and resend. If an earlier send may have run
                    # before the reboot, the outcome is unknown and must not be guessed.
                    self._handshaken = False
                    self._handshake(new_session=False, deadline=deadline)
                    if sends > 1:
                        raise CommandInterrupted(f"device reset while {name} (seq {seq}) was in flight; "
                                                 "its outcome is unknown")
                    boot = self.info.boot_id if self.info else None
                    sends = 0
                    continue
                if round_no == self.rehandshakes:
                    break
                self.stats.rehandshakes += 1
                with contextlib.suppress(LinkTimeout):
                    self._handshake(new_session=False, deadline=deadline)
                if self.info is not None and boot is not None and self.info.boot_id != boot:
                    raise CommandInterrupted(f"device reset while {name} (seq {seq}) was in flight; "
                                             "its outcome is unknown")
            self._mark_down(f"no reply to {name} after {self.rehandshakes} re-handshakes")
            raise LinkTimeout(f"device on {self.url} did not answer {name} (seq {seq}) after "
                              f"{self.retries} retries and {self.rehandshakes} re-handshakes")

    def ping(self) -> float:
        """Round-trip time of one PING/STATUS exchange, in seconds."""
        start = time.perf_counter()
        self.request("PING")
        return time.perf_counter() - start

    @property
    def connected(self) -> bool:
        return self._handshaken and not self._closed

    def close(self) -> None:
        if self._closed:
            return
        with self._state:
            self._closed = True
            port, self._port = self._port, None
            self._state.notify_all()
        if port is not None:
            port.close(wait=2.0)  # aborts a blocked read or write; closed once nobody is inside
        self._outbox.put(None)
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(2.0)

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- commands ----------------------------------------------------------------------------------
    def _check_open(self) -> None:
        if self._closed:
            raise LinkError(f"link to {self.url} is closed")

    def _next_seq(self) -> int:
        self._seq = self._seq % 255 + 1
        return self._seq

    def _send_and_wait(self, wire: bytes, seq: int, reply_type: int) -> dict[str, Any] | None:
        """Send ``wire`` until its reply arrives (decoded), or give up (None) after ``retries``.

        A reply that passed the CRC but does not match the layout table is taken for line noise the CRC
        missed and the command is resent (the device replays its cached reply); a second such reply to
        the same command is a real mismatch and raises :class:`ProtocolMismatch`."""
        self._sends_in_last_wait = 0
        bad: PayloadError | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                self.stats.retries += 1
            if not self._wait_port(time.monotonic() + self.reply_timeout):
                continue
            with self._state:
                self._waiting_seq, self._reply = seq, None
            self.stats.sends += 1
            self._sends_in_last_wait += 1
            if not self._write(wire):
                continue
            deadline = time.monotonic() + self.reply_timeout
            with self._state:
                while True:
                    reply = self._reply
                    if reply is not None:
                        self._reply = None
                        if reply.type == reply_type or reply.type == _NAK:
                            try:
                                values = self._decode_reply(reply)
                            except PayloadError as exc:
                                self.stats.bad_payloads += 1
                                if bad is not None:
                                    self._waiting_seq = 0
                                    raise ProtocolMismatch(f"device reply {SPECS[reply.type].name} does "
                                                           f"not match the layout table: {exc}") from exc
                                bad = exc
                                break  # resend the same SEQ: the device replays its reply
                            self._waiting_seq = 0
                            return values
                        self.stats.stale_replies += 1
                    left = deadline - time.monotonic()
                    if left <= 0 or self._closed:
                        break
                    self._state.wait(left)
                self._waiting_seq = 0
        return None

    def _decode_reply(self, reply: Frame) -> dict[str, Any]:
        values = decode_payload(reply.type, reply.payload)
        values["_type"] = SPECS[reply.type].name
        self._last_exchange = time.monotonic()
        return values

    def _handshake(self, *, new_session: bool, deadline: float) -> DeviceInfo:
        payload = encode_payload(_HELLO.type, {"proto_version": PROTOCOL_VERSION,
                                               "flags": HELLO_NEW_SESSION if new_session else 0})
        while True:
            self._check_open()
            if self._wait_port(deadline):
                seq = self._next_seq()
                reply = self._send_and_wait(encode_frame(Frame(type=_HELLO.type, seq=seq, payload=payload)),
                                            seq, _HELLO.reply_type)
                if reply is not None:
                    return self._accept_hello(reply)
            if time.monotonic() >= deadline:
                if self._port is None:
                    raise PortUnavailable(f"port {self.url} did not come back")
                raise LinkTimeout(f"no HELLO_REPLY from {self.url}; is a device of this protocol there?")

    def _accept_hello(self, values: dict[str, Any]) -> DeviceInfo:
        if values.get("_type") == "NAK" or values["status"] != 0:
            raise ProtocolMismatch(f"device on {self.url} refused HELLO (status {values['status']})")
        if values["proto_version"] != PROTOCOL_VERSION:
            raise ProtocolMismatch(f"device speaks protocol {values['proto_version']}; "
                                   f"this host speaks {PROTOCOL_VERSION}")
        try:
            kind = DeviceKind(values["kind"])
        except ValueError:
            raise ProtocolMismatch(f"device reports unknown kind {values['kind']}") from None
        if self.expect_kind is not None and kind != self.expect_kind:
            raise ProtocolMismatch(f"device on {self.url} is a {kind.name.lower()}, "
                                   f"expected a {self.expect_kind.name.lower()}")
        info = DeviceInfo(
            proto_version=values["proto_version"], kind=kind.name.lower(),
            firmware=f"{values['fw_major']}.{values['fw_minor']}.{values['fw_patch']}",
            unique_id=values["unique_id"].hex(), capabilities=values["capabilities"],
            max_payload=values["max_payload"], boot_id=values["boot_id"],
            reset_cause=_reset_cause(values["reset_cause"]), last_event_no=values["last_event_no"],
            acked_event_no=values["acked_event_no"])
        old = self.info
        kept = False
        with self._state:
            delivered = self._next_event - 1
            if old is not None and old.boot_id != info.boot_id:
                # a device that kept its events through the reboot remembers a non-zero ack and carries on
                # numbering after what this host delivered; one that lost its RAM starts again from 1
                kept = 0 < info.acked_event_no <= delivered <= info.last_event_no
            if (old is None or old.boot_id != info.boot_id) and not kept:
                self._next_event = info.acked_event_no + 1
            else:
                self._next_event = max(self._next_event, info.acked_event_no + 1)
            self.info = info
            self._handshaken = True
            self._missed = 0
            was_down, self._down = self._down, False
        self.stats.handshakes += 1
        if old is not None and old.boot_id != info.boot_id:
            self.stats.device_resets += 1
            self._outbox.put(DeviceReset(old.boot_id, info.boot_id, info.reset_cause, events_kept=kept))
        if was_down:
            self._outbox.put(LinkUp())
        return info

    # -- port --------------------------------------------------------------------------------------
    def _wait_port(self, deadline: float) -> bool:
        with self._state:
            while self._port is None and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._state.wait(left)
            return self._port is not None

    def _write(self, data: bytes) -> bool:
        port = self._port
        if port is None:
            return False
        try:
            with self._write_lock, port.use() as raw:
                written = raw.write(data)
        except PortLost as exc:
            self._port_lost(port, f"write failed: {exc}")
            return False
        if written is not None and written < len(data):  # a close aborted the write part-way
            self._port_lost(port, f"write cut short after {written} of {len(data)} bytes")
            return False
        return True

    def _port_lost(self, port: SharedPort, reason: str) -> None:
        with self._state:
            if self._port is not port:
                return
            self._port = None
            self._handshaken = False
        port.close()  # deferred until no other thread is inside it
        self._mark_down(reason)

    def _mark_down(self, reason: str) -> None:
        with self._state:
            self._handshaken = False
            if self._down or self._closed:
                return
            self._down = True
        self.stats.link_downs += 1
        self._outbox.put(LinkDown(reason))

    def _reopen(self) -> None:
        try:
            port = open_port(self.url, baudrate=self.baudrate)
        except PortUnavailable:
            time.sleep(0.02)
            return
        shared = SharedPort(port, self.url)
        with self._state:
            if self._closed:
                shared.close()
                return
            self._port = shared
            self._framer.reset()
            self.stats.reconnects += 1
            self._state.notify_all()

    # -- reader ------------------------------------------------------------------------------------
    def _read_loop(self) -> None:
        while not self._closed:
            port = self._port
            if port is None:
                self._reopen()
                continue
            try:
                with port.use() as raw:
                    data = raw.read(raw.in_waiting or 1)
            except PortLost as exc:
                if self._closed:
                    return
                self._port_lost(port, f"read failed: {exc}")
                continue
            now = time.monotonic()
            for frame in self._framer.feed(data, now):
                self._on_frame(frame)
            self.stats.frame_errors = self._framer.errors

    def _on_frame(self, frame: Frame) -> None:
        if frame.type in EVENT_RANGE:
            self._on_event(frame)
        elif frame.type & REPLY_BIT:
            with self._state:
                if self._waiting_seq and frame.ack == self._waiting_seq:
                    self._reply = frame
                    self._state.notify_all()
                else:
                    self.stats.stale_replies += 1

    def _on_event(self, frame: Frame) -> None:
        try:
            values = decode_payload(frame.type, frame.payload)
        except PayloadError:
            self.stats.bad_payloads += 1
            return
        if not self._handshaken:
            return  # numbering unknown until HELLO_REPLY; the device will resend
        number = values["event_no"]
        with self._state:
            expected = self._next_event
            if number == expected:
                self._next_event += 1
                self.stats.events_delivered += 1
                self._outbox.put(event_from_message(SPECS[frame.type].name, values))
                ack = number
            else:
                if number < expected:
                    self.stats.events_duplicate += 1
                else:
                    self.stats.events_gap += 1
                ack = expected - 1
        self._write(encode_frame(Frame(type=_EVENT_ACK.type, payload=encode_payload(
            _EVENT_ACK.type, {"event_no": ack}))))

    # -- dispatch and heartbeat -----------------------------------------------------------------------
    def _dispatch_loop(self) -> None:
        while True:
            event = self._outbox.get()
            if event is None:
                return
            if self.sink is not None:
                try:
                    self.sink(event)
                except Exception:  # a consumer's bug must not stop event delivery
                    import traceback

                    traceback.print_exc()

    def _heartbeat_loop(self) -> None:
        """PING when idle for ``heartbeat`` seconds; and, with or without a heartbeat, greet the device
        again once the port is back, so its events are accepted even when no command follows."""
        while not self._closed:
            time.sleep((self.heartbeat or 0.25) / 5)
            idle = time.monotonic() - self._last_exchange
            if self._handshaken and (self.heartbeat is None or idle < self.heartbeat):
                continue
            if not self._cmd_lock.acquire(blocking=False):
                continue
            try:
                if self._closed:
                    return
                self._beat()
            except FirmwareBridgeError:
                continue  # a bad reply or a closing link; the next beat or command will tell
            finally:
                self._cmd_lock.release()

    def _beat(self) -> None:
        if not self._handshaken:
            if self._port is not None:
                wait = self.heartbeat or self.reply_timeout * (self.retries + 1)
                with contextlib.suppress(FirmwareBridgeError):
                    self._handshake(new_session=False, deadline=time.monotonic() + wait)
            return
        seq = self._next_seq()
        reply = self._send_and_wait(encode_frame(Frame(type=_PING.type, seq=seq)), seq,
                                    _PING.reply_type)
        if reply is not None and _needs_hello(reply):
            self._handshaken = False
        elif reply is None:
            self._missed += 1
            if self._missed >= self.missed_beats:
                self._mark_down(f"{self._missed} heartbeats missed")
        else:
            self._missed = 0
