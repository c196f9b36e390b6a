"""Trente et quarante (rouge et noir): two rows to 31 or more from a six-deck shoe (RULES A7).

Bets go on **rouge**, **noir**, **couleur** or **inverse** before the coup. The croupier deals the
**noir** row until its total (ace 1, faces 10) reaches 31 or more, then the **rouge** row the same way.
The row nearer 31 (the lower total) wins. Couleur/inverse use the standard rule [STD]: couleur wins
when the colour of the first card of the noir row is the colour of the winning row, otherwise
inverse wins. (The seed's wording — "the first card of a row has the colour that names that row" —
is garbled; see ``docs/games/trente-et-quarante.md``.) Equal totals are a **refait**: a stand-off,
except 31–31, where the house takes half of every bet unless the bet was insured.

>>> from dealer.core.table_state import TableState, TransferChips
>>> table = TableState()
>>> table.apply(NewTrenteEtQuarante())
>>> table.apply(TransferChips("cage", "seat-1", 100, "buy-in"))
>>> table.apply(PlaceTqBet("seat-1", "rouge", 10))
>>> for code in "KS QC 5H 9D  10H 10D 2C 9S".split():
...     table.apply(TqCard(Card.parse(code)))
>>> game = table.games["trente-et-quarante"]
>>> game.noir_total, game.rouge_total
(34, 31)
>>> table.apply(game.auto_operation())
>>> table.ledger.balance("seat-1")
110
"""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Prompt, Step
from dealer.core.games.faro import TransferPlan
from dealer.core.money import EVEN, Ratio, Rounding, pay
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.table_state import TableState

__all__ = ["NewTqShoe", "NewTrenteEtQuarante", "PlaceTqBet", "SettleCoup", "TqBet", "TqCard", "TqRules",
           "TrenteEtQuarante", "UndoTqCard", "VoidCoup", "WithdrawTqBet", "card_points"]

GAME_KEY = "trente-et-quarante"
LAYOUT = "tq-layout"
TARGET = 31


class TqBet(enum.Enum):
    ROUGE = "rouge"
    NOIR = "noir"
    COULEUR = "couleur"
    INVERSE = "inverse"


def card_points(card: Card) -> int:
    """RULES A7: ace 1, face cards 10, the others their pips."""
    assert card.rank is not None
    return min(int(card.rank), 10)


@dataclass(frozen=True)
class TqRules:
    decks: int = 6  # RULES A7
    payout: Ratio = EVEN  # [STD]: the seed states no ratio
    refait_take: Ratio = Ratio(1, 2)  # RULES A7: on a 31 refait the house takes half of all bets
    take_rounding: Rounding = Rounding.DOWN  # the odd chip of a halved bet stays with the player
    insurance: bool = False  # [STD] off unless the house enables it
    insurance_rate: Ratio = Ratio(1, 100)  # [STD] premium 1 % of the stake
    insurance_rounding: Rounding = Rounding.UP  # the premium is at least one chip
    min_bet: int = 1
    max_bet: int | None = None
    reshuffle_below: int = 10  # between coups, shuffle when fewer cards remain in the shoe
    bank: str = "house"

    def __post_init__(self) -> None:
        ensure(1 <= self.decks <= 16, f"a trente et quarante shoe holds 1 to 16 decks, not {self.decks}")
        ensure(self.min_bet >= 1, f"the minimum bet is at least 1 chip, not {self.min_bet}")
        ensure(self.refait_take.fraction <= 1,
               f"the house cannot take more than the bet ({self.refait_take})")

    def to_json(self) -> dict[str, Any]:
        return {"decks": self.decks, "payout": str(self.payout), "refait_take": str(self.refait_take),
                "take_rounding": self.take_rounding.value, "insurance": self.insurance,
                "insurance_rate": str(self.insurance_rate), "min_bet": self.min_bet, "max_bet": self.max_bet,
                "reshuffle_below": self.reshuffle_below, "bank": self.bank,
                "couleur_rule": "first card of the noir row matches the colour of the winning row [STD]"}


