"""Faro and stuss: the layout, the turns, splits, the hock, calling the turn and the casekeeper.

One deck is dealt face up in **turns**. In faro the first card is the **soda** (it settles
nothing); in every turn after it the first card **loses** and the second **wins** (RULES A5). Bets
sit on the thirteen ranks of the layout and are settled the next time their rank shows: a plain
bet wins when its rank wins, a **coppered** bet wins when its rank loses. When both cards of a
turn share a rank (a **split**) the bank takes half of every bet on that rank; in stuss it takes
all of it and there is no soda (RULES A6). With three cards left a player may **call the turn**:
name the order loser, winner, **hock** (the last card, which settles nothing).

The **casekeeper** counts every card entered and can take back a mis-entered one (:class:`UndoCard`);
a fifth card of a rank is recorded as an integrity event, never an exception.

A stacked deal, live mode (the dealer reports each card):

>>> from dealer.core.table_state import TableState, TransferChips
>>> table = TableState()
>>> table.apply(NewFaroGame())
>>> table.apply(TransferChips("cage", "seat-1", 20, "buy-in"))
>>> table.apply(PlaceBet("seat-1", "7", 5))
>>> for code in ("KS", "7H", "2C"):  # soda, losing card, winning card
...     table.apply(FaroCard(Card.parse(code)))
>>> game = table.games["faro"]
>>> game.prompt().step.value
'settle'
>>> table.apply(game.auto_operation())
>>> table.ledger.balance("seat-1"), game.casekeeper.left(Rank.SEVEN)
(15, 3)
"""

from __future__ import annotations

import copy
import enum
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from dealer.core.analysis.faro_analysis import flat_bet
from dealer.core.cards import Card, Rank
from dealer.core.errors import IllegalOperation, MoneyError
from dealer.core.games.base import Prompt, Step
from dealer.core.ledger import Ledger
from dealer.core.money import EVEN, Ratio, Rounding, pay
from dealer.core.operations import Operation, can, ensure, register_operation
from dealer.core.table_state import TableState

__all__ = [
    "CallTheTurn", "Casekeeper", "FaroCard", "FaroGame", "FaroRules", "FaroVariant", "MoveBet",
    "NewFaroDeal", "NewFaroGame", "PlaceBet", "Role", "SettleTurn", "TransferPlan", "UndoCard",
    "WithdrawBet",
    "parse_rank",
]

GAME_KEY = "faro"
LAYOUT = "faro-layout"  # ledger account holding the chips that lie on the layout
DECK = 52
PER_RANK = 4

_RANK_BY_CODE = {r.code: r for r in Rank} | {"T": Rank.TEN, "1": Rank.ACE}


def parse_rank(code: str) -> Rank:
    """A layout rank from its code (``A``, ``2``..``10`` or ``T``, ``J``, ``Q``, ``K``)."""
    rank = _RANK_BY_CODE.get(str(code).strip().upper())
    if rank is None:
        ensure(False, f"bad rank {code!r}: expected A, 2-10 (or T), J, Q or K")
    assert rank is not None
    return rank


class FaroVariant(enum.Enum):
    FARO = "faro"
    STUSS = "stuss"


class Role(enum.Enum):
    """What a card does in its turn."""

    SODA = "soda"
    LOSER = "loser"
    WINNER = "winner"
    HOCK = "hock"


