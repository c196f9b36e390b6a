"""Let it ride (RULES A11, 0.1 item 7).

Each seat places **three equal bets**. Three cards go face down to each seat, one at a time, and two
community cards face down in front of the dealer, who has no hand. After seeing his three cards a
player may take back **bet 1** or let it ride; the first community card is turned and he may take
back **bet 2** (even after riding bet 1 [STD]); the second is turned and every bet still in action
is paid at the same ratio by the five-card hand ([STD] paytable, lost from the seed). **Bet 3 can
never be taken back.** Below a pair of tens every remaining bet loses.

Simulated mode plays the exact optimal strategy (:mod:`dealer.core.analysis.let_it_ride_analysis`).

>>> from dealer.core.table_state import TableState, TransferChips, ShuffleShoe
>>> table = TableState()
>>> table.apply(NewLetItRideGame(mode=ShoeMode.OBSERVED))
>>> table.apply(ShuffleShoe())
>>> table.apply(TransferChips("cage", "seat-1", 100, "buy-in"))
>>> table.apply(LetItRideBet(1, 5))                   # three bets of 5
>>> table.apply(LetItRideDeal())
>>> for code in "QS QD 4C 9H 2D".split():            # three to seat 1, two community cards
...     table.apply(LetItRideCard(Card.parse(code)))
>>> table.apply(LetItRideChoice(1, 1, ride=True))   # a pair of queens already pays: let it ride
>>> table.apply(RevealCommunity())
>>> table.apply(LetItRideChoice(1, 2, ride=True))
>>> table.apply(RevealCommunity())
>>> table.apply(LetItRideShow(1))
>>> table.apply(LetItRideSettle())                   # three bets of 5 paid 1:1
>>> table.ledger.balance("seat-1")
115
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from dealer.core.analysis.let_it_ride_analysis import DEFAULT_PAYTABLE, Paytable, strategy
from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation import Ranking, evaluate
from dealer.core.games.base import Prompt, Step
from dealer.core.games.caribbean_stud import check_hand_cards, open_pack
from dealer.core.games.shoe_game import ShoeLink, move, seat_account
from dealer.core.ledger import HOUSE
from dealer.core.money import Rounding, check_chips, pay
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.shoe import ShoeMode
from dealer.core.table_state import TableState, game_of

__all__ = ["LetItRideBet", "LetItRideCard", "LetItRideChoice", "LetItRideDeal", "LetItRideGame",
           "LetItRideRules", "LetItRideSettle", "LetItRideShow", "NewLetItRideGame", "RevealCommunity"]

GAME = "let-it-ride"
STAKES = "let-it-ride:stakes"
OWN = 3
COMMUNITY = 2


class Phase(enum.Enum):
    BETTING = "betting"
    DEALING = "dealing"
    FIRST = "first-decision"  # bet 1
    TURN_FIRST = "turn-first"  # the first community card is turned
    SECOND = "second-decision"  # bet 2
    TURN_SECOND = "turn-second"
    SHOWING = "showing"
    SETTLING = "settling"


@dataclass(frozen=True)
class LetItRideRules:
    paytable: Paytable = DEFAULT_PAYTABLE
    seats: int = 7  # up to seven players
    min_bet: int = 1  # per circle
    max_bet: int | None = None
    rounding: Rounding = Rounding.DOWN

    def __post_init__(self) -> None:
        ensure(1 <= self.seats <= 7, f"RULES A11: up to seven players, not {self.seats}")
        ensure(self.min_bet >= 1 and (self.max_bet is None or self.max_bet >= self.min_bet),
               f"bet limits need 1 <= min <= max, got {self.min_bet}..{self.max_bet}")

    def to_json(self) -> dict[str, Any]:
        return {"paytable": self.paytable.to_json(), "seats": self.seats, "min_bet": self.min_bet,
                "max_bet": self.max_bet, "rounding": self.rounding.value}


@dataclass
class Seat:
    unit: int
    riding: list[bool] = field(default_factory=lambda: [True, True, True])
    decided: list[bool] = field(default_factory=lambda: [False, False, True])
    cards: list[Card] = field(default_factory=list)
    shown: bool = False

    @property
    def in_action(self) -> int:
        return self.unit * sum(self.riding)


@dataclass
class LetItRideGame:
    """A let it ride table (see the module docs)."""

    name: ClassVar[str] = GAME
    rules: LetItRideRules = field(default_factory=LetItRideRules)
    link: ShoeLink = field(default_factory=ShoeLink)
    phase: Phase = Phase.BETTING
    round: int = 1
    seats: dict[int, Seat] = field(default_factory=dict)
    community: list[Card] = field(default_factory=list)
    turned: int = 0
    results: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    remainders: Fraction = Fraction(0)

    @property
    def table(self) -> TableState:
        ensure(self.link.table is not None, "this let it ride game is not attached to a table")
        assert self.link.table is not None
        return self.link.table

    def _order(self) -> list[int]:
        return sorted(self.seats)

    def _round_cards(self) -> list[Card]:
        return [c for s in self.seats.values() for c in s.cards if not c.is_back] + \
            [c for c in self.community if not c.is_back]

    # ---- bets ------------------------------------------------------------------------------------
    def verify_bet(self, seat: int, unit: int) -> None:
        ensure(self.phase is Phase.BETTING, "RULES A11: the three bets are placed before the deal")
        ensure(not self.link.shuffle_due, "shuffle the pack before the round")
        ensure(1 <= seat <= self.rules.seats, f"seats are 1..{self.rules.seats}, not {seat}")
        ensure(seat not in self.seats, f"seat {seat} already has its three bets this round")
        check_chips(unit, "bet")
        r = self.rules
        ensure(unit >= r.min_bet and (r.max_bet is None or unit <= r.max_bet),
               f"each of the three bets is {r.min_bet} to {r.max_bet or 'no limit'} chips, not {unit}")
        have = self.table.ledger.balance(seat_account(seat))
        ensure(have >= 3 * unit, f"RULES A11: three equal bets of {unit} need {3 * unit} chips; seat {seat} "
                                 f"has {have}")

    def can_bet(self, seat: int, unit: int) -> bool:
        try:
            self.verify_bet(seat, unit)
        except IllegalOperation:
            return False
        return True

    def bet(self, seat: int, unit: int) -> None:
        self.verify_bet(seat, unit)
        move(self.table, seat_account(seat), STAKES, 3 * unit, f"let it ride: three bets, round {self.round}")
        self.seats[seat] = Seat(unit)

    def deal(self) -> None:
        ensure(self.phase is Phase.BETTING and bool(self.seats),
               "the deal starts once at least one seat bets")
        ensure(not self.link.shuffle_due, "shuffle the pack before the round")
        self.phase = Phase.DEALING

    # ---- cards -----------------------------------------------------------------------------------
    def card_target(self) -> int | None:
        """Seats in turn, three rounds, then the two community cards (0)."""
        if self.phase is not Phase.DEALING:
            return None
        dealt = sum(len(s.cards) for s in self.seats.values())
        if dealt < OWN * len(self.seats):
            return self._order()[dealt % len(self.seats)]
        return 0

    def verify_card(self, card: Card) -> None:
        ensure(self.card_target() is not None, "RULES A11: no card is due now")
        ensure(not card.is_joker, "RULES A11: one 52-card pack, no joker")
        ensure(card.is_back or card not in self._round_cards(), f"{card.code} was already dealt this round")

    def take_card(self, card: Card) -> None:
        self.verify_card(card)
        target = self.card_target()
        self.link.record_card(card)
        if target == 0:
            self.community.append(card)
            if len(self.community) == COMMUNITY:
                self.phase = Phase.FIRST
        else:
            assert target is not None
            self.seats[target].cards.append(card)

    # ---- decisions -------------------------------------------------------------------------------
    def _stage(self) -> int | None:
        return {Phase.FIRST: 1, Phase.SECOND: 2}.get(self.phase)

    def to_decide(self) -> int | None:
        stage = self._stage()
        if stage is None:
            return None
        return next((n for n in self._order() if not self.seats[n].decided[stage - 1]), None)

    def verify_choice(self, seat: int, bet: int, ride: bool) -> None:
        ensure(bet in (1, 2, 3), f"bets are numbered 1, 2 and 3, not {bet}")
        ensure(bet != 3 or ride, "RULES A11: the third bet can never be taken back")
        ensure(bet != 3, "RULES A11: the third bet always rides; there is nothing to decide")
        stage = self._stage()
        ensure(stage == bet, f"RULES A11: bet {bet} is decided "
                             f"{'after the three cards' if bet == 1 else 'after the first community card'}"
                             f" (now: {self.phase.value})")
        ensure(seat in self.seats, f"seat {seat} has no hand this round")
        ensure(not self.seats[seat].decided[bet - 1], f"seat {seat} has already decided bet {bet}")

    def choose(self, seat: int, bet: int, ride: bool) -> None:
        self.verify_choice(seat, bet, ride)
        s = self.seats[seat]
        s.decided[bet - 1] = True
        if not ride:
            s.riding[bet - 1] = False
            move(self.table, STAKES, seat_account(seat), s.unit, f"let it ride: bet {bet} taken back")
        if self.to_decide() is None:
            self.phase = Phase.TURN_FIRST if bet == 1 else Phase.TURN_SECOND

    # ---- community cards and showdown ------------------------------------------------------------
    def verify_turn(self, card: Card | None) -> None:
        ensure(self.phase in (Phase.TURN_FIRST, Phase.TURN_SECOND),
               "RULES A11: a community card is turned once every player has decided")
        index = 0 if self.phase is Phase.TURN_FIRST else 1
        dealt = self.community[index]
        if dealt.is_back:
            ensure(card is not None and not card.is_back,
                   "the community card was dealt unseen: give its face")
            assert card is not None
            ensure(card not in self._round_cards(), f"{card.code} was already dealt this round")
        else:
            ensure(card is None or card == dealt, f"the community card is {dealt.code}, not {card}")

    def turn(self, card: Card | None) -> None:
        self.verify_turn(card)
        index = 0 if self.phase is Phase.TURN_FIRST else 1
        if card is not None:
            self.community[index] = card
        self.turned = index + 1
        self.phase = Phase.SECOND if index == 0 else Phase.SHOWING
        if self.phase is Phase.SHOWING and self.to_show() is None:
            self.phase = Phase.SETTLING

    def to_show(self) -> int | None:
        if self.phase is not Phase.SHOWING:
            return None
        return next((n for n in self._order() if not self.seats[n].shown), None)

    def show(self, seat: int, cards: tuple[Card, ...]) -> None:
        ensure(self.to_show() == seat, f"seat {seat} does not show now (next: {self.to_show()})")
        s = self.seats[seat]
        s.cards[:] = check_hand_cards(s.cards, cards, self._round_cards(), f"seat {seat}")
        s.shown = True
        if self.to_show() is None:
            self.phase = Phase.SETTLING

    def settle(self) -> None:
        ensure(self.phase is Phase.SETTLING, "settle once both community cards are turned and hands shown")
        results = []
        for n in self._order():
            s = self.seats[n]
            value = evaluate(s.cards + self.community, Ranking.STANDARD)
            ratio = self.rules.paytable.ratio(value)
            stake = s.in_action
            row: dict[str, Any] = {"seat": n, "unit": s.unit, "riding": list(s.riding), "in_action": stake,
                                   "hand": str(value), "line": self.rules.paytable.line(value)}
            if ratio is None:
                move(self.table, STAKES, HOUSE, stake, "let it ride: below a pair of tens")
                row |= {"outcome": "lose", "net": -stake}
            else:
                payout = pay(stake, ratio, self.rules.rounding)
                self.remainders += payout.remainder
                move(self.table, STAKES, seat_account(n), stake, "let it ride: bets back")
                move(self.table, HOUSE, seat_account(n), payout.amount, f"let it ride: paid {ratio}")
                row |= {"outcome": "win", "net": payout.amount, "paid": str(ratio)}
            results.append(row)
        self.results = results
        self.history.append({"round": self.round, "community": [c.code for c in self.community],
                             "results": results})
        self.link.mark_round_end(always_shuffle=True)
        self.round += 1
        self.phase = Phase.BETTING
        self.seats, self.community, self.turned = {}, [], 0

    # ---- Game protocol ---------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        p = self.phase
        if p is Phase.BETTING:
            if self.link.shuffle_due:
                return Prompt(Step.SHUFFLE, "dealer", text="shuffle the pack")
            return Prompt(Step.BET, "players", ("bet", "deal"), "three equal bets, then deal")
        if p is Phase.DEALING:
            target = self.card_target()
            who = "community" if target == 0 else f"seat-{target}"
            return Prompt(Step.CARD, who, ("card",), f"deal a card face down to {who}")
        if p in (Phase.FIRST, Phase.SECOND):
            bet = self._stage()
            return Prompt(Step.DECIDE, f"seat-{self.to_decide()}", ("pull", "ride"),
                          f"seat {self.to_decide()}: take back bet {bet} or let it ride")
        if p in (Phase.TURN_FIRST, Phase.TURN_SECOND):
            which = "first" if p is Phase.TURN_FIRST else "second"
            return Prompt(Step.DECIDE, "dealer", ("turn",), f"turn the {which} community card")
        if p is Phase.SHOWING:
            return Prompt(Step.DECIDE, f"seat-{self.to_show()}", ("show",), f"seat {self.to_show()} shows")
        return Prompt(Step.SETTLE, "dealer", ("settle",), "pay every bet still in action")

    def card_operation(self, card: Card) -> Operation:
        return LetItRideCard(card)

    def auto_operation(self) -> Operation | None:
        p = self.phase
        if p in (Phase.FIRST, Phase.SECOND):
            seat = self.to_decide()
            assert seat is not None
            bet = self._stage()
            assert bet is not None
            cards = self.seats[seat].cards + self.community[:bet - 1]
            if any(c.is_back for c in cards):
                return None
            s = strategy(self.rules.paytable)
            ride = s.ride_first(cards) if bet == 1 else s.ride_second(cards)
            return LetItRideChoice(seat, bet, ride)
        if p in (Phase.TURN_FIRST, Phase.TURN_SECOND):
            index = 0 if p is Phase.TURN_FIRST else 1
            return None if self.community[index].is_back else RevealCommunity()
        if p is Phase.SHOWING:
            seat = self.to_show()
            assert seat is not None
            return None if any(c.is_back for c in self.seats[seat].cards) else LetItRideShow(seat)
        if p is Phase.SETTLING:
            return LetItRideSettle()
        return None

    def to_json(self) -> dict[str, Any]:
        seats = {}
        for n, s in sorted(self.seats.items()):
            seats[str(n)] = {"unit": s.unit, "riding": list(s.riding), "in_action": s.in_action,
                             "cards": [c.code for c in s.cards] if s.shown else len(s.cards)}
        community = [c.code if i < self.turned else "BK" for i, c in enumerate(self.community)]
        return {"game": GAME, "rules": self.rules.to_json(), "round": self.round, "phase": self.phase.value,
                "seats": seats, "community": community, "results": self.results,
                "history": self.history[-10:], "rounding_to_house": str(self.remainders),
                "prompt": self.prompt().to_json()}


def _game(table: TableState) -> LetItRideGame:
    return game_of(table, GAME, LetItRideGame, "let-it-ride.new")


# ---- operations ----------------------------------------------------------------------------------
@register_operation
@dataclass(frozen=True)
class NewLetItRideGame(Operation):
    """Open a let it ride table. ``paytable`` overrides [STD] lines: ``"royal-flush=500:1"``."""

    kind: ClassVar[str] = "let-it-ride.new"
    paytable: str = ""
    seats: int = 7
    min_bet: int = 1
    max_bet: int | None = None
    mode: ShoeMode = ShoeMode.KNOWN
    fresh_shoe: bool = False

    def apply(self, table: TableState) -> None:
        rules = LetItRideRules(Paytable.parse(self.paytable), self.seats, self.min_bet, self.max_bet)
        open_pack(table, self.mode, self.fresh_shoe)
        table.games[GAME] = LetItRideGame(rules=rules, link=ShoeLink(table))


@register_operation
@dataclass(frozen=True)
class LetItRideBet(Operation):
    """Three equal bets of ``unit`` at ``seat``."""

    kind: ClassVar[str] = "let-it-ride.bet"
    seat: int
    unit: int

    def apply(self, table: TableState) -> None:
        _game(table).bet(self.seat, self.unit)


@register_operation
@dataclass(frozen=True)
class LetItRideDeal(Operation):
    kind: ClassVar[str] = "let-it-ride.deal"

    def apply(self, table: TableState) -> None:
        _game(table).deal()


@register_operation
@dataclass(frozen=True)
class LetItRideCard(Operation):
    kind: ClassVar[str] = "let-it-ride.card"
    card: Card

    def apply(self, table: TableState) -> None:
        _game(table).take_card(self.card)


@register_operation
@dataclass(frozen=True)
class LetItRideChoice(Operation):
    """Seat ``seat`` takes back bet ``bet`` (1 or 2) or lets it ride."""

    kind: ClassVar[str] = "let-it-ride.choice"
    seat: int
    bet: int
    ride: bool

    def apply(self, table: TableState) -> None:
        _game(table).choose(self.seat, self.bet, self.ride)


@register_operation
@dataclass(frozen=True)
class RevealCommunity(Operation):
    """The next community card is turned (``card`` = its face when it was dealt unseen)."""

    kind: ClassVar[str] = "let-it-ride.turn"
    card: Card | None = None

    def apply(self, table: TableState) -> None:
        _game(table).turn(self.card)


@register_operation
@dataclass(frozen=True)
class LetItRideShow(Operation):
    """A seat's three cards are shown (``cards`` = faces not yet seen)."""

    kind: ClassVar[str] = "let-it-ride.show"
    seat: int
    cards: tuple[Card, ...] = ()

    def apply(self, table: TableState) -> None:
        _game(table).show(self.seat, tuple(self.cards))


@register_operation
@dataclass(frozen=True)
class LetItRideSettle(Operation):
    kind: ClassVar[str] = "let-it-ride.settle"

    def apply(self, table: TableState) -> None:
        _game(table).settle()
