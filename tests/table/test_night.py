"""A casino night in one process: tables, players, the cage, moves, game changes, recovery.

Real SQLite logs in a temporary directory, no devices (the engine deals); play is stepped by hand.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer.config import ConfigError, NightSettings, load_night
from dealer.core.errors import IllegalOperation
from dealer.table.autoplay import next_operation
from dealer.table.cage import Sit, UnknownName
from dealer.table.host import chips_in_play
from dealer.table.night import Night
from dealer.table.report import night_report


def night_settings(tmp: Path, *tables: dict[str, Any], guests: tuple[str, ...] = ()) -> NightSettings:
    specs = tables or ({"id": "bj", "game": "blackjack"}, {"id": "bac", "game": "baccarat"})
    return NightSettings(night={"dir": tmp, "guests": guests},
                         tables=[{"pace_ms": 0, "devices": "none", **t} for t in specs])


@pytest.fixture
def night(tmp_path: Path) -> Iterator[Night]:
    opened = Night.open(night_settings(tmp_path, guests=("Ann", "Bob", "Cy")))
    try:
        yield opened
    finally:
        opened.stop()


def play(night: Night, table: str, steps: int) -> None:
    host = night.host(table)
    for _ in range(steps):
        if not host.step():
            break


def play_to_round_end(night: Night, table: str, limit: int = 400) -> None:
    host = night.host(table)
    for _ in range(limit):
        if not chips_in_play(host.table.state) and host.table.prompt() is not None:
            return
        host.step()
    raise AssertionError(f"{table}: no round ended in {limit} steps")


def table_transfers(db: Path) -> list[tuple[str, str, int, str]]:
    """Every chips.transfer of a table's log, read straight from the SQLite file."""
    import json

    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT payload FROM events WHERE kind = 'chips.transfer' ORDER BY seq")
        rows = rows.fetchall()
    return [(d["source"], d["target"], d["amount"], d["reason"]) for d in (json.loads(r[0]) for r in rows)]


def test_guests_buy_in_sit_play_move_and_cash_out(night: Night, tmp_path: Path) -> None:
    ann = night.cage.state.by_name("ann")
    assert ann is not None and [p["name"] for p in night.players()] == ["Ann", "Bob", "Cy"]
    night.buy_in(ann.id, 1000)
    night.sit("bj", ann.id, 3, 600)
    state = night.host("bj").table.public_state()
    seated = {"seat": 3, "player_id": ann.id, "name": "Ann", "chips": 600, "leaving": False}
    assert state["players"] == [seated]
    play(night, "bj", 60)
    play_to_round_end(night, "bj")
    assert night.stand("bj", 3)["status"] == "stood"
    after_bj = night.player_json(ann.id)
    assert after_bj["at_table"] is None and after_bj["cage_chips"] == after_bj["chips"]
    night.sit("bac", ann.id, 1, after_bj["cage_chips"])  # chips follow the player to the next table
    assert night.player_json(ann.id)["cage_chips"] == 0
    play(night, "bac", 40)
    play_to_round_end(night, "bac")
    night.stand("bac", 1)
    paid = night.cash_out(ann.id)["paid"]
    assert night.player_json(ann.id)["cage_chips"] == 0
    # what Ann took home is what the two tables' own logs say her seats ended with
    bj, bac = table_transfers(tmp_path / "bj.db"), table_transfers(tmp_path / "bac.db")
    out_of_bj = [a for s, t, a, r in bj if s == "seat-3" and t == "cage" and "Ann stands" in r]
    into_bac = [a for s, t, a, r in bac if t == "seat-1" and s == "cage" and "Ann sits" in r]
    out_of_bac = [a for s, t, a, r in bac if s == "seat-1" and t == "cage" and "Ann stands" in r]
    assert into_bac == [400 + out_of_bj[0]] and paid == out_of_bac[0]
    report = night.player_json(ann.id)
    assert report["tables"] == ["bj", "bac"] and report["cashed_out"] == paid


