"""Baccarat / punto banco (RULES A3) on stacked shoes, roads, the exact analyzer, invariants."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shoe_games_helpers import Recorder, replay_through_store, run_simulated

from dealer.core.analysis.baccarat_analysis import baccarat_counts
from dealer.core.cards import Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.games.baccarat import (
    STAKES,
    BaccaratBet,
    BaccaratGame,
    LeaveTable,
    NewBaccaratGame,
    Side,
    StartCoup,
    banker_draws,
    total,
)
from dealer.core.games.base import Game, Step
from dealer.core.games.roads import derived_marks, roads
from dealer.core.ledger import HOUSE
from dealer.core.operations import operation_from_payload
from dealer.core.rng import Rng
from dealer.core.shoe import ShoeMode
from dealer.core.table_state import TransferChips


def live(rules: str = "noburn", bets: tuple[tuple[int, Side, int], ...] = ((1, Side.BANKER, 100),)
         ) -> tuple[Recorder, BaccaratGame]:
    rec = Recorder()
    rec.apply(NewBaccaratGame(rules=rules, mode=ShoeMode.OBSERVED))
    rec.shuffle()
    rec.buy_in(range(1, 13))
    game = rec.table.games["baccarat"]
    for seat, side, amount in bets:
        rec.apply(BaccaratBet(seat, side, amount))
    rec.apply(StartCoup())
    return rec, game


def coup(codes: str, rules: str = "noburn", bets: tuple[tuple[int, Side, int], ...] = ((1, Side.BANKER, 100),)
         ) -> tuple[Recorder, BaccaratGame]:
    rec, game = live(rules, bets)
    rec.feed(game, codes)
    assert game.phase.value == "betting", "the coup should be complete"
    return rec, game


def test_game_protocol() -> None:
    assert isinstance(live()[1], Game)


def test_values_units_digit_and_baccarat() -> None:
    # RULES A3: tens and faces 0, ace 1; only the units digit counts; 3 + 7 = 0 ("baccarat").
    assert total(parse_cards("5S 6H")) == 1
    assert total(parse_cards("9S 4H 8C")) == 1
    assert total(parse_cards("3S 7H")) == 0
    assert total(parse_cards("KS QH")) == 0 and total(parse_cards("AS JD")) == 1


def test_deal_alternates_player_first() -> None:
    # RULES A3: two cards each, alternately (Player hand, then Bank hand).
    rec, game = live()
    assert game.prompt().who == "player"
    rec.feed(game, "2S")
    assert game.prompt().who == "banker"


def test_natural_ends_coup_without_draws() -> None:
    # RULES A3: a natural (8 or 9) on either side: no draws; 9 beats 8.
    _, game = coup("2S 4H 6D 4C")  # Player 8, Banker 8: equal naturals
    assert game.last is not None and game.last.winner == "T" and game.last.natural
    _, game = coup("4S 5H 5D 4C")  # Player 9 natural v Banker 9 natural
    assert game.last is not None and game.last.winner == "T"
    _, game = coup("4S 2H 5D 6C")  # Player 9 natural v Banker 8 natural
    assert game.last is not None and game.last.winner == "P"
    _, game = coup("2S 4H 3D 4C")  # Banker 8 natural; Player 5 does not draw
    assert game.last is not None and game.last.winner == "B" and len(game.player) == 2


def test_player_draws_on_0_to_5_stands_on_6_7() -> None:
    # RULES A3 (seed, Korean section): 0-5 draw, 6-7 stand.
    rec, game = live()
    rec.feed(game, "3S KH 2D 2C")  # Player 5, Banker 2
    assert game.prompt().who == "player"
    rec2, game2 = live()
    rec2.feed(game2, "3S KH 3D 2C")  # Player 6 stands; Banker 2 draws
    assert game2.prompt().who == "banker"


@pytest.mark.parametrize(("banker", "draws_on"), [
    (0, set(range(10))), (1, set(range(10))), (2, set(range(10))), (3, set(range(10)) - {8}),
    (4, {2, 3, 4, 5, 6, 7}), (5, {4, 5, 6, 7}), (6, {6, 7}), (7, set()),
])
def test_banker_tableau_std(banker: int, draws_on: set[int]) -> None:
    # RULES A3 [STD]: the standard Punto Banco banker tableau (the seed lost the chart).
    assert {t for t in range(10) if banker_draws(banker, t)} == draws_on


def test_banker_tableau_on_a_stacked_shoe() -> None:
    # RULES A3 [STD]: Banker 3 does not draw against a Player third card of 8; 6 draws against 7.
    rec, game = live()
    rec.feed(game, "AS 3H 2D KC 8D")  # Player 3 draws 8 -> 1; Banker 3 stands
    assert game.phase.value == "betting" and game.last is not None and game.last.banker == 3
    rec2, game2 = live()
    rec2.feed(game2, "AS 6H 2D KC 7D")  # Player 3 draws 7 -> 0; Banker 6 draws
    assert game2.prompt().who == "banker"
    rec2.feed(game2, "3S")
    assert game2.last is not None and game2.last.banker == 9


def test_banker_draws_0_5_when_player_stood() -> None:
    # RULES A3 [STD]: if the Player stood on 6-7, the Banker draws on 0-5 and stands on 6-7.
    rec, game = live()
    rec.feed(game, "3S 5H 4D KC")  # Player 7 stands, Banker 5 draws
    assert game.prompt().who == "banker"
    _, game2 = coup("3S 6H 4D KC")  # Banker 6 stands
    assert game2.last is not None and game2.last.winner == "P"


def test_more_cards_than_the_tableau_allows_are_refused() -> None:
    rec, game = coup("3S 6H 4D KC")
    with pytest.raises(IllegalOperation):
        rec.apply(game.card_operation(Card.parse("2C")))


def test_banker_win_pays_even_money_commission_goes_to_box() -> None:
    # RULES A3: Bank bets paid 1:1 less 5 %, the commission kept in boxes until the end of the shoe.
    rec, game = coup("2S 4H 3D 4C")  # Banker natural 8
    assert rec.balance("seat-1") == 1100
    assert game.to_json()["commission_boxes"] == {"1": {"banker_wins": 100, "owed": 5}}


def test_commission_collected_at_end_of_shoe() -> None:
    # RULES A3: the commission is collected at the end of the shoe.
    rec = Recorder()
    rec.apply(NewBaccaratGame(rules="noburn,decks=1,cutmin=50,cutmax=50"))
    rec.shuffle(seed=3, cut_behind=50)
    rec.buy_in([1])
    game = rec.table.games["baccarat"]
    wins = 0
    while game.prompt().step is not Step.SHUFFLE:
        rec.apply(BaccaratBet(1, Side.BANKER, 20))
        rec.apply(StartCoup())
        while game.phase.value == "dealing":
            rec.apply(game.card_operation(rec.table.require_shoe().next_card()))
        wins += game.last is not None and game.last.winner == "B"
    assert game.boxes == {}
    collected = sum(c["commission"] for c in game.collected)
    assert collected == math.ceil(wins * 20 * 5 / 100)


def test_commission_collected_when_player_leaves_and_bets_cannot_use_owed_chips() -> None:
    # RULES A3: ... or when a player leaves the game.
    rec, game = coup("2S 4H 3D 4C", bets=((1, Side.BANKER, 1000),))
    assert rec.balance("seat-1") == 2000
    rec.apply(TransferChips("seat-1", "cage", 1000, "colour up"))
    with pytest.raises(IllegalOperation, match="owes 50"):
        rec.apply(BaccaratBet(1, Side.PLAYER, 1000))
    rec.apply(LeaveTable(1))
    assert rec.balance("seat-1") == 950 and game.boxes == {}


def test_immediate_commission_option() -> None:
    _, game = coup("2S 4H 3D 4C", rules="noburn,immediate")
    assert game.table.ledger.balance("seat-1") == 1095 and game.boxes == {}


def test_player_pays_even_tie_pays_eight_and_bets_stand_off_on_tie() -> None:
    # RULES A3: Player bets 1:1; equal totals are a stand-off; tie 8:1 [issue].
    bets = ((1, Side.PLAYER, 10), (2, Side.BANKER, 10), (3, Side.TIE, 10))
    rec, _ = coup("4S 2H 5D 6C", bets=bets)  # Player 9 v 8
    assert (rec.balance("seat-1"), rec.balance("seat-2"), rec.balance("seat-3")) == (1010, 990, 990)
    rec, _ = coup("2S 4H 6D 4C", bets=bets)  # 8 v 8 tie
    assert (rec.balance("seat-1"), rec.balance("seat-2"), rec.balance("seat-3")) == (1000, 1000, 1080)
    assert rec.balance(STAKES) == 0


def test_burn_shows_first_card_and_burns_its_value() -> None:
    # RULES A3 / H2: the first card is shown, and that many cards are burned (tens count 10).
    rec = Recorder()
    rec.apply(NewBaccaratGame(rules="", mode=ShoeMode.OBSERVED))
    rec.shuffle()
    game = rec.table.games["baccarat"]
    with pytest.raises(IllegalOperation, match="shown face up"):
        rec.apply(game.card_operation(Card.parse("BK")))
    rec.apply(game.card_operation(Card.parse("4H")))
    assert game.prompt().text == "burn face down (4H shown)"
    for _ in range(4):
        rec.apply(game.card_operation(Card.parse("BK")))
    assert game.prompt().step is Step.BET and game.to_json()["shoe"]["burn_shown"] == "4H"


def test_shoe_passes_when_bank_loses() -> None:
    # RULES A3 [STD]: a player holds the shoe as Bank, starting with seat 1; it moves on a Bank loss.
    _, game = coup("4S 2H 5D 6C")
    assert game.shoe_holder == 2
    _, game = coup("2S 4H 3D 4C")
    assert game.shoe_holder == 1


def test_table_limits_and_seats() -> None:
    rec, game = live()
    rec.feed(game, "2S 4H 3D 4C")
    with pytest.raises(IllegalOperation, match="seats are 1..12"):
        rec.apply(BaccaratBet(13, Side.PLAYER, 10))
    with pytest.raises(IllegalOperation, match="limits"):
        rec.apply(BaccaratBet(2, Side.PLAYER, 1001))


# ---- roads -------------------------------------------------------------------------------------------
def test_bead_plate_fills_columns_of_six_with_ties() -> None:
    r = roads("BPTBBBPP")
    cells = [(c["col"], c["row"], c["winner"]) for c in r["bead_plate"]]
    assert cells[:2] == [(0, 0, "B"), (0, 1, "P")] and cells[6] == (1, 0, "P") and cells[2][2] == "T"


def test_big_road_ties_and_new_columns() -> None:
    r = roads("TBBTPB")
    big = r["big_road"]
    assert big["leading_ties"] == 1
    assert [[(e["winner"], e["ties"]) for e in col] for col in big["columns"]] == \
        [[("B", 0), ("B", 1)], [("P", 0)], [("B", 0)]]


def test_big_road_dragon_tail_turns_right() -> None:
    r = roads("B" * 8 + "P")
    cells = [(c["col"], c["row"]) for c in r["big_road"]["cells"]]
    assert cells[:8] == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5)]
    assert cells[8] == (1, 0)  # the next column starts beside the first


def test_derived_roads_hand_worked_example() -> None:
    # Big road columns of lengths 2, 3, 1, 1, 2 (B B | P P P | B | P | B B).
    columns = [[0] * 2, [0] * 3, [0], [0], [0] * 2]
    # big eye boy: (1,1) red, (1,2) blue, (2,0) 3 v 2 blue, (3,0) 1 v 3 blue, (4,0) 1 v 1 red,
    # (4,1) column 3 ends just above: blue
    assert derived_marks(columns, 1) == ["red", "blue", "blue", "blue", "red", "blue"]
    # small road: (2,1)... col 2 has one entry; (3,0) cols 2 v 0: 1 v 2 blue; (4,0) cols 3 v 1: blue;
    # (4,1) col 2 has length 1 == row 1: blue
    assert derived_marks(columns, 2) == ["blue", "blue", "blue"]
    # cockroach pig: (4,0) cols 3 v 0: 1 v 2 blue; (4,1) col 1 length 3 > 1: red
    assert derived_marks(columns, 3) == ["blue", "red"]


def test_roads_in_game_state_follow_the_shoe() -> None:
    rec, game = coup("2S 4H 3D 4C")
    assert game.to_json()["roads"]["counts"] == {"B": 1, "P": 0, "T": 0}


# ---- analyzer ----------------------------------------------------------------------------------------
def test_exact_counts_match_published_eight_deck_figures() -> None:
    # RULES A3 / issue: published 8-deck counts.
    c = baccarat_counts(8)
    assert (c.banker, c.player, c.tie) == (2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216)
    assert c.total == 4_998_398_275_503_360 == math.perm(416, 6)


def test_edges_and_other_shoe_sizes() -> None:
    # RULES A3: Bank edge about 1.06 % (the seed's "above five per cent" is wrong).
    c = baccarat_counts(8)
    assert round(float(c.edge_banker()) * 100, 2) == 1.06
    assert round(float(c.edge_player()) * 100, 2) == 1.24
    assert round(float(c.edge_tie()) * 100, 2) == 14.36
    assert baccarat_counts(6).total == math.perm(312, 6)
    assert baccarat_counts(1).total == math.perm(52, 6)


# ---- operations, invariants, replay ----------------------------------------------------------------
def test_operations_round_trip() -> None:
    for op in (NewBaccaratGame(rules="decks=6"), BaccaratBet(3, Side.TIE, 5), StartCoup(), LeaveTable(2)):
        assert operation_from_payload(op.kind, op.to_payload()) == op


def _bets(game: BaccaratGame) -> list[object]:
    return [BaccaratBet(1, Side.BANKER, 25), BaccaratBet(2, Side.PLAYER, 10), BaccaratBet(3, Side.TIE, 5),
            StartCoup()]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), spec=st.sampled_from(["decks=1,cutmin=6,cutmax=10", "", "immediate"]))
def test_invariants_chips_conserved_no_card_twice(seed: int, spec: str) -> None:
    rec = Recorder()
    rec.apply(NewBaccaratGame(rules=spec))
    rec.buy_in([1, 2, 3], 100_000)
    game = rec.table.games["baccarat"]
    run_simulated(rec, game, _bets, 40, Rng.from_seed(seed))
    assert rec.table.ledger.total() == 0 and rec.balance(STAKES) == 0
    assert sum(rec.balance(f"seat-{s}") for s in (1, 2, 3)) + rec.balance(HOUSE) == 300_000
    assert not rec.table.faults


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_live_coup_replayed_from_event_log(seed: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    rec = Recorder()
    rec.apply(NewBaccaratGame(rules="noburn", mode=ShoeMode.OBSERVED))
    rec.shuffle()
    rec.buy_in([1, 2, 3])
    game = rec.table.games["baccarat"]
    pack = Rng.from_seed(seed).shuffled(list(rec.table.require_shoe().pack.cards))
    for _ in range(3):
        for op in _bets(game):
            rec.apply(op)  # type: ignore[arg-type]
        while game.phase.value == "dealing":
            rec.apply(game.card_operation(pack.pop()))
    rebuilt = replay_through_store(rec.log, Path(tmp_path_factory.mktemp("bac")) / "t.db")
    assert rebuilt.games["baccarat"].to_json() == game.to_json()
    assert rebuilt.ledger.balances() == rec.table.ledger.balances()
