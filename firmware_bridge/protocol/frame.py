"""Frames: the unit of transfer on the serial line. Pure bytes, no I/O.

A frame on the wire::

    +------------------------------------------------------------+------+
    |                 COBS( raw frame )                          | 0x00 |
    +------------------------------------------------------------+------+

    raw frame:
    +-----+------+-----+-----+------------------------+----------+
    | VER | TYPE | SEQ | ACK | PAYLOAD (0..240 bytes) | CRC16 BE |
    +-----+------+-----+-----+------------------------+----------+
      1     1      1     1              n                  2

CRC16 is CRC-16/CCITT-FALSE over VER..PAYLOAD, sent big-endian. SEQ is the host's command sequence
number (1..255, 0 = unsequenced); ACK is, in a device reply, the SEQ of the command it answers.

The stream decoder (:class:`Framer`) resynchronises by dropping everything up to the next 0x00, drops
frames longer than :data:`MAX_ENCODED` and partial frames older than the inter-byte timeout, and never
raises: bad frames are counted in :attr:`Framer.errors`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from firmware_bridge.errors import CrcMismatch, FrameError, FrameSizeError, VersionMismatch
from firmware_bridge.protocol import cobs
from firmware_bridge.protocol.crc import crc16

PROTOCOL_VERSION = 1
DELIMITER = b"\x00"
HEADER_SIZE = 4
CRC_SIZE = 2
MAX_PAYLOAD = 240
MAX_RAW = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE
MAX_ENCODED = MAX_RAW + 1 + MAX_RAW // 254  # COBS overhead, delimiter excluded
INTER_BYTE_TIMEOUT = 0.05  # seconds of silence after which a partial frame is discarded


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame."""

    type: int
    seq: int = 0
    ack: int = 0
    payload: bytes = b""
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        for name in ("type", "seq", "ack", "version"):
            value = getattr(self, name)
            if not 0 <= value <= 0xFF:
                raise FrameError(f"frame {name} must be a byte 0..255, got {value}")
        if len(self.payload) > MAX_PAYLOAD:
            raise FrameSizeError(f"payload is {len(self.payload)} bytes; the maximum is {MAX_PAYLOAD}")


def encode_frame(frame: Frame) -> bytes:
    """The bytes to send for ``frame``, delimiter included."""
    raw = bytes((frame.version, frame.type, frame.seq, frame.ack)) + frame.payload
    raw += crc16(raw).to_bytes(2, "big")
    return cobs.encode(raw) + DELIMITER


def decode_frame(block: bytes) -> Frame:
    """Decode one COBS block (delimiter stripped); raises only :class:`FrameError` subclasses."""
    if len(block) > MAX_ENCODED:
        raise FrameSizeError(f"frame is {len(block)} bytes encoded; the maximum is {MAX_ENCODED}")
    raw = cobs.decode(block)
    if len(raw) < HEADER_SIZE + CRC_SIZE:
        raise FrameSizeError(f"frame is {len(raw)} bytes; expected at least {HEADER_SIZE + CRC_SIZE}")
    body, sent = raw[:-CRC_SIZE], int.from_bytes(raw[-CRC_SIZE:], "big")
    computed = crc16(body)
    if computed != sent:
        raise CrcMismatch(f"CRC 0x{sent:04X} does not match computed 0x{computed:04X}")
    if body[0] != PROTOCOL_VERSION:
        raise VersionMismatch(f"protocol version {body[0]}; this host speaks {PROTOCOL_VERSION}")
    return Frame(type=body[1], seq=body[2], ack=body[3], payload=bytes(body[HEADER_SIZE:]), version=body[0])


class Framer:
    """Incremental stream decoder: feed bytes, get complete frames back.

    ``now`` (seconds, any monotonic clock) enables the inter-byte timeout; pass ``None`` to disable it.
    """

    def __init__(self, inter_byte_timeout: float | None = INTER_BYTE_TIMEOUT) -> None:
        self._buffer = bytearray()
        self._overflow = False
        self._last_byte_at: float | None = None
        self.inter_byte_timeout = inter_byte_timeout
        self.errors: Counter[str] = Counter()
        self.frames = 0

    def feed(self, data: bytes, now: float | None = None) -> list[Frame]:
        if (
            now is not None
            and self.inter_byte_timeout is not None
            and self._last_byte_at is not None
            and (self._buffer or self._overflow)
            and now - self._last_byte_at > self.inter_byte_timeout
        ):
            self.errors["partial"] += 1
            self._buffer.clear()
            self._overflow = False
        if data and now is not None:
            self._last_byte_at = now
        frames: list[Frame] = []
        start = 0
        while True:
            end = data.find(0, start)
            if end < 0:
                self._append(data[start:])
                return frames
            self._append(data[start:end])
            block, overflow = bytes(self._buffer), self._overflow
            self._buffer.clear()
            self._overflow = False
            start = end + 1
            if overflow:
                self.errors["oversize"] += 1
            elif block:
                try:
                    frames.append(decode_frame(block))
                    self.frames += 1
                except FrameError as exc:
                    self.errors[type(exc).__name__] += 1

    def _append(self, chunk: bytes) -> None:
        if self._overflow or not chunk:
            return
        self._buffer += chunk
        if len(self._buffer) > MAX_ENCODED:
            self._buffer.clear()
            self._overflow = True

    def reset(self) -> None:
        """Drop any partial frame (e.g. after the port was reopened)."""
        self._buffer.clear()
        self._overflow = False
