"""Caribbean stud (RULES A10, 0.1 item 7).

Each seat posts an ante; five cards go one at a time to every seat and the dealer, whose last card
is turned face up. Each seat folds (losing the ante) or calls with a bet of ``call_multiple`` × the
ante ([STD] 2×; the seed says equal — ``call_multiple=1``). The dealer needs **ace-king or
better**: if he does not qualify every caller wins the ante 1:1 and the call comes back; if he
does, a better hand wins the ante 1:1 and the call at the paytable ([STD], lost from the seed), a
worse one loses both, and a tie pushes both.

Chips move only through the ledger: antes and calls sit in ``caribbean-stud:stakes`` until the
round is settled. One 52-card pack, shuffled before every round.

Live mode: player hands may be dealt face down unseen (``BK``); the up card must be read; the
dealer's hand is turned up with :class:`CaribbeanReveal` (and a caller's, when the dealer
qualifies). Simulated mode: the engine deals from a known-order pack and :meth:`auto_operation`
plays the optimal fold/call for each seat (exact, over every dealer hole-card set).

>>> from dealer.core.table_state import TableState, TransferChips, ShuffleShoe
>>> table = TableState()
>>> table.apply(NewCaribbeanStudGame(mode=ShoeMode.OBSERVED))
>>> table.apply(ShuffleShoe())
>>> table.apply(TransferChips("cage", "seat-1", 100, "buy-in"))
>>> table.apply(CaribbeanAnte(1, 10))
>>> table.apply(CaribbeanDeal())
>>> for code in "AS KD AH KC 7D 9S 7C 3H 2C QD".split():   # seat 1 and the dealer, five rounds
...     table.apply(CaribbeanCard(Card.parse(code)))
>>> game = table.games["caribbean-stud"]
>>> game.upcard.code, game.prompt().options
('QD', ('fold', 'call'))
>>> table.apply(CaribbeanCall(1))                       # 20 more chips (2 x the ante)
>>> table.apply(CaribbeanReveal(0, ()))                 # the dealer: K-K (qualifies)
>>> table.apply(CaribbeanReveal(1, ()))                 # seat 1 shows A-A-7-7
>>> table.apply(CaribbeanSettle())                      # two pair beats a pair: ante 1:1, call 2:1
>>> table.ledger.balance("seat-1"), table.ledger.balance("house")
(150, -50)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from dealer.core.analysis.caribbean_analysis import call_counts
from dealer.core.analysis.caribbean_paytable import DEFAULT_PAYTABLE, Paytable, dealer_qualifies, hand_class
from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation import Ranking, evaluate
from dealer.core.games.base import Prompt, Step
from dealer.core.games.shoe_game import ShoeLink, move, seat_account
from dealer.core.ledger import HOUSE
from dealer.core.money import Ratio, Rounding, check_chips, pay
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.shoe import Shoe, ShoeMode, ShoeRules
from dealer.core.table_state import TableState, game_of

__all__ = ["CaribbeanAnte", "CaribbeanCall", "CaribbeanDeal", "CaribbeanCard", "CaribbeanFold",
           "CaribbeanReveal", "CaribbeanRules", "CaribbeanSettle", "CaribbeanStudGame",
           "NewCaribbeanStudGame",
           "check_hand_cards", "open_pack"]

GAME = "caribbean-stud"
STAKES = "caribbean-stud:stakes"
HAND = 5
DEALER = 0


class Phase(enum.Enum):
    BETTING = "betting"
    DEALING = "dealing"
    DECIDING = "deciding"
    REVEALING = "revealing"
    SETTLING = "settling"


@dataclass(frozen=True)
class CaribbeanRules:
    """House rules (RULES A10): every [STD] figure and the seed's discrepancy are options."""

    call_multiple: int = 2  # [STD] 2x the ante; the seed says a bet *equal* to the ante (1)
    paytable: Paytable = DEFAULT_PAYTABLE
    seats: int = 7  # up to seven players
    min_ante: int = 1
    max_ante: int | None = None
    rounding: Rounding = Rounding.DOWN  # for a fractional paytable ratio (remainders recorded)

    def __post_init__(self) -> None:
        ensure(self.call_multiple >= 1, f"RULES A10: the call is a whole multiple (>= 1) of the ante, "
                                        f"not {self.call_multiple}")
        ensure(1 <= self.seats <= 7, f"RULES A10: up to seven players, not {self.seats}")
        ensure(self.min_ante >= 1 and (self.max_ante is None or self.max_ante >= self.min_ante),
               f"ante limits need 1 <= min <= max, got {self.min_ante}..{self.max_ante}")

    def to_json(self) -> dict[str, Any]:
        return {"call_multiple": self.call_multiple, "paytable": self.paytable.to_json(), "seats": self.seats,
                "min_ante": self.min_ante, "max_ante": self.max_ante, "rounding": self.rounding.value}


