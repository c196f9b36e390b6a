"""Red dog, two games under one name.

* :class:`RedDog` — the **casino** form [STD]: every seat bets on the same two cards; consecutive
  ranks push, a pair turns a third card (three of a kind pays 11:1), otherwise the spread is
  announced, each seat may raise up to its original bet, and a third card strictly between wins
  at the spread payout (1 → 5:1, 2 → 4:1, 3 → 2:1, 4+ → 1:1). Aces high.
* :class:`HighCardPool` — the game the seed calls Red Dog (RULES A12): five (or four) cards each,
  every player in turn bets up to the pot or forfeits 1 chip, a card is turned, and a card of the
  same suit and higher rank in the hand wins the bet from the pot.

>>> from dealer.core.table_state import TableState, TransferChips
>>> table = TableState()
>>> table.apply(NewRedDog(decks=1))
>>> table.apply(TransferChips("cage", "seat-1", 50, "buy-in"))
>>> table.apply(RedDogBet("seat-1", 10))
>>> for code in ("3S", "9H"):
...     table.apply(RedDogCard(Card.parse(code)))
>>> game = table.games["red-dog"]
>>> game.spread
5
>>> table.apply(RedDogRaise("seat-1", 10))
>>> table.apply(RedDogCard(Card.parse("6C")))
>>> table.apply(game.auto_operation())
>>> table.ledger.balance("seat-1")
70
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from dealer.core.analysis.red_dog_analysis import should_raise
from dealer.core.cards import Card, Rank
from dealer.core.games.base import Prompt, Step
from dealer.core.games.faro import TransferPlan
from dealer.core.money import Ratio, pay
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.table_state import TableState

__all__ = ["HighCardPool", "NewHighCardPool", "NewRedDog", "PoolBet", "PoolCard", "PoolForfeit",
           "PoolNewDeal", "PoolSettle", "PoolShow", "RedDog", "RedDogBet", "RedDogCard", "RedDogNewShoe",
           "RedDogRaise", "RedDogRules", "RedDogSettle", "beats"]

RED_DOG = "red-dog"
RED_DOG_LAYOUT = "red-dog-layout"
POOL = "high-card-pool"
POOL_POT = "high-card-pool-pot"


def _high(card: Card) -> int:
    assert card.rank is not None
    return card.rank.high


def _face(card: Card, rule: str) -> None:
    ensure(card.rank is not None, f"{rule}: need the face of the card, not {card.code}")


# ==== casino red dog =============================================================================

@dataclass(frozen=True)
class RedDogRules:
    decks: int = 8  # [STD] casinos deal from a multi-deck shoe; 1 to 8
    spread_1: Ratio = Ratio(5, 1)
    spread_2: Ratio = Ratio(4, 1)
    spread_3: Ratio = Ratio(2, 1)
    spread_wide: Ratio = Ratio(1, 1)  # spreads of 4 to 11
    three_of_a_kind: Ratio = Ratio(11, 1)
    min_bet: int = 1
    max_bet: int | None = None
    reshuffle_below: int = 0  # 0: reshuffle only when a hand cannot be finished
    bank: str = "house"

    def payout(self, spread: int) -> Ratio:
        return {1: self.spread_1, 2: self.spread_2, 3: self.spread_3}.get(spread, self.spread_wide)

    def to_json(self) -> dict[str, Any]:
        return {"decks": self.decks, "spread_payouts": {"1": str(self.spread_1), "2": str(self.spread_2),
                                                        "3": str(self.spread_3),
                                                        "4-11": str(self.spread_wide)},
                "three_of_a_kind": str(self.three_of_a_kind), "min_bet": self.min_bet,
                "max_bet": self.max_bet, "bank": self.bank}


@dataclass
class RedDog:
    """One casino red dog table: all seats play the same cards."""

    name: ClassVar[str] = RED_DOG

    rules: RedDogRules = field(default_factory=RedDogRules)
    hand: int = 1
    cards: list[Card] = field(default_factory=list)
    bets: dict[str, int] = field(default_factory=dict)
    raises: dict[str, int] = field(default_factory=dict)  # decided seats (0 = no raise)
    seen: Counter[Rank] = field(default_factory=Counter)  # ranks out of the shoe since the shuffle
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def spread(self) -> int | None:
        """Ranks strictly between the two outer cards; None before two cards, -1 for a pair."""
        if len(self.cards) < 2:
            return None
        a, b = sorted((_high(self.cards[0]), _high(self.cards[1])))
        return -1 if a == b else b - a - 1

    @property
    def raising(self) -> bool:
        return self.spread is not None and self.spread >= 1 and len(self.cards) == 2

    @property
    def complete(self) -> bool:
        return len(self.cards) == 3 or self.spread == 0

    @property
    def shoe_left(self) -> int:
        return self.rules.decks * 52 - sum(self.seen.values())

    def verify_bet(self, seat: str, amount: int) -> None:
        ensure(not self.cards, "red dog: bets are placed before the two cards are turned")
        ensure(isinstance(amount, int) and amount >= self.rules.min_bet,
               f"the table minimum is {self.rules.min_bet}, not {amount!r}")
        total = self.bets.get(seat, 0) + amount
        ensure(self.rules.max_bet is None or total <= self.rules.max_bet,
               f"the table maximum is {self.rules.max_bet}")

    def place_bet(self, table: TableState, seat: str, amount: int) -> None:
        self.verify_bet(seat, amount)
        table.ledger.transfer(seat, RED_DOG_LAYOUT, amount, "red dog bet")
        self.bets[seat] = self.bets.get(seat, 0) + amount

    def verify_card(self, card: Card) -> None:
        _face(card, "red dog")
        ensure(bool(self.bets), "red dog: no bets yet; cards are turned after the bets")
        ensure(not self.complete, "red dog: the hand is decided; settle it")
        ensure(not self.raising or len(self.raises) == len(self.bets),
               "red dog [STD]: every seat decides on its raise before the third card")

    def enter_card(self, card: Card) -> None:
        self.verify_card(card)
        assert card.rank is not None
        self.cards.append(card)
        self.seen[card.rank] += 1

    def verify_raise(self, seat: str, amount: int) -> None:
        ensure(self.raising, "red dog [STD]: a raise comes after the spread is announced (not on a pair or "
                             "consecutive cards)")
        ensure(seat in self.bets, f"{seat} has no bet this hand")
        ensure(seat not in self.raises, f"{seat} already decided on the raise")
        ensure(isinstance(amount, int) and 0 <= amount <= self.bets[seat],
               f"red dog [STD]: a raise is 0 up to the original bet {self.bets[seat]}, not {amount!r}")

    def raise_bet(self, table: TableState, seat: str, amount: int) -> None:
        self.verify_raise(seat, amount)
        table.ledger.transfer(seat, RED_DOG_LAYOUT, amount, "red dog raise")
        self.raises[seat] = amount

    def win_probability(self) -> Fraction:
        """Chance the third card falls strictly between, from the ranks still in the shoe."""
        s = self.spread
        assert s is not None and s >= 1
        low = min(_high(c) for c in self.cards[:2])
        per_rank = 4 * self.rules.decks
        between = sum(per_rank - self.seen[_rank_of_high(h)] for h in range(low + 1, low + s + 1))
        return Fraction(max(between, 0), max(self.shoe_left, 1))

    def settle(self, table: TableState) -> None:
        ensure(self.complete, "red dog: the hand is not decided yet")
        trial = copy.deepcopy(self)  # plan on a copy: a short bank raises before any chip moves
        plan = TransferPlan()
        trial._settle(plan)
        plan.execute(table.ledger)
        self.__dict__.update(trial.__dict__)

    def _settle(self, table: Any) -> None:
        spread = self.spread
        results = []
        bank = self.rules.bank
        for seat in sorted(self.bets):
            stake = self.bets[seat] + self.raises.get(seat, 0)
            if spread == 0 or (spread == -1 and _high(self.cards[2]) != _high(self.cards[0])):
                table.ledger.transfer(RED_DOG_LAYOUT, seat, stake, "red dog push")
                results.append({"seat": seat, "stake": stake, "result": "push", "net": 0})
                continue
            if spread == -1:
                ratio, won = self.rules.three_of_a_kind, True
            else:
                assert spread is not None
                lo, hi = sorted((_high(self.cards[0]), _high(self.cards[1])))
                ratio, won = self.rules.payout(spread), lo < _high(self.cards[2]) < hi
            if won:
                amount = pay(stake, ratio).amount
                table.ledger.transfer(RED_DOG_LAYOUT, seat, stake, "red dog won: stake back")
                table.ledger.transfer(bank, seat, amount, f"red dog won at {ratio}")
                results.append({"seat": seat, "stake": stake, "result": "won", "net": amount})
            else:
                table.ledger.transfer(RED_DOG_LAYOUT, bank, stake, "red dog lost")
                results.append({"seat": seat, "stake": stake, "result": "lost", "net": -stake})
        self.history.append({"hand": self.hand, "cards": [c.code for c in self.cards], "spread": spread,
                             "results": results})
        self.hand += 1
        self.cards, self.bets, self.raises = [], {}, {}

    def new_shoe(self) -> None:
        ensure(not self.cards, "red dog: finish the hand before a new shoe")
        self.seen = Counter()

    def prompt(self) -> Prompt:
        if self.complete:
            return Prompt(Step.SETTLE, "dealer", ("settle",), "settle the hand")
        if not self.cards and self.shoe_left < max(3, self.rules.reshuffle_below):
            return Prompt(Step.SHUFFLE, "dealer", ("new-shoe",), "shuffle a new shoe")
        if not self.bets:
            return Prompt(Step.BET, None, ("bet",), "place your bets")
        if self.raising and len(self.raises) < len(self.bets):
            seat = next(s for s in sorted(self.bets) if s not in self.raises)
            return Prompt(Step.DECIDE, seat, ("raise", "no-raise"), f"spread {self.spread}: raise?")
        return Prompt(Step.CARD, "dealer", ("card",), "turn the next card")

    def card_operation(self, card: Card) -> Operation:
        return RedDogCard(card)

    def auto_operation(self) -> Operation | None:
        """Simulated mode: settle, reshuffle, and the optimal raise for the seat to decide."""
        prompt = self.prompt()
        if prompt.step is Step.SETTLE:
            return RedDogSettle()
        if prompt.step is Step.SHUFFLE:
            return RedDogNewShoe()
        if prompt.step is Step.DECIDE and prompt.who is not None:
            spread = self.spread
            assert spread is not None
            gain = should_raise(self.win_probability(), self.rules.payout(spread))
            return RedDogRaise(prompt.who, self.bets[prompt.who] if gain else 0)
        return None

    def to_json(self) -> dict[str, Any]:
        return {"game": RED_DOG, "rules": self.rules.to_json(), "hand": self.hand,
                "cards": [c.code for c in self.cards], "spread": self.spread,
                "bets": dict(sorted(self.bets.items())), "raises": dict(sorted(self.raises.items())),
                "shoe_left": self.shoe_left, "history": self.history, "prompt": self.prompt().to_json()}


def _rank_of_high(high: int) -> Rank:
    return Rank.ACE if high == 14 else Rank(high)


def red_dog(table: TableState) -> RedDog:
    game = table.games.get(RED_DOG)
    ensure(isinstance(game, RedDog), "no red dog game here (start one with reddog.new)")
    assert isinstance(game, RedDog)
    return game


@register_operation
@dataclass(frozen=True)
class NewRedDog(Operation):
    kind: ClassVar[str] = "reddog.new"
    decks: int = 8
    spread_1: str = "5:1"
    spread_2: str = "4:1"
    spread_3: str = "2:1"
    spread_wide: str = "1:1"
    three_of_a_kind: str = "11:1"
    min_bet: int = 1
    max_bet: int | None = None
    bank: str = "house"

    def apply(self, table: TableState) -> None:
        ensure(1 <= self.decks <= 16, f"red dog is dealt from 1 to 16 decks, not {self.decks}")
        old = table.games.get(RED_DOG)
        ensure(not isinstance(old, RedDog) or not old.bets, "bets are still on the red dog layout")
        table.games[RED_DOG] = RedDog(RedDogRules(
            self.decks, Ratio.parse(self.spread_1), Ratio.parse(self.spread_2), Ratio.parse(self.spread_3),
            Ratio.parse(self.spread_wide), Ratio.parse(self.three_of_a_kind), self.min_bet, self.max_bet,
            bank=self.bank))


@register_operation
@dataclass(frozen=True)
class RedDogNewShoe(Operation):
    kind: ClassVar[str] = "reddog.new-shoe"

    def apply(self, table: TableState) -> None:
        red_dog(table).new_shoe()


@register_operation
@dataclass(frozen=True)
class RedDogBet(Operation):
    kind: ClassVar[str] = "reddog.bet"
    seat: str
    amount: int

    def apply(self, table: TableState) -> None:
        red_dog(table).place_bet(table, self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class RedDogCard(Operation):
    kind: ClassVar[str] = "reddog.card"
    card: Card

    def apply(self, table: TableState) -> None:
        red_dog(table).enter_card(self.card)


@register_operation
@dataclass(frozen=True)
class RedDogRaise(Operation):
    """Raise ``amount`` (0 = no raise) up to the original bet."""

    kind: ClassVar[str] = "reddog.raise"
    seat: str
    amount: int

    def apply(self, table: TableState) -> None:
        red_dog(table).raise_bet(table, self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class RedDogSettle(Operation):
    kind: ClassVar[str] = "reddog.settle"

    def apply(self, table: TableState) -> None:
        red_dog(table).settle(table)


# ==== high-card pool (the seed's red dog) ========================================================

def beats(hand: list[Card], turned: Card) -> Card | None:
    """RULES A12: the lowest card of ``hand`` of the turned card's suit and higher rank, if any."""
    better = [c for c in hand if c.suit == turned.suit and c.rank is not None and _high(c) > _high(turned)]
    return min(better, key=_high) if better else None


