"""Frozen operation records: every change to a table is one of these.

An operation is a frozen dataclass with a registered ``kind``. It knows how to turn itself into a
JSON-ready payload and back, so the event store can log it and replay it. The state objects that
operations act on follow one pattern per action (after pokerkit): ``verify_x(...)`` raises
:class:`~dealer.core.errors.IllegalOperation` naming the broken rule, ``can_x(...)`` returns a
bool, and ``x(...)`` verifies and then does it.

>>> from dealer.core.cards import Card
>>> @register_operation
... @dataclass(frozen=True)
... class _Example(Operation):
...     kind: ClassVar[str] = "example.op"
...     card: Card
...     amount: int
>>> op = _Example(Card.parse("AS"), 5)
>>> op.to_payload()
{'card': 'AS', 'amount': 5}
>>> operation_from_payload("example.op", {"card": "as", "amount": 5}) == op
True
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from dealer.core.cards import Card, parse_card
from dealer.core.errors import IllegalOperation, UnknownOperation

__all__ = ["Operation", "can", "ensure", "operation_from_payload", "operation_kinds", "register_operation"]

OpT = TypeVar("OpT", bound="Operation")
_REGISTRY: dict[str, type[Operation]] = {}


@dataclass(frozen=True)
class Operation:
    """Base of every operation record. Subclasses set ``kind`` and are ``@register_operation``."""

    kind: ClassVar[str] = ""

    def to_payload(self) -> dict[str, Any]:
        hints = typing.get_type_hints(type(self))
        return {f.name: _encode(getattr(self, f.name), hints[f.name])
                for f in dataclasses.fields(self)}

    @classmethod
    def from_payload(cls: type[OpT], payload: dict[str, Any]) -> OpT:
        hints = typing.get_type_hints(cls)
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(payload) - names
        if unknown:
            raise IllegalOperation(
                f"{cls.kind}: unexpected field(s) {sorted(unknown)}; expected {sorted(names)}")
        kwargs = {}
        for f in dataclasses.fields(cls):
            if f.name in payload:
                kwargs[f.name] = _decode(payload[f.name], hints[f.name], f"{cls.kind}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise IllegalOperation(f"{cls.kind}: missing field {f.name!r}")
        return cls(**kwargs)


def register_operation(cls: type[OpT]) -> type[OpT]:
    """Class decorator: make ``cls`` loadable from the log by its ``kind``."""
    if not cls.kind:
        raise TypeError(f"{cls.__name__} needs a non-empty 'kind'")
    existing = _REGISTRY.get(cls.kind)
    if existing is not None and existing.__qualname__ != cls.__qualname__:
        raise TypeError(f"operation kind {cls.kind!r} is already registered by {existing.__name__}")
    _REGISTRY[cls.kind] = cls
    return cls


def operation_kinds() -> dict[str, type[Operation]]:
    return dict(_REGISTRY)


def operation_from_payload(kind: str, payload: dict[str, Any]) -> Operation:
    try:
        cls = _REGISTRY[kind]
    except KeyError:
        raise UnknownOperation(f"unknown operation kind {kind!r}") from None
    return cls.from_payload(payload)


def ensure(condition: bool, message: str) -> None:
    """Raise :class:`IllegalOperation` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise IllegalOperation(message)


def can(verify: Callable[..., object], *args: object) -> bool:
    """The ``can_x`` of a ``verify_x``: True when ``verify(*args)`` finds no broken rule."""
    try:
        verify(*args)
    except IllegalOperation:
        return False
    return True


def _encode(value: Any, hint: Any) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        args = typing.get_args(hint)
        inner = args[0] if args else Any
        return [_encode(v, inner) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v, Any) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name), Any) for f in dataclasses.fields(value)}
    return value


def _decode(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _decode(value, inner[0], where) if len(inner) == 1 else value
    if hint is Card:
        return parse_card(value)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise IllegalOperation(f"{where}: expected a list, got {value!r}")
        inner_hint = args[0] if args else Any
        return tuple(_decode(v, inner_hint, where) for v in value)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in hint)
            raise IllegalOperation(f"{where}: {value!r} is not one of {allowed}") from None
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise IllegalOperation(f"{where}: expected a whole number, got {value!r}")
    if hint is str and not isinstance(value, str):
        raise IllegalOperation(f"{where}: expected text, got {value!r}")
    return value

