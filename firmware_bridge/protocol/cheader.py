"""Emit a C header for firmware from the same layout table the host uses.

``python -m firmware_bridge.protocol.cheader > fb_protocol.h``
"""

from __future__ import annotations

from firmware_bridge.protocol.frame import MAX_PAYLOAD, PROTOCOL_VERSION
from firmware_bridge.protocol.layouts import (
    HELLO_NEW_SESSION,
    Capability,
    DeviceKind,
    DeviceState,
    ResetCause,
    Status,
    StatusFlag,
)
from firmware_bridge.protocol.messages import SPECS

_C_TYPES = {"u8": "uint8_t", "u16": "uint16_t", "u32": "uint32_t", "i32": "int32_t"}


def c_header() -> str:
    lines = [
        "/* Generated from firmware_bridge/protocol/layouts.py -- do not edit. */",
        "#pragma once", "#include <stdint.h>", "",
        f"#define FB_PROTOCOL_VERSION {PROTOCOL_VERSION}", f"#define FB_MAX_PAYLOAD {MAX_PAYLOAD}",
        f"#define FB_HELLO_NEW_SESSION 0x{HELLO_NEW_SESSION:02X}", "",
    ]
    for enum in (DeviceKind, Status, Capability, DeviceState, StatusFlag, ResetCause):
        for member in enum:
            lines.append(f"#define FB_{enum.__name__.upper()}_{member.name} 0x{int(member):04X}")
        lines.append("")
    for spec in SPECS.values():
        lines.append(f"#define FB_MSG_{spec.name} 0x{spec.type:02X}")
    lines.append("")
    for spec in SPECS.values():
        members = []
        for field in spec.fields:
            if field.type == "str":
                members.append(f"    uint8_t {field.name}_len; char {field.name}[];  /* variable */")
                break
            if field.type == "bytes":
                members.append(f"    uint8_t {field.name}[{field.size}];")
            elif field.count:
                members.append(f"    {_C_TYPES[field.type]} {field.name}[{field.count}];")
            else:
                members.append(f"    {_C_TYPES[field.type]} {field.name};")
        if members:
            lines += ["typedef struct __attribute__((packed)) {", *members,
                      f"}} fb_{spec.name.lower()}_t;  /* little-endian */", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(c_header())