def test_a_player_standing_mid_round_leaves_when_the_round_is_over(night: Night) -> None:
    bob = night.cage.state.by_name("Bob")
    assert bob is not None
    night.buy_in(bob.id, 500)
    night.sit("bj", bob.id, 1, 500)
    host = night.host("bj")
    for _ in range(50):  # until Bob's bet is on the layout
        host.step()
        if chips_in_play(host.table.state):
            break
    answer = night.stand("bj", 1)
    assert answer["status"] == "leaving" and answer["in_play"] > 0
    assert host.table.public_state()["players"][0]["leaving"] is True
    bets_before = sum(1 for r in host.table.store.records() if r.kind == "blackjack.bet")
    play(night, "bj", 80)
    assert night.player_json(bob.id)["at_table"] is None  # stood once the round settled
    assert sum(1 for r in host.table.store.records() if r.kind == "blackjack.bet") == bets_before
    assert host.table.state.ledger.balance("seat-1") == 0


def test_a_player_leaving_mid_round_still_leaves_after_a_restart(tmp_path: Path) -> None:
    settings = night_settings(tmp_path, guests=("Ann", "Bob"))
    night = Night.open(settings)
    try:
        bob = night.cage.state.by_name("Bob")
        assert bob is not None
        night.buy_in(bob.id, 500)
        night.sit("bj", bob.id, 2, 500)
        host = night.host("bj")
        for _ in range(50):
            host.step()
            if chips_in_play(host.table.state):
                break
        assert night.stand("bj", 2)["status"] == "leaving"
    finally:
        night.stop()  # the server dies with Bob's round in play
    night = Night.open(settings)
    try:
        host = night.host("bj")
        assert host.table.public_state()["players"][0]["leaving"] is True  # the request was logged
        assert chips_in_play(host.table.state) > 0
        play(night, "bj", 80)
        assert night.player_json(bob.id)["at_table"] is None  # he stood once the round settled
        assert host.table.state.ledger.balance("seat-2") == 0
        assert night.cage.state.player(bob.id).stack > 0
    finally:
        night.stop()


def test_a_table_with_nobody_seated_waits_for_its_players(night: Night) -> None:
    host = night.host("bac")
    before = host.table.store.last_seq
    assert not any(host.step() for _ in range(10)) and host.table.store.last_seq == before
    night.buy_in("p2", 100)
    night.sit("bac", "p2", 1, 100)
    assert host.step()


def test_refusals_name_what_is_wrong(night: Night) -> None:
    cy = night.cage.state.by_name("Cy")
    assert cy is not None
    with pytest.raises(IllegalOperation, match="has 0 chips"):
        night.sit("bj", cy.id, 1, 100)
    with pytest.raises(IllegalOperation, match="not bought in yet"):
        night.buy_in(cy.id, 100, rebuy=True)
    night.buy_in(cy.id, 300)
    with pytest.raises(IllegalOperation, match="seats 1 to 7"):
        night.sit("bj", cy.id, 9, 100)
    with pytest.raises(UnknownName, match="no table 'roulette'"):
        night.sit("roulette", cy.id, 1, 100)
    with pytest.raises(UnknownName, match="no player 'p99'"):
        night.buy_in("p99", 100)
    with pytest.raises(IllegalOperation, match="already on the guest list"):
        night.add_player(" ann ")
    night.sit("bj", cy.id, 2, 100)
    with pytest.raises(IllegalOperation, match="already sits at bj seat 2"):
        night.sit("bac", cy.id, 1, 100)
    with pytest.raises(IllegalOperation, match="stand up first"):
        night.cash_out(cy.id)
    with pytest.raises(IllegalOperation, match="nobody sits at seat 5"):
        night.stand("bj", 5)


def test_the_game_changes_between_shoes_only_and_stays_changed_after_a_restart(tmp_path: Path) -> None:
    settings = night_settings(tmp_path, {"id": "one", "game": "blackjack"}, guests=("Ann",))
    night = Night.open(settings)
    try:
        night.buy_in("p1", 500)
        night.sit("one", "p1", 1, 500)
        host = night.host("one")
        for _ in range(50):
            host.step()
            if chips_in_play(host.table.state):
                break
        with pytest.raises(IllegalOperation, match="a round is in play"):
            night.change_game("one", "baccarat")
        play_to_round_end(night, "one")
        with pytest.raises(IllegalOperation, match="the shoe at one is under way"):
            night.change_game("one", "baccarat")
        record = night.change_game("one", "baccarat", end_shoe=True)
        assert record.kind == "table.pause" and host.table.game_name == "baccarat"
        assert not host.table.paused and host.table.state.shoe is not None
        assert host.table.state.shoe.dealt == []  # a fresh shoe for the new game
        play(night, "one", 40)
        assert any(r.kind == "baccarat.bet" for r in host.table.store.records())
        assert host.table.public_state()["players"][0]["name"] == "Ann"
    finally:
        night.stop()
    again = Night.open(settings)
    try:
        assert again.host("one").table.game_name == "baccarat"
        assert again.tables_json()[0]["game"] == "baccarat"
    finally:
        again.stop()


