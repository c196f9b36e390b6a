"""Pontoon, blackjack with a changing bank (RULES A2), on stacked packs, plus invariants and replay."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shoe_games_helpers import Recorder, replay_through_store

from dealer.core.cards import Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Game, Step
from dealer.core.games.pontoon import (
    STAKES,
    NewPontoonGame,
    PassBank,
    PontoonAct,
    PontoonBet,
    PontoonDealer,
    PontoonGame,
    PontoonReveal,
    PontoonStart,
    bonus_multiple,
)
from dealer.core.games.pontoon import PontoonRules as Rules
from dealer.core.games.shoe_game import ReshuffleDiscards
from dealer.core.operations import operation_from_payload
from dealer.core.rng import Rng
from dealer.core.shoe import ShoeMode


def table(players: int = 3, banker: int = 1) -> tuple[Recorder, PontoonGame]:
    rec = Recorder()
    rec.apply(NewPontoonGame(players=players, first_banker=banker, mode=ShoeMode.OBSERVED))
    rec.buy_in(range(1, players + 1), 100)
    rec.shuffle()
    game = rec.table.games["pontoon"]
    rec.feed(game, "2C")  # the burn card
    return rec, game


def deal(rec: Recorder, game: PontoonGame, codes: str, bets: dict[int, int] | None = None) -> None:
    for seat, amount in (bets or {2: 5, 3: 5}).items():
        rec.apply(PontoonBet(seat, amount))
    rec.apply(PontoonStart())
    rec.feed(game, codes)


def test_protocol() -> None:
    assert isinstance(table()[1], Game)


def test_first_banker_is_the_first_black_jack() -> None:
    # RULES A2: deal face up in rotation until a black jack (J♠ or J♣) falls.
    rec = Recorder()
    rec.apply(NewPontoonGame(players=4, mode=ShoeMode.OBSERVED))
    rec.shuffle()
    game = rec.table.games["pontoon"]
    rec.feed(game, "JH 5C JD KS 2H JC")  # red jacks do not count; seat 2 gets J♣ (6th card)
    assert game.banker == 2
    assert game.prompt().step is Step.SHUFFLE  # then the pack is shuffled for play


def test_burn_card_shown_and_reshuffle_when_reached() -> None:
    # RULES A2: the top card is burned face up to the bottom; reaching it means reshuffle the discards.
    rec = Recorder()
    rec.apply(NewPontoonGame(players=2, first_banker=1))
    rec.buy_in([1, 2], 1000)
    rec.shuffle(seed=4)
    game = rec.table.games["pontoon"]
    assert game.prompt().who == "burn"
    rec.apply(game.card_operation(rec.table.require_shoe().next_card()))
    assert game.to_json()["burn_card"] is not None
    reshuffles = 0
    for _ in range(30):
        rec.apply(PontoonBet(game.order()[0], 1))
        rec.apply(PontoonStart())
        while game.phase.value != "betting":
            prompt = game.prompt()
            if prompt.step is Step.CARD:
                rec.apply(game.card_operation(rec.table.require_shoe().next_card()))
            else:
                op = game.auto_operation()
                reshuffles += isinstance(op, ReshuffleDiscards)
                assert op is not None
                rec.apply(op)
        while game.prompt().step in (Step.SHUFFLE, Step.CARD):
            if game.prompt().step is Step.SHUFFLE:
                rec.shuffle(seed=reshuffles + 10)
            else:
                rec.apply(game.card_operation(rec.table.require_shoe().next_card()))
    assert reshuffles > 0  # the burned card was reached during a deal
    assert not rec.table.faults


def test_dealer_natural_collects_double_except_from_a_natural() -> None:
    # RULES A2: dealer natural: players pay double; a player with a natural pays only the bet.
    rec, game = table()
    deal(rec, game, "AS 5C AD KH 9D JD")  # seat 2 A+K natural; seat 3 5+9; dealer A+J natural
    assert rec.balance("seat-2") == 95 and rec.balance("seat-3") == 90
    assert rec.balance("seat-1") == 115 and game.phase.value == "betting"


def test_player_natural_paid_double_and_bank_passes() -> None:
    # RULES A2: a player natural (dealer none) is paid double; the bank then passes to that player.
    rec, game = table()
    deal(rec, game, "5C AS 9D 9H KD 8D")  # seat 3 natural
    assert rec.balance("seat-3") == 110
    assert game.banker == 1  # not until the deal is settled
    rec.apply(PontoonAct("stand"))  # seat 2 on 14
    rec.apply(PontoonDealer("stand"))  # dealer 17
    assert game.banker == 3


def test_bank_passes_to_natural_nearest_dealers_left() -> None:
    rec, game = table(players=4)
    deal(rec, game, "AS AD 5C 9D KH QD 9H 8D", bets={2: 1, 3: 1, 4: 1})
    rec.apply(PontoonAct("stand"))
    rec.apply(PontoonDealer("stand"))
    assert game.banker == 2


def test_ties_pay_the_dealer_and_dealer_may_stand_on_any_total() -> None:
    # RULES A2: the dealer may stand on any total; lower or equal totals pay the dealer.
    rec, game = table()
    deal(rec, game, "KS 9C 2D 6H 8C 9H")  # seat 2 16, seat 3 17, dealer 11
    rec.apply(PontoonAct("stand"))
    rec.apply(PontoonAct("stand"))
    rec.apply(PontoonDealer("hit"))
    rec.feed(game, "5D")  # dealer 16, and free to stand
    rec.apply(PontoonDealer("stand"))
    assert rec.balance("seat-2") == 95  # 16 v 16: the dealer wins ties
    assert rec.balance("seat-3") == 105


def test_dealer_bust_pays_players_who_stood_bust_loses_at_once() -> None:
    rec, game = table()
    deal(rec, game, "KS 9C 6D 6H 8C 7H")
    rec.apply(PontoonAct("hit"))
    rec.feed(game, "KD")  # seat 2 busts: collected at once
    assert rec.balance("seat-2") == 95
    rec.apply(PontoonAct("stand"))
    rec.apply(PontoonDealer("hit"))
    rec.feed(game, "KC")  # dealer 23
    assert rec.balance("seat-2") == 95 and rec.balance("seat-3") == 105


def test_five_card_charlie_paid_at_once_and_cannot_lose() -> None:
    # RULES A2: five cards of 21 or less pay 2x at once, and stay paid against a higher dealer hand.
    rec, game = table()
    deal(rec, game, "2S 9C 3D 2H 10C 10H")  # seat 2: 2+2; dealer 13+? (3+10)
    for card in ("AC", "3C", "4C"):  # 2 2 A 3 4 = 12, five cards
        rec.apply(PontoonAct("hit"))
        rec.feed(game, card)
    rec.apply(PontoonAct("stand"))
    assert rec.balance("seat-2") == 110
    rec.apply(PontoonAct("stand"))  # seat 3: 19
    rec.apply(PontoonDealer("hit"))
    rec.feed(game, "8D")  # dealer 21
    assert rec.balance("seat-2") == 110 and rec.balance("seat-3") == 95


def test_bonus_multiples() -> None:
    # RULES A2: six cards 4x, seven 8x; three 7s 3x; 8-7-6 2x.
    rules = Rules()
    assert bonus_multiple(list(parse_cards("AS 2S 3S AH 2H 3H")), rules) == ("6-card charlie", 4)
    assert bonus_multiple(list(parse_cards("AS 2S 3S AH 2H 3H AC")), rules) == ("7-card charlie", 8)
    assert bonus_multiple(list(parse_cards("7S 7H 7D")), rules) == ("three sevens", 3)
    assert bonus_multiple(list(parse_cards("8S 7H 6D")), rules) == ("8-7-6", 2)
    assert bonus_multiple(list(parse_cards("KS 5H 6D")), rules) is None


def test_three_sevens_paid_on_the_spot() -> None:
    rec, game = table()
    deal(rec, game, "7S 9C 2D 7H 8C 9H")
    rec.apply(PontoonAct("hit"))
    rec.feed(game, "7D")  # 21 with three sevens: stands and is paid 3x
    assert rec.balance("seat-2") == 115


def test_split_and_double_as_casino() -> None:
    # RULES A2: splitting and doubling are allowed as in the casino game (double on 9-11).
    rec, game = table()
    deal(rec, game, "8S 9C 2D 8H 8C 9H")
    assert "split" in game.legal()
    rec.apply(PontoonAct("split"))
    rec.feed(game, "3C")  # 11
    assert "double" in game.legal()


def test_bet_limits_and_banker_cannot_bet() -> None:
    # RULES A2: at least 1 chip, at most the agreed limit (5).
    rec, game = table()
    with pytest.raises(IllegalOperation, match="1 to 5"):
        rec.apply(PontoonBet(2, 6))
    with pytest.raises(IllegalOperation, match="banker"):
        rec.apply(PontoonBet(1, 2))


def test_banker_may_give_the_bank() -> None:
    # RULES A2: the new banker may give or sell the right to deal.
    rec, game = table()
    rec.apply(PassBank(3))
    assert game.banker == 3


def test_face_down_first_round_hidden_in_public_state() -> None:
    # RULES A2: the first round is dealt face down to everyone, dealer included.
    rec, game = table()
    deal(rec, game, "KS 9C 2D 6H 8C 9H")
    state = game.to_json()
    assert state["dealer"]["cards"] == ["BK", "9H"] and state["seats"]["2"][0]["cards"] == ["BK", "6H"]


def test_live_face_down_first_cards_turned_up_and_named_in_the_shoe() -> None:
    # RULES A2: the first round is dealt face down (BK in live mode). Naturals settle as soon as the
    # deal is complete, so each face-down card is turned up first; the shoe then counts it.
    rec, game = table()
    shoe = rec.table.require_shoe()
    deal(rec, game, "BK BK BK 6H AD 9H")  # seats 2, 3, the dealer face down; then face up
    assert shoe.unidentified == 3
    assert game.prompt().step is Step.DECIDE and game.prompt().who == "seat-2"
    assert game.prompt().options == ("reveal",)
    rec.apply(PontoonReveal(2, Card.parse("KS")))  # 16
    assert game.prompt().who == "seat-3"
    rec.apply(PontoonReveal(3, Card.parse("KH")))  # K + A: a natural
    assert game.prompt().who == "dealer" and rec.balance("seat-3") == 95  # not settled yet
    rec.apply(PontoonReveal(0, Card.parse("8C")))  # dealer 17, no natural
    assert rec.balance("seat-3") == 110  # RULES A2: a player natural is paid double
    assert shoe.unidentified == 0
    assert all(shoe.remaining_composition()[Card.parse(c)] == 0 for c in ("KS", "KH", "8C"))
    state = game.to_json()
    assert state["seats"]["2"][0]["cards"] == ["BK", "6H"] and state["dealer"]["cards"] == ["BK", "9H"]
    rec.apply(PontoonAct("stand"))
    rec.apply(PontoonDealer("stand"))
    assert rec.balance("seat-2") == 95 and game.banker == 3
    assert game.to_json()["last_rounds"][-1]["seats"]["2"][0]["cards"] == ["KS", "6H"]


def test_live_face_down_card_named_as_a_card_already_seen_is_a_duplicate() -> None:
    # RULES A2 (single pack): the burn card 2C is already out; a face-down card turned up as 2C is a
    # duplicate for the shoe.
    rec, game = table()
    deal(rec, game, "BK 5C 4D 6H 7H 9H")
    rec.apply(PontoonReveal(2, Card.parse("2C")))
    assert [f.kind.value for f in rec.table.faults] == ["duplicate"]


def test_only_the_first_round_may_be_face_down_and_reveals_are_checked() -> None:
    # RULES A2: the second round is dealt face up.
    rec, game = table()
    deal(rec, game, "BK BK BK")
    with pytest.raises(IllegalOperation, match="RULES A2: only the first round"):
        rec.apply(game.card_operation(Card.parse("BK")))
    with pytest.raises(IllegalOperation, match="once the deal is complete"):
        rec.apply(PontoonReveal(2, Card.parse("KS")))
    rec.feed(game, "6H 7H 9H")
    with pytest.raises(IllegalOperation, match="shows its face"):
        rec.apply(PontoonReveal(2, Card.parse("BK")))
    rec.apply(PontoonReveal(2, Card.parse("KS")))
    with pytest.raises(IllegalOperation, match="no face-down card"):
        rec.apply(PontoonReveal(2, Card.parse("QS")))


def test_operations_round_trip() -> None:
    for op in (NewPontoonGame(players=4), PontoonBet(2, 3), PontoonAct("hit"), PontoonDealer("stand"),
               PassBank(2), PontoonStart(), PontoonReveal(0, Card.parse("AS"))):
        assert operation_from_payload(op.kind, op.to_payload()) == op


def _play(rec: Recorder, game: PontoonGame, rounds: int, rng: Rng) -> None:
    for _ in range(rounds):
        while game.prompt().step in (Step.SHUFFLE, Step.CARD):
            if game.prompt().step is Step.SHUFFLE:
                rec.shuffle(seed=rng.randbelow(10**6))
            else:
                rec.apply(game.card_operation(rec.table.require_shoe().next_card()))
        for seat in game.order():
            if game.can_bet(seat, 2):
                rec.apply(PontoonBet(seat, 2))
        if not game.can_start():
            return
        rec.apply(PontoonStart())
        while game.phase.value != "betting":
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
    rec.apply(NewPontoonGame(players=5))
    rec.buy_in(range(1, 6), 200)
    game = rec.table.games["pontoon"]
    _play(rec, game, 30, Rng.from_seed(seed))
    assert rec.table.ledger.total() == 0 and rec.balance(STAKES) == 0
    assert sum(rec.balance(f"seat-{s}") for s in range(1, 6)) == 1000
    assert not rec.table.faults


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_live_round_replays_from_event_log(seed: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    rec = Recorder()
    rec.apply(NewPontoonGame(players=4, mode=ShoeMode.OBSERVED))
    rec.buy_in(range(1, 5), 100)
    rec.shuffle()
    game = rec.table.games["pontoon"]
    pack: list[Card] = Rng.from_seed(seed).shuffled(list(rec.table.require_shoe().pack.cards))
    while game.banker == 0:
        rec.apply(game.card_operation(pack.pop()))
    rec.shuffle()
    pack = Rng.from_seed(seed + 1).shuffled(list(rec.table.require_shoe().pack.cards))
    rec.apply(game.card_operation(pack.pop()))  # burn
    for seat in game.order():
        rec.apply(PontoonBet(seat, 3))
    rec.apply(PontoonStart())
    while game.phase.value != "betting":
        if game.prompt().step is Step.CARD:
            rec.apply(game.card_operation(pack.pop()))
        else:
            op = game.auto_operation()
            assert op is not None
            rec.apply(op)
    rebuilt = replay_through_store(rec.log, Path(tmp_path_factory.mktemp("pontoon")) / "t.db")
    assert rebuilt.games["pontoon"].to_json() == game.to_json()
    assert rebuilt.ledger.balances() == rec.table.ledger.balances()
