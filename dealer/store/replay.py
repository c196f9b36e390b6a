"""Rebuild a table's state by replaying its event log from the first record."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable, Iterable, Sequence

import dealer.core
from dealer.core.table_state import TableState, VoidRecord
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


def replay(records: Sequence[Record], state: TableState | None = None, *, skip: set[int] | None = None,
           after_apply: Callable[[Record, TableState], None] | None = None) -> TableState:
    """Apply ``records`` in order to ``state`` (a new table by default), leaving out voided ones.

    A void names an earlier record, so the voids are collected first; ``skip`` adds more (to try a
    void before logging it).
    """
    load_operation_modules()
    state = state or TableState()
    skipped = voided_seqs(records) | (skip or set())
    for record in records:
        if record.seq in skipped:
            continue
        state.apply(record.operation())
        if after_apply is not None:
            after_apply(record, state)
    return state


def rebuild_state(store: EventStore, state: TableState | None = None) -> TableState:
    """Apply every logged operation in order, starting from an empty table."""
    return replay(list(store.records()), state)