@dataclass
class HighCardPool:
    """RULES A12. ``players`` in seat order around the table; the deal passes to the left."""

    name: ClassVar[str] = POOL

    players: tuple[str, ...] = ()
    hand_size: int = 5
    dealer: int = 0  # index into players
    deal: int = 1
    hands: dict[str, list[Card]] = field(default_factory=dict)
    bettor: int = 0  # how many players have bet this deal
    bet: int | None = None  # the current bettor's stake (0 after a forfeit)
    turned: Card | None = None
    cards_out: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def order(self) -> list[str]:
        """Dealer's left first, the dealer last (RULES A12)."""
        n = len(self.players)
        return [self.players[(self.dealer + 1 + i) % n] for i in range(n)]

    @property
    def dealing(self) -> bool:
        return sum(len(h) for h in self.hands.values()) < self.hand_size * len(self.players)

    @property
    def current(self) -> str | None:
        if self.dealing or self.bettor >= len(self.players):
            return None
        return self.order[self.bettor]

    def next_hand(self) -> str:
        """Who gets the next card of the deal: one at a time from the dealer's left."""
        dealt = sum(len(h) for h in self.hands.values())
        return self.order[dealt % len(self.players)]

    def verify_card(self, card: Card) -> None:
        ensure(not card.is_joker, "RULES A12: a standard 52-card pack has no joker")
        if self.dealing:
            return
        ensure(self.current is not None, "RULES A12: every player has bet this deal")
        ensure(self.bet is not None and self.bet > 0, "RULES A12: the card is turned after the player bets")
        ensure(self.turned is None, "RULES A12: the card for this bet is already turned")
        _face(card, "RULES A12")

    def enter_card(self, card: Card) -> None:
        self.verify_card(card)
        self.cards_out += 1
        if self.dealing:
            self.hands.setdefault(self.next_hand(), []).append(card)
        else:
            self.turned = card

    def _pot(self, table: TableState) -> int:
        return table.ledger.balance(POOL_POT)

    def verify_bet(self, table: TableState, seat: str, amount: int) -> None:
        ensure(seat == self.current, f"RULES A12: it is {self.current}'s turn to bet, not {seat}'s")
        ensure(self.bet is None, f"{seat} has already bet")
        pot = self._pot(table)
        ensure(isinstance(amount, int) and 1 <= amount <= pot,
               f"RULES A12: a bet is 1 up to the {pot} chips in the pot, not {amount!r}")

    def place_bet(self, table: TableState, seat: str, amount: int) -> None:
        self.verify_bet(table, seat, amount)
        table.ledger.transfer(seat, POOL + "-bets", amount, "high-card pool bet")
        self.bet = amount

    def forfeit(self, table: TableState, seat: str) -> None:
        ensure(seat == self.current, f"RULES A12: it is {self.current}'s turn, not {seat}'s")
        ensure(self.bet is None, f"{seat} has already bet")
        table.ledger.transfer(seat, POOL_POT, 1, "high-card pool: declined, forfeits 1 chip")
        self.history.append({"deal": self.deal, "seat": seat, "result": "forfeit", "net": -1})
        self._next_bettor(table)

    def verify_show(self, seat: str, cards: tuple[Card, ...]) -> None:
        held = self.hands.get(seat, [])
        ensure(len(cards) == len(held), f"RULES A12: {seat} holds {len(held)} cards, not {len(cards)}")
        known = Counter(c for c in held if not c.is_back)
        ensure(not known - Counter(cards), f"RULES A12: {seat}'s shown cards must include the cards seen")
        for card in cards:
            _face(card, "RULES A12")

    def show(self, seat: str, cards: tuple[Card, ...]) -> None:
        """Live mode: a face-down hand (``BK`` cards) is shown."""
        self.verify_show(seat, cards)
        self.hands[seat] = list(cards)

    def needs_show(self) -> bool:
        seat = self.current
        return self.turned is not None and seat is not None and any(c.is_back for c in self.hands[seat])

    def settle(self, table: TableState) -> None:
        seat = self.current
        ensure(seat is not None and self.turned is not None and bool(self.bet),
               "RULES A12: settle after a bet and its turned card")
        ensure(not self.needs_show(), f"RULES A12: {seat} must show the hand first")
        assert seat is not None and self.turned is not None and self.bet is not None
        winner = beats(self.hands[seat], self.turned)
        if winner is not None:
            amount = min(self.bet, self._pot(table))
            table.ledger.transfer(POOL + "-bets", seat, self.bet, "high-card pool: bet back")
            table.ledger.transfer(POOL_POT, seat, amount, "high-card pool: won from the pot")
            result, net = "won", amount
        else:
            table.ledger.transfer(POOL + "-bets", POOL_POT, self.bet, "high-card pool: bet to the pot")
            result, net = "lost", -self.bet
        self.history.append({"deal": self.deal, "seat": seat, "bet": self.bet, "turned": self.turned.code,
                             "shown": winner.code if winner else [c.code for c in self.hands[seat]],
                             "result": result, "net": net})
        self._next_bettor(table)

    def _next_bettor(self, table: TableState) -> None:
        self.bettor += 1
        self.bet, self.turned = None, None
        if self._pot(table) == 0:
            ante(table, self.players, "pot emptied: everyone antes again")

    def new_deal(self) -> None:
        ensure(self.bettor >= len(self.players), "RULES A12: every player bets once before the deal passes")
        self.dealer = (self.dealer + 1) % len(self.players)
        self.deal += 1
        self.hands, self.bettor, self.bet, self.turned, self.cards_out = {}, 0, None, None, 0

    def prompt(self) -> Prompt:
        if self.dealing:
            to = self.next_hand()
            return Prompt(Step.CARD, to, ("card",), f"deal a card face down to {to}")
        seat = self.current
        if seat is None:
            return Prompt(Step.SHUFFLE, "dealer", ("new-deal",), "everyone has bet: the deal passes left")
        if self.bet is None:
            return Prompt(Step.DECIDE, seat, ("bet", "forfeit"), f"{seat}: bet up to the pot or forfeit 1")
        if self.turned is None:
            return Prompt(Step.CARD, "dealer", ("card",), "turn the top card of the stock")
        if self.needs_show():
            return Prompt(Step.DECIDE, seat, ("show",), f"{seat}: show the card that beats it, or the hand")
        return Prompt(Step.SETTLE, "dealer", ("settle",), "pay or collect the bet")

    def card_operation(self, card: Card) -> Operation:
        return PoolCard(card)

    def auto_operation(self) -> Operation | None:
        step = self.prompt().step
        if step is Step.SETTLE:
            return PoolSettle()
        if step is Step.SHUFFLE:
            return PoolNewDeal()
        return None

    def to_json(self) -> dict[str, Any]:
        return {"game": POOL, "players": list(self.players), "dealer": self.players[self.dealer],
                "deal": self.deal, "hand_size": self.hand_size, "to_bet": self.current, "bet": self.bet,
                "turned": None if self.turned is None else self.turned.code,
                "hands": {s: len(h) for s, h in sorted(self.hands.items())},
                "history": self.history, "prompt": self.prompt().to_json()}


