"""In-between / acey-deucey (RULES A13): stacked-deck rule tests, conservation and replay."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.cards import Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Game, Step
from dealer.core.games.in_between import (
    BETS,
    POT,
    InBetween,
    InBetweenBet,
    InBetweenCard,
    NewInBetween,
    first_dealer,
)
from dealer.core.operations import Operation, operation_from_payload
from dealer.core.packs import standard_52
from dealer.core.rng import Rng
from dealer.core.table_state import LoadShoe, ShuffleShoe, TableState, TransferChips

PLAYERS = ("ann", "bob", "cy")


class Table:
    def __init__(self, dealer: str = "cy", chips: int = 20, **rules: object) -> None:
        self.state = TableState()
        self.log: list[Operation] = []
        for seat in PLAYERS:
            self.do(TransferChips("cage", seat, chips, "buy-in"))
        self.do(NewInBetween(PLAYERS, dealer, **rules))  # type: ignore[arg-type]

    @property
    def game(self) -> InBetween:
        game = self.state.games["in-between"]
        assert isinstance(game, InBetween)
        return game

    def do(self, op: Operation) -> None:
        self.state.apply(op)
        self.log.append(op)

    def cards(self, codes: str) -> None:
        for card in parse_cards(codes):
            self.do(InBetweenCard(card))

    def settle(self) -> dict[str, object]:
        auto = self.game.auto_operation()
        assert auto is not None and auto.kind == "inbetween.settle"
        self.do(auto)
        return self.game.history[-1]

    def chips(self, seat: str) -> int:
        return self.state.ledger.balance(seat)


def test_ante_and_first_player_left_of_dealer() -> None:
    # RULES A13: ante 1 chip each; the player at the dealer's left starts
    t = Table(dealer="cy")
    assert t.state.ledger.balance(POT) == 3 and t.game.player == "ann"
    assert [t.chips(s) for s in PLAYERS] == [19, 19, 19]


def test_third_card_strictly_between_wins_from_the_pot() -> None:
    # RULES A13: a third card strictly between wins the bet plus as much from the pot
    t = Table()
    t.cards("4S JH")
    t.do(InBetweenBet("ann", 2))
    t.cards("8D")
    assert t.settle()["result"] == "won" and t.chips("ann") == 21 and t.state.ledger.balance(POT) == 1


def test_outside_or_equal_loses_to_the_pot() -> None:
    # RULES A13: outside the two cards, or equal to either, the bet goes into the pot
    for third in ("JC", "4D", "2C", "KC"):
        t = Table()
        t.cards("4S JH")
        t.do(InBetweenBet("ann", 3))
        t.cards(third)
        assert t.settle()["result"] == "lost" and t.chips("ann") == 16 and t.state.ledger.balance(POT) == 6


def test_bet_is_one_chip_up_to_the_pot() -> None:
    # RULES A13: at least 1 chip, at most the pot
    t = Table()
    t.cards("4S JH")
    with pytest.raises(IllegalOperation, match="at most the pot \\(3\\)"):
        t.do(InBetweenBet("ann", 4))
    with pytest.raises(IllegalOperation, match="at least 1"):
        t.do(InBetweenBet("ann", 0))
    with pytest.raises(IllegalOperation, match="bets before the third card"):
        t.cards("8D")


def test_consecutive_cards_lose_at_once() -> None:
    # RULES A13: consecutive outer cards lose automatically, no third card (the 1-chip minimum)
    t = Table()
    t.cards("7S 8H")
    assert t.game.prompt().step is Step.SETTLE
    with pytest.raises(IllegalOperation, match="decided"):
        t.cards("9C")
    assert t.settle()["result"] == "consecutive" and t.chips("ann") == 18


def test_a_pair_wins_two_chips_or_three_by_house_rule() -> None:
    # RULES A13: equal outer cards win 2 chips (3 in some games), no third card
    t = Table()
    t.cards("9S 9H")
    assert t.settle()["net"] == 2 and t.chips("ann") == 21
    t3 = Table(pair_win=3)
    t3.cards("9S 9H")
    assert t3.settle()["net"] == 3 and t3.state.ledger.balance(POT) == 0 + 3  # refilled after emptying


def test_acey_deucey_is_the_widest_spread_ace_high() -> None:
    # RULES A13: ace high only; A-2 loses only to another ace or deuce
    t = Table()
    t.cards("AS 2H")
    assert t.game.kind_of_spread == "spread"
    t.do(InBetweenBet("ann", 3))
    t.cards("KD")
    assert t.settle()["result"] == "won"
    t2 = Table()
    t2.cards("AS KH")  # ace high: A-K are consecutive
    assert t2.game.kind_of_spread == "consecutive"


def test_each_player_one_turn_then_the_deal_passes_left_and_pot_refills() -> None:
    # RULES A13: each player including the dealer gets one turn; emptied pot refilled; deal passes left
    t = Table(dealer="cy")
    t.cards("2S AH")
    t.do(InBetweenBet("ann", 3))  # the whole pot
    t.cards("9C")
    t.settle()
    assert t.state.ledger.balance(POT) == 3 and t.chips("ann") == 21  # +3, then anted again
    for _ in range(2):
        t.cards("9S 9H")
        t.settle()
    assert t.game.to_json()["dealer"] == "ann" and t.game.player == "bob" and t.game.round == 2


def simulate(seed: int, turns: int) -> Table:
    t = Table(chips=200)
    t.do(LoadShoe(decks=1))
    t.do(ShuffleShoe(seed=seed, cut_behind=0))
    rng = Rng.from_seed(seed)
    done = 0
    while done < turns:
        prompt = t.game.prompt()
        if prompt.step is Step.DECIDE:
            pot = t.state.ledger.balance(POT)
            t.do(InBetweenBet(t.game.player, 1 + rng.randbelow(min(pot, t.chips(t.game.player)))))
            continue
        if prompt.step is Step.SHUFFLE:
            t.do(ShuffleShoe(seed=seed + done, cut_behind=0))
        if prompt.step is not Step.CARD:
            auto = t.game.auto_operation()
            assert auto is not None
            t.do(auto)
            done += prompt.step is Step.SETTLE
            continue
        deal = t.state.next_deal()
        t.do(deal)
        t.do(t.game.card_operation(deal.card))
    return t


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_simulated_in_between_conserves_chips_and_replays(seed: int) -> None:
    t = simulate(seed, 15)
    ledger = t.state.ledger
    assert ledger.total() == 0 and ledger.balance(BETS) == 0
    assert sum(t.chips(s) for s in PLAYERS) + ledger.balance(POT) == 600
    replayed = TableState()
    for op in t.log:
        replayed.apply(operation_from_payload(op.kind, op.to_payload()))
    assert replayed.to_json() == t.state.to_json()


def test_in_between_is_a_game_and_refuses_unknown_cards() -> None:
    t = Table()
    assert isinstance(t.game, Game)
    with pytest.raises(IllegalOperation, match="need the face"):
        t.do(InBetweenCard(Card.parse("BK")))
    assert len(standard_52()) == 52


def test_the_highest_card_of_a_face_up_draw_deals_first() -> None:
    # RULES A12/A13: the highest card in a face-up deal picks the first dealer (aces high)
    assert first_dealer({"ann": Card.parse("KS"), "bob": Card.parse("AD")}) == "bob"
    with pytest.raises(IllegalOperation, match="ann and bob tie"):
        first_dealer({"ann": Card.parse("KS"), "bob": Card.parse("KD"), "cy": Card.parse("2C")})


def test_docstring_examples_of_the_banking_games_run() -> None:
    import doctest

    from dealer.core.analysis import faro_analysis, red_dog_analysis, trente_et_quarante_analysis
    from dealer.core.games import faro, in_between, red_dog, trente_et_quarante

    for module in (faro, in_between, red_dog, trente_et_quarante, faro_analysis, red_dog_analysis,
                   trente_et_quarante_analysis):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__
