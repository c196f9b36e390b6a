"""Baccarat / Punto Banco (RULES A3): drawing tableau, commission boxes, roads.

The seed lost the drawing chart; the Player rule survives (0-5 draw, 6-7 stand, 8-9 natural) and
the Banker rule is the standard Punto Banco tableau ([STD], see ``docs/games/baccarat.md``). No one
has a choice: every card goes where the tableau sends it, so a live round needs only the cards.

>>> from dealer.core.table_state import TableState, ShuffleShoe, TransferChips
>>> from dealer.core.cards import parse_cards
>>> table = TableState()
>>> table.apply(NewBaccaratGame(rules="noburn"))
>>> table.apply(ShuffleShoe(seed=1))
>>> table.apply(TransferChips("cage", "seat-1", 100))
>>> table.apply(BaccaratBet(seat=1, side=Side.BANKER, amount=20))
>>> table.apply(StartCoup())
>>> game = table.games["baccarat"]
>>> for card in parse_cards("2S 9H 3D 7C 4H"):  # Player 5 draws a 4; Banker 6 stands on a 4
...     table.apply(game.card_operation(card))
>>> game.last.winner, game.last.player, game.last.banker, table.ledger.balance("seat-1")
('P', 9, 6, 80)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, ClassVar

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Prompt, Step
from dealer.core.games.roads import CoupResult, roads
from dealer.core.games.shoe_game import ReshuffleDiscards, ShoeLink, move, seat_account
from dealer.core.ledger import HOUSE
from dealer.core.money import EIGHT_TO_ONE, EVEN, Ratio, Rounding, check_chips, commission, pay
from dealer.core.operations import Operation, can, ensure, register_operation
from dealer.core.shoe import BACCARAT_CUT, BurnRule, CutRule, Shoe, ShoeMode, ShoeRules
from dealer.core.table_state import game_of

if TYPE_CHECKING:
    from dealer.core.table_state import TableState

GAME = "baccarat"
STAKES = "baccarat:stakes"
FIVE_PERCENT = Ratio(5, 100)


# ---- values and the tableau (shared with chemin de fer) -------------------------------------------
def points(card: Card) -> int:
    """RULES A3: tens and faces 0, ace 1, others their pips."""
    if card.rank is None:
        raise IllegalOperation(f"baccarat needs a rank-and-suit card, not {card.code}")
    return int(card.rank) % 10 if int(card.rank) < 10 else 0


def total(cards: list[Card] | tuple[Card, ...]) -> int:
    """Only the units digit counts (RULES A3: 5 + 6 = 1)."""
    return sum(points(c) for c in cards) % 10


def player_draws(player_total: int) -> bool:
    """RULES A3 (the seed's Player rule): 0-5 draw, 6-7 stand (8-9 are naturals)."""
    return player_total <= 5


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """[STD] the Punto Banco banker tableau. ``player_third`` is the value of the Player's third
    card, or None when the Player stood.

    >>> [banker_draws(3, t) for t in range(10)]
    [True, True, True, True, True, True, True, True, False, True]
    >>> [b for b in range(8) if banker_draws(b, None)]
    [0, 1, 2, 3, 4, 5]
    """
    if player_third is None:
        return banker_total <= 5
    if banker_total <= 2:
        return True
    if banker_total == 3:
        return player_third != 8
    if banker_total == 4:
        return 2 <= player_third <= 7
    if banker_total == 5:
        return 4 <= player_third <= 7
    if banker_total == 6:
        return player_third in (6, 7)
    return False


# ---- rules -----------------------------------------------------------------------------------------
class Side(enum.Enum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


class CommissionTiming(enum.Enum):
    END_OF_SHOE = "end-of-shoe"  # RULES A3: kept in boxes, collected at the end of the shoe
    IMMEDIATE = "immediate"


@dataclass(frozen=True)
class BaccaratRules:
    """House rules (RULES A3 defaults). Spec tokens: ``decks=N``, ``seats=N``, ``min=N``, ``max=N``,
    ``commission=5`` (per cent), ``tie=8:1``, ``immediate`` / ``boxes``, ``burn`` / ``noburn``,
    ``rotate`` / ``norotate`` (the shoe passes on a Bank loss), ``cutmin=N``, ``cutmax=N``.

    >>> BaccaratRules.parse("decks=6,tie=9:1,immediate").spec()
    'decks=6,seats=12,min=1,max=1000,commission=5,tie=9:1,immediate,burn,rotate,cutmin=14,cutmax=16'
    """

    decks: int = 8
    seats: int = 12
    min_bet: int = 1
    max_bet: int = 1000
    commission_percent: int = 5
    commission_rounding: Rounding = Rounding.UP
    tie_pays: Ratio = EIGHT_TO_ONE
    timing: CommissionTiming = CommissionTiming.END_OF_SHOE
    burn: bool = True  # show the first card, burn that many (RULES A3 / H2)
    shoe_rotates: bool = True  # [STD] the shoe moves on when the Bank loses
    cut_min: int = BACCARAT_CUT.min_behind
    cut_max: int = BACCARAT_CUT.max_behind

    def __post_init__(self) -> None:
        ensure(1 <= self.decks <= 16, f"a baccarat shoe holds 1 to 16 decks, not {self.decks}")
        ensure(1 <= self.seats <= 12, f"RULES A3: twelve seats at most, not {self.seats}")
        ensure(1 <= self.min_bet <= self.max_bet, "bet limits need 1 <= min <= max")
        ensure(0 <= self.commission_percent <= 100, "commission is a percentage 0..100")
        ensure(0 <= self.cut_min <= self.cut_max < 52 * self.decks,
               "cut card must leave fewer cards behind than the shoe holds")

    @property
    def commission(self) -> Ratio:
        return Ratio(self.commission_percent, 100)

    _NUMBERS: ClassVar[dict[str, str]] = {"decks": "decks", "seats": "seats", "min": "min_bet",
                                          "max": "max_bet",
                                          "commission": "commission_percent", "cutmin": "cut_min",
                                          "cutmax": "cut_max"}
    _FLAGS: ClassVar[dict[str, tuple[str, Any]]] = {
        "immediate": ("timing", CommissionTiming.IMMEDIATE),
        "boxes": ("timing", CommissionTiming.END_OF_SHOE),
        "burn": ("burn", True), "noburn": ("burn", False),
        "rotate": ("shoe_rotates", True), "norotate": ("shoe_rotates", False),
    }

    @classmethod
    def parse(cls, spec: str) -> BaccaratRules:
        changes: dict[str, Any] = {}
        for raw in spec.split(","):
            token = raw.strip().lower()
            if not token:
                continue
            key, eq, value = token.partition("=")
            if token in cls._FLAGS:
                changes[cls._FLAGS[token][0]] = cls._FLAGS[token][1]
            elif eq and key in cls._NUMBERS and value.isdigit():
                changes[cls._NUMBERS[key]] = int(value)
            elif eq and key == "tie":
                changes["tie_pays"] = Ratio.parse(value)
            elif eq and key == "round" and value in {r.value for r in Rounding}:
                changes["commission_rounding"] = Rounding(value)
            else:
                raise IllegalOperation(
                    f"unknown baccarat rule {raw.strip()!r}: expected "
                    f"{', '.join(k + '=N' for k in cls._NUMBERS)}, "
                    f"tie=W:S, round=up|down|half-up, or one of {', '.join(cls._FLAGS)}")
        return replace(cls(), **changes)

    def spec(self) -> str:
        return ",".join([
            f"decks={self.decks}", f"seats={self.seats}", f"min={self.min_bet}", f"max={self.max_bet}",
            f"commission={self.commission_percent}", f"tie={self.tie_pays}",
            "immediate" if self.timing is CommissionTiming.IMMEDIATE else "boxes",
            "burn" if self.burn else "noburn", "rotate" if self.shoe_rotates else "norotate",
            f"cutmin={self.cut_min}", f"cutmax={self.cut_max}"])

    def shoe_rules(self) -> ShoeRules:
        return ShoeRules(self.decks, "standard-52", CutRule(self.cut_min, self.cut_max),
                         BurnRule.FIRST_CARD_VALUE if self.burn else BurnRule.NONE)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, enum.Enum) else (
                str(value) if isinstance(value, Ratio) else value)
        return out


# ---- state -----------------------------------------------------------------------------------------
class Phase(enum.Enum):
    BETTING = "betting"
    DEALING = "dealing"


@dataclass
class Bet:
    seat: int
    side: Side
    amount: int
    net: int = 0
    result: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "side": self.side.value, "amount": self.amount, "net": self.net,
                "result": self.result}


