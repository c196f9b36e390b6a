"""The runtime of one table: its state, its event log, and the rule that joins them.

Every change goes through :meth:`Table.submit`: the operation is first applied to a copy of the
state (so a broken rule raises before anything is logged or changed), then appended to the log,
and only once the log has it does the copy become the table's state. A crash at any point leaves
either the old state with no record, or a durable record that replay will apply.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from pathlib import Path

from dealer.core.operations import Operation
from dealer.core.table_state import TableState
from dealer.store import EventStore, Record, rebuild_state

Listener = Callable[[Record, TableState], None]


class Table:
    """One table's state and log. Thread-safe; listeners hear every committed record."""

    def __init__(self, name: str, store: EventStore) -> None:
        self.name = name
        self.store = store
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.state = rebuild_state(store)

    @classmethod
    def open(cls, name: str, db: str | Path) -> Table:
        return cls(name, EventStore.open(db))

    def close(self) -> None:
        self.store.close()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def submit(self, op: Operation) -> Record:
        """Verify ``op`` against the rules, log it durably, then apply it."""
        with self._lock:
            trial = copy.deepcopy(self.state)
            trial.apply(op)
            record = self.store.append(op)
            self.state = trial
            listeners = list(self._listeners)
        for listener in listeners:
            listener(record, trial)
        return record

    def snapshot(self) -> dict[str, object]:
        with self._lock:
            return {"table": self.name, "seq": self.store.last_seq, **self.state.to_json()}
