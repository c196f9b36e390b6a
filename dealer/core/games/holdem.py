"""Texas hold'em and omaha for a home game: blinds, betting bookkeeping, board, showdown (RULES B3-B5).

Live mode: the dealer (or camera) reports hole cards and board cards, and each player's action; the
engine checks every action against the betting structure and keeps the chips (table stakes: a
player can bet only the chips in front of him when the hand starts). At the showdown it finds each
player's best hand (omaha: exactly two hole cards and three board cards), builds the side pots from
the all-in amounts and pays them, splitting ties with the odd-chip rule of the house.

>>> from dealer.core.table_state import TableState, TransferChips
>>> from dealer.core.cards import parse_cards
>>> table = TableState()
>>> for seat in ("a", "b", "c"):
...     table.apply(TransferChips("cage", seat, 100, "buy-in"))
>>> table.apply(NewHoldemHand(seats=("a", "b", "c"), button="a", small_blind=1, big_blind=2))
>>> hand = table.games["holdem"]
>>> hand.to_act, hand.current_bet
('a', 2)
>>> table.apply(Act("a", "raise", 6)); table.apply(Act("b", "fold")); table.apply(Act("c", "call"))
>>> hand.street, hand.pot
('flop', 13)
>>> table.apply(BoardCards(parse_cards("2C 7D KH")))
>>> table.apply(Act("a", "bet", 10))
Traceback (most recent call last):
...
dealer.core.errors.IllegalOperation: RULES B3: nobody may act out of turn: it is c's turn, not a's
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, ClassVar

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation import HandValue, evaluate, omaha_best
from dealer.core.games.base import Prompt, Step
from dealer.core.games.holdem_pots import OddChip, award, side_pots
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.table_state import TableState

__all__ = ["Act", "BoardCards", "HoleCards", "HoldemHand", "NewHoldemHand", "Showdown", "Structure"]

GAME_KEY = "holdem"
POT = "holdem-pot"
STREETS = ("preflop", "flop", "turn", "river", "showdown")
BOARD_AFTER = {"flop": 3, "turn": 4, "river": 5}


class Structure(enum.Enum):
    LIMIT = "limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"


@dataclass
class HoldemHand:
    """One hand of hold'em or omaha (see the module docs). Seats are listed clockwise."""

    name: ClassVar[str] = GAME_KEY
    seats: tuple[str, ...]
    button: str
    variant: str = "holdem"
    structure: Structure = Structure.NO_LIMIT
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    small_bet: int = 0  # limit: defaults to the big blind; the big bet is double (RULES B3)
    raise_cap: int | None = None  # limit: 3 raises by default (RULES B3)
    odd_chip: OddChip = OddChip.FIRST_LEFT_OF_BUTTON
    stacks: dict[str, int] = field(default_factory=dict)
    street: str = "preflop"
    committed: dict[str, int] = field(default_factory=dict)  # whole hand
    this_round: dict[str, int] = field(default_factory=dict)
    folded: set[str] = field(default_factory=set)
    all_in: set[str] = field(default_factory=set)
    acted: set[str] = field(default_factory=set)
    to_act: str | None = None
    current_bet: int = 0
    last_raise: int = 0
    raises: int = 0
    board: list[Card] = field(default_factory=list)
    holes: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    # ---- derived -----------------------------------------------------------------------------------
    @property
    def pot(self) -> int:
        return sum(self.committed.values())

    @property
    def in_hand(self) -> list[str]:
        return [s for s in self.seats if s not in self.folded]

    @property
    def can_still_act(self) -> list[str]:
        return [s for s in self.in_hand if s not in self.all_in]

    def _left_of(self, seat: str) -> list[str]:
        i = self.seats.index(seat)
        return [self.seats[(i + k) % len(self.seats)] for k in range(1, len(self.seats) + 1)]

    def bet_size(self) -> int:
        small = self.small_bet or self.big_blind
        return small if self.street in ("preflop", "flop") else 2 * small

    # ---- start ---------------------------------------------------------------------------------------
    def start(self, table: TableState) -> None:
        ensure(len(set(self.seats)) == len(self.seats) >= 2, "RULES B4: a hand needs two or more players")
        ensure(self.button in self.seats, f"the button {self.button!r} is not at a seat")
        ensure(0 < self.small_blind <= self.big_blind, "blinds need 0 < small blind <= big blind")
        if self.structure is Structure.LIMIT and self.raise_cap is None:
            self.raise_cap = 3
        self.stacks = {s: table.ledger.balance(s) for s in self.seats}
        for s in self.seats:
            self.committed[s] = self.this_round[s] = 0
        if self.ante:
            for s in self.seats:
                self._put(table, s, min(self.ante, self.stacks[s]), "ante", to_round=False)
        order = self._left_of(self.button)
        if len(self.seats) == 2:  # RULES B4 [STD]: heads-up, the button posts the small blind
            sb, bb = self.button, order[0]
        else:
            sb, bb = order[0], order[1]
        self._put(table, sb, min(self.small_blind, self.stacks[sb]), "small blind")
        self._put(table, bb, min(self.big_blind, self.stacks[bb]), "big blind")
        self.current_bet, self.last_raise = self.big_blind, self.big_blind
        # RULES B4: pre-flop action starts under the gun, left of the big blind
        self.to_act = self._next_actor(bb, include_start=False)

    def _put(self, table: TableState, seat: str, amount: int, why: str, to_round: bool = True) -> None:
        table.ledger.transfer(seat, POT, amount, f"{self.variant}: {why}")
        self.stacks[seat] -= amount
        self.committed[seat] += amount
        if to_round:
            self.this_round[seat] += amount
        if self.stacks[seat] == 0:
            self.all_in.add(seat)
        self.log.append({"street": self.street, "seat": seat, "action": why, "amount": amount})

    def _next_actor(self, after: str, include_start: bool) -> str | None:
        order = ([after] if include_start else []) + self._left_of(after)
        for s in order:
            if s in self.can_still_act and (s not in self.acted or self.this_round[s] < self.current_bet):
                return s
        return None

    # ---- actions -------------------------------------------------------------------------------------
    def verify_act(self, seat: str, action: str, amount: int | None) -> int:
        """Check an action; return the chips it puts in (RULES B3)."""
        ensure(self.street in STREETS[:4] and self.result is None, "the betting is over for this hand")
        ensure(self._board_ready(), f"deal the {self.street} before betting on it")
        ensure(seat == self.to_act,
               f"RULES B3: nobody may act out of turn: it is {self.to_act}'s turn, not {seat}'s")
        owed = self.current_bet - self.this_round[seat]
        stack = self.stacks[seat]
        if action == "fold":
            return 0
        if action == "check":
            ensure(owed == 0, f"RULES B3: a check is allowed only when nobody has bet; {seat} owes {owed}")
            return 0
        if action == "call":
            ensure(owed > 0, f"nothing to call: {seat} may check")
            return min(owed, stack)
        ensure(action in ("bet", "raise", "all-in"), f"unknown action {action!r}: expected fold, check, "
                                                      "call, bet, raise or all-in")
        target = self.this_round[seat] + stack if action == "all-in" else amount
        ensure(target is not None, f"RULES B3: a {action} names the total it makes the bet")
        assert target is not None
        if action == "bet":
            ensure(self.current_bet == 0, "RULES B3: there is a bet already: raise instead")
        if action == "raise":
            ensure(self.current_bet > 0, "RULES B3: nobody has bet: bet instead")
        put = target - self.this_round[seat]
        ensure(put <= stack, f"RULES B3 (table stakes): {seat} has {stack} chips and cannot put in {put}")
        if action == "all-in" and target <= self.current_bet:
            return put  # an all-in call for less
        increase = target - self.current_bet
        ensure(increase > 0, f"a {action} must make the bet more than {self.current_bet}")
        short_all_in = put == stack and increase < self.last_raise
        if self.structure is Structure.LIMIT:
            size = self.bet_size()
            ensure(increase == size or short_all_in,
                   f"RULES B3: in limit each bet or raise on the {self.street} is {size}, not {increase}")
            if self.current_bet > 0 and self.raise_cap is not None:
                ensure(self.raises < self.raise_cap,
                       f"RULES B3: the betting is capped after {self.raise_cap} raises: call or fold")
        else:
            ensure(increase >= self.last_raise or short_all_in,
                   f"RULES B3: a raise must be at least the previous raise ({self.last_raise}), "
                   f"not {increase}")
            if self.structure is Structure.POT_LIMIT:
                limit = self.pot + owed  # pot incl. this round's bets + the caller's own call
                ensure(increase <= limit, f"RULES B3: pot limit: the most {seat} may raise is {limit} "
                                          f"(to {self.current_bet + limit}), not {increase}")
        return put

    def can_act(self, seat: str, action: str, amount: int | None = None) -> bool:
        try:
            self.verify_act(seat, action, amount)
        except IllegalOperation:
            return False
        return True

    def act(self, table: TableState, seat: str, action: str, amount: int | None) -> None:
        put = self.verify_act(seat, action, amount)
        if action == "fold":
            self.folded.add(seat)
            self.log.append({"street": self.street, "seat": seat, "action": "fold", "amount": 0})
        else:
            before = self.current_bet
            self._put(table, seat, put, action)
            new_total = self.this_round[seat]
            if new_total > before:
                increase = new_total - before
                if increase >= self.last_raise:  # a full raise reopens the betting
                    self.last_raise = increase
                    self.acted = set()
                if before > 0:
                    self.raises += 1
                self.current_bet = new_total
        self.acted.add(seat)
        self._advance(table, seat)

    def _advance(self, table: TableState, seat: str) -> None:
        if len(self.in_hand) == 1:  # RULES B4: the last player takes the pot without showing
            self._finish(table, {self.in_hand[0]: 0})
            return
        self.to_act = self._next_actor(seat, include_start=False)
        if self.to_act is None:
            self._end_round()

    def _end_round(self) -> None:
        i = STREETS.index(self.street)
        self.street = STREETS[i + 1]
        self.this_round = {s: 0 for s in self.seats}
        self.acted, self.current_bet, self.last_raise, self.raises = set(), 0, self.big_blind, 0
        if self.street == "showdown":
            self.to_act = None
            return
        # RULES B4: after the flop, betting starts with the first active player left of the button
        self.to_act = self._next_actor(self.button, include_start=False)
        if self.to_act is not None and len(self.can_still_act) < 2:
            self.to_act = None  # everyone else is all-in: the rest of the board is dealt without betting
        if self.to_act is None and self._board_ready():
            self._end_round()

    def _board_ready(self) -> bool:
        return len(self.board) >= BOARD_AFTER.get(self.street, 0)

    # ---- cards ----------------------------------------------------------------------------------------
    def verify_board(self, cards: tuple[Card, ...]) -> None:
        ensure(self.street in BOARD_AFTER and len(self.board) < BOARD_AFTER[self.street],
               f"no board card is due now (street: {self.street})")
        need = BOARD_AFTER[self.street] - len(self.board)
        ensure(len(cards) == need, f"RULES B4: the {self.street} is {need} card(s), got {len(cards)}")
        self._verify_new_cards(cards)

    def _verify_new_cards(self, cards: tuple[Card, ...]) -> None:
        seen = set(self.board) | {c for h in self.holes.values() for c in h}
        for c in cards:
            ensure(not c.is_back and not c.is_joker, f"{c.code}: the board and hands use a 52-card pack")
            ensure(c not in seen, f"{c.code} is already on the table")
            seen.add(c)

    def deal_board(self, cards: tuple[Card, ...]) -> None:
        self.verify_board(cards)
        self.board.extend(cards)
        if self.to_act is None and self.result is None:
            self._end_round()

    def verify_hole(self, seat: str, cards: tuple[Card, ...]) -> None:
        ensure(seat in self.seats, f"{seat} is not in this hand")
        count = 4 if self.variant == "omaha" else 2
        ensure(len(cards) == count, f"RULES B4/B5: {count} hole cards in {self.variant}, got {len(cards)}")
        ensure(seat not in self.holes, f"{seat}'s hole cards are already known")
        self._verify_new_cards(cards)

    def show_hole(self, seat: str, cards: tuple[Card, ...]) -> None:
        self.verify_hole(seat, cards)
        self.holes[seat] = cards

    # ---- showdown ------------------------------------------------------------------------------------
    def verify_showdown(self) -> None:
        ensure(self.result is None, "the pot was already awarded")
        ensure(self.street == "showdown", "RULES B4: the showdown follows the river betting")
        missing = [s for s in self.in_hand if s not in self.holes]
        ensure(not missing, f"RULES B7: every player still in shows his hand: missing {missing}")

    def showdown(self, table: TableState, lot: tuple[str, ...] = ()) -> None:
        self.verify_showdown()
        values: dict[str, int] = {}
        for s in self.in_hand:
            if self.variant == "omaha":
                values[s] = int(omaha_best(self.holes[s], self.board).value)
            else:
                values[s] = int(evaluate(self.holes[s] + tuple(self.board)))
        self._finish(table, values, lot)

    def _finish(self, table: TableState, values: dict[str, int], lot: tuple[str, ...] = ()) -> None:
        pots = side_pots(self.committed, self.folded)
        order = self._left_of(self.button)
        result = award(pots, values, order, self.odd_chip, lot, self.committed)
        for seat, amount in result.returned.items():
            table.ledger.transfer(POT, seat, amount, f"{self.variant}: uncalled bet returned")
        for seat, amount in result.won.items():
            table.ledger.transfer(POT, seat, amount, f"{self.variant}: pot won")
        self.result = {"won": result.won, "returned": result.returned, "carried": result.carried,
                       "pots": result.pots,
                       "hands": {s: str(evaluate_desc(v)) for s, v in values.items() if v}}
        self.street, self.to_act = "showdown", None

    # ---- Game protocol --------------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        if self.result is not None:
            return Prompt(Step.DONE, "dealer", (), "the hand is over")
        if self.street == "showdown":
            return Prompt(Step.SETTLE, "dealer", ("hole", "showdown"), "show hands and award the pots")
        if not self._board_ready():
            return Prompt(Step.CARD, "board", ("board",), f"deal the {self.street}")
        options = tuple(a for a in ("fold", "check", "call", "bet", "raise", "all-in")
                        if a in ("fold", "all-in", "bet", "raise") or self.can_act(self.to_act or "", a))
        return Prompt(Step.DECIDE, self.to_act, options, f"{self.to_act} to act")

    def card_operation(self, card: Card) -> Operation:
        return BoardCards((card,))

    def auto_operation(self) -> Operation | None:
        return Showdown() if self.street == "showdown" and self.result is None else None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.variant, "structure": self.structure.value, "street": self.street,
                "button": self.button, "to_act": self.to_act, "pot": self.pot,
                "current_bet": self.current_bet,
                "stacks": self.stacks, "committed": self.committed, "folded": sorted(self.folded),
                "all_in": sorted(self.all_in), "board": [c.code for c in self.board],
                "shown": {s: [c.code for c in h] for s, h in self.holes.items()},
                "log": self.log, "result": self.result, "prompt": self.prompt().to_json()}