@dataclass
class Seat:
    ante: int
    cards: list[Card] = field(default_factory=list)
    call: int = 0
    folded: bool = False
    shown: bool = False

    @property
    def decided(self) -> bool:
        return self.folded or self.call > 0


def check_hand_cards(dealt: list[Card], shown: tuple[Card, ...], others: list[Card], who: str) -> list[Card]:
    """The faces of a hand dealt as ``dealt`` (``BK`` for unseen cards): ``shown`` gives every face
    (or only the unseen ones, in dealing order); refuses cards seen elsewhere this round."""
    known = [c for c in dealt if not c.is_back]
    unseen = len(dealt) - len(known)
    if not shown:
        ensure(unseen == 0, f"{who}'s hand has {unseen} card(s) nobody saw: give their faces")
        return list(dealt)
    ensure(all(not c.is_back for c in shown), f"{who}: turned-up cards show their faces, not BK")
    if len(shown) == len(dealt):
        ensure(all(c.is_back or c == s for c, s in zip(dealt, shown, strict=True)),
               f"{who} was dealt {' '.join(c.code for c in dealt)}; "
               f"{' '.join(c.code for c in shown)} does not match")
        faces = list(shown)
    else:
        ensure(len(shown) == unseen, f"{who} has {unseen} unseen card(s); {len(shown)} given")
        it = iter(shown)
        faces = [next(it) if c.is_back else c for c in dealt]
    ensure(len(set(faces)) == len(faces), f"{who}: a card appears twice in {' '.join(c.code for c in faces)}")
    clash = [c.code for c in faces if c not in known and c in others]
    ensure(not clash, f"{' '.join(clash)} was already dealt elsewhere this round")
    return faces


def open_pack(table: TableState, mode: ShoeMode, fresh: bool) -> None:
    """One 52-card pack for a stud game: loaded when the table has none (or ``fresh``)."""
    if table.shoe is None or fresh:
        table.shoe = Shoe(ShoeRules(decks=1), mode)


