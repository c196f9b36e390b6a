"""Casino red dog ([STD]) and the high-card pool (RULES A12): stacked-deck rule tests, properties."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.cards import BACK, Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Game, Step
from dealer.core.games.red_dog import (
    POOL_POT,
    RED_DOG_LAYOUT,
    HighCardPool,
    NewHighCardPool,
    NewRedDog,
    PoolBet,
    PoolCard,
    PoolForfeit,
    PoolShow,
    RedDog,
    RedDogBet,
    RedDogCard,
    RedDogRaise,
    beats,
)
from dealer.core.operations import Operation, operation_from_payload
from dealer.core.rng import Rng
from dealer.core.table_state import LoadShoe, ShuffleShoe, TableState, TransferChips


class Casino:
    def __init__(self, decks: int = 1, chips: int = 100, **rules: object) -> None:
        self.state = TableState()
        self.log: list[Operation] = []
        self.do(NewRedDog(decks=decks, **rules))  # type: ignore[arg-type]
        for seat in ("seat-1", "seat-2"):
            self.do(TransferChips("cage", seat, chips, "buy-in"))

    @property
    def game(self) -> RedDog:
        game = self.state.games["red-dog"]
        assert isinstance(game, RedDog)
        return game

    def do(self, op: Operation) -> None:
        self.state.apply(op)
        self.log.append(op)

    def cards(self, codes: str) -> None:
        for card in parse_cards(codes):
            self.do(RedDogCard(card))

    def settle(self) -> None:
        auto = self.game.auto_operation()
        assert auto is not None and auto.kind == "reddog.settle"
        self.do(auto)

    def balance(self, seat: str) -> int:
        return self.state.ledger.balance(seat)


def test_consecutive_cards_push() -> None:
    # RULES A12 note / [STD] casino red dog: consecutive ranks push, no third card
    t = Casino()
    t.do(RedDogBet("seat-1", 10))
    t.cards("9S 10H")
    assert t.game.prompt().step is Step.SETTLE
    t.settle()
    assert t.balance("seat-1") == 100 and t.game.history[-1]["results"][0]["result"] == "push"


def test_a_pair_turns_a_third_card_three_of_a_kind_pays_eleven() -> None:
    # [STD] casino red dog: a pair gets a third card; three of a kind pays 11:1, otherwise a push
    t = Casino()
    t.do(RedDogBet("seat-1", 5))
    t.cards("7S 7H")
    assert t.game.prompt().step is Step.CARD  # no raise on a pair
    with pytest.raises(IllegalOperation, match="raise comes after the spread"):
        t.do(RedDogRaise("seat-1", 5))
    t.cards("7D")
    t.settle()
    assert t.balance("seat-1") == 155
    t.do(RedDogBet("seat-1", 5))
    t.cards("8S 8H 2D")
    t.settle()
    assert t.balance("seat-1") == 155


@pytest.mark.parametrize(("outer", "spread", "net"), [("5S 7H", 1, 50), ("5S 8H", 2, 40),
                                                      ("5S 9H", 3, 20), ("2S AH", 11, 10)])
def test_spread_payouts(outer: str, spread: int, net: int) -> None:
    # [STD] casino red dog: spread 1 pays 5:1, 2 pays 4:1, 3 pays 2:1, 4-11 pay even money (aces high)
    t = Casino()
    t.do(RedDogBet("seat-1", 10))
    t.cards(outer)
    assert t.game.spread == spread
    t.do(RedDogRaise("seat-1", 0))
    t.cards("6D")
    t.settle()
    assert t.balance("seat-1") == 100 + net


def test_a_raise_up_to_the_original_bet_doubles_the_result() -> None:
    # [STD] casino red dog: raise up to the original bet after the spread is announced
    t = Casino()
    t.do(RedDogBet("seat-1", 10))
    t.do(RedDogBet("seat-2", 10))
    t.cards("3S 9H")
    with pytest.raises(IllegalOperation, match="up to the original bet 10"):
        t.do(RedDogRaise("seat-1", 11))
    with pytest.raises(IllegalOperation, match="every seat decides"):
        t.do(RedDogCard(Card.parse("6C")))
    t.do(RedDogRaise("seat-1", 10))
    t.do(RedDogRaise("seat-2", 0))
    t.cards("9C")  # equal to an outer card: loses
    t.settle()
    assert t.balance("seat-1") == 80 and t.balance("seat-2") == 90
    assert t.state.ledger.balance(RED_DOG_LAYOUT) == 0


def test_simulated_raise_follows_the_exact_odds() -> None:
    # [STD] the engine raises exactly when the raise gains (spread 7+ from a full deck)
    t = Casino()
    t.do(RedDogBet("seat-1", 10))
    t.cards("2S 10H")  # spread 7
    auto = t.game.auto_operation()
    assert auto == RedDogRaise("seat-1", 10)
    t2 = Casino()
    t2.do(RedDogBet("seat-1", 10))
    t2.cards("2S 9H")  # spread 6
    assert t2.game.auto_operation() == RedDogRaise("seat-1", 0)


def simulate(seed: int, hands: int) -> Casino:
    t = Casino(decks=2, chips=1000)  # 40 hands of at most 20 chips each cannot run out
    t.do(LoadShoe(decks=2))
    t.do(ShuffleShoe(seed=seed, cut_behind=0))
    rng = Rng.from_seed(seed)
    done = 0
    while done < hands:
        prompt = t.game.prompt()
        if prompt.step is Step.BET:
            t.do(RedDogBet("seat-1", 1 + rng.randbelow(10)))
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
def test_simulated_red_dog_conserves_chips_and_replays(seed: int) -> None:
    t = simulate(seed, 40)
    assert t.state.ledger.total() == 0
    assert t.balance("seat-1") + t.state.ledger.balance("house") == 1000
    replayed = TableState()
    for op in t.log:
        replayed.apply(operation_from_payload(op.kind, op.to_payload()))
    assert replayed.to_json() == t.state.to_json()


# ---- high-card pool (RULES A12) ------------------------------------------------------------------

PLAYERS = ("ann", "bob", "cy")


class Pool:
    def __init__(self, dealer: str = "cy", hand_size: int = 5) -> None:
        self.state = TableState()
        self.log: list[Operation] = []
        for seat in PLAYERS:
            self.do(TransferChips("cage", seat, 20, "buy-in"))
        self.do(NewHighCardPool(PLAYERS, dealer, hand_size))

    @property
    def game(self) -> HighCardPool:
        game = self.state.games["high-card-pool"]
        assert isinstance(game, HighCardPool)
        return game

    def do(self, op: Operation) -> None:
        self.state.apply(op)
        self.log.append(op)

    def deal(self, hands: dict[str, str]) -> None:
        """Deal one card at a time round the table from the dealer's left."""
        order = self.game.order
        cards = {seat: list(parse_cards(hands[seat])) for seat in order}
        for i in range(self.game.hand_size):
            for seat in order:
                assert self.game.prompt().who == seat
                self.do(PoolCard(cards[seat][i]))

    def pot(self) -> int:
        return self.state.ledger.balance(POOL_POT)