@dataclass(frozen=True)
class FaroRules:
    """House rules. Defaults follow RULES A5 (faro) or A6 (stuss, via :meth:`stuss`)."""

    variant: FaroVariant = FaroVariant.FARO
    flat_payout: Ratio = EVEN  # RULES A5 [STD]: the seed never states it; even money
    split_take: Ratio = Ratio(1, 2)  # share of a split bet the bank takes (stuss: all of it)
    split_rounding: Rounding = Rounding.DOWN  # an odd chip of a halved bet stays with the player
    calling_the_turn: bool = True  # stuss default: off ("no elaborate side bets")
    call_payout: Ratio = Ratio(4, 1)
    cat_hop_payout: Ratio = Ratio(2, 1)
    min_bet: int = 1
    max_bet: int | None = None  # per layout spot (rank and copper) per seat
    bank: str = "house"

    def __post_init__(self) -> None:
        ensure(self.min_bet >= 1, f"the minimum bet is at least 1 chip, not {self.min_bet}")
        ensure(self.max_bet is None or self.max_bet >= self.min_bet,
               f"the maximum bet {self.max_bet} is below the minimum {self.min_bet}")
        ensure(not (self.calling_the_turn and self.variant is FaroVariant.STUSS),
               "RULES A6: stuss has no soda, so 52 cards make 26 two-card turns and three cards are "
               "never left between turns; calling the turn cannot be offered")
        ensure(self.split_take.fraction <= 1, f"the bank cannot take more than the bet on a split "
               f"(split take {self.split_take})")

    @classmethod
    def stuss(cls, **changes: Any) -> FaroRules:
        """RULES A6: no soda, the bank takes the whole bet on a split, no side bets."""
        base: dict[str, Any] = {"variant": FaroVariant.STUSS, "split_take": Ratio(1, 1),
                                "calling_the_turn": False}
        return cls(**(base | changes))

    @property
    def soda(self) -> bool:
        return self.variant is FaroVariant.FARO

    @property
    def hock(self) -> bool:
        """With a soda, 51 cards make 25 turns and one card over: the hock."""
        return self.soda

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant.value, "flat_payout": str(self.flat_payout),
                "split_take": str(self.split_take), "split_rounding": self.split_rounding.value,
                "calling_the_turn": self.calling_the_turn, "call_payout": str(self.call_payout),
                "cat_hop_payout": str(self.cat_hop_payout), "min_bet": self.min_bet,
                "max_bet": self.max_bet, "bank": self.bank, "soda": self.soda, "hock": self.hock}


# ---- casekeeper ---------------------------------------------------------------------------------

@dataclass
class Casekeeper:
    """The abacus: one spindle per rank, four counters each (RULES A5, H6).

    ``out[rank]`` counts every card entered, so a fifth card of a rank shows as ``out == 5`` and
    ``excess == 1`` rather than disappearing.

    >>> keeper = Casekeeper()
    >>> keeper.record(Card.parse("QS")), keeper.record(Card.parse("QH"))
    (True, True)
    >>> keeper.left(Rank.QUEEN), keeper.cards_left
    (2, 50)
    >>> keeper.unrecord(Card.parse("QH")); keeper.left(Rank.QUEEN)
    3
    """

    out: Counter[Rank] = field(default_factory=Counter)

    def record(self, card: Card) -> bool:
        """Move a counter for ``card``; False when its rank already had all four out."""
        assert card.rank is not None
        self.out[card.rank] += 1
        return self.out[card.rank] <= PER_RANK

    def unrecord(self, card: Card) -> None:
        assert card.rank is not None
        ensure(self.out[card.rank] > 0, f"the casekeeper shows no {card.rank.code} to take back")
        self.out[card.rank] -= 1

    def left(self, rank: Rank) -> int:
        return max(PER_RANK - self.out[rank], 0)

    def excess(self, rank: Rank) -> int:
        return max(self.out[rank] - PER_RANK, 0)

    def remaining(self) -> dict[Rank, int]:
        return {rank: self.left(rank) for rank in Rank}

    @property
    def cards_left(self) -> int:
        """Cards the casekeeper says are still in the box."""
        return sum(self.remaining().values())

    def split_probability(self) -> Fraction:
        """Chance the next two cards (one turn) share a rank, from the counts alone."""
        n = self.cards_left
        if n < 2:
            return Fraction(0)
        pairs = sum(k * (k - 1) for k in self.remaining().values())
        return Fraction(pairs, n * (n - 1))

    def to_json(self) -> dict[str, Any]:
        """Data a big-screen display draws: 13 spindles of four beads, ace to king."""
        spindles = [{"rank": rank.code, "out": min(self.out[rank], PER_RANK), "left": self.left(rank),
                     "excess": self.excess(rank),
                     "beads": [i < self.out[rank] for i in range(PER_RANK)]} for rank in Rank]
        split = self.split_probability()
        return {"spindles": spindles, "cards_left": self.cards_left,
                "cards_out": sum(self.out.values()),
                "split_probability": {"exact": str(split), "value": float(split)}}


# ---- state --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One card as entered: its role in the turn, or ``None`` for a card after the box was empty."""

    card: Card
    role: Role | None
    fifth: bool = False


