from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.table_state import DealCard, LoadShoe, ShuffleShoe, TableState, TransferChips
from dealer.store import ChainBroken, EventStore, StoreError, rebuild_state
from dealer.store.eventlog import GENESIS, chain_hash


@pytest.fixture
def store(tmp_path: Path) -> EventStore:
    with EventStore.open(tmp_path / "table.db") as s:
        yield s


def fill(store: EventStore, n: int = 5) -> None:
    store.append(TransferChips("cage", "seat-1", 100, "buy-in"))
    for i in range(n - 1):
        store.append(TransferChips("seat-1", "house", 1, f"bet {i}"))


def test_records_chain_from_genesis(store: EventStore) -> None:
    fill(store)
    records = list(store.records())
    assert [r.seq for r in records] == [1, 2, 3, 4, 5]
    assert records[0].prev_hash == GENESIS
    for before, after in zip(records, records[1:], strict=False):
        assert after.prev_hash == before.hash
    # the hash is recomputable by anyone from the row alone
    r = records[2]
    assert r.hash == chain_hash(r.prev_hash, r.seq, r.time, r.kind, r.payload)
    assert store.verify().ok and store.verify().records == 5


def test_database_is_wal_with_full_sync(store: EventStore) -> None:
    db = sqlite3.connect(store.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


@pytest.mark.parametrize("column,value", [("payload", json.dumps({"amount": 1000})), ("kind", "chips.other"),
                                           ("time", "2020-01-01T00:00:00+00:00")])
def test_an_edited_row_is_named(tmp_path: Path, column: str, value: str) -> None:
    path = tmp_path / "t.db"
    with EventStore.open(path) as s:
        fill(s)
    db = sqlite3.connect(path)
    db.execute(f"UPDATE events SET {column} = ? WHERE seq = 3", (value,))
    db.commit()
    db.close()
    with EventStore.open(path) as s:
        result = s.verify()
        assert not result.ok and result.first_bad == 3 and result.records == 2
        assert "edited" in result.reason
        with pytest.raises(ChainBroken, match="record 3"):
            s.verify_or_raise()


def test_a_deleted_row_and_a_rehashed_forgery_are_caught(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with EventStore.open(path) as s:
        fill(s)
    db = sqlite3.connect(path)
    db.execute("DELETE FROM events WHERE seq = 2")
    db.commit()
    with EventStore.open(path) as s:
        assert s.verify().first_bad == 3
    # a forger who recomputes the edited row's own hash still breaks the link to the next row
    row = db.execute("SELECT seq, time, kind, payload, prev_hash FROM events WHERE seq = 4").fetchone()
    payload = json.dumps({"amount": 99, "reason": "x", "source": "seat-1", "target": "house"})
    db.execute("UPDATE events SET payload = ?, hash = ? WHERE seq = 4",
               (payload, chain_hash(row[4], row[0], row[1], row[2], payload)))
    db.execute("INSERT INTO events SELECT 2, time, kind, payload, prev_hash, hash FROM events WHERE seq = 3")
    db.commit()
    db.close()
    with EventStore.open(path) as s:
        result = s.verify()
        assert not result.ok and result.first_bad is not None and result.first_bad <= 5


def test_replay_rebuilds_the_same_state(store: EventStore) -> None:
    live = TableState()
    for op in [LoadShoe(decks=2, cut_min=20, cut_max=30), ShuffleShoe(seed=9, cut_behind=25),
               TransferChips("cage", "seat-2", 40, "buy-in")]:
        store.append(op)
        live.apply(op)
    for _ in range(30):
        op = live.next_deal()
        store.append(op)
        live.apply(op)
    assert rebuild_state(store).to_json() == live.to_json()


def test_append_failure_leaves_no_half_written_record(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with EventStore.open(path) as s:
        fill(s, 3)
    db = sqlite3.connect(path)
    db.execute("CREATE TRIGGER refuse BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk says no'); END")
    db.commit()
    db.close()
    with EventStore.open(path) as s:
        with pytest.raises(StoreError, match="disk says no"):
            s.append(TransferChips("seat-1", "house", 1, "bet"))
        assert s.last_seq == 3 and s.verify().ok and s.verify().records == 3


def test_unopenable_path_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "dir.db").mkdir()
    with pytest.raises(StoreError, match="cannot open event log"):
        EventStore.open(tmp_path / "dir.db")


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["seat-1", "seat-2", "house"]), st.integers(0, 30)), max_size=25),
       st.integers(0, 2**31))
def test_replay_equals_live_state_for_any_session(tmp_path_factory: pytest.TempPathFactory,
                                                  moves: list[tuple[str, int]], seed: int) -> None:
    path = tmp_path_factory.mktemp("prop") / "t.db"
    live = TableState()
    with EventStore.open(path) as s:
        ops = [LoadShoe(decks=1), ShuffleShoe(seed=seed, cut_behind=5),
               TransferChips("cage", "seat-1", 200, "buy-in"), TransferChips("cage", "seat-2", 200, "buy-in")]
        for op in ops:
            s.append(op)
            live.apply(op)
        for target, amount in moves:
            op: DealCard | TransferChips
            if amount % 3 == 0 and live.require_shoe().can_draw():
                op = DealCard(live.require_shoe().next_card())
            elif target == "seat-1":
                op = TransferChips("house", "seat-1", amount, "win")
            elif live.ledger.can_transfer("seat-1", target, amount):
                op = TransferChips("seat-1", target, amount, "bet")
            else:
                continue
            s.append(op)
            live.apply(op)
        assert rebuild_state(s).to_json() == live.to_json()
        assert s.verify().ok