HANDS = {"ann": "KH 2C 3D 4S 5H", "bob": "9S 2D 3C 4H 6C", "cy": "AS AH AD AC 2S"}


def test_everyone_antes_and_the_player_left_of_the_dealer_bets_first() -> None:
    # RULES A12: each player puts 1 chip in the pot; betting starts at the dealer's left, dealer last
    t = Pool(dealer="cy")
    assert t.pot() == 3 and t.game.order == ["ann", "bob", "cy"]
    t.deal(HANDS)
    assert t.game.prompt().step is Step.DECIDE and t.game.prompt().who == "ann"


def test_a_higher_card_of_the_same_suit_wins_the_bet_from_the_pot() -> None:
    # RULES A12: same suit and higher rank shows one card and takes the bet back plus as much from the pot
    t = Pool()
    t.deal(HANDS)
    t.do(PoolBet("ann", 2))
    t.do(PoolCard(Card.parse("QH")))  # ann holds KH
    t.do(t.game.auto_operation())  # type: ignore[arg-type]
    assert t.state.ledger.balance("ann") == 21 and t.pot() == 1
    assert t.game.history[-1]["shown"] == "KH"


def test_no_higher_card_of_the_suit_puts_the_bet_in_the_pot() -> None:
    # RULES A12: otherwise the whole hand is shown and the bet goes into the pot (aces high)
    t = Pool()
    t.deal(HANDS)
    t.do(PoolBet("ann", 3))
    t.do(PoolCard(Card.parse("AC")))
    t.do(t.game.auto_operation())  # type: ignore[arg-type]
    assert t.state.ledger.balance("ann") == 16 and t.pot() == 6
    assert len(t.game.history[-1]["shown"]) == 5