@dataclass
class FaroGame:
    """The state of a faro (or stuss) table. Change it only through operations."""

    name: ClassVar[str] = GAME_KEY

    rules: FaroRules = field(default_factory=FaroRules)
    deal: int = 1
    casekeeper: Casekeeper = field(default_factory=Casekeeper)
    bets: dict[tuple[str, Rank, bool], int] = field(default_factory=dict)
    calls: dict[tuple[str, tuple[Rank, Rank, Rank]], int] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)  # every card of this deal, in order
    turn: list[Entry] = field(default_factory=list)  # the cards of the turn not yet settled
    turns_settled: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    integrity: list[dict[str, Any]] = field(default_factory=list)
    remainders: Fraction = Fraction(0)  # exact chips rounding moved to the house (< 0: to players)

    # ---- where the deal stands --------------------------------------------------------------
    @property
    def placed(self) -> int:
        """Cards of this deal that took a place in a turn (the box held 52)."""
        return sum(1 for e in self.entries if e.role is not None)

    @property
    def box_left(self) -> int:
        """Cards physically left in the box."""
        return DECK - self.placed

    def turn_roles(self) -> tuple[Role, ...]:
        """The roles of the cards of the current turn, from how many cards it started with."""
        started_with = self.box_left + sum(1 for e in self.turn if e.role is not None)
        if self.rules.soda and started_with == DECK:
            return (Role.SODA, Role.LOSER, Role.WINNER)
        if self.rules.hock and started_with == 3:
            return (Role.LOSER, Role.WINNER, Role.HOCK)
        return (Role.LOSER, Role.WINNER)

    @property
    def turn_complete(self) -> bool:
        return bool(self.turn) and len(self.turn) == len(self.turn_roles())

    @property
    def deal_over(self) -> bool:
        return self.box_left == 0 and not self.turn

    @property
    def betting_open(self) -> bool:
        return not self.turn and self.box_left > 0

    def next_role(self) -> Role | None:
        if self.box_left == 0 or self.turn_complete:
            return None
        return self.turn_roles()[len(self.turn)]

    # ---- cards ------------------------------------------------------------------------------
    def verify_card(self, card: Card) -> None:
        ensure(not card.is_back and not card.is_joker and card.rank is not None,
               f"RULES A5: faro is dealt face up and needs the face of every card, not {card.code}")
        ensure(not self.turn_complete,
               "RULES A5: the turn is complete; settle it (or undo a mis-entered card) first")

    def can_card(self, card: Card) -> bool:
        return can(self.verify_card, card)

    def enter_card(self, card: Card) -> None:
        """The next card came out of the box: place it in the turn and move the casekeeper."""
        self.verify_card(card)
        assert card.rank is not None
        role = self.next_role()
        within = self.casekeeper.record(card)
        entry = Entry(card, role, fifth=not within)
        self.entries.append(entry)
        if role is None:
            self._integrity("after-last-card", card,
                            f"{card.code} came out after all {DECK} cards of the deal")
            return
        self.turn.append(entry)
        if not within:
            self._integrity("fifth-card", card,
                            f"{card.code} is card {self.casekeeper.out[card.rank]} of rank "
                            f"{card.rank.code}; a deck holds {PER_RANK}")

    def _integrity(self, kind: str, card: Card, detail: str) -> None:
        self.integrity.append({"kind": kind, "card": card.code, "deal": self.deal,
                               "entry": len(self.entries), "detail": detail, "undone": False})

    def verify_undo(self) -> None:
        ensure(bool(self.entries), "no card has been entered in this deal; nothing to undo")
        last = self.entries[-1]
        ensure(last.role is None or bool(self.turn),
               "RULES A5: the last card's turn is already settled and paid; it cannot be undone")

    def can_undo(self) -> bool:
        return can(self.verify_undo)

    def undo_card(self) -> Card:
        """Take back the last card entered (a mis-read or mis-keyed card)."""
        self.verify_undo()
        entry = self.entries.pop()
        if entry.role is not None:
            self.turn.pop()
        self.casekeeper.unrecord(entry.card)
        for event in self.integrity:
            if event["deal"] == self.deal and event["entry"] == len(self.entries) + 1:
                event["undone"] = True
        return entry.card

    # ---- bets -------------------------------------------------------------------------------
    def _verify_betting(self) -> None:
        ensure(not self.turn, "RULES A5: bets are placed, moved or withdrawn only between turns")
        ensure(self.box_left > 0, "RULES A5: the deal is over; start a new deal before betting")

    def _verify_live_rank(self, rank: Rank) -> None:
        ensure(self.casekeeper.left(rank) > 0,
               f"RULES A5: all four {rank.code}s are out; a bet on a dead card can never be settled")

    def _verify_amount(self, seat: str, rank: Rank, coppered: bool, amount: int) -> None:
        ensure(isinstance(amount, int) and amount >= 1, f"a bet is a whole number of chips >= 1, not "
               f"{amount!r}")
        total = self.bets.get((seat, rank, coppered), 0) + amount
        ensure(total >= self.rules.min_bet, f"the table minimum is {self.rules.min_bet}; {seat} would "
               f"have {total} on {rank.code}")
        ensure(self.rules.max_bet is None or total <= self.rules.max_bet,
               f"the table maximum is {self.rules.max_bet}; {seat} would have {total} on {rank.code}")

    def verify_bet(self, seat: str, rank: Rank, amount: int, coppered: bool = False) -> None:
        self._verify_betting()
        self._verify_live_rank(rank)
        self._verify_amount(seat, rank, coppered, amount)

    def can_bet(self, seat: str, rank: Rank, amount: int, coppered: bool = False) -> bool:
        return can(self.verify_bet, seat, rank, amount, coppered)

    def place_bet(self, table: TableState, seat: str, rank: Rank, amount: int, coppered: bool) -> None:
        self.verify_bet(seat, rank, amount, coppered)
        table.ledger.transfer(seat, LAYOUT, amount, f"faro bet on {_spot(rank, coppered)}")
        key = (seat, rank, coppered)
        self.bets[key] = self.bets.get(key, 0) + amount

    def verify_move(self, seat: str, rank: Rank, coppered: bool, to_rank: Rank, to_coppered: bool,
                    amount: int | None) -> None:
        self._verify_betting()
        have = self.bets.get((seat, rank, coppered), 0)
        ensure(have > 0, f"{seat} has no bet on {_spot(rank, coppered)} to move")
        moving = have if amount is None else amount
        ensure(1 <= moving <= have, f"{seat} can move 1 to {have} chips from {_spot(rank, coppered)}, "
               f"not {moving}")
        ensure((rank, coppered) != (to_rank, to_coppered), "a bet cannot move onto its own spot")
        self._verify_live_rank(to_rank)
        self._verify_amount(seat, to_rank, to_coppered, moving)
        ensure(have - moving == 0 or have - moving >= self.rules.min_bet,
               f"the {have - moving} chips left on {_spot(rank, coppered)} would be under the "
               f"minimum {self.rules.min_bet}")

    def move_bet(self, seat: str, rank: Rank, coppered: bool, to_rank: Rank, to_coppered: bool,
                 amount: int | None) -> None:
        self.verify_move(seat, rank, coppered, to_rank, to_coppered, amount)
        key, to_key = (seat, rank, coppered), (seat, to_rank, to_coppered)
        moving = self.bets[key] if amount is None else amount
        self._take(key, moving)
        self.bets[to_key] = self.bets.get(to_key, 0) + moving

    def verify_withdraw(self, seat: str, rank: Rank, coppered: bool, amount: int | None) -> None:
        self._verify_betting()
        have = self.bets.get((seat, rank, coppered), 0)
        ensure(have > 0, f"{seat} has no bet on {_spot(rank, coppered)} to withdraw")
        taking = have if amount is None else amount
        ensure(1 <= taking <= have, f"{seat} can withdraw 1 to {have} chips, not {taking}")
        ensure(have - taking == 0 or have - taking >= self.rules.min_bet,
               f"the {have - taking} chips left would be under the minimum {self.rules.min_bet}")

    def withdraw_bet(self, table: TableState, seat: str, rank: Rank, coppered: bool,
                     amount: int | None) -> None:
        self.verify_withdraw(seat, rank, coppered, amount)
        key = (seat, rank, coppered)
        taking = self.bets[key] if amount is None else amount
        table.ledger.transfer(LAYOUT, seat, taking, f"faro bet withdrawn from {_spot(rank, coppered)}")
        self._take(key, taking)

    def _take(self, key: tuple[str, Rank, bool], amount: int) -> None:
        self.bets[key] -= amount
        if self.bets[key] == 0:
            del self.bets[key]

    # ---- calling the turn -------------------------------------------------------------------
    def call_offered(self) -> bool:
        """RULES A5: three cards left, not all of one rank, and the casekeeper accounts for them."""
        if not (self.rules.calling_the_turn and self.betting_open and self.box_left == 3):
            return False
        left = [k for k in self.casekeeper.remaining().values() if k]
        return sum(left) == 3 and max(left) < 3

    def verify_call(self, seat: str, order: tuple[Rank, Rank, Rank], amount: int) -> None:
        ensure(self.rules.calling_the_turn, "RULES A6: this house does not offer calling the turn")
        self._verify_betting()
        ensure(self.box_left == 3, f"RULES A5: the turn is called when three cards remain, not "
               f"{self.box_left}")
        remaining = Counter({r: k for r, k in self.casekeeper.remaining().items() if k})
        ensure(sum(remaining.values()) == 3,
               "calling the turn is closed: the casekeeper does not account for the last three cards "
               "(see the integrity events)")
        ensure(max(remaining.values()) < 3,
               "RULES A5 [STD]: all three remaining cards are one rank; no call is offered")
        ensure(len(order) == 3 and Counter(order) == remaining,
               f"RULES A5: a call names the order of the three cards left "
               f"({_ranks(sorted(remaining.elements()))}), not {_ranks(order)}")
        ensure(isinstance(amount, int) and amount >= self.rules.min_bet,
               f"a call is at least the table minimum {self.rules.min_bet}, not {amount!r}")
        total = self.calls.get((seat, order), 0) + amount
        ensure(self.rules.max_bet is None or total <= self.rules.max_bet,
               f"the table maximum is {self.rules.max_bet}")

    def can_call(self, seat: str, order: tuple[Rank, Rank, Rank], amount: int) -> bool:
        return can(self.verify_call, seat, order, amount)

    def call_the_turn(self, table: TableState, seat: str, order: tuple[Rank, Rank, Rank],
                      amount: int) -> None:
        self.verify_call(seat, order, amount)
        table.ledger.transfer(seat, LAYOUT, amount, f"faro call {_ranks(order)}")
        self.calls[(seat, order)] = self.calls.get((seat, order), 0) + amount

    # ---- settlement -------------------------------------------------------------------------
    def verify_settle(self) -> None:
        ensure(self.turn_complete, "RULES A5: a turn is settled once its losing and winning cards are out")

    def can_settle(self) -> bool:
        return can(self.verify_settle)

    def settle(self, table: TableState) -> None:
        """Pay and collect every bet the turn decided; RULES A5 / A6.

        The settlement is planned on a copy first, so a bank that cannot pay (an auctioned bank
        is a player's account) raises before any chip moves.
        """
        self.verify_settle()
        trial = copy.deepcopy(self)
        plan = TransferPlan()
        trial._settle(plan)
        plan.execute(table.ledger)
        self.__dict__.update(trial.__dict__)

    def _settle(self, table: Any) -> None:
        by_role = {e.role: e.card for e in self.turn}
        loser, winner = by_role[Role.LOSER], by_role[Role.WINNER]
        assert loser.rank is not None and winner.rank is not None
        split = loser.rank == winner.rank
        results: list[dict[str, Any]] = []
        for (seat, rank, coppered), stake in sorted(self.bets.items(), key=_bet_order):
            if rank not in (loser.rank, winner.rank):
                continue
            del self.bets[(seat, rank, coppered)]
            if split:
                results.append(self._split(table, seat, rank, coppered, stake))
            else:
                won = (rank == winner.rank) != coppered
                results.append(self._flat(table, seat, rank, coppered, stake, won))
        final = self.box_left == 0
        if final:
            results.extend(self._settle_calls(table))
            for (seat, rank, coppered), stake in sorted(self.bets.items(), key=_bet_order):
                table.ledger.transfer(LAYOUT, seat, stake, "faro: deal over, bet returned")
                results.append({"seat": seat, "bet": _spot(rank, coppered), "stake": stake,
                                "result": "returned", "net": 0})
            self.bets.clear()
        self.turns_settled += 1
        self.history.append({
            "turn": self.turns_settled, "soda": _code(by_role.get(Role.SODA)), "loser": loser.code,
            "winner": winner.code, "hock": _code(by_role.get(Role.HOCK)), "split": split,
            "results": results})
        self.turn = []

    def _flat(self, table: Any, seat: str, rank: Rank, coppered: bool, stake: int,
              won: bool) -> dict[str, Any]:
        spot = _spot(rank, coppered)
        if won:
            win = pay(stake, self.rules.flat_payout)
            self.remainders += win.remainder
            table.ledger.transfer(LAYOUT, seat, stake, f"faro {spot} won: stake back")
            table.ledger.transfer(self.rules.bank, seat, win.amount, f"faro {spot} won")
            return {"seat": seat, "bet": spot, "stake": stake, "result": "won", "net": win.amount}
        table.ledger.transfer(LAYOUT, self.rules.bank, stake, f"faro {spot} lost")
        return {"seat": seat, "bet": spot, "stake": stake, "result": "lost", "net": -stake}

    def _split(self, table: Any, seat: str, rank: Rank, coppered: bool,
               stake: int) -> dict[str, Any]:
        spot = _spot(rank, coppered)
        take = pay(stake, self.rules.split_take, self.rules.split_rounding)
        self.remainders -= take.remainder
        table.ledger.transfer(LAYOUT, self.rules.bank, take.amount, f"faro split on {rank.code}")
        table.ledger.transfer(LAYOUT, seat, stake - take.amount, f"faro split on {rank.code}: rest back")
        return {"seat": seat, "bet": spot, "stake": stake, "result": "split", "net": -take.amount}

    def _settle_calls(self, table: Any) -> list[dict[str, Any]]:
        order = tuple(e.card.rank for e in self.turn)
        out: list[dict[str, Any]] = []
        for (seat, called), stake in sorted(self.calls.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            label = f"call {_ranks(called)}"
            if called == order:
                ratio = self.rules.cat_hop_payout if len(set(called)) == 2 else self.rules.call_payout
                win = pay(stake, ratio)
                self.remainders += win.remainder
                table.ledger.transfer(LAYOUT, seat, stake, f"faro {label} won: stake back")
                table.ledger.transfer(self.rules.bank, seat, win.amount, f"faro {label} won")
                out.append({"seat": seat, "bet": label, "stake": stake, "result": "won", "net": win.amount})
            else:
                table.ledger.transfer(LAYOUT, self.rules.bank, stake, f"faro {label} lost")
                out.append({"seat": seat, "bet": label, "stake": stake, "result": "lost", "net": -stake})
        self.calls.clear()
        return out

    # ---- a new deal -------------------------------------------------------------------------
    def verify_new_deal(self) -> None:
        ensure(self.deal_over or not self.entries,
               f"RULES A5: the deal is not over ({self.box_left} cards left); finish it first")

    def can_new_deal(self) -> bool:
        return can(self.verify_new_deal)

    def new_deal(self) -> None:
        self.verify_new_deal()
        if self.entries:
            self.deal += 1
        self.casekeeper = Casekeeper()
        self.entries, self.turn = [], []
        self.turns_settled = 0
        self.history = []

    # ---- Game protocol ----------------------------------------------------------------------
    def prompt(self) -> Prompt:
        if self.turn_complete:
            return Prompt(Step.SETTLE, "dealer", ("settle", "undo"), "pay and collect the turn")
        if self.deal_over:
            return Prompt(Step.SHUFFLE, "dealer", ("new-deal",), "the box is empty: shuffle for a new deal")
        role = self.next_role()
        assert role is not None
        options: tuple[str, ...] = ("card",) + (("undo",) if self.entries else ())
        if self.betting_open:
            options += ("bet", "move", "withdraw") + (("call",) if self.call_offered() else ())
        text = {Role.SODA: "turn the soda", Role.LOSER: "turn the losing card",
                Role.WINNER: "turn the winning card", Role.HOCK: "turn the hock"}[role]
        if self.betting_open:
            text = "bets open; " + text
        return Prompt(Step.CARD, "dealer", options, text)

    def card_operation(self, card: Card) -> Operation:
        return FaroCard(card)

    def auto_operation(self) -> Operation | None:
        """Settlement and the next deal are automatic; bets and cards are not."""
        if self.turn_complete:
            return SettleTurn()
        if self.deal_over:
            return NewFaroDeal()
        return None

    def layout_edges(self) -> dict[str, float]:
        """House edge now, per rank still live, for a flat bet left until it is settled."""
        if not self.betting_open:
            return {}
        take = self.rules.split_take.fraction
        edges: dict[str, float] = {}
        for rank, k in self.casekeeper.remaining().items():
            if not k:
                continue
            try:
                bet = flat_bet(k, self.box_left, hock=self.rules.hock,
                               soda_due=self.rules.soda and self.box_left == DECK)
            except ValueError:  # the counts do not add up (integrity fault): no figure
                return {}
            edges[rank.code] = round(float(bet.edge(self.rules.flat_payout, take)), 6)
        return edges

    def to_json(self) -> dict[str, Any]:
        by_role: dict[Role, list[str]] = {role: [] for role in Role}
        for entry in self.entries:
            if entry.role is not None:
                by_role[entry.role].append(entry.card.code)
        role = self.next_role()
        return {
            "game": self.rules.variant.value,
            "rules": self.rules.to_json(),
            "deal": self.deal,
            "turn": self.turns_settled + 1,
            "next": None if role is None else role.value,
            "betting_open": self.betting_open,
            "box_left": self.box_left,
            "soda": by_role[Role.SODA][0] if by_role[Role.SODA] else None,
            "losers": by_role[Role.LOSER],
            "winners": by_role[Role.WINNER],
            "hock": by_role[Role.HOCK][0] if by_role[Role.HOCK] else None,
            "current_turn": [{"card": e.card.code, "role": e.role.value if e.role else None}
                             for e in self.turn],
            "casekeeper": self.casekeeper.to_json(),
            "bets": [{"seat": s, "rank": r.code, "coppered": c, "amount": a}
                     for (s, r, c), a in sorted(self.bets.items(), key=_bet_order)],
            "calls": [{"seat": s, "order": [r.code for r in o], "amount": a}
                      for (s, o), a in sorted(self.calls.items())],
            "call_offered": self.call_offered(),
            "layout_edges": self.layout_edges(),
            "history": self.history,
            "integrity": self.integrity,
            "rounding_to_house": str(self.remainders),
            "prompt": self.prompt().to_json(),
        }


@dataclass
class TransferPlan:
    """Transfers decided by a settlement, checked as a whole before any chip moves.

    It looks like a table (``plan.ledger.transfer(...)``) to the settling code. Money owed to the
    bank is moved before the bank pays, so only a bank short of its net payout is refused.
    """

    transfers: list[tuple[str, str, int, str]] = field(default_factory=list)

    @property
    def ledger(self) -> TransferPlan:
        return self

    def transfer(self, source: str, target: str, amount: int, reason: str) -> None:
        self.transfers.append((source, target, amount, reason))

    def execute(self, ledger: Ledger) -> None:
        net: Counter[str] = Counter()
        for source, target, amount, _ in self.transfers:
            net[source] -= amount
            net[target] += amount
        for account, change in sorted(net.items()):
            if account not in ledger.allow_negative and ledger.balance(account) + change < 0:
                raise MoneyError(f"{account} has {ledger.balance(account)} chips and cannot cover "
                                 f"{-change} owed in this settlement")
        payers = {source for source, _, _, _ in self.transfers}
        receivers = {target for _, target, _, _ in self.transfers}
        both = payers & receivers  # the bank: collect first, then pay
        for source, target, amount, reason in sorted(self.transfers, key=lambda t: t[0] in both):
            ledger.transfer(source, target, amount, reason)



def _spot(rank: Rank, coppered: bool) -> str:
    return f"{rank.code}{' coppered' if coppered else ''}"


def _ranks(ranks: Any) -> str:
    return "-".join(r.code for r in ranks)


def _code(card: Card | None) -> str | None:
    return None if card is None else card.code


def _bet_order(item: tuple[tuple[str, Rank, bool], int]) -> tuple[str, int, bool]:
    (seat, rank, coppered), _ = item
    return (seat, int(rank), coppered)


def faro_game(table: TableState) -> FaroGame:
    game = table.games.get(GAME_KEY)
    ensure(isinstance(game, FaroGame), "no faro game at this table (start one with faro.new)")
    assert isinstance(game, FaroGame)
    return game


# ---- operations ---------------------------------------------------------------------------------

@register_operation
@dataclass(frozen=True)
class NewFaroGame(Operation):
    """Open a faro (or stuss) layout with its house rules; ratios are ``"WIN:STAKE"`` text."""

    kind: ClassVar[str] = "faro.new"
    variant: str = "faro"
    flat_payout: str = "1:1"
    split_take: str | None = None  # default: 1:2 in faro, 1:1 in stuss
    split_rounding: str = "down"
    calling_the_turn: bool | None = None  # default: on in faro, off in stuss
    call_payout: str = "4:1"
    cat_hop_payout: str = "2:1"
    min_bet: int = 1
    max_bet: int | None = None
    bank: str = "house"

    def rules(self) -> FaroRules:
        try:
            variant = FaroVariant(self.variant)
            rounding = Rounding(self.split_rounding)
        except ValueError as exc:
            raise IllegalOperation(f"faro.new: {exc}; variant is faro or stuss, rounding one of "
                             f"{', '.join(r.value for r in Rounding)}") from None
        stuss = variant is FaroVariant.STUSS
        return FaroRules(
            variant=variant, flat_payout=Ratio.parse(self.flat_payout),
            split_take=Ratio.parse(self.split_take or ("1:1" if stuss else "1:2")),
            split_rounding=rounding,
            calling_the_turn=(not stuss) if self.calling_the_turn is None else self.calling_the_turn,
            call_payout=Ratio.parse(self.call_payout), cat_hop_payout=Ratio.parse(self.cat_hop_payout),
            min_bet=self.min_bet, max_bet=self.max_bet, bank=self.bank)

    def apply(self, table: TableState) -> None:
        old = table.games.get(GAME_KEY)
        ensure(not isinstance(old, FaroGame) or (not old.bets and not old.calls),
               "chips are still on the faro layout; settle or withdraw them before a new game")
        table.games[GAME_KEY] = FaroGame(self.rules())


@register_operation
@dataclass(frozen=True)
class NewFaroDeal(Operation):
    """A freshly shuffled deck goes in the box; the casekeeper is cleared."""

    kind: ClassVar[str] = "faro.new-deal"

    def apply(self, table: TableState) -> None:
        faro_game(table).new_deal()


@register_operation
@dataclass(frozen=True)
class FaroCard(Operation):
    """The next card out of the box (its role, soda/loser/winner/hock, follows from the count)."""

    kind: ClassVar[str] = "faro.card"
    card: Card

    def apply(self, table: TableState) -> None:
        faro_game(table).enter_card(self.card)


@register_operation
@dataclass(frozen=True)
class UndoCard(Operation):
    """Take back the last card entered, before its turn is settled (a mis-read card)."""

    kind: ClassVar[str] = "faro.undo"

    def apply(self, table: TableState) -> None:
        card = faro_game(table).undo_card()
        shoe = table.shoe
        if shoe is not None and shoe.dealt and shoe.dealt[-1] == card:
            shoe.undo(card)  # the box's count goes back too: the card is unseen again


@register_operation
@dataclass(frozen=True)
class PlaceBet(Operation):
    """Chips on a layout rank; ``coppered`` bets the rank loses."""

    kind: ClassVar[str] = "faro.bet"
    seat: str
    rank: str
    amount: int
    coppered: bool = False

    def apply(self, table: TableState) -> None:
        faro_game(table).place_bet(table, self.seat, parse_rank(self.rank), self.amount, self.coppered)


@register_operation
@dataclass(frozen=True)
class MoveBet(Operation):
    """Move chips (all, or ``amount``) to another rank, or put on / take off the copper."""

    kind: ClassVar[str] = "faro.move"
    seat: str
    rank: str
    to_rank: str
    coppered: bool = False
    to_coppered: bool = False
    amount: int | None = None

    def apply(self, table: TableState) -> None:
        faro_game(table).move_bet(self.seat, parse_rank(self.rank), self.coppered,
                                  parse_rank(self.to_rank), self.to_coppered, self.amount)


@register_operation
@dataclass(frozen=True)
class WithdrawBet(Operation):
    """Take chips (all, or ``amount``) back off the layout between turns."""

    kind: ClassVar[str] = "faro.withdraw"
    seat: str
    rank: str
    coppered: bool = False
    amount: int | None = None

    def apply(self, table: TableState) -> None:
        faro_game(table).withdraw_bet(table, self.seat, parse_rank(self.rank), self.coppered, self.amount)


@register_operation
@dataclass(frozen=True)
class CallTheTurn(Operation):
    """With three cards left: the order loser, winner, hock, as rank codes."""

    kind: ClassVar[str] = "faro.call"
    seat: str
    order: tuple[str, ...]
    amount: int

    def apply(self, table: TableState) -> None:
        ensure(len(self.order) == 3, f"RULES A5: a call names three cards, not {len(self.order)}")
        order = (parse_rank(self.order[0]), parse_rank(self.order[1]), parse_rank(self.order[2]))
        faro_game(table).call_the_turn(table, self.seat, order, self.amount)


@register_operation
@dataclass(frozen=True)
class SettleTurn(Operation):
    """Pay and collect the bets the completed turn decided."""

    kind: ClassVar[str] = "faro.settle"

    def apply(self, table: TableState) -> None:
        faro_game(table).settle(table)
