"""Rebuild a table's state by replaying its event log from the first record."""

from __future__ import annotations

import functools
import importlib
import pkgutil

import dealer.core
from dealer.core.table_state import TableState
from dealer.store.eventlog import EventStore


@functools.cache
def load_operation_modules() -> tuple[str, ...]:
    """Import every module of :mod:`dealer.core` so that all operation kinds are registered."""
    names = []
    for info in pkgutil.walk_packages(dealer.core.__path__, prefix="dealer.core."):
        importlib.import_module(info.name)
        names.append(info.name)
    return tuple(names)


def rebuild_state(store: EventStore, state: TableState | None = None) -> TableState:
    """Apply every logged operation in order, starting from an empty table."""
    load_operation_modules()
    state = state or TableState()
    for record in store.records():
        state.apply(record.operation())
    return state
