"""A table or a night that fails to open closes what it had opened: simulator processes, their
fbsim- folders and the SQLite logs (which reopen intact)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

import firmware_bridge as fb
from dealer.config import NightSettings, load_settings
from dealer.core.errors import DealerError, IllegalOperation
from dealer.store import EventStore
from dealer.table.host import TableHost
from dealer.table.night import Night

SHOE_ONLY = {"shoe": "sim", "shuffler": "none", "reels": "none", "camera": "none"}
TOO_MANY_PACKS = "decks=13"  # blackjack allows 16 packs, the simulated shoe loads 12 at most


@pytest.fixture
def sim_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where this test's simulators keep their fbsim- folders."""
    folder = tmp_path / "sims"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def simulators_in(folder: Path) -> list[str]:
    """The fbsim- folders left in ``folder`` and the simulator processes still serving a port there."""
    left = [p.name for p in folder.glob("fbsim-*")]
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().split(b"\0")
        except OSError:  # the process ended while we looked
            continue
        if b"firmware_bridge.sim" in args and any(str(folder).encode() in a for a in args):
            left.append(f"process {cmdline.parent.name}")
    return left


def closed_log(db: Path) -> int:
    """The records of a log that was closed (SQLite checkpointed and removed its write-ahead log),
    read by opening it again."""
    assert not db.with_name(db.name + "-wal").exists(), f"{db.name} is still open"
    store = EventStore.open(db)
    try:
        return len(list(store.records()))
    finally:
        store.close()


def test_a_table_whose_device_shoe_refuses_its_load_closes_the_shoe_and_its_log(
        tmp_path: Path, sim_dir: Path) -> None:
    settings = load_settings(None, table={"db": tmp_path / "t.db", "game": "blackjack",
                                          "rules": TOO_MANY_PACKS, "pace_ms": 0}, devices=SHOE_ONLY)
    with pytest.raises(fb.BadRequest, match="shoe refused LOAD"):
        TableHost.open(settings)
    assert simulators_in(sim_dir) == []
    assert closed_log(tmp_path / "t.db")


def night_of(folder: Path, *tables: dict[str, Any], guests: tuple[str, ...] = ()) -> NightSettings:
    """Blackjack tables with a simulated shoe each, logs in ``folder``."""
    specs = [{"game": "blackjack", "pace_ms": 0, "devices": SHOE_ONLY, **t} for t in tables]
    return NightSettings.model_validate({"night": {"dir": folder, "guests": guests}, "tables": specs})


def test_a_night_whose_second_table_fails_closes_the_first_and_the_cage(
        tmp_path: Path, sim_dir: Path) -> None:
    settings = night_of(tmp_path, {"id": "one"}, {"id": "two", "rules": TOO_MANY_PACKS})
    with pytest.raises(DealerError, match="table 'two' .*shoe refused LOAD"):
        Night.open(settings)
    assert simulators_in(sim_dir) == []
    assert closed_log(tmp_path / "one.db") and closed_log(tmp_path / "two.db")
    assert closed_log(tmp_path / "cage.db") == 0  # no guests yet


def test_a_night_whose_guest_is_refused_closes_its_tables_and_the_cage(tmp_path: Path, sim_dir: Path) -> None:
    settings = night_of(tmp_path, {"id": "one"}, guests=("Ann", "x" * 41))
    with pytest.raises(IllegalOperation, match="1 to 40 characters"):
        Night.open(settings)
    assert simulators_in(sim_dir) == []
    assert closed_log(tmp_path / "one.db")
    assert closed_log(tmp_path / "cage.db") == 1  # Ann, added before the refused name


def test_a_table_whose_rules_are_refused_closes_its_log(tmp_path: Path) -> None:
    settings = load_settings(None, table={"db": tmp_path / "t.db", "game": "blackjack", "rules": "decks=99"},
                             devices={**SHOE_ONLY, "shoe": "none"})
    with pytest.raises(IllegalOperation, match="1 to 16 decks"):
        TableHost.open(settings)
    closed_log(tmp_path / "t.db")
