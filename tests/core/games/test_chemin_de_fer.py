"""Chemin de fer (RULES A4) on stacked shoes, plus invariants and replay."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shoe_games_helpers import Recorder, replay_through_store

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Game, Step
from dealer.core.games.chemin_de_fer import (
    BANQUE,
    STAKES,
    Banco,
    CheminChoice,
    CheminGame,
    CheminStake,
    CloseBets,
    KeepBank,
    NewCheminDeFer,
    PutUpBank,
    WithdrawBank,
)
from dealer.core.games.roads import roads
from dealer.core.ledger import HOUSE
from dealer.core.operations import operation_from_payload
from dealer.core.rng import Rng
from dealer.core.shoe import ShoeMode


def table(players: int = 5, **kw: object) -> tuple[Recorder, CheminGame]:
    rec = Recorder()
    rec.apply(NewCheminDeFer(players=players, mode=ShoeMode.OBSERVED, **kw))  # type: ignore[arg-type]
    rec.buy_in(range(1, players + 1), 1000)
    rec.shuffle()
    return rec, rec.table.games["chemin-de-fer"]


def banco_coup(rec: Recorder, game: CheminGame, codes: str, bank: int = 100, caller: int = 2) -> None:
    rec.apply(PutUpBank(bank))
    rec.apply(Banco(caller))
    rec.apply(CloseBets())
    rec.feed(game, codes)


def test_protocol() -> None:
    assert isinstance(table()[1], Game)


def test_first_banker_is_seat_one_and_banco_priority_nearest_croupiers_right() -> None:
    # RULES A4: the player to the croupier's right banks first; among banco callers, priority to
    # the one nearer the croupier's right.
    rec, game = table()
    assert game.banker == 1
    rec.apply(PutUpBank(100))
    rec.apply(Banco(4))
    rec.apply(Banco(3))
    rec.apply(CloseBets())
    assert game.opponent == 3 and rec.balance("seat-3") == 900 and rec.balance("seat-4") == 1000


def test_stakes_cover_at_most_the_bank() -> None:
    rec, game = table()
    rec.apply(PutUpBank(1000 - 1))
    rec.apply(CheminStake(2, 500))
    with pytest.raises(IllegalOperation, match="stakes cover at most the bank"):
        rec.apply(CheminStake(3, 500))


def test_banco_overrides_part_stakes() -> None:
    # RULES A4: if a player matches the bank, the others do not bet that coup.
    rec, game = table()
    rec.apply(PutUpBank(100))
    rec.apply(CheminStake(4, 30))
    rec.apply(Banco(5))
    rec.apply(CloseBets())
    assert game.stakes == {5: 100} and rec.balance("seat-4") == 1000


def test_part_stakes_biggest_plays_and_reliquat() -> None:
    # RULES A4: with no banco, the one who puts up the most plays; the uncovered part is the reliquat.
    rec, game = table()
    rec.apply(PutUpBank(100))
    rec.apply(CheminStake(2, 20))
    rec.apply(CheminStake(4, 50))
    rec.apply(CloseBets())
    assert game.opponent == 4 and game.reliquat == 30
    assert game.to_json()["reliquat"] == 30


def test_banker_natural_wins_all_and_five_percent_at_once() -> None:
    # RULES A4: only the banker has a natural: he wins all bets; 5 % of a winning bank hand at once.
    rec, game = table()
    banco_coup(rec, game, "2S 4H 3D 4C")  # Player 5, Banker 8 natural
    assert rec.balance(HOUSE) == 5
    assert game.bank == 195 and rec.balance(BANQUE) == 195
    assert game.banker == 1 and game.prompt().options == ("keep", "add", "withdraw")


def test_player_natural_bank_pays_and_passes_left() -> None:
    # RULES A4: only the opponent has a natural: the banker pays; the bank passes to his left.
    rec, game = table()
    banco_coup(rec, game, "4S 2H 5D 6C")
    assert rec.balance("seat-2") == 1100 and rec.balance("seat-1") == 900
    assert game.banker == 2 and game.bank == 0 and rec.balance(BANQUE) == 0


def test_tie_is_stand_off_banker_keeps_bank() -> None:
    # RULES A4: equal totals: bets withdrawn; the banker keeps the bank on a stand-off.
    rec, game = table()
    banco_coup(rec, game, "2S 4H 6D 4C")  # 8 v 8
    assert rec.balance("seat-2") == 1000 and game.banker == 1 and game.bank == 100
    rec.apply(KeepBank())
    assert game.phase.value == "betting"


def test_player_option_on_five() -> None:
    # RULES A4: a player with 5 may say "Carte" or stand; 0-4 must draw, 6-7 stand.
    rec, game = table()
    banco_coup(rec, game, "2S KH 3D 2C")  # Player 5, Banker 2
    assert game.prompt().options == ("carte", "stand")
    rec.apply(CheminChoice("player", False))
    assert game.prompt().who == "banker"  # Banker 2 draws (player stood)
    rec2, game2 = table()
    banco_coup(rec2, game2, "2S KH 3D 2C")
    rec2.apply(CheminChoice("player", True))
    assert game2.prompt().who == "player"
    rec3, game3 = table()
    banco_coup(rec3, game3, "2S KH 2D 2C")  # Player 4 must draw: no option
    assert game3.prompt().who == "player"


def test_banker_option_cells_std() -> None:
    # RULES A4 [STD]: banker options Banker 3 v a third card 9, Banker 5 v a 4.
    rec, game = table()
    banco_coup(rec, game, "AS 2H AD AC 9D")  # Player 2 draws 9 -> 1; Banker 3 v 9
    assert game.phase.value == "banker-option"
    rec.apply(CheminChoice("banker", False))
    assert game.phase.value == "bank" and game.history[-1]["banker_total"] == 3
    rec2, game2 = table()
    banco_coup(rec2, game2, "AS 2H AD 3C 4D")  # Banker 5 v 4
    assert game2.phase.value == "banker-option"
    rec2.apply(CheminChoice("banker", True))
    rec2.feed(game2, "3S")
    assert game2.history[-1]["banker_total"] == 8


def test_outside_the_option_cells_the_tableau_rules() -> None:
    rec, game = table()
    banco_coup(rec, game, "AS 2H AD AC 8D")  # Banker 3 v 8: stands, no option
    assert game.phase.value == "bank"
    with pytest.raises(IllegalOperation):
        rec.apply(CheminChoice("banker", True))


def test_free_drawing_variation() -> None:
    # RULES A4 variation: banker and banco player draw or stand at their own judgment.
    rec, game = table(free_drawing=True)
    banco_coup(rec, game, "2S KH 4D 7C")  # Player 6: may draw
    assert game.phase.value == "player-option"


def test_withdraw_passes_bank_left() -> None:
    rec, game = table()
    banco_coup(rec, game, "2S 4H 3D 4C")
    rec.apply(WithdrawBank())
    assert game.banker == 2 and rec.balance("seat-1") == 1095


def test_third_cards_face_up_only() -> None:
    rec, game = table()
    banco_coup(rec, game, "2S KH 2D 2C")
    with pytest.raises(IllegalOperation, match="face"):
        rec.apply(game.card_operation(Card.parse("BK")))


def test_roads_are_drawn_from_the_shoes_coups_as_in_baccarat() -> None:
    # RULES A4: values and naturals as in baccarat (A3), so the display draws the same roads from the
    # coups of the current shoe: bead plate, big road (tie on the last entry), the derived roads.
    rec, game = table()
    banco_coup(rec, game, "4S 9H 3D 9C")  # Player 7, Banker 9+9 = 8: a banker natural (and a pair)
    rec.apply(KeepBank())
    rec.apply(Banco(2))
    rec.apply(CloseBets())
    rec.feed(game, "9D 2H KS 5C")  # Player 9 natural against 7: the bank passes to seat 2
    rec.apply(PutUpBank(50))
    rec.apply(Banco(3))
    rec.apply(CloseBets())
    rec.feed(game, "KH QH 7S 7D")  # 7 against 7: a stand-off
    view = game.to_json()["roads"]
    baccarat_view = roads([])
    assert set(view) == set(baccarat_view)
    assert [c["winner"] for c in view["bead_plate"]] == ["B", "P", "T"]
    assert [c["natural"] for c in view["bead_plate"]] == [True, True, False]
    assert [c["banker_pair"] for c in view["bead_plate"]] == [True, False, False]
    assert [(c["player"], c["banker"]) for c in view["bead_plate"]] == [(7, 8), (9, 7), (7, 7)]
    assert [[(e["winner"], e["ties"]) for e in col] for col in view["big_road"]["columns"]] == \
        [[("B", 0)], [("P", 1)]]
    assert view["counts"] == {"B": 1, "P": 1, "T": 1}
    rec.shuffle(seed=3)  # a new shoe: new roads
    assert game.to_json()["roads"]["coups"] == 0


def test_operations_round_trip() -> None:
    for op in (NewCheminDeFer(players=6, options="3v9"), PutUpBank(50), Banco(2), CheminStake(3, 10),
               CloseBets(), CheminChoice("player", True), KeepBank(), WithdrawBank()):
        assert operation_from_payload(op.kind, op.to_payload()) == op


def _play(rec: Recorder, game: CheminGame, coups: int, rng: Rng) -> None:
    for _ in range(coups):
        if game.prompt().step is Step.SHUFFLE:
            rec.shuffle(seed=rng.randbelow(10**6))
        if game.phase.value == "bank":
            if game.bank:
                rec.apply(KeepBank())
            else:
                amount = min(50, rec.balance(f"seat-{game.banker}"))
                if amount == 0:
                    return
                rec.apply(PutUpBank(amount))
        if game.prompt().step is Step.SHUFFLE:
            rec.shuffle(seed=rng.randbelow(10**6))
        others = [s for s in range(1, 6) if s != game.banker and rec.balance(f"seat-{s}") > 0]
        if not others:  # nobody left with chips to play against the bank
            return
        caller = others[rng.randbelow(len(others))]
        if game.bank <= rec.balance(f"seat-{caller}"):
            rec.apply(Banco(caller))
        else:
            rec.apply(CheminStake(caller, min(game.bank, rec.balance(f"seat-{caller}"), 10)))
        rec.apply(CloseBets())
        while game.phase.value not in ("bank", "betting"):
            if game.prompt().step is Step.CARD:
                rec.apply(game.card_operation(rec.table.require_shoe().next_card()))
            else:
                op = game.auto_operation()
                assert op is not None, game.prompt()
                rec.apply(op)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_invariants_chips_conserved_no_card_twice(seed: int) -> None:
    rec = Recorder()
    rec.apply(NewCheminDeFer(players=5))
    rec.buy_in(range(1, 6), 1000)
    game = rec.table.games["chemin-de-fer"]
    rec.shuffle(seed=seed)
    _play(rec, game, 40, Rng.from_seed(seed))
    assert rec.table.ledger.total() == 0 and rec.balance(STAKES) == 0
    seats = sum(rec.balance(f"seat-{s}") for s in range(1, 6))
    assert seats + rec.balance(BANQUE) + rec.balance(HOUSE) == 5000
    assert rec.balance(BANQUE) == game.bank
    assert not rec.table.faults


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_live_coup_replays_from_event_log(seed: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    rec, game = table()
    pack = Rng.from_seed(seed).shuffled(list(rec.table.require_shoe().pack.cards))
    rec.apply(PutUpBank(100))
    rec.apply(CheminStake(3, 40))
    rec.apply(CheminStake(2, 40))
    rec.apply(CloseBets())
    while game.phase.value not in ("bank", "betting"):
        if game.prompt().step is Step.CARD:
            rec.apply(game.card_operation(pack.pop()))
        else:
            op = game.auto_operation()
            assert op is not None
            rec.apply(op)
    rebuilt = replay_through_store(rec.log, Path(tmp_path_factory.mktemp("chemin")) / "t.db")
    assert rebuilt.games["chemin-de-fer"].to_json() == game.to_json()
    assert rebuilt.ledger.balances() == rec.table.ledger.balances()