@dataclass
class TrenteEtQuarante:
    name: ClassVar[str] = GAME_KEY

    rules: TqRules = field(default_factory=TqRules)
    coup: int = 1
    shoe_cards_out: int = 0
    noir: list[Card] = field(default_factory=list)
    rouge: list[Card] = field(default_factory=list)
    bets: dict[tuple[str, TqBet], int] = field(default_factory=dict)
    premiums: dict[tuple[str, TqBet], int] = field(default_factory=dict)  # insurance paid, per bet
    history: list[dict[str, Any]] = field(default_factory=list)
    remainders: Fraction = Fraction(0)

    # ---- derived ------------------------------------------------------------------------------
    @property
    def noir_total(self) -> int:
        return sum(card_points(c) for c in self.noir)

    @property
    def rouge_total(self) -> int:
        return sum(card_points(c) for c in self.rouge)

    @property
    def shoe_cards_left(self) -> int:
        return max(self.rules.decks * 52 - self.shoe_cards_out, 0)

    @property
    def dealing(self) -> bool:
        return bool(self.noir)

    @property
    def coup_complete(self) -> bool:
        return self.rouge_total >= TARGET

    @property
    def betting_open(self) -> bool:
        return not self.noir

    def row_to_deal(self) -> str | None:
        if self.noir_total < TARGET:
            return "noir"
        if self.rouge_total < TARGET:
            return "rouge"
        return None

    # ---- bets ---------------------------------------------------------------------------------
    def verify_bet(self, seat: str, bet: TqBet, amount: int, insured: bool = False) -> None:
        ensure(self.betting_open, "RULES A7: bets are placed before the deal of the coup")
        ensure(isinstance(amount, int) and amount >= 1, f"a bet is a whole number of chips, not {amount!r}")
        total = self.bets.get((seat, bet), 0) + amount
        ensure(total >= self.rules.min_bet, f"the table minimum is {self.rules.min_bet}")
        ensure(self.rules.max_bet is None or total <= self.rules.max_bet,
               f"the table maximum is {self.rules.max_bet}; {seat} would have {total} on {bet.value}")
        ensure(not insured or self.rules.insurance, "RULES A7: this house does not offer insurance")
        ensure(insured or (seat, bet) not in self.premiums,
               f"{seat}'s {bet.value} bet is insured; add to it insured too")

    def can_bet(self, seat: str, bet: TqBet, amount: int, insured: bool = False) -> bool:
        try:
            self.verify_bet(seat, bet, amount, insured)
        except ValueError:
            return False
        return True

    def place_bet(self, table: TableState, seat: str, bet: TqBet, amount: int, insured: bool) -> None:
        self.verify_bet(seat, bet, amount, insured)
        premium = 0
        if insured:
            premium = pay(amount, self.rules.insurance_rate, self.rules.insurance_rounding).amount
        table.ledger.verify_transfer(seat, LAYOUT, amount + premium)
        table.ledger.transfer(seat, LAYOUT, amount + premium, f"trente et quarante {bet.value} bet")
        self.bets[(seat, bet)] = self.bets.get((seat, bet), 0) + amount
        if insured:
            self.premiums[(seat, bet)] = self.premiums.get((seat, bet), 0) + premium

    def verify_withdraw(self, seat: str, bet: TqBet) -> None:
        ensure(self.betting_open, "RULES A7: bets cannot be taken back once the coup is being dealt")
        ensure((seat, bet) in self.bets, f"{seat} has no {bet.value} bet")

    def withdraw(self, table: TableState, seat: str, bet: TqBet) -> None:
        self.verify_withdraw(seat, bet)
        amount = self.bets.pop((seat, bet)) + self.premiums.pop((seat, bet), 0)
        table.ledger.transfer(LAYOUT, seat, amount, f"trente et quarante {bet.value} bet withdrawn")

    # ---- cards --------------------------------------------------------------------------------
    def verify_card(self, card: Card) -> None:
        ensure(card.rank is not None,
               f"RULES A7: every card is dealt face up; need its face, not {card.code}")
        ensure(not self.coup_complete, "RULES A7: both rows reached 31; settle the coup first")

    def enter_card(self, card: Card) -> None:
        self.verify_card(card)
        (self.noir if self.row_to_deal() == "noir" else self.rouge).append(card)
        self.shoe_cards_out += 1

    def verify_undo(self) -> None:
        ensure(self.dealing, "no card of this coup has been dealt; nothing to undo")

    def undo_card(self) -> None:
        self.verify_undo()
        (self.rouge if self.rouge else self.noir).pop()
        self.shoe_cards_out -= 1

    # ---- settlement ---------------------------------------------------------------------------
    def outcome(self) -> dict[str, Any]:
        """Who won the complete coup: ``winner`` is noir, rouge or refait."""
        ensure(self.coup_complete, "the coup is not complete")
        n, r = self.noir_total, self.rouge_total
        first_red = self.noir[0].suit is not None and self.noir[0].suit.is_red
        winner = "refait" if n == r else ("noir" if n < r else "rouge")
        couleur = None
        if winner != "refait":  # [STD] first noir card's colour against the winning row's colour
            couleur = "couleur" if first_red == (winner == "rouge") else "inverse"
        return {"noir": n, "rouge": r, "winner": winner, "colour_winner": couleur,
                "first_card": self.noir[0].code, "refait_31": n == r == TARGET}

    def verify_settle(self) -> None:
        ensure(self.coup_complete, "RULES A7: the coup is settled once both rows reach 31 or more")

    def settle(self, table: TableState) -> None:
        self.verify_settle()
        trial = copy.deepcopy(self)  # plan on a copy: a short bank raises before any chip moves
        plan = TransferPlan()
        trial._settle(plan)
        plan.execute(table.ledger)
        self.__dict__.update(trial.__dict__)

    def _settle(self, table: Any) -> None:
        result = self.outcome()
        winners = {result["winner"], result["colour_winner"]}
        settled = []
        bank = self.rules.bank
        for (seat, bet), stake in sorted(self.bets.items(), key=lambda kv: (kv[0][0], kv[0][1].value)):
            premium = self.premiums.get((seat, bet), 0)
            table.ledger.transfer(LAYOUT, bank, premium, "trente et quarante insurance premium")
            if result["refait_31"] and not premium:
                take = pay(stake, self.rules.refait_take, self.rules.take_rounding)
                self.remainders -= take.remainder
                table.ledger.transfer(LAYOUT, bank, take.amount, "refait of 31: half taken")
                table.ledger.transfer(LAYOUT, seat, stake - take.amount, "refait of 31: rest back")
                outcome, net = "refait-31", -take.amount
            elif result["winner"] == "refait":
                table.ledger.transfer(LAYOUT, seat, stake, "refait: stand-off")
                outcome, net = "refait", 0
            elif bet.value in winners:
                win = pay(stake, self.rules.payout)
                self.remainders += win.remainder
                table.ledger.transfer(LAYOUT, seat, stake, f"{bet.value} won: stake back")
                table.ledger.transfer(bank, seat, win.amount, f"{bet.value} won")
                outcome, net = "won", win.amount
            else:
                table.ledger.transfer(LAYOUT, bank, stake, f"{bet.value} lost")
                outcome, net = "lost", -stake
            settled.append({"seat": seat, "bet": bet.value, "stake": stake, "insurance": premium,
                            "result": outcome, "net": net - premium})
        self.history.append({"coup": self.coup, **result, "noir_row": [c.code for c in self.noir],
                             "rouge_row": [c.code for c in self.rouge], "results": settled})
        self._next_coup()

    def _next_coup(self) -> None:
        self.bets, self.premiums = {}, {}
        self.noir, self.rouge = [], []
        self.coup += 1

    def verify_void(self) -> None:
        ensure(self.dealing, "no coup is being dealt; there is nothing to void")

    def void(self, table: TableState, reason: str) -> None:
        """The shoe ran out (or a misdeal): every bet and premium goes back."""
        self.verify_void()
        for key, stake in sorted(self.bets.items(), key=lambda kv: (kv[0][0], kv[0][1].value)):
            table.ledger.transfer(LAYOUT, key[0], stake + self.premiums.get(key, 0), f"coup void: {reason}")
        self.history.append({"coup": self.coup, "void": reason, "noir_row": [c.code for c in self.noir],
                             "rouge_row": [c.code for c in self.rouge]})
        self._next_coup()

    def new_shoe(self) -> None:
        ensure(not self.dealing, "finish or void the coup before a new shoe")
        self.shoe_cards_out = 0

    # ---- Game protocol ------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        if self.coup_complete:
            return Prompt(Step.SETTLE, "croupier", ("settle",), "both rows are complete: settle the coup")
        if self.betting_open and self.shoe_cards_left < max(self.rules.reshuffle_below, 1):
            return Prompt(Step.SHUFFLE, "croupier", ("new-shoe",), "shuffle six packs for a new shoe")
        if self.dealing and self.shoe_cards_left == 0:
            return Prompt(Step.DECIDE, "croupier", ("void",), "the shoe ran out: the coup is void")
        row = self.row_to_deal()
        options = ("card",) + (("bet", "withdraw") if self.betting_open else ("undo",))
        text = f"deal the {row} row ({self.noir_total if row == 'noir' else self.rouge_total} so far)"
        return Prompt(Step.CARD, "croupier", options, ("bets open; " if self.betting_open else "") + text)

    def card_operation(self, card: Card) -> Operation:
        return TqCard(card)

    def auto_operation(self) -> Operation | None:
        step = self.prompt().step
        if step is Step.SETTLE:
            return SettleCoup()
        if step is Step.DECIDE:
            return VoidCoup("the shoe ran out")
        if step is Step.SHUFFLE:
            return NewTqShoe()
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_KEY, "rules": self.rules.to_json(), "coup": self.coup,
            "noir": {"cards": [c.code for c in self.noir], "total": self.noir_total},
            "rouge": {"cards": [c.code for c in self.rouge], "total": self.rouge_total},
            "row_to_deal": self.row_to_deal(), "betting_open": self.betting_open,
            "shoe_cards_left": self.shoe_cards_left,
            "bets": [{"seat": s, "bet": b.value, "amount": a, "insured": (s, b) in self.premiums}
                     for (s, b), a in sorted(self.bets.items(), key=lambda kv: (kv[0][0], kv[0][1].value))],
            "history": self.history, "rounding_to_house": str(self.remainders),
            "prompt": self.prompt().to_json(),
        }


