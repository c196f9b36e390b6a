"""Pai gow poker: dice seat rule, deal, setting, settlement, banker (RULES A8, 0.1 item 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.core.cards import Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Game, Step
from dealer.core.games.paigow import (
    BETS,
    NewPaiGowGame,
    NewRound,
    PaiGowCard,
    PaiGowGame,
    PassBank,
    PlaceBet,
    RollDice,
    SetHand,
    Settle,
    first_position,
    pile_positions,
)
from dealer.core.table_state import LoadShoe, ShuffleShoe, TableState, TransferChips

FILLER = "BK BK BK BK BK BK BK"
DICE_FOR_TOTAL = {t: (1, 1, t - 2) if t <= 8 else (6, t - 8, 2) if t <= 14 else (6, 6, t - 12)
                  for t in range(3, 19)}


def deal(table: TableState, total: int, hands: dict[int, str]) -> None:
    """Throw dice for ``total`` and deal so that position p receives ``hands[p]`` (others face down)."""
    table.apply(RollDice(DICE_FOR_TOTAL[total]))
    positions = pile_positions(total)
    piles = [hands.get(positions[k], FILLER).split() for k in range(7)]
    for i in range(49):
        table.apply(PaiGowCard(Card.parse(piles[i % 7][i // 7])))


def new_table(*, bets: dict[str, int], chips: int = 100, **rules: object) -> TableState:
    table = TableState()
    table.apply(NewPaiGowGame(**rules))  # type: ignore[arg-type]
    for seat in ("seat-1", "seat-2", "seat-3", "seat-4", "seat-5", "seat-6"):
        table.apply(TransferChips("cage", seat, chips, "buy-in"))
    for seat, amount in bets.items():
        table.apply(PlaceBet(seat, amount))
    return table


def set_hand(table: TableState, position: int, back: str, front: str) -> None:
    table.apply(SetHand(position, parse_cards(back), parse_cards(front)))


def game_of(table: TableState) -> PaiGowGame:
    game = table.games["pai-gow"]
    assert isinstance(game, PaiGowGame)
    return game


@pytest.mark.parametrize(("total", "position"), [(1, 1), (8, 1), (15, 1), (2, 2), (9, 2), (16, 2), (3, 3),
                                                 (10, 3), (17, 3), (4, 4), (11, 4), (18, 4), (5, 5),
                                                 (12, 5), (6, 6), (13, 6), (7, 7), (14, 7)])
def test_rules_a8_dice_total_picks_first_hand(total: int, position: int) -> None:
    # RULES A8 / 0.1 item 1: dealer is position 1, counting counter-clockwise, ((total - 1) mod 7) + 1
    assert first_position(total) == position
    assert pile_positions(total)[0] == position
    assert sorted(pile_positions(total)) == list(range(1, 8))


def test_rules_a8_hands_follow_counter_clockwise_from_the_first() -> None:
    # RULES A8: the rest follow counter-clockwise: the dealer, then the player to his right, ...
    assert pile_positions(12) == (5, 6, 7, 1, 2, 3, 4)


def test_rules_a8_dice_are_three_standard_dice() -> None:
    # RULES A8: three standard dice; the totals 1 and 2 cannot come up
    table = new_table(bets={"seat-1": 5})
    with pytest.raises(IllegalOperation, match="RULES A8"):
        table.apply(RollDice((0, 3, 4)))
    with pytest.raises(IllegalOperation, match="RULES A8"):
        table.apply(RollDice((3, 4)))
    table.apply(RollDice((6, 6, 6), source="rng"))
    assert game_of(table).to_json()["dice"] == {"dice": [6, 6, 6], "total": 18, "source": "rng",
                                               "first_position": 4}


def test_rules_a8_vacant_seat_hands_are_discarded() -> None:
    # RULES A8: vacant seats still get hands, which are then discarded face down
    table = new_table(bets={"seat-1": 10})
    deal(table, 9, {1: "2C 3D 5H 7S 9C JD KH", 2: "AS AD 4C 6D 8H 10S QC"})
    game = game_of(table)
    assert game.active_positions() == [1, 2]
    assert game.hand_at(2) == ("AS", "AD", "4C", "6D", "8H", "10S", "QC")
    with pytest.raises(IllegalOperation, match="discarded"):
        set_hand(table, 3, "2S 3S 4S 5S 6S", "7S 8S")


def test_rules_a8_seven_hands_of_seven_then_no_more_cards() -> None:
    # RULES A8: seven hands of seven cards (49); the four left over are not dealt
    table = new_table(bets={"seat-1": 10})
    deal(table, 9, {})
    with pytest.raises(IllegalOperation, match="seven hands of seven"):
        table.apply(PaiGowCard(Card.parse("BK")))


def test_rules_a8_win_both_paid_even_less_commission() -> None:
    # RULES A8: player wins both -> 1:1 less commission (5 % [STD], rounded up for the house)
    table = new_table(bets={"seat-1": 20})
    deal(table, 9, {1: "2C 3D 5H 7S 9C JD KH", 2: "AS AD 4C 6D 8H 10S QC"})
    table.apply(game_of(table).auto_operation())  # dealer by house way: K back; J-9 front
    set_hand(table, 2, "AS AD 4C 6D 8H", "10S QC")
    table.apply(Settle())
    assert game_of(table).results[0] | {} == {"seat": "seat-1", "bet": 20, "outcome": "win", "won": 19,
                                              "commission": 1}
    assert table.ledger.balance("seat-1") == 119
    assert table.ledger.balance(BETS) == 0 and table.ledger.total() == 0


def test_rules_a8_copies_go_to_the_dealer() -> None:
    # RULES A8: K-8 against K-8 in front goes to the dealer; so the player wins one, loses one: push
    table = new_table(bets={"seat-1": 20})
    deal(table, 9, {1: "2C 2D 3S 4D 5C KD 8H", 2: "AS AD 4C 6D 3H KS 8C"})
    game = game_of(table)
    set_hand(table, 1, "2C 2D 3S 4D 5C", "KD 8H")
    set_hand(table, 2, "AS AD 4C 6D 3H", "KS 8C")
    table.apply(Settle())
    assert game.results[0]["outcome"] == "push"
    assert table.ledger.balance("seat-1") == 100
    # both hands copies -> the player loses
    table.apply(NewRound())
    table.apply(PlaceBet("seat-1", 20))
    deal(table, 9, {1: "2C 2D 3S 4D 5C KD 8H", 2: "2S 2H 3C 4H 5D KS 8C"})
    set_hand(table, 1, "2C 2D 3S 4D 5C", "KD 8H")
    set_hand(table, 2, "2S 2H 3C 4H 5D", "KS 8C")
    table.apply(Settle())
    assert game.results[0]["outcome"] == "lose" and table.ledger.balance("seat-1") == 80


def test_rules_a8_foul_loses_automatically() -> None:
    # RULES A8: a back hand that does not outrank the front is fouled and the bet is lost
    table = new_table(bets={"seat-1": 20})
    deal(table, 9, {1: "2C 3D 5H 7S 9C JD KH", 2: "AS AD 4C 6D 8H 10S QC"})
    table.apply(game_of(table).auto_operation())
    set_hand(table, 2, "4C 6D 8H 10S QC", "AS AD")
    assert game_of(table).settings[2].foul
    table.apply(Settle())
    assert game_of(table).results[0]["outcome"] == "lose" and table.ledger.balance("seat-1") == 80


def test_rules_a8_dealer_sets_by_the_house_way() -> None:
    # RULES A8: the dealer sets his seven cards by the house way
    table = new_table(bets={"seat-1": 20})
    deal(table, 9, {1: "KS KD JH JC 7S 7D 5C", 2: "AS AD 4C 6D 8H 10S QC"})
    with pytest.raises(IllegalOperation, match="house way"):
        set_hand(table, 1, "KS KD JH JC 5C", "7S 7D")
    set_hand(table, 1, "JH JC 7S 7D 5C", "KS KD")  # RULES A8: three pairs: highest pair in front


def test_setting_must_use_the_dealt_cards() -> None:
    table = new_table(bets={"seat-1": 20})
    deal(table, 9, {2: "AS AD 4C 6D 8H 10S QC"})
    with pytest.raises(IllegalOperation, match="leaves out"):
        set_hand(table, 2, "AS AD 4C 6D 8H", "10S KC")
    # a face-down pile is revealed by its setting (live mode)
    with pytest.raises(IllegalOperation, match="already in another hand"):
        set_hand(table, 1, "AS 3D 5H 7S 9C", "JD KH")
    set_hand(table, 1, "2C 3D 5H 7S KH", "9C JD")
    assert game_of(table).settings[1].front[1].code == "JD"


def test_rules_a8_home_game_no_commission_and_bank_passes_right() -> None:
    # RULES A8: home game: no commission; each player banks for an agreed number of deals, then the
    # bank passes to the player on the dealer's right
    table = new_table(bets={"seat-2": 20}, commission="5:100", home_game=True, deals_per_bank=1,
                      banker="seat-1")
    game = game_of(table)
    assert game.banker_position == 2
    deal(table, 10, {2: "2C 3D 5H 7S 9C JD KH", 3: "AS AD 4C 6D 8H 10S QC"})
    set_hand(table, 2, "2C 3D 5H 7S KH", "9C JD")
    set_hand(table, 3, "AS AD 4C 6D 8H", "10S QC")
    table.apply(Settle())
    assert game.results[0]["won"] == 20 and game.results[0]["commission"] == 0
    assert table.ledger.balance("seat-1") == 80 and table.ledger.balance("seat-2") == 120
    table.apply(NewRound())
    assert game.banker == "seat-2"


def test_rules_a8_player_banker_must_cover_every_wager() -> None:
    # RULES A8: the player-banker must have enough chips to cover every wager
    table = new_table(bets={}, banker="seat-1", chips=50)
    table.apply(PlaceBet("seat-2", 30))
    with pytest.raises(IllegalOperation, match="RULES A8: the banker seat-1 must cover"):
        table.apply(PlaceBet("seat-3", 30))
    table.apply(PlaceBet("seat-3", 20))
    with pytest.raises(IllegalOperation, match="does not bet"):
        table.apply(PlaceBet("seat-1", 5))


def test_pass_bank_between_rounds() -> None:
    table = new_table(bets={}, banker="seat-3", home_game=True)
    table.apply(PassBank())
    assert game_of(table).banker == "seat-4"


def test_game_protocol_and_json_never_show_unset_hands() -> None:
    table = new_table(bets={"seat-1": 10})
    game = game_of(table)
    assert isinstance(game, Game)
    assert game.prompt().step is Step.BET
    deal(table, 9, {1: "2C 3D 5H 7S 9C JD KH", 2: "AS AD 4C 6D 8H 10S QC"})
    shown = game.to_json()
    assert shown["hands"]["2"] == {"cards": 7, "set": False}
    assert "AS" not in str(shown)
    assert game.prompt().step is Step.DECIDE


def run_simulated_round(table: TableState) -> None:
    game = game_of(table)
    for _ in range(200):
        prompt = game.prompt()
        if prompt.step is Step.CARD:
            card = table.require_shoe().next_card()
            table.apply(game.card_operation(card))
            continue
        if prompt.step is Step.BET and game.phase.value == "betting" and game.dice is not None:
            break
        op = game.auto_operation()
        if op is None:
            op = table.next_deal()
            table.apply(game.card_operation(op.card))
            continue
        table.apply(op)
        if isinstance(op, Settle):
            return
    raise AssertionError("round did not finish")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), bets=st.lists(st.integers(1, 40), min_size=1, max_size=6))
def test_simulated_rounds_conserve_chips_and_deal_no_card_twice(seed: int, bets: list[int]) -> None:
    # invariant: chips conserved; no card dealt twice; every hand in play set without a foul by the engine
    table = TableState()
    table.apply(LoadShoe(decks=1, pack="52+1"))
    table.apply(ShuffleShoe(seed=seed))
    table.apply(NewPaiGowGame())
    for i, amount in enumerate(bets, 1):
        table.apply(TransferChips("cage", f"seat-{i}", 100, "buy-in"))
        table.apply(PlaceBet(f"seat-{i}", amount))
    run_simulated_round(table)
    game = game_of(table)
    dealt = [c for p in game.piles for c in p]
    assert len(dealt) == 49 and len(set(dealt)) == 49
    assert table.ledger.total() == 0 and table.ledger.balance(BETS) == 0
    assert not any(s.foul for s in game.settings.values())
    assert len(game.results) == len(bets)


def test_live_round_replays_from_the_event_log(tmp_path: Path) -> None:
    # a live round replayed from its SQLite event log gives the same state
    store_mod = pytest.importorskip("dealer.store")
    ops = [NewPaiGowGame(), TransferChips("cage", "seat-1", 100, "buy-in"), PlaceBet("seat-1", 20),
           RollDice((3, 3, 3))]
    table = TableState()
    for op in ops:
        table.apply(op)
    positions = pile_positions(9)
    hands = {1: "2C 3D 5H 7S 9C JD KH", 2: "AS AD 4C 6D 8H 10S QC"}
    piles = [hands.get(positions[k], FILLER).split() for k in range(7)]
    for i in range(49):
        op = PaiGowCard(Card.parse(piles[i % 7][i // 7]))
        table.apply(op)
        ops.append(op)
    for op in (SetHand(1, parse_cards("2C 3D 5H 7S KH"), parse_cards("9C JD")),
               SetHand(2, parse_cards("AS AD 4C 6D 8H"), parse_cards("10S QC")), Settle()):
        table.apply(op)
        ops.append(op)
    with store_mod.EventStore.open(tmp_path / "paigow.db") as store:
        for op in ops:
            store.append(op)
        rebuilt = store_mod.rebuild_state(store)
    assert rebuilt.to_json() == table.to_json()
