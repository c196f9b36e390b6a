"""In-between (acey-deucey), the pot game also called red dog (RULES A13).

Everyone antes one chip to the pot. On each turn the dealer turns two cards; the player bets from
one chip up to the whole pot, and a third card strictly between the two (aces high only) wins the
bet from the pot; outside, or equal to either, the bet goes into the pot. Two **consecutive** cards
lose at once and a **pair** wins at once, with no third card: the reading of RULES A13 is that the
player loses the 1-chip minimum and wins a fixed 2 chips (3 in some games); both are house options.

>>> from dealer.core.table_state import TableState, TransferChips
>>> table = TableState()
>>> for seat in ("ann", "bob"):
...     table.apply(TransferChips("cage", seat, 20, "buy-in"))
>>> table.apply(NewInBetween(players=("ann", "bob"), dealer="bob"))
>>> game = table.games["in-between"]
>>> for code in ("2S", "AH"):  # acey-deucey, the widest spread
...     table.apply(game.card_operation(Card.parse(code)))
>>> table.apply(InBetweenBet("ann", 2))
>>> table.apply(game.card_operation(Card.parse("9C")))
>>> table.apply(game.auto_operation())
>>> game.history[-1]["result"], game.history[-1]["net"]
('won', 2)
>>> table.ledger.balance("ann"), table.ledger.balance(POT)  # the pot emptied: all ante again
(20, 2)
>>> game.prompt().who
'bob'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from dealer.core.cards import Card
from dealer.core.games.base import Prompt, Step
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.table_state import TableState

__all__ = ["InBetween", "InBetweenBet", "InBetweenCard", "InBetweenRules", "InBetweenSettle",
           "InBetweenShuffle", "NewInBetween", "first_dealer"]

GAME_KEY = "in-between"
POT = "in-between-pot"
BETS = "in-between-bets"
DECK = 52


@dataclass(frozen=True)
class InBetweenRules:
    pair_win: int = 2  # RULES A13: 2 chips (3 in some games), from the pot
    consecutive_loss: int = 1  # RULES A13 reading: the minimum 1-chip stake goes to the pot
    min_bet: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"pair_win": self.pair_win, "consecutive_loss": self.consecutive_loss,
                "min_bet": self.min_bet, "aces": "high only"}


def _high(card: Card) -> int:
    assert card.rank is not None
    return card.rank.high


@dataclass
class InBetween:
    name: ClassVar[str] = GAME_KEY

    players: tuple[str, ...] = ()
    rules: InBetweenRules = field(default_factory=InBetweenRules)
    dealer: int = 0
    round: int = 1
    turns_done: int = 0  # turns played this round (each player once, the dealer last)
    cards: list[Card] = field(default_factory=list)
    bet: int | None = None
    cards_out: int = 0  # since the last shuffle
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def player(self) -> str:
        """Whose turn: from the dealer's left round to the dealer."""
        n = len(self.players)
        return self.players[(self.dealer + 1 + self.turns_done) % n]

    @property
    def kind_of_spread(self) -> str | None:
        if len(self.cards) < 2:
            return None
        a, b = sorted((_high(self.cards[0]), _high(self.cards[1])))
        return "pair" if a == b else "consecutive" if b == a + 1 else "spread"

    @property
    def decided(self) -> bool:
        return self.kind_of_spread in ("pair", "consecutive") or len(self.cards) == 3

    def verify_card(self, card: Card) -> None:
        ensure(card.rank is not None,
               f"RULES A13: cards are turned face up; need the face, not {card.code}")
        ensure(not self.decided, "RULES A13: the turn is decided; settle it")
        ensure(len(self.cards) < 2 or self.bet is not None,
               "RULES A13: the player bets before the third card is turned")
        ensure(self.cards_out < DECK, "the pack is used up; shuffle")

    def enter_card(self, card: Card) -> None:
        self.verify_card(card)
        self.cards.append(card)
        self.cards_out += 1

    def verify_bet(self, table: TableState, seat: str, amount: int) -> None:
        ensure(seat == self.player, f"RULES A13: it is {self.player}'s turn, not {seat}'s")
        ensure(self.kind_of_spread == "spread" and self.bet is None,
               "RULES A13: a bet is made once two unequal, non-consecutive cards are face up")
        pot = table.ledger.balance(POT)
        ensure(isinstance(amount, int) and self.rules.min_bet <= amount <= pot,
               f"RULES A13: a bet is at least {self.rules.min_bet} chip and at most the pot ({pot}), "
               f"not {amount!r}")

    def place_bet(self, table: TableState, seat: str, amount: int) -> None:
        self.verify_bet(table, seat, amount)
        table.ledger.transfer(seat, BETS, amount, "in-between bet")
        self.bet = amount

    def settle(self, table: TableState) -> None:
        ensure(self.decided, "RULES A13: the turn is not decided yet")
        seat, kind = self.player, self.kind_of_spread
        pot = table.ledger.balance(POT)
        if kind == "pair":
            amount = min(self.rules.pair_win, pot)
            table.ledger.transfer(POT, seat, amount, "in-between pair: fixed win, no third card")
            result, net = "pair", amount
        elif kind == "consecutive":
            amount = self.rules.consecutive_loss
            table.ledger.transfer(seat, POT, amount, "in-between consecutive: automatic loss")
            result, net = "consecutive", -amount
        else:
            assert self.bet is not None
            lo, hi = sorted((_high(self.cards[0]), _high(self.cards[1])))
            if lo < _high(self.cards[2]) < hi:
                table.ledger.transfer(BETS, seat, self.bet, "in-between: bet back")
                table.ledger.transfer(POT, seat, self.bet, "in-between: won from the pot")
                result, net = "won", self.bet
            else:
                table.ledger.transfer(BETS, POT, self.bet, "in-between: bet to the pot")
                result, net = "lost", -self.bet
        self.history.append({"round": self.round, "seat": seat, "cards": [c.code for c in self.cards],
                             "bet": self.bet, "result": result, "net": net})
        self.cards, self.bet = [], None
        if table.ledger.balance(POT) == 0:
            _ante(table, self.players, "the pot emptied")
        self.turns_done += 1
        if self.turns_done == len(self.players):  # RULES A13: the deal passes left
            self.turns_done = 0
            self.dealer = (self.dealer + 1) % len(self.players)
            self.round += 1

    def shuffle(self) -> None:
        ensure(not self.cards, "finish the turn before shuffling")
        self.cards_out = 0

    def prompt(self) -> Prompt:
        if self.decided:
            return Prompt(Step.SETTLE, "dealer", ("settle",), f"{self.kind_of_spread}: settle")
        if not self.cards and DECK - self.cards_out < 3:
            return Prompt(Step.SHUFFLE, "dealer", ("shuffle",), "too few cards for a turn: shuffle")
        if len(self.cards) == 2 and self.bet is None:
            return Prompt(Step.DECIDE, self.player, ("bet",), f"{self.player}: bet 1 up to the pot")
        which = "the third card" if len(self.cards) == 2 else "an outer card"
        return Prompt(Step.CARD, self.player, ("card",), f"turn {which} for {self.player}")

    def card_operation(self, card: Card) -> Operation:
        return InBetweenCard(card)

    def auto_operation(self) -> Operation | None:
        step = self.prompt().step
        if step is Step.SETTLE:
            return InBetweenSettle()
        if step is Step.SHUFFLE:
            return InBetweenShuffle()
        return None

    def to_json(self) -> dict[str, Any]:
        return {"game": GAME_KEY, "rules": self.rules.to_json(), "players": list(self.players),
                "dealer": self.players[self.dealer], "round": self.round, "to_play": self.player,
                "cards": [c.code for c in self.cards], "spread": self.kind_of_spread, "bet": self.bet,
                "cards_left": DECK - self.cards_out, "history": self.history,
                "prompt": self.prompt().to_json()}