def evaluate_desc(value: int) -> str:
    return str(HandValue(value))


def holdem(table: TableState) -> HoldemHand:
    game = table.games.get(GAME_KEY)
    ensure(isinstance(game, HoldemHand), "no hold'em hand at this table (start one with holdem.new-hand)")
    assert isinstance(game, HoldemHand)
    return game


@register_operation
@dataclass(frozen=True)
class NewHoldemHand(Operation):
    kind: ClassVar[str] = "holdem.new-hand"
    seats: tuple[str, ...]
    button: str
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    variant: str = "holdem"
    structure: Structure = Structure.NO_LIMIT
    small_bet: int = 0
    raise_cap: int | None = None
    odd_chip: OddChip = OddChip.FIRST_LEFT_OF_BUTTON

    def apply(self, table: TableState) -> None:
        ensure(self.variant in ("holdem", "omaha"), f"variant is holdem or omaha, not {self.variant!r}")
        previous = table.games.get(GAME_KEY)
        ensure(not isinstance(previous, HoldemHand) or previous.result is not None,
               "the previous hand is not finished")
        hand = HoldemHand(tuple(self.seats), self.button, self.variant, self.structure, self.small_blind,
                          self.big_blind, self.ante, self.small_bet, self.raise_cap, self.odd_chip)
        hand.start(table)
        table.games[GAME_KEY] = hand