def ante(table: TableState, players: tuple[str, ...], reason: str) -> None:
    """RULES A12/A13: every player puts one chip in the pot."""
    for seat in players:
        table.ledger.verify_transfer(seat, POOL_POT, 1)
    for seat in players:
        table.ledger.transfer(seat, POOL_POT, 1, f"high-card pool ante: {reason}")


def pool(table: TableState) -> HighCardPool:
    game = table.games.get(POOL)
    ensure(isinstance(game, HighCardPool), "no high-card pool game here (start one with pool.new)")
    assert isinstance(game, HighCardPool)
    return game


@register_operation
@dataclass(frozen=True)
class NewHighCardPool(Operation):
    """Seats in order around the table; ``dealer`` won the draw for the first deal. Everyone antes."""

    kind: ClassVar[str] = "pool.new"
    players: tuple[str, ...]
    dealer: str
    hand_size: int = 5

    def apply(self, table: TableState) -> None:
        ensure(2 <= len(self.players) <= 10, f"RULES A12: 2 to 10 players, not {len(self.players)}")
        ensure(len(set(self.players)) == len(self.players), "each player sits once")
        ensure(self.dealer in self.players, f"the dealer {self.dealer!r} is not one of the players")
        ensure(self.hand_size in (4, 5), f"RULES A12: five cards each (some deal four), not {self.hand_size}")
        ensure(self.hand_size == 4 or len(self.players) <= 8,
               "RULES A12: with more than eight players deal four cards each")
        ensure(table.ledger.balance(POOL_POT) == 0, "the pot from an earlier game is not empty")
        ante(table, self.players, "start of the game")
        table.games[POOL] = HighCardPool(self.players, self.hand_size, self.players.index(self.dealer))


