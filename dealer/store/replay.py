"""Rebuild a table's state by replaying its event log from the first record."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import pkgutil
from collections.abc import Callable, Iterable, Sequence, Set

import dealer.core
from dealer.core.cards import Card, parse_card
from dealer.core.errors import IllegalOperation
from dealer.core.operations import Operation
from dealer.core.table_state import CorrectCard, TableState, VoidRecord
from dealer.store.eventlog import EventStore, Record


@functools.cache
def load_operation_modules() -> tuple[str, ...]:
    """Import every module of :mod:`dealer.core` so that all operation kinds are registered."""
    names = []
    for info in pkgutil.walk_packages(dealer.core.__path__, prefix="dealer.core."):
        importlib.import_module(info.name)
        names.append(info.name)
    return tuple(names)


def voided_seqs(records: Iterable[Record]) -> set[int]:
    return {int(r.data["seq"]) for r in records if r.kind == VoidRecord.kind}


def corrected_cards(records: Iterable[Record], voided: Set[int] = frozenset()) -> dict[int, Card]:
    """Record seq → the card it really dealt: the newest correction of it that is not ``voided`` (a
    voided correction is undone, so the one before it, or the card as read, stands again)."""
    return {int(r.data["seq"]): parse_card(r.data["card"])
            for r in records if r.kind == CorrectCard.kind and r.seq not in voided}


def replay(records: Sequence[Record], state: TableState | None = None, *, skip: set[int] | None = None,
           correct: dict[int, Card] | None = None,
           after_apply: Callable[[Record, TableState], None] | None = None) -> TableState:
    """Apply ``records`` in order to ``state`` (a new table by default).

    Voids and card corrections name earlier records, so they are collected first: a voided record
    is left out and a corrected one is applied with the right card (that of its newest correction
    not voided). ``skip`` and ``correct`` add more, to try a void or a correction before logging it.
    """
    load_operation_modules()
    state = state or TableState()
    skipped = voided_seqs(records) | (skip or set())
    corrections = corrected_cards(records, skipped) | (correct or {})
    for record in records:
        if record.seq in skipped:
            continue
        op = record.operation()
        if record.seq in corrections:
            op = with_card(op, corrections[record.seq])
        state.apply(op)
        if after_apply is not None:
            after_apply(record, state)
    return state


def with_card(op: Operation, card: Card) -> Operation:
    """``op`` with its ``card`` field replaced; an operation without one cannot be corrected."""
    if not any(f.name == "card" for f in dataclasses.fields(op)):
        raise IllegalOperation(f"{op.kind} carries no card to correct")
    return dataclasses.replace(op, card=card)  # type: ignore[call-arg]


def rebuild_state(store: EventStore, state: TableState | None = None) -> TableState:
    """Apply every logged operation in order, starting from an empty table."""
    return replay(list(store.records()), state)