def tq_game(table: TableState) -> TrenteEtQuarante:
    game = table.games.get(GAME_KEY)
    ensure(isinstance(game, TrenteEtQuarante), "no trente et quarante game here (start one with tq.new)")
    assert isinstance(game, TrenteEtQuarante)
    return game


def _bet(name: str) -> TqBet:
    try:
        return TqBet(name.strip().lower())
    except ValueError:
        raise IllegalOperation(f"unknown bet {name!r}: expected rouge, noir, couleur or inverse") from None


@register_operation
@dataclass(frozen=True)
class NewTrenteEtQuarante(Operation):
    kind: ClassVar[str] = "tq.new"
    decks: int = 6
    payout: str = "1:1"
    refait_take: str = "1:2"
    take_rounding: str = "down"
    insurance: bool = False
    insurance_rate: str = "1:100"
    min_bet: int = 1
    max_bet: int | None = None
    reshuffle_below: int = 10
    bank: str = "house"

    def apply(self, table: TableState) -> None:
        old = table.games.get(GAME_KEY)
        ensure(not isinstance(old, TrenteEtQuarante) or not old.bets, "bets are still on the table")
        try:
            rounding = Rounding(self.take_rounding)
        except ValueError:
            raise IllegalOperation(f"tq.new: rounding {self.take_rounding!r} is not one of "
                                   f"{', '.join(r.value for r in Rounding)}") from None
        table.games[GAME_KEY] = TrenteEtQuarante(TqRules(
            decks=self.decks, payout=Ratio.parse(self.payout), refait_take=Ratio.parse(self.refait_take),
            take_rounding=rounding, insurance=self.insurance,
            insurance_rate=Ratio.parse(self.insurance_rate), min_bet=self.min_bet, max_bet=self.max_bet,
            reshuffle_below=self.reshuffle_below, bank=self.bank))