@dataclass
class CaribbeanStudGame:
    """A caribbean stud table (see the module docs)."""

    name: ClassVar[str] = GAME
    rules: CaribbeanRules = field(default_factory=CaribbeanRules)
    link: ShoeLink = field(default_factory=ShoeLink)
    phase: Phase = Phase.BETTING
    round: int = 1
    seats: dict[int, Seat] = field(default_factory=dict)
    dealer: list[Card] = field(default_factory=list)
    dealer_shown: bool = False
    results: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    remainders: Fraction = Fraction(0)

    @property
    def table(self) -> TableState:
        ensure(self.link.table is not None, "this caribbean stud game is not attached to a table")
        assert self.link.table is not None
        return self.link.table

    @property
    def upcard(self) -> Card | None:
        """RULES A10: the dealer's last card is turned face up."""
        return self.dealer[HAND - 1] if len(self.dealer) == HAND else None

    def _order(self) -> list[int]:
        return sorted(self.seats)

    def _round_cards(self) -> list[Card]:
        return [c for s in self.seats.values() for c in s.cards if not c.is_back] + \
            [c for c in self.dealer if not c.is_back]

    # ---- bets ------------------------------------------------------------------------------------
    def verify_ante(self, seat: int, amount: int) -> None:
        ensure(self.phase is Phase.BETTING, "RULES A10: antes are posted before the deal")
        ensure(not self.link.shuffle_due, "shuffle the pack before the round")
        ensure(1 <= seat <= self.rules.seats, f"seats are 1..{self.rules.seats}, not {seat}")
        ensure(seat not in self.seats, f"seat {seat} already has an ante this round")
        check_chips(amount, "ante")
        r = self.rules
        ensure(amount >= r.min_ante and (r.max_ante is None or amount <= r.max_ante),
               f"an ante is {r.min_ante} to {r.max_ante or 'no limit'} chips, not {amount}")
        need = amount * (1 + r.call_multiple)
        have = self.table.ledger.balance(seat_account(seat))
        ensure(have >= need, f"seat {seat} has {have} chips: an ante of {amount} needs {need} "
                             f"(the ante and a {r.call_multiple}x call)")

    def can_ante(self, seat: int, amount: int) -> bool:
        try:
            self.verify_ante(seat, amount)
        except IllegalOperation:
            return False
        return True

    def ante(self, seat: int, amount: int) -> None:
        self.verify_ante(seat, amount)
        move(self.table, seat_account(seat), STAKES, amount, f"caribbean stud ante, round {self.round}")
        self.seats[seat] = Seat(amount)

    def verify_deal(self) -> None:
        ensure(self.phase is Phase.BETTING and bool(self.seats),
               "the deal starts once at least one ante is up")
        ensure(not self.link.shuffle_due, "shuffle the pack before the round")

    def deal(self) -> None:
        self.verify_deal()
        self.phase = Phase.DEALING

    # ---- cards -----------------------------------------------------------------------------------
    def card_target(self) -> int | None:
        """Who gets the next card: seats in order from the dealer's left, then the dealer (0)."""
        if self.phase is not Phase.DEALING:
            return None
        order = self._order() + [DEALER]
        dealt = sum(len(s.cards) for s in self.seats.values()) + len(self.dealer)
        return order[dealt % len(order)]

    def verify_card(self, card: Card) -> None:
        target = self.card_target()
        ensure(target is not None, "RULES A10: no card is due now")
        ensure(not card.is_joker, "RULES A10: one 52-card pack, no joker")
        if target == DEALER and len(self.dealer) == HAND - 1:
            ensure(not card.is_back, "RULES A10: the dealer's last card is turned face up: read its face")
        ensure(card.is_back or card not in self._round_cards(), f"{card.code} was already dealt this round")

    def take_card(self, card: Card) -> None:
        self.verify_card(card)
        target = self.card_target()
        self.link.record_card(card)
        (self.dealer if target == DEALER else self.seats[target].cards).append(card)  # type: ignore[index]
        if len(self.dealer) == HAND:
            self.phase = Phase.DECIDING

    # ---- decisions -------------------------------------------------------------------------------
    def to_decide(self) -> int | None:
        return next((s for s in self._order() if not self.seats[s].decided), None)

    def verify_decision(self, seat: int) -> None:
        ensure(self.phase is Phase.DECIDING, "RULES A10: players fold or call after seeing five cards")
        ensure(seat in self.seats, f"seat {seat} has no hand this round")
        ensure(not self.seats[seat].decided, f"seat {seat} has already folded or called")

    def fold(self, seat: int) -> None:
        """RULES A10: a fold loses the ante."""
        self.verify_decision(seat)
        s = self.seats[seat]
        s.folded = True
        move(self.table, STAKES, HOUSE, s.ante, "caribbean stud: folded ante")
        self._after_decision()

    def call(self, seat: int) -> None:
        self.verify_decision(seat)
        s = self.seats[seat]
        amount = s.ante * self.rules.call_multiple
        have = self.table.ledger.balance(seat_account(seat))
        ensure(have >= amount, f"seat {seat} has {have} chips; the call is {amount}")
        move(self.table, seat_account(seat), STAKES, amount, "caribbean stud call")
        s.call = amount
        self._after_decision()

    def _after_decision(self) -> None:
        if self.to_decide() is None:
            callers = [s for s in self.seats.values() if s.call]
            self.phase = Phase.REVEALING if callers else Phase.SETTLING

    # ---- reveal ----------------------------------------------------------------------------------
    def to_reveal(self) -> int | None:
        """The dealer's hand first; callers' hands only when the dealer qualifies."""
        if self.phase is not Phase.REVEALING:
            return None
        if not self.dealer_shown:
            return DEALER
        return next((n for n in self._order() if self.seats[n].call and not self.seats[n].shown), None)

    def verify_reveal(self, who: int, cards: tuple[Card, ...]) -> list[Card]:
        ensure(self.to_reveal() == who, f"{'the dealer' if who == DEALER else f'seat {who}'} does not show "
                                        f"now (next: {self.to_reveal()})")
        dealt = self.dealer if who == DEALER else self.seats[who].cards
        return check_hand_cards(dealt, cards, self._round_cards(), "the dealer" if who == DEALER else
                                f"seat {who}")

    def reveal(self, who: int, cards: tuple[Card, ...]) -> None:
        faces = self.verify_reveal(who, cards)
        if who == DEALER:
            self.dealer[:] = faces
            self.dealer_shown = True
            if not dealer_qualifies(evaluate(faces, Ranking.STANDARD)):
                self.phase = Phase.SETTLING  # RULES A10: callers win the ante; no hand is compared
                return
        else:
            self.seats[who].cards[:] = faces
            self.seats[who].shown = True
        if self.to_reveal() is None:
            self.phase = Phase.SETTLING

    # ---- settlement ------------------------------------------------------------------------------
    def verify_settle(self) -> None:
        ensure(self.phase is Phase.SETTLING, "settle once every decision is made and the hands are shown")

    def settle(self) -> None:
        self.verify_settle()
        table = self.table
        dealer_value = evaluate(self.dealer, Ranking.STANDARD) if self.dealer_shown else None
        qualifies = dealer_value is not None and dealer_qualifies(dealer_value)
        results = []
        for n in self._order():
            s = self.seats[n]
            account = seat_account(n)
            row: dict[str, Any] = {"seat": n, "ante": s.ante, "call": s.call, "net": 0}
            if s.folded:
                row |= {"outcome": "fold", "net": -s.ante}
            elif not qualifies:
                # RULES A10: the dealer does not qualify: ante paid 1:1, the call returned
                move(table, STAKES, account, s.ante + s.call, "caribbean stud: stakes back")
                move(table, HOUSE, account, s.ante, "caribbean stud: ante paid, dealer does not qualify")
                row |= {"outcome": "dealer-does-not-qualify", "net": s.ante}
            else:
                assert dealer_value is not None
                mine = evaluate(s.cards, Ranking.STANDARD)
                row |= {"hand": str(mine), "class": hand_class(mine)}
                if mine > dealer_value:
                    ratio: Ratio = self.rules.paytable.ratio(hand_class(mine))
                    payout = pay(s.call, ratio, self.rules.rounding)
                    self.remainders += payout.remainder
                    move(table, STAKES, account, s.ante + s.call, "caribbean stud: stakes back")
                    move(table, HOUSE, account, s.ante + payout.amount,
                         f"caribbean stud: ante 1:1, call {ratio}")
                    row |= {"outcome": "win", "net": s.ante + payout.amount, "call_paid": str(ratio)}
                elif mine < dealer_value:
                    move(table, STAKES, HOUSE, s.ante + s.call, "caribbean stud: ante and call lost")
                    row |= {"outcome": "lose", "net": -(s.ante + s.call)}
                else:
                    move(table, STAKES, account, s.ante + s.call, "caribbean stud: tie pushes")
                    row |= {"outcome": "push"}
            results.append(row)
        self.results = results
        self.history.append({"round": self.round, "dealer": [c.code for c in self.dealer] if self.dealer_shown
                             else None, "qualifies": qualifies if self.dealer_shown else None,
                             "results": results})
        self.link.mark_round_end(always_shuffle=True)
        self.round += 1
        self.phase = Phase.BETTING
        self.seats, self.dealer, self.dealer_shown = {}, [], False

    # ---- Game protocol ---------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        if self.phase is Phase.BETTING:
            if self.link.shuffle_due:
                return Prompt(Step.SHUFFLE, "dealer", text="shuffle the pack")
            return Prompt(Step.BET, "players", ("ante", "deal"), "post antes, then deal")
        if self.phase is Phase.DEALING:
            target = self.card_target()
            who = "dealer" if target == DEALER else f"seat-{target}"
            face = " face up" if target == DEALER and len(self.dealer) == HAND - 1 else ""
            return Prompt(Step.CARD, who, ("card",), f"deal a card{face} to {who}")
        if self.phase is Phase.DECIDING:
            return Prompt(Step.DECIDE, f"seat-{self.to_decide()}", ("fold", "call"),
                          f"seat {self.to_decide()}: fold or call {self.rules.call_multiple}x the ante")
        if self.phase is Phase.REVEALING:
            revealing = self.to_reveal()
            name = "dealer" if revealing == DEALER else f"seat-{revealing}"
            return Prompt(Step.DECIDE, name, ("reveal",), f"turn up {name}'s hand")
        return Prompt(Step.SETTLE, "dealer", ("settle",), "settle every seat")

    def card_operation(self, card: Card) -> Operation:
        return CaribbeanCard(card)

    def decide(self, seat: int) -> bool:
        """Optimal play for ``seat``: call when calling beats folding, over every dealer hole-card set."""
        s = self.seats[seat]
        assert self.upcard is not None
        counts = call_counts(s.cards, self.upcard)
        return counts.should_call(self.rules.call_multiple, self.rules.paytable)

    def auto_operation(self) -> Operation | None:
        if self.phase is Phase.DECIDING:
            seat = self.to_decide()
            assert seat is not None
            if any(c.is_back for c in self.seats[seat].cards):
                return None  # live mode: the player decides
            return CaribbeanCall(seat) if self.decide(seat) else CaribbeanFold(seat)
        if self.phase is Phase.REVEALING:
            who = self.to_reveal()
            assert who is not None
            dealt = self.dealer if who == DEALER else self.seats[who].cards
            return None if any(c.is_back for c in dealt) else CaribbeanReveal(who, ())
        if self.phase is Phase.SETTLING:
            return CaribbeanSettle()
        return None

    def to_json(self) -> dict[str, Any]:
        seats: dict[str, Any] = {}
        row: dict[str, Any]
        for n, s in sorted(self.seats.items()):
            shown = s.shown
            seats[str(n)] = row = {"ante": s.ante, "call": s.call, "folded": s.folded,
                             "cards": [c.code for c in s.cards] if shown else len(s.cards)}
            if shown:
                row["hand"] = str(evaluate(s.cards, Ranking.STANDARD))
        dealer: dict[str, Any] = {"cards": len(self.dealer),
                                  "upcard": self.upcard.code if self.upcard else None}
        if self.dealer_shown:
            value = evaluate(self.dealer, Ranking.STANDARD)
            dealer |= {"cards": [c.code for c in self.dealer], "hand": str(value),
                       "qualifies": dealer_qualifies(value)}
        return {"game": GAME, "rules": self.rules.to_json(), "round": self.round, "phase": self.phase.value,
                "seats": seats, "dealer": dealer, "results": self.results, "history": self.history[-10:],
                "rounding_to_house": str(self.remainders), "prompt": self.prompt().to_json()}


