"""Blackjack with a permanent bank (RULES A1) on stacked shoes, plus invariants and replay."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shoe_games_helpers import Recorder, replay_through_store, run_simulated

from dealer.core.analysis.blackjack_strategy import seed_hint, strategy_for
from dealer.core.cards import Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Game, Step
from dealer.core.games.blackjack import (
    STAKES,
    Act,
    Action,
    BlackjackGame,
    BlackjackRules,
    Insure,
    NewBlackjackGame,
    PeekClear,
    PlaceBet,
    Reveal,
    StartRound,
    UndoCard,
    hand_value,
)
from dealer.core.games.shoe_game import ReshuffleDiscards
from dealer.core.ledger import HOUSE
from dealer.core.operations import operation_from_payload
from dealer.core.rng import Rng
from dealer.core.shoe import ShoeMode


def live(rules: str = "", seats: tuple[int, ...] = (1,), bet: int = 10) -> tuple[Recorder, BlackjackGame]:
    rec = Recorder()
    rec.apply(NewBlackjackGame(rules=rules, mode=ShoeMode.OBSERVED))
    rec.shuffle()
    rec.buy_in(range(1, 8))
    game = rec.table.games["blackjack"]
    for seat in seats:
        rec.apply(PlaceBet(seat, bet))
    rec.apply(StartRound())
    return rec, game


def net(rec: Recorder, seat: int = 1) -> int:
    return rec.balance(f"seat-{seat}") - 1000


def test_game_protocol() -> None:
    _, game = live()
    assert isinstance(game, Game)


# ---- deal, values ---------------------------------------------------------------------------------
def test_deal_order_and_hole_card_hidden() -> None:
    # RULES A1: first round face up clockwise from the dealer's left, dealer's card up; second round
    # face up to players and face down (hole card) to the dealer.
    rec, game = live(seats=(1, 3))
    assert [game.prompt().who] == ["seat-1"]
    rec.feed(game, "2H 3H 9C 4H")
    assert game.prompt().who == "seat-3"
    rec.feed(game, "5H 7C")
    state = game.to_json()
    assert state["dealer"]["cards"] == ["9C", "BK"]  # the hole card stays hidden
    assert state["seats"]["1"]["hands"][0]["cards"] == ["2H", "4H"]
    assert state["seats"]["3"]["hands"][0]["cards"] == ["3H", "5H"]
    assert game.prompt().who == "seat-1" and game.prompt().step is Step.DECIDE


def test_soft_hand_values() -> None:
    # RULES A1: soft hands — the ace drops to 1 whenever 11 would bust; faces count 10.
    assert hand_value(parse_cards("AS 6H")).total == 17 and hand_value(parse_cards("AS 6H")).soft
    assert hand_value(parse_cards("AS 6H 9C")).total == 16
    assert hand_value(parse_cards("AS AH 9C")).total == 21
    assert hand_value(parse_cards("KS QH")).total == 20


def test_jokers_are_refused_and_only_the_hole_card_may_be_face_down() -> None:
    # RULES A1: standard packs; all player cards face up.
    rec, game = live()
    with pytest.raises(IllegalOperation, match="jokers"):
        rec.apply(game.card_operation(Card.parse("JK")))
    with pytest.raises(IllegalOperation, match="face down"):
        rec.apply(game.card_operation(Card.parse("BK")))


# ---- naturals --------------------------------------------------------------------------------------
def test_player_natural_paid_at_once_three_to_two() -> None:
    # RULES A1: a player natural against a dealer without one is paid at once at 3:2.
    rec, game = live()
    rec.feed(game, "AS 9C KD 7H")
    assert net(rec) == 15
    assert game.seats[1].hands[0].result is not None and game.seats[1].hands[0].result.value == "blackjack"


def test_six_to_five_and_odd_bet_rounding() -> None:
    # RULES A1: 6:5 (house option); a fractional chip is rounded down (money rounding rule).
    rec, _ = live("6:5", bet=10)
    rec.feed(rec.table.games["blackjack"], "AS 9C KD 7H")
    assert net(rec) == 12
    rec2, game2 = live(bet=5)  # 3:2 of 5 = 7.5 chips
    rec2.feed(game2, "AS 9C KD 7H")
    assert net(rec2) == 7


def test_dealer_natural_takes_original_bet_only_and_both_naturals_push() -> None:
    # RULES A1: dealer natural — every player without one loses the original bet; both: stand-off.
    rec, game = live(seats=(1, 2))
    rec.feed(game, "AS 9H KD KC 7D AH")  # dealer K + A (peek under the ten-card)
    assert net(rec, 1) == 0
    assert net(rec, 2) == -10
    assert game.phase.value == "betting"


def test_peek_under_ten_card_ends_round_before_players_act() -> None:
    # RULES A1: the dealer checks the hole card under a ten-card or ace.
    rec, game = live()
    rec.feed(game, "5S KD 6D AH")
    assert game.phase.value == "betting" and net(rec) == -10
    assert game.to_json()["last_rounds"][-1]["dealer"] == ["KD", "AH"]


def test_no_peek_under_low_upcard() -> None:
    rec, game = live()
    rec.feed(game, "5S 9D 6D KH")
    assert game.prompt().step is Step.DECIDE and "double" in game.prompt().options


def test_no_peek_house_rule_dealer_natural_takes_doubles() -> None:
    # RULES A1 notes: without a peek the natural is found at the end; a double is lost too
    # (unless "original bets only").
    rec, game = live("nopeek,da")
    rec.feed(game, "5S KD 6D AH")
    rec.apply(Act(Action.DOUBLE))
    rec.feed(game, "9C")
    assert net(rec) == -20
    rec2, game2 = live("nopeek,da,obo")
    rec2.feed(game2, "5S KD 6D AH")
    rec2.apply(Act(Action.DOUBLE))
    rec2.feed(game2, "9C")
    assert net(rec2) == -10


# ---- insurance -------------------------------------------------------------------------------------
def test_insurance_pays_two_to_one_when_dealer_has_natural() -> None:
    # RULES A1: insurance up to half the bet; pays 2:1 when the hole card is a ten.
    rec, game = live()
    rec.feed(game, "9S AD 8D KH")
    assert game.prompt().step is Step.DECIDE and game.prompt().options == ("insure", "decline")
    with pytest.raises(IllegalOperation, match="half the bet"):
        rec.apply(Insure(1, 6))
    rec.apply(Insure(1, 5))
    assert net(rec) == 0  # -10 bet, +10 insurance
    assert rec.balance(STAKES) == 0


def test_insurance_lost_when_no_natural_then_play_continues() -> None:
    rec, game = live()
    rec.feed(game, "9S AD 8D 7H")
    rec.apply(Insure(1, 5))
    assert rec.balance(HOUSE) == 5
    assert game.prompt().who == "seat-1"
    rec.apply(Act(Action.STAND))  # 17 v dealer soft 18
    assert net(rec) == -15


def test_insurance_only_offered_under_an_ace() -> None:
    # RULES A1: insurance is offered only when the upcard is an ace.
    rec, game = live()
    rec.feed(game, "9S KD 8D 7H")
    with pytest.raises(IllegalOperation, match="only when the upcard is an ace"):
        rec.apply(Insure(1, 5))


# ---- decisions -------------------------------------------------------------------------------------
def test_bust_collected_at_once_even_if_dealer_busts_later() -> None:
    # RULES A1: a busted player has lost, even if the dealer busts.
    rec, game = live(seats=(1, 2))
    rec.feed(game, "KS 9S 6D 6H 4S 7C")  # seat1 16, seat2 13, dealer 6+7
    rec.apply(Act(Action.HIT))
    rec.feed(game, "QC")  # seat 1 busts
    assert net(rec, 1) == -10  # collected before the dealer plays
    rec.apply(Act(Action.STAND))
    rec.feed(game, "KH")  # dealer 23: busts
    assert net(rec, 1) == -10 and net(rec, 2) == 10


def test_dealer_stands_on_soft_17_by_default_and_hits_with_h17() -> None:
    # RULES A1: the dealer stands on soft 17; H17 is a house rule.
    rec, game = live()
    rec.feed(game, "KS 6C 7D AH")
    rec.apply(Act(Action.STAND))
    assert game.phase.value == "betting" and net(rec) == 0  # 17 v 17: stand-off
    rec2, game2 = live("h17")
    rec2.feed(game2, "KS 6C 7D AH")
    rec2.apply(Act(Action.STAND))
    assert game2.prompt().who == "dealer"
    rec2.feed(game2, "2C")  # soft 19
    assert net(rec2) == -10


def test_dealer_draws_to_16_and_may_not_draw_past_17() -> None:
    # RULES A1: the dealer draws on 16 or less and stands on 17 or more.
    rec, game = live()
    rec.feed(game, "KS 10C 8D 6H")
    rec.apply(Act(Action.STAND))
    rec.feed(game, "AC")  # dealer 17: stands
    assert game.phase.value == "betting" and net(rec) == 10
    with pytest.raises(IllegalOperation):
        rec.apply(game.card_operation(Card.parse("2C")))  # no card is due


def test_tie_is_stand_off() -> None:
    # RULES A1: equal totals are a stand-off.
    rec, game = live()
    rec.feed(game, "KS 10C 9D 9H")
    rec.apply(Act(Action.STAND))
    assert net(rec) == 0 and rec.balance(STAKES) == 0


def test_double_only_on_9_10_11_by_seed() -> None:
    # RULES A1: double only when the first two cards total 9, 10 or 11.
    rec, game = live()
    rec.feed(game, "8S 9C 4D 7H")  # 12
    with pytest.raises(IllegalOperation, match="9-11"):
        rec.apply(Act(Action.DOUBLE))
    rec2, game2 = live("da")
    rec2.feed(game2, "8S 9C 4D 7H")
    assert game2.can_act(Action.DOUBLE)


def test_double_gets_one_card_face_down_until_settlement() -> None:
    # RULES A1: exactly one card, face down, not revealed until settlement.
    rec, game = live()
    rec.feed(game, "6S 9C 5D 7H")  # 11
    rec.apply(Act(Action.DOUBLE))
    rec.feed(game, "2C")
    assert game.current_hand() is None  # no further decision: the hand is done after one card
    hand_json = game.to_json()["seats"]["1"]["hands"][0]
    assert game.prompt().who == "dealer"
    assert hand_json["cards"][-1] == "BK" and hand_json["stake"] == 20
    rec.feed(game, "QC")  # dealer 26
    assert net(rec) == 20
    assert game.to_json()["last_rounds"][-1]["seats"]["1"]["hands"][0]["cards"] == ["6S", "5D", "2C"]


def test_live_double_card_dealt_face_down_and_revealed() -> None:
    rec, game = live()
    rec.feed(game, "6S 9C 5D 7H")
    rec.apply(Act(Action.DOUBLE))
    rec.feed(game, "BK")
    rec.feed(game, "QC")  # the dealer plays his hand first
    assert game.prompt().options == ("reveal",)
    rec.apply(Reveal(1, Card.parse("KD")))  # 21
    assert net(rec) == 20


def test_pair_of_fives_may_be_split_doubled_or_played_as_ten() -> None:
    # RULES A1: a pair of 5s may be split, doubled, or played as 10.
    rec, game = live()
    rec.feed(game, "5S 9C 5D 7H")
    assert {Action.SPLIT, Action.DOUBLE, Action.HIT, Action.STAND} <= set(game.legal_actions())


def test_split_equal_bet_left_hand_first_settled_separately() -> None:
    # RULES A1: split same denomination, equal bet, left hand first, each settled on its own.
    rec, game = live()
    rec.feed(game, "8S 9C 8D 7H")
    rec.apply(Act(Action.SPLIT))
    assert rec.balance(STAKES) == 20
    rec.feed(game, "KC")  # first hand 18
    assert game.turn == (1, 0)
    rec.apply(Act(Action.STAND))
    rec.feed(game, "2C")  # second hand 10
    assert game.turn == (1, 1)
    with pytest.raises(IllegalOperation, match="no doubling after a split"):
        rec.apply(Act(Action.DOUBLE))
    rec.apply(Act(Action.HIT))
    rec.feed(game, "3C")  # 13
    rec.apply(Act(Action.STAND))
    # dealer 16 draws
    rec.feed(game, "2D")  # 18
    results = [h["result"] for h in game.to_json()["last_rounds"][-1]["seats"]["1"]["hands"]]
    assert results == ["push", "lose"] and net(rec) == -10


def test_double_after_split_house_rule() -> None:
    rec, game = live("das")
    rec.feed(game, "8S 9C 8D 7H")
    rec.apply(Act(Action.SPLIT))
    rec.feed(game, "3C")  # 11
    assert game.can_act(Action.DOUBLE)


def test_split_aces_one_card_each_and_ten_pays_even_money() -> None:
    # RULES A1: each split ace gets exactly one card; a ten on a split ace pays 1:1.
    rec, game = live()
    rec.feed(game, "AS 9C AD 7H")
    rec.apply(Act(Action.SPLIT))
    rec.feed(game, "KC")  # 21 with a ten: not a natural
    assert game.turn == (1, 1)
    rec.feed(game, "5C")  # 16: no further draw allowed
    assert game.prompt().who == "dealer"
    rec.feed(game, "2D")  # dealer 18
    hands = game.to_json()["last_rounds"][-1]["seats"]["1"]["hands"]
    assert [h["result"] for h in hands] == ["win", "lose"]
    assert hands[0]["net"] == 10  # 1:1, not 3:2
    assert net(rec) == 0


def test_split_identical_rank_only_unless_house_allows_ten_values() -> None:
    # RULES A1 notes: "same denomination" = identical rank by default; ten-value splits optional.
    rec, game = live()
    rec.feed(game, "KS 9C QD 7H")
    assert not game.can_act(Action.SPLIT)
    rec2, game2 = live("split10")
    rec2.feed(game2, "KS 9C QD 7H")
    assert game2.can_act(Action.SPLIT)


def test_resplit_limit() -> None:
    # RULES A1 notes: resplits are a house rule (default up to four hands).
    rec, game = live("hands=2")
    rec.feed(game, "8S 9C 8D 7H")
    rec.apply(Act(Action.SPLIT))
    rec.feed(game, "8C")
    with pytest.raises(IllegalOperation, match="at most 2 hands"):
        rec.apply(Act(Action.SPLIT))


def test_surrender_off_by_default_and_late_surrender_returns_half() -> None:
    # RULES A1 notes: surrender is not in the seed (off by default); late surrender as an option.
    rec, game = live()
    rec.feed(game, "KS 9C 6D 7H")
    with pytest.raises(IllegalOperation, match="surrender is not offered"):
        rec.apply(Act(Action.SURRENDER))
    rec2, game2 = live("ls")
    rec2.feed(game2, "KS 9C 6D 7H")
    rec2.apply(Act(Action.SURRENDER))
    assert net(rec2) == -5


def test_bet_limits_and_seats() -> None:
    # RULES A1: up to seven players; bets within the table limits.
    rec = Recorder()
    rec.apply(NewBlackjackGame(rules="min=2,max=500", mode=ShoeMode.OBSERVED))
    rec.shuffle()
    rec.buy_in(range(1, 8))
    with pytest.raises(IllegalOperation, match="seats are 1..7"):
        rec.apply(PlaceBet(8, 10))
    with pytest.raises(IllegalOperation, match="limits"):
        rec.apply(PlaceBet(1, 501))
    with pytest.raises(IllegalOperation, match="at least one bet"):
        rec.apply(StartRound())
    with pytest.raises(IllegalOperation):
        BlackjackRules.parse("seats=8")


def test_cut_card_forces_shuffle_after_the_round() -> None:
    # RULES A1: when the insert card comes out, the round is finished, then all cards are shuffled.
    rec = Recorder()
    rec.apply(NewBlackjackGame(rules="decks=1"))
    rec.shuffle(seed=5, cut_behind=48)  # the cut card comes out after 4 cards
    rec.buy_in([1])
    game = rec.table.games["blackjack"]
    rec.apply(PlaceBet(1, 10))
    rec.apply(StartRound())
    while game.phase.value != "betting":
        op = game.auto_operation() or game.card_operation(rec.table.require_shoe().next_card())
        rec.apply(op)
    assert game.prompt().step is Step.SHUFFLE
    rec.apply(PlaceBet(1, 10))
    with pytest.raises(IllegalOperation, match="shuffle before the next round"):
        rec.apply(StartRound())
    rec.shuffle(seed=6)
    rec.apply(StartRound())


def test_burn_card_house_rule() -> None:
    rec = Recorder()
    rec.apply(NewBlackjackGame(rules="burn"))
    rec.shuffle(seed=1)
    game = rec.table.games["blackjack"]
    assert game.prompt().who == "burn"
    rec.apply(game.card_operation(rec.table.require_shoe().next_card()))
    assert game.prompt().step is Step.BET and len(rec.table.require_shoe().burned) == 1


def test_live_hole_card_face_down_peek_and_reveal() -> None:
    rec, game = live()
    rec.feed(game, "9S KD 8D BK")
    assert game.prompt().options == ("peek-clear", "reveal")
    rec.apply(PeekClear())
    rec.apply(Act(Action.STAND))
    assert game.prompt().options == ("reveal",)
    rec.apply(Reveal(0, Card.parse("6H")))  # dealer 16 must draw
    assert game.prompt().who == "dealer"
    rec.feed(game, "KC")
    assert net(rec) == 10


def test_shoe_runs_out_mid_round_reshuffle_keeps_layout_cards_out() -> None:
    rec = Recorder()
    rec.apply(NewBlackjackGame(rules="decks=1,cutmin=0,cutmax=0"))
    rec.shuffle(seed=2, cut_behind=0)
    rec.buy_in(range(1, 8))
    game = rec.table.games["blackjack"]
    shoe = rec.table.require_shoe()
    for _ in range(48):
        shoe.record(shoe.next_card())  # most of the pack is gone
    for seat in range(1, 8):
        rec.apply(PlaceBet(seat, 10))
    rec.apply(StartRound())
    while game.phase.value != "betting":
        if game.prompt().options == ("reshuffle",):
            layout = game.cards_in_play()
            op = game.auto_operation()
            assert isinstance(op, ReshuffleDiscards)
            rec.apply(op)
            assert all(shoe.remaining_composition()[c] == 0 for c in layout)
            continue
        rec.apply(game.auto_operation() or game.card_operation(shoe.next_card()))
    assert not rec.table.faults


# ---- face-down cards in the shoe (live mode) --------------------------------------------------------
def _shoe_count(rec: Recorder, code: str) -> int:
    return rec.table.require_shoe().remaining_composition()[Card.parse(code)]


def test_revealed_hole_card_is_named_in_the_shoe() -> None:
    # RULES A1: the hole card is dealt face down (BK) and turned up after the players; once turned
    # up the shoe counts it like any card seen.
    rec, game = live("decks=1")
    shoe = rec.table.require_shoe()
    rec.feed(game, "9S KD 8D BK")
    assert shoe.unidentified == 1 and _shoe_count(rec, "6H") == 1
    rec.apply(PeekClear())
    rec.apply(Act(Action.STAND))
    rec.apply(Reveal(0, Card.parse("6H")))
    assert shoe.unidentified == 0 and _shoe_count(rec, "6H") == 0
    assert [c.code for c in shoe.dealt] == ["9S", "KD", "8D", "6H"]
    rec.feed(game, "6H")  # the only 6H of a single deck came out a second time
    assert [f.kind.value for f in rec.table.faults] == ["duplicate"]


def test_revealed_hole_card_seen_before_is_a_duplicate() -> None:
    # RULES A1 (hole card) with the shoe's duplicate check: the turned-up card was already dealt.
    rec, game = live("decks=1")
    rec.feed(game, "9S KD 8D BK")
    rec.apply(PeekClear())
    rec.apply(Act(Action.STAND))
    rec.apply(Reveal(0, Card.parse("8D")))
    (fault,) = rec.table.faults
    assert fault.kind.value == "duplicate" and fault.card == Card.parse("8D")


def test_revealed_double_down_card_is_named_in_the_shoe() -> None:
    # RULES A1: the double-down card comes face down and is revealed at settlement.
    rec, game = live("decks=1")
    shoe = rec.table.require_shoe()
    rec.feed(game, "6S 9C 5D 7H")
    rec.apply(Act(Action.DOUBLE))
    rec.feed(game, "BK QC")
    assert shoe.unidentified == 1
    rec.apply(Reveal(1, Card.parse("KD")))
    assert shoe.unidentified == 0 and _shoe_count(rec, "KD") == 0 and net(rec) == 20
    assert shoe.cards_out == 6 and sum(shoe.remaining_composition().values()) == 46


def test_simulated_hole_card_is_counted_once() -> None:
    # RULES A1: in simulated mode the engine deals the real hole card (shown as BK until turned up);
    # the shoe recorded it when it was dealt and turning it up records nothing more.
    rec = Recorder()
    rec.apply(NewBlackjackGame(rules="decks=1"))
    rec.shuffle(seed=5, cut_behind=20)
    rec.buy_in([1])
    game = rec.table.games["blackjack"]
    shoe = rec.table.require_shoe()
    for _ in range(5):
        rec.apply(PlaceBet(1, 10))
        rec.apply(StartRound())
        while game.phase.value != "betting":
            rec.apply(game.auto_operation() or game.card_operation(shoe.next_card()))
        seen = shoe.dealt + shoe.burned
        assert shoe.unidentified == 0
        assert all(shoe.remaining_composition()[c] == shoe.pack.count(c) - seen.count(c) for c in shoe.pack)
        assert sum(shoe.remaining_composition().values()) == shoe.cards_left


def test_face_down_hole_card_survives_a_reshuffle_of_the_discards() -> None:
    # RULES A1 (hole card face down) when a small shoe runs dry mid-round: the layout, the BK hole card
    # included, stays out of the reshuffled shoe and is named there when it is turned up.
    rec = Recorder()
    rec.apply(NewBlackjackGame(rules="decks=1,cutmin=0,cutmax=0", mode=ShoeMode.OBSERVED))
    rec.shuffle(cut_behind=0)
    rec.buy_in([1])
    game = rec.table.games["blackjack"]
    shoe = rec.table.require_shoe()
    layout = parse_cards("2C 7D 3C 9H 4C 5C")
    for card in shoe.pack.cards:
        if card not in layout:
            shoe.record(card)
    rec.apply(PlaceBet(1, 10))
    rec.apply(StartRound())
    rec.feed(game, "2C 7D 3C BK")  # the hole card is the 9H, face down
    for card in ("4C", "5C"):
        rec.apply(Act(Action.HIT))
        rec.feed(game, card)
    rec.apply(Act(Action.HIT))
    assert game.prompt().options == ("reshuffle",)
    rec.apply(ReshuffleDiscards("blackjack", seed=1))
    assert shoe.unidentified == 1 and shoe.cards_out == 6
    rec.feed(game, "2D")  # 16
    rec.apply(Act(Action.STAND))
    rec.apply(Reveal(0, Card.parse("9H")))
    assert shoe.unidentified == 0 and _shoe_count(rec, "9H") == 0
    rec.feed(game, "KS")  # dealer 16 draws and busts
    assert net(rec) == 10 and not rec.table.faults


# ---- taking back a mis-entered card (live mode) ------------------------------------------------------
def test_undo_a_misread_card_during_the_deal() -> None:
    # RULES A1 (deal order): a misread card is taken back and the same place wants a card again.
    rec, game = live(seats=(1, 2))
    shoe = rec.table.require_shoe()
    rec.feed(game, "9S 4C KD")  # the dealer's upcard was misread: it is the QD
    rec.apply(UndoCard(Card.parse("KD")))
    assert game.prompt().who == "dealer" and shoe.remaining_composition()[Card.parse("KD")] == 6
    rec.feed(game, "QD 5D 6D 7H")
    assert game.to_json()["dealer"]["cards"] == ["QD", "BK"]
    assert [c.code for c in shoe.dealt] == ["9S", "4C", "QD", "5D", "6D", "7H"]


def test_undo_a_misread_hit_before_the_player_decides() -> None:
    # RULES A1 (stand or hit): the card goes back before the player's next decision.
    rec, game = live()
    shoe = rec.table.require_shoe()
    rec.feed(game, "9S KD 5D 7H")  # 14 against a ten-card; the dealer has no natural
    rec.apply(Act(Action.HIT))
    rec.feed(game, "2C")
    assert game.can_undo_card(Card.parse("2C")) and not game.can_undo_card(Card.parse("3C"))
    rec.apply(UndoCard(Card.parse("2C")))
    assert game.prompt().step is Step.CARD and game.prompt().who == "seat-1"
    assert shoe.remaining_composition()[Card.parse("2C")] == 6
    rec.feed(game, "3C")  # 17
    rec.apply(Act(Action.STAND))
    assert net(rec) == 0 and game.to_json()["last_rounds"][-1]["seats"]["1"]["hands"][0]["cards"] == \
        ["9S", "5D", "3C"]
    assert not rec.table.faults


def test_undo_a_dealer_draw_while_the_dealer_still_draws() -> None:
    # RULES A1 (dealer rules): a dealer draw that did not finish the hand may be taken back.
    rec, game = live()
    rec.feed(game, "9S 5D KH 6C")  # player 19, dealer 11
    rec.apply(Act(Action.STAND))
    rec.feed(game, "2H")  # 13: the dealer draws again
    rec.apply(UndoCard(Card.parse("2H")))
    assert game.prompt().who == "dealer" and game.dealer == list(parse_cards("5D 6C"))
    rec.feed(game, "3H KS")  # 14, then bust
    assert net(rec) == 10


def test_undo_refused_once_something_followed_the_card() -> None:
    # RULES A1: a decision taken, a bet settled (bust collected at once) or the deal completed makes the
    # card part of the record: the table-level correction (table.correct-card) replays it instead.
    rec, game = live()
    rec.feed(game, "9S KD 5D 7H")
    with pytest.raises(IllegalOperation, match="nothing to take back"):
        rec.apply(UndoCard(Card.parse("7H")))  # it completed the deal (the peek followed)
    rec.apply(Act(Action.HIT))
    rec.feed(game, "2C")
    with pytest.raises(IllegalOperation, match="the last card was 2C"):
        rec.apply(UndoCard(Card.parse("3C")))
    rec.apply(Act(Action.HIT))
    with pytest.raises(IllegalOperation, match="a decision followed 2C"):
        rec.apply(UndoCard(Card.parse("2C")))
    rec.feed(game, "KC")  # 26: the bust is collected at once
    with pytest.raises(IllegalOperation, match="nothing to take back"):
        rec.apply(UndoCard(Card.parse("KC")))
    rec2, game2 = live()
    rec2.feed(game2, "6S 9C 5D 7H")
    rec2.apply(Act(Action.DOUBLE))
    rec2.feed(game2, "2C")  # the one card after a double ends the hand
    assert not game2.can_undo_card(Card.parse("2C"))
    rec3, game3 = live()
    rec3.feed(game3, "9S KD 5D 7H")
    rec3.apply(Act(Action.HIT))
    rec3.feed(game3, "2C")
    rec3.apply(UndoCard(Card.parse("2C")))
    with pytest.raises(IllegalOperation, match="nothing to take back"):
        rec3.apply(UndoCard(Card.parse("2C")))  # one step back only


def test_a_round_with_an_undo_replays_from_the_event_log(tmp_path: Path) -> None:
    # RULES A1 round replayed through the real SQLite store, the taken-back card included.
    rec, game = live()
    rec.feed(game, "9S KD 5D 7H")
    rec.apply(Act(Action.HIT))
    rec.feed(game, "2C")
    rec.apply(UndoCard(Card.parse("2C")))
    rec.feed(game, "3C")
    rec.apply(Act(Action.STAND))
    rebuilt = replay_through_store(rec.log, tmp_path / "undo.db")
    assert rebuilt.games["blackjack"].to_json() == game.to_json()
    assert rebuilt.require_shoe().remaining_composition() == rec.table.require_shoe().remaining_composition()


# ---- strategy ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["s17,das,da", "h17,nodas,d9", "s17,nodas,d10,ls"])
def test_generated_strategy_agrees_with_the_seed_hints(spec: str) -> None:
    # RULES A1 basic strategy hints: always split A-A and 8-8; never split tens, 5s or 4s (except
    # where the rules' table doubles 4s... it never splits 10s or 5s); always double 11 (hit v A
    # allowed); stand on hard 17+; draw to 17 against 7-A.
    table = strategy_for(BlackjackRules.parse(spec))
    for up in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1):
        assert table.cell("pair", 1, up) == "P"
        assert table.cell("pair", 8, up) in ("P", "Rp")
        assert table.cell("pair", 10, up) == "S"
        assert table.cell("pair", 5, up) in ("D", "H")
        for total in (17, 18, 19, 20):
            assert table.cell("hard", total, up) in ("S", "Rs")
        if up in (7, 8, 9, 10, 1):
            for total in (12, 13, 14):
                assert table.cell("hard", total, up) == "H"
    for up in range(2, 11):
        assert table.cell("hard", 11, up) == "D"


def test_seed_hint_strategy() -> None:
    # RULES A1 hints, directly.
    up = Card.parse
    assert seed_hint(parse_cards("10S 6H"), up("7C")) == "H"
    assert seed_hint(parse_cards("10S 2H"), up("4C")) == "S"
    assert seed_hint(parse_cards("10S 2H"), up("3C")) == "H"
    assert seed_hint(parse_cards("AS 6H"), up("3C")) == "H"
    assert seed_hint(parse_cards("5S 5H"), up("9C")) == "D"
    assert seed_hint(parse_cards("5S 5H"), up("KC")) == "H"
    assert seed_hint(parse_cards("6S 6H"), up("7C")) == "H"
    assert seed_hint(parse_cards("6S 6H"), up("6C")) == "P"


def test_auto_player_plays_basic_strategy() -> None:
    rec, game = live()
    rec.feed(game, "KS 10C 6D 7H")  # 16 v ten
    assert game.auto_operation() == Act(Action.HIT)
    rec2, game2 = live()
    rec2.feed(game2, "AS 5C AD 7H")
    assert game2.auto_operation() == Act(Action.SPLIT)


# ---- operations, invariants, replay -----------------------------------------------------------------
def test_operations_round_trip_through_payloads() -> None:
    for op in (NewBlackjackGame(rules="h17,das"), PlaceBet(2, 10), StartRound(), Insure(1, 5),
               Act(Action.DOUBLE), Reveal(0, Card.parse("AS")), PeekClear(), UndoCard(Card.parse("9H"))):
        assert operation_from_payload(op.kind, op.to_payload()) == op


def _bets(game: BlackjackGame) -> list[object]:
    return [PlaceBet(s, 10 + s) for s in range(1, 6)] + [StartRound()]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1),
       spec=st.sampled_from(["decks=1", "decks=2,das,da,ls,rsa,split10", "h17,nopeek,6:5,burn",
                             "csm,obo,nopeek"]))
def test_invariants_chips_conserved_no_card_twice(seed: int, spec: str) -> None:
    rec = Recorder()
    rec.apply(NewBlackjackGame(rules=spec))
    rec.buy_in(range(1, 6), 10_000)
    game = rec.table.games["blackjack"]
    start = sum(rec.balance(f"seat-{s}") for s in range(1, 6))
    run_simulated(rec, game, _bets, 25, Rng.from_seed(seed))
    # chips conserved between players and bank; nothing left on the layout
    assert rec.table.ledger.total() == 0
    assert rec.balance(STAKES) == 0
    assert sum(rec.balance(f"seat-{s}") for s in range(1, 6)) + rec.balance(HOUSE) == start
    # no card dealt twice: the shoe saw no duplicate or foreign card
    assert not rec.table.faults


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_live_round_replayed_from_event_log_gives_same_state(seed: int, tmp_path_factory: object) -> None:
    rec = Recorder()
    rec.apply(NewBlackjackGame(rules="das,da,ls", mode=ShoeMode.OBSERVED))
    rec.shuffle()
    rec.buy_in(range(1, 4))
    game = rec.table.games["blackjack"]
    rng = Rng.from_seed(seed)
    pack = rng.shuffled([c for c in rec.table.require_shoe().pack.cards])
    for seat in (1, 2, 3):
        rec.apply(PlaceBet(seat, 10))
    rec.apply(StartRound())
    while game.phase.value != "betting":
        rec.apply(game.auto_operation() or game.card_operation(pack.pop()))
    path = Path(str(tmp_path_factory.mktemp("bj"))) / "table.db"  # type: ignore[attr-defined]
    rebuilt = replay_through_store(rec.log, path)
    assert rebuilt.games["blackjack"].to_json() == game.to_json()
    assert rebuilt.ledger.balances() == rec.table.ledger.balances()
