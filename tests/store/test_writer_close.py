"""Closing the event log (and the token store) while other threads use the one shared SQLite connection.

The interleavings are forced with events: a reader stopped between two records of ``records()``, a
writer stopped inside ``append`` (in the clock it calls under the lock), API threads mid-``tail``.
Whatever a thread does after the close gets ``StoreClosed`` (a ``StoreError``), never a raw
``sqlite3.ProgrammingError``, and a write that had started is whole and durable.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dealer.core.table_state import TransferChips
from dealer.store import EventStore, Role, StoreClosed, StoreError, TokenStore
from dealer.store.eventlog import _BATCH, _utc_now

WAIT = 10.0


def _in_thread(fn: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["result"] = fn()
        except BaseException as exc:  # the test inspects whatever escaped
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def _fill(store: EventStore, n: int) -> None:
    store.append(TransferChips("cage", "seat-1", n, "buy-in"))
    for i in range(n - 1):
        store.append(TransferChips("seat-1", "house", 1, f"bet {i}"))


def test_close_while_a_reader_is_between_two_records(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "t.db")
    _fill(store, _BATCH + 20)  # more than one batch: the reader must go back to the database
    took_one, closed = threading.Event(), threading.Event()

    def read_all() -> int:
        count = 0
        for _ in store.records():
            count += 1
            if count == _BATCH:  # the last record of the first batch
                took_one.set()
                assert closed.wait(WAIT)
        return count

    thread, outcome = _in_thread(read_all)
    assert took_one.wait(WAIT)
    store.close()
    closed.set()
    thread.join(WAIT)
    error = outcome.get("error")
    assert isinstance(error, StoreClosed) and isinstance(error, StoreError), outcome
    assert "closed" in str(error)


def test_close_waits_for_an_append_under_way_which_stays_whole(tmp_path: Path) -> None:
    inside, go = threading.Event(), threading.Event()

    def slow_clock() -> str:  # called by append under the store's lock
        if threading.current_thread().name == "writer":
            inside.set()
            assert go.wait(WAIT)
        return _utc_now()

    store = EventStore.open(tmp_path / "t.db", clock=slow_clock)
    _fill(store, 3)
    writer = threading.Thread(target=lambda: store.append(TransferChips("seat-1", "house", 1, "last")),
                              name="writer")
    writer.start()
    assert inside.wait(WAIT)
    closer, closing = _in_thread(store.close)
    go.set()
    writer.join(WAIT)
    closer.join(WAIT)
    assert closing == {"result": None}
    with pytest.raises(StoreClosed):
        store.append(TransferChips("seat-1", "house", 1, "after close"))
    with pytest.raises(StoreClosed):
        store.tail(1)
    with EventStore.open(tmp_path / "t.db") as again:
        assert again.verify_or_raise() == 4  # the append that had started is in, whole and chained
        assert again.tail(1)[0].data["reason"] == "last"


def test_close_twice_and_from_two_threads_is_harmless(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "t.db")
    threads = [threading.Thread(target=store.close) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    store.close()
    with pytest.raises(StoreClosed):
        list(store.records())


def test_token_lookup_racing_the_close_gets_a_store_error(tmp_path: Path) -> None:
    tokens = TokenStore(tmp_path / "t.db")
    token, _ = tokens.create(Role.DEALER, "pit")
    inside, go = threading.Event(), threading.Event()
    real_query = tokens._query

    def held_query(sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        inside.set()
        assert go.wait(WAIT)
        return real_query(sql, args)

    tokens._query = held_query  # type: ignore[method-assign]  # park the request thread at the door
    thread, outcome = _in_thread(lambda: tokens.lookup(token))
    assert inside.wait(WAIT)
    tokens.close()
    go.set()
    thread.join(WAIT)
    assert isinstance(outcome.get("error"), StoreClosed), outcome