@register_operation
@dataclass(frozen=True)
class PoolCard(Operation):
    kind: ClassVar[str] = "pool.card"
    card: Card

    def apply(self, table: TableState) -> None:
        pool(table).enter_card(self.card)


@register_operation
@dataclass(frozen=True)
class PoolBet(Operation):
    kind: ClassVar[str] = "pool.bet"
    seat: str
    amount: int

    def apply(self, table: TableState) -> None:
        pool(table).place_bet(table, self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class PoolForfeit(Operation):
    kind: ClassVar[str] = "pool.forfeit"
    seat: str

    def apply(self, table: TableState) -> None:
        pool(table).forfeit(table, self.seat)


@register_operation
@dataclass(frozen=True)
class PoolShow(Operation):
    kind: ClassVar[str] = "pool.show"
    seat: str
    cards: tuple[Card, ...]

    def apply(self, table: TableState) -> None:
        pool(table).show(self.seat, self.cards)


@register_operation
@dataclass(frozen=True)
class PoolSettle(Operation):
    kind: ClassVar[str] = "pool.settle"

    def apply(self, table: TableState) -> None:
        pool(table).settle(table)


@register_operation
@dataclass(frozen=True)
class PoolNewDeal(Operation):
    kind: ClassVar[str] = "pool.new-deal"

    def apply(self, table: TableState) -> None:
        pool(table).new_deal()