@register_operation
@dataclass(frozen=True)
class NewTqShoe(Operation):
    """The croupier shuffled the packs into a fresh shoe."""

    kind: ClassVar[str] = "tq.new-shoe"

    def apply(self, table: TableState) -> None:
        tq_game(table).new_shoe()


@register_operation
@dataclass(frozen=True)
class PlaceTqBet(Operation):
    kind: ClassVar[str] = "tq.bet"
    seat: str
    bet: str
    amount: int
    insured: bool = False

    def apply(self, table: TableState) -> None:
        tq_game(table).place_bet(table, self.seat, _bet(self.bet), self.amount, self.insured)


@register_operation
@dataclass(frozen=True)
class WithdrawTqBet(Operation):
    kind: ClassVar[str] = "tq.withdraw"
    seat: str
    bet: str

    def apply(self, table: TableState) -> None:
        tq_game(table).withdraw(table, self.seat, _bet(self.bet))


@register_operation
@dataclass(frozen=True)
class TqCard(Operation):
    """The next card: to the noir row until it reaches 31, then to the rouge row."""

    kind: ClassVar[str] = "tq.card"
    card: Card

    def apply(self, table: TableState) -> None:
        tq_game(table).enter_card(self.card)


@register_operation
@dataclass(frozen=True)
class UndoTqCard(Operation):
    kind: ClassVar[str] = "tq.undo"

    def apply(self, table: TableState) -> None:
        tq_game(table).undo_card()


@register_operation
@dataclass(frozen=True)
class SettleCoup(Operation):
    kind: ClassVar[str] = "tq.settle"

    def apply(self, table: TableState) -> None:
        tq_game(table).settle(table)


@register_operation
@dataclass(frozen=True)
class VoidCoup(Operation):
    kind: ClassVar[str] = "tq.void"
    reason: str = "misdeal"

    def apply(self, table: TableState) -> None:
        tq_game(table).void(table, self.reason)