@dataclass
class BaccaratGame:
    """One punto banco table (``table.games["baccarat"]``)."""

    name: ClassVar[str] = GAME
    rules: BaccaratRules = field(default_factory=BaccaratRules)
    link: ShoeLink = field(default_factory=ShoeLink)
    phase: Phase = Phase.BETTING
    coup: int = 0
    bets: list[Bet] = field(default_factory=list)
    player: list[Card] = field(default_factory=list)
    banker: list[Card] = field(default_factory=list)
    results: list[CoupResult] = field(default_factory=list)  # this shoe's coups, for the roads
    results_shoe: int = -1  # the shoe (shuffle count) the results belong to
    boxes: dict[int, int] = field(default_factory=dict)  # seat -> banker winnings not yet commissioned
    shoe_holder: int = 1  # RULES A3: a player holds the shoe as Bank, starting with seat 1
    last: CoupResult | None = None
    collected: list[dict[str, Any]] = field(default_factory=list)  # commission collections (public)
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def table(self) -> TableState:
        if self.link.table is None:
            raise IllegalOperation("this baccarat game is not attached to a table")
        return self.link.table

    # ---- commission boxes -------------------------------------------------------------------------
    def owed(self, seat: int) -> int:
        """Commission a seat owes now (its box, rounded by the house rule)."""
        won = self.boxes.get(seat, 0)
        return commission(won, self.rules.commission, self.rules.commission_rounding).amount if won else 0

    def collect(self, seats: list[int] | None = None, reason: str = "end of shoe") -> None:
        """Collect the commission boxes (RULES A3: at the end of the shoe, or when a player leaves)."""
        for seat in sorted(self.boxes if seats is None else seats):
            won = self.boxes.pop(seat, 0)
            if not won:
                continue
            due = commission(won, self.rules.commission, self.rules.commission_rounding)
            move(self.table, seat_account(seat), HOUSE, due.amount, f"baccarat commission seat {seat}")
            self.collected.append({"seat": seat, "banker_wins": won, "commission": due.amount,
                                   "rounding": str(-due.remainder), "reason": reason})
        del self.collected[:-50]

    def verify_leave(self, seat: int) -> None:
        ensure(self.phase is Phase.BETTING and not any(b.seat == seat for b in self.bets),
               f"seat {seat} has bets on the layout; settle the coup first")

    def leave(self, seat: int) -> None:
        self.verify_leave(seat)
        self.collect([seat], reason="player leaves")

    # ---- bets --------------------------------------------------------------------------------------
    def verify_bet(self, seat: int, side: Side, amount: int) -> None:
        check_chips(amount, "bet")
        ensure(self.phase is Phase.BETTING, "RULES A3: bets are placed before the deal")
        ensure(1 <= seat <= self.rules.seats, f"RULES A3: seats are 1..{self.rules.seats}, not {seat}")
        on_side = sum(b.amount for b in self.bets if b.seat == seat and b.side is side) + amount
        ensure(self.rules.min_bet <= on_side <= self.rules.max_bet,
               f"a bet must be within the table limits {self.rules.min_bet}..{self.rules.max_bet}, "
               f"not {on_side}")
        balance = self.table.ledger.balance(seat_account(seat))
        owed = self.owed(seat)
        ensure(balance - owed >= amount,
               f"seat {seat} has {balance} chips, owes {owed} commission, and cannot bet {amount}")

    def can_bet(self, seat: int, side: Side, amount: int) -> bool:
        return can(self.verify_bet, seat, side, amount)

    def bet(self, seat: int, side: Side, amount: int) -> None:
        self.verify_bet(seat, side, amount)
        if not self.bets:
            self.player, self.banker = [], []
        move(self.table, seat_account(seat), STAKES, amount, f"baccarat {side.value} bet seat {seat}")
        for b in self.bets:
            if b.seat == seat and b.side is side:
                b.amount += amount
                return
        self.bets.append(Bet(seat, side, amount))

    def verify_start(self) -> None:
        ensure(self.phase is Phase.BETTING, "a coup is already under way")
        ensure(not self.link.shuffle_due, "RULES A3: the shoe is finished; shuffle before the next coup")
        ensure(not self.link.burn_due, "RULES A3: burn the first cards of the shoe before the first coup")

    def can_start(self) -> bool:
        return can(self.verify_start)

    def start(self) -> None:
        """Bets are closed. A coup may be dealt with no bets (the shoe still runs for the roads)."""
        self.verify_start()
        shoe = self.link.require_shoe()
        if self.results_shoe != shoe.shuffles:
            self.results, self.results_shoe = [], shoe.shuffles
        self.coup += 1
        self.player, self.banker = [], []
        self.phase = Phase.DEALING

    # ---- cards -------------------------------------------------------------------------------------
    def card_target(self) -> str | None:
        if self.phase is Phase.BETTING:
            return "burn" if self.link.burn_due else None
        p, b = len(self.player), len(self.banker)
        if p + b < 4:
            return "player" if p == b else "banker"  # RULES A3: dealt alternately, Player first
        pt, bt = total(self.player), total(self.banker)
        if pt >= 8 or bt >= 8:
            return None  # a natural: no draws
        if p == 2 and player_draws(pt):
            return "player"
        third = points(self.player[2]) if p == 3 else None
        if b == 2 and banker_draws(bt, third):
            return "banker"
        return None

    def verify_card(self, card: Card) -> None:
        target = self.card_target()
        ensure(target is not None, "RULES A3: no card is due now" if self.phase is Phase.DEALING
               else "no coup is being dealt: place bets and start the coup")
        ensure(not card.is_joker, "baccarat is dealt from standard packs: no jokers")
        if target != "burn":
            ensure(not card.is_back, "RULES A3: every baccarat card is turned face up (BK is not a card)")

    def can_card(self, card: Card) -> bool:
        return can(self.verify_card, card)

    def take_card(self, card: Card) -> None:
        self.verify_card(card)
        target = self.card_target()
        if target == "burn":
            self.link.record_burn(card)
            return
        self.link.record_card(card)
        (self.player if target == "player" else self.banker).append(card)
        if self.card_target() is None:
            self._settle()

    def cards_in_play(self) -> list[Card]:
        return list(self.player + self.banker) if self.phase is Phase.DEALING else []

    # ---- settlement --------------------------------------------------------------------------------
    def _settle(self) -> None:
        pt, bt = total(self.player), total(self.banker)
        winner = "P" if pt > bt else "B" if bt > pt else "T"
        natural = len(self.player) == 2 and len(self.banker) == 2 and (pt >= 8 or bt >= 8)
        coup = CoupResult(winner, pt, bt, natural,
                          self.player[0].rank == self.player[1].rank,
                          self.banker[0].rank == self.banker[1].rank)
        table = self.table
        for bet in self.bets:
            account, who = seat_account(bet.seat), f"seat {bet.seat}"
            if bet.side is Side.TIE:
                if winner == "T":
                    won = pay(bet.amount, self.rules.tie_pays).amount
                    move(table, HOUSE, account, won, f"tie wins {who}")
                    move(table, STAKES, account, bet.amount, f"stake back {who}")
                    bet.net, bet.result = won, "win"
                else:
                    move(table, STAKES, HOUSE, bet.amount, f"tie loses {who}")
                    bet.net, bet.result = -bet.amount, "lose"
                continue
            if winner == "T":  # RULES A3: equal totals are a stand-off, bets withdrawn
                move(table, STAKES, account, bet.amount, f"stand-off {who}")
                bet.net, bet.result = 0, "push"
            elif (bet.side is Side.BANKER) == (winner == "B"):
                move(table, HOUSE, account, pay(bet.amount, EVEN).amount, f"{bet.side.value} wins {who}")
                move(table, STAKES, account, bet.amount, f"stake back {who}")
                bet.net, bet.result = bet.amount, "win"
                if bet.side is Side.BANKER:  # RULES A3: 1:1 less 5 % commission
                    if self.rules.timing is CommissionTiming.IMMEDIATE:
                        due = commission(bet.amount, self.rules.commission, self.rules.commission_rounding)
                        move(table, account, HOUSE, due.amount, f"commission {who}")
                        bet.net -= due.amount
                    else:
                        self.boxes[bet.seat] = self.boxes.get(bet.seat, 0) + bet.amount
            else:
                move(table, STAKES, HOUSE, bet.amount, f"{bet.side.value} loses {who}")
                bet.net, bet.result = -bet.amount, "lose"
        self.results.append(coup)
        self.last = coup
        self.history.append({"coup": self.coup, "player_cards": [c.code for c in self.player],
                             "banker_cards": [c.code for c in self.banker], "winner": winner,
                             "player_total": pt, "banker_total": bt, "natural": natural,
                             "player_pair": coup.player_pair, "banker_pair": coup.banker_pair,
                             "bets": [b.to_json() for b in self.bets]})
        del self.history[:-20]
        if winner == "P" and self.rules.shoe_rotates:  # [STD] the shoe moves on when the Bank loses
            self.shoe_holder = self.shoe_holder % self.rules.seats + 1
        self.bets = []
        self.phase = Phase.BETTING
        self.link.mark_round_end()
        if self.link.shuffle_due:
            self.collect()  # RULES A3: the boxes are collected at the end of the shoe

    # ---- Game protocol -----------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        if self.phase is Phase.BETTING:
            if self.link.shuffle_due:
                return Prompt(Step.SHUFFLE, "dealer", text="end of the shoe: shuffle and cut")
            if self.link.burn_due:
                shown = self.link.shown_burn
                text = "show the first card and burn that many" if shown is None else \
                    f"burn face down ({shown.code} shown)"
                return Prompt(Step.CARD, "burn", text=text)
            return Prompt(Step.BET, None, ("bet", "deal"),
                          text="place bets on Player, Banker or Tie, then deal")
        target = self.card_target()
        assert target is not None
        if self.link.empty:
            return Prompt(Step.DECIDE, "dealer", ("reshuffle",),
                          text="the shoe is empty: shuffle the discards")
        return Prompt(Step.CARD, target, text=f"card to {'Player' if target == 'player' else 'Banker'}")

    def card_operation(self, card: Card) -> Operation:
        return BaccaratCard(card)

    def auto_operation(self) -> Operation | None:
        if self.phase is Phase.DEALING and self.link.empty:
            return ReshuffleDiscards(GAME)
        return None  # baccarat has no decisions: the tableau places every card

    def to_json(self) -> dict[str, Any]:
        shoe = self.link.shoe
        shown = self.link.shown_burn
        results = self.results if shoe is not None and self.results_shoe == shoe.shuffles else []
        return {
            "game": GAME, "rules": self.rules.to_json(), "phase": self.phase.value, "coup": self.coup,
            "prompt": self.prompt().to_json(),
            "player": {"cards": [c.code for c in self.player], "total": total(self.player)},
            "banker": {"cards": [c.code for c in self.banker], "total": total(self.banker)},
            "bets": [b.to_json() for b in self.bets],
            "last": None if self.last is None else self.last.to_json(),
            "commission_boxes": {str(s): {"banker_wins": w, "owed": self.owed(s)}
                                 for s, w in sorted(self.boxes.items())},
            "shoe_holder": self.shoe_holder,
            "roads": roads(results),
            "shoe": None if shoe is None else {"penetration": round(shoe.penetration, 4),
                                                "cards_left": shoe.cards_left,
                                                "cut_card_out": shoe.cut_card_reached,
                                                "burn_shown": None if shown is None else shown.code},
            "last_coups": self.history[-5:],
            "collected": self.collected[-12:],
        }