@register_operation
@dataclass(frozen=True)
class Act(Operation):
    """fold / check / call / bet / raise / all-in; ``amount`` is the total the bet or raise makes."""

    kind: ClassVar[str] = "holdem.act"
    seat: str
    action: str
    amount: int | None = None

    def apply(self, table: TableState) -> None:
        holdem(table).act(table, self.seat, self.action, self.amount)


@register_operation
@dataclass(frozen=True)
class BoardCards(Operation):
    kind: ClassVar[str] = "holdem.board"
    cards: tuple[Card, ...]

    def apply(self, table: TableState) -> None:
        holdem(table).deal_board(tuple(self.cards))


@register_operation
@dataclass(frozen=True)
class HoleCards(Operation):
    kind: ClassVar[str] = "holdem.hole"
    seat: str
    cards: tuple[Card, ...]

    def apply(self, table: TableState) -> None:
        holdem(table).show_hole(self.seat, tuple(self.cards))


@register_operation
@dataclass(frozen=True)
class Showdown(Operation):
    """Award every pot; ``lot`` is the order drawn by lot when the odd-chip rule is by lot."""

    kind: ClassVar[str] = "holdem.showdown"
    lot: tuple[str, ...] = ()

    def apply(self, table: TableState) -> None:
        holdem(table).showdown(table, tuple(self.lot))
