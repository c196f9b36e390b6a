"""The firmware's own side of PROTOCOL.md, checked frame by frame on the simavr harness's pty (no relay):
what a host cannot see through the drivers, read from the firmware's counters and the simulated hardware."""

from __future__ import annotations

import struct
from collections.abc import Iterator

import pytest
from fb_avr import Harness, needs_avr

from firmware_bridge import DeviceReset, Shoe
from firmware_bridge.protocol.frame import Frame, encode_frame
from firmware_bridge.protocol.layouts import Status

HELLO, PING, DEAL, NAK = 0x01, 0x02, 0x10, 0xFF


@pytest.fixture
def shoe() -> Iterator[Harness]:
    needs_avr()
    harness = Harness("shoe", "--decks", "1", "--seed", "4")
    yield harness
    harness.close()


def _hello(h: Harness, seq: int = 1) -> dict[str, int]:
    h.command(HELLO, seq, bytes([1, 1]))
    reply = h.expect(0x81)
    status, _, kind = reply.payload[:3]
    boot_id, cause, last_no, acked = struct.unpack("<IBII", reply.payload[18:31])
    return {"status": status, "kind": kind, "boot_id": boot_id, "cause": cause, "last": last_no,
            "acked": acked}


def test_after_boot_only_hello_is_accepted_and_nothing_runs(shoe: Harness) -> None:
    shoe.command(DEAL, 1)
    nak = shoe.expect(NAK)
    assert nak.ack == 1 and tuple(nak.payload) == (Status.NEED_HELLO, DEAL)
    assert shoe.control("stats")["world"]["feed_starts"] == 0  # the roller never turned
    hello = _hello(shoe, 2)
    assert hello["status"] == 0 and hello["kind"] == 1 and hello["boot_id"] != 0
    assert hello["cause"] == 0 and hello["last"] == 0  # power-on, no event issued


def test_a_repeated_seq_gets_the_same_reply_bytes_and_deals_once(shoe: Harness) -> None:
    _hello(shoe)
    shoe.command(DEAL, 5)
    first = shoe.expect(0x90)
    shoe.command(DEAL, 5)
    again = shoe.expect(0x90)
    assert encode_frame(first) == encode_frame(again) and first.ack == 5
    assert shoe.control("stats")["world"]["feed_starts"] == 1  # one card left the shoe
    diag = shoe.diag()
    assert diag["executed"]["DEAL"] == 1 and diag["replays"] == 1


def test_damaged_and_oversize_frames_are_dropped_and_counted(shoe: Harness) -> None:
    _hello(shoe)
    good = bytearray(encode_frame(Frame(type=PING, seq=3)))
    flipped = bytes(good[:2]) + bytes([good[2] ^ 0x10]) + bytes(good[3:])
    shoe.send(b"\x13\x37\x00" + flipped + bytes(range(1, 100)) + b"\x00")
    assert [f for f in shoe.quiet(0.3) if f.type == 0x82] == []  # no reply to any of them
    shoe.command(PING, 4)
    assert shoe.expect(0x82).ack == 4  # the line is clean again
    assert shoe.diag()["bad_frames"] >= 3  # counted before the PING behind them was answered


def test_unknown_commands_are_refused(shoe: Harness) -> None:
    _hello(shoe)
    shoe.command(0x3F, 6)
    assert tuple(shoe.expect(NAK).payload) == (Status.UNKNOWN_COMMAND, 0x3F)
    shoe.command(0x30, 7, bytes(6))  # SPIN is a reel command: a shoe answers it as not implemented
    assert tuple(shoe.expect(0xB0).payload) == (Status.UNKNOWN_COMMAND,)


def test_every_reset_draws_a_new_boot_id(shoe: Harness) -> None:
    boot_ids = {_hello(shoe)["boot_id"]}
    for cause, code in (("watchdog", 1), ("brown_out", 2), ("power_on", 0), ("watchdog", 1)):
        new = shoe.control(f"reset {cause}")["boot_id"]
        hello = _hello(shoe)
        assert hello["boot_id"] == new and hello["cause"] == code
        boot_ids.add(new)
    assert len(boot_ids) == 5


def test_host_requested_reset_reboots_through_the_watchdog(shoe: Harness) -> None:
    device = Shoe(shoe.port, reply_timeout=0.1, retries=3)
    try:
        old = device.info.boot_id
        with device.subscribe() as events:
            device.reset()  # the link's heartbeat finds the rebooted device and greets it
            event = events.get(timeout=5)
            while not isinstance(event, DeviceReset):
                event = events.get(timeout=5)
        assert event.reset_cause == "host_request" and event.new_boot_id != old
        assert device.meters()["resets"] == 1
    finally:
        device.close()


def test_unacked_events_are_resent_then_a_full_queue_refuses_deals(shoe: Harness) -> None:
    _hello(shoe)
    shoe.command(DEAL, 1)
    assert shoe.expect(0x90).payload[0] == Status.OK
    # CARD_DEALT #1 again every 30 ms of the device's time until acked (PROTOCOL.md section 5); the
    # simulated device may run slower than the wall clock on a busy machine, so copies are counted,
    # not timed
    copies = [shoe.expect(0x40, timeout=10.0) for _ in range(4)]
    assert {struct.unpack("<I", f.payload[:4])[0] for f in copies} == {1}


def _until_changed(h: Harness, before: dict[str, object]) -> None:
    """Wait until the firmware has seen a sensor change (queued or dropped an event)."""
    for _ in range(500):
        now = h.diag()
        if (now["next_event_no"], now["overflowed"]) != (before["next_event_no"], before["overflowed"]):
            return
    raise AssertionError("the firmware never reacted to the door")


@pytest.fixture
def two_deck_shoe() -> Iterator[Harness]:
    needs_avr()
    harness = Harness("shoe", "--decks", "2", "--cut", "0", "--seed", "8")
    yield harness
    harness.close()


def test_a_full_event_queue_refuses_deals_and_reports_what_it_dropped(two_deck_shoe: Harness) -> None:
    h = two_deck_shoe
    _hello(h)
    dealt = 0
    for seq in range(1, 101):
        h.command(DEAL, seq)
        status = h.expect(0x90).payload[0]
        if status == Status.QUEUE_FULL:
            break
        assert status == Status.OK
        dealt += 1
    assert dealt >= 60  # the queue holds at least 64 events; a DEAL keeps room for the cut card and empty
    assert h.control("stats")["world"]["feed_starts"] == dealt  # the refused DEAL moved nothing
    for toggle in range(8):  # spontaneous door events fill the last slots, then are dropped and counted
        before = h.diag()
        h.control("door open" if toggle % 2 == 0 else "door closed")
        _until_changed(h, before)
        if h.diag()["overflowed"]:
            break
    queued = h.diag()
    assert queued["overflowed"] >= 1
    h.send(encode_frame(Frame(type=0x05, payload=struct.pack("<I", dealt))))  # EVENT_ACK the cards
    overflow = h.expect(0x4C)
    number, dropped = struct.unpack("<IH", overflow.payload)
    after = h.diag()
    # the last slot is kept for it, so it follows the door events that fitted, numbered in sequence
    # (the firmware may number it before or after `queued` was read: it waits for no host frame)
    assert dealt < number <= queued["next_event_no"] and after["next_event_no"] == number + 1
    assert dropped == queued["overflowed"] == after["overflowed"]
    h.control("door closed")
    h.command(DEAL, 101)  # room again: dealing goes on
    assert h.expect(0x90).payload[0] == Status.OK
