"""Framer and codec properties: round trips, resync after garbage, errors only through our own type."""

from __future__ import annotations

import binascii
import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.errors import CobsError, CrcMismatch, FirmwareBridgeError, FrameError, PayloadError
from firmware_bridge.protocol import cobs
from firmware_bridge.protocol.crc import CHECK_VALUE, crc16
from firmware_bridge.protocol.frame import MAX_ENCODED, MAX_PAYLOAD, Frame, Framer, decode_frame, encode_frame
from firmware_bridge.protocol.messages import SPECS, by_name, decode_payload, encode_payload

frames = st.builds(
    Frame,
    type=st.integers(0, 255),
    seq=st.integers(0, 255),
    ack=st.integers(0, 255),
    payload=st.binary(max_size=MAX_PAYLOAD),
)


def test_crc_is_ccitt_false_check_value() -> None:
    assert crc16(b"123456789") == CHECK_VALUE == 0x29B1
    assert binascii.crc_hqx(b"123456789", 0xFFFF) == 0x29B1


@pytest.mark.parametrize(
    ("raw", "encoded"),
    [(b"", b"\x01"), (b"\x00", b"\x01\x01"), (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
     (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01")],
)
def test_cobs_known_vectors(raw: bytes, encoded: bytes) -> None:
    assert cobs.encode(raw) == encoded
    assert cobs.decode(encoded) == raw


@given(st.binary(max_size=1200))
def test_cobs_round_trips_and_removes_zeros(data: bytes) -> None:
    encoded = cobs.encode(data)
    assert 0 not in encoded
    assert cobs.decode(encoded) == data


@given(frames)
def test_frame_round_trips_any_payload(frame: Frame) -> None:
    wire = encode_frame(frame)
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    assert len(wire) - 1 <= MAX_ENCODED
    assert decode_frame(wire[:-1]) == frame
    assert Framer().feed(wire) == [frame]


@given(st.lists(frames, max_size=8), st.integers(1, 64))
def test_stream_split_anywhere_still_decodes(frame_list: list[Frame], chunk: int) -> None:
    wire = b"".join(encode_frame(f) for f in frame_list)
    framer = Framer()
    got: list[Frame] = []
    for i in range(0, len(wire), chunk):
        got += framer.feed(wire[i:i + chunk])
    assert got == frame_list


@given(st.lists(st.tuples(frames, st.binary(max_size=300)), max_size=8))
def test_garbage_between_frames_costs_at_most_the_frames_it_touches(items: list[tuple[Frame, bytes]]) -> None:
    # Garbage is followed by a delimiter-led frame; garbage without a trailing 0x00 merges into the next
    # frame's block, so at most that one frame is lost.
    wire = b""
    for frame, garbage in items:
        wire += garbage + encode_frame(frame)
    got = Framer().feed(wire)
    sent = [f for f, _ in items]
    touched = sum(1 for _, g in items if g and not g.endswith(b"\x00"))
    # every decoded frame that matches a sent one appears in order; lost frames are bounded
    survivors = [f for f in got if f in sent]
    assert len(survivors) >= len(sent) - touched
    it = iter(sent)
    assert all(any(s == f for f in it) for s in survivors)


@given(st.binary(max_size=600))
def test_framer_never_raises_on_arbitrary_bytes(data: bytes) -> None:
    framer = Framer()
    framer.feed(data, now=0.0)
    framer.feed(data, now=1.0)


@given(st.binary(max_size=MAX_ENCODED + 20))
def test_decode_frame_raises_only_frame_error(block: bytes) -> None:
    with contextlib.suppress(FrameError):
        decode_frame(block)


@given(frames, st.data())
def test_any_single_bit_flip_is_detected(frame: Frame, data: st.DataObject) -> None:
    wire = bytearray(encode_frame(frame))
    bit = data.draw(st.integers(0, (len(wire) - 1) * 8 - 1))
    wire[bit // 8] ^= 1 << (bit % 8)
    assert frame not in Framer().feed(bytes(wire))


def test_crc_error_is_reported_by_name() -> None:
    wire = bytearray(encode_frame(Frame(type=0x10, seq=3)))
    wire[2] ^= 0x04
    with pytest.raises(CrcMismatch) as info:
        decode_frame(bytes(wire[:-1]))
    assert "does not match" in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, FirmwareBridgeError)


def test_bad_cobs_is_a_frame_error() -> None:
    with pytest.raises(CobsError):
        decode_frame(b"\x05\x01")


def test_oversize_frame_dropped_and_next_frame_survives() -> None:
    good = Frame(type=0x02, seq=9)
    framer = Framer()
    got = framer.feed(b"\x01" * (MAX_ENCODED + 50) + b"\x00" + encode_frame(good))
    assert got == [good]
    assert framer.errors["oversize"] == 1


def test_partial_frame_discarded_after_inter_byte_timeout() -> None:
    good = encode_frame(Frame(type=0x02, seq=1))
    framer = Framer(inter_byte_timeout=0.05)
    assert framer.feed(good[:4], now=0.0) == []
    # the rest arrives far too late: the stale head is dropped, the tail alone fails, nothing is delivered
    assert framer.feed(good[4:], now=1.0) == []
    assert framer.errors["partial"] == 1
    assert framer.feed(good, now=1.01) == [Frame(type=0x02, seq=1)]


def test_split_frame_within_timeout_is_kept() -> None:
    good = encode_frame(Frame(type=0x02, seq=1))
    framer = Framer(inter_byte_timeout=0.05)
    assert framer.feed(good[:4], now=0.0) == []
    assert framer.feed(good[4:], now=0.01) == [Frame(type=0x02, seq=1)]


def _example(field_type: str, count: int, size: int) -> st.SearchStrategy[object]:
    scalar = {"u8": st.integers(0, 0xFF), "u16": st.integers(0, 0xFFFF), "u32": st.integers(0, 0xFFFFFFFF),
              "i32": st.integers(-(2**31), 2**31 - 1)}
    if field_type == "str":
        return st.text(max_size=8)
    if field_type == "bytes":
        return st.binary(min_size=size, max_size=size)
    if count:
        return st.tuples(*[scalar[field_type]] * count)
    return scalar[field_type]


@pytest.mark.parametrize("type_", sorted(SPECS), ids=lambda t: SPECS[t].name)
@settings(max_examples=25)
@given(data=st.data())
def test_every_message_in_the_table_round_trips(type_: int, data: st.DataObject) -> None:
    spec = SPECS[type_]
    values = {f.name: data.draw(_example(f.type, f.count, f.size)) for f in spec.fields}
    if "status" in values:
        values["status"] = 0
    encoded = encode_payload(type_, values)
    assert decode_payload(type_, encoded) == values


def test_error_reply_carries_only_status() -> None:
    spec = by_name("DEAL_REPLY")
    assert encode_payload(spec.type, {"status": 4, "event_no": 0}) == b"\x04"
    assert decode_payload(spec.type, b"\x04") == {"status": 4}


def test_payload_errors_name_the_field() -> None:
    spec = by_name("SPIN")
    with pytest.raises(PayloadError, match="stops"):
        encode_payload(spec.type, {"stops": (1, 2)})
    with pytest.raises(PayloadError, match="trailing"):
        decode_payload(by_name("PING").type, b"\x01")


@given(st.integers(0, 255), st.binary(max_size=64))
def test_decode_payload_raises_only_our_errors(type_: int, data: bytes) -> None:
    with contextlib.suppress(FirmwareBridgeError):
        decode_payload(type_, data)