def _game(table: TableState) -> CaribbeanStudGame:
    return game_of(table, GAME, CaribbeanStudGame, "caribbean-stud.new")


# ---- operations ----------------------------------------------------------------------------------
@register_operation
@dataclass(frozen=True)
class NewCaribbeanStudGame(Operation):
    """Open a caribbean stud table. ``paytable`` overrides [STD] lines: ``"royal-flush=250:1"``.

    A one-pack shoe is loaded in ``mode`` when the table has none (or ``fresh_shoe``)."""

    kind: ClassVar[str] = "caribbean-stud.new"
    call_multiple: int = 2
    paytable: str = ""
    seats: int = 7
    min_ante: int = 1
    max_ante: int | None = None
    mode: ShoeMode = ShoeMode.KNOWN
    fresh_shoe: bool = False

    def apply(self, table: TableState) -> None:
        rules = CaribbeanRules(self.call_multiple, Paytable.parse(self.paytable), self.seats, self.min_ante,
                               self.max_ante)
        open_pack(table, self.mode, self.fresh_shoe)
        table.games[GAME] = CaribbeanStudGame(rules=rules, link=ShoeLink(table))


@register_operation
@dataclass(frozen=True)
class CaribbeanAnte(Operation):
    kind: ClassVar[str] = "caribbean-stud.ante"
    seat: int
    amount: int

    def apply(self, table: TableState) -> None:
        _game(table).ante(self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class CaribbeanDeal(Operation):
    """Antes are closed: the deal begins."""

    kind: ClassVar[str] = "caribbean-stud.deal"

    def apply(self, table: TableState) -> None:
        _game(table).deal()


@register_operation
@dataclass(frozen=True)
class CaribbeanCard(Operation):
    """The next card of the deal (``BK`` for a player's card dealt face down unseen)."""

    kind: ClassVar[str] = "caribbean-stud.card"
    card: Card

    def apply(self, table: TableState) -> None:
        _game(table).take_card(self.card)


@register_operation
@dataclass(frozen=True)
class CaribbeanFold(Operation):
    kind: ClassVar[str] = "caribbean-stud.fold"
    seat: int

    def apply(self, table: TableState) -> None:
        _game(table).fold(self.seat)


@register_operation
@dataclass(frozen=True)
class CaribbeanCall(Operation):
    kind: ClassVar[str] = "caribbean-stud.call"
    seat: int

    def apply(self, table: TableState) -> None:
        _game(table).call(self.seat)


@register_operation
@dataclass(frozen=True)
class CaribbeanReveal(Operation):
    """A hand is turned up (``seat`` 0 = the dealer); ``cards`` gives faces not yet seen."""

    kind: ClassVar[str] = "caribbean-stud.reveal"
    seat: int
    cards: tuple[Card, ...] = ()

    def apply(self, table: TableState) -> None:
        _game(table).reveal(self.seat, tuple(self.cards))


@register_operation
@dataclass(frozen=True)
class CaribbeanSettle(Operation):
    kind: ClassVar[str] = "caribbean-stud.settle"

    def apply(self, table: TableState) -> None:
        _game(table).settle()
