"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

The standard library computes it: ``binascii.crc_hqx(data, 0xFFFF)``; check value for ``b"123456789"`` is
0x29B1. Firmware can use any table-driven CCITT implementation with init 0xFFFF.
"""

from __future__ import annotations

import binascii

CHECK_VALUE = 0x29B1


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data``."""
    return binascii.crc_hqx(data, 0xFFFF)