def test_bet_limits_forfeit_and_refill() -> None:
    # RULES A12: no bet over the pot; decline by forfeiting 1 chip; an emptied pot is refilled by all
    t = Pool()
    t.deal(HANDS)
    with pytest.raises(IllegalOperation, match="up to the 3 chips in the pot"):
        t.do(PoolBet("ann", 4))
    with pytest.raises(IllegalOperation, match="ann's turn"):
        t.do(PoolBet("bob", 1))
    t.do(PoolForfeit("ann"))
    assert t.pot() == 4 and t.game.prompt().who == "bob"
    t.do(PoolBet("bob", 4))  # bet the pot
    t.do(PoolCard(Card.parse("8S")))  # bob holds 9S
    t.do(t.game.auto_operation())  # type: ignore[arg-type]
    assert t.pot() == 3  # emptied, then everyone anted again
    assert [t.state.ledger.balance(s) for s in PLAYERS] == [17, 22, 18]


def test_everyone_bets_once_then_the_deal_passes_left() -> None:
    # RULES A12: each player including the dealer bets once; the deal passes to the left
    t = Pool(dealer="cy")
    t.deal(HANDS)
    for seat in PLAYERS:
        t.do(PoolForfeit(seat))
    assert t.game.prompt().step is Step.SHUFFLE
    t.do(t.game.auto_operation())  # type: ignore[arg-type]
    assert t.game.to_json()["dealer"] == "ann" and t.game.order == ["bob", "cy", "ann"]


def test_four_cards_each_with_more_than_eight_players() -> None:
    # RULES A12: some deal four cards; required with more than eight players
    state = TableState()
    seats = tuple(f"p{i}" for i in range(9))
    for seat in seats:
        state.apply(TransferChips("cage", seat, 5, "buy-in"))
    with pytest.raises(IllegalOperation, match="four cards"):
        state.apply(NewHighCardPool(seats, "p0", 5))
    state.apply(NewHighCardPool(seats, "p0", 4))


def test_face_down_hands_are_shown_in_live_mode() -> None:
    # RULES A12: the player shows the winning card (or the whole hand) after the turned card
    t = Pool()
    t.deal({s: "BK BK BK BK BK" for s in PLAYERS})
    t.do(PoolBet("ann", 1))
    t.do(PoolCard(Card.parse("QH")))
    assert t.game.prompt().step is Step.DECIDE and t.game.prompt().options == ("show",)
    with pytest.raises(IllegalOperation, match="holds 5 cards"):
        t.do(PoolShow("ann", parse_cards("KH 2C")))
    t.do(PoolShow("ann", parse_cards("KH 2C 3D 4S 5H")))
    t.do(t.game.auto_operation())  # type: ignore[arg-type]
    assert t.state.ledger.balance("ann") == 20
    assert BACK.is_back


def test_beats_picks_a_higher_card_of_the_suit() -> None:
    # RULES A12: ace high
    hand = list(parse_cards("AS 3S KD"))
    assert beats(hand, Card.parse("QS")) == Card.parse("AS")
    assert beats(hand, Card.parse("AD")) is None


def test_pool_games_are_games() -> None:
    assert isinstance(Pool().game, Game) and isinstance(Casino().game, Game)


def test_pool_and_red_dog_replay_from_the_sqlite_log(tmp_path: Path) -> None:
    store_mod = pytest.importorskip("dealer.store")
    t = Pool()
    t.deal({s: "BK BK BK BK BK" for s in PLAYERS})
    t.do(PoolBet("ann", 1))
    t.do(PoolCard(Card.parse("QH")))
    t.do(PoolShow("ann", parse_cards("KH 2C 3D 4S 5H")))
    t.do(t.game.auto_operation())  # type: ignore[arg-type]
    casino = simulate(7, 10)
    for log, state in ((t.log, t.state), (casino.log, casino.state)):
        with store_mod.EventStore.open(tmp_path / f"{len(log)}.db") as store:
            for op in log:
                store.append(op)
            assert store_mod.rebuild_state(store).to_json() == state.to_json()