def _game(table: TableState) -> BaccaratGame:
    return game_of(table, GAME, BaccaratGame, "baccarat.new")


# ---- operations ------------------------------------------------------------------------------------
@register_operation
@dataclass(frozen=True)
class NewBaccaratGame(Operation):
    """Open punto banco with house rules ``rules`` (see :class:`BaccaratRules`). A shoe for the
    rules is loaded in ``mode`` when the table has none (or ``fresh_shoe``)."""

    kind: ClassVar[str] = "baccarat.new"
    rules: str = ""
    mode: ShoeMode = ShoeMode.KNOWN
    fresh_shoe: bool = False

    def apply(self, table: TableState) -> None:
        rules = BaccaratRules.parse(self.rules)
        if table.shoe is None or self.fresh_shoe:
            table.shoe = Shoe(rules.shoe_rules(), self.mode)
        table.games[GAME] = BaccaratGame(rules=rules, link=ShoeLink(table))


@register_operation
@dataclass(frozen=True)
class BaccaratBet(Operation):
    kind: ClassVar[str] = "baccarat.bet"
    seat: int
    side: Side
    amount: int

    def apply(self, table: TableState) -> None:
        _game(table).bet(self.seat, self.side, self.amount)


@register_operation
@dataclass(frozen=True)
class StartCoup(Operation):
    kind: ClassVar[str] = "baccarat.deal"

    def apply(self, table: TableState) -> None:
        _game(table).start()


@register_operation
@dataclass(frozen=True)
class BaccaratCard(Operation):
    """A card out of the shoe (recorded in the shoe too): a burn card, or to Player or Banker."""

    kind: ClassVar[str] = "baccarat.card"
    card: Card

    def apply(self, table: TableState) -> None:
        _game(table).take_card(self.card)


@register_operation
@dataclass(frozen=True)
class LeaveTable(Operation):
    """A player leaves: his commission box is collected now (RULES A3)."""

    kind: ClassVar[str] = "baccarat.leave"
    seat: int

    def apply(self, table: TableState) -> None:
        _game(table).leave(self.seat)


