"""Consistent Overhead Byte Stuffing: removes every 0x00 from a frame so 0x00 can delimit frames.

Each run of up to 254 non-zero bytes is preceded by a code byte = run length + 1; a code below 0xFF
means a zero followed the run (except at the very end)::

    raw      11 22 00 33          encoded  03 11 22 02 33
    raw      00                   encoded  01 01

Overhead: one byte per 254 bytes, plus one.
"""

from __future__ import annotations

from firmware_bridge.errors import CobsError


def encode(data: bytes) -> bytes:
    """COBS-encode ``data``; the result contains no 0x00 byte."""
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def decode(data: bytes) -> bytes:
    """Decode one COBS block (without its 0x00 delimiter); raises :class:`CobsError` if malformed."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise CobsError(f"COBS block contains 0x00 at offset {i}; expected only non-zero bytes")
        end = i + code
        if end > n:
            raise CobsError(f"COBS code {code} at offset {i} runs past the end of the {n}-byte block")
        out += data[i + 1:end]
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)
