"""Pure protocol layer: COBS, CRC-16, frames and message codecs. No I/O."""

from __future__ import annotations

from firmware_bridge.protocol.frame import (
    MAX_ENCODED,
    MAX_PAYLOAD,
    PROTOCOL_VERSION,
    Frame,
    Framer,
    decode_frame,
    encode_frame,
)
from firmware_bridge.protocol.layouts import (
    Capability,
    DeviceKind,
    DeviceState,
    ResetCause,
    Status,
    StatusFlag,
)
from firmware_bridge.protocol.messages import by_name, decode_payload, encode_payload, spec_for

__all__ = [
    "MAX_ENCODED", "MAX_PAYLOAD", "PROTOCOL_VERSION", "Capability", "DeviceKind", "DeviceState", "Frame",
    "Framer", "ResetCause", "Status", "StatusFlag", "by_name", "decode_frame", "decode_payload",
    "encode_frame", "encode_payload", "spec_for",
]