def first_dealer(draw: dict[str, Card]) -> str:
    """RULES A12/A13: one card face up to each player; the highest (aces high) deals first.

    >>> first_dealer({"ann": Card.parse("KS"), "bob": Card.parse("AD"), "cy": Card.parse("2H")})
    'bob'
    """
    for card in draw.values():
        ensure(card.rank is not None, f"the draw for the deal is face up; need the face, not {card.code}")
    ensure(len(draw) >= 2, "the draw for the first deal needs at least two players")
    best = max(_high(c) for c in draw.values())
    top = sorted(seat for seat, c in draw.items() if _high(c) == best)
    ensure(len(top) == 1, f"{' and '.join(top)} tie for the highest card; they draw again")
    return top[0]


def _ante(table: TableState, players: tuple[str, ...], reason: str) -> None:
    for seat in players:
        table.ledger.verify_transfer(seat, POT, 1)
    for seat in players:
        table.ledger.transfer(seat, POT, 1, f"in-between ante: {reason}")


def in_between(table: TableState) -> InBetween:
    game = table.games.get(GAME_KEY)
    ensure(isinstance(game, InBetween), "no in-between game here (start one with inbetween.new)")
    assert isinstance(game, InBetween)
    return game


@register_operation
@dataclass(frozen=True)
class NewInBetween(Operation):
    """Seats in order around the table; ``dealer`` won the draw. Everyone antes one chip."""

    kind: ClassVar[str] = "inbetween.new"
    players: tuple[str, ...]
    dealer: str
    pair_win: int = 2
    consecutive_loss: int = 1
    min_bet: int = 1

    def apply(self, table: TableState) -> None:
        ensure(2 <= len(self.players) <= 10, f"RULES A13: 2 to 10 players, not {len(self.players)}")
        ensure(len(set(self.players)) == len(self.players), "each player sits once")
        ensure(self.dealer in self.players, f"the dealer {self.dealer!r} is not one of the players")
        ensure(self.pair_win >= 0 and self.consecutive_loss >= 0 and self.min_bet >= 1,
               "in-between amounts are whole chips (pair win, consecutive loss >= 0, minimum bet >= 1)")
        ensure(table.ledger.balance(POT) == 0, "the pot from an earlier game is not empty")
        _ante(table, self.players, "start of the game")
        rules = InBetweenRules(self.pair_win, self.consecutive_loss, self.min_bet)
        table.games[GAME_KEY] = InBetween(self.players, rules, self.players.index(self.dealer))


@register_operation
@dataclass(frozen=True)
class InBetweenCard(Operation):
    kind: ClassVar[str] = "inbetween.card"
    card: Card

    def apply(self, table: TableState) -> None:
        in_between(table).enter_card(self.card)


@register_operation
@dataclass(frozen=True)
class InBetweenBet(Operation):
    kind: ClassVar[str] = "inbetween.bet"
    seat: str
    amount: int

    def apply(self, table: TableState) -> None:
        in_between(table).place_bet(table, self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class InBetweenSettle(Operation):
    kind: ClassVar[str] = "inbetween.settle"

    def apply(self, table: TableState) -> None:
        in_between(table).settle(table)


@register_operation
@dataclass(frozen=True)
class InBetweenShuffle(Operation):
    kind: ClassVar[str] = "inbetween.shuffle"

    def apply(self, table: TableState) -> None:
        in_between(table).shuffle()
