"""Link, transport and device-core behaviour below the drivers: replay cache, gaps, overflow, ports."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from firmware_bridge import (
    DoorClosed,
    DoorOpen,
    FirmwareBridgeError,
    Link,
    LinkError,
    LinkTimeout,
    MemorySimulator,
    PortUnavailable,
    ProtocolMismatch,
    QueueOverflow,
    Shoe,
    ShoeEmptyError,
    open_port,
)
from firmware_bridge.errors import DeviceError
from firmware_bridge.protocol.cheader import c_header
from firmware_bridge.protocol.frame import Frame, Framer, encode_frame
from firmware_bridge.protocol.layouts import HELLO_NEW_SESSION, TABLE, Status
from firmware_bridge.protocol.messages import by_name, decode_payload, encode_payload
from firmware_bridge.sim.device import ShoeCore


def _cmd(name: str, seq: int, **values: object) -> bytes:
    spec = by_name(name)
    return encode_frame(Frame(type=spec.type, seq=seq, payload=encode_payload(spec.type, values)))


def _replies(core: ShoeCore) -> list[dict[str, object]]:
    frames = Framer().feed(b"".join(core.outbox))
    core.outbox.clear()
    return [{"type": f.type, "ack": f.ack, **decode_payload(f.type, f.payload)} for f in frames]


def test_core_replays_a_repeated_seq_without_executing_again() -> None:
    core = ShoeCore(decks=1, seed=1)
    core.receive(_cmd("HELLO", 1, proto_version=1, flags=HELLO_NEW_SESSION), 0.0)
    _replies(core)
    core.receive(_cmd("DEAL", 5), 0.0)
    first = _replies(core)
    core.receive(_cmd("DEAL", 5), 0.0)  # the host never saw the reply and retries
    second = _replies(core)
    assert first == second and core.stats.executed["DEAL"] == 1 and core.stats.replays == 1
    assert core.cards() == 51
    core.receive(_cmd("HELLO", 6, proto_version=1, flags=0), 0.0)  # a re-handshake keeps the cache
    _replies(core)
    core.receive(_cmd("DEAL", 5), 0.0)
    assert core.stats.executed["DEAL"] == 1
    core.receive(_cmd("HELLO", 7, proto_version=1, flags=HELLO_NEW_SESSION), 0.0)  # a new host session
    _replies(core)
    core.receive(_cmd("DEAL", 5), 0.0)
    assert core.stats.executed["DEAL"] == 2 and core.cards() == 50


def test_core_refuses_commands_until_greeted_after_boot() -> None:
    core = ShoeCore(decks=1, seed=2)
    core.receive(_cmd("DEAL", 1), 0.0)
    (nak,) = _replies(core)
    assert nak["type"] == 0xFF and nak["status"] == Status.NEED_HELLO and nak["ack"] == 1
    assert core.cards() == 52 and core.stats.executed["DEAL"] == 0


def test_unknown_command_gets_a_nak_naming_the_type() -> None:
    core = ShoeCore(decks=1, seed=3)
    core.receive(encode_frame(Frame(type=0x3E, seq=9)), 0.0)
    (nak,) = _replies(core)
    assert nak == {"type": 0xFF, "ack": 9, "status": Status.UNKNOWN_COMMAND, "rejected_type": 0x3E}


def test_dropped_event_is_resent_and_a_gap_is_refused_then_filled() -> None:
    with MemorySimulator("shoe", decks=1, seed=4) as sim, Shoe(sim.url, heartbeat=None) as shoe, \
            shoe.subscribe() as events:
        sim.inject("drop")  # the DOOR_OPEN frame is lost; DOOR_CLOSED arrives first: a gap
        sim.door(True)
        sim.door(False)
        got = [events.get(timeout=2), events.get(timeout=2)]
    assert [type(e) for e in got] == [DoorOpen, DoorClosed]
    assert [e.event_no for e in got] == [1, 2]
    assert shoe.link.stats.events_gap >= 1


def test_queue_overflow_is_reported_with_the_number_dropped() -> None:
    with MemorySimulator("shoe", decks=1, seed=5, queue_size=8) as sim:
        for _ in range(10):  # no host yet: events queue up and the queue overflows
            sim.door(True)
            sim.door(False)
        with Shoe(sim.url, heartbeat=None) as shoe, shoe.subscribe() as events:
            shoe.ping()
            time.sleep(0.2)
            got = events.drain()
    overflow = [e for e in got if isinstance(e, QueueOverflow)]
    assert len(overflow) == 1 and overflow[0].dropped > 0
    assert [e.event_no for e in got] == list(range(1, len(got) + 1))
    assert len(got) - 1 + overflow[0].dropped == 20


def test_sequence_numbers_wrap_without_confusion() -> None:
    with MemorySimulator("shoe", decks=6, seed=6, cut_from_bottom=0) as sim, \
            Shoe(sim.url, heartbeat=None) as shoe:
        cards = [shoe.deal() for _ in range(300)]
        assert [c.event_no for c in cards] == list(range(1, 301))
        assert sim.stats()["device"]["executed"]["DEAL"] == 300


def test_wrong_device_kind_is_refused() -> None:
    with MemorySimulator("reels", seed=7) as sim, pytest.raises(ProtocolMismatch, match="reels"):
        Shoe(sim.url, heartbeat=None)


def test_missing_port_is_a_clear_error() -> None:
    with pytest.raises(PortUnavailable, match="/dev/does-not-exist") as info:
        open_port("/dev/does-not-exist")
    assert isinstance(info.value, ConnectionError) and isinstance(info.value, LinkError)


def test_loop_url_opens_but_no_device_answers() -> None:
    port = open_port("loop://")
    port.write(b"abc")
    assert port.read(3) == b"abc"
    port.close()
    start = time.monotonic()
    with pytest.raises(LinkTimeout):
        Link("loop://", heartbeat=None, reply_timeout=0.02, retries=1, open_timeout=0.2)
    assert time.monotonic() - start < 2


def test_socket_url_reaches_a_device_over_tcp() -> None:
    sim = MemorySimulator("shoe", decks=1, seed=8)
    server = socket.create_server(("127.0.0.1", 0))
    port_no = server.getsockname()[1]

    def bridge() -> None:
        conn, _ = server.accept()
        conn.settimeout(0.01)
        device = open_port(sim.url, timeout=0.01)
        while True:
            try:
                data = conn.recv(4096)
                if not data:
                    break
                device.write(data)
            except TimeoutError:
                pass
            out = device.read(device.in_waiting or 1)
            if out:
                conn.sendall(out)
        device.close()

    thread = threading.Thread(target=bridge, daemon=True)
    thread.start()
    with Shoe(f"socket://127.0.0.1:{port_no}", heartbeat=None) as shoe:
        assert shoe.info.kind == "shoe"
        assert shoe.deal().code is not None
    thread.join(2)
    server.close()
    sim.stop()


def test_exception_hierarchy_inherits_builtins() -> None:
    assert issubclass(LinkTimeout, TimeoutError) and issubclass(LinkTimeout, FirmwareBridgeError)
    assert issubclass(ShoeEmptyError, LookupError) and issubclass(ShoeEmptyError, DeviceError)
    assert issubclass(ProtocolMismatch, ValueError)


def test_c_header_has_every_message() -> None:
    header = c_header()
    for type_, name, _, _ in TABLE:
        assert f"#define FB_MSG_{name} 0x{type_:02X}" in header


def test_reset_with_a_command_in_flight_is_reported_not_guessed() -> None:
    from firmware_bridge import CommandInterrupted, DeviceReset

    with MemorySimulator("shoe", decks=1, seed=9) as sim, \
            Shoe(sim.url, heartbeat=None, reply_timeout=0.3) as shoe, shoe.subscribe() as events:
        sim.inject("drop")  # DEAL runs, its reply is lost ...
        timer = threading.Timer(0.1, sim.reset)  # ... and the device reboots before the retry
        timer.start()
        with pytest.raises(CommandInterrupted, match="outcome is unknown"):
            shoe.deal()
        timer.join()
        time.sleep(0.05)
        assert any(isinstance(e, DeviceReset) for e in events.drain())
        assert sim.stats()["device"]["executed"]["DEAL"] == 1  # run once before the reboot, never again
        assert shoe.deal().event_no == 1


def test_empty_shoe_is_reported_and_refuses_deals() -> None:
    from firmware_bridge import ShoeEmpty

    with MemorySimulator("shoe", decks=1, seed=10) as sim, Shoe(sim.url, heartbeat=None) as shoe, \
            shoe.subscribe() as events:
        shoe.deal()
        sim.empty()
        with pytest.raises(ShoeEmptyError):
            shoe.deal()
        time.sleep(0.05)
        assert any(isinstance(e, ShoeEmpty) for e in events.drain())
        assert "empty" in shoe.status().flags


# -- a simulator killed outright (power cut) and started again on its non-volatile memory -----------------
def _codes_dealt_by_device(sim: object) -> list[str]:
    return [values["code"] for _, _, name, values in sim.event_log() if name == "CARD_DEALT"]  # type: ignore[attr-defined]


def test_power_cut_between_commands_loses_and_repeats_nothing() -> None:
    from firmware_bridge import CardDealt, DeviceReset, LinkDown, LinkUp, start_simulator

    sim = start_simulator("shoe", decks=2, seed=3, persist=True)
    with Shoe(sim.port, simulator=sim, on_close=sim.stop, heartbeat=0.25) as shoe:
        got: list[object] = []
        down = threading.Event()
        shoe.on_event(lambda e: (got.append(e), isinstance(e, LinkDown) and down.set()))
        for _ in range(5):
            shoe.deal()
        sim.kill()
        assert down.wait(5)  # the port vanished
        sim.restart()
        for _ in range(5):
            shoe.deal()  # the link found the device again by itself
        dealt = _codes_dealt_by_device(sim)
    lifecycle = [e for e in got if not isinstance(e, CardDealt)]
    assert [type(e) for e in lifecycle] == [LinkDown, DeviceReset, LinkUp]
    reset = lifecycle[1]
    assert isinstance(reset, DeviceReset) and reset.events_kept and reset.reset_cause == "power_on"
    cards = [e for e in got if isinstance(e, CardDealt)]
    assert [e.event_no for e in cards] == list(range(1, 11))
    assert [e.code for e in cards] == dealt  # the device's journal: every card once, in order


def test_power_cut_after_a_deal_ran_but_before_its_reply_left_delivers_the_card_once() -> None:
    from firmware_bridge import CardDealt, CommandInterrupted, DeviceReset, start_simulator

    sim = start_simulator("shoe", decks=2, seed=4, persist=True)
    with Shoe(sim.port, simulator=sim, on_close=sim.stop, heartbeat=0.25, reconnect_timeout=10.0) as shoe:
        cards: list[CardDealt] = []
        resets: list[DeviceReset] = []
        shoe.on_event(lambda e: cards.append(e) if isinstance(e, CardDealt) else
                      resets.append(e) if isinstance(e, DeviceReset) else None)
        shoe.deal()
        sim.command("hold_after DEAL")  # once DEAL has run, the device sends nothing: reply and card wait
        outcome: dict[str, object] = {}

        def deal() -> None:
            try:
                outcome["card"] = shoe.deal()
            except Exception as exc:  # noqa: BLE001 - the test looks at what came out
                outcome["error"] = exc

        thread = threading.Thread(target=deal)
        thread.start()
        while not sim.stats()["holding"]:  # ask the device, no sleeping
            pass
        sim.kill()  # power cut with the card out and its event not yet sent
        sim.restart()
        thread.join(30)
        executed = sim.stats()["device"]["executed"].get("DEAL", 0)  # since power-up: none again
        deadline = time.monotonic() + 10
        while len(cards) < 2 and time.monotonic() < deadline:
            shoe.ping()
        dealt = _codes_dealt_by_device(sim)
    # the outcome of the DEAL in flight is unknown to the host, or it was replayed from memory; either
    # way the card that left the shoe reaches the host exactly once and nothing is dealt twice
    assert isinstance(outcome.get("error"), CommandInterrupted) or isinstance(outcome.get("card"), CardDealt)
    assert executed == 0
    assert [c.code for c in cards] == dealt and len(dealt) == 2
    assert resets and resets[0].events_kept


# -- a reply that passed the CRC but does not match the layout (noise the CRC-16 missed) -------------------
class _ReplyMangler:
    """Wraps the link's port: the first ``times`` DEAL_REPLY frames lose their last payload byte and get a
    fresh, valid CRC, as when line noise happens to pass the CRC-16."""

    def __init__(self, real: object, times: int) -> None:
        self.real, self.times, self.buffer = real, times, b""

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    @property
    def in_waiting(self) -> int:
        return int(self.real.in_waiting)  # type: ignore[attr-defined]

    def read(self, size: int = 1) -> bytes:
        self.buffer += self.real.read(size)  # type: ignore[attr-defined]
        end = self.buffer.rfind(b"\x00")
        if end < 0:
            return b""
        ready, self.buffer = self.buffer[:end + 1], self.buffer[end + 1:]
        out = []
        for block in ready.split(b"\x00")[:-1]:
            frames = Framer().feed(block + b"\x00")
            if frames and frames[0].type == by_name("DEAL_REPLY").type and self.times:
                self.times -= 1
                frame = frames[0]
                block = encode_frame(Frame(type=frame.type, seq=frame.seq, ack=frame.ack,
                                           payload=frame.payload[:-1]))[:-1]
            out.append(block + b"\x00")
        return b"".join(out)


def _mangled_shoe(monkeypatch: pytest.MonkeyPatch, sim: MemorySimulator, times: int) -> Shoe:
    import firmware_bridge.link

    real_open = firmware_bridge.link.open_port
    monkeypatch.setattr(firmware_bridge.link, "open_port",
                        lambda url, **options: _ReplyMangler(real_open(url, **options), times))
    return Shoe(sim.url, heartbeat=None)


def test_a_reply_garbled_past_the_crc_is_asked_again_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    with MemorySimulator("shoe", decks=1, seed=12) as sim, _mangled_shoe(monkeypatch, sim, 1) as shoe:
        card = shoe.deal()
        assert card.code is not None
        assert shoe.link.stats.bad_payloads == 1
        stats = sim.stats()["device"]
        assert stats["executed"]["DEAL"] == 1 and stats["replays"] == 1  # replayed, not dealt again


def test_a_reply_never_matching_the_layout_is_a_protocol_mismatch(monkeypatch: pytest.MonkeyPatch) -> None:
    with MemorySimulator("shoe", decks=1, seed=13) as sim, _mangled_shoe(monkeypatch, sim, 99) as shoe, \
            pytest.raises(ProtocolMismatch, match="DEAL_REPLY does not match the layout table"):
        shoe.deal()