def test_a_game_change_with_bad_house_rules_logs_nothing(night: Night) -> None:
    host = night.host("bac")
    before = host.table.store.last_seq
    with pytest.raises(IllegalOperation, match="minimum bet"):
        night.change_game("bac", "faro", "min_bet=-5")
    assert host.table.store.last_seq == before and host.table.game_name == "baccarat"
    assert not host.table.paused


def test_a_move_interrupted_between_the_two_logs_is_finished_on_restart(tmp_path: Path) -> None:
    settings = night_settings(tmp_path, guests=("Ann",))
    night = Night.open(settings)
    try:
        night.buy_in("p1", 800)
        night.cage.submit(Sit("p1", "bac", 2, 300))  # the cage logged the sit, then the server died
        assert night.host("bac").table.state.ledger.balance("seat-2") == 0
        torn = night_report(night)
        assert not torn["totals"]["balanced"]  # the two logs disagree, and the report says so
        assert [t["agrees"] for t in torn["tables"]] == [True, False]
    finally:
        night.stop()
    again = Night.open(settings)
    try:
        ledger = again.host("bac").table.state.ledger
        assert ledger.balance("seat-2") == 300 and again.player_json("p1")["cage_chips"] == 500
        assert again.cage.state.at_tables() == {"bac": 300}
        assert night_report(again)["totals"]["balanced"]
    finally:
        again.stop()
    third = Night.open(settings)  # finished once, not again
    try:
        assert third.host("bac").table.state.ledger.balance("seat-2") == 300
    finally:
        third.stop()


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "night.toml"
    path.write_text(text)
    return path


