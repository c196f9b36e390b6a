"""Message codecs generated from the layout table in :mod:`firmware_bridge.protocol.layouts`.

>>> from firmware_bridge.protocol.messages import encode_payload, decode_payload, by_name
>>> spec = by_name("CARD_DEALT")
>>> data = encode_payload(spec.type, {"event_no": 7, "code": "10H"})
>>> data.hex(" ")
'07 00 00 00 03 31 30 48'
>>> decode_payload(spec.type, data)
{'event_no': 7, 'code': '10H'}
"""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware_bridge.errors import PayloadError, UnknownMessage
from firmware_bridge.protocol.layouts import EVENT_RANGE, MAX_STR, REPLY_BIT, TABLE, Status

_SCALARS = {"u8": "B", "u16": "H", "u32": "I", "i32": "i"}
_FIELD = re.compile(
    r"^(?P<name>[a-z_0-9]+):(?P<type>u8|u16|u32|i32|str|bytes(?P<blen>\d+))(\[(?P<n>\d+)\])?$"
)


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    type: str  # u8, u16, u32, i32, str, bytes
    count: int = 0  # array length; 0 = scalar
    size: int = 0  # byte length for bytesN

    @property
    def fixed_size(self) -> int | None:
        if self.type == "str":
            return None
        if self.type == "bytes":
            return self.size
        return struct.calcsize("<" + _SCALARS[self.type]) * max(self.count, 1)


@dataclass(frozen=True, slots=True)
class MessageSpec:
    type: int
    name: str
    sender: str
    fields: tuple[Field, ...]

    @property
    def is_event(self) -> bool:
        return self.type in EVENT_RANGE

    @property
    def is_reply(self) -> bool:
        return self.sender == "device" and not self.is_event and self.name != "NAK"

    @property
    def reply_type(self) -> int:
        return self.type | REPLY_BIT


def _parse_fields(text: str) -> tuple[Field, ...]:
    fields = []
    for token in text.split():
        match = _FIELD.match(token)
        if match is None:
            raise ValueError(f"bad field spec {token!r} in layout table")
        kind = match["type"]
        if match["blen"]:
            fields.append(Field(match["name"], "bytes", size=int(match["blen"])))
        else:
            fields.append(Field(match["name"], kind, count=int(match["n"] or 0)))
    return tuple(fields)


SPECS: dict[int, MessageSpec] = {}
for _type, _name, _sender, _fields in TABLE:
    if _type in SPECS:
        raise ValueError(f"duplicate message type 0x{_type:02X} in layout table")
    SPECS[_type] = MessageSpec(_type, _name, _sender, _parse_fields(_fields))
_BY_NAME = {spec.name: spec for spec in SPECS.values()}


def by_name(name: str) -> MessageSpec:
    try:
        return _BY_NAME[name]
    except KeyError:
        raise UnknownMessage(f"no message named {name!r}; known: {', '.join(sorted(_BY_NAME))}") from None


def spec_for(type_: int) -> MessageSpec:
    try:
        return SPECS[type_]
    except KeyError:
        raise UnknownMessage(f"message type 0x{type_:02X} is not in the layout table") from None


def encode_payload(type_: int, values: Mapping[str, Any]) -> bytes:
    """Pack ``values`` for message ``type_``. For a reply whose status is not OK only the status is sent."""
    spec = spec_for(type_)
    out = bytearray()
    for field in spec.fields:
        if field.name not in values:
            raise PayloadError(f"{spec.name} needs field {field.name!r}; got {sorted(values)}")
        value = values[field.name]
        try:
            if field.type == "str":
                raw = str(value).encode("utf-8")
                if len(raw) > MAX_STR:
                    raise PayloadError(f"{spec.name}.{field.name} is {len(raw)} bytes; max {MAX_STR}")
                out.append(len(raw))
                out += raw
            elif field.type == "bytes":
                raw = bytes(value)
                if len(raw) != field.size:
                    raise PayloadError(f"{spec.name}.{field.name} must be {field.size} bytes, got {len(raw)}")
                out += raw
            elif field.count:
                items = tuple(value)
                if len(items) != field.count:
                    raise PayloadError(
                        f"{spec.name}.{field.name} needs {field.count} values, got {len(items)}"
                    )
                out += struct.pack(f"<{field.count}{_SCALARS[field.type]}", *items)
            else:
                out += struct.pack("<" + _SCALARS[field.type], value)
        except struct.error as exc:
            raise PayloadError(
                f"{spec.name}.{field.name}={value!r} does not fit {field.type}: {exc}"
            ) from None
        if spec.is_reply and field.name == "status" and value != Status.OK:
            break
    return bytes(out)


def decode_payload(type_: int, data: bytes) -> dict[str, Any]:
    """Unpack a payload; raises :class:`PayloadError` if it does not match the table exactly."""
    spec = spec_for(type_)
    values: dict[str, Any] = {}
    pos = 0
    for field in spec.fields:
        if field.type == "str":
            if pos >= len(data):
                raise PayloadError(f"{spec.name} payload ends before {field.name}")
            length = data[pos]
            raw = data[pos + 1:pos + 1 + length]
            if len(raw) != length or length > MAX_STR:
                raise PayloadError(f"{spec.name}.{field.name} declares {length} bytes; {len(raw)} present")
            try:
                values[field.name] = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise PayloadError(f"{spec.name}.{field.name} is not UTF-8") from None
            pos += 1 + length
        else:
            size = field.fixed_size or 0
            chunk = data[pos:pos + size]
            if len(chunk) != size:
                raise PayloadError(f"{spec.name} payload is {len(data)} bytes; ends inside {field.name}")
            if field.type == "bytes":
                values[field.name] = bytes(chunk)
            elif field.count:
                values[field.name] = struct.unpack(f"<{field.count}{_SCALARS[field.type]}", chunk)
            else:
                values[field.name] = struct.unpack("<" + _SCALARS[field.type], chunk)[0]
            pos += size
        if spec.is_reply and field.name == "status" and values["status"] != Status.OK:
            break
    if pos != len(data):
        raise PayloadError(f"{spec.name} payload has {len(data) - pos} unexpected trailing bytes")
    return values
