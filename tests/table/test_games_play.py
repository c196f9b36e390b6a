"""Every game at a simulated table: the host opens it from the settings' rules spec and plays it by
itself (engine deals, simulated players bet), chips conserved, rounds recorded, the log replays."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dealer.config import load_settings
from dealer.core.errors import DealerError
from dealer.store import EventStore, TokenStore, replay
from dealer.table.games import GAMES, game_entry, open_game, parse_spec
from dealer.table.host import TableHost
from dealer.table.runtime import Table
from dealer.table.setup import ensure_shoe

NO_DEVICES = {"shoe": "none", "shuffler": "none", "reels": "none", "camera": "none"}


def host_for(tmp_path: Path, game: str, rules: str = "") -> TableHost:
    """A host built like ``TableHost.open``, with every opening operation of the game (buy-ins for
    the pot games, the scorebook and its first game) submitted through :func:`open_game`."""
    table_settings = {"db": tmp_path / "t.db", "pace_ms": 0, "game": game, "rules": rules}
    settings = load_settings(None, table=table_settings, devices=NO_DEVICES)
    table = Table.open(settings.table.name, settings.table.db, game=game)
    open_game(table, game, rules)
    ensure_shoe(table, settings)
    return TableHost(settings, table, TokenStore(Path(settings.table.db)))


def run(host: TableHost, steps: int) -> int:
    done = 0
    for _ in range(steps):
        if not host.step():
            break
        done += 1
    return done


def kinds(host: TableHost) -> Counter[str]:
    return Counter(r.kind for r in host.table.store.records())


def replayed_games(host: TableHost) -> dict[str, Any]:
    with EventStore.open(host.settings.table.db) as store:
        return replay(list(store.records())).to_json()["games"]


def check_table(host: TableHost, steps: int) -> dict[str, Any]:
    """Play ``steps`` steps without the table ever waiting; chips conserved; the log replays."""
    assert run(host, steps) == steps, f"play stopped at {host.table.prompt()}"
    state = host.table.public_state()
    assert sum(state["balances"].values()) == 0  # chips only move between accounts
    assert state["shoe"]["faults"] == [] and state["disputes"] == {}
    assert replayed_games(host) == state["games"]  # the event log rebuilds the same game
    return state


def test_faro_deals_whole_decks_with_a_casekeeper_that_matches_the_shoe(tmp_path: Path) -> None:
    host = host_for(tmp_path, "faro")
    try:
        check_table(host, 259)
        if host.table.store.tail(1)[0].kind == "shoe.deal":  # the card is out; the game takes it next
            run(host, 1)
        state = host.table.public_state()
        game = state["games"]["faro"]
        assert game["deal"] >= 2  # RULES A5: the box emptied, a new deal began
        assert state["shoe"]["total"] == 52  # one pack in the box, not the table's six-deck shoe
        keeper = game["casekeeper"]
        assert "dealt" not in state["shoe"]  # viewers see cards through the game only
        seen = Counter(c.code[:-1] for c in host.table.state.require_shoe().dealt)  # this deal's, by rank
        assert {s["rank"]: s["out"] for s in keeper["spindles"]} == {r: seen.get(r, 0) for r in
                                                                     [s["rank"] for s in keeper["spindles"]]}
        assert keeper["cards_out"] == state["shoe"]["cards_out"]
        log = kinds(host)
        assert log["faro.settle"] >= 25 and log["faro.bet"] > 0 and log["faro.new-deal"] >= 1
        # the simulated players' bets are settled both ways. The history holds only the current deal's
        # turns, which a new deal may have just begun: play on (boundedly) until a win and a loss show
        results: set[str] = set()
        for _ in range(300):
            history = host.table.public_state()["games"]["faro"]["history"]
            results |= {r["result"] for t in history for r in t["results"]}
            if {"won", "lost"} <= results:
                break
            run(host, 1)
        assert {"won", "lost"} <= results
    finally:
        host.stop()


def test_stuss_from_the_rules_spec_has_no_soda(tmp_path: Path) -> None:
    host = host_for(tmp_path, "faro", "stuss,min_bet=2")
    try:
        state = check_table(host, 60)
        game = state["games"]["faro"]
        assert game["game"] == "stuss" and game["soda"] is None  # RULES A6: no soda
        assert game["rules"]["split_take"] == "1:1" and game["rules"]["min_bet"] == 2
        assert all(b["amount"] >= 2 for b in game["bets"])
    finally:
        host.stop()


def test_trente_et_quarante_plays_coups_from_its_own_six_deck_shoe(tmp_path: Path) -> None:
    host = host_for(tmp_path, "trente-et-quarante")
    try:
        state = check_table(host, 200)
        game = state["games"]["trente-et-quarante"]
        coups = [h for h in game["history"] if not h.get("void")]
        assert len(coups) >= 5
        for coup in coups:  # RULES A7: each row is dealt until it passes 30
            assert 31 <= coup["noir"] <= 40 and 31 <= coup["rouge"] <= 40
        # the game's count of the shoe and the table's shoe agree
        assert game["shoe_cards_left"] == state["shoe"]["cards_left"]
    finally:
        host.stop()


def test_red_dog_from_the_spec_deals_from_a_matching_shoe(tmp_path: Path) -> None:
    host = host_for(tmp_path, "red-dog", "decks=2,spread_1=4:1")
    try:
        state = check_table(host, 200)
        game = state["games"]["red-dog"]
        assert state["shoe"]["total"] == 104 and game["rules"]["spread_payouts"]["1"] == "4:1"
        assert len(game["history"]) >= 10
        if game["shoe_left"] == state["shoe"]["cards_left"] + 1:
            # the last step dealt a card from the shoe; the game takes it at the next step
            assert game["prompt"]["step"] == "card" and host.step()
            state = host.table.public_state()
            game = state["games"]["red-dog"]
        assert game["shoe_left"] == state["shoe"]["cards_left"]
        log = kinds(host)
        assert log["reddog.bet"] >= 3 * 10 and log["reddog.settle"] >= 10
    finally:
        host.stop()


@pytest.mark.parametrize("game", ["in-between", "high-card-pool"])
def test_pot_games_ante_bet_and_pass_the_deal(tmp_path: Path, game: str) -> None:
    host = host_for(tmp_path, game, "players=4")
    try:
        state = check_table(host, 220)
        view = state["games"][game]
        assert view["players"] == ["seat-1", "seat-2", "seat-3", "seat-4"]
        assert len(view["history"]) >= 8
        assert view.get("round", view.get("deal")) >= 2  # RULES A12/A13: the deal passed left
        pot = state["balances"].get(f"{game}-pot", 0)
        assert pot >= 1  # never empty between turns: the players ante again
    finally:
        host.stop()


def test_pai_gow_rolls_dice_deals_seven_hands_and_settles(tmp_path: Path) -> None:
    host = host_for(tmp_path, "pai-gow")
    try:
        state = check_table(host, 170)
        game = state["games"]["pai-gow"]
        assert len(game["history"]) >= 2
        for past in game["history"]:
            assert len(past["dice"]) == 3 and all(1 <= d <= 6 for d in past["dice"])
            assert {r["seat"] for r in past["results"]} == {"seat-1", "seat-2", "seat-3"}
        assert state["shoe"]["total"] == 53  # RULES A8: 52 cards and the joker
        assert state["shoe"]["cards_out"] <= 49  # a fresh pack each round: 49 dealt, four unused
    finally:
        host.stop()


def test_slot_floor_spins_with_meters_and_a_progressive(tmp_path: Path) -> None:
    host = host_for(tmp_path, "slots")
    try:
        state = check_table(host, 150)
        floor = state["games"]["slots"]
        assert sorted(floor["machines"]) == ["m1", "m2", "m3"]
        played = sum(m["meters"]["games_played"] for m in floor["machines"].values())
        assert played >= 100
        for name, m in floor["machines"].items():  # the credit meter is the chips in the machine
            cents = m["meters"]["credits"] * m["denomination_cents"]
            assert state["balances"].get(f"slot:{name}", 0) == cents
        pools = {name: p["value_cents"] for name, p in floor["pools"].items()}
        assert pools and all(state["balances"][f"progressive:{name}"] == v for name, v in pools.items())
    finally:
        host.stop()


def test_a_scorebook_keeps_an_evening_of_hearts(tmp_path: Path) -> None:
    host = host_for(tmp_path, "scorebook:friday", "hearts,players=ann;bob;cy;dee,target=50")
    try:
        state = check_table(host, 40)
        book = state["games"]["scorebook:friday"]
        assert book["players"] == ["ann", "bob", "cy", "dee"]
        first = book["games"][0]
        assert first["rules"]["target"] == 50 and first["result"] is not None  # someone reached 50
        # RULES (hearts): 13 hearts and the queen's 13 go to the players every hand
        for game in book["games"]:
            assert sum(game["totals"].values()) == 26 * game["hands"]
    finally:
        host.stop()


def test_the_configured_games_open_through_the_table_host(tmp_path: Path) -> None:
    """``dealer serve`` opens the configured game (one operation) and the host plays it."""
    for game in ("faro", "trente-et-quarante", "red-dog"):
        settings = load_settings(None, table={"db": tmp_path / f"{game}.db", "pace_ms": 0, "game": game},
                                 devices=NO_DEVICES)
        host = TableHost.open(settings)
        try:
            assert run(host, 40) == 40
            assert sum(host.table.public_state()["balances"].values()) == 0
        finally:
            host.stop()


def test_bad_rules_specs_name_what_was_expected() -> None:
    with pytest.raises(DealerError, match="unknown reddog rule 'deck'.*decks"):
        game_entry("red-dog").new_game("deck=2")
    with pytest.raises(DealerError, match="expected a whole number"):
        game_entry("trente-et-quarante").new_game("min_bet=five")
    with pytest.raises(DealerError, match="bare words: faro, stuss"):
        game_entry("faro").new_game("pharaoh")
    with pytest.raises(DealerError, match="unknown game 'poker'"):
        game_entry("poker")
    assert parse_spec("insurance=yes,max_bet=none", type(game_entry("trente-et-quarante").new_game(""))) == {
        "insurance": True, "max_bet": None}


def test_dealer_page_options_map_to_operations(tmp_path: Path) -> None:
    host = host_for(tmp_path, "red-dog")
    try:
        host.set_autoplay(False)
        for _ in range(200):
            step = host.table.prompt().step.value  # type: ignore[union-attr]
            if step == "decide":
                break
            if step == "settle":
                assert host.act("settle").kind == "reddog.settle"  # the dealer page's button
            else:
                assert run(host, 1) == 1
        seat = host.table.prompt().who  # type: ignore[union-attr]
        record = host.act("no-raise")
        assert record.kind == "reddog.raise" and record.data == {"seat": seat, "amount": 0}
        with pytest.raises(DealerError, match="needs an amount"):
            GAMES["red-dog"].action("bet", host.table.prompt())  # type: ignore[arg-type]
    finally:
        host.stop()


def test_pusoy_seats_three_players_against_the_dealer(tmp_path: Path) -> None:
    host = host_for(tmp_path, "pusoy")
    try:
        state = check_table(host, 260)
        game = state["games"]["pusoy"]
        assert len(game["history"]) >= 3
        for past in game["history"]:  # RULES A9: the casino game seats exactly three players
            assert {r["seat"] for r in past["results"]} == {1, 2, 3}
        assert state["shoe"]["total"] == 52
    finally:
        host.stop()


@pytest.mark.parametrize("game", ["caribbean-stud", "let-it-ride"])
def test_stud_games_ante_deal_decide_and_settle(tmp_path: Path, game: str) -> None:
    host = host_for(tmp_path, game)
    try:
        state = check_table(host, 200)
        assert len(state["games"][game]["history"]) >= 3
    finally:
        host.stop()


def test_baccarat_deals_coups_and_keeps_the_roads(tmp_path: Path) -> None:
    host = host_for(tmp_path, "baccarat")
    try:
        state = check_table(host, 300)
        game = state["games"]["baccarat"]
        roads = game["roads"]
        assert roads["coups"] >= 15 and sum(roads["counts"].values()) == roads["coups"]
        # the bead plate ends with the coups the game just recorded, in order (RULES A3 roads)
        recent = [c["winner"] for c in game["last_coups"]]
        assert [c["winner"] for c in roads["bead_plate"]][-len(recent):] == recent
        log = kinds(host)
        assert log["baccarat.bet"] >= 3 * 15 and log["baccarat.deal"] >= 15
    finally:
        host.stop()


def test_pontoon_finds_a_banker_and_plays_rounds(tmp_path: Path) -> None:
    host = host_for(tmp_path, "pontoon")
    try:
        state = check_table(host, 300)
        game = state["games"]["pontoon"]
        assert game["round"] >= 5 and game["banker"] is not None  # RULES A2: a player holds the bank
        assert len(host.table.history) >= 3  # settled rounds reach the table's recall
    finally:
        host.stop()


def test_chemin_de_fer_banks_stakes_and_deals_coups(tmp_path: Path) -> None:
    host = host_for(tmp_path, "chemin-de-fer")
    try:
        state = check_table(host, 250)
        game = state["games"]["chemin-de-fer"]
        assert game["coup"] >= 10 and game["last_coups"]
        for coup in game["last_coups"]:  # RULES A4: the banker plays one opponent for the stakes
            assert coup["winner"] in ("B", "P", "T") and coup["banker"] != coup["opponent"]
        log = kinds(host)
        assert log["chemin.stake"] >= 10 and log["chemin.bank"] >= 1
    finally:
        host.stop()