def test_night_file_errors_name_the_file_the_key_and_what_was_expected(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_night(write(tmp_path, '[[tables]]\nid = "bj"\ngame = "blackjack"\ndecks = 6\n'))
    assert "night.toml" in str(info.value) and "tables.0.decks" in str(info.value)
    with pytest.raises(ConfigError, match="'a' is used twice"):
        load_night(write(tmp_path, '[[tables]]\nid = "a"\n[[tables]]\nid = "a"\n'))
    with pytest.raises(ConfigError, match="tables.0.id"):
        load_night(write(tmp_path, '[[tables]]\nid = "Table One!"\n'))
    with pytest.raises(ConfigError, match="at least one"):
        load_night(write(tmp_path, '[night]\nname = "x"\n'))
    text = f'[night]\ndir = "{tmp_path}"\n[[tables]]\nid = "x"\ngame = "roulette"\n'
    settings = load_night(write(tmp_path, text))
    with pytest.raises(ConfigError, match=r"tables.0 \(id 'x'\).*unknown game 'roulette'"):
        Night.open(settings)


def test_devices_shorthand_in_a_night_file(tmp_path: Path) -> None:
    text = ('[[tables]]\nid = "a"\ndevices = "rfc2217://pi-table2:4000"\ncamera = "rtsp://cam/1"\n'
            '[[tables]]\nid = "b"\ndevices = "sim"\n'
            '[[tables]]\nid = "c"\n[tables.devices]\nshoe = "socket://pi:4001"\nreels = "sim"\n')
    a, b, c = (t.device_settings() for t in load_night(write(tmp_path, text)).tables)
    assert (a.shoe, a.shuffler, a.camera) == ("rfc2217://pi-table2:4000", "none", "rtsp://cam/1")
    assert (b.shoe, b.shuffler, b.reels, b.camera) == ("sim", "sim", "sim", "none")
    assert (c.shoe, c.reels) == ("socket://pi:4001", "sim")


def test_the_example_night_file_loads() -> None:
    night = load_night(Path(__file__).resolve().parents[2] / "config" / "night.example.toml")
    assert len(night.tables) == 3 and len(night.night.guests) >= 6
    assert {t.game for t in night.tables} == {"blackjack", "baccarat", "slots"}


def test_a_faro_player_leaves_between_turns_with_their_bets_taken_back(tmp_path: Path) -> None:
    """RULES A5: bets lie on the layout from turn to turn; a player who leaves takes theirs back."""
    night = Night.open(night_settings(tmp_path, {"id": "faro", "game": "faro"}, guests=("Ann", "Bob")))
    try:
        for pid, seat in (("p1", 1), ("p2", 2)):
            night.buy_in(pid, 300)
            night.sit("faro", pid, seat, 300)
        host = night.host("faro")
        game = None
        for _ in range(300):  # until both have bets down
            host.step()
            game = host.table.game
            if game is not None and {who for who, _, _ in game.bets} == {"seat-1", "seat-2"}:
                break
        assert game is not None and {who for who, _, _ in game.bets} == {"seat-1", "seat-2"}
        night.stand("faro", 1)
        play(night, "faro", 60)
        assert night.player_json("p1")["at_table"] is None
        assert host.table.state.ledger.balance("seat-1") == 0
        assert all(who != "seat-1" for who, _, _ in host.table.game.bets)  # type: ignore[union-attr]
        assert any(r.kind == "faro.withdraw" for r in host.table.store.records())
        assert night.player_json("p2")["at_table"] is not None  # Bob plays on
    finally:
        night.stop()


def test_a_stand_waits_for_the_step_of_play_under_way(night: Night) -> None:
    """Forced interleaving: autoplay has chosen Ann's bet and is logging it when she stands. The
    stand waits for the step, so the bet is placed with chips she still has, and she leaves after
    the round (without the wait the bet would find her seat empty and stop autoplay)."""
    night.buy_in("p1", 500)
    night.sit("bj", "p1", 1, 500)
    host = night.host("bj")
    seating = host.seating
    assert seating is not None
    for _ in range(20):  # up to the step that bets for Ann
        upcoming = next_operation(host.table, host.rng, seating() or 3)
        if upcoming is not None and upcoming.kind == "blackjack.bet":
            break
        host.step()
    logging_bet, release = threading.Event(), threading.Event()
    submit = host.table.submit

    def held_submit(op: Any) -> Any:
        if op.kind == "blackjack.bet":
            logging_bet.set()
            assert release.wait(10)
        return submit(op)

    host.table.submit = held_submit  # type: ignore[method-assign]
    stepper = threading.Thread(target=host.step)
    stepper.start()
    assert logging_bet.wait(10)
    answer: dict[str, Any] = {}
    stander = threading.Thread(target=lambda: answer.update(night.stand("bj", 1)))
    stander.start()
    stander.join(0.3)
    assert stander.is_alive()  # held by the step under way
    release.set()
    stepper.join(10)
    stander.join(10)
    host.table.submit = submit  # type: ignore[method-assign]
    assert answer["status"] == "leaving" and answer["in_play"] > 0
    assert any(r.kind == "blackjack.bet" for r in host.table.store.records())
    play(night, "bj", 60)
    assert night.player_json("p1")["at_table"] is None


def test_leaving_the_slot_machines_cashes_their_credits_out_to_the_seats(tmp_path: Path) -> None:
    night = Night.open(night_settings(tmp_path, {"id": "s", "game": "slots"}, guests=("Ann",)))
    try:
        night.buy_in("p1", 1000)
        night.sit("s", "p1", 2, 1000)
        host = night.host("s")
        game: Any = None
        for _ in range(40):  # until Ann has credits on her machine (the second)
            host.step()
            game = host.table.game
            if game is not None and game.machines["m2"].meters["credits"]:
                break
        credits = game.machines["m2"].meters["credits"] * game.machines["m2"].denomination
        held = host.table.state.ledger.balance("seat-2")
        assert credits > 0 and night.player_json("p1")["at_table"]["chips"] == held + credits
        night.change_game("s", "blackjack", end_shoe=True)
        assert host.table.state.ledger.balance("seat-2") == held + credits
        assert night.player_json("p1")["at_table"]["chips"] == held + credits
    finally:
        night.stop()
